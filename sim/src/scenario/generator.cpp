// The scenario generator: a valid scenario written by hand from one seed.
#include "leasescope/sim/generator.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "generator_draw.hpp"
#include "leasescope/engine/prng.hpp"

namespace leasescope::sim {
namespace {

using generator_detail::draw_between;

std::string candidate_name(std::int64_t i) { return fmt::format("node-{:06}", i); }

// Latencies and delays come from their own generator, seeded from the seed and this.
constexpr std::uint64_t latency_seed_salt = 0x6c6174656e637921;
constexpr const char* links[] = {"request", "reply", "write"};
// Replication's own generator, seeded from the seed and this ("replicas").
constexpr std::uint64_t replication_seed_salt = 0x7265706c69636173;

Fault link_cut(std::int32_t server, Tick at, Tick ticks) {
    Fault f;
    f.kind = FaultKind::replica_link;
    f.server = server;
    f.at = at;
    f.ticks = ticks;
    return f;
}

// The cuts of model.md §17.2, each server's link at most once before the
// failover at `failover_at` (a replica's, over 3 ticks before it, so before
// any lag of 0-2 begins) and once after it (any server but the new primary).
// Never two of one link that overlap, never one of a primary.
void draw_cuts(SplitMix64& rng, const GeneratorOptions& o, GeneratedReplication& r, std::int32_t promote) {
    const Tick failover_at = o.horizon / 2;
    for (std::int32_t server = 0; server <= r.replicas; ++server) {
        const bool before = server > 0 && rng.next() % 2 == 0;
        if (before) {
            const Tick at = draw_between(rng, 0, std::max<Tick>(0, failover_at - 23));
            const Tick ticks = draw_between(rng, 1, 20);
            r.faults.push_back(link_cut(server, at, ticks));
        }
        const bool after = server != promote && rng.next() % 2 == 0;
        if (after) {
            const Tick at = draw_between(rng, failover_at + 1, std::max<Tick>(failover_at + 1, o.horizon - 30));
            const Tick ticks = draw_between(rng, 1, 20);
            r.faults.push_back(link_cut(server, at, ticks));
        }
    }
}

// The store's servers (model.md §17.1, §17.4).
std::string store_json(const GeneratedReplication& r) {
    std::string out = fmt::format("  \"store\": {{ \"replicas\": {}", r.replicas);
    if (r.min_replicas_to_write > 0) out += fmt::format(", \"min_replicas_to_write\": {}", r.min_replicas_to_write);
    return out + " },\n";
}

std::string replication_fault_json(const Fault& f) {
    if (f.kind == FaultKind::replica_link)
        return fmt::format(R"({{ "kind": "replica_link", "replica": {}, "at": {}, "ticks": {} }})", f.server, f.at,
                           f.ticks);
    return fmt::format(R"({{ "kind": "failover", "at": {}, "promote": {}, "lag": {} }})", f.at, f.server, f.lag);
}

// The "faults" array: pauses and partitions on about 1% of the nodes, a
// crash and a failover; with latencies, a delay on each of those nodes too
// (drawn from its own generator, so the other draws stay the same).
void append_faults(std::string& out, const GeneratorOptions& o, SplitMix64& rng, const GeneratedReplication& r) {
    const std::int64_t n = o.candidates;
    const Tick horizon = o.horizon;
    out += "  \"faults\": [";
    bool first = true;
    auto add_fault = [&](const std::string& text) {
        out += first ? "\n    " : ",\n    ";
        out += text;
        first = false;
    };
    if (o.faults) {
        // One pause and one partition per chosen node, so that two pauses (or
        // two partitions) never overlap on one node. About 1% of the nodes,
        // 2 at least, 1,000 at most.
        const std::int64_t faulty = std::min<std::int64_t>(std::min<std::int64_t>(n, 1'000), n / 100 + 2);
        const std::int64_t stride = std::max<std::int64_t>(1, n / std::max<std::int64_t>(faulty, 1));
        for (std::int64_t k = 0; k < faulty; ++k) {
            const std::int64_t node = (k * stride) % n;
            const Tick at = draw_between(rng, 0, horizon - 50);
            add_fault(fmt::format(R"({{ "kind": "pause", "node": "{}", "at": {}, "ticks": {} }})", candidate_name(node),
                                  at, draw_between(rng, 1, 20)));
            const Tick p_at = draw_between(rng, 0, horizon - 50);
            // One draw per statement: the order in which a call's arguments are
            // evaluated is unspecified (GCC goes right to left, Clang and so
            // Emscripten left to right). This is GCC's order, so the bytes stay
            // those the native build always wrote.
            const bool drop_requests = rng.next() % 2 == 0;
            const Tick p_ticks = draw_between(rng, 1, 10);
            add_fault(fmt::format(R"({{ "kind": "partition", "node": "{}", "at": {}, "ticks": {}, "mode": "{}" }})",
                                  candidate_name(node), p_at, p_ticks,
                                  drop_requests ? "drop_requests" : "drop_replies"));
        }
        if (n >= 3) {
            add_fault(
                fmt::format(R"({{ "kind": "crash", "node": "{}", "at": {} }})", candidate_name(n - 1), horizon / 3));
        }
        // With replicas a failover promotes (model.md §17.3 rule 5): it is among r's.
        if (!o.replication)
            add_fault(fmt::format(R"({{ "kind": "failover", "at": {}, "lose": "leases" }})", horizon / 2));
    }
    if (o.latencies) {
        SplitMix64 wire(o.seed ^ latency_seed_salt);
        const std::int64_t delayed = std::min<std::int64_t>(n, 3);
        for (std::int64_t k = 0; k < delayed; ++k) {
            const Tick at = draw_between(wire, 0, horizon - 50);
            const Tick ticks = draw_between(wire, 1, 20);
            const char* link = links[wire.next() % 3];
            add_fault(
                fmt::format(R"({{ "kind": "delay", "node": "{}", "at": {}, "ticks": {}, "link": "{}", "extra": {} }})",
                            candidate_name(k), at, ticks, link, draw_between(wire, 1, 15)));
        }
    }
    for (const Fault& f : r.faults) add_fault(replication_fault_json(f));
    out += first ? "],\n" : "\n  ],\n";
}

// With latencies: one "network" for every node (model.md §16.1).
std::string generated_network(std::uint64_t seed) {
    SplitMix64 wire(seed ^ latency_seed_salt ^ 1);
    const Tick request = draw_between(wire, 0, 3);
    const Tick reply = draw_between(wire, 0, 3);
    const Tick write = draw_between(wire, 0, 4);
    return fmt::format("  \"network\": {{ \"request\": {}, \"reply\": {}, \"write\": {} }},\n", request, reply, write);
}

}  // namespace

GeneratedReplication generated_replication(const GeneratorOptions& o) {
    GeneratedReplication r;
    if (!o.replication) return r;
    SplitMix64 rng(o.seed ^ replication_seed_salt);
    // One draw per statement: the order of a call's arguments is unspecified.
    r.replicas = static_cast<std::int32_t>(draw_between(rng, 1, 2));
    const bool min_write = rng.next() % 4 == 0;
    r.min_replicas_to_write = min_write ? 1 : 0;
    const auto promote = static_cast<std::int32_t>(draw_between(rng, 1, r.replicas));
    const Tick lag = draw_between(rng, 0, 2);
    draw_cuts(rng, o, r, promote);
    Fault failover;
    failover.kind = FaultKind::failover;
    failover.at = o.horizon / 2;
    failover.server = promote;
    failover.lag = lag;
    r.faults.push_back(failover);
    for (std::int64_t i = 0; i < o.candidates; ++i) {
        const bool waits = rng.next() % 5 == 0;
        if (!waits) continue;
        const auto replicas = static_cast<std::int32_t>(draw_between(rng, 1, r.replicas));
        r.waits.emplace_back(i, replicas);
    }
    return r;
}

std::int32_t generated_capacity(std::int64_t candidates) {
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(candidates / 2'000 + 1, 1, 64));
}

std::string generate_scenario(const GeneratorOptions& o) {
    if (o.client == GeneratedClient::redlock) return generate_redlock_scenario(o);
    SplitMix64 rng(o.seed);
    const std::int64_t n = o.candidates;
    const Tick horizon = o.horizon;
    const std::int32_t capacity = generated_capacity(n);
    // Mean action 7.5 ticks plus about 2 ticks of waiting per run.
    const Tick base_every = std::max<Tick>(20, static_cast<Tick>(static_cast<double>(n) * 9.5 / (1.5 * capacity)));

    std::string out;
    out.reserve(static_cast<std::size_t>(n) * 160 + 4096);
    out += "{\n";
    out += fmt::format("  \"name\": \"generated-{}x{}-s{}\",\n", n, horizon, o.seed);
    out += fmt::format(
        "  \"title\": {{ \"en\": \"Generated: {} candidates over {} ticks\", \"ko\": \"생성된 시나리오: 후보 {}개, "
        "{}틱\" }},\n",
        n, horizon, n, horizon);
    out += "  \"tick_ms\": 50,\n";
    out += fmt::format("  \"horizon\": {},\n", horizon);
    out += fmt::format("  \"seed\": {},\n", o.seed);
    out += fmt::format("  \"order\": \"{}\",\n", o.shuffled ? "shuffled" : "declared");
    if (o.latencies) out += generated_network(o.seed);
    out += fmt::format("  \"lock\": {{ \"name\": \"generated\", \"capacity\": {} }},\n", capacity);
    const GeneratedReplication replication = generated_replication(o);
    if (o.replication) out += store_json(replication);
    auto next_wait = replication.waits.begin();
    out += "  \"resource\": { \"mode\": \"check\" },\n";
    out += "  \"defaults\": { \"wait\": 2, \"lease\": 8, \"min_lease\": 1, \"retry_every\": 1, \"action\": 6 },\n";
    out += "  \"candidates\": [\n";
    for (std::int64_t i = 0; i < n; ++i) {
        const Tick action = draw_between(rng, 3, 12);
        const Tick lease = draw_between(rng, action / 2 + 2, action + 4);
        const Tick wait = draw_between(rng, 0, 4);
        const Tick min_lease = draw_between(rng, 0, std::min<Tick>(2, lease));
        const bool auto_extend = rng.next() % 4 == 0;
        // Every period jitters by ±25% around the base, never below the run itself.
        const Tick every = std::max<Tick>(action + wait + 1, draw_between(rng, base_every * 3 / 4, base_every * 5 / 4));
        const Tick start = draw_between(rng, 0, std::min<Tick>(every, horizon / 2));
        const std::int64_t runs = std::clamp<std::int64_t>((horizon - start) / every + 1, 1, limits::runs_max);
        out += fmt::format(
            "    {{ \"name\": \"{}\", \"start\": {}, \"wait\": {}, \"lease\": {}, \"min_lease\": {}, "
            "\"action\": {}",
            candidate_name(i), start, wait, lease, min_lease, action);
        if (auto_extend) out += ", \"auto_extend\": true";
        if (rng.next() % 3 == 0 && action >= 2) {
            out += fmt::format(", \"writes\": [{}, {}]", action / 2, action);
        }
        if (rng.next() % 50 == 0) out += fmt::format(", \"fail_at\": {}", draw_between(rng, 1, action));
        if (rng.next() % 20 == 0) out += ", \"hold_off\": 1";
        if (runs > 1) out += fmt::format(", \"runs\": {}, \"every\": {}", runs, every);
        if (next_wait != replication.waits.end() && next_wait->first == i) {
            out += fmt::format(", \"wait_replicas\": {}", next_wait->second);
            ++next_wait;
        }
        out += i + 1 < n ? " },\n" : " }\n";
    }
    out += "  ],\n";

    append_faults(out, o, rng, replication);
    out += fmt::format(
        "  \"ops\": [\n    {{ \"at\": {}, \"actor\": \"auditor\", \"op\": \"status\" }},\n"
        "    {{ \"at\": {}, \"actor\": \"auditor\", \"op\": \"validate\", \"token_of\": \"{}\" }}\n  ]\n",
        horizon / 4, horizon / 4 + 1, candidate_name(0));
    out += "}\n";
    return out;
}

}  // namespace leasescope::sim
