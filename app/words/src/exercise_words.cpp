// Exercises in words (see exercise_words.hpp): keys of the "exercise."
// family filled with the facts of a prediction or a try. Every sentence names
// what the trace shows (a tick, a node, a fencing number, an event), never a
// stored answer (model.md §18).
#include "leasescope/words/exercise_words.hpp"

#include <algorithm>

#include "leasescope/words/counterexample_words.hpp"
#include "leasescope/words/words.hpp"

namespace leasescope::words {
namespace {

std::string join_texts(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

std::string opt_number(const std::optional<Fencing>& value) {
    return value ? std::to_string(*value) : std::string("?");
}

const sim::Exercise& exercise_of(const sim::ExerciseBase& base, std::size_t exercise) {
    return base.scenario.exercises.at(exercise);
}

// A fact's key, with "_unfenced" when the event has no fencing number (a
// Redisson lock, model.md §21.6): "with fencing ?" would tell nothing.
std::string fenced_key(const char* key, const sim::Event& e) {
    return e.fencing ? std::string(key) : std::string(key) + "_unfenced";
}

// "at tick 6 the resource accepts node-a's write with fencing 3."
std::string write_fact(const sim::Event& e, const Strings& s) {
    const Fields fields{{"tick", std::to_string(e.tick)}, {"node", e.node}, {"fencing", opt_number(e.fencing)}};
    return s.tr(
        fenced_key(
            e.outcome == sim::Outcome::accepted ? "exercise.fact.write_accepted" : "exercise.fact.write_rejected", e),
        fields);
}

// "at tick 9 node-a's release deletes its record." / "… deletes nothing: <outcome>."
std::string release_fact(const sim::Event& e, const Strings& s) {
    const Fields fields{{"tick", std::to_string(e.tick)}, {"node", e.node}, {"outcome", outcome_words(e, s)}};
    return s.tr(e.outcome == sim::Outcome::released ? "exercise.fact.released" : "exercise.fact.not_released", fields);
}

// One (property, before, after) line item.
struct Count {
    const char* key;
    std::int64_t before, after;
};

std::string violation_words(const sim::Violations& before, const sim::Violations& after, const Strings& s) {
    const std::vector<Count> counts{
        {"exercise.what.overlap", before.overlap, after.overlap},
        {"exercise.what.unsafe_write", before.unsafe_write, after.unsafe_write},
        {"exercise.what.fencing_regressed", before.fencing_regressed, after.fencing_regressed},
        {"exercise.what.stale_after_successor", before.stale_after_successor, after.stale_after_successor},
        {"exercise.what.holder_rejected", before.holder_rejected, after.holder_rejected},
        {"exercise.what.fencing_duplicate", before.fencing_duplicate, after.fencing_duplicate}};
    std::vector<std::string> items;
    for (const Count& c : counts) {
        if (c.before == 0 && c.after == 0) continue;
        items.push_back(
            s.tr("exercise.violation_item",
                 {{"what", s.tr(c.key)}, {"before", std::to_string(c.before)}, {"after", std::to_string(c.after)}}));
    }
    if (items.empty()) return s.tr("exercise.violations_none");
    return s.tr("exercise.violations", {{"items", join_texts(items, s.tr("exercise.separator"))}});
}

std::string event_at_words(const char* key, const sim::Trace& trace, std::size_t index, const Strings& s) {
    const sim::Event& e = trace.events.at(index);
    return s.tr(key, {{"tick", std::to_string(e.tick)}, {"event", describe_event(e, s, trace.header)}});
}

// The event that shows the condition's fact (model.md §18.5): what meets the
// goal, or what stands in its way (a violation, an acquisition); without one,
// the absence that decides it, or for liveness that some run ends elected.
std::string evidence_line(const sim::Condition& goal, const sim::Attempt& a, const Strings& s) {
    if (a.result.evidence) {
        return event_at_words(a.result.met ? "exercise.evidence" : "exercise.evidence_against", a.trace,
                              *a.result.evidence, s);
    }
    const bool liveness = (goal.kind == sim::ConditionKind::holds || goal.kind == sim::ConditionKind::fails) &&
                          goal.property == sim::GoalProperty::liveness;
    const auto& results = a.trace.summary.results;
    const bool elected =
        std::any_of(results.begin(), results.end(), [](const sim::RunSummary& r) { return r.result == "elected"; });
    if (liveness && elected) return s.tr("exercise.evidence_elected");
    return s.tr(a.result.met ? "exercise.evidence_none_met" : "exercise.evidence_none");
}

}  // namespace

std::string exercise_text(const sim::ExerciseText& text, const Strings& s) {
    return s.lang() == Lang::ko && !text.ko.empty() ? text.ko : text.en;
}

std::string exercise_kind_words(sim::ExerciseKind kind, const Strings& s) {
    return s.tr(std::string("exercise.kind.") + sim::to_string(kind));
}

std::string progress_words(std::int64_t done, std::int64_t count, const Strings& s) {
    return s.tr("exercise.progress", {{"done", std::to_string(done)}, {"count", std::to_string(count)}});
}

std::string choice_words(const std::string& value, const Strings& s) {
    if (value == "nobody") return s.tr("exercise.choice.nobody");
    if (value == "accepted") return s.tr("exercise.choice.accepted");
    if (value == "rejected") return s.tr("exercise.choice.rejected");
    if (value == "released") return s.tr("exercise.choice.released");
    if (value == "not_released") return s.tr("exercise.choice.not_released");
    return value;  // a node name or a fencing number
}

std::string condition_words(const sim::Condition& c, const Strings& s) {
    switch (c.kind) {
        case sim::ConditionKind::holds:
        case sim::ConditionKind::fails:
            return s.tr(std::string("exercise.cond.") + sim::to_string(c.kind) + "." + sim::to_string(c.property));
        case sim::ConditionKind::acquires: return s.tr("exercise.cond.acquires", {{"node", c.node}});
        case sim::ConditionKind::never_acquires: return s.tr("exercise.cond.never_acquires", {{"node", c.node}});
        case sim::ConditionKind::write_rejected: return s.tr("exercise.cond.write_rejected", {{"node", c.node}});
    }
    return {};
}

std::string knob_values_words(const sim::Exercise& ex, const std::vector<std::int32_t>& values, const Strings& s) {
    std::vector<std::string> items;
    for (std::size_t k = 0; k < ex.knobs.size() && k < values.size(); ++k) {
        const sim::Knob& knob = ex.knobs[k];
        const auto v = static_cast<std::size_t>(values[k]);
        items.push_back(
            s.tr("exercise.knob_value", {{"set", knob.set}, {"value", v < knob.values.size() ? knob.values[v] : "?"}}));
    }
    return join_texts(items, s.tr("exercise.separator"));
}

std::string added_fault_words(const sim::Scenario& scenario, const sim::Fault& fault, const Strings& s) {
    std::string name;
    if (fault.node >= 0 && static_cast<std::size_t>(fault.node) < scenario.candidates.size())
        name = scenario.candidates[static_cast<std::size_t>(fault.node)].name;
    // A Redlock store's restart or clock jump names its store (model.md §20).
    if (fault.store >= 0 && static_cast<std::size_t>(fault.store) < scenario.stores.size())
        name = scenario.stores[static_cast<std::size_t>(fault.store)];
    return fault_words(sim::added_fault(scenario, fault, std::move(name)), s);
}

std::string fault_kinds_words(const sim::FaultBudget& budget, const Strings& s) {
    std::vector<std::string> kinds;
    for (const sim::FaultKind kind : budget.kinds) {
        std::string word = s.tr(std::string("exercise.fault_kind.") + sim::to_string(kind));
        if (kind == sim::FaultKind::partition && !budget.partition_modes.empty()) {
            std::vector<std::string> modes;
            for (const sim::PartitionMode m : budget.partition_modes) modes.emplace_back(sim::to_string(m));
            word += " (" + join_texts(modes, s.tr("exercise.separator")) + ")";
        }
        kinds.push_back(std::move(word));
    }
    return join_texts(kinds, s.tr("exercise.separator"));
}

std::string prediction_fact(const sim::ExerciseBase& base, std::size_t exercise, const sim::Prediction& p,
                            const Strings& s) {
    const sim::Exercise& ex = exercise_of(base, exercise);
    if (!p.deciding) return s.tr("exercise.fact.nobody", {{"tick", std::to_string(ex.at)}});
    const sim::Event& e = base.trace.events.at(*p.deciding);
    switch (ex.ask) {
        case sim::Question::write: return write_fact(e, s);
        case sim::Question::release: return release_fact(e, s);
        case sim::Question::acquirer:
        case sim::Question::fencing: break;
    }
    return s.tr(fenced_key("exercise.fact.acquired", e),
                {{"tick", std::to_string(e.tick)}, {"node", e.node}, {"fencing", opt_number(e.fencing)}});
}

std::string prediction_feedback(const sim::ExerciseBase& base, std::size_t exercise, const sim::Prediction& p,
                                std::int32_t chosen, const Strings& s) {
    const std::string fact = prediction_fact(base, exercise, p, s);
    if (chosen == p.right) return s.tr("exercise.predict.right", {{"fact", fact}});
    const auto k = static_cast<std::size_t>(chosen);
    const std::string choice = k < p.choices.size() ? choice_words(p.choices[k], s) : "?";
    return s.tr("exercise.predict.wrong", {{"choice", choice}, {"fact", fact}});
}

std::vector<std::string> attempt_lines(const sim::ExerciseBase& base, std::size_t exercise, const sim::Attempt& a,
                                       const Strings& s) {
    const sim::Exercise& ex = exercise_of(base, exercise);
    std::vector<std::string> lines;
    const std::string goal = condition_words(ex.goal, s);
    lines.push_back(s.tr(a.result.met ? "exercise.goal_met" : "exercise.goal_not_met", {{"condition", goal}}));
    lines.push_back(evidence_line(ex.goal, a, s));
    if (a.divergence && *a.divergence < a.trace.events.size()) {
        lines.push_back(event_at_words("exercise.divergence", a.trace, *a.divergence, s));
    } else if (a.divergence) {
        lines.push_back(s.tr("exercise.divergence_shorter"));
    } else {
        lines.push_back(s.tr("exercise.divergence_none"));
    }
    lines.push_back(violation_words(a.before, a.after, s));
    return lines;
}

std::string solution_words(const sim::ExerciseBase& base, std::size_t exercise,
                           const std::optional<std::vector<std::int32_t>>& values, const Strings& s) {
    if (!values) return s.tr("exercise.no_solution");
    return s.tr("exercise.solution", {{"knobs", knob_values_words(exercise_of(base, exercise), *values, s)}});
}

std::string smallest_fault_words(const sim::ExerciseBase& base, const std::optional<sim::Fault>& fault,
                                 const Strings& s) {
    if (!fault) return s.tr("exercise.no_fault");
    return s.tr("exercise.smallest_fault", {{"fault", added_fault_words(base.scenario, *fault, s)}});
}

}  // namespace leasescope::words
