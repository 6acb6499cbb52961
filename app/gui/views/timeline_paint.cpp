// The timeline's drawing pieces (timeline_paint.hpp): legend, ruler, playhead, spans, words.
#include "timeline_paint.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

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

}  // namespace

void TimelineLegend::refresh_present(const FrameContext& ctx) {
    if (present_generation_ == ctx.timeline_generation && present_valid_) return;
    present_generation_ = ctx.timeline_generation;
    present_valid_ = true;
    present_spans_.assign(static_cast<std::size_t>(SpanKind::count_), false);
    present_marks_.assign(static_cast<std::size_t>(MarkerKind::count_), false);
    for (const Lane& lane : ctx.lanes.lanes) {
        for (const Span& sp : lane.spans) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
        for (const Span& sp : lane.overlays) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
        for (const Marker& m : lane.markers) present_marks_[static_cast<std::size_t>(m.kind)] = true;
    }
    if (!ctx.lanes.overlap.empty()) present_spans_[static_cast<std::size_t>(SpanKind::overlap)] = true;
}

void TimelineLegend::draw(const FrameContext& ctx) {
    refresh_present(ctx);
    if (ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * 11) {
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
    draw_entries(ctx);
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
                              SpanKind::fence};
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
        if (k == SpanKind::overlap) {
            dl->AddRectFilled(p, q, col(ctx.palette.of(SpanKind::stale), 0.12f), 3.0f);
            dl->AddRectFilled(p, ImVec2(q.x, p.y + 4), col(ctx.palette.of(SpanKind::stale)));
        } else if (k == SpanKind::fence) {
            dl->AddRectFilled(ImVec2(p.x, q.y - 4), q, col(ctx.palette.of(k)));
        } else if (k == SpanKind::paused) {
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
        ImGui::Dummy(ImVec2(h * 1.6f, h));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(text.c_str());
    }
    // Every mark this timeline shows, each once, in the order a reader meets them.
    for (MarkerKind k : legend_marks()) {
        if (!present_marks_[static_cast<std::size_t>(k)]) continue;
        const char* text = ctx.tr((std::string("legend.") + marker_kind_name(k)).c_str());
        if (!first) wrap_before(h * 1.1f + 3 + ImGui::CalcTextSize(text).x);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw_marker_shape(dl, ImVec2(p.x + h * 0.55f, p.y + h * 0.55f), k, col(ctx.palette.of(k)), h * 0.36f);
        ImGui::Dummy(ImVec2(h * 1.1f, h));
        ImGui::SameLine(0, 3);
        ImGui::TextUnformatted(text);
    }
    // The mouse hint only where the lanes keep room; else it waits in a tooltip.
    if (ImGui::GetContentRegionAvail().y > ImGui::GetFontSize() * 16) {
        ImGui::TextDisabled("%s", ctx.tr("timeline.hint"));
    } else {
        wrap_before(ImGui::CalcTextSize("(?)").x);
        ImGui::TextDisabled("(?)");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("timeline.hint"));
    }
    ImGui::PopFont();
    ImGui::Spacing();
}

void draw_ruler(const FrameContext& ctx, ImDrawList* dl, const TimeAxis& axis, ImVec2 origin, float plot_x,
                float plot_w, float ruler_h) {
    dl->AddRectFilled(ImVec2(origin.x, origin.y), ImVec2(plot_x + plot_w, origin.y + ruler_h),
                      IM_COL32(225, 228, 232, 255));
    dl->AddText(ImVec2(origin.x + 6, origin.y + 4), col(ctx.palette.text_dim), ctx.tr("word.tick"));
    const Tick step = ruler_step(axis.px_per_tick, 46.0f * ctx.scale);
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

void draw_playhead(const FrameContext& ctx, ImDrawList* dl, const TimeAxis& axis, float plot_x, float plot_w, float top,
                   float bottom, float ruler_h) {
    // The ruler's numbers first: none sits under the playhead's badge.
    const RulerLayout ruler = layout_ruler(axis, plot_x, plot_w, top, ruler_h, ctx.playhead, metrics(ctx));
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
        case LabelKind::fencing: dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 225), 3.0f); break;
        case LabelKind::failover:
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
    if (sp.kind == SpanKind::record) {
        std::string owner = "?";
        if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.scenario.candidates.size())
            owner = ctx.scenario.candidates[static_cast<std::size_t>(sp.owner)].name;
        f.emplace_back("owner", owner);
        f.emplace_back("slot", std::to_string(lane.index));
    }
    return ctx.strings.tr(std::string("tip.") + span_kind_name(sp.kind), f);
}

}  // namespace leasescope::gui
