// Helpers shared by the views: panel placement, colours, badges, hatching and
// marker shapes, so every panel draws a state the same way.
#include <algorithm>
#include <cmath>

#include "../core/cull.hpp"
#include "../core/marks.hpp"
#include "../core/redlock_lanes.hpp"
#include "view.hpp"

namespace leasescope::gui {

ImU32 col(const Rgba& c) { return c.packed(); }
ImU32 col(const Rgba& c, float alpha_scale) {
    Rgba d = c;
    d.a = static_cast<std::uint8_t>(std::lround(static_cast<float>(c.a) * alpha_scale));
    return d.packed();
}

Explanation explanation_of(const FrameContext& ctx, std::int32_t index) {
    ExplainContext ec;
    // A replayed history has no scenario to tell from (model.md §19.9): only the trace's facts, as
    // `leasescope-cli explain` says them for a trace given alone.
    ec.scenario = ctx.timeline.replayed() ? nullptr : &ctx.scenario;
    ec.trace = &ctx.timeline.trace();
    ec.event_index = static_cast<std::size_t>(index);
    ec.snapshot = &ctx.snap;
    return explain(ec, ctx.strings);
}

std::int32_t chosen_event(const FrameContext& ctx) {
    const auto& events = ctx.timeline.trace().events;
    if (ctx.selected_event >= 0 && static_cast<std::size_t>(ctx.selected_event) < events.size() &&
        events[static_cast<std::size_t>(ctx.selected_event)].tick == ctx.playhead) {
        return ctx.selected_event;
    }
    std::int32_t chosen = -1;
    int best = -1;
    for (std::size_t k = ctx.timeline.first_event_at_or_after(ctx.playhead);
         k < events.size() && events[k].tick == ctx.playhead; ++k) {
        const int p = marker_priority(ctx.redlock ? redlock_marker_kind(events, k) : marker_kind_of(events[k]));
        if (p > best) {
            best = p;
            chosen = static_cast<std::int32_t>(k);
        }
    }
    return chosen;
}

bool begin_panel(const FrameContext& ctx, Panel panel, const char* title, ImGuiWindowFlags extra, Commands* out) {
    const bool tabs = ctx.compact && out != nullptr && is_tab_panel(panel);
    if (tabs) extra |= ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_MenuBar;
    const PanelRect& r = ctx.layout[panel];
    const ImGuiCond cond = ctx.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), cond);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), cond);
    // The visible title is translated; "###id" keeps the window's identity
    // (and its remembered settings) the same in both languages.
    const std::string label = std::string(title) + "###" + panel_name(panel);
    const bool open = ImGui::Begin(label.c_str(), nullptr, ImGuiWindowFlags_NoCollapse | extra);
    if (open && tabs) draw_tabs(ctx, *out);
    return open;
}

void badge(const char* text, const Rgba& fill, const Rgba& text_color) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 pad(7, 2);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImVec2 q(p.x + size.x + 2 * pad.x, p.y + size.y + 2 * pad.y);
    dl->AddRectFilled(p, q, col(fill), 5.0f);
    dl->AddText(ImVec2(p.x + pad.x, p.y + pad.y), col(text_color), text);
    ImGui::Dummy(ImVec2(q.x - p.x, q.y - p.y));
    probe::item(true, text);
}

void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float spacing, float thickness) {
    // Each 45° stripe is cut to the rectangle by hand rather than with a clip
    // rectangle: a clip rectangle per span would split the draw list into
    // many small draw calls, which a software renderer pays for.
    const float h = b.y - a.y;
    if (h <= 0 || b.x <= a.x) return;
    for (float x = a.x - h; x < b.x; x += spacing) {
        const float t0 = std::max(0.0f, (a.x - x) / h);
        const float t1 = std::min(1.0f, (b.x - x) / h);
        if (t0 >= t1) continue;
        dl->AddLine(ImVec2(x + h * t0, b.y - h * t0), ImVec2(x + h * t1, b.y - h * t1), color, thickness);
    }
}

void draw_marker_shape(ImDrawList* dl, ImVec2 c, MarkerKind kind, ImU32 color, float r) {
    // The glyph (core/marks.hpp) is the single definition of each mark's shape;
    // the SVG export reads the same one.
    const ImU32 white = IM_COL32(255, 255, 255, 255);
    const ImU32 dark = IM_COL32(25, 28, 35, 255);
    const auto at = [&](const GlyphPoint& p) { return ImVec2(c.x + p.x * r, c.y + p.y * r); };
    for (const GlyphPart& part : mark_glyph(kind).parts) {
        const ImU32 ink = part.ink == Ink::mark ? color : part.ink == Ink::white ? white : dark;
        const float stroke = std::max(1.0f, part.stroke * r);
        switch (part.type) {
            case GlyphPart::Type::polygon:
                for (const GlyphPoint& p : part.points) dl->PathLineTo(at(p));
                dl->PathFillConvex(ink);
                break;
            case GlyphPart::Type::polyline:
            case GlyphPart::Type::outline:
                for (const GlyphPoint& p : part.points) dl->PathLineTo(at(p));
                dl->PathStroke(ink, part.type == GlyphPart::Type::outline ? ImDrawFlags_Closed : 0, stroke);
                break;
            case GlyphPart::Type::circle: dl->AddCircleFilled(at(part.points[0]), part.size * r, ink); break;
            case GlyphPart::Type::ring: dl->AddCircle(at(part.points[0]), part.size * r, ink, 0, stroke); break;
        }
    }
}

}  // namespace leasescope::gui
