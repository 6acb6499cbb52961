#pragma once
// The string tables of assets/i18n in both languages, loaded as the CLI and
// the app load them, for the tests of words, the explorer and the GUI core.
#include <string>

#include "leasescope/words/strings.hpp"
#include "support/test_files.hpp"

namespace leasescope::test {

// Both tables, set to `lang`; a table that does not load fails the test.
// They are read and parsed once per test program (a property test asks for
// them once per event, and parsing was most of its time) and copied out.
inline words::Strings string_tables(words::Lang lang = words::Lang::en) {
    struct Loaded {
        words::Strings strings;
        std::string error;  // "path: what went wrong" of the first table that did not load
    };
    static const Loaded loaded = [] {
        Loaded out;
        for (const words::Lang l : {words::Lang::en, words::Lang::ko}) {
            const std::string path = source_dir + "/assets/i18n/" + words::lang_code(l) + ".json";
            std::string error;
            if (!out.strings.load(l, read_all(path), error) && out.error.empty()) out.error = path + ": " + error;
        }
        return out;
    }();
    EXPECT_EQ(loaded.error, "");
    words::Strings strings = loaded.strings;
    strings.set_lang(lang);
    return strings;
}

}  // namespace leasescope::test
