// The layout probe (layout_probe.hpp): the recording wrappers of ImGui's text and widgets, and what they recorded.
#include "layout_probe.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include <imgui_internal.h>

namespace leasescope::gui {

namespace probe {
namespace {
bool on = false;
std::vector<LayoutItem> recorded;
std::vector<LayoutTimeline> recorded_timelines;

// The window a drawn item belongs to, or null when it is not recorded.
const ImGuiWindow* recorded_window() {
    if (!on) return nullptr;
    const ImGuiWindow* w = ::ImGui::GetCurrentWindowRead();
    if (!w || (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) || w->SkipItems) return nullptr;
    return w;
}

LayoutRect rect_of(const ImRect& r) { return LayoutRect{r.Min.x, r.Min.y, r.Max.x, r.Max.y}; }
}  // namespace

void record(bool yes) {
    on = yes;
    if (yes) recorded.clear();
    if (yes) recorded_timelines.clear();
}

bool recording() { return on; }

void item(bool text, const char* label) {
    if (!on) return;
    const ImGuiWindow* w = ::ImGui::GetCurrentWindowRead();
    if (!w || (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup))) return;
    // Only what is really on screen: ImGui skips items outside the window (its clipper).
    if (w->SkipItems) return;
    LayoutItem it;
    it.window = w->RootWindow ? w->RootWindow->Name : w->Name;
    it.label = label ? label : "";
    // "Name##id": only the part a person sees.
    if (const auto hash = it.label.find("##"); hash != std::string::npos) it.label.resize(hash);
    it.text = text && !it.label.empty();
    it.rect = LayoutRect{::ImGui::GetItemRectMin().x, ::ImGui::GetItemRectMin().y, ::ImGui::GetItemRectMax().x,
                         ::ImGui::GetItemRectMax().y};
    // The clip rectangle now: the window's inner area, or the table cell.
    it.clip = rect_of(w->ClipRect);
    // The visible part of a scrolling window: a scrollbar shows and reaches the rest.
    // Only a scrollbar on screen counts: content past a window without one is cut.
    it.scrolls_y = w->ScrollbarY;
    it.scrolls_x = w->ScrollbarX;
    for (const ImGuiWindow* p = w; p && (p->Flags & ImGuiWindowFlags_ChildWindow); p = p->ParentWindow)
        if (p->ParentWindow && p->ParentWindow->ScrollbarY) it.scrolls_y = true;
    recorded.push_back(std::move(it));
}

void drawn(DrawnKind kind, const std::string& label, const LayoutRect& rect, const LayoutRect& clip, bool scrolls_y) {
    const ImGuiWindow* w = recorded_window();
    if (!w) return;
    LayoutItem it;
    it.window = w->RootWindow ? w->RootWindow->Name : w->Name;
    it.label = label;
    it.text = kind != DrawnKind::mark && !label.empty();
    it.drawn = kind;
    it.rect = rect;
    const LayoutRect inner = rect_of(w->ClipRect);
    it.clip = LayoutRect{std::max(clip.x0, inner.x0), std::max(clip.y0, inner.y0), std::min(clip.x1, inner.x1),
                         std::min(clip.y1, inner.y1)};
    it.scrolls_y = scrolls_y;
    recorded.push_back(std::move(it));
}

LayoutRect window_clip() {
    const ImGuiWindow* w = ::ImGui::GetCurrentWindowRead();
    return w ? rect_of(w->ClipRect) : LayoutRect{};
}

void timeline(int lanes_shown, int lanes_total, bool hint) {
    const ImGuiWindow* w = recorded_window();
    if (!w) return;
    recorded_timelines.push_back(
        LayoutTimeline{w->RootWindow ? w->RootWindow->Name : w->Name, lanes_shown, lanes_total, hint});
}

const std::vector<LayoutTimeline>& timelines() { return recorded_timelines; }

const std::vector<LayoutItem>& items() { return recorded; }

std::optional<LayoutRect> panel_rect(const char* id) {
    const ImGuiWindow* w = ::ImGui::FindWindowByName((std::string("###") + id).c_str());
    if (!w || !w->Active || w->Hidden) return std::nullopt;
    return rect_of(w->Rect());
}

std::vector<LayoutWindow> windows() {
    std::vector<LayoutWindow> out;
    const ImGuiContext& g = *GImGui;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow)) continue;
        if (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
        if (std::string(w->Name).rfind("Debug##", 0) == 0) continue;  // ImGui's implicit window
        out.push_back(LayoutWindow{w->Name, rect_of(w->Rect())});
    }
    return out;
}
}  // namespace probe

namespace ImGui {
namespace {
// The text a format makes, for the report (only while recording).
std::string formatted(const char* fmt, va_list args) {
    char buf[256];
    std::vsnprintf(buf, sizeof buf, fmt, args);
    return buf;
}
}  // namespace

#define LEASESCOPE_PROBE_TEXTV(call, ...)                 \
    va_list args;                                         \
    va_start(args, fmt);                                  \
    ::ImGui::call(__VA_ARGS__ fmt, args);                 \
    va_end(args);                                         \
    if (probe::recording()) {                             \
        va_list again;                                    \
        va_start(again, fmt);                             \
        probe::item(true, formatted(fmt, again).c_str()); \
        va_end(again);                                    \
    }

void Text(const char* fmt, ...) { LEASESCOPE_PROBE_TEXTV(TextV) }
void TextColored(const ImVec4& col, const char* fmt, ...) { LEASESCOPE_PROBE_TEXTV(TextColoredV, col, ) }
void TextDisabled(const char* fmt, ...) { LEASESCOPE_PROBE_TEXTV(TextDisabledV) }
void TextWrapped(const char* fmt, ...) { LEASESCOPE_PROBE_TEXTV(TextWrappedV) }
void BulletText(const char* fmt, ...) { LEASESCOPE_PROBE_TEXTV(BulletTextV) }
#undef LEASESCOPE_PROBE_TEXTV

void TextUnformatted(const char* text, const char* text_end) {
    ::ImGui::TextUnformatted(text, text_end);
    if (probe::recording()) probe::item(true, std::string(text, text_end ? text_end : text + strlen(text)).c_str());
}

bool Button(const char* label, const ImVec2& size) {
    const bool r = ::ImGui::Button(label, size);
    probe::item(true, label);
    return r;
}

bool SmallButton(const char* label) {
    const bool r = ::ImGui::SmallButton(label);
    probe::item(true, label);
    return r;
}

bool Checkbox(const char* label, bool* v) {
    const bool r = ::ImGui::Checkbox(label, v);
    probe::item(true, label);
    return r;
}

bool RadioButton(const char* label, bool active) {
    const bool r = ::ImGui::RadioButton(label, active);
    probe::item(true, label);
    return r;
}

bool SliderInt(const char* label, int* v, int v_min, int v_max, const char* format, ImGuiSliderFlags flags) {
    const bool r = ::ImGui::SliderInt(label, v, v_min, v_max, format, flags);
    probe::item(false, label);
    return r;
}

bool SliderFloat(const char* label, float* v, float v_min, float v_max, const char* format, ImGuiSliderFlags flags) {
    const bool r = ::ImGui::SliderFloat(label, v, v_min, v_max, format, flags);
    probe::item(false, label);
    return r;
}

bool BeginCombo(const char* label, const char* preview_value, ImGuiComboFlags flags) {
    const bool open = ::ImGui::BeginCombo(label, preview_value, flags);
    // Open, the last item is the popup's; closed, it is the combo itself,
    // recorded by what it shows (the preset's title), else by its label.
    if (!open) probe::item(false, preview_value && *preview_value ? preview_value : label);
    return open;
}

void ProgressBar(float fraction, const ImVec2& size_arg, const char* overlay) {
    ::ImGui::ProgressBar(fraction, size_arg, overlay);
    probe::item(false, overlay);
}

}  // namespace ImGui

}  // namespace leasescope::gui
