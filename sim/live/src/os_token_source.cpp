// Live tokens drawn from the operating system (os_token_source.hpp).
#include "leasescope/live/os_token_source.hpp"

#include <limits>

namespace leasescope::live {

Token OsTokenSource::next_token(const Token& /*simulated*/) {
    using Word = std::random_device::result_type;
    static_assert(std::numeric_limits<Word>::max() >= 58);
    // Rejection sampling keeps every character equally likely: words at or
    // above the largest multiple of 58 are drawn again.
    constexpr Word alphabet = static_cast<Word>(base58_alphabet.size());
    constexpr Word limit = std::numeric_limits<Word>::max() - std::numeric_limits<Word>::max() % alphabet;
    Token token(live_token_length, '?');
    for (char& c : token) {
        Word w = device_();
        while (w >= limit) w = device_();
        c = base58_alphabet[w % alphabet];
    }
    return token;
}

}  // namespace leasescope::live
