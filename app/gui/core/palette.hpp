#pragma once
// One colour per state, shared by the timeline, the panels, the legend and the
// SVG export. Stale is the loudest colour on the screen on purpose: it is the
// state a lease alone cannot prevent.
#include <cstdint>
#include <string>
#include <string_view>

#include "lanes.hpp"

namespace leasescope::gui {

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    std::uint32_t packed() const {  // ImGui's IM_COL32 layout (ABGR in memory order)
        return static_cast<std::uint32_t>(r) | (static_cast<std::uint32_t>(g) << 8) |
               (static_cast<std::uint32_t>(b) << 16) | (static_cast<std::uint32_t>(a) << 24);
    }
    std::string hex() const;  // "#rrggbb"
    Rgba with_alpha(std::uint8_t alpha) const { return Rgba{r, g, b, alpha}; }
};

struct Palette {
    Rgba span[static_cast<int>(SpanKind::count_)];
    Rgba marker[static_cast<int>(MarkerKind::count_)];
    Rgba text{25, 28, 35, 255};
    Rgba text_dim{110, 116, 128, 255};
    Rgba background{250, 250, 247, 255};
    Rgba lane_even{242, 243, 240, 255};
    Rgba lane_odd{235, 237, 233, 255};
    Rgba store_lane{232, 238, 246, 255};  // behind the store's lanes (slots, hold-off, resource, ops)
    Rgba grid{205, 208, 212, 255};
    Rgba playhead{20, 90, 200, 255};
    Rgba focus{255, 150, 0, 255};  // the tour's pointer
    // The message view (model.md §16): a message on time, one that took
    // longer than its link's latency, and the cross of one that never arrived.
    Rgba message{110, 116, 128, 255};
    Rgba message_late{196, 64, 160, 255};
    Rgba message_lost{200, 30, 45, 255};
    // A Redlock store's key in its owner's colour (model.md §20), one per
    // client in declared order, repeating after the last.
    Rgba owners[4] = {{40, 110, 190, 255}, {200, 110, 20, 255}, {120, 70, 170, 255}, {20, 130, 120, 255}};
    Rgba owner(std::int32_t client) const { return owners[client < 0 ? 0 : client % 4]; }

    Rgba of(SpanKind k) const { return span[static_cast<int>(k)]; }
    Rgba of(MarkerKind k) const { return marker[static_cast<int>(k)]; }
};

Palette default_palette();
// Projector mode's palette: the Okabe–Ito colours (blue, orange, vermillion,
// sky blue, purple) with black and white, so every outcome stays apart for
// colour-blind viewers and on a washed-out projector; nothing depends on red
// against green. style.json's colours do not apply to it.
Palette high_contrast_palette();
// Applies {"colors": {"stale": "#e0103a", …}} from assets/style.json; unknown
// names are ignored, so an old style file never breaks the app.
void apply_style_json(Palette& palette, std::string_view json_text, float* font_px);

// The colour of the protected-action frame (model.md §15: stale is the
// loudest colour): the stale colour while any node inside acts on a lease
// that is gone or more nodes act than the lock allows, else the running one.
SpanKind action_frame_kind(int inside, int stale, int capacity);
// WCAG's contrast ratio of two opaque colours (1: the same luminance, 21: black on white).
double contrast_ratio(const Rgba& a, const Rgba& b);

const char* span_kind_name(SpanKind kind);      // "stale", …: style keys and i18n keys
const char* marker_kind_name(MarkerKind kind);  // "release_rejected", …
bool parse_hex(std::string_view text, Rgba& out);

}  // namespace leasescope::gui
