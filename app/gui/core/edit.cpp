// Scenario edits made in the app, applied through the scenario's JSON form and parsed again (edit.hpp).
#include "edit.hpp"

namespace leasescope::gui {
namespace {

using nlohmann::json;

// A new candidate gets the next free name in the node-a, node-b, … series.
std::string fresh_name(const json& candidates) {
    for (int i = 0;; ++i) {
        std::string name = "node-";
        int k = i;
        std::string suffix;
        do {
            suffix.insert(suffix.begin(), static_cast<char>('a' + k % 26));
            k = k / 26 - 1;
        } while (k >= 0);
        name += suffix;
        bool used = false;
        for (const json& c : candidates)
            if (c.value("name", "") == name) used = true;
        if (!used) return name;
    }
}

// Removing a candidate also removes the faults and ops that name it, which
// would otherwise make the scenario invalid.
void drop_references(json& j, const std::string& name) {
    for (const char* list : {"faults", "ops"}) {
        if (!j.contains(list)) continue;
        json kept = json::array();
        for (const json& item : j[list])
            if (item.value("node", "") != name && item.value("token_of", "") != name) kept.push_back(item);
        j[list] = kept;
    }
}

}  // namespace

EditResult apply_edits(const sim::Scenario& scenario, const std::vector<Edit>& edits) {
    json j = json::parse(sim::scenario_to_json(scenario), nullptr, false, true);
    if (j.is_discarded()) return Err{std::string("the scenario could not be written as JSON")};
    try {
        for (const Edit& e : edits) {
            switch (e.kind) {
                case Edit::Kind::set: j[json::json_pointer(e.path)] = e.value; break;
                case Edit::Kind::set_all:
                    // A null value removes the key everywhere: back to its default.
                    if (e.value.is_null())
                        j["defaults"].erase(e.path);
                    else
                        j["defaults"][e.path] = e.value;
                    for (json& c : j["candidates"]) c.erase(e.path);
                    break;
                case Edit::Kind::append: {
                    json& arr = j[json::json_pointer(e.path)];
                    if (!arr.is_array()) arr = json::array();
                    arr.push_back(e.value);
                    break;
                }
                case Edit::Kind::remove: {
                    const json::json_pointer ptr(e.path);
                    json& parent = j[ptr.parent_pointer()];
                    if (parent.is_array())
                        parent.erase(static_cast<std::size_t>(std::stoul(ptr.back())));
                    else
                        parent.erase(ptr.back());
                    break;
                }
                case Edit::Kind::set_candidates: {
                    json& cands = j["candidates"];
                    const auto want = e.value.get<std::int64_t>();
                    if (want < 1) return Err{std::string("a scenario needs at least one candidate")};
                    while (static_cast<std::int64_t>(cands.size()) > want) {
                        const std::string gone = cands.back().value("name", "");
                        cands.erase(cands.size() - 1);
                        drop_references(j, gone);
                    }
                    while (static_cast<std::int64_t>(cands.size()) < want) {
                        // A newcomer copies the last candidate (the written form may
                        // carry every key per candidate) and starts a few ticks
                        // later, so it contends.
                        json fresh = cands.empty() ? json::object() : cands.back();
                        const std::int64_t start = cands.empty() ? 0 : cands.back().value("start", std::int64_t{0}) + 2;
                        fresh["name"] = fresh_name(cands);
                        fresh["start"] = start;
                        cands.push_back(std::move(fresh));
                    }
                    break;
                }
            }
        }
    } catch (const json::exception& ex) {
        return Err{std::string("edit failed: ") + ex.what()};
    } catch (const std::exception& ex) {
        return Err{std::string("edit failed: ") + ex.what()};
    }
    sim::ScenarioResult parsed = sim::parse_scenario(j.dump(2), scenario.name + " (edited)");
    if (!parsed.ok()) return Err{parsed.error().to_string()};
    return std::move(parsed).value();
}

Edit pause_fault(const std::string& node, Tick at, Tick ticks) {
    return Edit{Edit::Kind::append, "/faults", json{{"kind", "pause"}, {"node", node}, {"at", at}, {"ticks", ticks}}};
}

Edit crash_fault(const std::string& node, Tick at) {
    return Edit{Edit::Kind::append, "/faults", json{{"kind", "crash"}, {"node", node}, {"at", at}}};
}

Edit partition_fault(const std::string& node, Tick at, Tick ticks, sim::PartitionMode mode) {
    return Edit{
        Edit::Kind::append, "/faults",
        json{{"kind", "partition"}, {"node", node}, {"at", at}, {"ticks", ticks}, {"mode", sim::to_string(mode)}}};
}

Edit failover_fault(Tick at, FailoverLoss lose) {
    return Edit{Edit::Kind::append, "/faults", json{{"kind", "failover"}, {"at", at}, {"lose", sim::to_string(lose)}}};
}

}  // namespace leasescope::gui
