// The guided tour: parsing tour.json, and the facts its texts state, read from the trace.
#include "leasescope/words/tour.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "trace_facts.hpp"

namespace leasescope::words {
namespace {

using nlohmann::json;

TourFind parse_find(const json& f) {
    TourFind find;
    find.op = f.value("op", "");
    find.outcome = f.value("outcome", "");
    find.node = f.value("node", "");
    find.last = f.value("last", false);
    find.offset = f.value("offset", Tick{0});
    return find;
}

// One find or a list of alternatives.
std::vector<TourFind> parse_finds(const json& f) {
    std::vector<TourFind> out;
    if (f.is_array()) {
        for (const json& alt : f) out.push_back(parse_find(alt));
    } else {
        out.push_back(parse_find(f));
    }
    return out;
}

bool matches(const TourFind& f, const sim::Event& e) {
    if (!f.op.empty() && f.op != sim::to_string(e.op)) return false;
    if (!f.outcome.empty() && f.outcome != sim::to_string(e.outcome)) return false;
    if (!f.node.empty() && f.node != e.node) return false;
    return true;
}

// The event the alternatives point at, or null.
const sim::Event* find_event(const std::vector<TourFind>& alternatives, const sim::Trace& trace, Tick* offset) {
    for (const TourFind& f : alternatives) {
        const sim::Event* found = nullptr;
        for (const sim::Event& e : trace.events) {
            if (!matches(f, e)) continue;
            found = &e;
            if (!f.last) break;
        }
        if (found) {
            if (offset) *offset = f.offset;
            return found;
        }
    }
    return nullptr;
}

}  // namespace

bool load_tour(const std::string& json_text, std::vector<TourStep>& out, std::string& error) {
    json j = json::parse(json_text, nullptr, false, true);
    if (j.is_discarded() || !j.is_object() || !j.contains("steps") || !j["steps"].is_array()) {
        error = "the tour must be an object with a \"steps\" array";
        return false;
    }
    out.clear();
    std::size_t i = 0;
    for (const json& s : j["steps"]) {
        TourStep step;
        try {
            step.preset = s.at("preset").get<std::string>();
            if (s.contains("tick")) step.tick = s["tick"].get<Tick>();
            if (s.contains("find")) step.find = parse_finds(s["find"]);
            if (!step.tick && step.find.empty()) {
                error = "tour step " + std::to_string(i) + ": needs \"tick\" or \"find\"";
                return false;
            }
            if (s.contains("facts")) {
                for (const auto& [name, f] : s["facts"].items()) step.facts.push_back({name, parse_finds(f)});
            }
            step.focus = s.value("focus", "timeline");
            step.title_en = s.at("title").at("en").get<std::string>();
            step.title_ko = s.at("title").at("ko").get<std::string>();
            step.body_en = s.at("body").at("en").get<std::string>();
            step.body_ko = s.at("body").at("ko").get<std::string>();
        } catch (const json::exception& ex) {
            error = "tour step " + std::to_string(i) + ": " + ex.what();
            return false;
        }
        out.push_back(std::move(step));
        ++i;
    }
    return true;
}

Tick resolve_tour_tick(const TourStep& step, const sim::Trace& trace) {
    if (step.tick) return *step.tick;
    Tick offset = 0;
    const sim::Event* e = find_event(step.find, trace, &offset);
    return e ? std::max<Tick>(0, e->tick + offset) : 0;
}

namespace {

// Who holds the lock just before event `e`, other than e's own token, in one
// sentence (the Explain panel's words for a rejected release): the state at
// that moment, not the story of the preset.
std::string lock_words(const sim::Trace& trace, const sim::Event& e, const Strings& strings) {
    const auto index = static_cast<std::size_t>(&e - trace.events.data());
    std::vector<facts::Held> held = facts::records_before(trace, index);
    held.erase(std::remove_if(held.begin(), held.end(), [&](const facts::Held& r) { return r.token == e.token; }),
               held.end());
    if (held.empty()) return strings.tr("explain.release.not_owner_vacant");
    if (trace.header.capacity > 1) return strings.tr("explain.release.not_owner_group");
    const facts::Held* newest = &held.front();
    for (const facts::Held& r : held)
        if (r.fencing > newest->fencing) newest = &r;
    return strings.tr("explain.release.not_owner_held",
                      {{"holder", newest->owner}, {"holder_fencing", std::to_string(newest->fencing)}});
}

}  // namespace

Fields tour_fields(const TourStep& step, const sim::Trace& trace, const Strings* strings) {
    Fields f;
    f.emplace_back("tick", std::to_string(resolve_tour_tick(step, trace)));
    for (const TourFact& fact : step.facts) {
        const sim::Event* e = find_event(fact.alternatives, trace, nullptr);
        f.emplace_back(fact.name + "_tick", e ? std::to_string(e->tick) : "?");
        f.emplace_back(fact.name + "_fencing", e && e->fencing ? std::to_string(*e->fencing) : "?");
        f.emplace_back(fact.name + "_node", e && !e->node.empty() ? e->node : "?");
        // The message's times (model.md §16): sent, and applied by Redis; the event's tick when the wire held nothing.
        f.emplace_back(fact.name + "_sent", e ? std::to_string(e->sent.value_or(e->tick)) : "?");
        f.emplace_back(fact.name + "_applied", e ? std::to_string(e->applied.value_or(e->tick)) : "?");
        if (strings != nullptr) f.emplace_back(fact.name + "_lock", e ? lock_words(trace, *e, *strings) : "?");
    }
    return f;
}

std::string tour_body(const TourStep& step, const sim::Trace& trace, const Strings& strings) {
    return format_fields(step.body(strings.lang()), tour_fields(step, trace, &strings));
}

}  // namespace leasescope::words
