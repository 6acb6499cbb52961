// The Redlock scenario generator (`leasescope-cli generate --client redlock`):
// a random scenario of model.md §20 inside what tests/redlock/driver.js runs
// through the real npm package, so that tests/redlock/compare.sh can check
// the model against it on scenarios nobody wrote by hand (model.md §20.9).
#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "generator_draw.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/generator.hpp"

namespace leasescope::sim {
namespace {

using generator_detail::draw_between;

// Every duration is whole ticks, so the scenario runs at any tick_ms
// (compare.sh runs it at 200 ms, tools/full.sh at 100 ms). The retry delay
// is the one value in milliseconds (model.md §20.1 rule 2): a multiple of
// 200 ms is whole ticks at both, as the driver requires (a retry on a
// sub-tick boundary would fall between two of the model's ticks).
constexpr Tick redlock_tick_ms = 200;
constexpr std::int64_t retry_delay_unit_ms = 200;
// The real run lasts at most horizon × tick_ms (7.2 s at 200 ms ticks); it
// ends earlier once every run is over (model.md §6.3), about 4 s on
// average, so that five fit in the default suite's redlock.npm.
constexpr Tick redlock_horizon = 36;
constexpr Tick start_max = 8;
constexpr Tick fault_at_max = 16;
// drift_factor as the scenario writes it. With a lease of at least 2 ticks
// each keeps the validity (model.md §20.4 rule 5) far from 0 at 100 and
// 200 ms ticks, the driver's condition for a comparison; 1 makes it −2 ms, so
// every attempt fails on validity, in the package as in the model.
constexpr std::array<const char*, 16> drift_factors = {"0.01", "0.01", "0.01", "0.01", "0.01", "0.01", "0",   "0",
                                                       "0.05", "0.05", "0.1",  "0.1",  "0.2",  "0.3",  "0.5", "1"};
constexpr const char* store_names[] = {"A", "B", "C", "D", "E"};

struct RedlockCandidate {
    Tick start = 0;
    Tick lease = 0;
    Tick action = 0;
    std::vector<Tick> writes;  // empty: the default, one write at the end
    std::int64_t runs = 1;
    Tick every = 0;
};

struct Interval {
    Tick at = 0;
    Tick ticks = 0;
    Tick end() const { return at + ticks; }
};

std::string client_name(std::size_t i) { return fmt::format("c{}", i + 1); }

// Mostly five stores, sometimes three, now and then one (quorum 3, 2, 1).
std::size_t draw_store_count(SplitMix64& rng) {
    const std::int64_t d = draw_between(rng, 0, 9);
    if (d < 7) return 5;
    return d < 9 ? 3 : 1;
}

std::vector<Tick> draw_writes(SplitMix64& rng, Tick action) {
    const std::int64_t how = draw_between(rng, 0, 2);
    if (how == 0) return {};
    const Tick a = draw_between(rng, 1, action);
    if (how == 1) return {a};
    const Tick b = draw_between(rng, 1, action);
    if (a == b) return {a};
    return {std::min(a, b), std::max(a, b)};
}

// Starts spread over the first eight ticks; a lease of 2-10 ticks against an
// action of 1-8, so that the lease sometimes runs out while the client works
// (the unsafe write of §20.6); now and then a second run.
RedlockCandidate draw_candidate(SplitMix64& rng) {
    RedlockCandidate c;
    c.start = draw_between(rng, 0, start_max);
    c.lease = draw_between(rng, 2, 10);
    c.action = draw_between(rng, 1, 8);
    c.writes = draw_writes(rng, c.action);
    if (draw_between(rng, 0, 2) == 0) {
        c.runs = 2;
        c.every = c.action + draw_between(rng, 2, 10);
    }
    return c;
}

std::string candidate_json(std::size_t i, const RedlockCandidate& c) {
    std::string out = fmt::format(R"(    {{ "name": "{}", "start": {}, "lease": {}, "action": {})", client_name(i),
                                  c.start, c.lease, c.action);
    if (!c.writes.empty()) out += fmt::format(R"(, "writes": [{}])", fmt::join(c.writes, ", "));
    if (c.runs > 1) out += fmt::format(R"(, "runs": {}, "every": {})", c.runs, c.every);
    return out + " }";
}

// The client's options: no jitter (the package draws it from Math.random),
// a delay of whole 200 ms, 0-4 retries.
std::string redlock_options_json(SplitMix64& rng) {
    const std::int64_t retry_count = draw_between(rng, 0, 4);
    const std::int64_t retry_delay_ms = retry_delay_unit_ms * draw_between(rng, 1, 3);
    const char* drift = drift_factors[static_cast<std::size_t>(draw_between(rng, 0, drift_factors.size() - 1))];
    return fmt::format(
        R"(  "redlock": {{ "retry_count": {}, "retry_delay_ms": {}, "retry_jitter_ms": 0, "drift_factor": {} }},)"
        "\n",
        retry_count, retry_delay_ms, drift);
}

// A pause of about one candidate in three; a crash of one candidate in one
// scenario in five, never inside that candidate's pause (the driver stops
// a crashed client, and a crash while paused would only move the crash).
void draw_candidate_faults(SplitMix64& rng, std::size_t candidates, std::vector<std::string>& faults) {
    std::vector<Interval> pauses(candidates);
    for (std::size_t i = 0; i < candidates; ++i) {
        if (draw_between(rng, 0, 2) != 0) continue;
        pauses[i].at = draw_between(rng, 0, fault_at_max);
        pauses[i].ticks = draw_between(rng, 1, 10);
        faults.push_back(fmt::format(R"({{ "kind": "pause", "node": "{}", "at": {}, "ticks": {} }})", client_name(i),
                                     pauses[i].at, pauses[i].ticks));
    }
    if (draw_between(rng, 0, 4) != 0) return;
    const auto node = static_cast<std::size_t>(draw_between(rng, 0, static_cast<std::int64_t>(candidates) - 1));
    Tick at = draw_between(rng, 1, fault_at_max + 4);
    const Interval& p = pauses[node];
    if (p.ticks > 0 && at >= p.at && at < p.end()) at = p.end();
    faults.push_back(fmt::format(R"({{ "kind": "crash", "node": "{}", "at": {} }})", client_name(node), at));
}

// Restarts of 0-3 distinct stores (never more than there are), each with
// persistence none or always (the two a killed process can show, §20.3);
// a later restart overlaps the first one half the time, so that two or
// three stores are down together (a quorum lost, or won on forgetful ones).
void draw_restarts(SplitMix64& rng, std::size_t stores, std::vector<std::string>& faults) {
    const std::array<std::int64_t, 6> counts = {0, 1, 1, 1, 2, 3};
    const auto wanted = counts[static_cast<std::size_t>(draw_between(rng, 0, counts.size() - 1))];
    const auto count = std::min<std::size_t>(static_cast<std::size_t>(wanted), stores);
    std::vector<bool> used(stores, false);
    Interval first;
    for (std::size_t k = 0; k < count; ++k) {
        auto store = static_cast<std::size_t>(draw_between(rng, 0, static_cast<std::int64_t>(stores) - 1));
        while (used[store]) store = (store + 1) % stores;
        used[store] = true;
        Interval r;
        const bool overlaps = k > 0 && draw_between(rng, 0, 1) == 0;
        r.at = overlaps ? first.at + draw_between(rng, 0, first.ticks - 1) : draw_between(rng, 0, fault_at_max);
        r.ticks = draw_between(rng, 1, 6);
        if (k == 0) first = r;
        const char* persistence = draw_between(rng, 0, 1) == 0 ? "none" : "always";
        faults.push_back(
            fmt::format(R"({{ "kind": "restart", "store": "{}", "at": {}, "ticks": {}, "persistence": "{}" }})",
                        store_names[store], r.at, r.ticks, persistence));
    }
}

std::string list_json(const std::vector<std::string>& items) {
    if (items.empty()) return "[]";
    std::string out = "[\n";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "") + items[i];
    return out + "\n  ]";
}

}  // namespace

std::string generate_redlock_scenario(const GeneratorOptions& o) {
    SplitMix64 rng(o.seed);
    const std::size_t stores = draw_store_count(rng);
    const auto candidates = static_cast<std::size_t>(draw_between(rng, 1, 3));
    std::string out = "{\n";
    out += fmt::format("  \"name\": \"redlock-generated-s{}\",\n", o.seed);
    out += fmt::format(
        "  \"title\": {{ \"en\": \"Generated Redlock: {} stores, {} clients\", \"ko\": \"생성된 Redlock 시나리오: "
        "저장소 {}개, 클라이언트 {}개\" }},\n",
        stores, candidates, stores, candidates);
    out += fmt::format("  \"tick_ms\": {},\n  \"horizon\": {},\n  \"seed\": {},\n", redlock_tick_ms, redlock_horizon,
                       o.seed);
    out += "  \"client\": \"redlock\",\n";
    std::vector<std::string> names(store_names, store_names + stores);
    out += fmt::format("  \"stores\": [\"{}\"],\n", fmt::join(names, "\", \""));
    out += redlock_options_json(rng);
    out += "  \"lock\": { \"name\": \"resource\" },\n  \"defaults\": { \"wait\": 0 },\n";
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < candidates; ++i) lines.push_back(candidate_json(i, draw_candidate(rng)));
    out += "  \"candidates\": " + list_json(lines) + ",\n";
    std::vector<std::string> faults;
    if (o.faults) {
        draw_candidate_faults(rng, candidates, faults);
        draw_restarts(rng, stores, faults);
    }
    for (std::string& f : faults) f = "    " + f;
    out += "  \"faults\": " + list_json(faults) + "\n}\n";
    return out;
}

}  // namespace leasescope::sim
