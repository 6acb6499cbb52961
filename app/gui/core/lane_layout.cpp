// Where every mark and word of the timeline goes so that nothing overlaps (lane_layout.hpp).
#include "lane_layout.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "marks.hpp"
#include "palette.hpp"

namespace leasescope::gui {

float estimated_width(std::string_view text, float px) {
    float w = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        w += len >= 3 ? px : px * 0.62f;  // Hangul and other wide letters take a whole em
        i += len;
    }
    return w;
}

TextMetrics estimated_metrics(float body_px, float small_px) {
    TextMetrics m;
    m.body_width = [body_px](std::string_view t) { return estimated_width(t, body_px); };
    m.small_width = [small_px](std::string_view t) { return estimated_width(t, small_px); };
    m.body_h = body_px;
    m.small_h = small_px;
    return m;
}

float mark_radius(double px_per_tick, float lane_h, float scale) {
    const float by_lane = std::clamp(lane_h * 0.22f, 4.0f * scale, 9.0f * scale);
    // Two ticks' marks must not touch: a mark is at most a cell wide.
    const auto by_cell = static_cast<float>(px_per_tick / 2.5);
    return std::max(3.5f * scale, std::min(by_lane, by_cell));
}

namespace {

constexpr float gap = 2.0f;        // between a mark and its neighbour
constexpr float label_pad = 3.0f;  // the background around a word

Box mark_box(MarkerKind kind, float x, float y, float r) {
    const float e = mark_glyph(kind).extent * r;
    return Box{x - e, y - e, x + e, y + e};
}

// The free stretch of [xa, xb] in the band [y0, y1] that is clear of every
// box in `taken`: the leftmost one at least `w` wide (or the rightmost).
bool find_room(const std::vector<Box>& taken, float y0, float y1, float xa, float xb, float w, bool right,
               float& x_out) {
    std::vector<std::pair<float, float>> blocked;
    for (const Box& b : taken)
        if (b.y0 < y1 && y0 < b.y1 && b.x1 > xa && b.x0 < xb) blocked.emplace_back(b.x0 - gap, b.x1 + gap);
    std::sort(blocked.begin(), blocked.end());
    std::vector<std::pair<float, float>> free;
    float cursor = xa;
    for (const auto& [b0, b1] : blocked) {
        if (b0 > cursor) free.emplace_back(cursor, std::min(b0, xb));
        cursor = std::max(cursor, b1);
        if (cursor >= xb) break;
    }
    if (cursor < xb) free.emplace_back(cursor, xb);
    if (right) {
        for (auto it = free.rbegin(); it != free.rend(); ++it)
            if (it->second - it->first >= w) {
                x_out = it->second - w;
                return true;
            }
    } else {
        for (const auto& [f0, f1] : free)
            if (f1 - f0 >= w) {
                x_out = f0;
                return true;
            }
    }
    return false;
}

struct LaneWork {
    const Lane& lane;
    std::int32_t index;
    float y;  // top of the lane row
    float h;
    float plot_x0, plot_x1;  // words stay inside the plot
    std::vector<Box> taken;  // marks and words placed so far
};

// Tries the texts in order (longest first) and places the first that fits.
bool place_label(LaneWork& lw, LaneLayout& out, PlacedLabel proto, const std::vector<std::string>& texts,
                 const TextMetrics& m, float y0, float xa, float xb, bool right, bool padded) {
    const float th = proto.small ? m.small_h : m.body_h;
    const float pad = padded ? label_pad : 0.0f;
    const float h = th + (padded ? 2.0f : 0.0f);
    const float y1 = y0 + h;
    if (y0 < lw.y || y1 > lw.y + lw.h + 0.01f) return false;  // never outside its lane
    xa = std::max(xa, lw.plot_x0);
    xb = std::min(xb, lw.plot_x1);
    for (const std::string& text : texts) {
        if (text.empty()) continue;
        const float tw = proto.small ? m.small_width(text) : m.body_width(text);
        const float w = tw + 2 * pad;
        float x = 0;
        if (!find_room(lw.taken, y0, y1, xa, xb, w, right, x)) continue;
        proto.text = text;
        proto.box = Box{x, y0, x + w, y1};
        proto.text_x = x + pad;
        proto.text_y = y0 + (padded ? 1.0f : 0.0f);
        lw.taken.push_back(proto.box);
        out.labels.push_back(std::move(proto));
        return true;
    }
    return false;
}

// `into` stands for `pm` too: the count adds up, the most telling kind shows.
void fold_into(PlacedMark& into, const PlacedMark& pm) {
    into.folded += pm.folded;
    if (marker_priority(pm.kind) > marker_priority(into.kind)) {
        into.kind = pm.kind;
        into.marker = pm.marker;
        into.box = mark_box(pm.kind, into.x, into.y, into.r);
    }
}

// The marks of one tick that are drawn: the run's start says nothing when
// its first attempt sits on the same tick.
std::vector<std::int32_t> shown_marks(const Lane& lane, const std::vector<std::int32_t>& group) {
    std::vector<std::int32_t> shown;
    for (std::int32_t i : group)
        if (group.size() == 1 || lane.markers[static_cast<std::size_t>(i)].kind != MarkerKind::start)
            shown.push_back(i);
    return shown;
}

float mark_size(const Lane& lane, std::int32_t i, float r) {
    return 2 * mark_glyph(lane.markers[static_cast<std::size_t>(i)].kind).extent * r;
}

// Side by side when that fits the cell, else on top of each other; a
// crowded tick draws its marks a little smaller (`r`) rather than hide one.
bool fits_side_by_side(const Lane& lane, const std::vector<std::int32_t>& shown, float cell_w, float room, float& r) {
    float extents = 0;  // the group's size in units of the radius
    for (std::int32_t i : shown) extents += mark_size(lane, i, 1.0f);
    const float gaps = gap * static_cast<float>(shown.size() - 1);
    bool side_by_side = shown.size() == 1 || extents * r + gaps <= cell_w + 0.05f;
    if (!side_by_side && extents * r + gaps > room + 0.05f) {
        const float r_across = (cell_w - gaps) / extents;
        const float r_down = (room - gaps) / extents;
        const float smaller = std::max(r_across, r_down) - 0.01f;
        if (smaller >= 3.0f) {
            r = smaller;
            side_by_side = r_across >= r_down;
        }
    }
    return side_by_side;
}

// Stacked marks: as many as `room` holds (at least one); when not all fit,
// the most telling stay, in the order they happened. Returns the height used.
// The kept ones are chosen by their own sizes, most telling first, so that a
// large glyph kept in place of small ones never makes the stack outgrow the
// lane (a check, a resume and an unsafe write at one tick once did).
float keep_what_fits(const Lane& lane, std::vector<std::int32_t>& shown, std::vector<float>& size, float room) {
    float used = 0;
    for (std::size_t k = 0; k < shown.size(); ++k) used += size[k] + (k > 0 ? gap : 0);
    if (used <= room + 0.05f) return used;  // a hair of slack for rounding
    std::vector<std::size_t> order(shown.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return marker_priority(lane.markers[static_cast<std::size_t>(shown[a])].kind) >
               marker_priority(lane.markers[static_cast<std::size_t>(shown[b])].kind);
    });
    std::vector<std::size_t> keep;
    used = 0;
    for (std::size_t k : order) {
        const float need = size[k] + (keep.empty() ? 0 : gap);
        if (!keep.empty() && used + need > room + 0.05f) continue;
        keep.push_back(k);
        used += need;
    }
    std::sort(keep.begin(), keep.end());
    std::vector<std::int32_t> kept;
    std::vector<float> kept_size;
    for (std::size_t k : keep) {
        kept.push_back(shown[k]);
        kept_size.push_back(size[k]);
    }
    shown = std::move(kept);
    size = std::move(kept_size);
    return used;
}

// Zoomed out, ticks crowd: a group that touches the marks before it folds
// into the last of them (which keeps the most telling kind). False when it
// does not touch them.
bool fold_into_previous(LaneWork& lw, LaneLayout& out, const std::vector<PlacedMark>& placed) {
    bool clash = false;
    for (const PlacedMark& pm : placed)
        for (std::size_t j = out.marks.size(); j-- > 0;) {
            const PlacedMark& prev = out.marks[j];
            if (prev.lane != lw.index) break;
            if (prev.box.intersects(pm.box)) clash = true;
            if (prev.box.x1 < pm.box.x0 - 40) break;
        }
    if (!clash || out.marks.empty() || out.marks.back().lane != lw.index) return false;
    PlacedMark& last = out.marks.back();
    for (const PlacedMark& pm : placed) fold_into(last, pm);
    lw.taken.back() = last.box;
    // A fold that took a larger glyph may now cover the mark before it:
    // that one takes it in too, so no mark hides another.
    while (out.marks.size() >= 2) {
        const PlacedMark grown = out.marks.back();
        PlacedMark& before = out.marks[out.marks.size() - 2];
        if (before.lane != lw.index || !before.box.intersects(grown.box)) break;
        fold_into(before, grown);
        out.marks.pop_back();
        lw.taken.pop_back();
        lw.taken.back() = before.box;
    }
    return true;
}

// A group on the first or last tick in view sticks out of a narrow plot by
// a little: it is nudged in whole, so that every mark shows, before any
// word is placed beside it (a word placed beside the mark where it would
// have been drawn ended up under it).
void nudge_into_plot(std::vector<PlacedMark>& placed, float plot_x0, float plot_x1) {
    if (placed.empty()) return;
    float x0 = placed.front().box.x0, x1 = placed.front().box.x1, widest = 0;
    for (const PlacedMark& pm : placed) {
        x0 = std::min(x0, pm.box.x0);
        x1 = std::max(x1, pm.box.x1);
        widest = std::max(widest, pm.box.w());
    }
    float dx = 0;
    if (x0 < plot_x0) dx = plot_x0 - x0;
    if (x1 > plot_x1) dx = plot_x1 - x1;
    if (dx == 0 || std::fabs(dx) > widest) return;
    for (PlacedMark& pm : placed) {
        pm.x += dx;
        pm.box.x0 += dx;
        pm.box.x1 += dx;
    }
}

// Marks of one tick: side by side when the cell is wide enough, else on top
// of each other; what still does not fit folds into the last one shown. In
// the order they happened (left to right, top to bottom).
void place_group(LaneWork& lw, LaneLayout& out, const std::vector<std::int32_t>& group, Tick tick, const LayoutFrame& f,
                 float r, float cy) {
    const Lane& lane = lw.lane;
    std::vector<std::int32_t> shown = shown_marks(lane, group);
    const std::size_t group_size = shown.size();
    const auto cx = static_cast<float>(f.axis.x_of(static_cast<double>(tick) + 0.5));
    const auto cell_w = static_cast<float>(f.axis.px_per_tick);
    const float room = lw.h - 2;  // the lane's height, for marks on top of each other
    const bool side_by_side = fits_side_by_side(lane, shown, cell_w, room, r);
    std::vector<float> size;  // each mark's full width (= height)
    float total = 0;
    for (std::int32_t i : shown) {
        size.push_back(mark_size(lane, i, r));
        total += size.back();
    }
    total += gap * static_cast<float>(shown.size() - 1);
    std::vector<PlacedMark> placed;
    auto make = [&](std::size_t k, float x, float y) {
        const std::int32_t i = shown[k];
        const MarkerKind kind = lane.markers[static_cast<std::size_t>(i)].kind;
        PlacedMark pm;
        pm.lane = lw.index;
        pm.marker = i;
        pm.kind = kind;
        pm.x = x;
        pm.y = y;
        pm.r = r;
        pm.box = mark_box(kind, x, y, r);
        placed.push_back(pm);
    };
    if (side_by_side) {
        float x = cx - total * 0.5f;
        for (std::size_t k = 0; k < shown.size(); ++k) {
            make(k, x + size[k] * 0.5f, cy);
            x += size[k] + gap;
        }
    } else {
        // Stacked: as many as the lane's height holds, centred on the lane.
        const float used = keep_what_fits(lane, shown, size, room);
        float y = lw.y + (lw.h - used) * 0.5f;
        for (std::size_t k = 0; k < shown.size(); ++k) {
            make(k, cx, y + size[k] * 0.5f);
            y += size[k] + gap;
        }
        placed.back().folded += static_cast<std::int32_t>(group_size - shown.size());
    }
    nudge_into_plot(placed, lw.plot_x0, lw.plot_x1);
    if (fold_into_previous(lw, out, placed)) return;
    for (PlacedMark& pm : placed) {
        lw.taken.push_back(pm.box);
        out.marks.push_back(pm);
    }
}

std::string owner_name(const LaneModel& model, std::int32_t owner) {
    if (owner < 0 || owner >= model.candidate_lanes) return {};
    return model.lanes[static_cast<std::size_t>(owner)].label;
}

bool is_write(MarkerKind k) {
    return k == MarkerKind::write_current || k == MarkerKind::write_stale || k == MarkerKind::write_unsafe ||
           k == MarkerKind::write_rejected_fence || k == MarkerKind::write_rejected_token ||
           k == MarkerKind::write_rejected_recorded || k == MarkerKind::write_lost_update ||
           k == MarkerKind::write_holder_rejected;
}

// What every step of one lane's layout reads: the frame, the words, the
// lane being laid out and where its marks end in `out.marks`.
struct LaneJob {
    const LaneModel& model;
    const LayoutFrame& f;
    const Strings& s;
    const TextMetrics& m;
    LaneLayout& out;
    LaneWork lw;
    float plot_x1;
    float cy;                        // the marks' centre line
    bool resource;                   // the resource lane (drawn up to f.resource_until)
    std::size_t lane_marks_end = 0;  // out.marks' size after this lane's marks

    bool shows(Tick t) const { return !resource || f.resource_until == tick_none || t <= f.resource_until; }
    const Lane& lane() const { return lw.lane; }
};

// 1a. Zoomed out: one thin bar per culled marker.
void place_overview_marks(LaneJob& j) {
    std::vector<DrawMarker> culled;
    cull_markers(j.lane().markers, j.f.axis, 4.0f, culled);
    for (const DrawMarker& d : culled) {
        if (d.x < j.f.plot_x || d.x > j.plot_x1) continue;
        const Marker& mk = j.lane().markers[static_cast<std::size_t>(d.marker)];
        if (!j.shows(mk.tick)) continue;
        PlacedMark pm;
        pm.lane = j.lw.index;
        pm.marker = d.marker;
        pm.kind = d.kind;
        pm.x = std::clamp(d.x, j.lw.plot_x0 + 1, j.lw.plot_x1 - 1);  // a bar at the edge shows whole
        pm.y = j.cy;
        pm.r = 1.0f;
        pm.folded = d.folded;
        pm.box = Box{pm.x - 1, j.lw.y + 2, pm.x + 1, j.lw.y + j.f.lane_h - 2};
        j.out.marks.push_back(pm);
    }
}

// 1b. The marks of the visible ticks, one group per tick.
void place_marks(LaneJob& j, float r) {
    const Lane& lane = j.lane();
    const double t0 = std::floor(j.f.axis.first_tick) - 1;
    const double t1 = j.f.axis.last_tick() + 1;
    auto it = std::lower_bound(lane.markers.begin(), lane.markers.end(), t0,
                               [](const Marker& mk, double t) { return static_cast<double>(mk.tick) < t; });
    std::vector<std::int32_t> group;
    Tick group_tick = 0;
    auto flush = [&] {
        if (group.empty()) return;
        const auto x = static_cast<float>(j.f.axis.x_of(static_cast<double>(group_tick) + 0.5));
        if (x >= j.f.plot_x && x <= j.plot_x1 && j.shows(group_tick))
            place_group(j.lw, j.out, group, group_tick, j.f, r, j.cy);
        group.clear();
    };
    for (; it != lane.markers.end() && static_cast<double>(it->tick) <= t1; ++it) {
        if (!group.empty() && it->tick != group_tick) flush();
        group_tick = it->tick;
        group.push_back(static_cast<std::int32_t>(it - lane.markers.begin()));
    }
    flush();
}

// 2. The failover's words, next to its mark on the slot lane: right beside
// it, after it or before it (over the record the failover ended, on a
// pill); the short word when the long one has no room.
void label_failovers(LaneJob& j) {
    for (std::size_t k = 0; k < j.lane_marks_end; ++k) {
        const PlacedMark& pm = j.out.marks[k];
        if (pm.lane != j.lw.index) continue;
        if (pm.kind != MarkerKind::failover_leases && pm.kind != MarkerKind::failover_all) continue;
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.kind = LabelKind::failover;
        proto.mark = pm.kind;
        proto.small = true;
        const std::string key = std::string("mark.label.") + marker_kind_name(pm.kind);
        const std::vector<std::string> texts{j.s.tr(key), j.s.tr("mark.label.failover")};
        const float y0 = pm.y - (j.m.small_h + 2) * 0.5f;
        const Box box = pm.box;
        const auto beside = [&](const std::string& text) {
            const float w = j.m.small_width(text) + 2 * label_pad + gap;
            return place_label(j.lw, j.out, proto, {text}, j.m, y0, box.x1, box.x1 + w + 1, false, true) ||
                   place_label(j.lw, j.out, proto, {text}, j.m, y0, box.x0 - w - 1, box.x0, true, true);
        };
        for (const std::string& text : texts)
            if (beside(text)) break;
    }
}

// 2b. A promotion's words beside its mark on the promoted server's lane
// (model.md §17.3): a counter that went back is told with what was lost,
// "counter 3 → 1: 2 acquisitions lost" (3: the old primary's counter at the
// end of the tick before; 1: the new primary's); else nothing.
void label_promotions(LaneJob& j) {
    for (std::size_t k = 0; k < j.lane_marks_end; ++k) {
        const PlacedMark& pm = j.out.marks[k];
        if (pm.lane != j.lw.index || pm.kind != MarkerKind::promote || pm.folded > 1) continue;
        const Marker& mk = j.lane().markers[static_cast<std::size_t>(pm.marker)];
        const Fencing now = mk.fencing.value_or(0);
        if (!mk.counter_before || *mk.counter_before <= now) continue;
        const Fencing lost = *mk.counter_before - now;
        const Fields fields{{"was", std::to_string(*mk.counter_before)},
                            {"counter", std::to_string(now)},
                            {"lost", std::to_string(lost)}};
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.kind = LabelKind::failover;
        proto.mark = pm.kind;
        proto.small = true;
        const std::vector<std::string> texts{
            j.s.tr(lost == 1 ? "mark.label.rollback_one" : "mark.label.rollback", fields),
            j.s.tr("mark.label.rollback_short", fields)};
        // After the mark (other marks of its tick may stand beside it), at the
        // lane's top or bottom edge, else before it.
        const float mid = pm.y - (j.m.small_h + 2) * 0.5f, top = j.lw.y + 1;
        const float bottom = j.lw.y + j.f.lane_h - j.m.small_h - 3;
        place_label(j.lw, j.out, proto, texts, j.m, mid, pm.box.x1, j.plot_x1, false, true) ||
            place_label(j.lw, j.out, proto, texts, j.m, top, pm.box.x0, j.plot_x1, false, true) ||
            place_label(j.lw, j.out, proto, texts, j.m, bottom, pm.box.x0, j.plot_x1, false, true) ||
            place_label(j.lw, j.out, proto, texts, j.m, mid, j.f.plot_x, pm.box.x0, true, true);
    }
}

// 2c. A Redlock client's count beside its mark (model.md §20.4.5): "3 of
// 5, validity 9898 ms" for a lock, "2 of 5, no lock" for an attempt that
// failed, "released on 3 of 5" for a release; the short "3/5" when the
// long words have no room. After the mark, at the lane's top, else before it.
void label_quorum(LaneJob& j) {
    for (std::size_t k = 0; k < j.lane_marks_end; ++k) {
        const PlacedMark& pm = j.out.marks[k];
        if (pm.lane != j.lw.index || pm.folded > 1) continue;
        const Marker& mk = j.lane().markers[static_cast<std::size_t>(pm.marker)];
        if (mk.votes < 0) continue;
        const Fields fields{{"votes", std::to_string(mk.votes)},
                            {"stores", std::to_string(mk.stores)},
                            {"validity", mk.validity_ms ? std::to_string(*mk.validity_ms) : std::string("–")}};
        const bool lock = pm.kind == MarkerKind::acquire || pm.kind == MarkerKind::acquire_busy;
        std::string key = "mark.label.quorum_released";
        if (lock) key = pm.kind == MarkerKind::acquire ? "mark.label.quorum_locked" : "mark.label.quorum_failed";
        if (lock && pm.kind == MarkerKind::acquire && !mk.validity_ms) key = "mark.label.quorum_locked_plain";
        if (lock && pm.kind == MarkerKind::acquire && mk.validity_ms && mk.drift_assumed)
            key = "mark.label.quorum_locked_assumed";  // a trace alone (model.md §20.8)
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.kind = LabelKind::quorum;
        proto.mark = pm.kind;
        proto.small = true;
        const std::vector<std::string> texts{j.s.tr(key, fields), j.s.tr("mark.label.quorum_short", fields)};
        // Right beside its mark, never far from it: a word away from its mark would tell of another tick.
        // The marks of its tick (a run's start beside the count) come first.
        float x0 = pm.box.x0, x1 = pm.box.x1;
        for (std::size_t o = 0; o < j.lane_marks_end; ++o) {
            const PlacedMark& other = j.out.marks[o];
            if (other.lane != pm.lane || j.lane().markers[static_cast<std::size_t>(other.marker)].tick != mk.tick)
                continue;
            x0 = std::min(x0, other.box.x0);
            x1 = std::max(x1, other.box.x1);
        }
        const float mid = pm.y - (j.m.small_h + 2) * 0.5f, top = j.lw.y + 1;
        const float reach = j.m.small_width(texts[0]) + 2 * label_pad + 2 * gap;
        place_label(j.lw, j.out, proto, texts, j.m, mid, x1, x1 + reach, false, true) ||
            place_label(j.lw, j.out, proto, texts, j.m, top, x0, x0 + reach, false, true) ||
            place_label(j.lw, j.out, proto, texts, j.m, mid, x0 - reach, x0 - gap, true, true);
    }
}

// 3a. The highest fencing number the resource accepted, whole or not at all
// (a bare "#34" would read as a write's number), at the fence span's bottom.
void label_fence(LaneJob& j, const Span& sp, PlacedLabel proto, float xa, float xb) {
    if (!sp.fencing) return;
    const LayoutFrame& f = j.f;
    if (j.resource && f.resource_until != tick_none && sp.begin > f.resource_until) return;
    proto.kind = LabelKind::fence;
    proto.small = true;
    if (j.resource && f.resource_until != tick_none)
        xb = std::min(xb, static_cast<float>(f.axis.x_of(static_cast<double>(f.resource_until) + 1.0)) - 3);
    const std::vector<std::string> texts{j.s.tr("timeline.highest", {{"fencing", std::to_string(*sp.fencing)}})};
    const float y1 = j.lw.y + f.lane_h - std::max(2.0f, f.lane_h * 0.14f) - 3;
    place_label(j.lw, j.out, proto, texts, j.m, y1 - j.m.small_h, xa, xb, true, false);
}

// 3b. The words a span of `kind` may carry, longest first; none: no words.
std::vector<std::string> span_texts(const LaneJob& j, const Span& sp, SpanKind kind) {
    std::vector<std::string> texts;
    if (kind == SpanKind::record && (j.lane().kind == LaneKind::store || j.lane().kind == LaneKind::key)) {
        // A Redlock store's key, Redisson's hash: its holder and the TTL it was set with (no fencing
        // number, rules 20.6 and 21.6).
        const std::string owner = owner_name(j.model, sp.owner);
        const std::string ttl = j.s.tr("timeline.ttl", {{"ttl", std::to_string(sp.ttl)}});
        if (!owner.empty()) texts.push_back(owner + "  " + ttl);
        if (!owner.empty()) texts.push_back(owner);
    } else if (kind == SpanKind::record) {
        const std::string owner = owner_name(j.model, sp.owner);
        const std::string num = fmt::format("#{}", sp.fencing.value_or(0));
        const std::string ttl = j.s.tr("timeline.ttl", {{"ttl", std::to_string(sp.ttl)}});
        if (!owner.empty()) texts.push_back(num + "  " + owner + "  " + ttl);
        if (!owner.empty()) texts.push_back(num + "  " + owner);
        texts.push_back(num);
    } else if (kind == SpanKind::waiting && sp.ttl > 0 && sp.expires_at != tick_none) {
        // A Redisson waiter asleep on the lock's channel (model.md §21.3.4): until when, and why.
        const Fields f{{"wake", std::to_string(sp.expires_at)}, {"ttl", std::to_string(sp.ttl)}};
        texts.push_back(j.s.tr("timeline.rs_sleep", f));
        texts.push_back(j.s.tr("timeline.rs_sleep_short", f));
    } else if (kind == SpanKind::stale) {
        // A Redlock client's stale work has no number to name (rule 20.6): the short word only.
        if (sp.fencing) texts.push_back(j.s.tr("timeline.stale_label", {{"fencing", std::to_string(*sp.fencing)}}));
        texts.push_back(j.s.tr("mark.label.stale_short"));
    } else if (kind == SpanKind::running && sp.fencing) {
        texts.push_back(fmt::format("#{}", *sp.fencing));
    } else if (kind == SpanKind::holdoff) {
        texts.push_back(j.s.tr("legend.holdoff"));
    }
    return texts;
}

// 3. Words inside spans; they follow the marks of the span's first tick
// ("△ #2", not "#2 △").
void label_spans(LaneJob& j) {
    std::vector<DrawSpan> spans;
    cull_spans(j.lane().spans, j.f.axis, 3.0f, spans);
    for (const DrawSpan& d : spans) {
        if (d.folded > 1) continue;
        const Span& sp = j.lane().spans[static_cast<std::size_t>(d.span)];
        const float xa = std::max(d.x0, j.f.plot_x) + 3, xb = std::min(d.x1, j.plot_x1) - 3;
        if (xb - xa < 8) continue;
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.span = d.kind;
        if (d.kind == SpanKind::fence) {
            label_fence(j, sp, proto, xa, xb);
            continue;
        }
        proto.kind = LabelKind::span;
        const std::vector<std::string> texts = span_texts(j, sp, d.kind);
        if (texts.empty()) continue;
        float after_first = xa;
        for (std::size_t k = 0; k < j.lane_marks_end; ++k) {
            const PlacedMark& pm = j.out.marks[k];
            if (pm.lane == j.lw.index && j.lane().markers[static_cast<std::size_t>(pm.marker)].tick == sp.begin)
                after_first = std::max(after_first, pm.box.x1 + gap);
        }
        proto.small = j.f.compact;  // a compact lane's bar is lower than a line of the body font
        const float y0 = j.lw.y + (j.f.lane_h - (proto.small ? j.m.small_h : j.m.body_h)) * 0.5f;
        place_label(j.lw, j.out, proto, texts, j.m, y0, std::max(xa, after_first), xb, false, false) ||
            place_label(j.lw, j.out, proto, texts, j.m, y0, xa, xb, false, false);
    }
}

// 4. Tags on paused / partitioned boxes, inside the box's top edge (else its bottom).
void label_overlays(LaneJob& j) {
    std::vector<DrawSpan> spans;
    cull_spans(j.lane().overlays, j.f.axis, 3.0f, spans);
    for (const DrawSpan& d : spans) {
        const float xa = std::max(d.x0, j.f.plot_x) + 2, xb = std::min(d.x1, j.plot_x1) - 2;
        if (xb - xa < 12) continue;
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.kind = LabelKind::overlay;
        proto.span = d.kind;
        proto.small = true;
        std::vector<std::string> words{j.s.tr(d.kind == SpanKind::paused     ? "legend.paused"
                                              : d.kind == SpanKind::cut      ? "mark.label.link_cut"
                                              : d.kind == SpanKind::crashed  ? "mark.label.store_down"
                                              : d.kind == SpanKind::validity ? "mark.label.validity"
                                                                             : "legend.partition_short")};
        const Span& sp = j.lane().overlays[static_cast<std::size_t>(d.span)];
        if (d.kind == SpanKind::validity && d.folded == 1 && sp.votes >= 0)  // the count's words, whole if they fit
            words.insert(words.begin(),
                         j.s.tr(sp.drift_assumed ? "mark.label.quorum_locked_assumed" : "mark.label.quorum_locked",
                                {{"votes", std::to_string(sp.votes)},
                                 {"stores", std::to_string(sp.stores)},
                                 {"validity", std::to_string(sp.validity_ms)}}));
        const float top = j.lw.y + 2;
        if (!place_label(j.lw, j.out, proto, words, j.m, top, xa, xb, false, true))
            place_label(j.lw, j.out, proto, words, j.m, j.lw.y + j.f.lane_h - j.m.small_h - 4, xa, xb, false, true);
    }
}

// 5. Fencing numbers beside writes (not on slot lanes): after the mark,
// before it, else after it at the lane's bottom.
void label_write_fencing(LaneJob& j) {
    const TextMetrics& m = j.m;
    for (std::size_t k = 0; k < j.lane_marks_end; ++k) {
        const PlacedMark& pm = j.out.marks[k];
        if (pm.lane != j.lw.index || pm.folded > 1) continue;
        if (!is_write(pm.kind)) continue;
        const Marker& mk = j.lane().markers[static_cast<std::size_t>(pm.marker)];
        if (!mk.fencing) continue;
        PlacedLabel proto;
        proto.lane = j.lw.index;
        proto.kind = LabelKind::fencing;
        proto.mark = pm.kind;
        proto.small = true;
        const std::string text = fmt::format("#{}", *mk.fencing);
        const float w = m.small_width(text) + 2 * label_pad;
        const Box box = pm.box;
        const float top = j.lw.y + 1;
        const float below = j.lw.y + j.f.lane_h - m.small_h - 3;
        if (place_label(j.lw, j.out, proto, {text}, m, top, box.x1, box.x1 + w + 2 * gap, false, true)) continue;
        if (place_label(j.lw, j.out, proto, {text}, m, top, box.x0 - w - 2 * gap, box.x0, true, true)) continue;
        place_label(j.lw, j.out, proto, {text}, m, below, box.x1, box.x1 + w + 2 * gap, false, true);
    }
}

// 6. A compact store lane's clock (model.md §15): its offset from true time
// at the plot's right edge, at the lane's right, when it is not true time
// there ("clock 10000 ms ahead", else the short "10000 ms ahead"). Its jump
// is marked on the lane already. Placed before the key's words, which give way.
void label_store_clock(LaneJob& j) {
    const auto it = std::find_if(j.model.clocks.begin(), j.model.clocks.end(),
                                 [&](const ClockTrack& c) { return c.node == j.lane().label; });
    if (it == j.model.clocks.end()) return;
    const double right = std::floor(j.f.axis.last_tick() - 1e-9);
    const Tick at = std::clamp<Tick>(static_cast<Tick>(std::max(0.0, right)), 0, j.model.end_tick);
    const std::int64_t offset = clock_offset_half_ms(*it, at);
    if (offset == 0) return;
    const Fields fields{{"ms", clock_offset_text(offset)}};
    const std::vector<std::string> texts{
        j.s.tr(offset > 0 ? "timeline.store_clock_ahead" : "timeline.store_clock_behind", fields),
        j.s.tr(offset > 0 ? "lane.clock_ahead" : "lane.clock_behind", fields)};
    PlacedLabel proto;
    proto.lane = j.lw.index;
    proto.kind = LabelKind::clock;
    proto.small = true;
    const float y0 = j.lw.y + (j.f.lane_h - j.m.small_h - 2) * 0.5f;
    const float reach = j.m.small_width(texts[0]) + 2 * label_pad + 2 * gap;
    // As far right as the lane's marks leave room, within its last three widths (a word far from the
    // right edge would read as the offset at another tick).
    place_label(j.lw, j.out, proto, texts, j.m, y0, j.plot_x1 - 3 * reach, j.plot_x1 - gap, true, true);
}

void layout_lane(LaneJob& j, float r) {
    if (j.out.overview)
        place_overview_marks(j);
    else
        place_marks(j, r);
    j.lane_marks_end = j.out.marks.size();
    if (j.out.overview) return;
    if (j.lane().kind == LaneKind::slot) label_failovers(j);
    if (j.lane().kind == LaneKind::server) label_promotions(j);
    if (j.lane().kind == LaneKind::candidate) label_quorum(j);
    if (j.lane().kind == LaneKind::store && j.f.clocks_in_lanes) label_store_clock(j);
    label_spans(j);
    label_overlays(j);
    const bool store_lane = j.lane().kind == LaneKind::slot || j.lane().kind == LaneKind::server ||
                            j.lane().kind == LaneKind::store || j.lane().kind == LaneKind::key;
    if (!store_lane && j.f.axis.px_per_tick >= 14) label_write_fencing(j);
}

}  // namespace

void layout_lanes(const LaneModel& model, const LayoutFrame& f, const Strings& s, const TextMetrics& m,
                  LaneLayout& out) {
    out.marks.clear();
    out.labels.clear();
    out.overview = f.axis.px_per_tick < overview_px_per_tick;
    const float plot_x1 = f.plot_x + f.plot_w;
    const float r = mark_radius(f.axis.px_per_tick, f.lane_h, f.scale);
    const int last = std::min(f.last_lane, static_cast<int>(model.lanes.size()) - 1);
    for (int li = std::max(0, f.first_lane); li <= last; ++li) {
        const Lane& lane = model.lanes[static_cast<std::size_t>(li)];
        const float y = f.lanes_top + f.lane_h * static_cast<float>(li);
        const bool resource = lane.kind == LaneKind::resource;
        LaneJob job{model,   f,
                    s,       m,
                    out,     LaneWork{lane, li, y, f.lane_h, f.plot_x, plot_x1, {}},
                    plot_x1, y + f.lane_h * (resource ? 0.4f : 0.5f),
                    resource};
        layout_lane(job, r);
    }
}

RulerLayout layout_ruler(const TimeAxis& axis, float plot_x, float plot_w, float top, float height, Tick playhead,
                         const TextMetrics& m, const TickClock& clock) {
    RulerLayout out;
    const auto text_of = [&](Tick t) { return std::to_string(t) + " \u00b7 " + clock.at(t); };
    const float plot_x1 = plot_x + plot_w;
    const auto x0 = static_cast<float>(axis.x_of(static_cast<double>(playhead)));
    const auto x1 = static_cast<float>(axis.x_of(static_cast<double>(playhead) + 1.0));
    out.playhead_visible = x1 >= plot_x && x0 <= plot_x1;
    out.playhead_x = (x0 + x1) * 0.5f;
    if (out.playhead_visible) {
        out.badge_text = text_of(playhead);
        const float w = m.body_width(out.badge_text) + 8;
        // Centred on the playhead line, inside the ruler; pushed in at the edges.
        float bx = out.playhead_x - w * 0.5f;
        bx = std::clamp(bx, plot_x, std::max(plot_x, plot_x1 - w));
        out.badge = Box{bx, top + 1, bx + w, top + 1 + m.body_h + 2};
    }
    // Labels grow to the right (more digits, an hour on the clock): the last visible one is the widest.
    const double t1 = axis.last_tick();
    const Tick widest = std::max<Tick>(0, static_cast<Tick>(std::floor(t1)));
    const Tick step = ruler_step(axis.px_per_tick, m.body_width(text_of(widest)) + 14.0f);
    out.step = step;
    const Tick t0 = std::max<Tick>(0, static_cast<Tick>(std::floor(axis.first_tick)) / step * step);
    Box previous{-1e9f, 0, -1e9f, 0};
    for (Tick t = t0; static_cast<double>(t) <= t1; t += step) {
        const auto x = static_cast<float>(axis.x_of(static_cast<double>(t)));
        if (x < plot_x) continue;
        RulerLabel label;
        label.tick = t;
        label.text = text_of(t);
        const float w = m.body_width(label.text);
        label.box = Box{x + 3, top + 2, x + 3 + w, top + 2 + m.body_h};
        // The last number that would run past the plot's end is written left of its line instead.
        const bool last = label.box.x1 > plot_x1;
        if (last) label.box = Box{x - 3 - w, top + 2, x - 3, top + 2 + m.body_h};
        if (last && label.box.x0 < plot_x) break;
        // Never under the badge, never over the previous number (a long number, a tight step).
        // The badge already says the playhead's tick; a number beside it would read twice ("8 [8]").
        if (out.playhead_visible && (t == playhead || label.box.intersects(Box{out.badge.x0 - 3, out.badge.y0,
                                                                               out.badge.x1 + 3, out.badge.y1})))
            continue;
        if (label.box.x0 < previous.x1 + 4) continue;
        previous = label.box;
        (void)height;
        out.labels.push_back(std::move(label));
        if (last) break;
    }
    return out;
}

}  // namespace leasescope::gui
