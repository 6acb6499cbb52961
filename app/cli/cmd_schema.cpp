// `leasescope-cli schema`: the JSON Schema (draft 2020-12) of scenario files,
// built here from the parser's own key table (leasescope/sim/scenario_keys.hpp:
// every key's name, type, range, default and description) and the named
// limits in sim/include/leasescope/sim/limits.hpp, so it cannot drift from
// the parser. The build writes it to
// share/leasescope/schema/scenario.schema.json; tests/schema/ checks it
// against the presets, the bad scenarios and the parser's own boundaries.
// The descriptions follow docs/scenario-format.md.
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/sim/import.hpp"
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/candidate_keys.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario_keys.hpp"

namespace leasescope::cli {
namespace {

using schema_json = nlohmann::ordered_json;

schema_json integer(std::int64_t lo, std::int64_t hi, const char* description) {
    return schema_json{{"type", "integer"}, {"minimum", lo}, {"maximum", hi}, {"description", description}};
}
// A time key (model.md §11.7): ticks, or a duration with a unit that the
// reader converts with tick_ms.
schema_json ticks(std::int64_t lo, std::int64_t hi, const char* description) {
    return schema_json{
        {"oneOf",
         schema_json::array({integer(lo, hi, "Ticks."),
                             schema_json{{"type", "string"},
                                         {"pattern", "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$"},
                                         {"description",
                                          "A duration: a number and ms, s, m or h, converted with tick_ms; it must "
                                          "be a whole number of ticks (docs/model.md §11.7)."}}})},
        {"description", description}};
}
schema_json ref(const char* name) { return schema_json{{"$ref", std::string("#/$defs/") + name}}; }
schema_json described(schema_json j, const char* description) {
    j["description"] = description;
    return j;
}

// The keys a candidate and "defaults" share (everything but "name"), from
// the parser's own key table (leasescope/sim/candidate_keys.hpp): names,
// order, ranges and defaults cannot drift from what the parser accepts.
schema_json candidate_properties() {
    schema_json p = schema_json::object();
    for (const sim::CandidateKey* k : sim::candidate_keys()) {
        if (k->kind == sim::KeyKind::name) continue;
        const char* description = k->doc;  // every key has one (scenario_candidates.cpp checks)
        switch (k->kind) {
            case sim::KeyKind::integer:
                p[k->name] = k->tick != nullptr ? ticks(k->lo, k->hi, description) : integer(k->lo, k->hi, description);
                break;
            case sim::KeyKind::flag:
                p[k->name] = {{"type", "boolean"}, {"default", k->fallback != 0}, {"description", description}};
                continue;
            case sim::KeyKind::offsets:
                p[k->name] = {{"type", "array"},
                              {"items", ticks(k->lo, k->hi, "A progress point, from 1 to action.")},
                              {"maxItems", limits::writes_max},
                              {"description", description}};
                break;
            case sim::KeyKind::clock: p[k->name] = described(ref("clock"), description); continue;
            case sim::KeyKind::network: p[k->name] = described(ref("network"), description); continue;
            case sim::KeyKind::choice: {
                schema_json words = schema_json::array();
                for (const char* w : k->choices) words.push_back(w);
                p[k->name] = {{"enum", words},
                              {"default", k->choices[static_cast<std::size_t>(k->fallback)]},
                              {"description", description}};
                continue;
            }
            case sim::KeyKind::name: break;
        }
        if (sim::has_schema_default(*k)) {
            p[k->name]["default"] =
                k->kind == sim::KeyKind::flag ? schema_json(k->fallback != 0) : schema_json(k->fallback);
        }
    }
    return p;
}

schema_json key_schema(const sim::ScenarioKey& k);

// The keys of a section, each as the schema states it; a candidate's are
// its key table's (all but "name", as in "defaults").
schema_json section_properties(sim::Section section) {
    if (section == sim::Section::candidate) return candidate_properties();
    schema_json p = schema_json::object();
    for (const sim::ScenarioKey* k : sim::keys_of(section)) p[k->name] = key_schema(*k);
    return p;
}

// One key of the table as the schema states it: its type, range, choices,
// default and description.
schema_json key_schema(const sim::ScenarioKey& k) {
    using sim::ValueType;
    const schema_json fallback = k.fallback != nullptr ? schema_json::parse(k.fallback) : schema_json();
    schema_json j;
    switch (k.type) {
        case ValueType::identifier: j = described(ref("identifier"), k.doc); break;
        case ValueType::name: j = described(ref("name"), k.doc); break;
        case ValueType::localized: j = described(ref("text"), k.doc); break;
        case ValueType::string: j = {{"type", "string"}, {"maxLength", k.hi}, {"description", k.doc}}; break;
        case ValueType::integer: j = k.time ? ticks(k.lo, k.hi, k.doc) : integer(k.lo, k.hi, k.doc); break;
        case ValueType::boolean: j = {{"type", "boolean"}, {"description", k.doc}}; break;
        case ValueType::number:
            j = {{"type", "number"}, {"minimum", k.lo}, {"maximum", k.hi}, {"description", k.doc}};
            break;
        case ValueType::unsigned64:
            return {{"type", "integer"},
                    {"minimum", 0},
                    {"maximum", std::numeric_limits<std::uint64_t>::max()},
                    {"default", fallback},
                    {"description", k.doc}};
        case ValueType::choice:
            j["enum"] = schema_json::array();
            for (const char* word : k.choices) j["enum"].push_back(word);
            if (k.fallback != nullptr) j["default"] = fallback;
            j["description"] = k.doc;
            return j;
        case ValueType::object: {  // its keys are its own section; "defaults" states no default of its own
            j = {{"type", "object"},
                 {"description", k.doc},
                 {"properties", section_properties(k.opens)},
                 {"additionalProperties", false}};
            schema_json required = schema_json::array();  // a failover's old_primary has some (model.md §17.5)
            for (const sim::ScenarioKey* key : sim::keys_of(k.opens)) {
                // "defaults" opens the candidate keys, which are required here or there (relations()).
                if (key->need == sim::Need::required && k.opens != sim::Section::candidate)
                    required.push_back(key->name);
            }
            if (!required.empty()) j["required"] = required;
            // A goal is a condition: exactly one of its keys (model.md §18.5).
            if (k.opens == sim::Section::goal) j["minProperties"] = j["maxProperties"] = 1;
            return j;
        }
        case ValueType::array:
            j = {{"type", "array"}, {"description", k.doc}, {"items", ref(k.item)}};
            if (k.lo > 0) j["minItems"] = k.lo;
            j["maxItems"] = k.hi;
            break;
    }
    if (k.fallback != nullptr) j["default"] = fallback;
    return j;
}

// A fault or an op: the key named `chooser` ("kind", "op") chooses which of
// the section's keys the object has; one if/then per choice, from the table.
schema_json variants_schema(sim::Section section, const char* chooser, const char* description) {
    const sim::ScenarioKey& choice = sim::scenario_key(section, chooser);
    schema_json variants = schema_json::array();
    for (const char* variant : choice.choices) {
        schema_json properties = schema_json::object();
        schema_json required = schema_json::array();
        for (const sim::ScenarioKey* k : sim::keys_of(section, variant)) {
            properties[k->name] = k == &choice ? schema_json{{"const", variant}} : key_schema(*k);
            if (k->need == sim::Need::required) required.push_back(k->name);
        }
        variants.push_back(schema_json{
            {"if", {{"properties", {{chooser, {{"const", variant}}}}}, {"required", {chooser}}}},
            {"then", {{"properties", properties}, {"required", required}, {"additionalProperties", false}}}});
    }
    return schema_json{{"type", "object"},
                       {"description", description},
                       {"properties", {{chooser, key_schema(choice)}}},
                       {"required", {chooser}},
                       {"allOf", variants}};
}

// An exercise (model.md §18) and what its arrays hold: a knob, a predict
// choice, a range's integer and a knob's value (any JSON value).
void add_exercise_definitions(schema_json& defs) {
    defs["exercise"] = variants_schema(sim::Section::exercise, "kind",
                                       "A question about this scenario, judged by running it (docs/model.md §18). The "
                                       "keys allowed depend on \"kind\".");
    defs["knob"] = {{"type", "object"},
                    {"description", "A value a goal exercise lets the student change: set, and range or values."},
                    {"properties", section_properties(sim::Section::knob)},
                    {"required", {"set"}},
                    {"oneOf", {{{"required", {"range"}}}, {{"required", {"values"}}}}},
                    {"additionalProperties", false}};
    defs["choice"] = {{"type", {"string", "integer"}},
                      {"description", "A candidate's name or \"nobody\" (acquirer), an integer (fencing)."}};
    defs["integer"] = {{"type", "integer"}};
    defs["value"] = {{"description", "Any JSON value, as --set would set it."}};
}

// The type definitions the keys refer to ("$ref": "#/$defs/…").
schema_json definitions() {
    schema_json identifier = {{"type", "string"},
                              {"minLength", 1},
                              {"maxLength", limits::name_length_max},
                              {"pattern", "^[A-Za-z0-9._:-]+$"},
                              {"description",
                               "Letters, digits, '-', '_', '.' and ':' only (it becomes part of a file name "
                               "and of Redis keys)."}};
    schema_json name = {{"type", "string"},
                        {"minLength", 1},
                        {"maxLength", limits::name_length_max},
                        {"pattern", "^[^\\u0000-\\u001f\\u007f]+$"},
                        {"description",
                         "A displayed name: not empty, no control characters, at most name_length_max "
                         "bytes."}};
    schema_json text = {{"type", "object"},
                        {"properties", section_properties(sim::Section::text)},
                        {"additionalProperties", false},
                        {"description", "English and Korean text, each optional, at most text_length_max bytes."}};
    schema_json candidate_props = schema_json::object();
    candidate_props["name"] = described(ref("name"), sim::candidate_keys().front()->doc);
    const schema_json shared = candidate_properties();  // as in "defaults"
    for (const auto& [key, value] : shared.items()) candidate_props[key] = value;
    schema_json candidate = {{"type", "object"},
                             {"description", "One node and the settings of its elector."},
                             {"properties", candidate_props},
                             {"required", {"name"}},
                             {"additionalProperties", false}};
    schema_json fault =
        variants_schema(sim::Section::fault, "kind",
                        "Something that goes wrong, at the start of tick \"at\". The keys allowed depend on \"kind\".");
    schema_json op = variants_schema(sim::Section::op, "op",
                                     "A read-only call by a third party: status (held or vacant) or validate (is "
                                     "token_of's token current, stale or vacant).");
    schema_json clock = {
        {"type", "object"},
        {"description", "A clock: drift_ppm runs it at (1 + drift_ppm/1000000) of true time. Absent: true time."},
        {"properties", section_properties(sim::Section::clock)},
        {"additionalProperties", false}};
    schema_json network = {{"type", "object"},
                           {"description",
                            "Latencies in ticks of calls to the store (request, reply) and of writes to the resource. "
                            "Merged key by key: a candidate's, then \"defaults\"', then the top level's, then 0."},
                           {"properties", section_properties(sim::Section::network)},
                           {"additionalProperties", false}};
    schema_json defs = {{"identifier", identifier}, {"name", name},           {"text", text},   {"clock", clock},
                        {"network", network},       {"candidate", candidate}, {"fault", fault}, {"op", op}};
    add_exercise_definitions(defs);
    return defs;
}

// What a schema states about several keys at once: the candidate keys
// required here or in "defaults", "every" when a candidate repeats, and the
// "lock" elector's single slot.
schema_json relations() {
    schema_json rules = schema_json::array();
    for (const sim::CandidateKey* k : sim::candidate_keys()) {
        if (k->kind == sim::KeyKind::name || k->need != sim::Need::required) continue;
        rules.push_back(
            schema_json{{"if", {{"properties", {{"defaults", {{"required", {k->name}}}}}}, {"required", {"defaults"}}}},
                        {"else", {{"properties", {{"candidates", {{"items", {{"required", {k->name}}}}}}}}}}});
    }
    for (const sim::CandidateKey* k : sim::candidate_keys()) {
        if (k->need != sim::Need::required_to_repeat) continue;
        schema_json needs = {{"if", {{"properties", {{"runs", {{"minimum", 2}}}}}, {"required", {"runs"}}}},
                             {"then", {{"required", {k->name}}}}};
        schema_json rule;
        rule["if"] = {{"properties", {{"defaults", {{"required", {k->name}}}}}}, {"required", {"defaults"}}};
        rule["else"]["properties"]["candidates"]["items"] = needs;
        rules.push_back(rule);
    }
    return rules;
}

}  // namespace

std::string scenario_schema() {
    schema_json root;
    root["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    root["$id"] = "urn:leasescope:scenario";
    root["title"] = "LeaseScope scenario";
    root["description"] =
        "A LeaseScope scenario: who competes for a Redis lock, with what settings, and what goes wrong. All times "
        "are whole ticks. The parser (leasescope-cli validate) also checks what a schema cannot: unique candidate "
        "names, min_lease <= lease, writes strictly increasing, fail_at and writes <= action, extend_every < lease "
        "with auto_extend, fault and op nodes naming candidates, overlapping pauses, partitions or link cuts, the "
        "replica rules (server numbers, wait_replicas and min_replicas_to_write against store.replicas, the primary at "
        "each tick, lag <= at, a split brain's until, promote required with replicas), lengths in bytes, duplicate "
        "keys and the total work (runs_total_max). See docs/scenario-format.md.";
    root["type"] = "object";
    schema_json props = section_properties(sim::Section::top);
    // The single-lock elector has one slot (model.md §5.2).
    props["lock"]["if"] = {{"properties", {{"elector", {{"const", "lock"}}}}}, {"required", {"elector"}}};
    props["lock"]["then"] = {{"properties", {{"capacity", {{"maximum", 1}}}}}};
    root["properties"] = props;
    schema_json required = schema_json::array();
    for (const sim::ScenarioKey* k : sim::keys_of(sim::Section::top)) {
        if (k->need == sim::Need::required) required.push_back(k->name);
    }
    root["required"] = required;
    root["additionalProperties"] = false;
    root["allOf"] = relations();
    root["$defs"] = definitions();
    return root.dump(2) + "\n";
}

void add_schema_command(CLI::App& app, int& exit_code) {
    auto import_log = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand(
        "schema",
        "Print the JSON Schema (draft 2020-12) of scenario files: every key with its documentation, range and "
        "default. Point \"$schema\" in a scenario at it and an editor checks and completes the file.");
    cmd->add_flag("--import-log", *import_log,
                  "Print instead the schema of one line of an application log read by `import --log` "
                  "(docs/import.md)");
    cmd->callback([import_log, &exit_code] {
        const std::string text = *import_log ? sim::import::log_schema_json() : scenario_schema();
        std::fwrite(text.data(), 1, text.size(), stdout);
        exit_code = exit_ok;
    });
}

}  // namespace leasescope::cli
