// `leasescope-cli exercise check|list|show|answer`: a scenario file's
// exercises (docs/model.md §18, docs/exercises.md) checked, listed, shown and
// answered, in the words of the app's Exercise panel (leasescope::words,
// exercise_words.hpp). Every answer is judged by running the model.
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/words/exercise_words.hpp"

namespace leasescope::cli {
namespace {

struct ExerciseOptions {
    std::vector<std::string> paths;
    std::string path;
    std::int64_t number = 0;  // 1-based, as links name it
    std::vector<std::string> answer;
    bool answers = false;
    std::string lang = "en";
    std::string assets_dir;
};

// The file parsed (every error on stderr, as validate prints them) and its run.
std::optional<sim::ExerciseBase> load_exercise_base(const std::string& path) {
    auto text = read_file(path, limits::scenario_bytes_max, "scenario_bytes_max");
    if (!text) return std::nullopt;
    auto parsed = sim::parse_scenario_all_errors(*text, path);
    if (!parsed.ok()) {
        for (const sim::ScenarioError& e : parsed.error()) fmt::print(stderr, "error: {}\n", e.to_string());
        return std::nullopt;
    }
    auto base = sim::exercise_base(std::move(*text), path);
    if (!base.ok()) {
        fmt::print(stderr, "error: {}\n", base.error().to_string());
        return std::nullopt;
    }
    return std::move(base).value();
}

// The exercise index a JSON path names ("/exercises/2/choices" → 2), or none.
std::optional<std::size_t> exercise_of_path(const std::string& where) {
    static const std::string prefix = "/exercises/";
    if (where.rfind(prefix, 0) != 0) return std::nullopt;
    std::size_t k = prefix.size(), index = 0;
    if (k >= where.size() || where[k] < '0' || where[k] > '9') return std::nullopt;
    for (; k < where.size() && where[k] >= '0' && where[k] <= '9'; ++k) index = index * 10 + (where[k] - '0');
    return index;
}

bool load_exercise_strings(const ExerciseOptions& o, words::Strings& strings) {
    if (!read_string_tables(find_assets_dir(o.assets_dir), strings)) return false;
    strings.set_lang(words::lang_from_code(o.lang));
    return true;
}

// The exercise that N names, or nullopt after an error on stderr.
std::optional<std::size_t> exercise_index(const sim::ExerciseBase& base, std::int64_t number) {
    const auto count = static_cast<std::int64_t>(base.scenario.exercises.size());
    if (count == 0) {
        fmt::print(stderr, "error: {}: the file has no exercises\n", base.file);
        return std::nullopt;
    }
    if (number < 1 || number > count) {
        fmt::print(stderr, "error: {}: exercise {}: the file has exercises 1 to {}\n", base.file, number, count);
        return std::nullopt;
    }
    return static_cast<std::size_t>(number - 1);
}

// The right answer in words, for `check --answers`.
std::string answer_words(const sim::ExerciseBase& base, std::size_t k, const words::Strings& s) {
    const sim::Exercise& ex = base.scenario.exercises[k];
    switch (ex.kind) {
        case sim::ExerciseKind::predict: {
            auto p = sim::predict(base, k);
            if (!p.ok()) return p.error().to_string();
            return words::choice_words(p.value().choices[static_cast<std::size_t>(p.value().right)], s) + " — " +
                   words::prediction_fact(base, k, p.value(), s);
        }
        case sim::ExerciseKind::goal: return words::solution_words(base, k, sim::solve_knobs(base, k), s);
        case sim::ExerciseKind::find_fault: return words::smallest_fault_words(base, sim::smallest_fault(base, k), s);
    }
    return {};
}

// One file's lines: one per exercise; its problems on stderr. False when it has any.
bool check_exercise_file(const std::string& path, bool answers, const words::Strings& s) {
    const auto base = load_exercise_base(path);
    if (!base) {
        fmt::print("FAIL {}: not a valid scenario\n", path);
        return false;
    }
    const std::vector<sim::ScenarioError> problems = sim::check_exercises(*base);
    const auto& exercises = base->scenario.exercises;
    std::vector<std::size_t> counts(exercises.size(), 0);
    for (const sim::ScenarioError& e : problems) {
        fmt::print(stderr, "error: {}\n", e.to_string());
        if (auto k = exercise_of_path(e.where); k && *k < counts.size()) ++counts[*k];
    }
    if (exercises.empty()) fmt::print("ok   {}: no exercises\n", path);
    for (std::size_t k = 0; k < exercises.size(); ++k) {
        const std::string head = fmt::format("{} #{} {}", path, k + 1, sim::to_string(exercises[k].kind));
        if (counts[k] > 0) {
            fmt::print("FAIL {}: {} problem{}\n", head, counts[k], counts[k] == 1 ? "" : "s");
            continue;
        }
        std::string line = fmt::format("ok   {}: {}", head, words::exercise_text(exercises[k].prompt, s));
        if (answers) line += " => " + answer_words(*base, k, s);
        fmt::print("{}\n", line);
    }
    return problems.empty();
}

int run_exercise_check(const ExerciseOptions& o) {
    words::Strings strings;
    if (!load_exercise_strings(o, strings)) return exit_bad_input;
    bool sound = true;
    for (const std::string& path : o.paths) sound = check_exercise_file(path, o.answers, strings) && sound;
    return sound ? exit_ok : exit_bad_input;
}

int run_exercise_list(const ExerciseOptions& o) {
    words::Strings s;
    if (!load_exercise_strings(o, s)) return exit_bad_input;
    const auto base = load_exercise_base(o.path);
    if (!base) return exit_bad_input;
    const auto& exercises = base->scenario.exercises;
    for (std::size_t k = 0; k < exercises.size(); ++k) {
        fmt::print("{:>2}. {:<16} {}\n", k + 1, words::exercise_kind_words(exercises[k].kind, s),
                   words::exercise_text(exercises[k].prompt, s));
    }
    if (exercises.empty()) fmt::print(stderr, "{}: no exercises\n", o.path);
    return exit_ok;
}

}  // namespace

std::vector<std::string> exercise_problems(const std::string& path) {
    std::vector<std::string> out;
    auto text = read_file(path, limits::scenario_bytes_max, "scenario_bytes_max");
    if (!text) return {fmt::format("{}: cannot read the file", path)};
    auto base = sim::exercise_base(std::move(*text), path);
    if (!base.ok()) return {base.error().to_string()};
    if (base.value().scenario.exercises.empty()) return out;
    for (const sim::ScenarioError& e : sim::check_exercises(base.value())) out.push_back(e.to_string());
    return out;
}

namespace {

int cmd_show_or_answer(const ExerciseOptions& o, bool answer) {
    words::Strings s;
    if (!load_exercise_strings(o, s)) return exit_bad_input;
    const auto base = load_exercise_base(o.path);
    if (!base) return exit_bad_input;
    const auto k = exercise_index(*base, o.number);
    if (!k) return exit_bad_input;
    return answer ? exercise_answer(*base, *k, o.answer, s) : exercise_show(*base, *k, s);
}

void add_exercise_options(CLI::App* cmd, ExerciseOptions& o) {
    cmd->add_option("--lang", o.lang, "Language: en or ko")->check(CLI::IsMember({"en", "ko"}))->capture_default_str();
    cmd->add_option("--assets", o.assets_dir,
                    "Folder with i18n/ (default: $LEASESCOPE_ASSETS, ./assets, or the source tree's)");
}

}  // namespace

void add_exercise_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<ExerciseOptions>();
    auto* cmd = app.add_subcommand("exercise",
                                   "Check, list, show and answer a scenario file's exercises "
                                   "(docs/exercises.md)");
    cmd->require_subcommand(1);
    auto* check = cmd->add_subcommand(
        "check",
        "Check every exercise (model.md §18.6): one line per exercise; exit 0 all sound, 2 any problem "
        "(each on stderr with its file and JSON path)");
    check->add_option("FILE", o->paths, "Scenario files")->required();
    check->add_flag("--answers", o->answers,
                    "Also print the right choice, the nearest values that meet the goal, or the smallest fault");
    add_exercise_options(check, *o);
    check->callback([o, &exit_code] { exit_code = run_exercise_check(*o); });

    auto* list = cmd->add_subcommand("list", "List a file's exercises: number, kind, prompt");
    list->add_option("FILE", o->path, "Scenario file")->required();
    add_exercise_options(list, *o);
    list->callback([o, &exit_code] { exit_code = run_exercise_list(*o); });

    auto* show = cmd->add_subcommand(
        "show", "Show exercise N: the prompt, then the choices, the knobs with their values, or the fault budget");
    show->add_option("FILE", o->path, "Scenario file")->required();
    show->add_option("N", o->number, "Exercise number (from 1)")
        ->required()
        ->check(integer_in(1, limits::exercises_max));
    add_exercise_options(show, *o);
    show->callback([o, &exit_code] { exit_code = cmd_show_or_answer(*o, false); });

    auto* answer = cmd->add_subcommand(
        "answer",
        "Answer exercise N and print the feedback; exit 0 right or met, 1 wrong or not met, 2 bad input. ANSWER: "
        "predict, a choice or its number; goal, one JSON value per knob in order; find_fault, one fault as a "
        "scenario fault object, e.g. '{\"kind\":\"pause\",\"node\":\"node-a\",\"at\":3,\"ticks\":8}'");
    answer->add_option("FILE", o->path, "Scenario file")->required();
    answer->add_option("N", o->number, "Exercise number (from 1)")
        ->required()
        ->check(integer_in(1, limits::exercises_max));
    answer->add_option("ANSWER", o->answer, "The answer")->required();
    add_exercise_options(answer, *o);
    answer->callback([o, &exit_code] { exit_code = cmd_show_or_answer(*o, true); });
}

}  // namespace leasescope::cli
