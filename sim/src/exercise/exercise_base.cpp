// An exercise's base (the file as it stands, run once), the conditions of a
// goal (docs/model.md §18.5) and a try's feedback (§18.3 item 3).
#include <algorithm>

#include "exercise_internal.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

Result<ExerciseBase, ScenarioError> exercise_base(std::string text, std::string file) {
    auto parsed = parse_scenario(text, file);
    if (!parsed.ok()) return Err{parsed.error()};
    ExerciseBase base{std::move(text), std::move(file), std::move(parsed).value(), Trace{}};
    base.trace = simulate(base.scenario);
    return base;
}

namespace {

using Index = std::optional<std::size_t>;

template <class Pred>
Index first_event(const Trace& trace, Pred pred) {
    const auto it = std::find_if(trace.events.begin(), trace.events.end(), pred);
    if (it == trace.events.end()) return std::nullopt;
    return static_cast<std::size_t>(it - trace.events.begin());
}

// The first event that carries a violation's detail word (§18.5 item 1).
Index first_with(const Trace& trace, Detail word) {
    return first_event(trace, [word](const Event& e) { return e.details.has(word); });
}

// The evidence of a property's failure, or none when the trace shows none.
Index property_failure(GoalProperty p, const Trace& trace) {
    const Violations& v = trace.summary.violations;
    switch (p) {
        case GoalProperty::overlap:
            if (v.overlap == 0) return std::nullopt;
            return first_event(trace, [](const Event& e) { return e.op == EventOp::overlap_begin; });
        case GoalProperty::unsafe_write: return v.unsafe_write > 0 ? first_with(trace, Detail::unsafe_write) : Index{};
        case GoalProperty::fencing_regressed:
            return v.fencing_regressed > 0 ? first_with(trace, Detail::fencing_regressed) : Index{};
        case GoalProperty::stale_after_successor:
            return v.stale_after_successor > 0 ? first_with(trace, Detail::stale_after_successor) : Index{};
        case GoalProperty::holder_rejected:
            return v.holder_rejected > 0 ? first_with(trace, Detail::holder_rejected) : Index{};
        case GoalProperty::fencing_duplicate:
            return v.fencing_duplicate > 0 ? first_with(trace, Detail::fencing_duplicate) : Index{};
        case GoalProperty::liveness: {
            const bool elected = std::any_of(trace.summary.results.begin(), trace.summary.results.end(),
                                             [](const RunSummary& r) { return r.result == "elected"; });
            if (elected) return std::nullopt;
            return trace.events.empty() ? Index{} : Index{trace.events.size() - 1};
        }
        case GoalProperty::stale_write:
            return first_event(trace, [](const Event& e) {
                return e.op == EventOp::write && e.outcome == Outcome::accepted && e.details.has(Detail::stale);
            });
    }
    return std::nullopt;
}

// Whether the property fails: its evidence, except liveness on an empty trace.
bool property_fails(GoalProperty p, const Trace& trace, const Index& evidence) {
    if (p != GoalProperty::liveness) return evidence.has_value();
    return std::none_of(trace.summary.results.begin(), trace.summary.results.end(),
                        [](const RunSummary& r) { return r.result == "elected"; });
}

}  // namespace

ConditionResult evaluate(const Condition& c, const Scenario&, const Trace& trace) {
    ConditionResult out;
    switch (c.kind) {
        case ConditionKind::holds:
        case ConditionKind::fails: {
            out.evidence = property_failure(c.property, trace);
            const bool fails = property_fails(c.property, trace, out.evidence);
            out.met = c.kind == ConditionKind::fails ? fails : !fails;
            return out;
        }
        case ConditionKind::acquires:
        case ConditionKind::never_acquires:
            out.evidence = first_event(trace, [&](const Event& e) {
                return e.op == EventOp::acquire && e.outcome == Outcome::acquired && e.node == c.node;
            });
            out.met = out.evidence.has_value() == (c.kind == ConditionKind::acquires);
            return out;
        case ConditionKind::write_rejected:
            out.evidence = first_event(trace, [&](const Event& e) {
                return e.op == EventOp::write && e.outcome == Outcome::rejected && e.node == c.node;
            });
            out.met = out.evidence.has_value();
            return out;
    }
    return out;
}

namespace exercise_detail {

Attempt attempt_of(const ExerciseBase& base, const Condition& goal, Scenario scenario) {
    Attempt a;
    a.trace = simulate(scenario);
    a.result = evaluate(goal, scenario, a.trace);
    a.scenario = std::move(scenario);
    a.before = base.trace.summary.violations;
    a.after = a.trace.summary.violations;
    if (const auto d = first_divergence(base.trace, a.trace)) {
        // The header differs (another candidate list): the run differs from its first event.
        const std::size_t index = d->index < 0 ? 0 : static_cast<std::size_t>(d->index);
        if (index < a.trace.events.size()) a.divergence = index;
    }
    return a;
}

}  // namespace exercise_detail
}  // namespace leasescope::sim
