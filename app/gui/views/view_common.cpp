// Helpers shared by the views: panel placement, colours, badges, hatching and
// marker shapes, so every panel draws a state the same way.
#include <algorithm>
#include <cmath>

#include "view.hpp"

namespace leasescope::gui {

ImU32 col(const Rgba& c) { return c.packed(); }
ImU32 col(const Rgba& c, float alpha_scale) {
    Rgba d = c;
    d.a = static_cast<std::uint8_t>(std::lround(static_cast<float>(c.a) * alpha_scale));
    return d.packed();
}

bool begin_panel(const FrameContext& ctx, const char* id, const char* title, ImGuiWindowFlags extra) {
    auto it = ctx.layout.find(id);
    if (it != ctx.layout.end()) {
        const ImGuiCond cond = ctx.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
        ImGui::SetNextWindowPos(ImVec2(it->second.x, it->second.y), cond);
        ImGui::SetNextWindowSize(ImVec2(it->second.w, it->second.h), cond);
    }
    // The visible title is translated; "###id" keeps the window's identity
    // (and its remembered settings) the same in both languages.
    const std::string label = std::string(title) + "###" + id;
    return ImGui::Begin(label.c_str(), nullptr, ImGuiWindowFlags_NoCollapse | extra);
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
    const ImU32 white = IM_COL32(255, 255, 255, 255);
    switch (kind) {
        case MarkerKind::acquire:  // an upward triangle: the lock is taken
            dl->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x - r, c.y + r * 0.8f),
                                  ImVec2(c.x + r, c.y + r * 0.8f), color);
            dl->AddTriangle(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x - r, c.y + r * 0.8f),
                            ImVec2(c.x + r, c.y + r * 0.8f), white, 1.5f);
            break;
        case MarkerKind::release:  // a downward triangle: the lock is given back
            dl->AddTriangleFilled(ImVec2(c.x, c.y + r * 1.2f), ImVec2(c.x - r, c.y - r * 0.8f),
                                  ImVec2(c.x + r, c.y - r * 0.8f), color);
            dl->AddTriangle(ImVec2(c.x, c.y + r * 1.2f), ImVec2(c.x - r, c.y - r * 0.8f),
                            ImVec2(c.x + r, c.y - r * 0.8f), white, 1.5f);
            break;
        case MarkerKind::extend:  // a diamond: the lease is pushed forward
            dl->AddQuadFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y),
                              color);
            dl->AddQuad(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), white,
                        1.5f);
            break;
        case MarkerKind::expire: {  // a cross in a circle: the record's time ran out
            dl->AddCircleFilled(c, r, white);
            dl->AddCircle(c, r, color, 0, 2.0f);
            const float k = r * 0.55f;
            dl->AddLine(ImVec2(c.x - k, c.y - k), ImVec2(c.x + k, c.y + k), color, 2.5f);
            dl->AddLine(ImVec2(c.x - k, c.y + k), ImVec2(c.x + k, c.y - k), color, 2.5f);
            break;
        }
        case MarkerKind::release_rejected:
        case MarkerKind::write_rejected:
        case MarkerKind::write_unsafe:
        case MarkerKind::extend_lost:
        case MarkerKind::acquire_error:
        case MarkerKind::release_error:
        case MarkerKind::crash:
        case MarkerKind::failover: {  // a bold X on a white disc: refused or broken
            dl->AddCircleFilled(c, r + 1.5f, white);
            const float k = r * 0.8f;
            dl->AddLine(ImVec2(c.x - k, c.y - k), ImVec2(c.x + k, c.y + k), color, 3.5f);
            dl->AddLine(ImVec2(c.x - k, c.y + k), ImVec2(c.x + k, c.y - k), color, 3.5f);
            if (kind == MarkerKind::write_unsafe) dl->AddCircle(c, r + 2.5f, color, 0, 2.0f);
            break;
        }
        case MarkerKind::write_accepted: {  // a check mark on a disc
            dl->AddCircleFilled(c, r, color);
            dl->AddLine(ImVec2(c.x - r * 0.5f, c.y), ImVec2(c.x - r * 0.1f, c.y + r * 0.45f), white, 2.2f);
            dl->AddLine(ImVec2(c.x - r * 0.1f, c.y + r * 0.45f), ImVec2(c.x + r * 0.55f, c.y - r * 0.45f), white, 2.2f);
            break;
        }
        case MarkerKind::skip:  // a hollow square: gave up waiting
            dl->AddRectFilled(ImVec2(c.x - r * 0.8f, c.y - r * 0.8f), ImVec2(c.x + r * 0.8f, c.y + r * 0.8f), white);
            dl->AddRect(ImVec2(c.x - r * 0.8f, c.y - r * 0.8f), ImVec2(c.x + r * 0.8f, c.y + r * 0.8f), color, 0, 0,
                        2.5f);
            break;
        case MarkerKind::acquire_busy:  // a small dot: one more try
            dl->AddCircleFilled(c, r * 0.35f, color);
            break;
        case MarkerKind::start:
            dl->AddLine(ImVec2(c.x, c.y - r), ImVec2(c.x, c.y + r), color, 2.0f);
            break;
        default:
            dl->AddCircleFilled(c, r * 0.6f, color);
            dl->AddCircle(c, r * 0.6f, white, 0, 1.5f);
            break;
    }
}

}  // namespace leasescope::gui
