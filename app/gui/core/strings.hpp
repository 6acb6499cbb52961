#pragma once
// The string tables as the app uses them: the pure tables of the words
// library (leasescope/words/strings.hpp), plus reading them from the assets
// folder, which only a shell may do.
#include <string>

#include "leasescope/words/strings.hpp"

namespace leasescope::gui {

using words::Fields;
using words::Lang;
using words::lang_code;
using words::lang_from_code;
using words::Strings;

// Reads a whole file; false when it cannot.
bool read_text_file(const std::string& path, std::string& out);

// Reads <assets_dir>/i18n/en.json and ko.json into `strings`.
bool load_strings_dir(Strings& strings, const std::string& assets_dir, std::string& error);

}  // namespace leasescope::gui
