// The timeline's frame of draw data (timeline_frame.hpp): geometry, lanes,
// culled spans, laid-out marks and words, the ruler and hit boxes.
#include "timeline_frame.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace leasescope::gui {
namespace {

void place_rows(const LaneModel& model, const TimelineViewport& view, TimelineFrame& f) {
    f.left = view.x;
    f.top = view.y;
    f.plot_x = view.x + view.label_w;
    f.plot_w = std::max(50.0f, view.width - view.label_w);
    f.lanes_y = view.y + view.ruler_h;
    f.lanes_h = std::max(40.0f, view.height - view.ruler_h - clock_strip_h(model, view) - message_strip_h(model, view));
    const auto n = static_cast<std::int32_t>(model.lanes.size());
    const float compact_h = view.compact_lane_h > 0 ? view.compact_lane_h : view.title_h;
    const float floor_h = compact_lanes(model, view) ? std::min(view.lane_h_min, compact_h) : view.lane_h_min;
    f.lane_h = std::clamp(f.lanes_h / static_cast<float>(std::max(1, n)), floor_h, view.lane_h_max);
    f.content_h = f.lane_h * static_cast<float>(n);
    if (f.content_h > f.lanes_h + 0.5f && (view.hint_h > 0 || view.scrollbar_w > 0)) {
        // Not all lanes fit: a strip for the hint under them, a scrollbar
        // beside them; on a very short timeline the lanes get lower so that
        // one still shows whole above the hint.
        f.lane_h = std::min(f.lane_h, std::max(view.title_h, f.lanes_h - view.hint_h));
        f.content_h = f.lane_h * static_cast<float>(n);
        f.lanes_h = std::max(f.lane_h, f.lanes_h - view.hint_h);
        f.hint_box = Box{view.x, f.lanes_y + f.lanes_h, view.x + view.width, f.lanes_y + f.lanes_h + view.hint_h};
        f.plot_w = std::max(50.0f, f.plot_w - view.scrollbar_w);
        f.scrollbar =
            Box{f.plot_x + f.plot_w, f.lanes_y, f.plot_x + f.plot_w + view.scrollbar_w, f.lanes_y + f.lanes_h};
    }
    f.scroll_y = std::clamp(view.scroll_y, 0.0f, std::max(0.0f, f.content_h - f.lanes_h));
    f.axis.first_tick = view.first_tick;
    f.axis.px_per_tick = view.px_per_tick;
    f.axis.left_px = f.plot_x;
    f.axis.width_px = f.plot_w;
    f.first_lane = std::max(0, static_cast<std::int32_t>(f.scroll_y / f.lane_h));
    f.last_lane = std::min(n - 1, static_cast<std::int32_t>((f.scroll_y + f.lanes_h) / f.lane_h));
    f.hidden_above = f.first_lane;
    // A lane counts as shown when at least half of it is in view.
    const float bottom = f.lanes_y + f.lanes_h;
    std::int32_t shown_last = f.last_lane;
    while (shown_last >= f.first_lane &&
           f.lanes_y + f.lane_h * (static_cast<float>(shown_last) + 0.5f) - f.scroll_y > bottom)
        --shown_last;
    f.hidden_below = std::max(0, n - 1 - shown_last);
    if (f.scrollbar.h() > 0) {
        const float k = f.scrollbar.h() / f.content_h;
        const float y0 = f.scrollbar.y0 + f.scroll_y * k;
        f.thumb = Box{f.scrollbar.x0 + 1, y0, f.scrollbar.x1 - 1, std::min(f.scrollbar.y1, y0 + f.lanes_h * k)};
    }
}

// The hint's words: how many lanes are out of view, and how to reach them.
void place_hint(TimelineFrame& f, const Strings& strings, const TextMetrics& metrics) {
    if (f.hint_box.h() <= 0) return;
    const bool below = f.hidden_below > 0;
    const std::int32_t count = below ? f.hidden_below : f.hidden_above;
    if (count == 0) return;
    const Fields fields{{"count", std::to_string(count)}};
    f.hint = strings.tr(below ? "timeline.more_below" : "timeline.more_above", fields);
    // A narrow timeline says only how many.
    if (metrics.small_width(f.hint) + 12 > f.hint_box.w()) f.hint = strings.tr("timeline.more_short", fields);
    const float x = f.hint_box.x0 + 6, y = f.hint_box.y0 + (f.hint_box.h() - metrics.small_h) * 0.5f;
    f.hint_text = Box{x, y, x + metrics.small_width(f.hint), y + metrics.small_h};
}

// A title that fits `room`: whole, or its first characters and "…".
std::string fit_title(const std::string& title, float room, const TextMetrics& metrics) {
    if (metrics.body_width(title) <= room) return title;
    std::size_t cut = title.size();
    while (cut > 0) {
        do --cut;
        while (cut > 0 && (static_cast<unsigned char>(title[cut]) & 0xC0) == 0x80);  // whole UTF-8 characters
        std::string shown = title.substr(0, cut) + "…";
        if (metrics.body_width(shown) <= room) return shown;
    }
    return {};
}

void place_lane(const LaneModel& model, std::int32_t li, const TimelineViewport& view, const Strings& strings,
                const TextMetrics& metrics, TimelineFrame& f) {
    const Lane& lane = model.lanes[static_cast<std::size_t>(li)];
    FrameLane fl;
    fl.lane = li;
    fl.title = lane_title(lane, strings, view.playhead);
    const float y = f.lanes_y + f.lane_h * static_cast<float>(li) - f.scroll_y;
    fl.box = Box{view.x, y, f.plot_x + f.plot_w, y + f.lane_h};
    fl.store_part = lane.kind != LaneKind::candidate;
    fl.first_of_store = li == model.candidate_lanes && li > 0;
    const float tx = view.x + 6 + (lane.kind == LaneKind::candidate ? view.state_square_w : 0.0f);
    const float ty = y + (f.lane_h - metrics.body_h) * 0.5f;
    fl.title = fit_title(fl.title, f.plot_x - tx - 4, metrics);
    fl.title_box = Box{tx, ty, tx + metrics.body_width(fl.title), ty + metrics.body_h};
    f.lanes.push_back(std::move(fl));
}

// The spans of one lane (or its overlays), culled and clamped to the plot.
void place_spans(const Lane& lane, std::int32_t li, bool overlay, float y, float x_end, TimelineFrame& f) {
    std::vector<DrawSpan> drawn;
    cull_spans(overlay ? lane.overlays : lane.spans, f.axis, 3.0f, drawn);
    const float pad = overlay ? 1.0f : std::max(2.0f, f.lane_h * 0.14f);
    for (DrawSpan d : drawn) {
        d.x0 = std::max(d.x0, f.plot_x);
        d.x1 = std::min({d.x1, f.plot_x + f.plot_w, x_end});
        if (d.x1 <= d.x0) continue;
        f.spans.push_back(FrameSpan{li, overlay, d, Box{d.x0, y + pad, d.x1, y + f.lane_h - pad}});
    }
}

void place_overlap(const LaneModel& model, TimelineFrame& f) {
    if (model.overlap.empty() || model.candidate_lanes <= 0) return;
    std::vector<DrawSpan> drawn;
    cull_spans(model.overlap, f.axis, 2.0f, drawn);
    const float y0 = f.lanes_y - f.scroll_y;
    f.overlap_band = Box{f.plot_x, y0, f.plot_x + f.plot_w, y0 + f.lane_h * static_cast<float>(model.candidate_lanes)};
    for (DrawSpan d : drawn) {
        d.x0 = std::max(d.x0, f.plot_x);
        d.x1 = std::min(d.x1, f.plot_x + f.plot_w);
        if (d.x1 > d.x0) f.overlap.push_back(d);
    }
}

// Milliseconds from half milliseconds, for words: "300", "12.5".

// The offset's polyline over the ticks in view: one point per tick (fewer
// when ticks are narrower than 2 px), and at a jump a vertical step at the
// start of its tick.
std::vector<std::pair<float, float>> clock_line(const ClockTrack& c, const TimelineFrame& f, Tick end,
                                                const std::function<float(std::int64_t)>& y_of) {
    std::vector<std::pair<float, float>> out;
    const Tick t0 = std::max<Tick>(0, static_cast<Tick>(std::floor(f.axis.first_tick)));
    const Tick t1 = std::min<Tick>(end + 1, static_cast<Tick>(std::ceil(f.axis.last_tick())));
    const Tick stride = std::max<Tick>(1, static_cast<Tick>(2.0 / std::max(1e-6, f.axis.px_per_tick)));
    std::vector<Tick> ticks;
    for (Tick t = t0; t <= t1; t += stride) ticks.push_back(t);
    ticks.push_back(t1);
    for (const auto& jump : c.jumps)
        if (jump.first >= t0 && jump.first <= t1) ticks.push_back(jump.first);
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
    const float x_min = f.plot_x, x_max = f.plot_x + f.plot_w;
    for (const Tick t : ticks) {
        const float x = std::clamp(static_cast<float>(f.axis.x_of(static_cast<double>(t))), x_min, x_max);
        out.emplace_back(x, y_of(clock_offset_before_jumps_half_ms(c, t)));
        const std::int64_t after = clock_offset_half_ms(c, t);
        if (after != clock_offset_before_jumps_half_ms(c, t)) out.emplace_back(x, y_of(after));
    }
    return out;
}

void place_clock(const LaneModel& model, std::size_t ci, float y, float h, const TimelineViewport& view,
                 const Strings& strings, const TextMetrics& metrics, TimelineFrame& f) {
    const ClockTrack& c = model.clocks[ci];
    FrameClockLane fc;
    fc.clock = static_cast<std::int32_t>(ci);
    fc.box = Box{view.x, y, f.plot_x + f.plot_w, y + h};
    fc.title = clock_title(c, strings);
    const float tx = view.x + 6;
    TextMetrics small = metrics;  // the title is in the small font
    small.body_width = metrics.small_width;
    fc.title = fit_title(fc.title, f.plot_x - tx - 4, small);
    const float ty = y + (h - metrics.small_h) * 0.5f;
    fc.title_box = Box{tx, ty, tx + metrics.small_width(fc.title), ty + metrics.small_h};
    const std::int64_t lo = std::min<std::int64_t>(0, c.min_half_ms), hi = std::max<std::int64_t>(0, c.max_half_ms);
    const float pad = 3, span = static_cast<float>(std::max<std::int64_t>(1, hi - lo));
    const auto y_of = [&](std::int64_t v) { return y + h - pad - static_cast<float>(v - lo) / span * (h - 2 * pad); };
    fc.zero_y = y_of(0);
    fc.line = clock_line(c, f, model.end_tick, y_of);
    // The axis says the farthest the clock gets from true time, at the right
    // end, on the side the line leaves free there.
    const bool ahead = hi >= -lo;
    fc.axis =
        strings.tr(ahead ? "lane.clock_ahead" : "lane.clock_behind", {{"ms", clock_offset_text(ahead ? hi : lo)}});
    const float aw = metrics.small_width(fc.axis), ax = f.plot_x + f.plot_w - aw - 4;
    const bool line_low = !fc.line.empty() && fc.line.back().second > y + h * 0.5f;
    const float ay = line_low ? y + 1 : y + h - metrics.small_h - 1;
    fc.axis_box = Box{ax, ay, ax + aw, ay + metrics.small_h};
    f.clocks.push_back(std::move(fc));
}

void place_clocks(const LaneModel& model, const TimelineViewport& view, const Strings& strings,
                  const TextMetrics& metrics, TimelineFrame& f) {
    if (model.clocks.empty() || clock_strip_h(model, view) <= 0) return;  // none, or inside the store lanes
    const float h = clock_strip_h(model, view) / static_cast<float>(model.clocks.size());
    float y = f.lanes_y + std::min(f.lanes_h, f.content_h - f.scroll_y) + f.hint_box.h();
    for (std::size_t ci = 0; ci < model.clocks.size(); ++ci, y += h)
        place_clock(model, ci, y, h, view, strings, metrics, f);
}

// The message view's row height: a title in the small font (80 % of the
// body's line) and room for a slope.
float message_lane_h(const TimelineViewport& view) { return std::max(view.title_h * 0.8f, 15.0f * view.scale); }

// One arrow from (x0, y0) to (x1, y1), cut to the plot's columns (none when
// it is all outside them); its head only where its end is in view.
void place_arrow(const Message& m, std::int32_t index, std::pair<float, float> from, std::pair<float, float> to,
                 TimelineFrame& f) {
    auto [x0, y0] = from;
    auto [x1, y1] = to;
    const float lo = f.plot_x, hi = f.plot_x + f.plot_w;
    if (std::max(x0, x1) < lo || std::min(x0, x1) > hi) return;
    FrameArrow a;
    a.message = index;
    a.late = m.late;
    a.lost = m.lost;
    a.head = x1 >= lo && x1 <= hi;
    const auto cut = [&](float& x, float& y, float ox, float oy) {
        const float edge = std::clamp(x, lo, hi);
        if (edge == x || x == ox) return;
        y = oy + (y - oy) * (edge - ox) / (x - ox);
        x = edge;
    };
    cut(x0, y0, x1, y1);
    cut(x1, y1, x0, y0);
    a.x0 = x0, a.y0 = y0, a.x1 = x1, a.y1 = y1;
    a.hit = Box{std::min(x0, x1) - 4, std::min(y0, y1) - 4, std::max(x0, x1) + 4, std::max(y0, y1) + 4};
    f.arrows.push_back(a);
}

void place_message_lanes(const LaneModel& model, float y, float h, const TimelineViewport& view, const Strings& strings,
                         const TextMetrics& metrics, TimelineFrame& f) {
    TextMetrics small = metrics;  // the titles are in the small font
    small.body_width = metrics.small_width;
    const float tx = view.x + 6;
    for (std::string& title : message_titles(model.messages, strings)) {
        FrameMessageLane ml;
        ml.box = Box{view.x, y, f.plot_x + f.plot_w, y + h};
        ml.mid_y = y + h * 0.5f;
        ml.title = fit_title(title, f.plot_x - tx - 4, small);
        const float ty = y + (h - metrics.small_h) * 0.5f;
        ml.title_box = Box{tx, ty, tx + metrics.small_width(ml.title), ty + metrics.small_h};
        f.message_lanes.push_back(std::move(ml));
        y += h;
    }
    f.messages_box = Box{view.x, f.message_lanes.front().box.y0, f.plot_x + f.plot_w, y};
}

// The message view: its lanes, then an arrow per message whose ticks meet
// the view; a lost one ends half-way to where it went, at the tick it was
// given up (its cross).
void place_messages(const LaneModel& model, const TimelineViewport& view, const Strings& strings,
                    const TextMetrics& metrics, TimelineFrame& f) {
    if (message_strip_h(model, view) <= 0) return;
    const float top = f.clocks.empty() ? f.lanes_y + std::min(f.lanes_h, f.content_h - f.scroll_y) + f.hint_box.h()
                                       : f.clocks.back().box.y1;
    place_message_lanes(model, top, message_lane_h(view), view, strings, metrics, f);
    const MessageTrack& track = model.messages;
    const auto nodes = static_cast<std::size_t>(track.nodes.size());
    const float store_y = f.message_lanes[nodes].mid_y, resource_y = f.message_lanes[nodes + 1].mid_y;
    const auto x_of = [&](Tick t) { return static_cast<float>(f.axis.x_of(static_cast<double>(t) + 0.5)); };
    // Zoomed out, the messages of one node and kind fall on the same pixels:
    // the first of them stands for the others (as a folded mark does).
    using Key = std::array<long, 3>;  // send pixel, arrival pixel, look
    std::vector<Key> last(nodes * 3, Key{-1, -1, -1});
    for (std::size_t i = 0; i < track.messages.size(); ++i) {
        const Message& m = track.messages[i];
        const Key key{std::lround(x_of(m.sent)), std::lround(x_of(m.arrived)), m.lost ? 2 : m.late ? 1 : 0};
        Key& seen = last[static_cast<std::size_t>(m.node) * 3 + static_cast<std::size_t>(m.kind)];
        if (key == seen) continue;
        seen = key;
        const float node_y = f.message_lanes[static_cast<std::size_t>(m.node)].mid_y;
        float from_y = node_y, to_y = m.kind == MessageKind::write ? resource_y : store_y;
        if (m.kind == MessageKind::reply) std::swap(from_y, to_y);
        if (m.lost) to_y = (from_y + to_y) * 0.5f;
        place_arrow(m, static_cast<std::int32_t>(i), {x_of(m.sent), from_y}, {x_of(m.arrived), to_y}, f);
    }
}

}  // namespace

float message_strip_want_h(const LaneModel& model, const TimelineViewport& view) {
    if (model.messages.messages.empty()) return 0;
    return static_cast<float>(model.messages.nodes.size() + 2) * message_lane_h(view);
}

float message_strip_h(const LaneModel& model, const TimelineViewport& view) {
    const float want = message_strip_want_h(model, view);
    const float room = view.height - view.ruler_h - clock_strip_h(model, view);
    // Beside lanes that all keep their lowest height, or in at most 45 % of
    // the room when the lanes scroll anyway.
    const float lanes_min = view.lane_h_min * static_cast<float>(model.lanes.size());
    return want + lanes_min <= room || want <= room * 0.45f ? want : 0.0f;
}

float frame_bottom(const TimelineFrame& f) {
    if (f.messages_box.h() > 0) return f.messages_box.y1;
    if (!f.clocks.empty()) return f.clocks.back().box.y1;
    return f.lanes_y + f.lanes_h + f.hint_box.h();
}

std::vector<std::string> message_titles(const MessageTrack& messages, const Strings& strings) {
    std::vector<std::string> out = messages.nodes;
    out.push_back(strings.tr("lane.msg_store"));
    out.push_back(strings.tr("lane.resource"));
    return out;
}

// The clock lanes' height when they have lanes of their own.
static float clock_strip_full_h(const LaneModel& model, const TimelineViewport& view) {
    return static_cast<float>(model.clocks.size()) * std::max(view.title_h * 2.0f, 22.0f * view.scale);
}

bool compact_lanes(const LaneModel& model, const TimelineViewport& view) {
    // Only where lanes share the height (the compare view and the SVG export give every row one height).
    if (view.lane_h_min >= view.lane_h_max) return false;
    const bool redlock = std::any_of(model.lanes.begin(), model.lanes.end(),
                                     [](const Lane& lane) { return lane.kind == LaneKind::store; });
    if (!redlock) return false;
    const float need = view.lane_h_min * static_cast<float>(model.lanes.size()) + clock_strip_full_h(model, view);
    return need > view.height - view.ruler_h + 0.5f;
}

bool clocks_in_store_lanes(const LaneModel& model, const TimelineViewport& view) {
    if (model.clocks.empty() || !compact_lanes(model, view)) return false;
    return std::all_of(model.clocks.begin(), model.clocks.end(), [&](const ClockTrack& c) {
        return std::any_of(model.lanes.begin(), model.lanes.end(),
                           [&](const Lane& lane) { return lane.kind == LaneKind::store && lane.label == c.node; });
    });
}

float clock_strip_h(const LaneModel& model, const TimelineViewport& view) {
    return clocks_in_store_lanes(model, view) ? 0.0f : clock_strip_full_h(model, view);
}

std::string clock_title(const ClockTrack& c, const Strings& strings) {
    return c.node == "store" ? strings.tr("lane.clock_store") : strings.tr("lane.clock_node", {{"node", c.node}});
}

// A server's title: its role at `at` (its first role before the run, or with no playhead).
static std::string server_title(const Lane& lane, const Strings& strings, Tick at) {
    sim::ServerRole role = lane.roles.empty() ? sim::ServerRole::replica : lane.roles.front().second;
    for (const auto& [from, r] : lane.roles)
        if (at != tick_none && from <= at) role = r;
    const char* key = role == sim::ServerRole::primary   ? "lane.server_primary"
                      : role == sim::ServerRole::replica ? "lane.server_replica"
                                                         : "lane.server_old_primary";
    std::string title = strings.tr(key, {{"server", std::to_string(lane.server)}});
    if (lane.slots > 1) title += " · " + strings.tr("lane.slot", {{"slot", std::to_string(lane.index)}});
    return title;
}

std::string lane_title(const Lane& lane, const Strings& strings, Tick at) {
    switch (lane.kind) {
        case LaneKind::server: return server_title(lane, strings, at);
        case LaneKind::candidate: return lane.label;
        case LaneKind::slot: return strings.tr("lane.slot", {{"slot", std::to_string(lane.index)}});
        case LaneKind::holdoff: return strings.tr("lane.holdoff");
        case LaneKind::resource: return strings.tr("lane.resource");
        case LaneKind::ops: return lane.label.empty() ? strings.tr("lane.ops") : lane.label;  // the ops' actors
        case LaneKind::store: return strings.tr("lane.store", {{"store", lane.label}});
        case LaneKind::key: return strings.tr("lane.key", {{"name", lane.label}});
    }
    return lane.label;
}

// The story's first moment: the first overlap or alarm mark (tick_none: none).
static Tick story_tick(const LaneModel& model) {
    Tick t = model.overlap.empty() ? tick_none : model.overlap.front().begin;
    for (const Lane& lane : model.lanes)
        for (const Marker& m : lane.markers)
            if (is_alarm(m.kind) && (t == tick_none || m.tick < t)) t = m.tick;
    return t;
}

TimeAxis opening_axis(const LaneModel& model, Tick playhead, float left_px, float width_px) {
    const Tick end = model.end_tick + 1;
    TimeAxis axis = fit_axis(0, end, left_px, width_px);
    // Only a Redlock run (its store lanes) so far: an elector's long run zoomed in this way places
    // a fencing number over its first mark (gui.layout.watchdog-elector at 200 %).
    const bool redlock = std::any_of(model.lanes.begin(), model.lanes.end(),
                                     [](const Lane& lane) { return lane.kind == LaneKind::store; });
    if (!redlock || axis.px_per_tick >= overview_px_per_tick) return axis;
    const double in_view = static_cast<double>(axis.width_px) / story_px_per_tick;
    const Tick story = story_tick(model);
    double first = story == tick_none ? 0.0 : static_cast<double>(story) - in_view * 0.1;
    const auto at = static_cast<double>(playhead);
    if (playhead > 0 && (at < first || at + 1 > first + in_view)) first = at - in_view * 0.5;
    // The margins of a fit: room before tick 0 and after the end for a mark and its words (12 px).
    const double margin = 12.0 / story_px_per_tick;
    axis.first_tick = std::clamp(first, -margin, std::max(-margin, static_cast<double>(end) + margin - in_view));
    axis.px_per_tick = story_px_per_tick;
    return axis;
}

// The placed mark of `lane` showing a marker of `tick` (none: nullptr).
static const PlacedMark* placed_at(const TimelineFrame& f, const LaneModel& model, std::int32_t lane, Tick tick) {
    for (const PlacedMark& pm : f.layout.marks) {
        if (pm.lane != lane) continue;
        const Lane& l = model.lanes[static_cast<std::size_t>(lane)];
        if (l.markers[static_cast<std::size_t>(pm.marker)].tick == tick) return &pm;
    }
    return nullptr;
}

// Redisson's unlock messages (model.md §21.5.2, 21.5.3): an arrow from the
// unlocker's mark to each waiter's envelope at the tick of the `message`
// event, both lanes in view; a lost one ends in a cross.
static void place_unlock_arrows(const LaneModel& model, TimelineFrame& f) {
    for (const PlacedMark& to : f.layout.marks) {
        if (to.kind != MarkerKind::unlock_message && to.kind != MarkerKind::unlock_message_lost) continue;
        const Marker& m = model.lanes[static_cast<std::size_t>(to.lane)].markers[static_cast<std::size_t>(to.marker)];
        if (m.from_lane < 0) continue;
        // From the unlocker's mark, or the middle of its lane when another tick's mark is shown there.
        const PlacedMark* from = placed_at(f, model, m.from_lane, m.tick);
        const auto row =
            std::find_if(f.lanes.begin(), f.lanes.end(), [&](const FrameLane& fl) { return fl.lane == m.from_lane; });
        if (from == nullptr && row == f.lanes.end()) continue;
        const float from_y = from != nullptr ? from->y : (row->box.y0 + row->box.y1) * 0.5f;
        const float from_r = from != nullptr ? from->r : 0.0f;
        const float dir = to.y > from_y ? 1.0f : -1.0f;
        FrameArrow a;
        a.message = -1;
        a.lost = to.kind == MarkerKind::unlock_message_lost;
        a.x0 = a.x1 = to.x;
        a.y0 = from_y + dir * from_r;
        a.y1 = to.y - dir * (to.r + 2);
        a.hit = Box{to.x - 4, std::min(a.y0, a.y1), to.x + 4, std::max(a.y0, a.y1)};
        f.lane_arrows.push_back(a);
    }
}

TimelineFrame timeline_rows(const LaneModel& model, const TimelineViewport& view) {
    TimelineFrame f;
    place_rows(model, view, f);
    return f;
}

TimelineFrame build_timeline_frame(const LaneModel& model, const TimelineViewport& view, const Strings& strings,
                                   const TextMetrics& metrics) {
    TimelineFrame f = timeline_rows(model, view);
    place_overlap(model, f);
    const float resource_end = view.resource_until == tick_none
                                   ? f.plot_x + f.plot_w
                                   : static_cast<float>(f.axis.x_of(static_cast<double>(view.resource_until) + 1.0));
    for (std::int32_t li = f.first_lane; li <= f.last_lane; ++li) {
        place_lane(model, li, view, strings, metrics, f);
        const Lane& lane = model.lanes[static_cast<std::size_t>(li)];
        const float y = f.lanes.back().box.y0;
        const float x_end = lane.kind == LaneKind::resource ? resource_end : f.plot_x + f.plot_w;
        place_spans(lane, li, false, y, x_end, f);
        place_spans(lane, li, true, y, x_end, f);
    }
    LayoutFrame lf;
    lf.axis = f.axis;
    lf.plot_x = f.plot_x;
    lf.plot_w = f.plot_w;
    lf.lanes_top = f.lanes_y - f.scroll_y;
    lf.lane_h = f.lane_h;
    lf.first_lane = f.first_lane;
    lf.last_lane = f.last_lane;
    lf.resource_until = view.resource_until;
    lf.scale = view.scale;
    lf.compact = compact_lanes(model, view);
    lf.clocks_in_lanes = clocks_in_store_lanes(model, view);
    layout_lanes(model, lf, strings, metrics, f.layout);
    place_unlock_arrows(model, f);
    f.ruler = layout_ruler(f.axis, f.plot_x, f.plot_w, view.y, view.ruler_h, view.playhead, metrics, model.clock);
    place_hint(f, strings, metrics);
    place_clocks(model, view, strings, metrics, f);
    place_messages(model, view, strings, metrics, f);
    return f;
}

// The arrow nearest to (x, y), within 4 points of its line, or -1.
static std::int32_t arrow_at(const TimelineFrame& f, float x, float y) {
    std::int32_t best = -1;
    float best_d = 4.0f;
    for (std::size_t i = 0; i < f.arrows.size(); ++i) {
        const FrameArrow& a = f.arrows[i];
        if (x < a.hit.x0 || x > a.hit.x1 || y < a.hit.y0 || y > a.hit.y1) continue;
        const float dx = a.x1 - a.x0, dy = a.y1 - a.y0, len2 = dx * dx + dy * dy;
        const float t = len2 > 0 ? std::clamp(((x - a.x0) * dx + (y - a.y0) * dy) / len2, 0.0f, 1.0f) : 0.0f;
        const float d = std::hypot(x - (a.x0 + t * dx), y - (a.y0 + t * dy));
        if (d <= best_d) {
            best_d = d;
            best = static_cast<std::int32_t>(i);
        }
    }
    return best;
}

FrameHit hit_test(const TimelineFrame& f, float x, float y) {
    FrameHit hit;
    if (f.messages_box.h() > 0 && y >= f.messages_box.y0 && y < f.messages_box.y1) {
        if (x >= f.plot_x) hit.arrow = arrow_at(f, x, y);
        return hit;
    }
    if (y < f.lanes_y || y >= f.lanes_y + f.lanes_h) return hit;
    for (const FrameLane& fl : f.lanes)
        if (y >= fl.box.y0 && y < fl.box.y1) hit.lane = fl.lane;
    if (hit.lane < 0 || x < f.plot_x) return hit;
    // The main span first, an overlay only where no main span is (as drawn).
    for (std::size_t i = 0; i < f.spans.size(); ++i) {
        const FrameSpan& s = f.spans[i];
        if (s.lane != hit.lane || x < s.box.x0 || x >= s.box.x1) continue;
        if (!s.overlay || hit.span < 0) hit.span = static_cast<std::int32_t>(i);
    }
    for (std::size_t i = 0; i < f.layout.marks.size(); ++i) {
        const PlacedMark& pm = f.layout.marks[i];
        if (pm.lane != hit.lane) continue;
        const bool near = f.layout.overview
                              ? std::fabs(x - pm.x) <= 2.5f
                              : x >= pm.box.x0 - 2 && x <= pm.box.x1 + 2 && y >= pm.box.y0 - 2 && y <= pm.box.y1 + 2;
        if (near) hit.mark = static_cast<std::int32_t>(i);
    }
    return hit;
}

std::int32_t event_at(const LaneModel& model, const TimelineFrame& frame, const FrameHit& hit) {
    if (hit.mark >= 0) {
        const PlacedMark& pm = frame.layout.marks[static_cast<std::size_t>(hit.mark)];
        return model.lanes[static_cast<std::size_t>(pm.lane)].markers[static_cast<std::size_t>(pm.marker)].event;
    }
    if (hit.arrow >= 0) {
        const FrameArrow& a = frame.arrows[static_cast<std::size_t>(hit.arrow)];
        return model.messages.messages[static_cast<std::size_t>(a.message)].event;
    }
    return -1;
}

std::vector<std::pair<float, float>> dashes_clear_of_frame(const TimelineFrame& f, float x, float y0, float y1,
                                                           float dash, float gap) {
    // What the line must not cross, as vertical intervals at x (3 px of air).
    std::vector<std::pair<float, float>> blocked;
    const auto block = [&](const Box& b) {
        if (x >= b.x0 - 3 && x <= b.x1 + 3) blocked.emplace_back(b.y0 - 3, b.y1 + 3);
    };
    for (const PlacedMark& pm : f.layout.marks) block(pm.box);
    for (const PlacedLabel& pl : f.layout.labels) block(pl.box);
    std::sort(blocked.begin(), blocked.end());
    std::vector<std::pair<float, float>> out;
    for (float y = y0; y < y1; y += dash + gap) {
        float a = y;
        const float b = std::min(y + dash, y1);
        // Cut the dash where something blocks it; keep what is left above.
        for (const auto& [lo, hi] : blocked)
            if (lo < b && hi > a) {
                if (lo > a) out.emplace_back(a, lo);
                a = std::max(a, hi);
            }
        if (b > a + 0.5f) out.emplace_back(a, b);
    }
    return out;
}

}  // namespace leasescope::gui
