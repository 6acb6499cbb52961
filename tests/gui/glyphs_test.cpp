// The glyphs the font atlas must hold (core/glyphs.hpp): the app's own
// Hangul, and Hangul typed into an input field, which the app's words need
// not contain (the path field showed boxes for it).
#include <gtest/gtest.h>

#include <set>

#include "core/glyphs.hpp"

namespace leasescope::gui {
namespace {

// A syllable typed into the path field is added once (true the first time
// only: one re-bake), whatever the app's words held before.
TEST(Glyphs, TypedHangulIsAddedOnce) {
    std::set<char32_t> glyphs;
    add_hangul(glyphs, "시나리오");
    EXPECT_TRUE(add_hangul_point(glyphs, U'뷁'));  // in no word of the app
    EXPECT_EQ(glyphs.count(U'뷁'), 1u);
    EXPECT_FALSE(add_hangul_point(glyphs, U'뷁'));
    EXPECT_FALSE(add_hangul_point(glyphs, U'시'));  // already there
    // The whole range of syllables and the compatibility jamo, and nothing else.
    for (const char32_t cp : {U'\uAC00', U'\uD7A3', U'\u3131', U'\u318E', U'똠', U'ㅎ'}) {
        EXPECT_TRUE(is_hangul(cp)) << static_cast<unsigned>(cp);
        add_hangul_point(glyphs, cp);
        EXPECT_EQ(glyphs.count(cp), 1u);
    }
    const std::size_t before = glyphs.size();
    for (const char32_t cp : {U'a', U'/', U'\u00E9', U'\uABFF', U'\uD7A4', U'\u3130', U'\u318F', U'\u4E00'}) {
        EXPECT_FALSE(is_hangul(cp)) << static_cast<unsigned>(cp);
        EXPECT_FALSE(add_hangul_point(glyphs, cp));
    }
    EXPECT_EQ(glyphs.size(), before);
}

// A UTF-8 text adds the same code points, one at a time (the path of a
// scenario, a scenario's names).
TEST(Glyphs, Utf8TextAddsItsHangul) {
    std::set<char32_t> glyphs;
    EXPECT_TRUE(add_hangul(glyphs, "/home/학생/뷁-시나리오.json"));
    EXPECT_EQ(glyphs, (std::set<char32_t>{U'학', U'생', U'뷁', U'시', U'나', U'리', U'오'}));
    EXPECT_FALSE(add_hangul(glyphs, "/home/학생"));
}

}  // namespace
}  // namespace leasescope::gui
