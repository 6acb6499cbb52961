#pragma once
// The preferences part of the app (app.hpp): what the user chose about the
// look and what is remembered between runs (app_settings.cpp): the UI scale,
// the palette, the window size. The language lives with the string tables
// (Assets::strings).
#include <string>

#include "../core/palette.hpp"

namespace leasescope::gui {

struct Preferences {
    Palette palette =
        default_palette();    // the default palette with assets/style.json over it, or the high-contrast one
    std::string style_text;   // assets/style.json, applied over the default palette
    float font_px = 17.0f;    // the body font at 100 %
    int scale_percent = 100;  // projector mode: 100 … 250
    bool high_contrast = false;
    int window_w = 0, window_h = 0;  // remembered from the last run (0: none)
    bool remember = true;            // false: changes are not written (--projector is for one session)
};

}  // namespace leasescope::gui
