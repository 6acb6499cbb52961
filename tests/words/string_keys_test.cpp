// Every string key the code names resolves in both languages: a key missing
// from a table shows on screen as the key itself ("compare.setup.mode"). The
// test reads the sources of app/ and takes each literal key passed to tr(),
// c(), add() or say(), and both literals of a "cond ? "a.b" : "c.d"" choice
// (event_words.cpp's event_key returns fragments under "ev."/"out.", which
// the words tests check), and looks it up in en.json and ko.json (app/web's
// also in assets/i18n/web/).
#include <gtest/gtest.h>

#include "support/test_files.hpp"

#include <filesystem>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

using leasescope::test::read_all;
using leasescope::test::source_dir;

namespace {

std::set<std::string> keys_of(const std::string& path) {
    std::set<std::string> out;
    const auto j = nlohmann::json::parse(read_all(path));
    for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
    return out;
}

}  // namespace

TEST(StringKeys, EveryKeyTheCodeNamesIsInBothTables) {
    const std::string i18n = source_dir + "/assets/i18n/";
    const std::set<std::string> en = keys_of(i18n + "en.json"), ko = keys_of(i18n + "ko.json");
    const std::set<std::string> web_en = keys_of(i18n + "web/en.json"), web_ko = keys_of(i18n + "web/ko.json");
    const std::string key = R"re("([a-z][a-z0-9_]*(?:\.[a-z0-9_\-]+)+)")re";
    const std::regex call(R"re((?:\btr|\bc|\badd|\bsay)\(\s*)re" + key + R"re(\s*[,)])re");
    const std::regex choice(R"re(\?\s*)re" + key + R"re(\s*:\s*)re" + key);
    std::size_t checked = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir + "/app")) {
        const std::string path = entry.path().string();
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".hpp") continue;
        const std::string text = read_all(path);
        const bool web = path.find("/app/web/") != std::string::npos;
        auto check = [&](const std::string& k) {
            ++checked;
            const bool in_en = en.count(k) || (web && web_en.count(k));
            const bool in_ko = ko.count(k) || (web && web_ko.count(k));
            EXPECT_TRUE(in_en) << path << ": \"" << k << "\" is not in en.json";
            EXPECT_TRUE(in_ko) << path << ": \"" << k << "\" is not in ko.json";
        };
        for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator(); ++it)
            check((*it)[1].str());
        if (entry.path().filename() == "event_words.cpp") continue;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), choice); it != std::sregex_iterator(); ++it) {
            check((*it)[1].str());
            check((*it)[2].str());
        }
    }
    EXPECT_GT(checked, 300u);  // the scan still finds the code's keys
}
