// The sweep of an imported history (docs/model.md §19.5–§19.7): observations
// and log lines, in time order, become the events of a leasescope-trace/4
// with runs and `start` events (19.5.2), beliefs (19.6.3), the logs' writes,
// pauses and crashes (19.6.4). The marks of the invariants are in
// history_invariants.cpp.
#include <algorithm>
#include <utility>

#include "history_internal.hpp"
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::sim::import::history_detail {

Tick Timebase::tick_of(std::int64_t wall_us) const {
    const std::int64_t unit = tick_ms * 1000;
    const std::int64_t d = wall_us - origin_us;
    return d >= 0 ? d / unit : -((-d + unit - 1) / unit);
}

// Rounded up; a lease longer than a trace can hold is written as the
// longest it can (limits::duration_max ticks, rule 19.5.4).
Tick ticks_of_ms(std::int64_t ms, std::int64_t tick_ms) {
    if (ms <= 0) return 0;
    return std::min<Tick>(ms / tick_ms + (ms % tick_ms != 0 ? 1 : 0), limits::duration_max);
}

Sweep::Sweep(const Timebase& time, std::vector<std::string> candidates, const std::vector<LogEntry>& logs)
    : time_(time), candidates_(std::move(candidates)) {
    for (const auto& c : candidates_) nodes_[c];
    for (const auto& entry : logs) {
        const bool belief = entry.event == LogEvent::acquired || entry.event == LogEvent::extended ||
                            entry.event == LogEvent::lost || entry.event == LogEvent::released;
        if (belief) nodes_[entry.node].log_beliefs = true;
    }
}

Event Sweep::base_event(const Item& item, Phase phase, EventOp op, const std::string& node) const {
    Event e;
    e.tick = time_.tick_of(item.wall_us);
    e.phase = phase;
    e.op = op;
    e.node = node;
    e.wall_us = item.written_us;
    return e;
}

std::int32_t Sweep::run_number(const std::string& node) const {
    const auto it = nodes_.find(node);
    return it == nodes_.end() || it->second.runs == 0 ? -1 : it->second.runs - 1;
}

RunSummary& Sweep::run_of(const std::string& node) {
    auto& runs = runs_[node];
    LS_ASSERT(!runs.empty());
    return runs.back();
}

void Sweep::add(const Item& item) {
    if (item.obs != nullptr) {
        on_observation(item);
    } else {
        LS_ASSERT(item.log != nullptr);
        on_log(item);
    }
}

void Sweep::begin_run(const Item& item, const std::string& node) {
    NodeState& n = nodes_[node];
    n.in_run = true;
    n.acquired = false;
    n.first_attempt_us = item.wall_us;
    runs_[node].push_back(RunSummary{node, n.runs, "skipped", std::nullopt});
    ++n.runs;
    Event e = base_event(item, Phase::acquire, EventOp::start, node);
    e.run = n.runs - 1;
    e.token = item.obs->token;
    emit(std::move(e));
}

void Sweep::end_run(const std::string& node) {
    NodeState& n = nodes_[node];
    n.in_run = false;
    n.acquired = false;
}

void Sweep::clear_record() {
    if (!record_) return;
    NodeState& n = nodes_[record_->node];
    if (n.in_run && n.acquired && n.token == record_->token) end_run(record_->node);
    record_.reset();
}

void Sweep::on_observation(const Item& item) {
    switch (item.obs->op) {
        case ObservedOp::acquire: on_acquire(item); break;
        case ObservedOp::extend: on_extend(item); break;
        case ObservedOp::release: on_release(item); break;
        case ObservedOp::expire: on_expire(item); break;
        case ObservedOp::status:
        case ObservedOp::validate:
        case ObservedOp::undecided:
        case ObservedOp::clock_step: on_plain(item); break;
    }
}

void Sweep::on_acquire(const Item& item) {
    const Observation& o = *item.obs;
    NodeState& n = nodes_[o.node];
    const bool acquired = o.outcome == Outcome::acquired;
    // Re-acquiring its own record (a reentrant lock) is no new acquisition.
    const bool again = acquired && record_ && record_->token == o.token && record_->node == o.node;
    if (n.in_run && n.acquired && acquired && !again) end_run(o.node);
    if (!n.in_run) begin_run(item, o.node);
    Event e = base_event(item, Phase::acquire, EventOp::acquire, o.node);
    e.run = n.runs - 1;
    e.token = o.token;
    e.outcome = o.outcome;
    if (o.ttl_ms) e.ttl = ticks_of_ms(*o.ttl_ms, time_.tick_ms);
    if (acquired) {
        e.fencing = again ? record_->fencing : o.fencing;
        e.slot = 0;
    }
    if (acquired && !again) {
        clear_record();
        Holder fresh{o.token, o.node, o.fencing, acquisitions_++, o.library == "redisson"};
        judge_acquisition(e, fresh);
        record_ = fresh;
        if (early_writers_.erase(o.token) > 0) latest_writer_ = std::max(latest_writer_, fresh.acquisition);
        n.acquired = true;
        n.token = o.token;
        n.fencing = o.fencing;
        n.acquisition = fresh.acquisition;
        RunSummary& r = run_of(o.node);
        r.result = "elected";
        r.fencing = o.fencing;
    }
    emit(std::move(e));
    if (acquired && !n.log_beliefs && !n.believes) believe(item, o.node, true, Detail::inferred);
}

void Sweep::on_extend(const Item& item) {
    const Observation& o = *item.obs;
    NodeState& n = nodes_[o.node];
    Event e = base_event(item, Phase::extend, EventOp::extend, o.node);
    e.run = run_number(o.node);
    e.token = o.token.empty() ? n.token : o.token;
    e.fencing = n.fencing;
    e.outcome = o.outcome;
    if (o.outcome == Outcome::renewed) {
        e.slot = 0;
        if (o.ttl_ms) e.ttl = ticks_of_ms(*o.ttl_ms, time_.tick_ms);
    }
    emit(std::move(e));
    if (o.outcome == Outcome::lost) {
        end_run(o.node);
        if (!n.log_beliefs && n.believes) believe(item, o.node, false, Detail::inferred);
    }
}

void Sweep::on_release(const Item& item) {
    const Observation& o = *item.obs;
    NodeState& n = nodes_[o.node];
    Event e = base_event(item, Phase::work, EventOp::release, o.node);
    e.run = run_number(o.node);
    e.token = o.token.empty() ? n.token : o.token;
    e.fencing = n.fencing;
    e.outcome = o.outcome;
    if (o.outcome == Outcome::released || o.outcome == Outcome::kept) e.slot = 0;
    if (o.outcome == Outcome::kept && o.ttl_ms) e.ttl = ticks_of_ms(*o.ttl_ms, time_.tick_ms);
    emit(std::move(e));
    if (o.outcome == Outcome::released) clear_record();
    end_run(o.node);
    if (!n.log_beliefs && n.believes) believe(item, o.node, false, Detail::inferred);
}

void Sweep::on_expire(const Item& item) {
    const Observation& o = *item.obs;
    Event e = base_event(item, Phase::expiry, EventOp::expire, o.node);
    e.token = o.token;
    e.fencing = o.fencing;
    if (record_ && record_->token == o.token) e.fencing = record_->fencing;
    e.slot = 0;
    e.ttl = 0;
    e.outcome = Outcome::expired;
    emit(std::move(e));
    if (record_ && record_->token == o.token) clear_record();
}

// Status, validate, undecided and a kept clock step: events of their own,
// with no run and no effect on the record the sweep keeps.
void Sweep::on_plain(const Item& item) {
    const Observation& o = *item.obs;
    if (o.op == ObservedOp::clock_step) {
        if (o.step_ms == 0) return;  // a step below a millisecond: nothing to show
        Event e = base_event(item, Phase::faults, EventOp::clock_jump, "store");
        e.clock_ms = o.step_ms;
        emit(std::move(e));
        return;
    }
    const EventOp op = o.op == ObservedOp::status     ? EventOp::status
                       : o.op == ObservedOp::validate ? EventOp::validate
                                                      : EventOp::undecided;
    Event e = base_event(item, Phase::ops, op, o.node);
    e.outcome = o.outcome;
    if (op == EventOp::validate) {
        e.token = o.token;
        const auto owner = std::find_if(nodes_.begin(), nodes_.end(),
                                        [&](const auto& kv) { return !o.token.empty() && kv.second.token == o.token; });
        e.named_node = owner != nodes_.end() ? owner->first : o.node;
    }
    if (op == EventOp::undecided) {
        e.outcome = Outcome::none;
        e.details.add(o.why.value_or(Detail::other_command));
    }
    emit(std::move(e));
}

void Sweep::on_log(const Item& item) {
    const LogEntry& l = *item.log;
    switch (l.event) {
        case LogEvent::acquired:
        case LogEvent::extended:
        case LogEvent::lost:
        case LogEvent::released: on_believe_log(item); return;
        case LogEvent::write:
        case LogEvent::write_rejected: on_write(item); return;
        case LogEvent::pause_start:
        case LogEvent::pause_end:
        case LogEvent::crashed: break;
    }
    const EventOp op = l.event == LogEvent::pause_start ? EventOp::pause
                       : l.event == LogEvent::pause_end ? EventOp::resume
                                                        : EventOp::crash;
    emit(base_event(item, Phase::faults, op, l.node));
    NodeState& n = nodes_[l.node];
    if (op == EventOp::crash && n.believes) {
        // A crashed node executes nothing: it leaves the overlap count (§9.2).
        n.believes = false;
        check_overlap(item);
    }
}

void Sweep::on_believe_log(const Item& item) {
    const LogEntry& l = *item.log;
    const bool leader = l.event == LogEvent::acquired || l.event == LogEvent::extended;
    const Detail word = l.event == LogEvent::acquired   ? Detail::acquired
                        : l.event == LogEvent::extended ? Detail::extended
                        : l.event == LogEvent::lost     ? Detail::lost
                                                        : Detail::released;
    believe(item, l.node, leader, word);
}

void Sweep::believe(const Item& item, const std::string& node, bool leader, Detail word) {
    NodeState& n = nodes_[node];
    Event e = base_event(item, Phase::ops, EventOp::believe, node);
    e.run = run_number(node);
    e.token = n.token;
    e.fencing = n.fencing;
    if (item.log != nullptr && item.log->token) e.token = *item.log->token;
    if (item.log != nullptr && item.log->fencing) e.fencing = item.log->fencing;
    e.outcome = leader ? Outcome::leader : Outcome::follower;
    e.details.add(word);
    emit(std::move(e));
    n.believes = leader;
    check_overlap(item);
}

void Sweep::check_overlap(const Item& item) {
    const auto leaders = std::count_if(nodes_.begin(), nodes_.end(), [](const auto& kv) { return kv.second.believes; });
    const bool over = leaders > 1;  // an imported lock has capacity 1
    if (over == in_overlap_) return;
    in_overlap_ = over;
    Event e = base_event(item, Phase::check, over ? EventOp::overlap_begin : EventOp::overlap_end, "");
    if (over) {
        e.overlap_count = leaders;
        ++violations_.overlap;
    }
    emit(std::move(e));
}

std::vector<RunSummary> Sweep::results() const {
    std::vector<RunSummary> out;
    for (const auto& node : candidates_) {
        const auto it = runs_.find(node);
        if (it == runs_.end()) continue;
        const NodeState& n = nodes_.at(node);
        for (RunSummary r : it->second) {
            // Rule 19.7.4: a run that holds the record at the end is unfinished.
            const bool last = r.run == n.runs - 1;
            if (last && n.in_run && n.acquired && record_ && record_->node == node) r.result = "unfinished";
            out.push_back(std::move(r));
        }
    }
    return out;
}

}  // namespace leasescope::sim::import::history_detail
