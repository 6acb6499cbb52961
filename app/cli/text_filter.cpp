// The text view's row filter for `run` and `live` (--marked, --node NAME,
// --ticks A..B): the options, the check of --ticks as the user wrote it, and
// the check of the names against the scenario's candidates.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common.hpp"
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {
namespace {

// A tick written plainly (digits only) within [0, horizon_max]; nullopt otherwise.
std::optional<Tick> parse_tick(std::string_view text) {
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    Tick value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value > limits::horizon_max) return std::nullopt;
    return value;
}

// "A..B", "A.." or "..B" into [from, to]; an error message otherwise.
std::string parse_ticks(const std::string& text, Tick& from, std::optional<Tick>& to) {
    const std::string expected = fmt::format("{}: expected A..B, A.. or ..B with whole ticks from 0 to {} and A <= B",
                                             text, limits::horizon_max);
    const std::size_t dots = text.find("..");
    if (dots == std::string::npos || (dots == 0 && text.size() == 2)) return expected;
    const std::string_view a = std::string_view(text).substr(0, dots);
    const std::string_view b = std::string_view(text).substr(dots + 2);
    std::optional<Tick> lo = a.empty() ? std::optional<Tick>(0) : parse_tick(a);
    std::optional<Tick> hi = b.empty() ? std::nullopt : parse_tick(b);
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
                return parse_ticks(text, from, to);
            },
            "A..B"));
}

std::optional<sim::TextFilter> text_filter_for(const TextFilterArgs& args, const sim::Scenario& scenario, bool text) {
    sim::TextFilter filter;
    filter.marked_only = args.marked;
    if (!args.ticks.empty()) {
        const std::string error = parse_ticks(args.ticks, filter.from, filter.to);
        LS_ASSERT(error.empty());  // checked when parsed
    }
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
    if (filter.any() && !text) {
        fmt::print(stderr, "error: --marked, --node and --ticks filter the text view: add --format text\n");
        return std::nullopt;
    }
    return filter;
}

}  // namespace leasescope::cli
