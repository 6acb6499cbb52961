// The timeline's drawing pieces (timeline_paint.hpp): legend, ruler, playhead, spans, words.
#include "timeline_paint.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <fmt/format.h>

#include "../core/marks.hpp"
#include "../core/words.hpp"

namespace leasescope::gui {
namespace {

// Continues the legend on this line when the next item (`next_w` wide)
// still fits, else starts a new line: no entry is ever cut.
void wrap_before(float next_w) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + 14 + next_w < right) ImGui::SameLine(0, 14);
}

// The mouse hint only where the lanes keep room; else it waits in a tooltip.
void draw_mouse_hint(const FrameContext& ctx) {
    if (ImGui::GetContentRegionAvail().y > ImGui::GetFontSize() * 16) {
        ImGui::TextDisabled("%s", ctx.tr("timeline.hint"));
    } else {
        wrap_before(ImGui::CalcTextSize("(?)").x);
        ImGui::TextDisabled("(?)");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("timeline.hint"));
    }
}

Rgba message_ink(const Palette& pal, MessageLook look) {
    return look == MessageLook::lost ? pal.message_lost : look == MessageLook::late ? pal.message_late : pal.message;
}

// The message view's entries (message_lanes.hpp): a short arrow, or one
// ending in a cross, in each look's colour.
void draw_message_entries(const FrameContext& ctx, ImDrawList* dl, float h, bool& first) {
    for (const MessageLook look : message_looks(ctx.lanes.messages)) {
        const char* text = ctx.tr(message_look_key(look));
        if (!first) wrap_before(h * 1.6f + 4 + ImGui::CalcTextSize(text).x);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImU32 ink = col(message_ink(ctx.palette, look));
        const float y = p.y + h * 0.5f, x1 = p.x + h * 1.5f;
        dl->AddLine(ImVec2(p.x, y), ImVec2(x1, y), ink, look == MessageLook::late ? 2.5f : 1.5f);
        if (look == MessageLook::lost) {
            dl->AddLine(ImVec2(x1 - 4, y - 4), ImVec2(x1 + 4, y + 4), ink, 2.0f);
            dl->AddLine(ImVec2(x1 - 4, y + 4), ImVec2(x1 + 4, y - 4), ink, 2.0f);
        } else {
            dl->AddTriangleFilled(ImVec2(x1, y), ImVec2(x1 - 6, y - 3), ImVec2(x1 - 6, y + 3), ink);
        }
        ImGui::Dummy(ImVec2(h * 1.6f, h));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(text);
    }
}

}  // namespace

namespace {

// A lock's validity window (model.md §20.4.5): a bracket along the lane's
// top from the attempt's start, and a bar where it ends.
void draw_validity(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c) {
    dl->AddRectFilled(ImVec2(a.x, a.y), ImVec2(b.x, a.y + 3), c);
    dl->AddRectFilled(ImVec2(a.x, a.y), ImVec2(a.x + 2, a.y + 8), c);
    dl->AddRectFilled(ImVec2(std::max(a.x, b.x - 3), a.y), ImVec2(b.x, b.y), c);
}

// A span kind's swatch in the legend, drawn as its spans are.
void draw_swatch(const FrameContext& ctx, ImDrawList* dl, SpanKind k, ImVec2 p, ImVec2 q) {
    if (k == SpanKind::overlap) {
        dl->AddRectFilled(p, q, col(ctx.palette.of(SpanKind::stale), 0.12f), 3.0f);
        dl->AddRectFilled(p, ImVec2(q.x, p.y + 4), col(ctx.palette.of(SpanKind::stale)));
    } else if (k == SpanKind::fence) {
        dl->AddRectFilled(ImVec2(p.x, q.y - 4), q, col(ctx.palette.of(k)));
    } else if (k == SpanKind::validity) {
        draw_validity(dl, p, q, col(ctx.palette.of(k)));
    } else if (k == SpanKind::paused || k == SpanKind::cut) {
        hatch(dl, p, q, col(ctx.palette.of(k), 0.75f), 6.0f, 1.5f);
        dl->AddRect(p, q, col(ctx.palette.of(k)), 0, 0, 2.0f);
    } else if (k == SpanKind::partition_requests || k == SpanKind::partition_replies) {
        dl->AddRectFilled(p, ImVec2(q.x, p.y + 3), col(ctx.palette.of(k)));
        dl->AddRectFilled(ImVec2(p.x, q.y - 3), q, col(ctx.palette.of(k)));
        dl->AddRect(p, q, col(ctx.palette.of(k)), 0, 0, 2.0f);
    } else {
        dl->AddRectFilled(p, q, col(ctx.palette.of(k)), 3.0f);
    }
    if (k == SpanKind::stale) hatch(dl, p, q, IM_COL32(255, 255, 255, 150), 6.0f, 2.0f);
    if (k == SpanKind::holdoff) hatch(dl, p, q, IM_COL32(255, 255, 255, 120), 6.0f, 2.0f);
}

}  // namespace

void TimelineLegend::refresh_present(const FrameContext& ctx) {
    // While a prediction waits for its answer the legend lists only what the
    // ticks up to the playhead show: a mark it names would tell the future.
    const Tick until = ctx.future_hidden() ? ctx.playhead : tick_none;
    if (present_generation_ == ctx.timeline_generation && present_until_ == until && present_valid_) return;
    present_generation_ = ctx.timeline_generation;
    present_until_ = until;
    present_valid_ = true;
    present_spans_.assign(static_cast<std::size_t>(SpanKind::count_), false);
    present_marks_.assign(static_cast<std::size_t>(MarkerKind::count_), false);
    const auto shown = [until](Tick t) { return until == tick_none || t <= until; };
    for (const Lane& lane : ctx.lanes.lanes) {
        for (const Span& sp : lane.spans)
            if (shown(sp.begin)) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
        for (const Span& sp : lane.overlays)
            if (shown(sp.begin)) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
        for (const Marker& m : lane.markers)
            if (shown(m.tick)) present_marks_[static_cast<std::size_t>(m.kind)] = true;
    }
    for (const Span& sp : ctx.lanes.overlap)
        if (shown(sp.begin)) present_spans_[static_cast<std::size_t>(SpanKind::overlap)] = true;
}

void TimelineLegend::draw(const FrameContext& ctx, float lanes_need_h) {
    refresh_present(ctx);
    // The lanes keep priority: the whole legend only when the lanes still
    // get what they need under it (its height as last drawn whole).
    const float avail = ImGui::GetContentRegionAvail().y;
    // Too short even for the one-line legend and a lane: the lanes get it all.
    if (avail < lanes_need_h * 0.5f) return;
    if (avail < ImGui::GetFontSize() * 11 || avail - full_h_ < lanes_need_h) {
        ImGui::PushFont(ctx.fonts.small);
        ImGui::TextDisabled("%s (?)", ctx.tr("legend.title"));
        ImGui::PopFont();
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
            draw_entries(ctx);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        return;
    }
    const float y0 = ImGui::GetCursorScreenPos().y;
    draw_entries(ctx);
    full_h_ = ImGui::GetCursorScreenPos().y - y0;
}

void TimelineLegend::draw_entries(const FrameContext& ctx) {
    ImGui::PushFont(ctx.fonts.small);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = ImGui::GetFontSize();
    const SpanKind kinds[] = {SpanKind::waiting,
                              SpanKind::running,
                              SpanKind::stale,
                              SpanKind::paused,
                              SpanKind::partition_requests,
                              SpanKind::partition_replies,
                              SpanKind::crashed,
                              SpanKind::record,
                              SpanKind::holdoff,
                              SpanKind::overlap,
                              SpanKind::fence,
                              SpanKind::cut,
                              SpanKind::validity};
    bool first = true;
    for (SpanKind k : kinds) {
        if (!present_spans_[static_cast<std::size_t>(k)]) continue;
        const std::string text =
            k == SpanKind::overlap
                ? ctx.strings.tr("legend.overlap", {{"capacity", std::to_string(ctx.scenario.lock.capacity)}})
                : ctx.strings.tr(std::string("legend.") + span_kind_name(k));
        if (!first) wrap_before(h * 1.6f + 4 + ImGui::CalcTextSize(text.c_str()).x);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 q(p.x + h * 1.6f, p.y + h);
        draw_swatch(ctx, dl, k, p, q);
        ImGui::Dummy(ImVec2(h * 1.6f, h));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(text.c_str());
    }
    // Every mark this timeline shows, each once, in the order a reader meets them.
    for (MarkerKind k : legend_marks()) {
        if (!present_marks_[static_cast<std::size_t>(k)]) continue;
        // Redlock's unsafe write is another client's quorum, Redisson's another client's field, not an
        // older number (model.md §20.6, §21.6).
        const char* text = ctx.redlock && k == MarkerKind::write_unsafe ? ctx.tr("rlp.legend.write_unsafe")
                           : ctx.redisson && k == MarkerKind::write_unsafe
                               ? ctx.tr("rsp.legend.write_unsafe")
                               : ctx.tr((std::string("legend.") + marker_kind_name(k)).c_str());
        if (!first) wrap_before(h * 1.1f + 3 + ImGui::CalcTextSize(text).x);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw_marker_shape(dl, ImVec2(p.x + h * 0.55f, p.y + h * 0.55f), k, col(ctx.palette.of(k)), h * 0.36f);
        ImGui::Dummy(ImVec2(h * 1.1f, h));
        ImGui::SameLine(0, 3);
        ImGui::TextUnformatted(text);
    }
    draw_message_entries(ctx, dl, h, first);
    draw_mouse_hint(ctx);
    ImGui::PopFont();
    ImGui::Spacing();
}

void draw_ruler(const FrameContext& ctx, ImDrawList* dl, const TimelineFrame& frame, ImVec2 origin, float ruler_h) {
    const TimeAxis& axis = frame.axis;
    const float plot_x = frame.plot_x;
    const float plot_w = frame.plot_w;
    dl->AddRectFilled(ImVec2(origin.x, origin.y), ImVec2(plot_x + plot_w, origin.y + ruler_h),
                      IM_COL32(225, 228, 232, 255));
    dl->AddText(ImVec2(origin.x + 6, origin.y + 4), col(ctx.palette.text_dim), ctx.tr("word.tick"));
    const Tick step = ruler_grid_step(frame.ruler.step, axis.px_per_tick, 46.0f * ctx.scale);
    const Tick t0 = std::max<Tick>(0, static_cast<Tick>(std::floor(axis.first_tick)) / step * step);
    const double t1 = axis.last_tick();
    const float bottom = origin.y + 10000;
    for (Tick t = t0; static_cast<double>(t) <= t1; t += step) {
        const auto x = static_cast<float>(axis.x_of(static_cast<double>(t)));
        if (x < plot_x) continue;
        dl->AddLine(ImVec2(x, origin.y + ruler_h - 6), ImVec2(x, bottom), col(ctx.palette.grid), 1.0f);
    }
    // The numbers are drawn with the playhead (draw_playhead), which they give way to.
    // Single-tick gridlines when zoomed in enough to count cells.
    if (step > 1 && axis.px_per_tick >= 8) {
        for (Tick t = t0; static_cast<double>(t) <= t1; ++t) {
            const auto x = static_cast<float>(axis.x_of(static_cast<double>(t)));
            if (x < plot_x) continue;
            dl->AddLine(ImVec2(x, origin.y + ruler_h - 3), ImVec2(x, origin.y + ruler_h), col(ctx.palette.grid));
        }
    }
}

void draw_playhead(const FrameContext& ctx, ImDrawList* dl, const TimelineFrame& frame, float top, float bottom,
                   float ruler_h) {
    // The ruler's numbers first: none sits under the playhead's badge.
    const RulerLayout& ruler = frame.ruler;
    const TimeAxis& axis = frame.axis;
    for (const RulerLabel& l : ruler.labels)
        dl->AddText(ImVec2(l.box.x0, l.box.y0), col(ctx.palette.text), l.text.c_str());
    if (!ruler.playhead_visible) return;
    const auto x0 = static_cast<float>(axis.x_of(static_cast<double>(ctx.playhead)));
    const auto x1 = static_cast<float>(axis.x_of(static_cast<double>(ctx.playhead) + 1.0));
    const ImU32 c = col(ctx.palette.playhead);
    // The playhead's cell is outlined down through the lanes; its line runs
    // only through the ruler, so it never covers the marks of that tick.
    const float xm = (x0 + x1) * 0.5f;
    if (x1 - x0 > 6) {
        dl->AddRectFilled(ImVec2(x0, top + ruler_h), ImVec2(x1, bottom), col(ctx.palette.playhead, 0.06f));
        dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), col(ctx.palette.playhead, 0.8f), 0, 0, 2.0f);
        dl->AddLine(ImVec2(xm, top), ImVec2(xm, top + ruler_h), c, 2.5f);
    } else {
        dl->AddLine(ImVec2(xm, top), ImVec2(xm, bottom), c, 2.5f);
    }
    dl->AddRectFilled(ImVec2(ruler.badge.x0, ruler.badge.y0), ImVec2(ruler.badge.x1, ruler.badge.y1), c, 3.0f);
    dl->AddText(ImVec2(ruler.badge.x0 + 4, ruler.badge.y0 + 1), IM_COL32(255, 255, 255, 255), ruler.badge_text.c_str());
}

void draw_span(const FrameContext& ctx, ImDrawList* dl, const DrawSpan& d, float y0, float y1) {
    const Rgba c = ctx.palette.of(d.kind);
    const ImVec2 a(d.x0, y0), b(std::max(d.x1 - 1.0f, d.x0 + 1.0f), y1);
    if (d.kind == SpanKind::fence) {
        // The resource's highest accepted fencing: a thin line (its value is a laid-out word).
        dl->AddRectFilled(ImVec2(a.x, y1 - 3), ImVec2(b.x, y1), col(c));
        return;
    }
    const float rounding = (b.x - a.x) > 8 ? 4.0f : 0.0f;
    dl->AddRectFilled(a, b, col(c), rounding);
    if (d.kind == SpanKind::stale) {
        // Narrow stale items stay solid crimson: stripes there cost many tiny triangles and read as noise.
        if (b.x - a.x >= 12) hatch(dl, a, b, IM_COL32(255, 255, 255, 110), 8.0f, 2.5f);
        dl->AddRect(a, b, IM_COL32(120, 0, 30, 255), rounding, 0, 2.0f);
    }
    if (d.kind == SpanKind::holdoff) hatch(dl, a, b, IM_COL32(255, 255, 255, 120), 7.0f, 2.0f);
}

void draw_label(const FrameContext& ctx, ImDrawList* dl, const PlacedLabel& pl) {
    ImFont* font = pl.small ? ctx.fonts.small : ImGui::GetFont();
    const float size = pl.small ? ctx.fonts.small->FontSize : ImGui::GetFontSize();
    const ImVec2 a(pl.box.x0, pl.box.y0), b(pl.box.x1, pl.box.y1);
    ImU32 text = col(ctx.palette.text);
    switch (pl.kind) {
        case LabelKind::span:
            // Dark words on the amber bar, white on the rest; on the stale
            // bar a dark backing keeps them readable over the stripes.
            text = pl.span == SpanKind::waiting ? col(ctx.palette.text) : IM_COL32(255, 255, 255, 255);
            if (pl.span == SpanKind::stale)
                dl->AddRectFilled(ImVec2(a.x - 2, a.y), ImVec2(b.x + 2, b.y), IM_COL32(150, 0, 45, 200), 3.0f);
            break;
        case LabelKind::overlay:
            dl->AddRectFilled(a, b, col(ctx.palette.of(pl.span)), 3.0f);
            text = IM_COL32(255, 255, 255, 255);
            break;
        case LabelKind::fence:
            dl->AddRectFilled(a, b, IM_COL32(232, 238, 246, 220), 2.0f);
            text = col(ctx.palette.text_dim);
            break;
        case LabelKind::clock:  // a compact store lane's clock reads like a fencing number: dark on white
        case LabelKind::fencing: dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 225), 3.0f); break;
        case LabelKind::failover:
        case LabelKind::quorum:
            dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 240), 3.0f);
            dl->AddRect(a, b, col(ctx.palette.of(pl.mark)), 3.0f, 0, 1.5f);
            text = col(ctx.palette.of(pl.mark));
            break;
    }
    dl->AddText(font, size, ImVec2(pl.text_x, pl.text_y), text, pl.text.c_str());
}

TextMetrics metrics(const FrameContext& ctx) {
    TextMetrics m;
    ImFont* body = ImGui::GetFont();
    const float body_px = ImGui::GetFontSize();
    ImFont* small = ctx.fonts.small;
    const float small_px = small->FontSize;
    m.body_width = [body, body_px](std::string_view t) {
        return body->CalcTextSizeA(body_px, FLT_MAX, 0, t.data(), t.data() + t.size()).x;
    };
    m.small_width = [small, small_px](std::string_view t) {
        return small->CalcTextSizeA(small_px, FLT_MAX, 0, t.data(), t.data() + t.size()).x;
    };
    m.body_h = body_px;
    m.small_h = small_px;
    return m;
}

std::string span_words(const FrameContext& ctx, const Span& sp, const Lane& lane, const DrawSpan& d) {
    if (d.folded > 1) return ctx.strings.tr("tip.folded_spans", {{"count", std::to_string(d.folded)}});
    Fields f{{"node", lane.label},
             {"from", std::to_string(sp.begin)},
             {"to", std::to_string(sp.end - 1)},
             {"fencing", sp.fencing ? std::to_string(*sp.fencing) : "–"},
             {"expires", std::to_string(sp.expires_at)}};
    if (lane.kind == LaneKind::store) {  // a Redlock store: its key, or its time down
        std::string owner = "?";
        if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.lanes.lanes.size())
            owner = ctx.lanes.lanes[static_cast<std::size_t>(sp.owner)].label;
        f.emplace_back("owner", owner);
        f.emplace_back("store", lane.label);
        return ctx.strings.tr(sp.kind == SpanKind::record ? "tip.store_key" : "tip.store_down", f);
    }
    if (lane.kind == LaneKind::key) {  // Redisson's hash (model.md §21.2): its field's holder and TTL
        std::string owner = "?";
        if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.lanes.lanes.size())
            owner = ctx.lanes.lanes[static_cast<std::size_t>(sp.owner)].label;
        f.emplace_back("owner", owner);
        f.emplace_back("name", lane.label);
        f.emplace_back("ttl", std::to_string(sp.ttl));
        return ctx.strings.tr("tip.redisson_key", f);
    }
    if (sp.kind == SpanKind::record) {
        std::string owner = "?";
        if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.scenario.candidates.size())
            owner = ctx.scenario.candidates[static_cast<std::size_t>(sp.owner)].name;
        f.emplace_back("owner", owner);
        f.emplace_back("slot", std::to_string(lane.index));
    }
    return ctx.strings.tr(std::string("tip.") + span_kind_name(sp.kind), f);
}

namespace {

void paint_rows(const FrameContext& ctx, const FramePaint& p, ImDrawList* still, ImDrawList* live) {
    const TimelineFrame& f = p.frame;
    for (const DrawSpan& d : f.overlap) {
        // A pale band behind the lanes and a solid strip under the ruler (see the legend).
        still->AddRectFilled(ImVec2(d.x0, f.overlap_band.y0), ImVec2(d.x1, f.overlap_band.y1),
                             col(ctx.palette.of(SpanKind::stale), 0.10f));
        still->AddRectFilled(ImVec2(d.x0, f.lanes_y), ImVec2(d.x1, f.lanes_y + 4),
                             col(ctx.palette.of(SpanKind::stale)));
    }
    for (const FrameLane& fl : f.lanes) {
        const Lane& lane = p.model.lanes[static_cast<std::size_t>(fl.lane)];
        // Every other lane gets a stripe; the rest shows the panel behind
        // (fewer filled pixels for a software renderer).
        if (fl.store_part || fl.lane % 2)
            still->AddRectFilled(ImVec2(fl.box.x0, fl.box.y0), ImVec2(fl.box.x1, fl.box.y1),
                                 col(fl.store_part ? ctx.palette.store_lane : ctx.palette.lane_odd));
        if (fl.first_of_store)
            still->AddLine(ImVec2(fl.box.x0, fl.box.y0), ImVec2(fl.box.x1, fl.box.y0), col(ctx.palette.text_dim), 2.0f);
        // The candidate's title with its current state's colour (a Redisson run's snapshot has no elector).
        const bool square = lane.kind == LaneKind::candidate && p.snap != nullptr && ctx.redisson == nullptr &&
                            static_cast<std::size_t>(lane.index) < p.snap->nodes.size();
        if (square) {
            const auto& node = p.snap->nodes[static_cast<std::size_t>(lane.index)];
            const float h = fl.box.h();
            live->AddRectFilled(ImVec2(fl.box.x0 + 6, fl.box.y0 + h * 0.25f),
                                ImVec2(fl.box.x0 + 12, fl.box.y0 + h * 0.75f),
                                col(ctx.palette.of(span_kind_of(node.status))), 2.0f);
        }
        still->AddText(ImVec2(fl.title_box.x0, fl.title_box.y0), col(ctx.palette.text), fl.title.c_str());
    }
}

// A Redlock store's key, in its owner's colour (model.md §20).
void draw_owned_span(const FrameContext& ctx, ImDrawList* dl, const FrameSpan& s, std::int32_t owner) {
    const ImVec2 a(s.draw.x0, s.box.y0), b(std::max(s.draw.x1 - 1.0f, s.draw.x0 + 1.0f), s.box.y1);
    dl->AddRectFilled(a, b, col(ctx.palette.owner(owner)), (b.x - a.x) > 8 ? 4.0f : 0.0f);
}

void paint_overlay(const FrameContext& ctx, ImDrawList* dl, const FrameSpan& s) {
    const Rgba c = ctx.palette.of(s.draw.kind);
    const ImVec2 a(s.box.x0, s.box.y0), b(s.box.x1, s.box.y1);
    if (s.draw.kind == SpanKind::validity) return draw_validity(dl, a, b, col(c));
    if (s.draw.kind == SpanKind::crashed) {  // a Redlock store down: dark hatching over whatever it holds
        hatch(dl, a, b, col(c, 0.8f), 7.0f, 2.0f);
        dl->AddRect(a, b, col(c), 0, 0, 2.0f);
        return;
    }
    if (s.draw.kind == SpanKind::paused || s.draw.kind == SpanKind::cut) {
        // Thin hatching only: the state under a pause (often STALE) or a frozen copy must stay readable.
        hatch(dl, a, b, col(c, 0.75f), 9.0f, 1.5f);
    } else {
        dl->AddRectFilled(a, ImVec2(b.x, a.y + 3), col(c));
        dl->AddRectFilled(ImVec2(a.x, b.y - 3), b, col(c));
    }
    dl->AddRect(a, b, col(c), 0, 0, 2.0f);
}

void paint_mark(const FrameContext& ctx, ImDrawList* dl, const PlacedMark& pm, bool overview) {
    if (overview) {
        if (marker_priority(pm.kind) >= 50)
            dl->AddRectFilled(ImVec2(pm.box.x0, pm.box.y0), ImVec2(pm.box.x1, pm.box.y1), col(ctx.palette.of(pm.kind)));
        return;
    }
    draw_marker_shape(dl, ImVec2(pm.x, pm.y), pm.kind, col(ctx.palette.of(pm.kind)), pm.r);
    if (pm.folded > 1) {
        // A small count tells that more marks hide here.
        const std::string n = fmt::format("+{}", pm.folded - 1);
        dl->AddText(ctx.fonts.small, ctx.fonts.small->FontSize * 0.85f,
                    ImVec2(pm.box.x1 - 2, pm.box.y1 - ctx.fonts.small->FontSize * 0.6f), col(ctx.palette.text),
                    n.c_str());
    }
}

// Lanes out of view: the scrollbar beside them and the hint under them.
void paint_scroll_hint(const FrameContext& ctx, const TimelineFrame& f, ImDrawList* dl) {
    if (f.scrollbar.h() > 0) {
        dl->AddRectFilled(ImVec2(f.scrollbar.x0, f.scrollbar.y0), ImVec2(f.scrollbar.x1, f.scrollbar.y1),
                          col(ctx.palette.grid), 3.0f);
        dl->AddRectFilled(ImVec2(f.thumb.x0, f.thumb.y0), ImVec2(f.thumb.x1, f.thumb.y1), col(ctx.palette.text_dim),
                          3.0f);
    }
    if (f.hint.empty()) return;
    dl->AddRectFilled(ImVec2(f.hint_box.x0, f.hint_box.y0), ImVec2(f.hint_box.x1, f.hint_box.y1),
                      col(ctx.palette.store_lane));
    dl->AddText(ctx.fonts.small, ctx.fonts.small->FontSize, ImVec2(f.hint_text.x0, f.hint_text.y0),
                col(ctx.palette.text), f.hint.c_str());
}

// The clock lanes: a thin row per clock that is not true time, its true-time
// line dashed, its offset in the clock mark's colour (one colour, one meaning).
void paint_clocks(const FrameContext& ctx, const TimelineFrame& f, ImDrawList* dl) {
    const ImU32 ink = col(ctx.palette.of(MarkerKind::clock_jump));
    for (const FrameClockLane& c : f.clocks) {
        dl->AddRectFilled(ImVec2(c.box.x0, c.box.y0), ImVec2(c.box.x1, c.box.y1), col(ctx.palette.lane_even));
        dl->AddLine(ImVec2(c.box.x0, c.box.y0), ImVec2(c.box.x1, c.box.y0), col(ctx.palette.grid));
        for (float x = f.plot_x; x < f.plot_x + f.plot_w; x += 8)
            dl->AddLine(ImVec2(x, c.zero_y), ImVec2(std::min(x + 4, f.plot_x + f.plot_w), c.zero_y),
                        col(ctx.palette.text_dim));
        std::vector<ImVec2> pts;
        pts.reserve(c.line.size());
        for (const auto& [x, y] : c.line) pts.emplace_back(x, y);
        if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), ink, ImDrawFlags_None, 2.0f);
        const float px = ctx.fonts.small->FontSize;
        dl->AddText(ctx.fonts.small, px, ImVec2(c.title_box.x0, c.title_box.y0), col(ctx.palette.text),
                    c.title.c_str());
        dl->AddText(ctx.fonts.small, px, ImVec2(c.axis_box.x0, c.axis_box.y0), ink, c.axis.c_str());
    }
}

// The message view: thin rows (a node's, Redis's, the resource's) and an
// arrow per message, a late one thicker in its own colour, a lost one ending
// in a cross (message_lanes.hpp).
// One message's arrow: its line, then its head, or a cross where a lost one ends.
void paint_arrow(const FrameContext& ctx, const FrameArrow& a, ImDrawList* dl) {
    const float k = ctx.scale;
    const Rgba ink = message_ink(ctx.palette, a.lost   ? MessageLook::lost
                                              : a.late ? MessageLook::late
                                                       : MessageLook::on_time);
    const float w = (a.late ? 2.5f : 1.5f) * k;
    dl->AddLine(ImVec2(a.x0, a.y0), ImVec2(a.x1, a.y1), col(ink), w);
    if (!a.head) return;
    if (a.lost) {
        const float c = 4.0f * k;
        dl->AddLine(ImVec2(a.x1 - c, a.y1 - c), ImVec2(a.x1 + c, a.y1 + c), col(ink), 2.0f * k);
        dl->AddLine(ImVec2(a.x1 - c, a.y1 + c), ImVec2(a.x1 + c, a.y1 - c), col(ink), 2.0f * k);
        return;
    }
    const float dx = a.x1 - a.x0, dy = a.y1 - a.y0, len = std::max(1e-3f, std::hypot(dx, dy));
    const float ux = dx / len, uy = dy / len, h = 6.0f * k, s = 3.0f * k;
    dl->AddTriangleFilled(ImVec2(a.x1, a.y1), ImVec2(a.x1 - ux * h - uy * s, a.y1 - uy * h + ux * s),
                          ImVec2(a.x1 - ux * h + uy * s, a.y1 - uy * h - ux * s), col(ink));
}

void paint_messages(const FrameContext& ctx, const TimelineFrame& f, ImDrawList* dl) {
    const float px = ctx.fonts.small->FontSize;
    for (std::size_t i = 0; i < f.message_lanes.size(); ++i) {
        const FrameMessageLane& ml = f.message_lanes[i];
        dl->AddRectFilled(ImVec2(ml.box.x0, ml.box.y0), ImVec2(ml.box.x1, ml.box.y1),
                          col(i % 2 == 0 ? ctx.palette.lane_even : ctx.palette.lane_odd));
        dl->AddLine(ImVec2(f.plot_x, ml.mid_y), ImVec2(ml.box.x1, ml.mid_y), col(ctx.palette.grid));
        dl->AddText(ctx.fonts.small, px, ImVec2(ml.title_box.x0, ml.title_box.y0), col(ctx.palette.text),
                    ml.title.c_str());
    }
    if (!f.message_lanes.empty())
        dl->AddLine(ImVec2(f.messages_box.x0, f.messages_box.y0), ImVec2(f.messages_box.x1, f.messages_box.y0),
                    col(ctx.palette.text_dim));
    for (const FrameArrow& a : f.arrows) paint_arrow(ctx, a, dl);
}

}  // namespace

void paint_frame(const FrameContext& ctx, const FramePaint& p, ImDrawList* still, ImDrawList* live) {
    paint_rows(ctx, p, still, live);
    // The resource lane tells only what the resource panel counts, so it
    // ends at the playhead and is drawn with the playhead's layer.
    const auto layer = [&](std::int32_t lane) {
        return p.model.lanes[static_cast<std::size_t>(lane)].kind == LaneKind::resource ? live : still;
    };
    for (const FrameSpan& s : p.frame.spans) {
        const Lane& lane = p.model.lanes[static_cast<std::size_t>(s.lane)];
        if (s.overlay)
            paint_overlay(ctx, layer(s.lane), s);
        else if ((lane.kind == LaneKind::store || lane.kind == LaneKind::key) && s.draw.kind == SpanKind::record &&
                 s.draw.folded == 1)
            draw_owned_span(ctx, layer(s.lane), s, lane.spans[static_cast<std::size_t>(s.draw.span)].owner);
        else
            draw_span(ctx, layer(s.lane), s.draw, s.box.y0, s.box.y1);
    }
    for (const PlacedMark& pm : p.frame.layout.marks) paint_mark(ctx, layer(pm.lane), pm, p.frame.layout.overview);
    for (const PlacedLabel& pl : p.frame.layout.labels) draw_label(ctx, layer(pl.lane), pl);
    paint_scroll_hint(ctx, p.frame, live);
    paint_clocks(ctx, p.frame, still);
    paint_messages(ctx, p.frame, still);
    paint_lane_arrows(ctx, p.frame, live);
}

void paint_lane_arrows(const FrameContext& ctx, const TimelineFrame& f, ImDrawList* dl) {
    for (const FrameArrow& a : f.lane_arrows) {
        // A white halo first: the arrow crosses the lanes' stripes and marks' rims.
        dl->AddLine(ImVec2(a.x0, a.y0), ImVec2(a.x1, a.y1), col(Rgba{255, 255, 255, 255}), 4.5f * ctx.scale);
        paint_arrow(ctx, a, dl);
    }
}

void probe_frame(const LaneModel& model, const TimelineFrame& f) {
    if (!probe::recording()) return;
    const bool hint = !f.hint.empty() && f.scrollbar.h() > 0;
    const auto rect = [](const Box& b) { return LayoutRect{b.x0, b.y0, b.x1, b.y1}; };
    const LayoutRect window = probe::window_clip();
    const float lanes_y1 = std::min(f.lanes_y + f.lanes_h, window.y1);
    const LayoutRect titles{f.left, f.lanes_y, f.plot_x, lanes_y1};
    const LayoutRect plot{f.plot_x, f.lanes_y, f.plot_x + f.plot_w, lanes_y1};
    int shown = 0;
    for (const FrameLane& fl : f.lanes) {
        const float visible = std::min(fl.box.y1, lanes_y1) - std::max(fl.box.y0, std::max(f.lanes_y, window.y0));
        if (visible >= fl.box.h() * 0.5f) ++shown;
        probe::drawn(DrawnKind::lane_title, fl.title, rect(fl.title_box), titles, hint);
    }
    probe::timeline(shown, static_cast<int>(model.lanes.size()), hint);
    for (const FrameMessageLane& ml : f.message_lanes)  // the message view's titles, in its rows
        probe::drawn(DrawnKind::lane_title, ml.title, rect(ml.title_box), rect(ml.box), false);
    for (const PlacedMark& pm : f.layout.marks) {
        const Marker& m = model.lanes[static_cast<std::size_t>(pm.lane)].markers[static_cast<std::size_t>(pm.marker)];
        const std::string what = std::string(marker_kind_name(pm.kind)) + " t" + std::to_string(m.tick);
        // A mark stays inside its own lane.
        LayoutRect lane = plot;
        bool whole = false;  // the lane is all in view: a mark cut there is cut, scrolling or not
        for (const FrameLane& fl : f.lanes) {
            if (fl.lane != pm.lane) continue;
            lane = LayoutRect{plot.x0, std::max(plot.y0, fl.box.y0), plot.x1, std::min(plot.y1, fl.box.y1)};
            whole = fl.box.y0 >= plot.y0 && fl.box.y1 <= plot.y1;
        }
        probe::drawn(DrawnKind::mark, what, rect(pm.box), lane, hint && !whole);
    }
    for (const PlacedLabel& pl : f.layout.labels)
        probe::drawn(DrawnKind::mark_label, pl.text, rect(pl.box), plot, hint);
    const LayoutRect ruler{f.plot_x, f.top, f.plot_x + f.plot_w, f.lanes_y};
    for (const RulerLabel& l : f.ruler.labels) probe::drawn(DrawnKind::tick_number, l.text, rect(l.box), ruler, false);
    if (f.ruler.playhead_visible)
        probe::drawn(DrawnKind::tick_number, f.ruler.badge_text, rect(f.ruler.badge), ruler, false);
    if (hint) {
        probe::drawn(DrawnKind::hint, f.hint, rect(f.hint_text), rect(f.hint_box), false);
    }
}

std::string hit_words(const FrameContext& ctx, const FramePaint& p, const sim::Trace& trace, const FrameHit& hit) {
    if (hit.arrow >= 0) {
        const FrameArrow& a = p.frame.arrows[static_cast<std::size_t>(hit.arrow)];
        return message_words(p.model.messages, a.message, trace, ctx.strings);
    }
    if (hit.lane < 0) return {};
    const Lane& lane = p.model.lanes[static_cast<std::size_t>(hit.lane)];
    if (hit.mark >= 0) {
        const PlacedMark& pm = p.frame.layout.marks[static_cast<std::size_t>(hit.mark)];
        const Marker& mk = lane.markers[static_cast<std::size_t>(pm.marker)];
        std::string text = ctx.strings.tr(std::string("legend.") + marker_kind_name(pm.kind)) + "\n" +
                           describe_event(trace.events[static_cast<std::size_t>(mk.event)], ctx.strings, trace.header);
        if (pm.folded > 1)
            text.append("\n").append(ctx.strings.tr("tip.folded", {{"count", std::to_string(pm.folded)}}));
        return text;
    }
    if (hit.span < 0) return {};
    const FrameSpan& s = p.frame.spans[static_cast<std::size_t>(hit.span)];
    const Span& sp = (s.overlay ? lane.overlays : lane.spans)[static_cast<std::size_t>(s.draw.span)];
    if (!s.overlay) return span_words(ctx, sp, lane, s.draw);
    return ctx.strings.tr(
        std::string("tip.") + span_kind_name(sp.kind),
        {{"node", lane.label}, {"from", std::to_string(sp.begin)}, {"to", std::to_string(sp.end - 1)}});
}

}  // namespace leasescope::gui
