// Reading the string tables from the assets folder (the tables themselves
// are the words library's).
#include "strings.hpp"

#include <fstream>
#include <sstream>

namespace leasescope::gui {

bool read_text_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

bool load_strings_dir(Strings& strings, const std::string& assets_dir, std::string& error) {
    for (Lang lang : {Lang::en, Lang::ko}) {
        const std::string path = assets_dir + "/i18n/" + lang_code(lang) + ".json";
        std::string text;
        if (!read_text_file(path, text)) {
            error = "cannot read " + path;
            return false;
        }
        if (!strings.load(lang, text, error)) {
            error = path + ": " + error;
            return false;
        }
    }
    return true;
}

}  // namespace leasescope::gui
