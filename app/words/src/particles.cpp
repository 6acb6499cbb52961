// Korean particles chosen by the word before them (particles.hpp).
#include "leasescope/words/particles.hpp"

#include <array>
#include <cctype>
#include <cstdint>

namespace leasescope::words {
namespace {

struct Pair {
    std::string_view marker, after_consonant, after_vowel;
};
// 으로/로 is the one pair where ㄹ counts as a vowel (서울로, 1로).
constexpr std::array<Pair, 6> pairs{{{"(이)가", "이", "가"},
                                     {"(이)며", "이며", "며"},
                                     {"(은)는", "은", "는"},
                                     {"(을)를", "을", "를"},
                                     {"(과)와", "과", "와"},
                                     {"(으)로", "으로", "로"}}};

// The code point that ends text[0, end), and where it starts.
std::uint32_t last_code_point(std::string_view text, std::size_t& start) {
    std::size_t k = text.size();
    while (k > 0 && (static_cast<unsigned char>(text[k - 1]) & 0xC0) == 0x80) --k;
    if (k == 0) {
        start = 0;
        return 0;
    }
    start = k - 1;
    const auto* p = reinterpret_cast<const unsigned char*>(text.data() + start);
    const std::size_t n = text.size() - start;
    if (p[0] < 0x80) return p[0];
    if ((p[0] & 0xE0) == 0xC0 && n >= 2) return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
    if ((p[0] & 0xF0) == 0xE0 && n >= 3) return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    if (n >= 4) return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
    return 0;
}

bool skipped(std::uint32_t cp) {
    // Closing quotes and brackets, and the ellipsis of a shortened token.
    return cp == '"' || cp == '\'' || cp == ')' || cp == ']' || cp == 0x201D || cp == 0x2019 || cp == 0x2026 ||
           cp == 0x300D || cp == 0x300F;
}

// A number by its last spoken unit: 일 이 삼 사 오 육 칠 팔 구, 십 백 천 만, 영.
Coda number_coda(std::string_view digits) {
    std::size_t zeros = 0;
    while (zeros < digits.size() && digits[digits.size() - 1 - zeros] == '0') ++zeros;
    if (zeros == digits.size()) return Coda::other;  // 영
    if (zeros == 0) {
        static constexpr std::array<Coda, 10> by_digit{Coda::other, Coda::rieul, Coda::none,  Coda::other, Coda::none,
                                                       Coda::none,  Coda::other, Coda::rieul, Coda::rieul, Coda::none};
        return by_digit[static_cast<std::size_t>(digits.back() - '0')];
    }
    // 십 백 천, then 만 (10^4) and 억 (10^8) and their multiples of 십 백 천; 조 (10^12) ends in a vowel.
    if (zeros >= 12 && zeros % 4 == 0) return Coda::none;
    return Coda::other;
}

// A Latin word: one letter by its name, a longer word by its last letters.
Coda latin_coda(std::string_view word) {
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    const char last = lower(word.back());
    if (word.size() == 1) {
        if (last == 'l' || last == 'r') return Coda::rieul;  // 엘, 알
        return last == 'm' || last == 'n' ? Coda::other : Coda::none;
    }
    if (last == 'l') return Coda::rieul;
    if (last == 'm' || last == 'n') return Coda::other;
    if (last == 'g' && lower(word[word.size() - 2]) == 'n') return Coda::other;
    return Coda::none;
}

}  // namespace

Coda coda_of(std::string_view word) {
    std::size_t start = 0;
    std::uint32_t cp = last_code_point(word, start);
    while (cp != 0 && skipped(cp)) {
        word = word.substr(0, start);
        cp = last_code_point(word, start);
    }
    if (cp >= 0xAC00 && cp <= 0xD7A3) {
        const std::uint32_t final_consonant = (cp - 0xAC00) % 28;
        if (final_consonant == 0) return Coda::none;
        return final_consonant == 8 ? Coda::rieul : Coda::other;
    }
    if (cp < 0x80 && std::isdigit(static_cast<int>(cp))) {
        std::size_t k = word.size();
        while (k > 0 && std::isdigit(static_cast<unsigned char>(word[k - 1]))) --k;
        return number_coda(word.substr(k));
    }
    if (cp < 0x80 && std::isalpha(static_cast<int>(cp))) {
        std::size_t k = word.size();
        while (k > 0 && std::isalpha(static_cast<unsigned char>(word[k - 1]))) --k;
        return latin_coda(word.substr(k));
    }
    return Coda::none;
}

std::string particle_after(std::string_view word, std::string_view pair) {
    for (const Pair& p : pairs) {
        if (p.marker != pair) continue;
        const Coda c = coda_of(word);
        const bool consonant = c == Coda::other || (c == Coda::rieul && p.marker != "(으)로");
        return std::string(consonant ? p.after_consonant : p.after_vowel);
    }
    return std::string(pair);
}

std::string resolve_particles(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t k = 0;
    while (k < text.size()) {
        bool matched = false;
        if (text[k] == '(') {
            for (const Pair& p : pairs) {
                if (text.substr(k, p.marker.size()) != p.marker) continue;
                out += particle_after(out, p.marker);
                k += p.marker.size();
                matched = true;
                break;
            }
        }
        if (!matched) out += text[k++];
    }
    return out;
}

}  // namespace leasescope::words
