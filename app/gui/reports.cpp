// The headless app's reports on a live run and a counterexample search (reports.hpp).
#include "reports.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "leasescope/io/exit_codes.hpp"
#include "leasescope/words/counterexample_words.hpp"

namespace leasescope::gui {

int report_live(const App& app) {
    const LiveStatus& s = app.live_status();
    const Strings& t = app.strings();
    const Fields f{{"url", s.url_shown},
                   {"reason", s.message},
                   {"events", std::to_string(s.live_trace.events.size())},
                   {"tick_ms", std::to_string(s.tick_ms)}};
    switch (s.verdict) {
        case LiveVerdict::identical:
            std::printf("live: %s (%s)\n", t.tr("live.identical", f).c_str(), t.tr("live.identical_detail", f).c_str());
            break;
        case LiveVerdict::diverged:
            std::printf("live: %s at event %lld\n%s\n", t.tr("live.diverged", f).c_str(),
                        static_cast<long long>(s.divergence_event), s.message.c_str());
            break;
        case LiveVerdict::void_timing:
            std::printf("live: %s\n%s\n", t.tr("live.void", f).c_str(), s.message.c_str());
            break;
        case LiveVerdict::unreachable: std::printf("live: %s\n", t.tr("live.unreachable", f).c_str()); break;
        case LiveVerdict::failed: std::printf("live: %s\n", t.tr("live.failed", f).c_str()); break;
        case LiveVerdict::bad_input: std::printf("live: %s\n", t.tr("live.bad_input", f).c_str()); break;
        case LiveVerdict::cancelled: std::printf("live: %s\n", t.tr("live.cancelled", f).c_str()); break;
        case LiveVerdict::none:
        case LiveVerdict::running: std::printf("live: %s\n", t.tr("live.unsupported").c_str()); break;
    }
    for (const auto& [tick, late] : s.timing_faults)
        std::printf("live: timing fault at tick %lld: %.1f ms late (not a divergence)\n", static_cast<long long>(tick),
                    late);
    std::fflush(stdout);
    switch (s.verdict) {
        case LiveVerdict::identical: return io::exit_ok;
        case LiveVerdict::diverged: return io::exit_check_failed;
        case LiveVerdict::bad_input: return io::exit_bad_input;
        default: return io::exit_backend;
    }
}

namespace {

// The headless reports are in English, whatever the app's language.
Strings english(const App& app) {
    Strings en = app.strings();
    en.set_lang(Lang::en);
    return en;
}

// The counterexample on screen: its faults and why it fails, and where the playhead stands.
void report_loaded(const App& app, const Strings& en, const char* head) {
    const FindStatus& s = app.find_status();
    const std::vector<std::string> lines = words::fault_lines(s.facts, en);
    std::string faults;
    for (const std::string& f : lines) faults += (faults.empty() ? "" : "; ") + f;
    if (head != nullptr) {
        std::printf("find: %s: %s\n", head, faults.c_str());
    } else {
        std::printf("find: counterexample (%zu added fault%s): %s\n", lines.size(), lines.size() == 1 ? "" : "s",
                    faults.empty() ? "none" : faults.c_str());
    }
    std::printf("find: => %s\n", words::explanation_words(s.facts, en).c_str());
    std::printf("find: loaded %s at tick %lld\n", app.timeline()->scenario().name.c_str(),
                static_cast<long long>(s.violation_tick));
}

// The smallest fault of each kind: a line per kind, as the Find panel words it, then the one on screen.
void report_smallest(const App& app, const Strings& en) {
    const FindStatus& s = app.find_status();
    if (!s.pause_sizes.empty())
        std::printf("find: %s\n", words::budget_words(s.pause_sizes, s.pause_grid, s.tick_ms, en).c_str());
    for (const FindKind& kind : s.kinds) {
        const words::KindAnswer answer{kind.kind, kind.sized, kind.threshold, kind.held, kind.on_grid};
        std::printf("find: %s\n", words::kind_answer_words(answer, s.tick_ms, en).c_str());
    }
    std::printf("find: %llu schedules checked, %llu simulated\n", static_cast<unsigned long long>(s.schedules),
                static_cast<unsigned long long>(s.simulated));
    if (s.found && s.shown >= 0) report_loaded(app, en, "shown");
}

}  // namespace

void report_find(const App& app) {
    const FindStatus& s = app.find_status();
    const Strings en = english(app);
    if (!s.error.empty()) {
        std::printf("find: %s\n", s.error.c_str());
    } else if (s.smallest && !s.base_fails) {
        report_smallest(app, en);
    } else if (s.found) {
        report_loaded(app, en, nullptr);
    } else {
        std::printf("find: no counterexample with up to %d added faults (%llu schedules checked)\n", s.max_faults,
                    static_cast<unsigned long long>(s.schedules));
        std::printf("find: %s\n", words::budget_words(s.pause_sizes, s.pause_grid, s.tick_ms, en).c_str());
    }
    std::fflush(stdout);
}

}  // namespace leasescope::gui

namespace leasescope::gui {

namespace {

// A goal's values or a find_fault's fault, as --exercise-answer writes them.
std::string tried_text(const ExerciseStatus& s, const ExerciseTry& t) {
    const sim::Exercise& ex = *s.exercise();
    std::string out;
    for (std::size_t k = 0; k < t.knobs.size() && k < ex.knobs.size(); ++k)
        out += (k ? "," : "") + ex.knobs[k].values[static_cast<std::size_t>(t.knobs[k])];
    if (t.fault) {
        const auto& nodes = s.base->scenario.candidates;
        const auto n = static_cast<std::size_t>(t.fault->node);
        out = std::string(sim::to_string(t.fault->kind)) + ":" + (n < nodes.size() ? nodes[n].name : "store") + ":" +
              std::to_string(t.fault->at);
    }
    return out;
}

}  // namespace

void report_exercise(const App& app) {
    const ExerciseStatus& s = app.exercise();
    const sim::Exercise* ex = s.exercise();
    const auto done = std::count(s.done.begin(), s.done.end(), true);
    if (!ex) {
        std::printf("exercise: none open (%s)\n", s.error.c_str());
        return;
    }
    std::printf("exercise: %d of %zu (%s), playhead %lld, selected event %d\n", s.current + 1, s.count(),
                sim::to_string(ex->kind), static_cast<long long>(app.playhead()), app.selected_event());
    if (s.prediction && s.answer >= 0) {
        const auto& p = *s.prediction;
        std::printf("exercise: answered %s: %s (the model: %s)\n",
                    p.choices[static_cast<std::size_t>(s.answer)].c_str(), s.answer == p.right ? "right" : "wrong",
                    p.choices[static_cast<std::size_t>(p.right)].c_str());
    } else if (s.prediction) {
        std::printf("exercise: not answered; choices:");
        for (const std::string& c : s.prediction->choices) std::printf(" %s", c.c_str());
        std::printf("\n");
    }
    if (s.last) {
        const ExerciseTry& t = *s.last;
        std::printf(
            "exercise: %s %s: %s; evidence %lld; divergence %lld; violations %lld -> %lld; on the timeline: %s\n",
            t.shown ? "shown" : "tried", tried_text(s, t).c_str(), t.met() ? "met" : "not met",
            t.attempt->result.evidence ? static_cast<long long>(*t.attempt->result.evidence) : -1LL,
            t.attempt->divergence ? static_cast<long long>(*t.attempt->divergence) : -1LL,
            static_cast<long long>(t.attempt->before.total()), static_cast<long long>(t.attempt->after.total()),
            s.showing_try ? "the try's run" : "the file's run");
    }
    if (!s.error.empty()) std::printf("exercise: refused: %s\n", s.error.c_str());
    if (s.smallest)
        std::printf("exercise: smallest fault %s at %lld\n", sim::to_string(s.smallest->kind),
                    static_cast<long long>(s.smallest->at));
    const bool hint = (s.wrong_before || (s.last && !s.last->met())) && !ex->hint.en.empty();
    std::printf("exercise: hint %s; done %lld of %zu\n", hint ? "shown" : "not shown", static_cast<long long>(done),
                s.count());
    std::fflush(stdout);
}

}  // namespace leasescope::gui
