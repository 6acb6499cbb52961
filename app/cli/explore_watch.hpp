#pragma once
// The watch over a long exhaustive search (explore; docs/explorer.md, Long
// searches): it stops the search at --time-limit or at the first Ctrl-C, and
// on a terminal rewrites one line every two seconds saying how far the level
// being searched has come and how long the rest would take at that pace. It
// owns a thread and the SIGINT handler for the search's length; the search
// (sim/explorer) only reads ExploreControl::cancel between schedules.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "leasescope/sim/explorer.hpp"

namespace leasescope::cli {

enum class StopReason { none, time_limit, interrupt };

// How far a level has come: `done` of its `total` schedules in `seconds`.
struct LevelPace {
    std::uint64_t done = 0;
    std::uint64_t total = 0;
    double seconds = 0;
};

// "12 s", "4 min", "5.3 h", "2.1 days": a duration as a person reads an estimate.
std::string rough_duration(double seconds);
// "78030", or above a million "6.5 × 10⁹" (and "1.8 × 10¹⁹ or more" at the saturated count).
std::string rough_count(std::uint64_t n);
// "0.1 % of its 6.5 × 10⁹ schedules in 9 min; at that pace the rest would take about 6.3 days".
std::string pace_text(const LevelPace& pace);
// The progress line, short enough for an 80-column terminal:
// "  searching 2 faults: 0.0035 % of 6.5 × 10⁹ in 7.9 s, about 2.6 days left".
std::string progress_text(int level, const LevelPace& pace);

class SearchWatch {
public:
    // `limit`: stop there; `progress`: where the line goes, or null for none
    // (the caller passes a terminal only).
    SearchWatch(const sim::Explorer& explorer, std::optional<std::chrono::milliseconds> limit, std::FILE* progress);
    ~SearchWatch();
    SearchWatch(const SearchWatch&) = delete;
    SearchWatch& operator=(const SearchWatch&) = delete;

    // Whether this build can keep a time limit (the Node.js build has no threads).
    static bool can_time();
    sim::ExploreControl* control() { return &control_; }
    // From the search's thread, before it starts a level: the level's clock
    // and counters start here.
    void level_started(int level);
    // Held while printing a line: the progress line is wiped and stays away.
    std::unique_lock<std::mutex> hold_output();
    StopReason reason() const;
    // The level being searched, as far as it came (`done` from its report).
    LevelPace pace(std::uint64_t done) const;

private:
    // The level's pace at `now`; the caller holds mutex_.
    LevelPace pace_at(std::uint64_t done, std::chrono::steady_clock::time_point now) const;
    void watch();
    void show(std::chrono::steady_clock::time_point now);
    void wipe();

    const sim::Explorer* explorer_;
    std::optional<std::chrono::milliseconds> limit_;
    std::FILE* progress_;
    sim::ExploreControl control_;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point level_started_;
    std::chrono::steady_clock::time_point shown_;
    std::uint64_t level_base_ = 0;  // control_.schedules_done when the level started
    int level_ = 0;
    bool line_shown_ = false;
    bool timed_out_ = false;
    bool stop_ = false;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace leasescope::cli
