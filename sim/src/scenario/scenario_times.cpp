// Times with units (model.md §11.7): every time key of the key table may be
// written as a duration ("30s", "1500ms", "2m"); before the scenario is read,
// each such string becomes its whole number of ticks at the file's tick_ms,
// or an error at its path that names the nearest whole numbers of ticks.
#include <array>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

constexpr const char* duration_forms = "ticks (an integer) or a duration such as \"30s\", \"1500ms\" or \"2m\"";
constexpr std::size_t digits_max = 15;

struct Unit {
    std::string_view name;
    std::int64_t us;
};
constexpr std::array<Unit, 4> units{{{"ms", 1'000}, {"s", 1'000'000}, {"m", 60'000'000}, {"h", 3'600'000'000}}};

// A duration in microseconds, or an error message. `text` is the whole string.
struct Parsed {
    __int128 us = 0;
    std::string error;
};

Parsed parse_duration(std::string_view text) {
    std::size_t pos = 0;
    __int128 whole = 0, fraction = 0, scale = 1;
    std::size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        whole = whole * 10 + (text[pos++] - '0');
        ++digits;
    }
    const std::size_t whole_digits = digits;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            fraction = fraction * 10 + (text[pos++] - '0');
            scale *= 10;
            ++digits;
        }
        if (digits == whole_digits) return {0, "a digit must follow the point"};
    }
    if (digits == 0) return {0, fmt::format("expected {}", duration_forms)};
    if (digits > digits_max) return {0, fmt::format("a duration has at most {} digits", digits_max)};
    const std::string_view unit = text.substr(pos);
    if (unit.empty())
        return {0, fmt::format("it has no unit: write ticks as a number ({}), a duration with ms, s, m or h",
                               text.substr(0, pos))};
    for (const Unit& u : units) {
        if (unit != u.name) continue;
        if (fraction * u.us % scale != 0) return {0, "a duration is at most as fine as a microsecond"};
        return {whole * u.us + fraction * u.us / scale, ""};
    }
    return {0, fmt::format("expected {}; the unit is ms, s, m or h", duration_forms)};
}

// "1.05s", "250ms", "2m": microseconds as the shortest exact text of the
// largest unit that writes them without more than three decimals.
std::string duration_text(__int128 us) {
    for (auto it = units.rbegin(); it != units.rend(); ++it) {
        const __int128 thousandths = us * 1000 / it->us;
        if (thousandths * it->us != us * 1000 || thousandths < 1000) continue;
        std::string text = fmt::format("{}", static_cast<std::int64_t>(thousandths / 1000));
        std::int64_t rest = static_cast<std::int64_t>(thousandths % 1000);
        if (rest != 0) {
            std::string decimals = fmt::format("{:03}", rest);
            while (decimals.back() == '0') decimals.pop_back();
            text += "." + decimals;
        }
        return text + std::string(it->name);
    }
    if (us == 0) return "0s";
    return fmt::format("{}µs", static_cast<std::int64_t>(us));
}

// One time value: an integer or a duration string, into ticks within the
// key's range. With tick_ms 0 (a bad tick_ms) a value that is not an integer
// is left as it is and its path noted, so that only tick_ms is reported.
void convert_one(json& v, const std::string& path, const ScenarioKey& key, std::int64_t tick_ms, Failures& errors) {
    if (v.is_number_integer()) return;  // the reader checks its range
    if (tick_ms == 0) {                 // tick_ms is bad: only it is reported, nothing converted
        errors.push_back(Failure{path, "", true});
        return;
    }
    if (!v.is_string()) {
        errors.push_back(Failure{
            path, fmt::format("expected ticks (an integer from {} to {}) or a duration such as "
                              "\"30s\", \"1500ms\" or \"2m\", found {}{}",
                              key.lo, key.hi, describe(v), v.is_number_float() ? ": ticks are whole numbers" : "")});
        return;
    }
    const std::string text = v.get<std::string>();
    const Parsed d = parse_duration(text);
    if (!d.error.empty()) {
        errors.push_back(Failure{path, fmt::format("{} is not a duration: {}", quote(text), d.error)});
        return;
    }
    const __int128 tick_us = static_cast<__int128>(tick_ms) * 1000;
    const __int128 ticks = d.us / tick_us;
    if (d.us % tick_us != 0) {
        errors.push_back(Failure{
            path,
            fmt::format("{} is not a whole number of {} ms ticks: the nearest are {} ticks ({}) and {} ticks ({})",
                        quote(text), tick_ms, static_cast<std::int64_t>(ticks), duration_text(ticks * tick_us),
                        static_cast<std::int64_t>(ticks + 1), duration_text((ticks + 1) * tick_us))});
        return;
    }
    if (ticks < key.lo || ticks > key.hi) {
        errors.push_back(
            Failure{path, fmt::format("{} is {} ticks of {} ms; expected {} to {} ticks{}", quote(text),
                                      fmt::format("{}", static_cast<double>(ticks)), tick_ms, key.lo, key.hi,
                                      key.hi_name != nullptr ? fmt::format(" ({})", key.hi_name) : "")});
        return;
    }
    v = static_cast<std::int64_t>(ticks);
}

Section section_of_item(const char* item) {
    const std::string_view name = item == nullptr ? "" : item;
    if (name == "candidate") return Section::candidate;
    if (name == "fault") return Section::fault;
    if (name == "op") return Section::op;
    if (name == "exercise") return Section::exercise;
    if (name == "knob") return Section::knob;
    return Section::text;  // not an object of keys that hold times
}

void convert_object(json& object, const std::string& path, Section section, std::int64_t tick_ms, Failures& errors);

void convert_value(json& v, const std::string& path, const ScenarioKey& key, std::int64_t tick_ms, Failures& errors) {
    if (key.type == ValueType::object) {
        convert_object(v, path, key.opens, tick_ms, errors);
    } else if (key.type == ValueType::array && v.is_array()) {
        const Section items = section_of_item(key.item);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string item_path = fmt::format("{}/{}", path, i);
            if (key.time) {
                convert_one(v[i], item_path, key, tick_ms, errors);
            } else if (items != Section::text) {
                convert_object(v[i], item_path, items, tick_ms, errors);
            }
        }
    } else if (key.time) {
        convert_one(v, path, key, tick_ms, errors);
    }
}

void convert_object(json& object, const std::string& path, Section section, std::int64_t tick_ms, Failures& errors) {
    if (!object.is_object()) return;
    for (auto it = object.begin(); it != object.end(); ++it) {
        // Any variant's row: a key of another fault kind is the reader's error.
        for (const ScenarioKey* key : keys_of(section)) {
            if (it.key() != key->name) continue;
            convert_value(it.value(), path + "/" + path_part(it.key()), *key, tick_ms, errors);
            break;
        }
    }
}

}  // namespace

std::vector<std::string> convert_times(json& root, Failures& errors) {
    std::int64_t tick_ms = 50;  // model.md §11.2
    if (root.is_object() && root.contains("tick_ms")) {
        const json& t = root["tick_ms"];
        const bool good = t.is_number_integer() && t.get<std::int64_t>() >= limits::tick_ms_min &&
                          t.get<std::int64_t>() <= limits::tick_ms_max;
        tick_ms = good ? t.get<std::int64_t>() : 0;  // 0: unknown, the reader reports tick_ms
    }
    const std::size_t before = errors.size();
    convert_object(root, "", Section::top, tick_ms, errors);
    std::vector<std::string> paths;
    for (std::size_t i = before; i < errors.size(); ++i) paths.push_back(errors[i].where);
    return paths;
}

}  // namespace leasescope::sim::scenario_detail
