#pragma once
// The string tables of assets/i18n in both languages, loaded as the CLI and
// the app load them, for the tests of words, the explorer and the GUI core.
#include <string>

#include "leasescope/words/strings.hpp"
#include "support/test_files.hpp"

namespace leasescope::test {

// Both tables, set to `lang`; a table that does not load fails the test.
inline words::Strings string_tables(words::Lang lang = words::Lang::en) {
    words::Strings strings;
    for (const words::Lang l : {words::Lang::en, words::Lang::ko}) {
        const std::string path = source_dir + "/assets/i18n/" + words::lang_code(l) + ".json";
        std::string error;
        EXPECT_TRUE(strings.load(l, read_all(path), error)) << path << ": " << error;
    }
    strings.set_lang(lang);
    return strings;
}

}  // namespace leasescope::test
