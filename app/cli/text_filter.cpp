// The text view's row filter for `run` and `live` (--marked, --node NAME,
// --ticks A..B) and its Time column (--time): the options, the check of --ticks as the user wrote it, and
// the check of the names against the scenario's candidates.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common.hpp"
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {
namespace {

// A tick written plainly (digits only) or as a duration (model.md §11.7),
// within [0, horizon_max]; nullopt otherwise. With tick_ms 0 (not known yet)
// a duration's form is checked and 0 returned.
std::optional<Tick> parse_tick(std::string_view text, std::int64_t tick_ms) {
    if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        Tick value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value > limits::horizon_max) return std::nullopt;
        return value;
    }
    if (!sim::looks_like_duration(text)) return std::nullopt;
    if (tick_ms == 0) return 0;
    const sim::DurationTicks d = sim::duration_ticks(text, tick_ms);
    if (!d.error.empty() || d.ticks > limits::horizon_max) return std::nullopt;
    return d.ticks;
}

// "A..B", "A.." or "..B" into [from, to]; an error message otherwise. Each
// side is ticks or a duration ("10s..30s") at tick_ms (0: the form only).
std::string parse_ticks(const std::string& text, Tick& from, std::optional<Tick>& to, std::int64_t tick_ms) {
    const std::string expected = fmt::format(
        "{}: expected A..B, A.. or ..B with whole ticks from 0 to {} (or durations such as 10s that are whole "
        "ticks{}) and A <= B",
        text, limits::horizon_max, tick_ms > 0 ? fmt::format(" of {} ms", tick_ms) : "");
    const std::size_t dots = text.find("..");
    if (dots == std::string::npos || (dots == 0 && text.size() == 2)) return expected;
    const std::string_view a = std::string_view(text).substr(0, dots);
    const std::string_view b = std::string_view(text).substr(dots + 2);
    for (const std::string_view side : {a, b}) {
        if (tick_ms == 0 || !sim::looks_like_duration(side)) continue;
        const sim::DurationTicks d = sim::duration_ticks(side, tick_ms);
        if (!d.error.empty()) return fmt::format("{}: \"{}\" {}", text, side, d.error);
    }
    std::optional<Tick> lo = a.empty() ? std::optional<Tick>(0) : parse_tick(a, tick_ms);
    std::optional<Tick> hi = b.empty() ? std::nullopt : parse_tick(b, tick_ms);
    if (!lo || (!b.empty() && !hi) || (hi && *hi < *lo)) return expected;
    from = *lo;
    to = hi;
    return {};
}

}  // namespace

void add_text_filter_options(CLI::App* cmd, TextFilterArgs& args) {
    cmd->add_flag("--marked", args.marked,
                  "With --format text: only the rows marked \"!\" (stale holders, rejected releases and writes, lost "
                  "leases, violations)");
    cmd->add_option(
           "--node", args.nodes,
           "With --format text: only this candidate's rows (repeatable; rows of no candidate, a failover or an "
           "overlap, stay)")
        ->allow_extra_args(false);
    cmd->add_option("--ticks", args.ticks, "With --format text: only the rows of ticks A..B (A.. or ..B: open)")
        ->check(CLI::Validator(
            [](std::string& text) {
                Tick from = 0;
                std::optional<Tick> to;
                return parse_ticks(text, from, to, 0);
            },
            "A..B"));
    cmd->add_flag("--time", args.time,
                  "With --format text: a Time column after Tick, each tick's start since tick 0 at the scenario's "
                  "tick_ms (M:SS.mmm)");
}

CLI::Validator tick_or_duration() {
    return CLI::Validator(
        [](std::string& text) {
            return parse_tick(text, 0) ? std::string()
                                       : fmt::format(
                                             "{}: expected ticks (an integer from 0 to {}) or a duration "
                                             "such as 30s, 1500ms or 2m",
                                             text, limits::horizon_max);
        },
        "TICK|DURATION");
}

std::optional<Tick> tick_of_option(const std::string& flag, const std::string& text, std::int64_t tick_ms) {
    if (sim::looks_like_duration(text)) {
        const sim::DurationTicks d = sim::duration_ticks(text, tick_ms);
        if (!d.error.empty()) {
            fmt::print(stderr, "error: {} {}: \"{}\" {}\n", flag, text, text, d.error);
            return std::nullopt;
        }
    }
    const std::optional<Tick> tick = parse_tick(text, tick_ms);
    if (!tick) fmt::print(stderr, "error: {} {}: more than {} ticks\n", flag, text, limits::horizon_max);
    return tick;
}

std::optional<sim::TextFilter> text_filter_for(const TextFilterArgs& args, const sim::Scenario& scenario, bool text) {
    sim::TextFilter filter;
    filter.marked_only = args.marked;
    if (!args.ticks.empty()) {
        // The form was checked when parsed; a duration that is not whole
        // ticks of this scenario is found only now.
        const std::string error = parse_ticks(args.ticks, filter.from, filter.to, scenario.tick_ms);
        if (!error.empty()) {
            fmt::print(stderr, "error: --ticks {}\n", error);
            return std::nullopt;
        }
    }
    if (args.time) filter.time_tick_ms = scenario.tick_ms;
    for (const std::string& name : args.nodes) {
        if (scenario.find(name) < 0) {
            std::vector<std::string> names;
            for (const auto& c : scenario.candidates) names.push_back(c.name);
            fmt::print(stderr, "error: --node {}: {} has no such candidate; expected one of {}\n", name, scenario.name,
                       fmt::join(names, ", "));
            return std::nullopt;
        }
        filter.nodes.push_back(name);
    }
    if ((filter.any() || args.time) && !text) {
        fmt::print(stderr, "error: --marked, --node, --ticks and --time shape the text view: add --format text\n");
        return std::nullopt;
    }
    return filter;
}

}  // namespace leasescope::cli
