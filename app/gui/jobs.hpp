#pragma once
// Background work the app runs for its views: a live run against Redis (on a
// worker thread, since run_live blocks) and a counterexample search (advanced
// a few work units per frame through an ExploreSession, no thread). Views see
// neither: the app copies their progress into LiveStatus / FindStatus.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "core/job_status.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::gui {

// Whether this build has the live driver (hiredis); without it the Live panel says so.
bool live_supported();

class LiveJob {
public:
    // Starts the run at once on its own thread.
    LiveJob(const sim::Scenario& scenario, std::string url, std::int64_t tick_ms);
    ~LiveJob();  // cancels and joins
    LiveJob(const LiveJob&) = delete;
    LiveJob& operator=(const LiveJob&) = delete;

    void cancel() { cancel_.store(true); }
    bool done() const { return done_.load(std::memory_order_acquire); }
    // Progress while it runs.
    Tick tick() const { return tick_.load(); }
    std::size_t events() const { return events_.load(); }
    // Once done(): fills everything but `open` and `supported`.
    void result(LiveStatus& status) const;

private:
    struct Outcome;
    // The scenario's: what rejected a write (unread in a build without the live driver).
    [[maybe_unused]] sim::ResourceMode resource_ = sim::ResourceMode::off;
    std::atomic<bool> cancel_{false};
    std::atomic<bool> done_{false};
    std::atomic<Tick> tick_{-1};
    std::atomic<std::size_t> events_{0};
    std::unique_ptr<Outcome> outcome_;
    std::thread thread_;
};

class FindJob {
public:
    // A bad budget leaves `error()` set and the job done.
    FindJob(const sim::Scenario& base, const sim::ExploreOptions& options);
    // Works for about `budget_ms`; true once the search is over.
    bool step(double budget_ms);
    bool done() const { return !error_.empty() || (session_ && session_->done()); }
    const std::string& error() const { return error_; }
    void progress(FindStatus& status) const;
    // Once done: the counterexample, when one was found, its title and
    // summary worded from the string tables.
    std::optional<sim::Counterexample> counterexample(const words::Strings& strings) const;

private:
    std::optional<sim::Explorer> explorer_;
    std::unique_ptr<sim::ExploreSession> session_;
    std::string error_;
};

}  // namespace leasescope::gui
