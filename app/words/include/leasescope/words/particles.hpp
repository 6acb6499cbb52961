#pragma once
// Korean particles chosen by the word before them. A Korean table writes a
// particle pair after a field in the usual dictionary notation, "(이)가",
// "(은)는", "(을)를", "(과)와", "(으)로", "(이)며": "{node}(이)가", "이벤트 {event}(이)가".
// format_fields (strings.hpp) then keeps the form the word takes when it is
// read aloud: 이벤트 11이, node-b가, 2로, 3으로, 7로. Pure.
#include <string>
#include <string_view>

namespace leasescope::words {

// How a word ends when read aloud in Korean.
enum class Coda {
    none,   // ends in a vowel: 가, 는, 를, 와, 로
    rieul,  // ends in ㄹ: 이, 은, 을, 과, but 로
    other   // ends in another final consonant: 이, 은, 을, 과, 으로
};

// The ending of `word`: a Hangul syllable by its final consonant, a number by
// how it is read (1 일, 3 삼, 10 십, 100 백, 1000 천, 10000 만, 0 영), a
// single Latin letter by its name (l 엘, m 엠, n 엔, r 알; node-b 비), a
// longer Latin word by its last letters (…m, …n, …ng, …l). Closing quotes,
// brackets and an ellipsis are skipped: “check”는, 7FuM4…로.
Coda coda_of(std::string_view word);

// "(이)가" after `word` gives "이" or "가", and so on for the six pairs;
// any other text is returned as it is.
std::string particle_after(std::string_view word, std::string_view pair);

// Every particle pair in `text` resolved by the text before it.
std::string resolve_particles(std::string_view text);

}  // namespace leasescope::words
