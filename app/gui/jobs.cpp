// The app's background work: a live run on a worker thread and a counterexample search stepped per frame (jobs.hpp).
#include "jobs.hpp"

#include <algorithm>

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

sim::ExploreOptions smallest_fault_options(const sim::Scenario& scenario, const sim::Properties& properties) {
    sim::ExploreOptions options;
    options.max_faults = 1;
    options.properties = properties;
    sim::scale_fault_sizes(scenario, options);  // as explore --minimize without sizes
    return options;
}

FindJob::FindJob(const sim::Scenario& base, const sim::ExploreOptions& options, bool smallest) : base_(base) {
    sim::ExploreRun run;
    run.mode = sim::ExploreMode::exhaustive;
    if (smallest) {
        minimize_ = std::make_unique<sim::MinimizeSession>(base_, options, run);
        error_ = minimize_->error();
        return;
    }
    auto created = sim::Explorer::create(base_, options);
    if (!created.ok()) {
        error_ = created.error();
        return;
    }
    explorer_.emplace(std::move(created).value());
    session_ = std::make_unique<sim::ExploreSession>(*explorer_, run);
}

bool FindJob::done() const {
    if (!error_.empty()) return true;
    if (minimize_) return minimize_->done();
    return session_ && session_->done();
}

bool FindJob::step(double budget_ms) {
    if (done()) return true;
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    const auto start = Clock::now();
    // A batch of work units at a time until the frame's budget is spent (a
    // unit is every schedule that starts with one fault, a few milliseconds
    // at most). The batch grows while a quarter of the budget holds it: the
    // units of one batch share a memo of states (docs/explorer.md, Merging
    // states), which a unit alone cannot; the answer does not depend on it.
    for (;;) {
        const auto batch_start = Clock::now();
        if (minimize_ ? minimize_->step(batch_) : session_->step(batch_)) break;
        const double took = since(batch_start);
        if (took < budget_ms / 4 && batch_ < batch_max) batch_ *= 2;
        if (took > budget_ms && batch_ > 1) batch_ /= 2;
        if (since(start) >= budget_ms) return false;
    }
    if (minimize_) error_ = minimize_->error();
    return true;
}

namespace {

// The smallest fault of each kind so far, as the Find panel shows it.
void minimize_progress(const sim::MinimizeSession& m, FindStatus& s) {
    const sim::MinimizeReport& r = m.report();
    s.level = 1;
    s.kind_now = m.done() ? -1 : m.kind();
    s.size_index = m.size_index();
    s.size_count = m.size_count();
    s.position = s.total = 0;
    s.schedules = r.totals.schedules;
    s.simulated = r.totals.simulated;
    if (const sim::ExploreSession* search = m.search()) {
        s.position = search->position();
        s.total = search->total();
        s.schedules += search->report().totals.schedules;
        s.simulated += search->report().totals.simulated;
    }
    s.base_fails = r.base_fails.has_value();
    s.kinds.clear();
    for (std::size_t k = 0; k < r.kinds.size(); ++k) {
        const sim::KindThreshold& t = r.kinds[k];
        FindKind kind;
        kind.kind = t.kind;
        kind.sized = t.sized;
        kind.on_grid = !t.grid.empty();
        kind.threshold = t.threshold;
        const std::vector<std::int64_t> sizes = t.sizes();
        if (static_cast<int>(k) == s.kind_now && s.size_index < sizes.size()) s.size_now = sizes[s.size_index];
        // Its scan is over: not the one running, and not cut short.
        const bool scanned = static_cast<int>(k) != s.kind_now && (r.complete || k + 1 < r.kinds.size());
        for (const Tick size : sizes)
            if ((kind.threshold && size < *kind.threshold) || (!kind.threshold && scanned)) kind.held = size;
        kind.has_counterexample = t.found.has_value();
        s.kinds.push_back(std::move(kind));
    }
}

}  // namespace

void FindJob::progress(FindStatus& s) const {
    if (minimize_) {
        minimize_progress(*minimize_, s);
        return;
    }
    if (!session_) return;
    s.level = session_->level();
    s.position = session_->position();
    s.total = session_->total();
    const sim::ExploreReport& r = session_->report();
    s.schedules = r.totals.schedules;
    s.simulated = r.totals.simulated;
}

std::optional<sim::Counterexample> FindJob::counterexample(const words::Strings& strings) const {
    std::optional<sim::Counterexample> cx;
    if (minimize_) {
        const sim::MinimizeReport& r = minimize_->report();
        if (!minimize_->done() || !r.base_fails || !r.explorer) return std::nullopt;
        cx = sim::make_counterexample(*r.explorer, *r.base_fails);
    } else {
        if (!session_ || !session_->done() || !session_->report().found) return std::nullopt;
        cx = sim::make_counterexample(*explorer_, *session_->report().found);
    }
    words::title_counterexample(*cx, base_, strings);
    return cx;
}

std::vector<std::optional<sim::Counterexample>> FindJob::kind_counterexamples(const words::Strings& strings) const {
    std::vector<std::optional<sim::Counterexample>> out;
    if (!minimize_ || !minimize_->done()) return out;
    for (const sim::KindThreshold& k : minimize_->report().kinds) {
        out.emplace_back();
        if (!k.found || !k.step) continue;
        out.back() = sim::make_counterexample(*k.step, *k.found);
        words::title_counterexample(*out.back(), base_, strings);
    }
    return out;
}

}  // namespace leasescope::gui
