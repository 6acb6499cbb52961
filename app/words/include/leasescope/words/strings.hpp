#pragma once
// The string tables (assets/i18n/<lang>.json): flat key -> text maps with
// fmt-style named fields ("{node} acquired slot {slot}"). A key missing in
// the chosen language falls back to English, then to the key itself, so a
// gap shows as a readable key rather than an empty label. The tables arrive
// as text: reading the files is the shells' job (this library does no I/O).
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace leasescope::words {

enum class Lang { en, ko };
const char* lang_code(Lang lang);
Lang lang_from_code(std::string_view code);  // anything but "ko" is English

// Field name -> value. Names are strings so that texts may use fields named at
// run time (the tour's facts).
using Fields = std::vector<std::pair<std::string, std::string>>;

class Strings {
public:
    // Parses one table; false (and `error` set) when the JSON is not an object of strings.
    bool load(Lang lang, std::string_view json_text, std::string& error);

    Lang lang() const { return lang_; }
    void set_lang(Lang lang) { lang_ = lang; }

    // The text for `key` in the current language, formatted with `fields`.
    // A format error leaves the raw text (never throws into a frame).
    std::string tr(std::string_view key, const Fields& fields = {}) const;
    // Null-terminated, stable until the next load: for ImGui labels.
    const char* c(std::string_view key) const;
    bool has(Lang lang, std::string_view key) const;
    std::vector<std::string> keys(Lang lang) const;

private:
    const std::map<std::string, std::string, std::less<>>& table(Lang lang) const;
    std::map<std::string, std::string, std::less<>> en_, ko_;
    Lang lang_ = Lang::en;
};

}  // namespace leasescope::words

namespace leasescope::words {

// `text` with its {named} fields filled in; the raw text when it does not format.
std::string format_fields(std::string_view text, const Fields& fields);

}  // namespace leasescope::words
