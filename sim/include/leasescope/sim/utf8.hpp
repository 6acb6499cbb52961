#pragma once
// Cutting UTF-8 text to a byte limit without splitting a character: the
// explorer's counterexample names (explore_counterexample.cpp) and the words
// written into them (app/words counterexample_words.cpp) use this one rule.
#include <cstddef>
#include <string>

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

}  // namespace leasescope::sim
