#pragma once
// The assets part of the app (app.hpp): what init() loads once and the
// fonts baked from it: the string tables (and the language), the presets,
// the Hangul the font atlas must hold.
#include <set>
#include <string>
#include <vector>

#include "../core/strings.hpp"
#include "../views/view.hpp"

namespace leasescope::gui {

struct Assets {
    Strings strings;
    Fonts fonts;
    std::vector<PresetInfo> presets;  // in teaching order
    std::set<char32_t> hangul;        // the app's own words and every opened scenario's (core/glyphs.hpp)
    bool fonts_dirty = false;         // re-bake the fonts before the next frame
};

}  // namespace leasescope::gui
