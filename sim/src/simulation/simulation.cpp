// The tick scheduler's frame: a Simulation built from a scenario, one step
// through the seven phases of a tick, and the end of a run (model.md §6).
#include "leasescope/sim/simulation.hpp"

#include <algorithm>
#include <functional>

#include "leasescope/sim/limits.hpp"

namespace leasescope::sim {

const char* to_string(NodeStatus s) {
    switch (s) {
        case NodeStatus::idle: return "idle";
        case NodeStatus::waiting: return "waiting";
        case NodeStatus::running: return "running";
        case NodeStatus::stale: return "stale";
        case NodeStatus::done: return "done";
        case NodeStatus::crashed: return "crashed";
    }
    return "?";
}

Simulation::Simulation(const Scenario& scenario, TokenSource* tokens)
    : scenario_(&scenario), tokens_(tokens), rng_(scenario.seed) {
    if (scenario.is_redlock()) {
        // The redlock client runs instead of the electors (model.md §20).
        redlock_.emplace(scenario);
        for (const Candidate& c : scenario.candidates) electors_.emplace_back(c.name, c.options);
        node_faults_.resize(scenario.candidates.size());
        return;
    }
    if (scenario.is_redisson()) {
        // Redisson's RLock runs instead of the electors (model.md §21).
        redisson_.emplace(scenario);
        for (const Candidate& c : scenario.candidates) electors_.emplace_back(c.name, c.options);
        node_faults_.resize(scenario.candidates.size());
        return;
    }
    electors_.reserve(scenario.candidates.size());
    for (const Candidate& c : scenario.candidates) electors_.emplace_back(c.name, c.options);
    node_faults_.resize(scenario.candidates.size());
    holdings_.resize(scenario.candidates.size());
    slot_latest_writer_.assign(static_cast<std::size_t>(scenario.lock.capacity), -1);
    latent_.resize(scenario.candidates.size());
    // A node that WAITs after acquiring always travels the wire (model.md §17.6 rule 7).
    for (std::size_t i = 0; i < scenario.candidates.size(); ++i)
        latent_[i] = !scenario.candidates[i].network.zero() || scenario.candidates[i].options.wait_replicas > 0;
    add_fault_edges(0);
    for (std::size_t i = 0; i < scenario.ops.size(); ++i) {
        op_order_.push_back(static_cast<std::int32_t>(i));
        last_scheduled_tick_ = std::max(last_scheduled_tick_, scenario.ops[i].at);
    }
    std::stable_sort(op_order_.begin(), op_order_.end(), [&](std::int32_t a, std::int32_t b) {
        return scenario.ops[static_cast<std::size_t>(a)].at < scenario.ops[static_cast<std::size_t>(b)].at;
    });
    unfinished_ = static_cast<std::int64_t>(electors_.size());
    static_assert(limits::candidates_max <= (std::int64_t{1} << wake_node_bits), "a node index must fit a wake entry");
    std::vector<WakeQueue::Entry> wakes;
    wakes.reserve(electors_.size());
    for (std::size_t i = 0; i < electors_.size(); ++i) {
        wakes.push_back(wake_entry(electors_[i].next_run_at(), static_cast<NodeIndex>(i)));
    }
    wake_queue_.assign(std::move(wakes));
}

// Files the edges of faults first … end of the scenario: from the
// constructor (all of them), and from append_faults (those appended, whose
// edges all lie at or after next_tick(), so only the unprocessed tail of
// fault_edges_ needs sorting again).
void Simulation::add_fault_edges(std::size_t first) {
    const Scenario& scenario = *scenario_;
    for (std::size_t i = first; i < scenario.faults.size(); ++i) {
        const Fault& f = scenario.faults[i];
        // A delay has no edges: it changes the arrival of what is sent in its window (model.md §7.6).
        if (f.kind == FaultKind::delay) {
            delays_.push_back(static_cast<std::int32_t>(i));
            latent_[static_cast<std::size_t>(f.node)] = 1;
            continue;
        }
        const auto index = static_cast<std::int32_t>(i);
        const auto add_edge = [&](Tick at, EdgeKind kind) {
            fault_edges_.push_back(FaultEdge{at, index, kind});
            last_scheduled_tick_ = std::max(last_scheduled_tick_, at);
        };
        add_edge(f.at, EdgeKind::start);
        if (f.end() != tick_none) add_edge(f.end(), EdgeKind::end);
        // A promoting failover's lag is a link cut before it; its split brain ends after it (model.md §17.3, §17.5).
        if (f.promotes() && f.lag > 0) add_edge(f.at - f.lag, EdgeKind::lag_cut);
        if (f.promotes() && f.old_primary) add_edge(f.old_primary->until, EdgeKind::split_end);
        if (f.promotes() || f.kind == FaultKind::replica_link) has_replication_faults_ = true;
    }
    faults_known_ = scenario.faults.size();
    std::sort(fault_edges_.begin() + static_cast<std::ptrdiff_t>(next_fault_edge_), fault_edges_.end(),
              [](const FaultEdge& a, const FaultEdge& b) {
                  if (a.tick != b.tick) return a.tick < b.tick;
                  if (a.fault != b.fault) return a.fault < b.fault;
                  return a.kind < b.kind;
              });
}

Tick Simulation::fault_first_tick(const Fault& f) { return f.promotes() && f.lag > 0 ? f.at - f.lag : f.at; }

bool Simulation::can_append_faults(const Scenario& scenario) const {
    if (redlock_ || redisson_ || tokens_ != nullptr || spill_ != nullptr) return false;
    if (scenario.faults.size() < faults_known_) return false;
    for (std::size_t i = faults_known_; i < scenario.faults.size(); ++i)
        if (fault_first_tick(scenario.faults[i]) < next_tick_) return false;
    return true;
}

bool Simulation::append_faults(const Scenario& scenario) {
    if (!can_append_faults(scenario)) return false;
    // The caller promises the rest of the scenario is the same; check the cheap part.
    LS_ASSERT(scenario.candidates.size() == scenario_->candidates.size());
    LS_ASSERT(scenario.horizon == scenario_->horizon);
    LS_ASSERT(scenario.seed == scenario_->seed);
    scenario_ = &scenario;
    if (!cut_void_.empty()) cut_void_.resize(scenario.faults.size(), 0);  // the new faults: not void
    add_fault_edges(faults_known_);
    // A run that ended quiet before the new faults would not have ended in a
    // run of the whole scenario: quiescent_after() waits for the last edge.
    if (finished_ && quiesced_ && last_scheduled_tick_ > end_tick_) {
        finished_ = false;
        quiesced_ = false;
    }
    return true;
}

bool IssuedNumbers::contains(Fencing f) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), f,
                               [](Fencing v, const std::pair<Fencing, Fencing>& r) { return v < r.first; });
    return it != ranges_.begin() && f <= std::prev(it)->second;
}

void IssuedNumbers::add(Fencing f) {
    if (contains(f)) return;
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), f,
                               [](Fencing v, const std::pair<Fencing, Fencing>& r) { return v < r.first; });
    const bool joins_before = it != ranges_.begin() && std::prev(it)->second + 1 == f;
    const bool joins_after = it != ranges_.end() && it->first == f + 1;
    if (joins_before && joins_after) {
        std::prev(it)->second = it->second;
        ranges_.erase(it);
    } else if (joins_before) {
        std::prev(it)->second = f;
    } else if (joins_after) {
        it->first = f;
    } else {
        ranges_.insert(it, {f, f});
    }
}

void Simulation::arm(NodeIndex node) {
    const Elector& e = electors_[static_cast<std::size_t>(node)];
    Tick due = tick_none;
    if (e.state() == ElectorState::waiting) due = e.next_attempt();
    if (e.state() == ElectorState::idle) due = e.next_run_at();
    if (due == tick_none) return;
    wake_queue_.push(wake_entry(due, node));
}

void Simulation::note_finished(std::size_t node, bool was_finished) {
    if (!was_finished && electors_[node].state() == ElectorState::finished) {
        --unfinished_;
        LS_ASSERT(unfinished_ >= 0);
    }
}

void Simulation::emit(EventSink& sink, EventView& event) {
    event.seq = seq_++;
    sink.on_event_view(event);
}

Result<Unit, StoreError> Simulation::step(Store& store, EventSink& sink) {
    LS_ASSERT(!finished_);
    const Tick t = next_tick_;
    if (redlock_) {
        finished_ = redlock_->step(t, sink);
        end_tick_ = t;
        next_tick_ = t + 1;
        return Unit{};
    }
    if (redisson_) {
        finished_ = redisson_->step(t, sink);
        end_tick_ = t;
        next_tick_ = t + 1;
        return Unit{};
    }
    model_ = store.model();
    std::optional<StoreError> failure;
    if (fault_edge_at(t)) phase_faults(t, store, sink, failure);
    if (!failure) phase_expiry(t, store, sink, failure);
    if (!failure) phase_work(t, store, sink, failure);
    if (!failure) phase_extend(t, store, sink);
    if (!failure) phase_acquire(t, store, sink);
    if (!failure && op_at(t)) phase_ops(t, store, sink, failure);
    if (!failure) phase_check(t, store, sink);
    end_tick_ = t;
    next_tick_ = t + 1;
    if (failure) {
        finished_ = true;
        return Err{*failure};
    }
    if (t >= scenario_->horizon) {
        finished_ = true;
    } else if (quiescent_after(t, store)) {
        finished_ = true;
        quiesced_ = true;
    }
    if (spill_ != nullptr && outcomes_held_ > spill_held_max_ && !spill_failed_) spill_outcomes();
    return Unit{};
}

Tick Simulation::skip_quiet_ticks(ModelStore& store, Tick limit) {
    // Once every run is over, the end (quiescent_after) comes at the first
    // tick, from the last scheduled one on, with the wire idle and no record
    // valid. Neither changes before the bounds below: a record stays valid
    // until its expires_at, which first_expiry bounds, and every fault edge
    // and op bounds the skip (last_scheduled_tick_ is the last of them). So
    // these ticks are skipped too, where they were stepped one by one: a
    // record a clock jump back left valid for years of ticks took seconds.
    // An old primary living on expires records of its own (model.md §17.5):
    // those runs step.
    if (finished_ || split_fault_ >= 0 || redlock_ || redisson_) return 0;
    const Tick now = next_tick_;
    Tick until = std::min(limit, scenario_->horizon);
    if (next_fault_edge_ < fault_edges_.size()) until = std::min(until, fault_edges_[next_fault_edge_].tick);
    if (next_op_ < op_order_.size()) {
        until = std::min(until, scenario_->ops[static_cast<std::size_t>(op_order_[next_op_])].at);
    }
    if (!wake_queue_.empty()) until = std::min(until, wake_tick(wake_queue_.least()));
    if (!wire_.empty()) until = std::min(until, wire_.front().at);
    until = std::min(until, store.first_expiry());
    for (const NodeIndex node : executing_) {
        const auto i = static_cast<std::size_t>(node);
        if (until <= now) return 0;
        // A paused node's action stands still; its pause ends at a fault edge.
        // So does one waiting for its check, whose answer is on the wire (§5.8).
        if (!node_faults_[i].active() || electors_[i].awaiting_check()) continue;
        const Elector& e = electors_[i];
        until = std::min(until, now + e.quiet_advances());
        if (e.watchdog_running()) until = std::min(until, e.next_extend());
    }
    if (until <= now) return 0;
    const Tick skipped = until - now;
    for (const NodeIndex node : executing_) {
        const auto i = static_cast<std::size_t>(node);
        if (node_faults_[i].active() && !electors_[i].awaiting_check()) electors_[i].advance_quietly(skipped);
    }
    end_tick_ = until - 1;
    next_tick_ = until;
    return skipped;
}

void Simulation::set_outcome_spill(OutcomeSpill* spill, std::size_t held_max) {
    spill_ = spill;
    spill_held_max_ = held_max;
}

void Simulation::spill_outcomes() {
    for (std::size_t i = 0; i < electors_.size(); ++i) {
        const Elector& e = electors_[i];
        const std::size_t final_held = e.final_outcomes_held();
        if (final_held == 0) continue;
        if (!spill_->put(static_cast<NodeIndex>(i), std::span<const RunOutcome>(e.outcomes().data(), final_held))) {
            spill_failed_ = true;
            return;
        }
    }
    if (!spill_->end()) {
        spill_failed_ = true;
        return;
    }
    for (Elector& e : electors_) {
        const std::size_t final_held = e.final_outcomes_held();
        e.forget_outcomes(final_held);
        outcomes_held_ -= final_held;
    }
    ++spills_;
}

bool Simulation::quiescent_after(Tick t, Store& store) const {
    if (last_scheduled_tick_ > t) return false;
    if (!wire_idle()) return false;  // a message on the wire (model.md §6.3)
    // An idle elector always has a run to come (it becomes finished after its
    // last run), so "no run waiting, running or still to start" is exactly
    // "every elector finished", counted as they finish.
    if (unfinished_ > 0) return false;
    // Only asked when every node is done: in live mode this is a Redis call.
    auto status = store.status(t);
    if (!status.ok()) return false;
    return !status.value().held();
}

std::vector<RunSummary> Simulation::results() const {
    LS_ASSERT(spills_ == 0);
    if (redlock_) return redlock_->results();
    if (redisson_) return redisson_->results();
    std::vector<RunSummary> out;
    std::size_t total = 0;
    for (const Elector& e : electors_) total += e.outcomes().size();
    out.reserve(total);
    for (const Elector& e : electors_) {
        const auto& outcomes = e.outcomes();
        for (std::size_t k = 0; k < outcomes.size(); ++k) {
            out.push_back(RunSummary{e.owner(), static_cast<std::int32_t>(k), to_string(outcomes[k].result),
                                     outcomes[k].learned()});
        }
    }
    return out;
}

TraceHeader Simulation::header() const {
    TraceHeader h;
    h.format = scenario_->is_redlock()                    ? 5
               : scenario_->is_redisson()                 ? 6
               : scenario_->lock.replication.replicas > 0 ? 3
                                                          : 2;
    h.stores = scenario_->stores;
    h.scenario = scenario_->name;
    h.seed = scenario_->seed;
    h.tick_ms = scenario_->tick_ms;
    h.lock = scenario_->lock.name;
    h.capacity = scenario_->lock.capacity;
    for (const Candidate& c : scenario_->candidates) h.candidates.push_back(c.name);
    return h;
}

}  // namespace leasescope::sim
