// Loading the string tables and filling their named fields (strings.hpp).
#include "leasescope/words/strings.hpp"

#include <fmt/args.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "leasescope/words/particles.hpp"

namespace leasescope::words {

const char* lang_code(Lang lang) { return lang == Lang::ko ? "ko" : "en"; }
Lang lang_from_code(std::string_view code) { return code == "ko" ? Lang::ko : Lang::en; }

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

const std::map<std::string, std::string, std::less<>>& Strings::table(Lang lang) const {
    return lang == Lang::ko ? ko_ : en_;
}

const char* Strings::c(std::string_view key) const {
    const auto& t = table(lang_);
    if (auto it = t.find(key); it != t.end()) return it->second.c_str();
    if (auto it = en_.find(key); it != en_.end()) return it->second.c_str();
    return "?";
}

std::string format_fields(std::string_view text, const Fields& fields) {
    if (fields.empty() && text.find('{') == std::string_view::npos) return std::string(text);
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    for (const auto& [name, value] : fields) store.push_back(fmt::arg(name.c_str(), value));
    try {
        // The Korean particle pairs after fields, "{node}(이)가", by the value filled in (particles.hpp).
        return resolve_particles(fmt::vformat(text, store));
    } catch (const fmt::format_error&) {
        return std::string(text);
    }
}

std::string Strings::tr(std::string_view key, const Fields& fields) const {
    const auto& t = table(lang_);
    const std::string* text = nullptr;
    if (auto it = t.find(key); it != t.end())
        text = &it->second;
    else if (auto it2 = en_.find(key); it2 != en_.end())
        text = &it2->second;
    if (!text) return std::string(key);
    return format_fields(*text, fields);
}

bool Strings::has(Lang lang, std::string_view key) const { return table(lang).count(key) > 0; }

std::vector<std::string> Strings::keys(Lang lang) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : table(lang)) out.push_back(k);
    return out;
}

}  // namespace leasescope::words
