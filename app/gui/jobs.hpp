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
#include <vector>

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

// The budget of the Find panel's "smallest fault of each kind": one added
// fault at a time, and pauses and partitions scaled to the scenario
// (sim::scale_fault_sizes, as `explore --minimize` without sizes;
// docs/explorer.md, In the app).
sim::ExploreOptions smallest_fault_options(const sim::Scenario& scenario, const sim::Properties& properties);

class FindJob {
public:
    // `smallest`: the smallest fault of each kind (sim::MinimizeSession;
    // options.max_faults must be 1), else the smallest schedule of faults
    // (sim::ExploreSession). A bad budget leaves `error()` set and the job done.
    FindJob(const sim::Scenario& base, const sim::ExploreOptions& options, bool smallest);
    FindJob(const FindJob&) = delete;
    FindJob& operator=(const FindJob&) = delete;
    // Works for about `budget_ms`; true once the search is over.
    bool step(double budget_ms);
    bool done() const;
    const std::string& error() const { return error_; }
    void progress(FindStatus& status) const;
    // Once done: the counterexample, when one was found, its title and
    // summary worded from the string tables. For the smallest fault of each
    // kind: the base's own failure, if it fails with no fault.
    std::optional<sim::Counterexample> counterexample(const words::Strings& strings) const;
    // Once done, the smallest fault of each kind: per kind of the report
    // (FindStatus::kinds), its counterexample, if a size broke it.
    std::vector<std::optional<sim::Counterexample>> kind_counterexamples(const words::Strings& strings) const;

private:
    sim::Scenario base_;  // the sessions point into it and into explorer_
    std::optional<sim::Explorer> explorer_;
    std::unique_ptr<sim::ExploreSession> session_;
    std::unique_ptr<sim::MinimizeSession> minimize_;
    std::string error_;
    static constexpr std::uint64_t batch_max = 1024;
    std::uint64_t batch_ = 1;  // work units per step, fitted to the frame's budget
};

}  // namespace leasescope::gui
