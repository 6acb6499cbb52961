// predict (docs/model.md §18.2): the choices of a question about tick `at`
// and the one the trace shows right.
#include <algorithm>
#include <set>

#include "exercise_internal.hpp"

namespace leasescope::sim {
namespace {

using exercise_detail::exercise_of;
using exercise_detail::exercise_path;

bool acquired(const Event& e) { return e.op == EventOp::acquire && e.outcome == Outcome::acquired; }

// The highest fencing number the store issued before tick `at` (an acquire
// that carries one, its reply heard or lost), else fencing_start - 1.
Fencing highest_before(const ExerciseBase& base, Tick at) {
    Fencing h = base.scenario.lock.fencing_start - 1;
    for (const Event& e : base.trace.events) {
        if (e.tick >= at) break;
        if (e.op == EventOp::acquire && e.fencing) h = std::max(h, *e.fencing);
    }
    return h;
}

// The built choices of a fencing question (§18.2 item 2): h - 1 … h + 2 that
// are at least fencing_start (the lowest number a lock issues), topped up to four, the right one in place
// of the largest when it is missing; in increasing order.
std::vector<std::string> fencing_choices(const ExerciseBase& base, Tick at, Fencing right) {
    const Fencing h = highest_before(base, at);
    const Fencing floor = base.scenario.lock.fencing_start;
    std::vector<Fencing> numbers;
    for (Fencing n = std::max(h - 1, floor); numbers.size() < 4; ++n) numbers.push_back(n);
    if (std::find(numbers.begin(), numbers.end(), right) == numbers.end()) numbers.back() = right;
    std::sort(numbers.begin(), numbers.end());
    std::vector<std::string> out;
    for (const Fencing n : numbers) out.push_back(std::to_string(n));
    return out;
}

ScenarioError error_at(const ExerciseBase& base, std::string path, std::string message) {
    return ScenarioError{base.file, std::move(path), std::move(message)};
}

// The deciding event and the right value, or an error when the tick lacks the fact.
Result<std::string, ScenarioError> answer_of(const ExerciseBase& base, std::size_t index, Prediction& p) {
    const Exercise& e = exercise_of(base, index);
    const std::string path = exercise_path(index);
    for (const std::size_t i : p.events) {
        const Event& ev = base.trace.events[i];
        const bool mine = ev.node == e.node;
        const bool decides = e.ask == Question::acquirer || e.ask == Question::fencing ? acquired(ev)
                             : e.ask == Question::write                                ? mine && ev.op == EventOp::write
                                                        : mine && ev.op == EventOp::release;
        if (decides) {
            p.deciding = i;
            break;
        }
    }
    if (!p.deciding && e.ask == Question::acquirer) return std::string("nobody");
    if (!p.deciding) {
        const char* what = e.ask == Question::fencing ? "no acquisition"
                           : e.ask == Question::write ? "no write of"
                                                      : "no release of";
        return Err{error_at(base, path + "/at",
                            fmt::format("tick {} has {}{}{}: the trace must hold the asked fact (model.md §18.2)", e.at,
                                        what, e.node.empty() ? "" : " ", e.node))};
    }
    const Event& ev = base.trace.events[*p.deciding];
    switch (e.ask) {
        case Question::acquirer: return ev.node;
        case Question::fencing: return std::to_string(ev.fencing.value_or(0));
        case Question::write: return std::string(ev.outcome == Outcome::accepted ? "accepted" : "rejected");
        case Question::release: return std::string(ev.outcome == Outcome::released ? "released" : "not_released");
    }
    return std::string();
}

std::vector<std::string> choices_of(const ExerciseBase& base, const Exercise& e, const std::string& right) {
    if (!e.choices.empty()) return e.choices;
    switch (e.ask) {
        case Question::acquirer: {
            std::vector<std::string> out;
            for (const Candidate& c : base.scenario.candidates) out.push_back(c.name);
            out.emplace_back("nobody");
            return out;
        }
        case Question::fencing: return fencing_choices(base, e.at, std::stoll(right));
        case Question::write: return {"accepted", "rejected"};
        case Question::release: return {"released", "not_released"};
    }
    return {};
}

}  // namespace

Result<Prediction, ScenarioError> predict(const ExerciseBase& base, std::size_t index) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::predict);
    const std::string path = exercise_path(index);
    Prediction p;
    for (std::size_t i = 0; i < base.trace.events.size(); ++i) {
        if (base.trace.events[i].tick == e.at) p.events.push_back(i);
    }
    auto right = answer_of(base, index, p);
    if (!right.ok()) return Err{right.error()};
    p.choices = choices_of(base, e, right.value());
    for (std::size_t k = 0; k < p.choices.size(); ++k) {
        for (std::size_t j = 0; j < k; ++j) {
            if (p.choices[j] == p.choices[k])
                return Err{error_at(base, fmt::format("{}/choices/{}", path, k),
                                    fmt::format("the choice {} repeats /choices/{}", p.choices[k], j))};
        }
    }
    const auto it = std::find(p.choices.begin(), p.choices.end(), right.value());
    if (it == p.choices.end())
        return Err{
            error_at(base, path + "/choices",
                     fmt::format("the right answer {} (what the trace shows at tick {}) is not among the choices",
                                 right.value(), e.at))};
    p.right = static_cast<std::int32_t>(it - p.choices.begin());
    return p;
}

}  // namespace leasescope::sim
