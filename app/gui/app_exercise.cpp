// The exercises' commands (docs/model.md §18): open one, answer a
// prediction, try knobs or a fault, "Show me", and back to the file's run.
// Every answer is judged by sim/exercise.hpp on the file's own bytes; a try's
// run is shown on the one timeline as an edited scenario.
#include <algorithm>

#include "app.hpp"
#include "core/exercise_input.hpp"
#include "core/glyphs.hpp"
#include "leasescope/words/exercise_words.hpp"

namespace leasescope::gui {

void App::exercises_loaded(const std::string& path, const std::string& bytes, const sim::Scenario& parsed) {
    ExerciseStatus fresh;
    fresh.progress_generation = exercise_.progress_generation + 1;
    // The prompts' and hints' Hangul, for the font atlas.
    for (const sim::Exercise& ex : parsed.exercises)
        for (const std::string* text : {&ex.prompt.ko, &ex.hint.ko})
            if (add_hangul(assets_.hangul, *text)) assets_.fonts_dirty = true;
    if (!parsed.exercises.empty()) {
        auto base = sim::exercise_base(bytes, path);
        if (base.ok()) {
            fresh.base = std::make_shared<const sim::ExerciseBase>(std::move(base).value());
            fresh.base_path = path;
            fresh.done.assign(fresh.count(), false);
            const auto it = exercise_progress_.find(parsed.name);
            if (it != exercise_progress_.end())
                for (int n : it->second)
                    if (n >= 1 && static_cast<std::size_t>(n) <= fresh.done.size())
                        fresh.done[static_cast<std::size_t>(n - 1)] = true;
        }
    }
    // The panel stays open from one file with exercises to the next.
    fresh.open = exercise_.open && fresh.base != nullptr;
    exercise_ = std::move(fresh);
}

void App::set_exercise_progress(const std::string& scenario_name, const std::set<int>& done) {
    exercise_progress_[scenario_name] = done;
    if (!exercise_.base || exercise_.base->scenario.name != scenario_name) return;
    std::fill(exercise_.done.begin(), exercise_.done.end(), false);
    for (int n : done)
        if (n >= 1 && static_cast<std::size_t>(n) <= exercise_.done.size())
            exercise_.done[static_cast<std::size_t>(n - 1)] = true;
}

void App::mark_exercise_done() {
    const auto k = static_cast<std::size_t>(exercise_.current);
    if (exercise_.done[k]) return;
    exercise_.done[k] = true;
    ++exercise_.progress_generation;
    exercise_progress_[exercise_.base->scenario.name].insert(exercise_.current + 1);
    save_settings();
}

// The Exercise panel takes the bottom row: Live, Find, Code and the tour card leave it.
void App::close_bottom_panels() {
    jobs_.live.open = jobs_.find.open = screen_.code_open = false;
    tour_.step = -1;
}

App::After App::on(const command::ExerciseToggle&) {
    exercise_.open = !exercise_.open;
    if (exercise_.open) {
        close_bottom_panels();
        if (exercise_.current < 0 && exercise_.count() > 0) return on(command::ExerciseOpen{0});
    }
    return After::next;
}

App::After App::on(const command::ExerciseOpen& c) {
    if (!exercise_.base || c.index < 0 || static_cast<std::size_t>(c.index) >= exercise_.count()) return After::next;
    const After after = exercise_.showing_try ? on(command::ExerciseBack{}) : After::next;
    const bool again = c.index == exercise_.current;  // "Try again": the hint stays
    exercise_.open = true;
    close_bottom_panels();
    exercise_.current = c.index;
    exercise_.prediction.reset();
    exercise_.answer = -1;
    exercise_.wrong_before = again && exercise_.wrong_before;
    exercise_.written.clear();
    exercise_.budget.reset();
    exercise_.last.reset();
    exercise_.smallest.reset();
    exercise_.error.clear();
    const auto k = static_cast<std::size_t>(c.index);
    const sim::Exercise& ex = *exercise_.exercise();
    if (ex.kind == sim::ExerciseKind::predict) {
        auto p = sim::predict(*exercise_.base, k);
        if (!p.ok()) {
            exercise_.error = p.error().to_string();
            return after;
        }
        exercise_.prediction = std::move(p).value();
        // The state before the tick: the student predicts what the tick does.
        doc_.playing = false;
        seek(std::max<Tick>(0, ex.at - 1));
        doc_.selected_event = -1;
    } else if (ex.kind == sim::ExerciseKind::goal) {
        exercise_.written = sim::written_knobs(*exercise_.base, k);
    } else {
        auto b = sim::fault_budget(*exercise_.base, k);
        if (b.ok())
            exercise_.budget = std::move(b).value();
        else
            exercise_.error = b.error().to_string();
    }
    return after;
}

App::After App::on(const command::ExerciseAnswer& c) {
    const sim::Exercise* ex = exercise_.exercise();
    if (!ex || !exercise_.prediction) return After::next;
    const sim::Prediction& p = *exercise_.prediction;
    if (c.choice < 0 || static_cast<std::size_t>(c.choice) >= p.choices.size()) return After::next;
    exercise_.answer = c.choice;
    if (c.choice == p.right)
        mark_exercise_done();
    else
        exercise_.wrong_before = true;
    // The tick itself now, and the event that decides it in Explain's words.
    doc_.playing = false;
    seek(ex->at);
    if (p.deciding)
        doc_.selected_event = static_cast<std::int32_t>(*p.deciding);
    else if (!p.events.empty())
        doc_.selected_event = static_cast<std::int32_t>(p.events.front());
    return After::next;
}

App::After App::show_try(sim::Attempt attempt, ExerciseTry shown) {
    std::string error;
    if (!rebuild(attempt.scenario, false, error)) {
        exercise_.error = error;
        return After::stop;
    }
    doc_.scenario_path.clear();  // an edited copy: no file behind it
    exercise_.showing_try = true;
    exercise_.error.clear();
    const std::optional<std::size_t> at = attempt.result.evidence ? attempt.result.evidence : attempt.divergence;
    const auto& events = doc_.timeline->trace().events;
    if (at && *at < events.size()) {
        seek(events[*at].tick);
        doc_.selected_event = static_cast<std::int32_t>(*at);
    }
    shown.attempt = std::make_shared<const sim::Attempt>(std::move(attempt));
    exercise_.last = std::move(shown);
    if (!exercise_.last->met()) return After::stop;
    mark_exercise_done();
    // After a met find_fault try the smallest fault that does it is shown too (model.md §18.4 rule 3).
    const sim::Exercise& ex = *exercise_.exercise();
    if (ex.kind == sim::ExerciseKind::find_fault)
        exercise_.smallest = sim::smallest_fault(*exercise_.base, static_cast<std::size_t>(exercise_.current));
    return After::stop;
}

App::After App::on(const command::ExerciseTryKnobs& c) {
    const sim::Exercise* ex = exercise_.exercise();
    if (!ex || ex->kind != sim::ExerciseKind::goal) return After::next;
    auto attempt = sim::try_knobs(*exercise_.base, static_cast<std::size_t>(exercise_.current), c.values);
    if (!attempt.ok()) {
        exercise_.error = attempt.error();  // refused: counts as no try
        return After::next;
    }
    ExerciseTry shown;
    shown.knobs = c.values;
    return show_try(std::move(attempt).value(), std::move(shown));
}

App::After App::on(const command::ExerciseTryFault& c) {
    const sim::Exercise* ex = exercise_.exercise();
    if (!ex || ex->kind != sim::ExerciseKind::find_fault) return After::next;
    auto attempt = sim::try_fault(*exercise_.base, static_cast<std::size_t>(exercise_.current), c.fault);
    if (!attempt.ok()) {
        exercise_.error = attempt.error();
        return After::next;
    }
    ExerciseTry shown;
    shown.fault = c.fault;
    return show_try(std::move(attempt).value(), std::move(shown));
}

App::After App::on(const command::ExerciseShowMe&) {
    const sim::Exercise* ex = exercise_.exercise();
    if (!ex || ex->kind == sim::ExerciseKind::predict) return After::next;
    const auto k = static_cast<std::size_t>(exercise_.current);
    ExerciseTry shown;
    shown.shown = true;
    // The checks (§18.6) refuse a goal nothing in reach meets: said, should a file slip past them.
    if (ex->kind == sim::ExerciseKind::goal) {
        const auto values = sim::solve_knobs(*exercise_.base, k);
        auto attempt = values ? sim::try_knobs(*exercise_.base, k, *values)
                              : Result<sim::Attempt, std::string>(Err<std::string>{
                                    words::solution_words(*exercise_.base, k, values, assets_.strings)});
        if (!attempt.ok()) {
            exercise_.error = attempt.error();
            return After::next;
        }
        shown.knobs = *values;
        return show_try(std::move(attempt).value(), std::move(shown));
    }
    const auto fault = sim::smallest_fault(*exercise_.base, k);
    auto attempt = fault ? sim::try_fault(*exercise_.base, k, *fault)
                         : Result<sim::Attempt, std::string>(
                               Err<std::string>{words::smallest_fault_words(*exercise_.base, fault, assets_.strings)});
    if (!attempt.ok()) {
        exercise_.error = attempt.error();
        return After::next;
    }
    shown.fault = *fault;
    return show_try(std::move(attempt).value(), std::move(shown));
}

App::After App::on(const command::ExerciseBack&) {
    if (!exercise_.base || !exercise_.showing_try) return After::next;
    std::string error;
    if (!rebuild(exercise_.base->scenario, false, error)) {
        exercise_.error = error;
        return After::stop;
    }
    doc_.scenario_path = exercise_.base_path;
    exercise_.showing_try = false;
    return After::stop;
}

std::optional<Command> App::exercise_answer_command(const std::string& value, std::string& error) const {
    const sim::Exercise* ex = exercise_.exercise();
    if (!ex) {
        error = exercise_.error.empty() ? "no exercise is open" : exercise_.error;
        return std::nullopt;
    }
    if (value == "show" && ex->kind != sim::ExerciseKind::predict) return command::ExerciseShowMe{};
    if (ex->kind == sim::ExerciseKind::predict) {
        if (!exercise_.prediction) {
            error = exercise_.error;
            return std::nullopt;
        }
        const auto& choices = exercise_.prediction->choices;
        if (const auto i = choice_index(choices, value)) return command::ExerciseAnswer{*i};
        error = "\"" + value + "\" is not one of the choices:";
        for (const std::string& c : choices) error += " " + c;
        return std::nullopt;
    }
    if (ex->kind == sim::ExerciseKind::goal) {
        if (auto values = knob_indices(ex->knobs, value)) return command::ExerciseTryKnobs{std::move(*values)};
        error = "\"" + value + "\" is not one value per knob, comma-separated, each one of the knob's values (or show)";
        return std::nullopt;
    }
    if (const auto c = parse_fault_controls(value, exercise_.base->scenario)) {
        const FaultControls chosen = exercise_.budget ? with_budget_choice(*c, *exercise_.budget) : *c;
        return command::ExerciseTryFault{fault_of(chosen, exercise_.base->scenario.tick_ms)};
    }
    if (!value.empty() && value.front() == '{') {  // a fault object, as the CLI's answer takes it
        auto fault = fault_from_json(exercise_.base->text, exercise_.base->file, value, error);
        if (fault) return command::ExerciseTryFault{*fault};
        return std::nullopt;
    }
    error = "\"" + value + "\" is not KIND:NODE:AT:LENGTH (e.g. pause:node-a:10:5), a fault object or show";
    return std::nullopt;
}

}  // namespace leasescope::gui
