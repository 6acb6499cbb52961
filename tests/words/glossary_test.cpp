// The Korean glossary (assets/i18n/glossary.ko.json) fixes one word per idea.
// These tests hold the Korean string table and the tour's Korean text to it:
// no other word for an idea, the listed keys use the word, and no English
// left in a Korean sentence (placeholders, node names, tokens and the
// glossary's code terms aside). English and Korean tables have the same keys.
#include <gtest/gtest.h>

#include "support/test_files.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/words/strings.hpp"
#include "leasescope/words/tour.hpp"

using namespace leasescope::words;

namespace {

using leasescope::test::read_all;
using leasescope::test::source_dir;

nlohmann::json glossary() { return nlohmann::json::parse(read_all(source_dir + "/assets/i18n/glossary.ko.json")); }

// Every Korean text that people read, by name: the table's values, the tour's
// Korean titles and bodies, and the presets' Korean titles and summaries.
std::vector<std::pair<std::string, std::string>> korean_texts() {
    std::vector<std::pair<std::string, std::string>> out;
    const auto ko = nlohmann::json::parse(read_all(source_dir + "/assets/i18n/ko.json"));
    for (auto it = ko.begin(); it != ko.end(); ++it) out.emplace_back(it.key(), it.value().get<std::string>());
    std::vector<TourStep> steps;
    std::string error;
    EXPECT_TRUE(load_tour(read_all(source_dir + "/assets/tour.json"), steps, error)) << error;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        out.emplace_back("tour step " + std::to_string(i + 1) + " title", steps[i].title_ko);
        out.emplace_back("tour step " + std::to_string(i + 1) + " body", steps[i].body_ko);
    }
    // The presets' Korean titles and summaries: the lesson each one teaches.
    for (const auto& entry : std::filesystem::directory_iterator(source_dir + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        const auto j = nlohmann::json::parse(read_all(entry.path().string()), nullptr, true, true);
        const std::string name = entry.path().stem().string();
        for (const char* part : {"title", "summary"})
            if (j.contains(part) && j[part].contains("ko"))
                out.emplace_back(name + " " + part, j[part]["ko"].get<std::string>());
    }
    return out;
}

// The text without its {placeholders}: a field's name is not a word of the sentence.
std::string without_fields(const std::string& text) {
    return std::regex_replace(text, std::regex("\\{[a-z_]+\\}"), "");
}

// What is left of a Korean text once placeholders, node names, tokens and code terms are gone.
std::string without_code(const std::string& text, const nlohmann::json& g) {
    std::string t = without_fields(text);
    std::vector<std::string> terms = g.at("code_terms").get<std::vector<std::string>>();
    std::sort(terms.begin(), terms.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& term : terms) {
        for (std::size_t at = t.find(term); at != std::string::npos; at = t.find(term)) t.erase(at, term.size());
    }
    // Candidates' names (node-a, client-1) and a Redlock lesson's stores,
    // named A to E as in Kleppmann's article (model.md §20), are names.
    t = std::regex_replace(t, std::regex("(node|client)-[a-z0-9]+"), "");
    return std::regex_replace(t, std::regex("(^|[^A-Za-z])[A-E](?=$|[^A-Za-z])"), "$1");
}

}  // namespace

TEST(Glossary, OneKoreanWordPerIdea) {
    const nlohmann::json g = glossary();
    const auto texts = korean_texts();
    // A code term (stale_after_successor) is a name, not a word of the sentence.
    std::vector<std::string> words_of(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) words_of[i] = without_code(texts[i].second, g);
    const auto ko = nlohmann::json::parse(read_all(source_dir + "/assets/i18n/ko.json"));
    ASSERT_GE(g.at("ideas").size(), 10u);
    for (const auto& idea : g.at("ideas")) {
        const std::string word = idea.at("ko");
        for (const std::string bad : idea.at("not")) {
            for (std::size_t i = 0; i < texts.size(); ++i) {
                const auto& [where, text] = texts[i];
                EXPECT_EQ(words_of[i].find(bad), std::string::npos)
                    << where << ": \"" << bad << "\" for " << idea.at("idea") << " (the glossary's word is " << word
                    << "): " << text;
            }
        }
        for (const std::string key : idea.at("keys")) {
            ASSERT_TRUE(ko.contains(key)) << key;
            EXPECT_NE(ko[key].get<std::string>().find(word), std::string::npos)
                << key << " should say " << word << ": " << ko[key];
        }
    }
}

TEST(Glossary, NoEnglishLeftInAKoreanSentence) {
    const nlohmann::json g = glossary();
    static const std::regex latin("[A-Za-z]+");
    for (const auto& [where, text] : korean_texts()) {
        const std::string rest = without_code(text, g);
        std::smatch m;
        EXPECT_FALSE(std::regex_search(rest, m, latin)) << where << ": English \"" << m.str() << "\" in " << text;
    }
}

TEST(Strings, EnglishAndKoreanHaveTheSameKeys) {
    Strings s;
    std::string error;
    ASSERT_TRUE(s.load(Lang::en, read_all(source_dir + "/assets/i18n/en.json"), error)) << error;
    ASSERT_TRUE(s.load(Lang::ko, read_all(source_dir + "/assets/i18n/ko.json"), error)) << error;
    EXPECT_EQ(s.keys(Lang::en), s.keys(Lang::ko));
    EXPECT_GT(s.keys(Lang::en).size(), 100u);
}
