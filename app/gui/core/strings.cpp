#include "strings.hpp"

#include <fstream>
#include <sstream>

#include <fmt/args.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace leasescope::gui {

const char* lang_code(Lang lang) { return lang == Lang::ko ? "ko" : "en"; }
Lang lang_from_code(std::string_view code) { return code == "ko" ? Lang::ko : Lang::en; }

bool read_text_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

bool Strings::load(Lang lang, std::string_view json_text, std::string& error) {
    nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false, true);
    if (j.is_discarded() || !j.is_object()) {
        error = "the string table is not a JSON object";
        return false;
    }
    auto& dst = lang == Lang::ko ? ko_ : en_;
    dst.clear();
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!it.value().is_string()) {
            error = "the value of \"" + it.key() + "\" is not a string";
            return false;
        }
        dst[it.key()] = it.value().get<std::string>();
    }
    return true;
}

bool Strings::load_dir(const std::string& assets_dir, std::string& error) {
    for (Lang lang : {Lang::en, Lang::ko}) {
        const std::string path = assets_dir + "/i18n/" + lang_code(lang) + ".json";
        std::string text;
        if (!read_text_file(path, text)) {
            error = "cannot read " + path;
            return false;
        }
        if (!load(lang, text, error)) {
            error = path + ": " + error;
            return false;
        }
    }
    return true;
}

const std::map<std::string, std::string, std::less<>>& Strings::table(Lang lang) const {
    return lang == Lang::ko ? ko_ : en_;
}

const char* Strings::c(std::string_view key) const {
    const auto& t = table(lang_);
    if (auto it = t.find(key); it != t.end()) return it->second.c_str();
    if (auto it = en_.find(key); it != en_.end()) return it->second.c_str();
    return "?";
}

std::string Strings::tr(std::string_view key, const Fields& fields) const {
    const auto& t = table(lang_);
    const std::string* text = nullptr;
    if (auto it = t.find(key); it != t.end()) text = &it->second;
    else if (auto it2 = en_.find(key); it2 != en_.end()) text = &it2->second;
    if (!text) return std::string(key);
    if (fields.empty() && text->find('{') == std::string::npos) return *text;
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    for (const auto& [name, value] : fields) store.push_back(fmt::arg(name, value));
    try {
        return fmt::vformat(*text, store);
    } catch (const fmt::format_error&) {
        return *text;
    }
}

bool Strings::has(Lang lang, std::string_view key) const { return table(lang).count(key) > 0; }

std::vector<std::string> Strings::keys(Lang lang) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : table(lang)) out.push_back(k);
    return out;
}

}  // namespace leasescope::gui
