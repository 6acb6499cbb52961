// Reading and writing back a scenario's `exercises` (docs/model.md §18.1–
// §18.5): every form check that needs no simulation, each at its JSON path.
// What needs a run (the asked fact, reachability) is check_exercises'
// (sim/src/exercise/).
#include <limits>
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim {

const char* to_string(ExerciseKind k) {
    switch (k) {
        case ExerciseKind::predict: return "predict";
        case ExerciseKind::goal: return "goal";
        case ExerciseKind::find_fault: return "find_fault";
    }
    return "?";
}
const char* to_string(Question q) {
    switch (q) {
        case Question::acquirer: return "acquirer";
        case Question::write: return "write";
        case Question::fencing: return "fencing";
        case Question::release: return "release";
    }
    return "?";
}
const char* to_string(ConditionKind k) {
    switch (k) {
        case ConditionKind::holds: return "holds";
        case ConditionKind::fails: return "fails";
        case ConditionKind::acquires: return "acquires";
        case ConditionKind::never_acquires: return "never_acquires";
        case ConditionKind::write_rejected: return "write_rejected";
    }
    return "?";
}
const char* to_string(GoalProperty p) {
    switch (p) {
        case GoalProperty::overlap: return "overlap";
        case GoalProperty::unsafe_write: return "unsafe_write";
        case GoalProperty::fencing_regressed: return "fencing_regressed";
        case GoalProperty::stale_after_successor: return "stale_after_successor";
        case GoalProperty::holder_rejected: return "holder_rejected";
        case GoalProperty::fencing_duplicate: return "fencing_duplicate";
        case GoalProperty::liveness: return "liveness";
        case GoalProperty::stale_write: return "stale_write";
    }
    return "?";
}

namespace scenario_detail {
namespace {

// A range's ends and a fencing choice: integers a JSON number holds exactly.
constexpr std::int64_t exercise_int_max = std::int64_t{1} << 53;

// A prompt or hint: both languages, neither empty (model.md §18.1 item 1).
ExerciseText get_exercise_text(const json& v, const std::string& path, Failures& errors) {
    const Localized text = get_localized(v, path, errors);
    if (text.en.empty()) fail(path + "/en", "expected a non-empty English text (every exercise is asked in both)");
    if (text.ko.empty()) fail(path + "/ko", "expected a non-empty Korean text (every exercise is asked in both)");
    return ExerciseText{text.en, text.ko};
}

// The candidate's name, checked to be one (a node that is not a candidate is an error).
std::string get_candidate(const json& v, const std::string& path, const Scenario& s) {
    get_node(v, path, s);
    return v.get<std::string>();
}

std::int64_t items_in(const json& v, const std::string& path, const ScenarioKey& key, const char* what) {
    if (!v.is_array()) fail(path, fmt::format("expected an array of {}, found {}", what, describe(v)));
    const auto n = static_cast<std::int64_t>(v.size());
    if (n < key.lo || n > key.hi)
        fail(path, fmt::format("expected {} to {} {}{}, found {}", key.lo, key.hi, what,
                               key.hi_name != nullptr ? fmt::format(" ({})", key.hi_name) : "", n));
    return n;
}

// An acquirer's choices: candidate names and "nobody"; a fencing question's:
// integers, kept as decimal text (model.md §18.2).
std::vector<std::string> read_choices(const json& v, const std::string& path, Question ask, const Scenario& s) {
    items_in(v, path, scenario_key(Section::exercise, "choices"), "choices");
    std::vector<std::string> out;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const std::string item = fmt::format("{}/{}", path, k);
        if (ask == Question::fencing) {
            out.push_back(std::to_string(get_int(v[k], item, 0, exercise_int_max)));
        } else if (v[k].is_string() && v[k].get<std::string>() == "nobody") {
            out.emplace_back("nobody");
        } else {
            if (!v[k].is_string())
                fail(item, fmt::format("expected a candidate's name or \"nobody\", found {}", describe(v[k])));
            out.push_back(get_candidate(v[k], item, s));
        }
    }
    return out;
}

void read_predict(const json& v, const std::string& path, const Scenario& s, Exercise& e) {
    // At horizon 0 there is no tick from 0 to horizon - 1 (the range would be empty).
    if (s.horizon < 1)
        fail(path + "/at",
             fmt::format("a prediction needs a tick from 0 to horizon - 1; the horizon is {}", s.horizon));
    e.at = get_int(v["at"], path + "/at", 0, s.horizon - 1);
    e.ask = get_choice<Question>(v["ask"], path + "/ask", scenario_key(Section::exercise, "ask"));
    const bool about_node = e.ask == Question::write || e.ask == Question::release;
    if (about_node && !v.contains("node"))
        fail(path, fmt::format("missing \"node\" (required for ask {}: whose {})", to_string(e.ask), to_string(e.ask)));
    if (!about_node && v.contains("node"))
        fail(path + "/node", fmt::format("\"node\" belongs to ask write or release, not {}", to_string(e.ask)));
    if (about_node) e.node = get_candidate(v["node"], path + "/node", s);
    if (about_node && v.contains("choices"))
        fail(path + "/choices",
             fmt::format("ask {} has its own choices ({}); \"choices\" belongs to acquirer and fencing",
                         to_string(e.ask), e.ask == Question::write ? "accepted, rejected" : "released, not_released"));
    if (v.contains("choices")) e.choices = read_choices(v["choices"], path + "/choices", e.ask, s);
}

// The integer ends of a range and its step; its values, lo, lo + step, … ≤ hi.
void read_range(const json& v, const std::string& path, Knob& knob) {
    const json& range = v["range"];
    items_in(range, path + "/range", scenario_key(Section::knob, "range"), "integers [lo, hi]");
    knob.ranged = true;
    knob.lo = get_int(range[0], path + "/range/0", -exercise_int_max, exercise_int_max);
    knob.hi = get_int(range[1], path + "/range/1", -exercise_int_max, exercise_int_max);
    if (knob.lo > knob.hi) fail(path + "/range", fmt::format("expected lo <= hi, found [{}, {}]", knob.lo, knob.hi));
    if (v.contains("step")) knob.step = get_key_int(v["step"], path + "/step", scenario_key(Section::knob, "step"));
    const std::int64_t count = (knob.hi - knob.lo) / knob.step + 1;
    if (count > limits::exercise_tries_max)
        fail(path + "/range",
             fmt::format("a range of {} values; at most {} (exercise_tries_max)", count, limits::exercise_tries_max));
    for (std::int64_t x = knob.lo; x <= knob.hi; x += knob.step) knob.values.push_back(std::to_string(x));
}

Knob read_knob(const json& v, const std::string& path, Failures& errors) {
    need_object(v, path);
    if (!check_keys(v, path, key_names_of(Section::knob), errors)) throw Failure{path, "", true};
    if (!v.contains("set")) fail(path, "missing \"set\" (required: the --set path the knob changes)");
    Knob knob;
    knob.set = get_text(v["set"], path + "/set", scenario_key(Section::knob, "set").hi);
    if (knob.set.empty()) fail(path + "/set", "expected a --set path like defaults.lease, found an empty string");
    if (v.contains("range") == v.contains("values"))
        fail(path, v.contains("range") ? "expected either \"range\" or \"values\", found both"
                                       : "missing \"range\" or \"values\" (the values the knob may take)");
    if (v.contains("values") && v.contains("step")) fail(path + "/step", "\"step\" belongs to a range, not to values");
    if (v.contains("range")) {
        read_range(v, path, knob);
        return knob;
    }
    const json& values = v["values"];
    items_in(values, path + "/values", scenario_key(Section::knob, "values"), "values");
    for (std::size_t k = 0; k < values.size(); ++k) {
        std::string text = values[k].dump();
        for (std::size_t j = 0; j < k; ++j) {
            if (knob.values[j] == text)
                fail(fmt::format("{}/values/{}", path, k), fmt::format("{} repeats /values/{}", text, j));
        }
        knob.values.push_back(std::move(text));
    }
    return knob;
}

void read_knobs(const json& v, const std::string& path, Exercise& e, Failures& errors) {
    items_in(v, path, scenario_key(Section::exercise, "knobs"), "knobs");
    std::int64_t combinations = 1;
    for (std::size_t k = 0; k < v.size(); ++k) {
        e.knobs.push_back(read_knob(v[k], fmt::format("{}/{}", path, k), errors));
        combinations *= static_cast<std::int64_t>(e.knobs.back().values.size());
        if (combinations > limits::exercise_tries_max)
            fail(path, fmt::format("the knobs give more than {} combinations (exercise_tries_max); fewer values",
                                   limits::exercise_tries_max));
    }
}

}  // namespace

// A goal (model.md §18.5): an object with exactly one key.
Condition read_condition(const json& v, const std::string& path, const Scenario& s, Failures& errors) {
    const std::vector<std::string> kinds = key_names_of(Section::goal);
    const std::string expected = fmt::format("expected one of {}", fmt::join(kinds, ", "));
    if (!v.is_object())
        fail(path, fmt::format("{} (an object with one of these keys), found {}", expected, describe(v)));
    if (!check_keys(v, path, kinds, errors)) throw Failure{path, "", true};
    if (v.size() != 1) fail(path, fmt::format("{} (exactly one key), found {} keys", expected, v.size()));
    const std::string key = v.begin().key();
    const json& value = v.begin().value();
    const std::string at = path + "/" + path_part(key);
    Condition c;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (kinds[k] == key) c.kind = static_cast<ConditionKind>(k);
        LS_ASSERT(kinds[k] == to_string(static_cast<ConditionKind>(k)));
    }
    if (c.kind == ConditionKind::holds || c.kind == ConditionKind::fails)
        c.property = get_choice<GoalProperty>(value, at, scenario_key(Section::goal, key));
    else
        c.node = get_candidate(value, at, s);
    return c;
}

// The kinds a find_fault may add (model.md §18.4): explore --fault-kinds
// syntax, each item one the scenario allows.
void check_fault_kinds(const std::string& text, const std::string& path, const Scenario& s) {
    auto items = fault_kind_items(text);
    if (!items.ok()) fail(path, items.error());
    const bool replicas = s.lock.replication.replicas > 0;
    for (const FaultKindItem& item : items.value()) {
        const FaultMenu& m = item.menu;
        // A find_fault takes no delay on Redlock, unlike the explorer (§18.4 item 1).
        if (s.is_redlock() && !m.restarts() && (m.failover_leases || m.failover_all || m.delays()))
            fail(path, fmt::format("{} cannot be added to a Redlock scenario (docs/explorer.md, On Redlock)",
                                   quote(item.text)));
        if (item.all) continue;  // it stands for the kinds the scenario has
        if (s.is_redisson() && !fault_kinds_for(s, m).any())
            fail(path, fmt::format("{} cannot be added to a Redisson scenario (docs/model.md §21.1 rule 4: pause, "
                                   "crash, partition and clock_jump)",
                                   quote(item.text)));
        if (!s.is_redlock() && m.restarts())
            fail(path, fmt::format("{} is a Redlock store's fault; the scenario has no \"stores\" (model.md §20.3)",
                                   quote(item.text)));
        if (!fault_kinds_for(s, m).any())
            fail(path, fmt::format("{} needs a store {} replicas (store.replicas is {}; model.md §17.3)",
                                   quote(item.text), replicas ? "without" : "with", s.lock.replication.replicas));
    }
}

namespace {

void read_kind_keys(const json& v, const std::string& path, const Scenario& s, Exercise& e, Failures& errors) {
    switch (e.kind) {
        case ExerciseKind::predict: read_predict(v, path, s, e); return;
        case ExerciseKind::goal: read_knobs(v["knobs"], path + "/knobs", e, errors); break;
        case ExerciseKind::find_fault:
            if (v.contains("faults")) {
                e.faults = get_text(v["faults"], path + "/faults", scenario_key(Section::exercise, "faults").hi);
                check_fault_kinds(e.faults, path + "/faults", s);
            }
            e.max_ticks =
                get_key_int(v["max_ticks"], path + "/max_ticks", scenario_key(Section::exercise, "max_ticks"));
            break;
    }
    e.goal = read_condition(v["goal"], path + "/goal", s, errors);
}

// One exercise, or nothing when its object has unknown keys (each is in `errors`).
std::optional<Exercise> read_exercise(const json& v, std::size_t index, const Scenario& s, Failures& errors) {
    const std::string path = fmt::format("/exercises/{}", index);
    need_object(v, path);
    const ScenarioKey& kind = scenario_key(Section::exercise, "kind");
    if (!v.contains(kind.name)) fail(path, fmt::format("missing \"kind\" ({})", choice_list(kind)));
    Exercise e;
    e.kind = get_choice<ExerciseKind>(v["kind"], path + "/kind", kind);
    if (!check_keys(v, path, key_names_of(Section::exercise, to_string(e.kind)), errors)) return std::nullopt;
    for (const ScenarioKey* key : keys_of(Section::exercise, to_string(e.kind))) {
        if (key->need == Need::required && !v.contains(key->name))
            fail(path, fmt::format("missing \"{}\" (required for a {} exercise)", key->name, to_string(e.kind)));
    }
    e.prompt = get_exercise_text(v["prompt"], path + "/prompt", errors);
    if (v.contains("hint")) e.hint = get_exercise_text(v["hint"], path + "/hint", errors);
    read_kind_keys(v, path, s, e, errors);
    return e;
}

}  // namespace

void read_exercise_list(const json& root, Scenario& s, Failures& errors) {
    if (!root.contains("exercises")) return;
    const json& list = root["exercises"];
    const bool list_ok = attempt(errors, [&] {
        if (!list.is_array())
            fail("/exercises", fmt::format("expected an array of exercises, found {}", describe(list)));
        if (static_cast<std::int64_t>(list.size()) > limits::exercises_max)
            fail("/exercises", fmt::format("expected at most {} exercises (exercises_max), found {}",
                                           limits::exercises_max, list.size()));
    });
    for (std::size_t i = 0; list_ok && i < list.size(); ++i)
        attempt(errors, [&] {
            if (std::optional<Exercise> e = read_exercise(list[i], i, s, errors)) s.exercises.push_back(std::move(*e));
        });
}

namespace {

ordered_json text_to_json(const ExerciseText& t) { return ordered_json{{"en", t.en}, {"ko", t.ko}}; }

ordered_json knob_to_json(const Knob& k) {
    ordered_json j;
    j["set"] = k.set;
    if (k.ranged) {
        j["range"] = ordered_json::array({k.lo, k.hi});
        if (k.step != 1) j["step"] = k.step;
        return j;
    }
    j["values"] = ordered_json::array();
    for (const std::string& text : k.values) j["values"].push_back(ordered_json::parse(text));
    return j;
}

ordered_json condition_to_json(const Condition& c) {
    ordered_json j;
    if (c.kind == ConditionKind::holds || c.kind == ConditionKind::fails)
        j[to_string(c.kind)] = to_string(c.property);
    else
        j[to_string(c.kind)] = c.node;
    return j;
}

}  // namespace

// An exercise as its file wrote it (model.md §18.1 item 3): a range stays a range.
ordered_json exercise_to_json(const Exercise& e) {
    ordered_json j;
    j["kind"] = to_string(e.kind);
    j["prompt"] = text_to_json(e.prompt);
    if (!e.hint.en.empty() || !e.hint.ko.empty()) j["hint"] = text_to_json(e.hint);
    if (e.kind == ExerciseKind::predict) {
        j["at"] = e.at;
        j["ask"] = to_string(e.ask);
        if (!e.node.empty()) j["node"] = e.node;
        if (!e.choices.empty()) {
            j["choices"] = ordered_json::array();
            for (const std::string& c : e.choices) {
                if (e.ask == Question::fencing)
                    j["choices"].push_back(std::stoll(c));
                else
                    j["choices"].push_back(c);
            }
        }
        return j;
    }
    if (e.kind == ExerciseKind::goal) {
        j["knobs"] = ordered_json::array();
        for (const Knob& k : e.knobs) j["knobs"].push_back(knob_to_json(k));
    } else {
        j["faults"] = e.faults;
        j["max_ticks"] = e.max_ticks;
    }
    j["goal"] = condition_to_json(e.goal);
    return j;
}

}  // namespace scenario_detail
}  // namespace leasescope::sim
