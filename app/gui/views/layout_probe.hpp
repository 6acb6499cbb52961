#pragma once
// The layout probe: while it records (`leasescope --layout-report`), every
// text and widget a view draws leaves its rectangle here, for the layout
// check (core/layout_check.hpp). Views need not call it: inside namespace
// leasescope::gui, `ImGui::Text` and the other widgets below name these
// recording wrappers, which call ImGui's own; every other `ImGui::` name
// reaches ImGui through the using-directive.
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "../core/layout_check.hpp"

namespace leasescope::gui {

namespace probe {
// Starts recording (clearing what was recorded) or stops it.
void record(bool on);
bool recording();
// Records the last item (ImGui::GetItemRectMin/Max) in the current window.
void item(bool text, const char* label);
// Where the panel `id` (its window "title###id") is drawn this frame, when it is:
// its real place, which the user may have moved it from the computed layout.
std::optional<LayoutRect> panel_rect(const char* id);
// Records something drawn straight into the current window's draw list (the
// timeline's lane titles, marks, words, tick numbers), shown only inside
// `clip` and the window; `scrolls_y`: a scrollbar and a hint reach the rest.
void drawn(DrawnKind kind, const std::string& label, const LayoutRect& rect, const LayoutRect& clip, bool scrolls_y);
// The current window's visible area (its clip rectangle).
LayoutRect window_clip();
// Records a timeline of the current window: lanes shown, of how many, with a hint.
void timeline(int lanes_shown, int lanes_total, bool hint);
// What was recorded, and the windows drawn this frame (call after the frame).
const std::vector<LayoutItem>& items();
const std::vector<LayoutTimeline>& timelines();
std::vector<LayoutWindow> windows();
}  // namespace probe

namespace ImGui {
using namespace ::ImGui;
void Text(const char* fmt, ...) IM_FMTARGS(1);
void TextColored(const ImVec4& col, const char* fmt, ...) IM_FMTARGS(2);
void TextDisabled(const char* fmt, ...) IM_FMTARGS(1);
void TextWrapped(const char* fmt, ...) IM_FMTARGS(1);
void BulletText(const char* fmt, ...) IM_FMTARGS(1);
void TextUnformatted(const char* text, const char* text_end = nullptr);
bool Button(const char* label, const ImVec2& size = ImVec2(0, 0));
bool SmallButton(const char* label);
bool Checkbox(const char* label, bool* v);
bool RadioButton(const char* label, bool active);
bool SliderInt(const char* label, int* v, int v_min, int v_max, const char* format = "%d", ImGuiSliderFlags flags = 0);
bool SliderFloat(const char* label, float* v, float v_min, float v_max, const char* format = "%.3f",
                 ImGuiSliderFlags flags = 0);
bool BeginCombo(const char* label, const char* preview_value, ImGuiComboFlags flags = 0);
void ProgressBar(float fraction, const ImVec2& size_arg = ImVec2(-FLT_MIN, 0), const char* overlay = nullptr);
}  // namespace ImGui

}  // namespace leasescope::gui
