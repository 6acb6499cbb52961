// `leasescope-cli exercise show` and `exercise answer` (cmd_exercise.cpp
// registers them): one exercise shown as the app's Exercise panel shows it,
// and one answer read from the command line, judged by running the model
// (docs/model.md §18) and told in words (exercise_words.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"
#include "leasescope/words/exercise_words.hpp"

namespace leasescope::cli {
namespace {

void print_lines(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) fmt::print("{}\n", line);
}

// An answer quoted in an error, cut to limits::quoted_bytes_max.
std::string quoted(const std::string& text) {
    const auto max = static_cast<std::size_t>(limits::quoted_bytes_max);
    return text.size() <= max ? text : sim::clip_utf8(text, max) + "…";
}

// Every ANSWER is at most json_string_bytes_max bytes, checked before it is parsed.
bool answers_in_limits(const std::vector<std::string>& answer) {
    for (std::size_t n = 0; n < answer.size(); ++n) {
        if (answer[n].size() <= static_cast<std::size_t>(limits::json_string_bytes_max)) continue;
        fmt::print(stderr, "error: ANSWER {}: longer than {} bytes (json_string_bytes_max)\n", n + 1,
                   limits::json_string_bytes_max);
        return false;
    }
    return true;
}

// A value as `--set` reads one: JSON when it parses, else a plain string.
nlohmann::json answer_value(const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_discarded() ? nlohmann::json(text) : j;
}

// The hint after a wrong try, when the file gives one.
void print_hint(const sim::Exercise& ex, const words::Strings& s) {
    const std::string hint = words::exercise_text(ex.hint, s);
    if (!hint.empty()) fmt::print("{}\n", s.tr("exercise.hint_line", {{"hint", hint}}));
}

void show_predict(const sim::ExerciseBase& base, std::size_t k, const sim::Prediction& p, const words::Strings& s) {
    fmt::print("{}\n{}\n", s.tr("exercise.stops_before", {{"at", std::to_string(base.scenario.exercises[k].at)}}),
               s.tr("exercise.choices"));
    for (std::size_t c = 0; c < p.choices.size(); ++c) {
        fmt::print("{}\n", s.tr("exercise.choice_line",
                                {{"number", std::to_string(c + 1)}, {"choice", words::choice_words(p.choices[c], s)}}));
    }
}

void show_knobs(const sim::ExerciseBase& base, std::size_t k, const words::Strings& s) {
    const sim::Exercise& ex = base.scenario.exercises[k];
    const std::vector<std::int32_t> own = sim::written_knobs(base, k);
    fmt::print("{}\n", s.tr("exercise.knobs"));
    for (std::size_t n = 0; n < ex.knobs.size(); ++n) {
        std::string values;
        for (std::size_t v = 0; v < ex.knobs[n].values.size(); ++v) {
            const bool mine = n < own.size() && static_cast<std::size_t>(own[n]) == v;
            values += (v == 0 ? "" : s.tr("exercise.separator")) + (mine ? "*" : "") + ex.knobs[n].values[v];
        }
        fmt::print("{}\n", s.tr("exercise.knob_line", {{"set", ex.knobs[n].set}, {"values", values}}));
    }
}

int show_budget(const sim::ExerciseBase& base, std::size_t k, const words::Strings& s) {
    auto budget = sim::fault_budget(base, k);
    if (!budget.ok()) {
        fmt::print(stderr, "error: {}\n", budget.error().to_string());
        return exit_bad_input;
    }
    const sim::FaultBudget& b = budget.value();
    fmt::print("{}\n", s.tr("exercise.fault_budget",
                            {{"kinds", words::fault_kinds_words(b, s)},
                             {"at_max", std::to_string(b.at_max)},
                             {"ticks_max", std::to_string(b.ticks_max)},
                             {"ticks_word", s.tr(b.ticks_max == 1 ? "explore.tick" : "explore.ticks")}}));
    return exit_ok;
}

// The choice an ANSWER names: a value among the choices first (a fencing
// number is a value), else its number from 1.
std::optional<std::int32_t> choice_index(const sim::Prediction& p, const std::string& text) {
    for (std::size_t c = 0; c < p.choices.size(); ++c)
        if (p.choices[c] == text || (text == "not released" && p.choices[c] == "not_released"))
            return static_cast<std::int32_t>(c);
    const bool digits = !text.empty() && text.size() < 4 && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) return std::nullopt;
    const int n = std::stoi(text);
    if (n < 1 || static_cast<std::size_t>(n) > p.choices.size()) return std::nullopt;
    return static_cast<std::int32_t>(n - 1);
}

int answer_predict(const sim::ExerciseBase& base, std::size_t k, const std::vector<std::string>& answer,
                   const words::Strings& s) {
    auto p = sim::predict(base, k);
    if (!p.ok()) {
        fmt::print(stderr, "error: {}\n", p.error().to_string());
        return exit_bad_input;
    }
    const auto chosen = answer.size() == 1 ? choice_index(p.value(), answer[0]) : std::nullopt;
    if (!chosen) {
        fmt::print(stderr, "error: ANSWER: expected one of the choices {} or its number 1 to {}\n",
                   fmt::join(p.value().choices, ", "), p.value().choices.size());
        return exit_bad_input;
    }
    fmt::print("{}\n", words::prediction_feedback(base, k, p.value(), *chosen, s));
    if (*chosen == p.value().right) return exit_ok;
    print_hint(base.scenario.exercises[k], s);
    return exit_check_failed;
}

// Each ANSWER's index among its knob's values; nullopt after an error.
std::optional<std::vector<std::int32_t>> knob_indices(const sim::Exercise& ex, const std::vector<std::string>& answer) {
    if (answer.size() != ex.knobs.size()) {
        fmt::print(stderr, "error: ANSWER: expected {} value{}, one per knob ({}), got {}\n", ex.knobs.size(),
                   ex.knobs.size() == 1 ? "" : "s", ex.knobs.front().set, answer.size());
        return std::nullopt;
    }
    std::vector<std::int32_t> out;
    for (std::size_t n = 0; n < ex.knobs.size(); ++n) {
        const nlohmann::json given = answer_value(answer[n]);
        const auto& values = ex.knobs[n].values;
        std::size_t v = 0;
        while (v < values.size() && answer_value(values[v]) != given) ++v;
        if (v == values.size()) {
            fmt::print(stderr, "error: ANSWER {}: {} is not among the values of {}: {}\n", n + 1, quoted(answer[n]),
                       ex.knobs[n].set, fmt::join(values, ", "));
            return std::nullopt;
        }
        out.push_back(static_cast<std::int32_t>(v));
    }
    return out;
}

// The feedback of a try and its exit code: 0 met, 1 not met (then the hint).
int report_attempt(const sim::ExerciseBase& base, std::size_t k, const sim::Attempt& a, const words::Strings& s) {
    print_lines(words::attempt_lines(base, k, a, s));
    if (a.result.met) return exit_ok;
    print_hint(base.scenario.exercises[k], s);
    return exit_check_failed;
}

int answer_goal(const sim::ExerciseBase& base, std::size_t k, const std::vector<std::string>& answer,
                const words::Strings& s) {
    const sim::Exercise& ex = base.scenario.exercises[k];
    const auto values = knob_indices(ex, answer);
    if (!values) return exit_bad_input;
    auto attempt = sim::try_knobs(base, k, *values);
    if (!attempt.ok()) {
        fmt::print(stderr, "error: {}: {}\n", base.file, attempt.error());
        return exit_bad_input;
    }
    fmt::print("{}\n", s.tr("exercise.your_values", {{"knobs", words::knob_values_words(ex, *values, s)}}));
    return report_attempt(base, k, attempt.value(), s);
}

// The fault an ANSWER writes, read as the file's own faults are: appended to
// the file's "faults" and parsed with it (model.md §7 and §11 say what is valid).
std::optional<sim::Fault> parse_answer_fault(const sim::ExerciseBase& base, const std::string& text) {
    const nlohmann::ordered_json fault = nlohmann::ordered_json::parse(text, nullptr, false);
    if (fault.is_discarded() || !fault.is_object()) {
        fmt::print(stderr,
                   "error: ANSWER: expected one fault as a JSON object, e.g. "
                   "'{{\"kind\":\"pause\",\"node\":\"node-a\",\"at\":3,\"ticks\":8}}'\n");
        return std::nullopt;
    }
    nlohmann::ordered_json file = nlohmann::ordered_json::parse(base.text, nullptr, false, true);
    if (file.is_discarded() || !file.is_object()) return std::nullopt;  // exercise_base parsed it already
    if (!file.contains("faults")) file["faults"] = nlohmann::ordered_json::array();
    const std::string at = "/faults/" + std::to_string(file["faults"].size());
    file["faults"].push_back(fault);
    auto parsed = sim::parse_scenario(file.dump(), base.file);
    if (!parsed.ok()) {
        const std::string& where = parsed.error().where;
        const std::string in = where.rfind(at, 0) == 0 ? "ANSWER" + where.substr(at.size()) : where;
        fmt::print(stderr, "error: {}: {}\n", in, parsed.error().message);
        return std::nullopt;
    }
    return parsed.value().faults.back();
}

int answer_fault(const sim::ExerciseBase& base, std::size_t k, const std::vector<std::string>& answer,
                 const words::Strings& s) {
    if (answer.size() != 1) {
        fmt::print(stderr, "error: ANSWER: expected one fault object, got {} arguments\n", answer.size());
        return exit_bad_input;
    }
    const auto fault = parse_answer_fault(base, answer[0]);
    if (!fault) return exit_bad_input;
    auto attempt = sim::try_fault(base, k, *fault);
    if (!attempt.ok()) {
        fmt::print(stderr, "error: {}: {}\n", base.file, attempt.error());
        return exit_bad_input;
    }
    fmt::print("{}\n", s.tr("exercise.your_fault", {{"fault", words::added_fault_words(base.scenario, *fault, s)}}));
    const int code = report_attempt(base, k, attempt.value(), s);
    // After a met try the smallest fault is shown (model.md §18.4 rule 3).
    if (code == exit_ok) fmt::print("{}\n", words::smallest_fault_words(base, sim::smallest_fault(base, k), s));
    return code;
}

}  // namespace

int exercise_show(const sim::ExerciseBase& base, std::size_t k, const words::Strings& s) {
    const sim::Exercise& ex = base.scenario.exercises[k];
    fmt::print("{} — {}\n{}\n",
               s.tr("exercise.number",
                    {{"number", std::to_string(k + 1)}, {"count", std::to_string(base.scenario.exercises.size())}}),
               words::exercise_kind_words(ex.kind, s), words::exercise_text(ex.prompt, s));
    if (ex.kind == sim::ExerciseKind::predict) {
        auto p = sim::predict(base, k);
        if (!p.ok()) {
            fmt::print(stderr, "error: {}\n", p.error().to_string());
            return exit_bad_input;
        }
        show_predict(base, k, p.value(), s);
        return exit_ok;
    }
    fmt::print("{}\n", s.tr("exercise.goal", {{"condition", words::condition_words(ex.goal, s)}}));
    if (ex.kind == sim::ExerciseKind::goal) {
        show_knobs(base, k, s);
        return exit_ok;
    }
    return show_budget(base, k, s);
}

int exercise_answer(const sim::ExerciseBase& base, std::size_t k, const std::vector<std::string>& answer,
                    const words::Strings& s) {
    if (!answers_in_limits(answer)) return exit_bad_input;
    switch (base.scenario.exercises[k].kind) {
        case sim::ExerciseKind::predict: return answer_predict(base, k, answer, s);
        case sim::ExerciseKind::goal: return answer_goal(base, k, answer, s);
        case sim::ExerciseKind::find_fault: return answer_fault(base, k, answer, s);
    }
    return exit_bad_input;
}

}  // namespace leasescope::cli
