// The scenario parse's scan of plain JSON (sim::ScenarioJsonReader::fast)
// against nlohmann's parser alone (::general): on every preset, bad scenario,
// explorer scenario and fuzz input the project keeps, and on small presets
// changed byte by byte, both readers give the same scenario or the same
// errors. A scan that took a text nlohmann refuses, refused one it takes, or
// read a value differently would show here.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/scenario_test_helpers.hpp"
#include "support/test_files.hpp"

namespace {

using namespace scenario_test;

// What a parse gave, as text: the scenario written back, or every error.
std::string outcome(std::string_view text, sim::ScenarioJsonReader reader) {
    auto parsed = sim::parse_scenario_all_errors(text, "input.json", {}, reader);
    if (parsed.ok()) return "ok\n" + sim::scenario_to_json(parsed.value());
    std::string errors = "errors\n";
    for (const auto& e : parsed.error()) errors.append(e.to_string()).append("\n");
    return errors;
}

::testing::AssertionResult readers_agree(std::string_view text) {
    const std::string fast = outcome(text, sim::ScenarioJsonReader::fast);
    const std::string general = outcome(text, sim::ScenarioJsonReader::general);
    if (fast == general) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "fast reader:\n" << fast << "general reader:\n" << general;
}

std::vector<fs::path> files_under(const std::string& folder) {
    std::vector<fs::path> paths;
    const fs::path dir = fs::path(leasescope::test::source_dir) / folder;
    if (!fs::is_directory(dir)) return paths;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file()) paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    return paths;
}

TEST(ScenarioJsonReader, BothReadersAgreeOnEveryKeptInput) {
    // Presets, the explorer's and the bad scenarios, the fuzz corpora and regressions: the same result either way.
    std::vector<fs::path> paths = preset_paths();
    for (const char* folder :
         {"tests/bad_scenarios", "tests/data/explore", "tests/fuzz/corpus/scenario", "tests/fuzz/corpus/structure",
          "tests/fuzz_regressions/scenario", "tests/fuzz_regressions/structure"}) {
        const auto more = files_under(folder);
        ASSERT_FALSE(more.empty()) << folder;
        paths.insert(paths.end(), more.begin(), more.end());
    }
    int accepted = 0;
    for (const auto& path : paths) {
        SCOPED_TRACE(path.string());
        const std::string text = read_text(path);
        EXPECT_TRUE(readers_agree(text));
        if (outcome(text, sim::ScenarioJsonReader::fast).starts_with("ok\n")) ++accepted;
    }
    EXPECT_GT(accepted, 20);  // the presets at least: the check is not only of errors
}

TEST(ScenarioJsonReader, BothReadersAgreeOnEveryOneByteChangeOfASmallPreset) {
    // Each byte of the smallest presets deleted, and replaced by two bytes of
    // a list that start or end a token, an escape, a number's part or bad
    // UTF-8 (chosen by the byte's place, so every one is used all along).
    const std::vector<std::string> replacements = {"\"", "\\", "0", "-", "e",    ".",        "}", "]",
                                                   ",",  ":",  " ", "/", "\x80", "\xc3\xa9", "t"};
    int changed = 0;
    for (const char* name : {"min-lease", "group-capacity"}) {
        const std::string text =
            read_text(fs::path(leasescope::test::source_dir) / "scenarios" / (std::string(name) + ".json"));
        ASSERT_FALSE(text.empty()) << name;
        for (std::size_t at = 0; at < text.size(); ++at) {
            std::string deleted = text;
            deleted.erase(at, 1);
            ASSERT_TRUE(readers_agree(deleted)) << name << ": byte " << at << " deleted";
            for (const std::size_t pick : {at % replacements.size(), (at + 7) % replacements.size()}) {
                std::string replaced = text;
                replaced.replace(at, 1, replacements[pick]);
                ASSERT_TRUE(readers_agree(replaced))
                    << name << ": byte " << at << " replaced by " << replacements[pick];
                ++changed;
            }
        }
    }
    EXPECT_GT(changed, 8000);
}

TEST(ScenarioJsonReader, BothReadersAgreeOnValuesAtTheScansEdges) {
    // The forms the scan hands to nlohmann's parser and the nearest it reads itself.
    const std::string head = R"({"name":"edge","horizon":)";
    const std::string tail = R"(,"lock":{"name":"l","capacity":1},"candidates":[{"name":"a"}]})";
    for (const std::string value :
         {"40", "040", "-0", "4e1", "40.0", "999999999999999999", "1000000000000000000", "-999999999999999999",
          "18446744073709551616", "1e400", "true", "null", "\"40\"", "\"4\\u0030\"", "[40]", "{}"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(readers_agree(head + value + tail));
    }
    for (const std::string name : {"\"a\"", "\"a\\\"b\"", "\"\\u00e9\"", "\"é\"", "\"\xff\"", "\"a\tb\"", "\"\""}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(readers_agree(R"({"name":)" + name + R"(,"horizon":40)" + tail));
    }
    EXPECT_TRUE(readers_agree(" \n" + head + "40" + tail + " \n"));
    EXPECT_TRUE(readers_agree("\xef\xbb\xbf" + head + "40" + tail));  // a byte-order mark
    EXPECT_TRUE(readers_agree("// a comment\n" + head + "40" + tail));
    EXPECT_TRUE(readers_agree(head + "40" + tail + "x"));
    EXPECT_TRUE(readers_agree(R"({"name":"edge","name":"again","horizon":40)" + tail));  // a key twice
}

}  // namespace
