// The explorer's options from the command line's words (properties, fault
// kinds) and back, and the sum of search counters.
#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "explore_internal.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/text_list.hpp"

namespace leasescope::sim {

using namespace explore_detail;

Result<Properties, std::string> parse_properties(std::string_view text) {
    Properties p{false, false, false, false};
    for (std::string_view item : split_list(text)) {
        if (item == "all") {
            p = Properties{true, true, true, true, true, true, true};
        } else if (item == "safety") {
            // Every safety property but overlap, which a bare lease allows by
            // design; liveness is not a safety property (docs/explorer.md).
            p.unsafe_write = p.fencing_regressed = true;
            p.stale_after_successor = p.holder_rejected = p.fencing_duplicate = true;
        } else if (item == "overlap") {
            p.overlap = true;
        } else if (item == "unsafe_write") {
            p.unsafe_write = true;
        } else if (item == "fencing_regressed") {
            p.fencing_regressed = true;
        } else if (item == "liveness") {
            p.liveness = true;
        } else if (item == "stale_after_successor") {
            p.stale_after_successor = true;
        } else if (item == "holder_rejected") {
            p.holder_rejected = true;
        } else if (item == "fencing_duplicate") {
            p.fencing_duplicate = true;
        } else {
            return Err{
                fmt::format("unknown property \"{}\"; expected overlap, unsafe_write, fencing_regressed, "
                            "liveness, stale_after_successor, holder_rejected, fencing_duplicate, safety or "
                            "all, separated by commas",
                            item)};
        }
    }
    return p;
}

std::string to_string(const Properties& p) {
    std::string out;
    auto add = [&](bool on, const char* name) {
        if (!on) return;
        if (!out.empty()) out += ',';
        out += name;
    };
    add(p.overlap, "overlap");
    add(p.unsafe_write, "unsafe_write");
    add(p.fencing_regressed, "fencing_regressed");
    add(p.liveness, "liveness");
    add(p.stale_after_successor, "stale_after_successor");
    add(p.holder_rejected, "holder_rejected");
    add(p.fencing_duplicate, "fencing_duplicate");
    return out;
}

Result<FaultMenu, std::string> parse_fault_kinds(std::string_view text) {
    FaultMenu m = FaultMenu::none();
    for (std::string_view item : split_list(text)) {
        if (item == "all") {
            m = FaultMenu{};
        } else if (item == "pause") {
            m.pause = true;
        } else if (item == "partition") {
            m.partition_drop_requests = m.partition_drop_replies = true;
        } else if (item == "partition:drop_requests") {
            m.partition_drop_requests = true;
        } else if (item == "partition:drop_replies") {
            m.partition_drop_replies = true;
        } else if (item == "crash") {
            m.crash = true;
        } else if (item == "failover") {
            m.failover_leases = m.failover_all = m.failover_promote = true;
        } else if (item == "failover:leases") {
            m.failover_leases = true;
        } else if (item == "failover:all") {
            m.failover_all = true;
        } else if (item == "failover:promote") {
            m.failover_promote = true;
        } else if (item == "replica_link") {
            m.replica_link = true;
        } else if (item == "delay") {
            m.delay_request = m.delay_reply = m.delay_write = true;
        } else if (item == "delay:request") {
            m.delay_request = true;
        } else if (item == "delay:reply") {
            m.delay_reply = true;
        } else if (item == "delay:write") {
            m.delay_write = true;
        } else if (item == "clock_jump") {
            m.clock_jump_forward = m.clock_jump_back = true;
        } else if (item == "clock_jump:forward") {
            m.clock_jump_forward = true;
        } else if (item == "clock_jump:back") {
            m.clock_jump_back = true;
        } else if (item == "restart") {
            m.restart_none = m.restart_everysec = m.restart_always = true;
        } else if (item == "restart:none") {
            m.restart_none = true;
        } else if (item == "restart:everysec") {
            m.restart_everysec = true;
        } else if (item == "restart:always") {
            m.restart_always = true;
        } else {
            return Err{
                fmt::format("unknown fault kind \"{}\"; expected pause, partition, crash, failover, delay, "
                            "clock_jump, replica_link or restart (narrowed as partition:drop_requests, "
                            "partition:drop_replies, failover:leases, failover:all, failover:promote, "
                            "delay:request, delay:reply, delay:write, clock_jump:forward, clock_jump:back, "
                            "restart:none, restart:everysec, restart:always), separated by commas",
                            item)};
        }
    }
    return m;
}

Result<std::vector<FaultKindItem>, std::string> fault_kind_items(std::string_view text) {
    std::vector<FaultKindItem> items;
    for (std::string_view item : split_list(text)) {
        auto menu = parse_fault_kinds(item);
        if (!menu.ok()) return Err{menu.error()};
        items.push_back(FaultKindItem{std::string(item), menu.value(), item == "all"});
    }
    return items;
}

FaultMenu fault_kinds_for(const Scenario& s, FaultMenu k) {
    if (s.is_redlock() || s.is_redisson())
        k.failover_leases = k.failover_all = k.failover_promote = k.replica_link = false;
    if (s.is_redisson()) k.delay_request = k.delay_reply = k.delay_write = false;
    if (s.is_redlock()) {
        if (k.partition_drop_replies) k.partition_drop_requests = true;
        k.partition_drop_replies = false;
    } else {
        k.restart_none = k.restart_everysec = k.restart_always = false;
    }
    if (s.lock.replication.replicas > 0) k.failover_leases = k.failover_all = false;
    if (s.lock.replication.replicas == 0) k.replica_link = k.failover_promote = false;
    return k;
}

namespace {

// A kind's word: the kind alone when every variant is on, else each variant narrowed.
void add_kind(std::vector<std::string>& items, const char* kind,
              std::initializer_list<std::pair<bool, const char*>> parts) {
    bool all = true;
    for (const auto& [on, name] : parts) all = all && on;
    if (all) {
        items.emplace_back(kind);
        return;
    }
    for (const auto& [on, name] : parts) {
        if (on) items.push_back(fmt::format("{}:{}", kind, name));
    }
}

}  // namespace

std::string to_string(const FaultMenu& m) {
    std::vector<std::string> items;
    if (m.pause) items.emplace_back("pause");
    add_kind(items, "partition",
             {{m.partition_drop_requests, "drop_requests"}, {m.partition_drop_replies, "drop_replies"}});
    if (m.crash) items.emplace_back("crash");
    // A failover loses (no replicas) or promotes (replicas): "failover" is
    // both losing forms, with or without promote, since Explorer::create
    // keeps only what the store can have; a promotion alone is named so.
    if (m.failover_leases && m.failover_all) {
        items.emplace_back("failover");
    } else {
        add_kind(items, "failover",
                 {{m.failover_leases, "leases"}, {m.failover_all, "all"}, {m.failover_promote, "promote"}});
    }
    add_kind(items, "delay", {{m.delay_request, "request"}, {m.delay_reply, "reply"}, {m.delay_write, "write"}});
    add_kind(items, "clock_jump", {{m.clock_jump_forward, "forward"}, {m.clock_jump_back, "back"}});
    if (m.replica_link) items.emplace_back("replica_link");
    add_kind(items, "restart",
             {{m.restart_none, "none"}, {m.restart_everysec, "everysec"}, {m.restart_always, "always"}});
    return fmt::format("{}", fmt::join(items, ","));
}

void SearchStats::add(const SearchStats& o) {
    for (const auto& [name, field] : search_stats_fields) this->*field = saturating_add(this->*field, o.*field);
}

Tick SizeGrids::longest() const {
    Tick most = 0;
    for (const auto* grid : {&pause, &partition, &delay, &clock_jump})
        if (!grid->empty()) most = std::max(most, grid->back());
    return most;
}

Tick scaled_size_max(const Scenario& scenario) {
    Tick longest = 1;
    for (const Candidate& c : scenario.candidates)
        longest = std::max({longest, c.options.lease, c.options.action, c.options.wait});
    return std::min<Tick>(longest, explore_grid_size_max);  // the largest size a grid may hold
}

void scale_fault_sizes(const Scenario& scenario, ExploreOptions& options) {
    const Tick longest = scaled_size_max(scenario);
    if (longest <= scaled_every_size_max) {
        options.max_pause = longest;
        return;
    }
    const std::vector<Tick> grid = size_grid(1, longest, scenario.tick_ms);
    const FaultMenu& k = options.kinds;
    if (k.pause && options.grids.pause.empty()) options.grids.pause = grid;
    if ((k.partition_drop_requests || k.partition_drop_replies) && options.grids.partition.empty())
        options.grids.partition = grid;
}

std::vector<Tick> size_grid(Tick lo, Tick hi, std::int64_t tick_ms) {
    LS_ASSERT(lo >= 1);
    LS_ASSERT(hi >= lo);
    LS_ASSERT(tick_ms > 0);
    std::vector<Tick> grid{lo};
    const std::int64_t lo_ms = lo * tick_ms, hi_ms = hi * tick_ms;
    for (std::int64_t decade = 1; decade <= hi_ms && decade <= std::int64_t{1} << 60; decade *= 10) {
        for (const std::int64_t step : {1, 2, 5}) {
            const std::int64_t ms = step * decade;
            if (ms <= lo_ms || ms >= hi_ms) continue;
            grid.push_back(std::max<Tick>(lo, (ms + tick_ms / 2) / tick_ms));
        }
    }
    grid.push_back(hi);
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    return grid;
}

namespace {

// A flag's value in whole ticks, or a duration of whole ticks; the error
// begins with `flag` (e.g. "--grid pause").
Result<Tick, std::string> whole_ticks(std::string_view flag, std::string_view text, std::int64_t tick_ms) {
    const bool digits =
        !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && text.size() <= 15) return static_cast<Tick>(std::stoll(std::string(text)));
    const DurationTicks d = duration_ticks(text, tick_ms);
    if (!d.error.empty()) return Err{fmt::format("{}: \"{}\" {}", flag, text, d.error)};
    return d.ticks;
}

// LO or HI of a --grid value.
Result<Tick, std::string> grid_bound(std::string_view kind, std::string_view text, std::int64_t tick_ms) {
    return whole_ticks(fmt::format("--grid {}", kind), text, tick_ms);
}

}  // namespace

Result<Unit, std::string> parse_grid(std::string_view text, std::int64_t tick_ms, SizeGrids& grids) {
    const std::size_t equals = text.find('=');
    const std::size_t dots = text.find("..");
    if (equals == std::string_view::npos || dots == std::string_view::npos || dots < equals)
        return Err{fmt::format("--grid: expected kind=LO..HI (e.g. pause=100ms..60s), found \"{}\"", text)};
    const std::string_view kind = text.substr(0, equals);
    std::vector<Tick>* grid = kind == "pause"        ? &grids.pause
                              : kind == "partition"  ? &grids.partition
                              : kind == "delay"      ? &grids.delay
                              : kind == "clock_jump" ? &grids.clock_jump
                                                     : nullptr;
    if (grid == nullptr)
        return Err{fmt::format("--grid: unknown kind \"{}\" (expected pause, partition, delay or clock_jump)", kind)};
    auto lo = grid_bound(kind, text.substr(equals + 1, dots - equals - 1), tick_ms);
    if (!lo.ok()) return Err{lo.error()};
    auto hi = grid_bound(kind, text.substr(dots + 2), tick_ms);
    if (!hi.ok()) return Err{hi.error()};
    if (lo.value() < 1 || hi.value() < lo.value())
        return Err{
            fmt::format("--grid {}: expected 1 tick ≤ LO ≤ HI, found {}..{} ticks", kind, lo.value(), hi.value())};
    *grid = size_grid(lo.value(), hi.value(), tick_ms);
    return Unit{};
}

std::optional<std::string> explore_detail::start_every_error(Tick start_every) {
    if (start_every >= 1 && start_every <= explore_start_every_max) return std::nullopt;
    return fmt::format("--start-every: expected 1 to {} ticks (explore_start_every_max), found {}",
                       explore_start_every_max, start_every);
}

Result<Tick, std::string> parse_start_every(std::string_view text, std::int64_t tick_ms) {
    auto ticks = whole_ticks("--start-every", text, tick_ms);
    if (!ticks.ok()) return ticks;
    if (auto error = start_every_error(ticks.value())) return Err{std::move(*error)};
    return ticks;
}

std::string starts_text(Tick max_tick, Tick start_every, std::int64_t tick_ms) {
    if (start_every == 1) return fmt::format("0..{}", max_tick);
    return fmt::format("0..{} every {} ticks ({})", max_tick, start_every, duration_text(start_every * tick_ms * 1000));
}

std::string to_string(const SizeGrids& grids, std::int64_t tick_ms) {
    std::vector<std::string> parts;
    const std::pair<const char*, const std::vector<Tick>*> kinds[] = {{"pause", &grids.pause},
                                                                      {"partition", &grids.partition},
                                                                      {"delay", &grids.delay},
                                                                      {"clock_jump", &grids.clock_jump}};
    for (const auto& [name, grid] : kinds) {
        if (grid->empty()) continue;
        parts.push_back(fmt::format("{}={}..{} ({} sizes)", name, duration_text(grid->front() * tick_ms * 1000),
                                    duration_text(grid->back() * tick_ms * 1000), grid->size()));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace leasescope::sim
