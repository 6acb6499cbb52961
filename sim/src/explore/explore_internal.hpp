#pragma once
// What the explorer's files share and nothing else needs: saturating counts,
// the canonical order of faults and their clashes, the run of one scenario
// to its verdict (recording a due table for the pruning). Private to
// sim/src/explore/.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim::explore_detail {

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t sum = a + b;
    return sum < a ? std::numeric_limits<std::uint64_t>::max() : sum;
}

inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<std::uint64_t>::max();
    return product;
}

// C(n, r), saturating at UINT64_MAX; r is small (at most explore_faults_max).
inline std::uint64_t binomial(std::uint64_t n, int r) {
    if (r < 0) return 0;
    const auto rr = static_cast<std::uint64_t>(r);
    if (n < rr) return 0;
    __extension__ typedef unsigned __int128 Wide;
    Wide c = 1;
    for (std::uint64_t i = 0; i < rr; ++i) {
        // c · (n − i) is divisible by i + 1 because c = C(n, i).
        c = c * static_cast<Wide>(n - i) / static_cast<Wide>(i + 1);
        if (c > static_cast<Wide>(std::numeric_limits<std::uint64_t>::max())) {
            return std::numeric_limits<std::uint64_t>::max();
        }
    }
    return static_cast<std::uint64_t>(c);
}

// Canonical order of faults: tick, kind, node, duration, mode, loss, then a
// clock jump's milliseconds and a delay's link and extra ticks, then a
// promotion's server and lag, and last a Redlock fault's store and
// persistence (model.md §20). The atom table is sorted by it, so a schedule
// in increasing atom order is in tick order.
inline bool fault_less(const Fault& a, const Fault& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.node != b.node) return a.node < b.node;
    if (a.ticks != b.ticks) return a.ticks < b.ticks;
    if (a.mode != b.mode) return a.mode < b.mode;
    if (a.lose != b.lose) return a.lose < b.lose;
    if (a.ms != b.ms) return a.ms < b.ms;
    if (a.link != b.link) return a.link < b.link;
    if (a.extra != b.extra) return a.extra < b.extra;
    if (a.server != b.server) return a.server < b.server;
    if (a.lag != b.lag) return a.lag < b.lag;
    if (a.store != b.store) return a.store < b.store;
    if (a.persistence != b.persistence) return a.persistence < b.persistence;
    return a.stores < b.stores;
}

// Replication (model.md §17.2, §17.3): two cuts of one server's link overlap,
// two promoting failovers share a tick, or a cut of the promoted server meets
// its failover's lag window [at - lag, at) other than by covering all of it
// (an earlier cut that stands, §17.3). The explorer's own rule: a cut that
// starts inside the lag window, or ends inside it, would make the lag mean
// something else than "behind by lag ticks".
inline bool replication_clashes(const Fault& a, const Fault& b) {
    if (a.kind == FaultKind::replica_link && b.kind == FaultKind::replica_link)
        return a.server == b.server && a.at < b.end() && b.at < a.end();
    if (a.promotes() && b.promotes()) return a.at == b.at;
    const Fault* cut = a.kind == FaultKind::replica_link ? &a : b.kind == FaultKind::replica_link ? &b : nullptr;
    const Fault* promote = a.promotes() ? &a : b.promotes() ? &b : nullptr;
    if (cut == nullptr || promote == nullptr || cut->server != promote->server || promote->lag == 0) return false;
    const Tick from = promote->at - promote->lag;
    const bool meets = cut->at < promote->at && from < cut->end();
    const bool covers = cut->at < from && cut->end() >= promote->at;
    return meets && !covers;
}

// Two pauses, or two partitions, on one node must not overlap (docs/model.md
// §7.4). The explorer's own rule besides: one delay per node, link and sent
// tick, and one jump per clock and tick. Both would add up to a single fault
// that the budget holds already (or lies beyond it), so they only repeat it.
// On Redlock, two restarts of one store must not overlap (model.md §20.3),
// and a jump of one store's clock never clashes with another store's.
inline bool clashes(const Fault& a, const Fault& b) {
    if (a.kind == FaultKind::replica_link || b.kind == FaultKind::replica_link || a.promotes() || b.promotes())
        return replication_clashes(a, b);
    if (a.kind != b.kind || a.node != b.node || a.store != b.store) return false;
    if (a.kind == FaultKind::restart) return a.at < b.end() && b.at < a.end();
    if (a.kind == FaultKind::delay) return a.link == b.link && a.at < b.at + b.ticks && b.at < a.at + a.ticks;
    if (a.kind == FaultKind::clock_jump) return a.at == b.at;
    if (a.kind != FaultKind::pause && a.kind != FaultKind::partition) return false;
    return a.at < b.end() && b.at < a.end();
}

// Whether the servers' roles allow every replication fault of `faults` (the
// base's and the added ones, any order; model.md §17.2 rule 3, §17.3 rule 5,
// §17.5): a cut names a server that is a replica at its tick, a promotion a
// server that is a replica throughout its lag window and at its tick, no
// failover falls inside a split brain, and a cut that outlives its server's
// promotion meets no later failover (what it would mean then is not said).
// Depends only on faults at or before the latest one, so every tick-prefix
// of a valid schedule is valid.
bool roles_valid(const std::vector<Fault>& faults);
// How many ticks faults start at: 0 … max_tick, every start_every-th
// (ExploreOptions::start_every, at least 1; docs/explorer.md, Start ticks on
// a grid). The atoms, the budget and random draws all count these.
inline std::int64_t start_count(Tick max_tick, Tick start_every) { return max_tick / start_every + 1; }
// The error for a start_every outside 1 … explore_start_every_max, naming
// --start-every (explore_options.cpp); none when it is in range.
std::optional<std::string> start_every_error(Tick start_every);
// The due table's rows: ticks first … last, nothing due yet (explore_space.cpp).
void size_table(Explorer::DueTable& table, Tick first, Tick last, std::int32_t nodes);
// Whether adding `f` to the run the table records can change anything
// (docs/model.md §7 for what a fault on a node does, §4.4 for a failover;
// docs/explorer.md, Pruning).
bool relevant(const Fault& f, const Explorer::DueTable& table);
// The states the runs of one chunk reached, each with the verdict of the run
// that reached it (docs/explorer.md, Merging states). A state is the whole
// simulation at a tick boundary (verdict_digest: the faults still to come
// are part of it, the count of events is not) with the tick and the order
// variant, sampled on multiples of a period that starts at
// merge_sample_ticks and doubles up to merge_sample_ticks_max
// (explore_space.cpp, Sampling). At its cap (ExploreOptions::
// merge_states_max) it keeps no more, and the search goes on exactly, only
// without new merges.
inline constexpr Tick merge_sample_ticks = 32;
inline constexpr Tick merge_sample_ticks_max = 1024;

class MergeMemo {
public:
    struct Key {
        StateHasher::Digest digest;
        Tick tick = 0;
        std::int32_t variant = 0;
        bool operator==(const Key&) const = default;
    };
    explicit MergeMemo(std::size_t cap = 0) : cap_(cap) {}
    // The verdict stored for `key`, or null.
    const Verdict* find(const Key& key) const;
    // A state the run under way reached; kept by finish() with its verdict.
    void note(const Key& key);
    // Stores every state noted since the last finish() with `verdict`.
    void finish(const Verdict& verdict);
    std::uint64_t states() const { return states_.size(); }
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return static_cast<std::size_t>(k.digest.low ^ (k.digest.high * 31) ^ static_cast<std::uint64_t>(k.tick));
        }
    };

private:
    std::unordered_map<Key, std::uint32_t, KeyHash> states_;  // the index of its verdict
    std::vector<Verdict> verdicts_;                           // distinct verdicts
    std::unordered_multimap<std::uint64_t, std::uint32_t> verdict_index_;
    std::vector<Key> pending_;
    std::size_t cap_ = 0;
};

// The subtrees of schedules already searched (docs/explorer.md, Sharing
// subtrees): a prefix's state at a tick boundary before any later fault
// (verdict_digest, the tick, the variant, how many faults are still to be
// added from that tick on) and the counters of every schedule that extends
// it with faults from that tick on. Only subtrees in which nothing failed
// are kept, so a prefix that meets one takes its counters and skips it: the
// counterexample and its ranking are the plain search's. Kept up to its cap,
// then no more (the search stays exact, with fewer skips).
inline constexpr Tick share_sample_ticks = 16;

class SubtreeMemo {
public:
    struct Key {
        MergeMemo::Key state;  // the prefix's state, tick and variant
        std::int32_t faults = 0;
        bool operator==(const Key&) const = default;
    };
    explicit SubtreeMemo(std::size_t cap = 0) : cap_(cap) {}
    const SearchStats* find(const Key& key) const {
        const auto it = subtrees_.find(key);
        return it == subtrees_.end() ? nullptr : &it->second;
    }
    // Keeps a whole subtree's counters (the first kept for a key stays).
    void keep(const Key& key, const SearchStats& counts) {
        if (subtrees_.size() < cap_) subtrees_.emplace(key, counts);
    }
    std::uint64_t size() const { return subtrees_.size(); }

private:
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return MergeMemo::KeyHash{}(k.state) ^ (static_cast<std::size_t>(k.faults) << 56);
        }
    };
    std::unordered_map<Key, SearchStats, KeyHash> subtrees_;
    std::size_t cap_ = 0;
};

// Where a run meets the memo: the variant it runs, the first tick at which
// its added faults have all settled (before it, the faults still to come make
// its state one no other schedule reaches, so it is not sampled), whether it
// may stop at a state met before (not while it records a due table), and the
// count of runs that did.
struct MergeProbe {
    MergeMemo* memo = nullptr;
    std::int32_t variant = 0;
    Tick from = 0;
    bool lookup = true;
    std::uint64_t* merged = nullptr;
};

// The first tick at which fault f has nothing left to do that is not in the
// state: the end of a pause, partition, cut, restart or of a delay's window
// (messages sent in it are on the wire), else the tick after it happens.
inline Tick settled_from(const Fault& f) {
    return f.kind == FaultKind::delay ? f.at + f.ticks : f.end() != tick_none ? f.end() : f.at + 1;
}

// Runs a scenario to its end on the model store; with a table, records what
// is due before each tick from table.first on. Adds the ticks run to `ticks`.
// The verdict reads the invariants of docs/model.md §9.
Verdict simulate_verdict(const Scenario& scenario, const Properties& checked, Explorer::DueTable* table,
                         std::uint64_t& ticks, MergeProbe* probe = nullptr);
// The same from wherever `sim` stands (a fork: Simulation::append_faults)
// to its end; the table's first row must not lie before sim.next_tick().
// Adds the ticks run from there. With a probe, samples the states it passes
// into the memo and, if the probe may look up, stops at one met before and
// returns its verdict.
Verdict finish_verdict(Simulation& sim, ModelStore& store, const Properties& checked, Explorer::DueTable* table,
                       std::uint64_t& ticks, MergeProbe* probe = nullptr);
// Runs `sim` up to tick `to` (its next tick is then `to`, or it ended
// before), adding the ticks passed to `ticks`.
void advance_to(Simulation& sim, ModelStore& store, Tick to, std::uint64_t& ticks);

}  // namespace leasescope::sim::explore_detail
