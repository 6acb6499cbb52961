// The watch over a long exhaustive search: the time limit, Ctrl-C and the
// progress line (explore_watch.hpp).
#include "explore_watch.hpp"

#include <atomic>
#include <cmath>
#include <csignal>
#include <limits>

#include <fmt/format.h>

namespace leasescope::cli {
namespace {

// What the SIGINT handler may touch: lock-free atomics only. The flag the
// search reads, while a watch is up, and whether the signal came.
std::atomic<std::atomic<bool>*> watched_cancel{nullptr};
std::atomic<bool> search_interrupted{false};
struct sigaction previous_sigint {};

// The first Ctrl-C stops the search, which then reports what it covered;
// SA_RESETHAND puts the default back, so a second one ends the process.
extern "C" void on_search_interrupt(int /*signal*/) {
    search_interrupted.store(true);
    if (std::atomic<bool>* cancel = watched_cancel.load()) cancel->store(true);
}

// The Node.js build (app/web) has no threads: no watch thread there, so no
// time limit and no progress line; Ctrl-C still stops the search.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool watch_thread = false;
#else
constexpr bool watch_thread = true;
#endif

constexpr auto watch_poll_every = std::chrono::milliseconds(250);
constexpr auto watch_show_every = std::chrono::seconds(2);

}  // namespace

std::string rough_duration(double seconds) {
    if (seconds < 10) return fmt::format("{:.1f} s", seconds);
    if (seconds < 90) return fmt::format("{:.0f} s", seconds);
    if (seconds < 90 * 60) return fmt::format("{:.0f} min", seconds / 60);
    if (seconds < 48 * 3600) return fmt::format("{:.1f} h", seconds / 3600);
    return fmt::format("{:.1f} days", seconds / 86400);
}

std::string rough_count(std::uint64_t n) {
    if (n < 1'000'000) return fmt::format("{}", n);
    static constexpr const char* superscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    auto exponent = static_cast<int>(std::floor(std::log10(static_cast<double>(n))));
    double mantissa = static_cast<double>(n) / std::pow(10.0, exponent);
    if (mantissa >= 9.95) {  // 9.96 × 10⁹ is written 1.0 × 10¹⁰
        mantissa /= 10;
        ++exponent;
    }
    std::string power;
    for (const char digit : std::to_string(exponent)) power += superscript[digit - '0'];
    const bool saturated = n == std::numeric_limits<std::uint64_t>::max();
    return fmt::format("{:.1f} × 10{}{}", mantissa, power, saturated ? " or more" : "");
}

namespace {

// "0.0035", "2.4", "37": two significant digits below 1 %, one decimal below 10 %.
std::string percent_text(double percent) {
    if (percent >= 10) return fmt::format("{:.0f}", percent);
    if (percent >= 1) return fmt::format("{:.1f}", percent);
    return fmt::format("{:.2g}", percent);
}

// The part of the level done, 0 … 1.
double part_of(const LevelPace& pace) {
    return pace.total == 0 ? 0 : static_cast<double>(pace.done) / static_cast<double>(pace.total);
}

// The seconds the rest of the level would take at the pace so far (done > 0).
double rest_of(const LevelPace& pace) {
    return pace.seconds * static_cast<double>(pace.total - pace.done) / static_cast<double>(pace.done);
}

}  // namespace

std::string pace_text(const LevelPace& pace) {
    std::string text = fmt::format("{} % of its {} schedules in {}", percent_text(100 * part_of(pace)),
                                   rough_count(pace.total), rough_duration(pace.seconds));
    if (pace.done > 0 && pace.done < pace.total)
        text += fmt::format("; at that pace the rest would take about {}", rough_duration(rest_of(pace)));
    return text;
}

std::string progress_text(int level, const LevelPace& pace) {
    std::string text =
        fmt::format("  searching {} {}: {} % of {} in {}", level, level == 1 ? "fault" : "faults",
                    percent_text(100 * part_of(pace)), rough_count(pace.total), rough_duration(pace.seconds));
    if (pace.done > 0 && pace.done < pace.total) text += fmt::format(", about {} left", rough_duration(rest_of(pace)));
    return text;
}

SearchWatch::SearchWatch(const sim::Explorer& explorer, std::optional<std::chrono::milliseconds> limit,
                         std::FILE* progress)
    : explorer_(&explorer), limit_(limit), progress_(progress) {
    started_ = level_started_ = shown_ = std::chrono::steady_clock::now();
    search_interrupted.store(false);
    watched_cancel.store(&control_.cancel);
    struct sigaction action {};
    action.sa_handler = on_search_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &previous_sigint);
    // A process started with Ctrl-C ignored (a shell's background job) keeps ignoring it.
    if (previous_sigint.sa_handler == SIG_IGN) sigaction(SIGINT, &previous_sigint, nullptr);
    if (watch_thread) thread_ = std::thread([this] { watch(); });
}

bool SearchWatch::can_time() { return watch_thread; }

SearchWatch::~SearchWatch() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        wipe();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    sigaction(SIGINT, &previous_sigint, nullptr);
    watched_cancel.store(nullptr);
}

void SearchWatch::level_started(int level) {
    const std::lock_guard<std::mutex> lock(mutex_);
    level_ = level;
    level_base_ = control_.schedules_done.load();
    level_started_ = std::chrono::steady_clock::now();
}

std::unique_lock<std::mutex> SearchWatch::hold_output() {
    std::unique_lock<std::mutex> lock(mutex_);
    wipe();
    return lock;
}

StopReason SearchWatch::reason() const {
    if (search_interrupted.load()) return StopReason::interrupt;
    const std::lock_guard<std::mutex> lock(mutex_);
    return timed_out_ ? StopReason::time_limit : StopReason::none;
}

LevelPace SearchWatch::pace(std::uint64_t done) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return pace_at(done, std::chrono::steady_clock::now());
}

LevelPace SearchWatch::pace_at(std::uint64_t done, std::chrono::steady_clock::time_point now) const {
    return LevelPace{done, explorer_->level_schedules(level_),
                     std::chrono::duration<double>(now - level_started_).count()};
}

void SearchWatch::watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        wake_.wait_for(lock, watch_poll_every);
        if (stop_) break;
        const auto now = std::chrono::steady_clock::now();
        if (limit_ && !timed_out_ && now - started_ >= *limit_) {
            timed_out_ = true;
            control_.cancel.store(true);
        }
        if (progress_ != nullptr && now - shown_ >= watch_show_every) show(now);
    }
}

// The progress line, rewritten in place (a terminal only).
void SearchWatch::show(std::chrono::steady_clock::time_point now) {
    shown_ = now;
    const LevelPace pace = pace_at(control_.schedules_done.load() - level_base_, now);
    fmt::print(progress_, "\r{}\033[K", progress_text(level_, pace));
    std::fflush(progress_);
    line_shown_ = true;
}

void SearchWatch::wipe() {
    if (!line_shown_) return;
    fmt::print(progress_, "\r\033[K");
    std::fflush(progress_);
    line_shown_ = false;
}

}  // namespace leasescope::cli
