// `leasescope-cli schema`: the JSON Schema (draft 2020-12) of scenario files,
// built here from the named limits in sim/include/leasescope/sim/limits.hpp,
// so its numbers cannot drift from the parser's. The build writes it to
// share/leasescope/schema/scenario.schema.json; tests/schema/ checks it
// against the presets, the bad scenarios and the parser's own boundaries.
// The descriptions follow docs/scenario-format.md.
#include <cstdint>
#include <limits>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/candidate_keys.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {
namespace {

using schema_json = nlohmann::ordered_json;

schema_json integer(std::int64_t lo, std::int64_t hi, const char* description) {
    return schema_json{{"type", "integer"}, {"minimum", lo}, {"maximum", hi}, {"description", description}};
}
schema_json with_default(schema_json j, schema_json value) {
    j["default"] = std::move(value);
    return j;
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
            case sim::KeyKind::integer: p[k->name] = integer(k->lo, k->hi, description); break;
            case sim::KeyKind::flag:
                p[k->name] = {{"type", "boolean"}, {"default", k->fallback != 0}, {"description", description}};
                continue;
            case sim::KeyKind::offsets:
                p[k->name] = {{"type", "array"},
                              {"items", integer(k->lo, k->hi, "A progress point, from 1 to action.")},
                              {"maxItems", limits::writes_max},
                              {"description", description}};
                break;
            case sim::KeyKind::network:
                p[k->name] = described(ref("network"), description);
                continue;
            case sim::KeyKind::name: break;
        }
        if (sim::has_schema_default(*k)) {
            p[k->name]["default"] =
                k->kind == sim::KeyKind::flag ? schema_json(k->fallback != 0) : schema_json(k->fallback);
        }
    }
    return p;
}

schema_json identifier_schema() {
    return schema_json{{"type", "string"},
                       {"minLength", 1},
                       {"maxLength", limits::name_length_max},
                       {"pattern", "^[A-Za-z0-9._:-]+$"},
                       {"description",
                        "Letters, digits, '-', '_', '.' and ':' only (it becomes part of a file name and of Redis "
                        "keys)."}};
}

// "network" (model.md §16.1), at the top level, in "defaults" and in a candidate.
schema_json network_schema() {
    const schema_json latency = integer(0, limits::latency_max, "Ticks on the wire (model.md §16.1).");
    return schema_json{{"type", "object"},
                       {"properties", {{"request", latency}, {"reply", latency}, {"write", latency}}},
                       {"additionalProperties", false},
                       {"description",
                        "Latencies in ticks of calls to the store (request, reply) and of writes to the resource. "
                        "Merged key by key: a candidate's, then \"defaults\"', then the top level's, then 0."}};
}

schema_json fault_schema() {
    const schema_json at = integer(0, limits::horizon_max, "Tick at which the fault takes effect.");
    const schema_json ticks = integer(1, limits::duration_max, "How many ticks it lasts.");
    const schema_json node = described(ref("name"), "The candidate it happens to.");
    schema_json kinds = schema_json::array();
    auto kind = [&](const char* name, schema_json properties, schema_json required) {
        properties["kind"] = schema_json{{"const", name}};
        kinds.push_back(schema_json{
            {"if", {{"properties", {{"kind", {{"const", name}}}}}, {"required", {"kind"}}}},
            {"then", {{"properties", properties}, {"required", required}, {"additionalProperties", false}}}});
    };
    kind("pause", {{"node", node}, {"at", at}, {"ticks", ticks}}, {"kind", "node", "at", "ticks"});
    kind("partition",
         {{"node", node},
          {"at", at},
          {"ticks", ticks},
          {"mode",
           {{"enum", {"drop_requests", "drop_replies"}},
            {"default", "drop_requests"},
            {"description",
             "drop_requests: calls never arrive; drop_replies: calls are applied but the node "
             "sees an error."}}}},
         {"kind", "node", "at", "ticks"});
    kind("crash", {{"node", node}, {"at", at}}, {"kind", "node", "at"});
    kind("delay",
         {{"node", node},
          {"at", at},
          {"ticks", ticks},
          {"link",
           {{"enum", {"request", "reply", "write"}},
            {"description", "Which of the node's messages: its calls' requests, their replies, or its writes."}}},
          {"extra", integer(0, limits::delay_extra_max, "Extra ticks on the wire for a message sent in the window.")}},
         {"kind", "node", "at", "ticks", "link", "extra"});
    kind("failover",
         {{"at", at},
          {"lose",
           {{"enum", {"leases", "all"}},
            {"default", "leases"},
            {"description",
             "leases: slots and hold-off vanish, the fencing counter survives; all: the "
             "counter is reset as well."}}}},
         {"kind", "at"});
    return schema_json{
        {"type", "object"},
        {"description", "Something that goes wrong, at the start of tick \"at\". The keys allowed depend on \"kind\"."},
        {"properties",
         {{"kind",
           {{"enum", {"pause", "partition", "crash", "failover", "delay"}},
            {"description", "pause, partition, crash, failover or delay."}}}}},
        {"required", {"kind"}},
        {"allOf", kinds}};
}

schema_json op_schema() {
    const schema_json at = integer(0, limits::horizon_max, "Tick of the call (after the nodes have acted).");
    const schema_json actor = described(ref("name"), "Who asks (any name; not necessarily a candidate).");
    schema_json status = {{"properties", {{"at", at}, {"actor", actor}, {"op", {{"const", "status"}}}}},
                          {"required", {"at", "actor", "op"}},
                          {"additionalProperties", false}};
    schema_json validate = {{"properties",
                             {{"at", at},
                              {"actor", actor},
                              {"op", {{"const", "validate"}}},
                              {"token_of", described(ref("name"), "The candidate whose token is checked.")}}},
                            {"required", {"at", "actor", "op", "token_of"}},
                            {"additionalProperties", false}};
    auto when = [](const char* op, schema_json then) {
        return schema_json{{"if", {{"properties", {{"op", {{"const", op}}}}}, {"required", {"op"}}}}, {"then", then}};
    };
    return schema_json{{"type", "object"},
                       {"description",
                        "A read-only call by a third party: status (held or vacant) or validate (is "
                        "token_of's token current, stale or vacant)."},
                       {"properties", {{"op", {{"enum", {"status", "validate"}}}}}},
                       {"required", {"op"}},
                       {"allOf", {when("status", status), when("validate", validate)}}};
}

}  // namespace

std::string scenario_schema() {
    const schema_json identifier = identifier_schema();
    schema_json name = {{"type", "string"},
                        {"minLength", 1},
                        {"maxLength", limits::name_length_max},
                        {"pattern", "^[^\\u0000-\\u001f\\u007f]+$"},
                        {"description",
                         "A displayed name: not empty, no control characters, at most name_length_max "
                         "bytes."}};
    schema_json text = {{"type", "object"},
                        {"properties",
                         {{"en", {{"type", "string"}, {"maxLength", limits::text_length_max}}},
                          {"ko", {{"type", "string"}, {"maxLength", limits::text_length_max}}}}},
                        {"additionalProperties", false},
                        {"description", "English and Korean text, each optional, at most text_length_max bytes."}};

    schema_json defaults_properties = candidate_properties();
    schema_json candidate_props = schema_json::object();
    candidate_props["name"] = described(ref("name"), sim::candidate_keys().front()->doc);
    for (auto& [key, value] : defaults_properties.items()) candidate_props[key] = value;
    schema_json candidate = {{"type", "object"},
                             {"description", "One node and the settings of its elector."},
                             {"properties", candidate_props},
                             {"required", {"name"}},
                             {"additionalProperties", false}};

    // wait, lease and action are required in each candidate unless
    // "defaults" gives them; a candidate with runs > 1 needs every when
    // "defaults" has none.
    schema_json rules = schema_json::array();
    for (const char* key : {"wait", "lease", "action"}) {
        rules.push_back(
            schema_json{{"if", {{"properties", {{"defaults", {{"required", {key}}}}}}, {"required", {"defaults"}}}},
                        {"else", {{"properties", {{"candidates", {{"items", {{"required", {key}}}}}}}}}}});
    }
    schema_json needs_every = {{"if", {{"properties", {{"runs", {{"minimum", 2}}}}}, {"required", {"runs"}}}},
                               {"then", {{"required", {"every"}}}}};
    schema_json every_rule;
    every_rule["if"] = {{"properties", {{"defaults", {{"required", {"every"}}}}}}, {"required", {"defaults"}}};
    every_rule["else"]["properties"]["candidates"]["items"] = needs_every;
    rules.push_back(every_rule);

    schema_json root;
    root["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    root["$id"] = "urn:leasescope:scenario";
    root["title"] = "LeaseScope scenario";
    root["description"] =
        "A LeaseScope scenario: who competes for a Redis lock, with what settings, and what goes wrong. All times "
        "are whole ticks. The parser (leasescope-cli validate) also checks what a schema cannot: unique candidate "
        "names, min_lease <= lease, writes strictly increasing, fail_at and writes <= action, extend_every < lease "
        "with auto_extend, fault and op nodes naming candidates, overlapping pauses or partitions, lengths in bytes, "
        "duplicate keys and the total work (runs_total_max). See docs/scenario-format.md.";
    root["type"] = "object";
    schema_json props = schema_json::object();
    props["$schema"] = {{"type", "string"},
                        {"description",
                         "The schema of this file, for editors (share/leasescope/schema/"
                         "scenario.schema.json, or the output of leasescope-cli schema)."}};
    props["name"] =
        described(ref("identifier"), "Names the scenario in traces; check looks for the golden trace NAME.jsonl.");
    props["title"] = described(ref("text"), "Shown by list and the app.");
    props["summary"] = described(ref("text"), "The lesson, in a few sentences.");
    props["tick_ms"] =
        with_default(integer(limits::tick_ms_min, limits::tick_ms_max,
                             "Milliseconds per tick (display, live mode, and the watchdog's millisecond period)."),
                     50);
    props["horizon"] = with_default(
        integer(0, limits::horizon_max, "Last tick simulated; a run can end earlier once nothing else can happen."),
        1000);
    props["seed"] = {{"type", "integer"},
                     {"minimum", 0},
                     {"maximum", std::numeric_limits<std::uint64_t>::max()},
                     {"default", 0},
                     {"description", "Seeds the token generator and the shuffle."}};
    props["order"] = {{"enum", {"declared", "shuffled"}},
                      {"default", "declared"},
                      {"description", "Order in which nodes act within a tick's acquire phase."}};
    props["network"] = described(ref("network"), "Every node's latencies; see $defs/network.");
    props["lock"] = {
        {"type", "object"},
        {"description", "The Redis record."},
        {"properties",
         {{"name", with_default(described(ref("identifier"), "Part of the Redis keys in live mode."), "lock")},
          {"capacity",
           with_default(integer(1, limits::capacity_max, "Slots: 1 is a single leader, more a leader group."), 1)},
          {"fencing_start",
           with_default(integer(1, limits::fencing_start_max, "The first fencing number handed out."), 1)},
          {"elector",
           {{"enum", {"lock", "group"}},
            {"description",
             "Which elector of the library: \"lock\" (the single lock; capacity 1 only; it "
             "gives up at its deadline without a last try) or \"group\" (the leader group; "
             "it tries at its deadline). Absent: \"lock\" for capacity 1, else "
             "\"group\"."}}}}},
        {"additionalProperties", false},
        {"if", {{"properties", {{"elector", {{"const", "lock"}}}}}, {"required", {"elector"}}}},
        {"then", {{"properties", {{"capacity", {{"maximum", 1}}}}}}}};
    props["resource"] = {{"type", "object"},
                         {"description", "The protected resource."},
                         {"properties",
                          {{"mode",
                            {{"enum", {"off", "check", "validate"}},
                             {"default", "off"},
                             {"description",
                              "off: every write is accepted; check: writes with a fencing number below the "
                              "highest accepted are refused (the fence); validate: the store is asked whether "
                              "the writer's token is current."}}}}},
                         {"additionalProperties", false}};
    props["defaults"] = {{"type", "object"},
                         {"description", "Values shared by every candidate (any candidate key except name)."},
                         {"properties", defaults_properties},
                         {"additionalProperties", false}};
    props["candidates"] = {{"type", "array"},
                           {"description", "The competing nodes."},
                           {"items", ref("candidate")},
                           {"minItems", 1},
                           {"maxItems", limits::candidates_max}};
    props["faults"] = {{"type", "array"},
                       {"description", "Things that go wrong."},
                       {"items", ref("fault")},
                       {"maxItems", limits::faults_max},
                       {"default", schema_json::array()}};
    props["ops"] = {{"type", "array"},
                    {"description", "Read-only checks by a third party."},
                    {"items", ref("op")},
                    {"maxItems", limits::ops_max},
                    {"default", schema_json::array()}};
    root["properties"] = props;
    root["required"] = {"name", "candidates"};
    root["additionalProperties"] = false;
    root["allOf"] = rules;
    root["$defs"] = {{"identifier", identifier}, {"name", name},     {"text", text}, {"candidate", candidate},
                     {"fault", fault_schema()},  {"op", op_schema()}, {"network", network_schema()}};
    return root.dump(2) + "\n";
}

void add_schema_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand(
        "schema",
        "Print the JSON Schema (draft 2020-12) of scenario files: every key with its documentation, range and "
        "default. Point \"$schema\" in a scenario at it and an editor checks and completes the file.");
    cmd->callback([&exit_code] {
        const std::string text = scenario_schema();
        std::fwrite(text.data(), 1, text.size(), stdout);
        exit_code = exit_ok;
    });
}

}  // namespace leasescope::cli
