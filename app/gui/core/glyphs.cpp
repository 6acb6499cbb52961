// The Hangul of a text, for the font atlas (glyphs.hpp).
#include "glyphs.hpp"

namespace leasescope::gui {

bool is_hangul(char32_t cp) { return (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x3131 && cp <= 0x318E); }

bool add_hangul_point(std::set<char32_t>& glyphs, char32_t cp) { return is_hangul(cp) && glyphs.insert(cp).second; }

bool add_hangul(std::set<char32_t>& glyphs, std::string_view utf8) {
    bool added = false;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto b0 = static_cast<unsigned char>(utf8[i]);
        // Hangul is three bytes in UTF-8 (1110xxxx 10xxxxxx 10xxxxxx); other
        // lengths are skipped whole, a malformed byte alone.
        if ((b0 & 0xF0) == 0xE0 && i + 2 < utf8.size()) {
            const auto b1 = static_cast<unsigned char>(utf8[i + 1]);
            const auto b2 = static_cast<unsigned char>(utf8[i + 2]);
            if ((b1 & 0xC0) == 0x80 && (b2 & 0xC0) == 0x80) {
                const char32_t cp = (char32_t(b0 & 0x0F) << 12) | (char32_t(b1 & 0x3F) << 6) | char32_t(b2 & 0x3F);
                added = add_hangul_point(glyphs, cp) || added;
                i += 3;
                continue;
            }
        }
        if (b0 < 0x80 || (b0 & 0xC0) == 0x80) {
            ++i;
        } else if ((b0 & 0xE0) == 0xC0) {
            i += 2;
        } else if ((b0 & 0xF0) == 0xE0) {
            i += 3;
        } else {
            i += 4;
        }
    }
    return added;
}

}  // namespace leasescope::gui
