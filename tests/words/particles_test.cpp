// Korean particles follow the word before them as it is read aloud
// (particles.hpp): "이벤트 11이", not "이벤트 11가"; and no Korean table writes
// a bare particle after a field, where the value decides the particle.
#include <gtest/gtest.h>

#include "support/test_files.hpp"

#include <regex>

#include <nlohmann/json.hpp>

#include "leasescope/words/particles.hpp"
#include "leasescope/words/strings.hpp"

using namespace leasescope::words;
using leasescope::test::read_all;
using leasescope::test::source_dir;

TEST(Particles, NumbersByHowTheyAreRead) {
    // 11 십일, 1 일, 7 칠, 8 팔: ㄹ; 3 삼, 6 육, 10 십, 100 백, 1000 천, 10000 만, 0 영: another consonant.
    for (const char* n : {"1", "7", "8", "11", "21"}) EXPECT_EQ(coda_of(n), Coda::rieul) << n;
    for (const char* n : {"0", "3", "6", "10", "30", "100", "1000", "10000", "100000000"})
        EXPECT_EQ(coda_of(n), Coda::other) << n;
    for (const char* n : {"2", "4", "5", "9", "12", "15", "1000000000000"}) EXPECT_EQ(coda_of(n), Coda::none) << n;
    EXPECT_EQ(particle_after("이벤트 11", "(이)가"), "이");
    EXPECT_EQ(particle_after("이벤트 12", "(이)가"), "가");
    EXPECT_EQ(particle_after("3", "(으)로"), "으로");
    EXPECT_EQ(particle_after("7", "(으)로"), "로");  // ㄹ takes 로
    EXPECT_EQ(particle_after("2", "(으)로"), "로");
    EXPECT_EQ(particle_after("0", "(은)는"), "은");
}

TEST(Particles, HangulByItsFinalConsonant) {
    EXPECT_EQ(particle_after("서버", "(이)가"), "가");
    EXPECT_EQ(particle_after("노드", "(을)를"), "를");
    EXPECT_EQ(particle_after("작업", "(은)는"), "은");
    EXPECT_EQ(particle_after("서울", "(으)로"), "로");
    EXPECT_EQ(particle_after("부산", "(으)로"), "으로");
    EXPECT_EQ(particle_after("감사관", "(과)와"), "과");
}

TEST(Particles, LatinNamesAndClosingMarks) {
    EXPECT_EQ(particle_after("node-a", "(이)가"), "가");    // 에이
    EXPECT_EQ(particle_after("node-l", "(이)가"), "이");    // 엘
    EXPECT_EQ(particle_after("node-m", "(은)는"), "은");    // 엠
    EXPECT_EQ(particle_after("worker-1", "(은)는"), "은");  // 일
    EXPECT_EQ(particle_after("operator", "(이)가"), "가");  // 오퍼레이터
    EXPECT_EQ(particle_after("main", "(을)를"), "을");      // 메인
    EXPECT_EQ(particle_after("“check”", "(은)는"), "는");   // the quote is skipped: 체크
    EXPECT_EQ(particle_after("7FuM4…", "(으)로"), "로");    // the ellipsis is skipped: 사
    EXPECT_EQ(particle_after("x", "(없)음"), "(없)음");     // not a pair: left as it is
}

TEST(Particles, ResolvedWhereFieldsAreFilled) {
    EXPECT_EQ(resolve_particles("이벤트 11(이)가 처음"), "이벤트 11이 처음");
    EXPECT_EQ(format_fields("이벤트 {event}(이)가 처음", {{"event", "11"}}), "이벤트 11이 처음");
    EXPECT_EQ(format_fields("이벤트 {event}(이)가 처음", {{"event", "12"}}), "이벤트 12가 처음");
    EXPECT_EQ(format_fields("{node}(은)는 {fencing}(으)로", {{"node", "node-b"}, {"fencing", "3"}}), "node-b는 3으로");
}

// A Korean text that puts a bare particle right after a field guesses the
// value's last sound; it must write the pair ("{node}(이)가") instead.
TEST(Particles, NoKoreanTextGuessesTheParticleAfterAField) {
    // A Hangul syllable is three bytes, 0xEA 0xB0 0x80 (가) to 0xED 0x9E 0xA3 (힣).
    auto hangul_at = [](const std::string& t, std::size_t k) {
        return k + 2 < t.size() && static_cast<unsigned char>(t[k]) >= 0xEA && static_cast<unsigned char>(t[k]) <= 0xED;
    };
    auto check = [&](const std::string& where, const std::string& text) {
        const std::regex field(R"(\{[a-z_]+\})");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), field); it != std::sregex_iterator(); ++it) {
            const std::size_t after = static_cast<std::size_t>(it->position() + it->length());
            for (const std::string p : {"이며", "으로", "이", "가", "은", "는", "을", "를", "과", "와", "로"}) {
                if (text.compare(after, p.size(), p) != 0) continue;
                EXPECT_TRUE(hangul_at(text, after + p.size()))
                    << where << ": a bare particle after " << it->str() << " in " << text;
                break;
            }
        }
    };
    const auto ko = nlohmann::json::parse(read_all(source_dir + "/assets/i18n/ko.json"));
    for (auto it = ko.begin(); it != ko.end(); ++it) check(it.key(), it->get<std::string>());
    const auto tour = nlohmann::json::parse(read_all(source_dir + "/assets/tour.json"));
    const auto& steps = tour.at("steps");
    for (std::size_t i = 0; i < steps.size(); ++i)
        check("tour step " + std::to_string(i + 1), steps[i]["body"]["ko"].get<std::string>());
}
