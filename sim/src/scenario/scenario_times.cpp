// Times with units (model.md §11.7): every time key of the key table may be
// written as a duration ("30s", "1500ms", "2m"); before the scenario is read,
// each such string becomes its whole number of ticks at the file's tick_ms,
// or an error at its path that names the nearest whole numbers of ticks.
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

// A value's JSON path, spelt out only for an error: almost every value
// converts without one, and building each path was a tenth of the time a
// 14 MB scenario took to read.
struct Where {
    const Where* up = nullptr;  // nullptr: the document's root, path ""
    std::string_view key;       // an object's key, or
    std::size_t index = 0;      // an array's item, when `item`
    bool item = false;
    std::string str() const {
        if (up == nullptr) return "";
        return up->str() + "/" + (item ? std::to_string(index) : path_part(key));
    }
};

// One time value: an integer or a duration string, into ticks within the
// key's range. With tick_ms 0 (a bad tick_ms) a value that is not an integer
// is left as it is and its path noted, so that only tick_ms is reported.
void convert_one(json& v, const Where& where, const ScenarioKey& key, std::int64_t tick_ms, Failures& errors) {
    if (v.is_number_integer()) return;  // the reader checks its range
    const std::string path = where.str();
    if (tick_ms == 0) {  // tick_ms is bad: only it is reported, nothing converted
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
    const DurationTicks d = duration_ticks(text, tick_ms);
    if (!d.error.empty()) {
        errors.push_back(Failure{path, fmt::format("{} {}", quote(text), d.error)});
        return;
    }
    if (d.ticks < key.lo || d.ticks > key.hi) {
        errors.push_back(Failure{
            path, fmt::format("{} is {} ticks of {} ms; expected {} to {} ticks{}", quote(text), d.ticks, tick_ms,
                              key.lo, key.hi, key.hi_name != nullptr ? fmt::format(" ({})", key.hi_name) : "")});
        return;
    }
    v = d.ticks;
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

void convert_object(json& object, const Where& where, Section section, std::int64_t tick_ms, Failures& errors);

void convert_value(json& v, const Where& where, const ScenarioKey& key, std::int64_t tick_ms, Failures& errors) {
    if (key.type == ValueType::object) {
        convert_object(v, where, key.opens, tick_ms, errors);
    } else if (key.type == ValueType::array && v.is_array()) {
        const Section items = section_of_item(key.item);
        if (!key.time && items == Section::text) return;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const Where item{&where, {}, i, true};
            if (key.time) {
                convert_one(v[i], item, key, tick_ms, errors);
            } else {
                convert_object(v[i], item, items, tick_ms, errors);
            }
        }
    } else if (key.time) {
        convert_one(v, where, key, tick_ms, errors);
    }
}

void convert_object(json& object, const Where& where, Section section, std::int64_t tick_ms, Failures& errors) {
    if (!object.is_object()) return;
    // Any variant's row (the first in table order): a key of another fault
    // kind is the reader's error. The document's objects hold their keys in
    // byte order, the walk's order.
    ScenarioKeyWalk keys(section);
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (const ScenarioKey* key = keys.next(it.key()))
            convert_value(it.value(), Where{&where, it.key(), 0, false}, *key, tick_ms, errors);
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
    convert_object(root, Where{}, Section::top, tick_ms, errors);
    std::vector<std::string> paths;
    for (std::size_t i = before; i < errors.size(); ++i) paths.push_back(errors[i].where);
    return paths;
}

}  // namespace leasescope::sim::scenario_detail
