// The explorer's options from the command line's words (properties, fault
// kinds) and back, and the sum of search counters.
#include "leasescope/sim/explorer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "explore_internal.hpp"
#include "leasescope/sim/text_list.hpp"

namespace leasescope::sim {

using namespace explore_detail;

Result<Properties, std::string> parse_properties(std::string_view text) {
    Properties p{false, false, false, false};
    for (std::string_view item : split_list(text)) {
        if (item == "all") {
            p = Properties{true, true, true, true, true, true, true};
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
                            "liveness, stale_after_successor, holder_rejected, fencing_duplicate or all, "
                            "separated by commas",
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
    FaultMenu m{false, false, false, false, false, false};
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
            m.failover_leases = m.failover_all = true;
        } else if (item == "failover:leases") {
            m.failover_leases = true;
        } else if (item == "failover:all") {
            m.failover_all = true;
        } else {
            return Err{
                fmt::format("unknown fault kind \"{}\"; expected pause, partition, crash or failover "
                            "(narrowed as partition:drop_requests, partition:drop_replies, "
                            "failover:leases, failover:all), separated by commas",
                            item)};
        }
    }
    return m;
}

std::string to_string(const FaultMenu& m) {
    std::vector<std::string> items;
    if (m.pause) items.emplace_back("pause");
    if (m.partition_drop_requests && m.partition_drop_replies) {
        items.emplace_back("partition");
    } else if (m.partition_drop_requests) {
        items.emplace_back("partition:drop_requests");
    } else if (m.partition_drop_replies) {
        items.emplace_back("partition:drop_replies");
    }
    if (m.crash) items.emplace_back("crash");
    if (m.failover_leases && m.failover_all) {
        items.emplace_back("failover");
    } else if (m.failover_leases) {
        items.emplace_back("failover:leases");
    } else if (m.failover_all) {
        items.emplace_back("failover:all");
    }
    return fmt::format("{}", fmt::join(items, ","));
}

void SearchStats::add(const SearchStats& o) {
    schedules = saturating_add(schedules, o.schedules);
    simulated = saturating_add(simulated, o.simulated);
    pruned = saturating_add(pruned, o.pruned);
    invalid = saturating_add(invalid, o.invalid);
    failing = saturating_add(failing, o.failing);
    ticks = saturating_add(ticks, o.ticks);
}

}  // namespace leasescope::sim
