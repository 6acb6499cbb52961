#pragma once
// The facts an explanation is built from, each read from the trace before the
// explained event only (so no sentence tells what has not happened yet), and
// the small helpers on events they share. Internal to the words library.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/words/words.hpp"

namespace leasescope::words::facts {

using sim::Event;
using sim::EventOp;
using sim::Outcome;

// The give-up event (model.md: op `skip`, outcome `skipped`).
bool is_skip(const Event& e);
std::string opt_text(const std::optional<std::int64_t>& v);
std::string join(const std::vector<std::string>& items);
// Appends sentence `key` to `out`, filled with `extra` and then `event`'s
// fields (a field of `extra` wins over one of the same name): the one way
// the three Explain builders (elector, Redlock, Redisson) add a sentence.
void add_sentence(Explanation& out, const Strings& s, const std::string& key, const Fields& extra, const Fields& event);

// Facts read from the trace, before event `index`.

// A record the store holds, replayed from the events.
struct Held {
    std::string owner;
    Token token;
    Fencing fencing = 0;
};

bool acquires_record(const Event& e);

// A failover that promoted a replica (model.md §17.3), as the trace shows it.
struct Promotion {
    Tick tick = 0;                    // the failover
    std::int32_t server = 0;          // the promoted replica
    std::optional<Tick> cut;          // its link was cut at this tick (it holds the primary's state of the tick before)
    Fencing was = 0;                  // the old primary's counter just before
    Fencing counter = 0;              // the new primary's (0: none issued)
    std::vector<Held> kept;           // records the promoted replica held
    std::vector<Held> lost;           // records only the old primary held
    std::vector<std::size_t> missed;  // acquisitions the old primary issued after the cut (event indexes)
};

// The store's copies replayed from the events (model.md §17): the primary's,
// each cut replica's and an old primary's in split brain.
struct StoreReplay {
    struct Copy {
        std::vector<Held> held;
        Fencing counter = 0;
        std::int32_t server = 0;  // old: its number
    };
    struct Cut {
        std::int32_t server = 0;
        Tick tick = 0;
        Copy copy;
    };
    Copy primary;
    std::int32_t primary_server = 0;
    std::vector<Cut> frozen;
    std::optional<Copy> old;
    std::vector<std::size_t> issued;     // acquisitions the current primary issued
    std::optional<Promotion> promotion;  // the last one replayed
    void apply(const sim::Trace& trace, std::size_t k);
    void promote(const sim::Trace& trace, std::size_t k);
};
StoreReplay replay(const sim::Trace& trace, const std::vector<std::size_t>& order);

// The tick the store applied an event's call (model.md §16.6: `applied`,
// else its tick; a write's, an expiry's: its tick).
Tick applied_at(const Event& e);

// The events the store had applied when it handled event `index` (at
// applied_at of it): those applied at an earlier tick, or at that tick and
// listed before it, in the order the store applied them. A reply read late
// was decided by these. With no time on the wire: the events before `index`.
// `index` past the end: every event.
std::vector<std::size_t> applied_before(const sim::Trace& trace, std::size_t index);

// The records the store held when it handled event `index` (applied_before).
std::vector<Held> records_before(const sim::Trace& trace, std::size_t index);

// The records that made Redis answer busy to the acquire at `index`: those of
// records_before, and the acquisitions Redis applied in the same tick whose
// replies were read later (their events come after `index` in the trace,
// though the store had applied them when it answered, model.md §16.3).
std::vector<Held> records_deciding(const sim::Trace& trace, std::size_t index);

// Whether a call's request reached Redis and ended the token's record
// although its event says `error`: a crashed node's release (model.md §16.4:
// its calls end as `error` when the reply arrives), applied while the token
// held a record that no later expiry of the trace ends.
bool release_applied_silently(const sim::Trace& trace, std::size_t k);

// The highest fencing number the resource accepted before `index`.
std::optional<Fencing> highest_accepted_before(const sim::Trace& trace, std::size_t index);

// How a token's lease ended before `index`, as the trace shows it.
struct LeaseEnd {
    enum class Kind { none, expiry, release, failover } kind = Kind::none;
    Tick tick = 0;
    sim::Details lose;  // failover: Detail::leases or Detail::all
};

LeaseEnd lease_end(const sim::Trace& trace, const Token& token, std::size_t index);

// A node's faults as they stand just before `index`.
struct NodeFaultState {
    bool paused = false;
    Tick paused_since = 0;
    bool partitioned = false;
    Tick partitioned_since = 0;
    sim::Details partition_mode;  // Detail::drop_requests or Detail::drop_replies
    bool crashed = false;
    Tick crashed_at = 0;
};

NodeFaultState faults_before(const sim::Trace& trace, const std::string& node, std::size_t index);

// A pause of `node` that covered some tick in [from, the tick of `index`]:
// its first tick and the tick it ended (or nullopt when it still lasts).
struct Span {
    Tick from = 0;
    std::optional<Tick> until;
};

std::optional<Span> fault_during(const sim::Trace& trace, const std::string& node, Tick from, std::size_t index,
                                 EventOp begin_op, EventOp end_op);

// The tick `node`'s run `run` started, or nullopt.
std::optional<Tick> run_start(const sim::Trace& trace, const std::string& node, std::int32_t run, std::size_t index);

// The latest tick at which `token`'s record was acquired or renewed before
// `index`: the tick Redis applied the call (model.md §16.6).
Tick last_renewal(const sim::Trace& trace, const Token& token, std::size_t index);

// The failover with lose = all before `index`, if any (the latest).
std::optional<Tick> counter_reset_before(const sim::Trace& trace, std::size_t index);

bool regressed_before(const sim::Trace& trace, std::size_t index);

// The promoting failover at `index`, replayed (nullopt for any other event).
std::optional<Promotion> promotion_at(const sim::Trace& trace, std::size_t index);
// The latest promoting failover before `index` whose counter went back.
std::optional<Promotion> rollback_before(const sim::Trace& trace, std::size_t index);
// Whether the replica promoted at `index` held `token`'s record.
bool promotion_kept(const sim::Trace& trace, std::size_t index, const Token& token);

// For a write marked stale_after_successor (model.md §9.6): the successor of
// its slot (acquired later in the order the store issued acquisitions) whose
// write the resource had accepted before it, the last one.
struct SuccessorWrite {
    std::string node;
    SlotIndex slot = 0;
    Tick acquired = 0;  // the successor's acquisition, at the tick the store applied it
    Tick wrote = 0;     // its accepted write
};
std::optional<SuccessorWrite> successor_write_before(const sim::Trace& trace, std::size_t index);

// For an acquire marked fencing_duplicate (§9.8): the last acquisition the
// store issued the same number before it (in the order it issued them).
const Event* same_number_before(const sim::Trace& trace, std::size_t index);

const sim::Candidate* candidate_of(const sim::Scenario* scenario, const std::string& node);

// Whether `node`'s run `run` ended (released, gave up, failed, crashed) before `index`.
std::optional<Tick> run_ended_before(const sim::Trace& trace, const std::string& node, std::int32_t run,
                                     std::size_t index);

}  // namespace leasescope::words::facts
