#pragma once
// Cutting UTF-8 text to a byte limit without splitting a character: the
// explorer's counterexample names (explore_counterexample.cpp) and the words
// written into them (app/words counterexample_words.cpp) use this one rule.
// Showing bytes that may not be UTF-8 as text: the importer's names (model.md
// rule 19.5.1) and the CLI's messages about a capture use this one rule.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace leasescope::sim {

// `text` cut to at most `max_bytes` bytes, ending before the character that
// would be split; unchanged when it already fits.
inline std::string clip_utf8(std::string text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return text;
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
    return text;
}

// The length of the well-formed UTF-8 character that starts at `text[i]`
// (RFC 3629, table 3-7 of the Unicode standard: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
// It accepts exactly what nlohmann::json accepts in a string it writes.
inline std::size_t utf8_char_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[i + k]); };
    const std::uint8_t c = byte(0);
    if (c < 0x80) return 1;
    std::size_t length = 0;
    std::uint8_t low = 0x80, high = 0xBF;  // the second byte's range
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) low = 0xA0;
        if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (i + length > text.size() || byte(1) < low || byte(1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if ((byte(k) & 0xC0) != 0x80) return 0;
    }
    return length;
}

// `bytes` as UTF-8 text: every well-formed character is kept, every other
// byte is written `\xHH` (two lower-case hex digits), as redis-cli writes a
// byte it does not print. Valid UTF-8 comes back unchanged.
inline std::string escape_invalid_utf8(std::string_view bytes) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size());
    std::size_t i = 0;
    while (i < bytes.size()) {
        const std::size_t length = utf8_char_length(bytes, i);
        if (length > 0) {
            out.append(bytes.substr(i, length));
            i += length;
            continue;
        }
        const auto c = static_cast<std::uint8_t>(bytes[i++]);
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xF];
    }
    return out;
}

}  // namespace leasescope::sim
