// Two runs side by side in words (compare_words.hpp): the divergence by sim::first_divergence, the settings
// that differ, each run's tallies by a tick, and the sentences made from them.
#include "leasescope/words/compare_words.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "trace_facts.hpp"

namespace leasescope::words {

using namespace facts;

namespace {

// The events only an imported history has (model.md §19.9.5): what a node
// believed and what the import could not decide. A simulated run has none.
bool import_only(const Event& e) { return e.op == EventOp::believe || e.op == EventOp::undecided; }

bool has_import_only(const sim::Trace& t) {
    for (const Event& e : t.events)
        if (import_only(e)) return true;
    return false;
}

// `t` without its import-only events; `at[k]` is the kept k-th event's index in `t`.
sim::Trace without_import_only(const sim::Trace& t, std::vector<std::size_t>& at) {
    sim::Trace kept;
    kept.header = t.header;
    kept.summary = t.summary;
    for (std::size_t k = 0; k < t.events.size(); ++k) {
        if (import_only(t.events[k])) continue;
        kept.events.push_back(t.events[k]);
        at.push_back(k);
    }
    return kept;
}

}  // namespace

PairDivergence pair_divergence(const sim::Trace& a, const sim::Trace& b) {
    PairDivergence d;
    // Tokens are not compared: two seeds draw different tokens from the first
    // acquisition on, which is not where two stories part. context 0: only the
    // index is read here; the words are ours. An import's believe/undecided
    // events are skipped on both sides (§19.9.5): its draft cannot have them.
    std::vector<std::size_t> at_a, at_b;
    const bool skip = has_import_only(a) || has_import_only(b);
    const auto found = skip ? sim::first_divergence(without_import_only(a, at_a), without_import_only(b, at_b), true, 0)
                            : sim::first_divergence(a, b, true, 0);
    if (!found || found->index < 0) return d;
    d.differ = true;
    d.index = found->index;
    const auto i = static_cast<std::size_t>(found->index);
    if (skip) {
        if (i < at_a.size()) d.a = &a.events[at_a[i]];
        if (i < at_b.size()) d.b = &b.events[at_b[i]];
    } else {
        if (i < a.events.size()) d.a = &a.events[i];
        if (i < b.events.size()) d.b = &b.events[i];
    }
    // The tick diff names: A's event, else B's; past both (only the summaries differ): the later end.
    if (d.a != nullptr)
        d.tick = d.a->tick;
    else if (d.b != nullptr)
        d.tick = d.b->tick;
    else
        d.tick = std::max(a.events.empty() ? 0 : a.events.back().tick, b.events.empty() ? 0 : b.events.back().tick);
    d.tick_a = d.a != nullptr ? d.a->tick : -1;
    d.tick_b = d.b != nullptr ? d.b->tick : -1;
    d.first_tick =
        d.tick_a < 0 ? (d.tick_b < 0 ? d.tick : d.tick_b) : (d.tick_b < 0 ? d.tick_a : std::min(d.tick_a, d.tick_b));
    return d;
}

const char* tally_name(Tally t) {
    switch (t) {
        case Tally::unsafe_write: return "unsafe_write";
        case Tally::rejected_write: return "rejected_write";
        case Tally::stale_write: return "stale_write";
        case Tally::overlap: return "overlap";
        case Tally::fencing_regressed: return "fencing_regressed";
        case Tally::expired: return "expired";
        case Tally::renewed: return "renewed";
    }
    return "";
}

std::array<std::int64_t, tally_count> tallies_until(const sim::Trace& trace, Tick tick) {
    std::array<std::int64_t, tally_count> n{};
    auto add = [&](Tally t) { ++n[static_cast<std::size_t>(t)]; };
    for (const Event& e : trace.events) {
        if (e.tick > tick) break;  // events are in tick order
        switch (e.op) {
            case EventOp::write:
                if (e.outcome == Outcome::rejected)
                    add(Tally::rejected_write);
                else if (e.details.has(sim::Detail::unsafe_write))
                    add(Tally::unsafe_write);
                else if (e.details.has(sim::Detail::stale))
                    add(Tally::stale_write);
                break;
            case EventOp::overlap_begin: add(Tally::overlap); break;
            case EventOp::acquire:
                if (e.outcome == Outcome::acquired && e.details.has(sim::Detail::fencing_regressed))
                    add(Tally::fencing_regressed);
                break;
            case EventOp::expire: add(Tally::expired); break;
            case EventOp::extend:
                if (e.outcome == Outcome::renewed) add(Tally::renewed);
                break;
            default: break;
        }
    }
    return n;
}

std::vector<SettingDiff> setting_diffs(const sim::Scenario& a, const sim::Scenario& b) {
    const auto fa = nlohmann::json::parse(sim::scenario_to_json(a)).flatten();
    const auto fb = nlohmann::json::parse(sim::scenario_to_json(b)).flatten();
    // The seed only draws the random tokens, unless an order is shuffled: then it decides who calls
    // first, and a student compares it like any other setting. The lesson's words and its
    // exercises change nothing in the run: two presets told side by side differ in them everywhere.
    const bool seed_matters = a.order == sim::Order::shuffled || b.order == sim::Order::shuffled;
    auto skipped = [seed_matters](const std::string& path) {
        return path == "/name" || path.rfind("/title", 0) == 0 || path.rfind("/summary", 0) == 0 ||
               path.rfind("/exercises", 0) == 0 || (path == "/seed" && !seed_matters);
    };
    std::map<std::string, std::pair<std::string, std::string>> diffs;
    for (auto it = fa.begin(); it != fa.end(); ++it) {
        if (skipped(it.key())) continue;
        const auto other = fb.find(it.key());
        const std::string vb = other == fb.end() ? "–" : other->dump();
        if (other == fb.end() || *other != *it) diffs[it.key()] = {it->dump(), vb};
    }
    for (auto it = fb.begin(); it != fb.end(); ++it)
        if (!skipped(it.key()) && !fa.contains(it.key())) diffs[it.key()] = {"–", it->dump()};
    // "/candidates/N/key" that differ alike for every candidate become one "/candidates/*/key".
    std::map<std::string, std::vector<std::string>> per_key;
    for (const auto& [path, values] : diffs) {
        if (path.rfind("/candidates/", 0) != 0) continue;
        const auto slash = path.find('/', 12);
        if (slash == std::string::npos) continue;
        per_key[path.substr(slash)].push_back(path);
    }
    std::vector<SettingDiff> out;
    std::map<std::string, bool> folded;
    for (const auto& [key, paths] : per_key) {
        if (paths.size() != a.candidates.size() || a.candidates.size() != b.candidates.size() || paths.size() < 2)
            continue;
        const auto& first = diffs[paths.front()];
        bool alike = true;
        for (const std::string& p : paths) alike = alike && diffs[p] == first;
        if (!alike) continue;
        for (const std::string& p : paths) folded[p] = true;
        out.push_back({"/candidates/*" + key, first.first, first.second});
    }
    for (const auto& [path, values] : diffs)
        if (!folded.count(path)) out.push_back({path, values.first, values.second});
    return out;
}

CompareFacts compare_facts(const CompareContext& ctx) {
    CompareFacts f;
    f.divergence = pair_divergence(*ctx.trace_a, *ctx.trace_b);
    f.parted = f.divergence.differ && ctx.playhead >= f.divergence.first_tick;
    // A replayed history (model.md §19.9) has no settings to set beside B's: none listed.
    if (ctx.a != nullptr && ctx.b != nullptr) f.settings = setting_diffs(*ctx.a, *ctx.b);
    f.tally_a = tallies_until(*ctx.trace_a, ctx.playhead);
    f.tally_b = tallies_until(*ctx.trace_b, ctx.playhead);
    return f;
}

namespace {

// A setting's value in words: resource modes by their names, anything else as JSON.
std::string value_words(const std::string& path, const std::string& value_json, const Strings& s) {
    if (path == "/resource/mode" && value_json.size() > 2 && value_json.front() == '"')
        return s.tr("mode." + value_json.substr(1, value_json.size() - 2));
    return value_json;
}

// One side's event at the divergence, told only once the playhead has reached its tick.
std::string side_words(const sim::Event* e, const sim::Trace& trace, Tick playhead, const Strings& s) {
    if (e == nullptr) return s.tr("compare.no_more");
    if (e->tick > playhead) return s.tr("compare.not_yet", {{"tick", std::to_string(playhead)}});
    return s.tr("compare.side", {{"tick", std::to_string(e->tick)}, {"words", describe_event(*e, s, trace.header)}});
}

}  // namespace

std::vector<Sentence> compare_sentences(const CompareContext& ctx, const Strings& s) {
    const CompareFacts f = compare_facts(ctx);
    std::vector<Sentence> out;
    auto say = [&](const std::string& key, const Fields& fields) { out.push_back({key, s.tr(key, fields)}); };
    for (const SettingDiff& d : f.settings) {
        // "/defaults/auto_extend" reads "defaults.auto_extend", as --set takes it.
        std::string name = d.path.substr(1);
        for (char& c : name)
            if (c == '/') c = '.';
        say(d.path == "/resource/mode" ? "compare.setup.mode" : "compare.setup.value",
            {{"name", name}, {"a", value_words(d.path, d.a, s)}, {"b", value_words(d.path, d.b, s)}});
    }
    if (!f.divergence.differ) {
        say("compare.identical", {});
    } else if (!f.parted) {
        // The "first divergence" mark is on screen from the start, so the tick it names is no secret:
        // say how far the runs agree, not only up to the playhead.
        const Tick first = f.divergence.first_tick;
        say("compare.same_so_far", {{"tick", std::to_string(ctx.playhead)},
                                    {"until", std::to_string(first - 1)},
                                    {"first", std::to_string(first)}});
    } else {
        const PairDivergence& d = f.divergence;
        say("compare.parted", {{"tick", std::to_string(d.first_tick)},
                               {"event", std::to_string(d.index)},
                               {"a", side_words(d.a, *ctx.trace_a, ctx.playhead, s)},
                               {"b", side_words(d.b, *ctx.trace_b, ctx.playhead, s)}});
    }
    std::string items;
    for (std::size_t k = 0; k < tally_count; ++k) {
        if (f.tally_a[k] == 0 && f.tally_b[k] == 0) continue;
        if (!items.empty()) items += s.tr("compare.separator");
        items += s.tr("compare.item", {{"what", s.tr(std::string("compare.what.") + tally_name(static_cast<Tally>(k)))},
                                       {"a", std::to_string(f.tally_a[k])},
                                       {"b", std::to_string(f.tally_b[k])}});
    }
    if (items.empty())
        say("compare.tally_none", {{"tick", std::to_string(ctx.playhead)}});
    else
        say("compare.tally", {{"tick", std::to_string(ctx.playhead)}, {"items", items}});
    return out;
}

}  // namespace leasescope::words
