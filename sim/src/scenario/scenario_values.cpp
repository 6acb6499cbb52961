// The typed values of a scenario: known keys, objects, integers in a range,
// booleans, texts, names, identifiers, localized texts and write offsets,
// each failing at its JSON path with what was expected.
#include <algorithm>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

void check_key(const std::string& key, const std::string& path, const std::vector<std::string>& allowed) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(path + "/" + path_part(key), fmt::format("unknown key {}{}", quote(key), suggestion(key, allowed)));
}

// A byte a name must not hold: C0 controls and DEL.
bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

}  // namespace

bool check_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed, Failures& errors) {
    bool known = true;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        known = attempt(errors, [&] { check_key(it.key(), path, allowed); }) && known;
    return known;
}

const json& need_object(const json& v, const std::string& path) {
    if (!v.is_object()) fail(path, fmt::format("expected an object, found {}", describe(v)));
    return v;
}

std::optional<std::int64_t> int_within(const json& v, std::int64_t lo, std::int64_t hi) {
    LS_ASSERT(lo <= hi);
    LS_ASSERT(hi >= 0);
    // nlohmann keeps every non-negative integer as unsigned: both bounds are
    // checked in that representation too.
    bool in_range = false;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        in_range = u <= static_cast<std::uint64_t>(hi) && (lo <= 0 || u >= static_cast<std::uint64_t>(lo));
    } else if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        in_range = i >= lo && i <= hi;
    }
    if (!in_range) return std::nullopt;
    return v.get<std::int64_t>();
}

std::int64_t get_int(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
    const auto value = int_within(v, lo, hi);
    if (!value) fail(path, fmt::format("expected an integer from {} to {}, found {}", lo, hi, describe(v)));
    return *value;
}

std::int64_t get_int_within(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi,
                            const char* limit_name) {
    try {
        return get_int(v, path, lo, hi);
    } catch (Failure& f) {
        f.message += fmt::format(" ({})", limit_name);
        throw;
    }
}

bool get_bool(const json& v, const std::string& path) {
    if (!v.is_boolean()) fail(path, fmt::format("expected true or false, found {}", describe(v)));
    return v.get<bool>();
}

std::string get_text(const json& v, const std::string& path, std::int64_t max_length) {
    if (!v.is_string()) fail(path, fmt::format("expected a string, found {}", describe(v)));
    std::string s = v.get<std::string>();
    if (static_cast<std::int64_t>(s.size()) > max_length)
        fail(path, fmt::format("expected at most {} bytes, found {}", max_length, s.size()));
    return s;
}

bool is_plain_name(const json& v) {
    if (!v.is_string()) return false;
    const auto& s = v.get_ref<const std::string&>();
    if (s.empty() || static_cast<std::int64_t>(s.size()) > limits::name_length_max) return false;
    return std::none_of(s.begin(), s.end(), is_control);
}

// A name that shows in tables and traces: non-empty, no control characters.
std::string get_name(const json& v, const std::string& path) {
    std::string s = get_text(v, path, limits::name_length_max);
    if (s.empty()) fail(path, "expected a non-empty name");
    if (std::any_of(s.begin(), s.end(), is_control)) fail(path, "a name must not contain control characters");
    return s;
}

// A name that becomes part of a file or Redis key: letters, digits, . _ - :
std::string get_identifier(const json& v, const std::string& path) {
    std::string s = get_name(v, path);
    for (const char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.' || c == ':';
        if (!ok) fail(path, fmt::format("expected letters, digits, '-', '_', '.' or ':' only, found {}", quote(s)));
    }
    return s;
}

Localized get_localized(const json& v, const std::string& path, Failures& errors) {
    need_object(v, path);
    check_keys(v, path, key_names_of(Section::text), errors);
    Localized out;
    const ScenarioKey& en = scenario_key(Section::text, "en");
    const ScenarioKey& ko = scenario_key(Section::text, "ko");
    if (v.contains(en.name)) out.en = get_text(v[en.name], path + "/en", en.hi);
    if (v.contains(ko.name)) out.ko = get_text(v[ko.name], path + "/ko", ko.hi);
    return out;
}

std::string choice_list(const ScenarioKey& key) {
    std::string list;
    for (std::size_t i = 0; i < key.choices.size(); ++i) {
        if (i > 0) list += i + 1 == key.choices.size() ? " or " : ", ";
        list += key.choices[i];
    }
    return list;
}

void read_network(const json& v, const std::string& path, Network& into) {
    need_object(v, path);
    Failures unknown;
    if (!check_keys(v, path, {"request", "reply", "write"}, unknown)) throw unknown.front();
    if (v.contains("request")) into.request = get_int(v["request"], path + "/request", 0, limits::latency_max);
    if (v.contains("reply")) into.reply = get_int(v["reply"], path + "/reply", 0, limits::latency_max);
    if (v.contains("write")) into.write = get_int(v["write"], path + "/write", 0, limits::latency_max);
}

std::optional<std::vector<Tick>> writes_within(const json& v, Tick action_max) {
    if (!v.is_array() || static_cast<std::int64_t>(v.size()) > limits::writes_max) return std::nullopt;
    std::vector<Tick> writes;
    writes.reserve(v.size());
    for (const json& item : v) {
        const auto w = int_within(item, 1, action_max);
        if (!w || (!writes.empty() && *w <= writes.back())) return std::nullopt;
        writes.push_back(*w);
    }
    return writes;
}

// `writes`: strictly increasing offsets in [1, action_max].
std::vector<Tick> get_writes(const json& v, const std::string& path, Tick action_max) {
    if (!v.is_array()) fail(path, fmt::format("expected an array of progress offsets, found {}", describe(v)));
    if (static_cast<std::int64_t>(v.size()) > limits::writes_max)
        fail(path, fmt::format("expected at most {} writes, found {}", limits::writes_max, v.size()));
    std::vector<Tick> writes;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const std::string item_path = fmt::format("{}/{}", path, k);
        const Tick w = get_int(v[k], item_path, 1, action_max);
        if (!writes.empty() && w <= writes.back())
            fail(item_path, fmt::format("writes must be strictly increasing; {} follows {}", w, writes.back()));
        writes.push_back(w);
    }
    return writes;
}

std::int32_t get_clock_drift(const json& v, const std::string& path, Failures& errors) {
    need_object(v, path);
    if (!check_keys(v, path, {"drift_ppm"}, errors)) return 0;
    if (!v.contains("drift_ppm")) return 0;
    return static_cast<std::int32_t>(get_int_within(v["drift_ppm"], path + "/drift_ppm", -limits::drift_ppm_max,
                                                    limits::drift_ppm_max, "drift_ppm_max"));
}

}  // namespace leasescope::sim::scenario_detail
