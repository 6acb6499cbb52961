// The explorer's options from the command line's words (properties, fault
// kinds) and back, and the sum of search counters.
#include "leasescope/sim/explorer.hpp"

#include <initializer_list>
#include <utility>

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
    schedules = saturating_add(schedules, o.schedules);
    simulated = saturating_add(simulated, o.simulated);
    pruned = saturating_add(pruned, o.pruned);
    invalid = saturating_add(invalid, o.invalid);
    failing = saturating_add(failing, o.failing);
    ticks = saturating_add(ticks, o.ticks);
}

}  // namespace leasescope::sim
