#pragma once
// Which Hangul the font atlas must hold. Baking every Hangul syllable
// (11,172, at three sizes) took most of the app's start-up time and of each
// re-bake at a new UI scale; the app bakes the syllables its own words use
// (string tables, tour, presets) and adds those of each scenario it opens
// (names, titles), re-baking when one brings a syllable it has not seen.
#include <set>
#include <string_view>

namespace leasescope::gui {

// True for the Hangul the atlas may need: syllables U+AC00–U+D7A3 and the
// compatibility jamo U+3131–U+318E.
bool is_hangul(char32_t cp);

// Adds `cp` to `glyphs` when it is Hangul; true when it was new. The host
// calls it for the text of the input field being edited (the path field of
// Open and Save): typed, pasted or composed Korean gets its glyphs baked
// before the next frame instead of showing as boxes.
bool add_hangul_point(std::set<char32_t>& glyphs, char32_t cp);

// Adds the Hangul code points of `utf8` (syllables U+AC00–U+D7A3 and the
// compatibility jamo U+3131–U+318E) to `glyphs`; true when one was new.
bool add_hangul(std::set<char32_t>& glyphs, std::string_view utf8);

}  // namespace leasescope::gui
