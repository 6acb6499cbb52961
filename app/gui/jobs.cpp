// The app's background work: a live run on a worker thread and a counterexample search stepped per frame (jobs.hpp).
#include "jobs.hpp"

#include <fmt/format.h>

#include "leasescope/words/counterexample_words.hpp"

#include "core/trace_lanes.hpp"

#ifdef LEASESCOPE_HAVE_LIVE
#include "leasescope/live/live_driver.hpp"
#endif

namespace leasescope::gui {

#ifdef LEASESCOPE_HAVE_LIVE
bool live_supported() { return true; }

struct LiveJob::Outcome {
    live::LiveReport report;
    std::optional<live::Comparison> comparison;
};

LiveJob::LiveJob(const sim::Scenario& scenario, std::string url, std::int64_t tick_ms)
    : resource_(scenario.resource), outcome_(std::make_unique<Outcome>()) {
    // The thread owns copies of everything it reads; it writes only `outcome_`
    // and the atomics, and `done_` publishes the outcome.
    thread_ = std::thread([this, scenario, url = std::move(url), tick_ms] {
        live::LiveOptions options;
        options.redis_url = url;
        // The addresses given, as the CLI's --redis list: the app has one, so
        // run_live tells a Redlock run it needs one per store.
        options.store_urls = {url};
        options.tick_ms = tick_ms;
        options.cancel = &cancel_;
        options.on_event = [this](const sim::Event& e) {
            tick_.store(e.tick);
            events_.fetch_add(1);
        };
        outcome_->report = live::run_live(scenario, options);
        const live::LiveReport& r = outcome_->report;
        if (r.completed && !r.input_error && !r.backend_error)
            outcome_->comparison = live::compare_with_model(scenario, r);
        done_.store(true, std::memory_order_release);
    });
}

LiveJob::~LiveJob() {
    cancel_.store(true);
    if (thread_.joinable()) thread_.join();
}

void LiveJob::result(LiveStatus& s) const {
    const live::LiveReport& r = outcome_->report;
    s.url_shown = r.redis.empty() ? s.url_shown : r.redis;
    s.tick_ms = r.tick_ms;
    s.events_so_far = r.trace.events.size();
    s.timing_faults.clear();
    for (const live::TimingFault& f : r.timing_faults) s.timing_faults.emplace_back(f.tick, f.late_ms);
    s.live_trace = r.trace;
    s.live_lanes = build_trace_lanes(s.live_trace, resource_);
    s.divergence_event = -1;
    s.message.clear();
    if (r.input_error) {
        s.verdict = LiveVerdict::bad_input;
        s.message = *r.input_error;
    } else if (r.backend_error) {
        s.verdict = r.backend_error->connection ? LiveVerdict::unreachable : LiveVerdict::failed;
        s.message = r.backend_error->message;
        // "cannot connect to <url>: Connection refused": the panel names the URL already.
        const std::string prefix = "cannot connect to ";
        if (s.message.rfind(prefix, 0) == 0) {
            const auto colon = s.message.find(": ", prefix.size());
            if (colon != std::string::npos) s.message = s.message.substr(colon + 2);
        }
    } else if (r.cancelled || !r.completed) {
        s.verdict = LiveVerdict::cancelled;
    } else if (outcome_->comparison) {
        const live::Comparison& c = *outcome_->comparison;
        s.sim_trace = c.simulated;
        s.sim_lanes = build_trace_lanes(s.sim_trace, resource_);
        if (!c.divergence) {
            s.verdict = LiveVerdict::identical;
        } else {
            s.verdict = s.timing_faults.empty() ? LiveVerdict::diverged : LiveVerdict::void_timing;
            s.divergence_event = c.divergence->index;
            s.message = c.divergence->description;
        }
    }
}
#else
bool live_supported() { return false; }
struct LiveJob::Outcome {};
LiveJob::LiveJob(const sim::Scenario&, std::string, std::int64_t) { done_.store(true); }
LiveJob::~LiveJob() = default;
void LiveJob::result(LiveStatus& s) const { s.verdict = LiveVerdict::none; }
#endif

FindJob::FindJob(const sim::Scenario& base, const sim::ExploreOptions& options) {
    auto created = sim::Explorer::create(base, options);
    if (!created.ok()) {
        error_ = created.error();
        return;
    }
    explorer_.emplace(std::move(created).value());
    sim::ExploreRun run;
    run.mode = sim::ExploreMode::exhaustive;
    session_ = std::make_unique<sim::ExploreSession>(*explorer_, run);
}

bool FindJob::step(double budget_ms) {
    if (done()) return true;
    const auto start = std::chrono::steady_clock::now();
    // One work unit at a time until the frame's budget is spent: a unit is
    // every schedule that starts with one fault, a few milliseconds at most.
    while (!session_->step(1)) {
        const double spent =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (spent >= budget_ms) return false;
    }
    return true;
}

void FindJob::progress(FindStatus& s) const {
    if (!session_) return;
    s.level = session_->level();
    s.position = session_->position();
    s.total = session_->total();
    const sim::ExploreReport& r = session_->report();
    s.schedules = r.totals.schedules;
    s.simulated = r.totals.simulated;
}

std::optional<sim::Counterexample> FindJob::counterexample(const words::Strings& strings) const {
    if (!session_ || !session_->done() || !session_->report().found) return std::nullopt;
    sim::Counterexample cx = sim::make_counterexample(*explorer_, *session_->report().found);
    words::title_counterexample(cx, explorer_->base(), strings);
    return cx;
}

}  // namespace leasescope::gui
