// The headless app's reports on a live run and a counterexample search (reports.hpp).
#include "reports.hpp"

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

void report_find(const App& app) {
    const FindStatus& s = app.find_status();
    if (!s.error.empty()) {
        std::printf("find: %s\n", s.error.c_str());
    } else if (s.found) {
        Strings en = app.strings();
        en.set_lang(Lang::en);
        std::string faults;
        const std::vector<std::string> lines = words::fault_lines(s.facts, en);
        for (const std::string& f : lines) faults += (faults.empty() ? "" : "; ") + f;
        std::printf("find: counterexample (%zu added fault%s): %s\n", lines.size(), lines.size() == 1 ? "" : "s",
                    faults.empty() ? "none" : faults.c_str());
        std::printf("find: => %s\n", words::explanation_words(s.facts, en).c_str());
        std::printf("find: loaded %s at tick %lld\n", app.timeline()->scenario().name.c_str(),
                    static_cast<long long>(s.violation_tick));
    } else {
        std::printf("find: no counterexample with up to %d added faults (%llu schedules checked)\n", s.max_faults,
                    static_cast<unsigned long long>(s.schedules));
    }
    std::fflush(stdout);
}

}  // namespace leasescope::gui
