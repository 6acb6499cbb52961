// The draft against the history (docs/model.md §19.8.3): the draft is parsed
// back and simulated, and per node its acquisitions, releases and writes
// (ticks, outcomes, marks; tokens ignored, as `diff --ignore-tokens`) are
// compared with the imported trace's; the first place each list parts, and
// counts that differ, are the differences.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "history_internal.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim::import::history_detail {
namespace {

struct Step {
    Tick tick = 0;
    Outcome outcome = Outcome::none;
    std::string marks;
    bool operator==(const Step&) const = default;
};

// One node's steps of one kind: "acquires", "releases", "writes".
using Steps = std::map<std::pair<std::string, std::string>, std::vector<Step>>;

bool is_step(EventOp op, Outcome outcome) {
    return (op == EventOp::acquire && outcome == Outcome::acquired) || op == EventOp::release || op == EventOp::write;
}

void add_step(Steps& steps, const Event& e) {
    if (e.node.empty() || !is_step(e.op, e.outcome)) return;
    const char* kind = e.op == EventOp::acquire ? "acquires" : e.op == EventOp::release ? "releases" : "writes";
    steps[{e.node, kind}].push_back(Step{e.tick, e.outcome, e.op == EventOp::write ? detail_text(e) : ""});
}

Steps steps_of(const Trace& trace) {
    Steps steps;
    for (const Event& e : trace.events) add_step(steps, e);
    return steps;
}

// Keeps the draft's steps as it runs, and nothing else: a draft's run may
// have many more events (extends, waits) than memory should hold.
class StepSink final : public EventSink {
public:
    void on_event(const Event& e) override {
        ++events;
        add_step(steps, e);
    }
    void on_event_view(const EventView& view) override {
        ++events;
        if (is_step(view.op, view.outcome)) add_step(steps, to_event(view));
    }
    Steps steps;
    std::int64_t events = 0;
};

// The capture's steps up to `last` (inclusive).
Steps steps_until(Steps steps, Tick last) {
    for (auto& [key, list] : steps) {
        list.erase(std::remove_if(list.begin(), list.end(), [&](const Step& s) { return s.tick > last; }), list.end());
    }
    return steps;
}

std::string step_text(const std::string& kind, const Step& s) {
    if (kind == "acquires") return fmt::format("at tick {}", s.tick);
    std::string text = fmt::format("at tick {} ({}", s.tick, to_string(s.outcome));
    if (!s.marks.empty()) text += ", " + s.marks;
    return text + ")";
}

std::string times(std::size_t n) { return n == 0 ? "never" : n == 1 ? "once" : fmt::format("{} times", n); }

std::string verb_of(const std::string& kind) {
    return kind == "acquires" ? "acquires" : kind == "releases" ? "releases" : "writes";
}

// The first step where the two lists part, and their counts when they differ.
void compare_steps(const std::string& node, const std::string& kind, const std::vector<Step>& capture,
                   const std::vector<Step>& draft, std::vector<std::string>& out) {
    const std::size_t common = std::min(capture.size(), draft.size());
    for (std::size_t i = 0; i < common; ++i) {
        if (capture[i] == draft[i]) continue;
        out.push_back(fmt::format("{} {} {} in the capture, {} in the draft", node, verb_of(kind),
                                  step_text(kind, capture[i]), step_text(kind, draft[i])));
        break;
    }
    if (capture.size() == draft.size()) return;
    const std::vector<Step>& longer = capture.size() > draft.size() ? capture : draft;
    out.push_back(fmt::format("{} {} {} in the capture, {} in the draft (the first without a match: {} in the {})",
                              node, verb_of(kind), times(capture.size()), times(draft.size()),
                              step_text(kind, longer[common]), capture.size() > draft.size() ? "capture" : "draft"));
}

void compare_violations(const Violations& a, const Violations& b, std::vector<std::string>& out) {
    const std::pair<const char*, std::pair<std::int64_t, std::int64_t>> counts[] = {
        {"overlap", {a.overlap, b.overlap}},
        {"unsafe_write", {a.unsafe_write, b.unsafe_write}},
        {"fencing_regressed", {a.fencing_regressed, b.fencing_regressed}},
        {"stale_after_successor", {a.stale_after_successor, b.stale_after_successor}},
        {"holder_rejected", {a.holder_rejected, b.holder_rejected}},
        {"fencing_duplicate", {a.fencing_duplicate, b.fencing_duplicate}},
    };
    for (const auto& [name, pair] : counts)
        if (pair.first != pair.second)
            out.push_back(fmt::format("{}: {} in the capture, {} in the draft", name, pair.first, pair.second));
}

}  // namespace

void compare_draft(const Trace& imported, Draft& draft, std::int64_t events_max) {
    auto scenario = parse_scenario(draft.json, "draft");
    if (!scenario.ok()) {
        draft.notes.push_back("the draft does not read back as a scenario, so it was not simulated: " +
                              scenario.error().to_string());
        return;
    }
    // Run in stretches of ticks until the end, or until the run has more
    // events than `events_max` (ImportOptions, limits::import_draft_events_max): then the comparison
    // covers the ticks run so far.
    Simulation sim(scenario.value());
    ModelStore store(scenario.value().lock);
    StepSink sink;
    constexpr Tick stretch = 4096;
    Tick until = -1;
    std::optional<Tick> cut;
    Violations violations;
    while (!sim.finished() && !sim.spill_failed()) {
        until += stretch;
        const auto summary = run_to_end(sim, store, sink, {}, until, false);
        LS_ASSERT(summary.ok());  // the model store never fails
        violations = summary.value().violations;
        if (sink.events > events_max && !sim.finished()) {
            cut = until;
            draft.notes.push_back(
                fmt::format("the draft's run has more than {} events: it is compared with the "
                            "history up to tick {} only, and its violations are not compared",
                            events_max, until));
            break;
        }
    }
    const Steps capture = cut ? steps_until(steps_of(imported), *cut) : steps_of(imported);
    const Steps& drafted = sink.steps;
    std::map<std::pair<std::string, std::string>, bool> keys;
    for (const auto& [key, steps] : capture) keys[key] = true;
    for (const auto& [key, steps] : drafted) keys[key] = true;
    const std::vector<Step> none;
    for (const auto& node : imported.header.candidates) {
        for (const char* kind : {"acquires", "releases", "writes"}) {
            const std::pair<std::string, std::string> key{node, kind};
            if (!keys.count(key)) continue;
            const auto a = capture.find(key);
            const auto b = drafted.find(key);
            compare_steps(node, kind, a == capture.end() ? none : a->second, b == drafted.end() ? none : b->second,
                          draft.differences);
        }
    }
    if (!cut) compare_violations(imported.summary.violations, violations, draft.differences);
}

}  // namespace leasescope::sim::import::history_detail
