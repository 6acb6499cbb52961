// Running a simulation: to its end with the trace hash (run_to_end,
// simulate), snapshots of its state, and the Timeline's checkpoints for
// seeking to any tick.
#include <algorithm>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

namespace {

// Hashes the canonical line of every event and passes the event on.
class HashingSink final : public EventSink {
public:
    explicit HashingSink(EventSink& next) : next_(next) {}
    void on_event(const Event& event) override { on_event_view(view_of(event)); }
    void on_event_view(const EventView& event) override {
        // The line is made once, in the hasher's buffer, and passed on from
        // there before the buffer is hashed.
        std::string& pending = hasher_.pending();
        const std::size_t start = pending.size();
        append_event_line(pending, event);
        pending += '\n';
        ++count_;
        next_.on_event_line(event, std::string_view(pending).substr(start));
        hasher_.line_written();
    }
    std::string hex() { return hasher_.hex(); }
    std::int64_t count() const { return count_; }

private:
    EventSink& next_;
    TraceHasher hasher_;
    std::int64_t count_ = 0;
};

class CollectingSink final : public EventSink {
public:
    explicit CollectingSink(std::vector<Event>& out) : out_(out) {}
    void on_event(const Event& event) override { out_.push_back(event); }

private:
    std::vector<Event>& out_;
};

}  // namespace

Result<TraceSummary, StoreError> run_to_end(Simulation& sim, Store& store, EventSink& sink,
                                            const std::function<void(Tick)>& on_tick_begin, std::optional<Tick> until,
                                            bool keep_results) {
    HashingSink hashing(sink);
    // Quiet ticks are passed over at once on the model store; live mode
    // (on_tick_begin) waits for each tick's moment, so it steps through them.
    ModelStore* model = on_tick_begin ? nullptr : store.model();
    const Tick limit = until ? *until + 1 : std::numeric_limits<Tick>::max();
    while (!sim.finished() && !sim.spill_failed() && (!until || sim.next_tick() <= *until)) {
        // A skip ends before a tick that is not quiet, which is stepped next,
        // or at the limit.
        if (model != nullptr) {
            sim.skip_quiet_ticks(*model, limit);
            if (until && sim.next_tick() > *until) break;
        }
        if (on_tick_begin) on_tick_begin(sim.next_tick());
        auto stepped = sim.step(store, hashing);
        if (!stepped.ok()) return Err{stepped.error()};
    }
    TraceSummary summary;
    summary.end_tick = sim.finished() ? sim.end_tick() : sim.next_tick() - 1;
    if (keep_results) summary.results = sim.results();
    summary.violations = sim.violations();
    summary.events = hashing.count();
    summary.trace_sha256 = hashing.hex();
    return summary;
}

bool write_summary_line(const Simulation& sim, const TraceSummary& summary,
                        const std::function<void(std::string_view)>& write) {
    constexpr std::size_t piece_bytes = std::size_t{64} << 10;
    std::string out = summary_head(summary);
    bool first = true;
    RunSummary r;
    const auto append = [&](std::span<const RunOutcome> outcomes) {
        for (const RunOutcome& o : outcomes) {
            r.result = to_string(o.result);
            r.fencing = o.learned();
            append_summary_result(out, r, first);
            ++r.run;
            first = false;
            if (out.size() >= piece_bytes) {
                write(out);
                out.clear();
            }
        }
    };
    if (sim.redlock() != nullptr || sim.redisson() != nullptr) {
        // A Redlock or Redisson run keeps its few results (model.md §20.8, §21.9).
        for (const RunSummary& one : sim.redlock() != nullptr ? sim.redlock()->results() : sim.redisson()->results()) {
            append_summary_result(out, one, first);
            first = false;
        }
        out += summary_tail(summary);
        write(out);
        return true;
    }
    OutcomeSpill* spill = sim.spills() > 0 ? sim.outcome_spill() : nullptr;
    if (spill != nullptr && !spill->rewind()) return false;
    const auto& electors = sim.electors();
    for (std::size_t i = 0; i < electors.size(); ++i) {
        const Elector& e = electors[i];
        r.node = e.owner();
        r.run = 0;
        if (spill != nullptr && !spill->read(static_cast<NodeIndex>(i), append)) return false;
        // Every spilled outcome came back, none twice.
        if (r.run != e.first_held_run()) return false;
        append(e.outcomes());
    }
    out += summary_tail(summary);
    write(out);
    return true;
}

Trace simulate(const Scenario& scenario, std::optional<Tick> until) {
    Trace trace;
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    trace.header = sim.header();
    CollectingSink collect(trace.events);
    auto summary = run_to_end(sim, store, collect, {}, until);
    LS_ASSERT(summary.ok());  // the model store never fails
    trace.summary = std::move(summary.value());
    return trace;
}

// Every server's copy of the record (model.md §17), when the store has replicas.
static std::vector<ServerSnapshot> server_snapshots(const ModelStore& store, Tick tick) {
    std::vector<ServerSnapshot> out;
    for (std::int32_t s = 0; s < store.server_count(); ++s) {
        ServerSnapshot snap;
        snap.server = s;
        snap.role = s == store.primary()       ? ServerRole::primary
                    : s == store.old_primary() ? ServerRole::old_primary
                                               : ServerRole::replica;
        snap.linked = snap.role == ServerRole::replica && store.server_link(s).linked;
        ModelStore::ServerCopy copy = store.server_copy(s);
        snap.slots = std::move(copy.slots);
        snap.counter = copy.counter;
        snap.holdoff_until = copy.holdoff_until;
        if (snap.role == ServerRole::primary) snap.good_replicas = store.good_replicas(tick);
        out.push_back(std::move(snap));
    }
    return out;
}

const char* to_string(ServerRole r) {
    switch (r) {
        case ServerRole::primary: return "primary";
        case ServerRole::replica: return "replica";
        case ServerRole::old_primary: return "old_primary";
    }
    return "?";
}

Snapshot take_snapshot(const Simulation& sim, const ModelStore& store, Tick tick) {
    Snapshot snap;
    snap.tick = tick;
    snap.slots = store.slots();
    snap.servers = server_snapshots(store, tick);
    snap.counter = store.counter();
    snap.holdoff_until = store.holdoff_until();
    snap.resource = sim.resource();
    snap.violations = sim.violations();
    snap.in_overlap = sim.in_overlap();
    const auto& electors = sim.electors();
    for (std::size_t i = 0; i < electors.size(); ++i) {
        const Elector& e = electors[i];
        const NodeFaults& nf = sim.faults()[i];
        NodeSnapshot n;
        n.name = e.owner();
        n.paused = nf.paused;
        n.partition = nf.partition;
        n.action = e.options().action;
        n.watchdog = e.watchdog_running();
        if (const RunRecord* run = e.latest_run()) {
            n.run = run->run;
            n.token = run->token;
            n.fencing = run->fencing;
            if (run->result != RunResult::unfinished) n.last_result = run->result;
        }
        switch (e.state()) {
            case ElectorState::idle: n.status = NodeStatus::idle; break;
            case ElectorState::waiting: n.status = NodeStatus::waiting; break;
            case ElectorState::running:
                n.believes_leader = true;
                n.progress = e.progress();
                n.status =
                    store.do_validate(tick, n.token) == Validity::current ? NodeStatus::running : NodeStatus::stale;
                break;
            case ElectorState::finished: n.status = NodeStatus::done; break;
        }
        if (nf.crashed) n.status = NodeStatus::crashed;
        snap.nodes.push_back(std::move(n));
    }
    return snap;
}

namespace {

// Roughly what a copy of the state costs: the heap memory of the electors and
// their runs, which dominates on big scenarios.
std::size_t state_bytes(const Simulation& sim, const ModelStore& store) {
    std::size_t bytes = sizeof(Simulation) + sizeof(ModelStore);
    bytes += store.slots().size() * sizeof(SlotRecord);
    bytes += sim.faults().size() * sizeof(NodeFaults);
    for (const Elector& e : sim.electors()) {
        bytes += sizeof(Elector) + e.owner().capacity() + e.options().writes.size() * sizeof(Tick);
        bytes += sizeof(RunRecord) + e.outcomes().size() * sizeof(RunOutcome);
    }
    // The scheduler's own lists: at most a few entries per node.
    bytes += sim.electors().size() * 3 * sizeof(std::pair<Tick, NodeIndex>);
    return bytes;
}

}  // namespace

Timeline::Timeline(Scenario scenario, Tick checkpoint_every, std::size_t checkpoint_bytes_max, TickObserver* observer,
                   std::int64_t events_max)
    : scenario_(std::make_unique<Scenario>(std::move(scenario))), checkpoint_every_(checkpoint_every) {
    LS_ASSERT(checkpoint_every_ >= 1);
    LS_ASSERT(events_max >= 0);
    Simulation sim(*scenario_);
    ModelStore store(scenario_->lock);
    trace_.header = sim.header();
    CollectingSink collect(trace_.events);
    HashingSink hashing(collect);
    while (!sim.finished()) {
        if (sim.next_tick() % checkpoint_every_ == 0) {
            checkpoints_.push_back(Checkpoint{sim, store});
            checkpoint_sizes_.push_back(state_bytes(sim, store));
            checkpoint_bytes_ += checkpoint_sizes_.back();
            // Over budget: double the spacing, keep the checkpoints at its
            // multiples (the first always stays).
            while (checkpoint_bytes_ > checkpoint_bytes_max && checkpoints_.size() > 1) {
                std::size_t kept = 0;
                checkpoint_bytes_ = 0;
                for (std::size_t k = 0; k < checkpoints_.size(); k += 2) {
                    if (kept != k) {
                        checkpoints_[kept] = std::move(checkpoints_[k]);
                        checkpoint_sizes_[kept] = checkpoint_sizes_[k];
                    }
                    checkpoint_bytes_ += checkpoint_sizes_[kept];
                    ++kept;
                }
                checkpoints_.erase(checkpoints_.begin() + static_cast<std::ptrdiff_t>(kept), checkpoints_.end());
                checkpoint_sizes_.resize(kept);
                checkpoint_every_ *= 2;
            }
        }
        // Quiet ticks at once, up to the next checkpoint's tick (taken above
        // when the skip ends there).
        const Tick next_checkpoint = (sim.next_tick() / checkpoint_every_ + 1) * checkpoint_every_;
        const Tick skip_from = sim.next_tick();
        const Tick skipped = sim.skip_quiet_ticks(store, next_checkpoint);
        if (skipped > 0 && observer) observer->on_ticks(sim, store, skip_from, skip_from + skipped - 1);
        if (skipped > 0 && sim.next_tick() == next_checkpoint) continue;
        const Tick tick = sim.next_tick();
        auto stepped = sim.step(store, hashing);
        LS_ASSERT(stepped.ok());
        if (observer) observer->on_ticks(sim, store, tick, tick);
        // Checked after each tick: one tick adds a bounded number of events
        // (model.md §11.6), so the trace never grows much past the limit.
        if (static_cast<std::int64_t>(trace_.events.size()) > events_max) {
            limit_error_ = fmt::format(
                "{}: the run emits more than {} events by tick {}; at most {} (trace_events_max), as every event "
                "is kept in memory: shorten the horizon or use fewer candidates, runs, writes or faults",
                scenario_->name, events_max, trace_.events.back().tick, events_max);
            break;
        }
    }
    trace_.summary.end_tick = limit_error_.empty() ? sim.end_tick() : trace_.events.back().tick;
    trace_.summary.results = sim.results();
    trace_.summary.violations = sim.violations();
    trace_.summary.events = hashing.count();
    trace_.summary.trace_sha256 = hashing.hex();
}

Snapshot Timeline::snapshot_at(Tick t) const {
    t = std::clamp<Tick>(t, 0, end_tick());
    if (replayed_) return replay_snapshot(t);
    const auto index = static_cast<std::size_t>(t / checkpoint_every_);
    LS_ASSERT(index < checkpoints_.size());
    Checkpoint cp = checkpoints_[index];
    NullSink null_sink;
    while (!cp.sim.finished() && cp.sim.next_tick() <= t) {
        cp.sim.skip_quiet_ticks(cp.store, t + 1);
        if (cp.sim.next_tick() > t) break;
        auto stepped = cp.sim.step(cp.store, null_sink);
        LS_ASSERT(stepped.ok());
    }
    return take_snapshot(cp.sim, cp.store, t);
}

std::size_t Timeline::first_event_at_or_after(Tick t) const {
    const auto& events = trace_.events;
    return static_cast<std::size_t>(
        std::lower_bound(events.begin(), events.end(), t, [](const Event& e, Tick v) { return e.tick < v; }) -
        events.begin());
}

}  // namespace leasescope::sim
