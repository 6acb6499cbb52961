// The counterexample as facts: the schedule as a scenario named after its
// base, and what its trace shows for each failed property (who, which
// fencing numbers, which tick). No words: the shells tell these.
#include "leasescope/sim/explorer.hpp"

#include <optional>

#include "explore_internal.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

Act act_of(const Event& e) { return Act{e.node, *e.fencing, e.tick}; }

// The first write marked `mark` and the accepted write with the highest
// number before it: for unsafe_write (docs/model.md §9.3) the newer write it
// landed after, for holder_rejected (§9.7) the write whose number refused it.
std::optional<Failure> write_against_highest(const Scenario& scenario, const Trace& trace, Detail mark,
                                             Failure::Property property) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& late = trace.events[i];
        if (late.op != EventOp::write || !late.details.has(mark)) continue;
        const Event* higher = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::write || e.outcome != Outcome::accepted || !e.fencing) continue;
            if (higher == nullptr || *e.fencing > *higher->fencing) higher = &e;
        }
        LS_ASSERT(higher != nullptr);
        Failure f;
        f.property = property;
        f.tick = late.tick;
        f.late = act_of(late);
        f.earlier = act_of(*higher);
        f.resource = scenario.resource;
        return f;
    }
    return std::nullopt;
}

// The first acquire issued a fencing number not above an earlier one
// (docs/model.md §9.4), and the earlier acquire with the highest number.
std::optional<Failure> fencing_regressed(const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& low = trace.events[i];
        if (low.op != EventOp::acquire || !low.details.has(Detail::fencing_regressed)) continue;
        const Event* earlier = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::acquire || !e.fencing) continue;
            if (earlier == nullptr || *e.fencing > *earlier->fencing) earlier = &e;
        }
        LS_ASSERT(earlier != nullptr);
        Failure f;
        f.property = Failure::Property::fencing_regressed;
        f.tick = low.tick;
        f.late = act_of(low);
        f.earlier = act_of(*earlier);
        return f;
    }
    return std::nullopt;
}

// The first write marked unsafe_write without a fencing number, and the
// holder it landed beside: on Redlock (model.md §20.6) the last quorum
// another node counted before it (`holder_op` quorum), on Redisson (§21.6)
// the last acquisition of another node (`holder_op` acquire).
std::optional<Failure> fenceless_unsafe_write(const Trace& trace, EventOp holder_op) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& late = trace.events[i];
        if (late.op != EventOp::write || !late.details.has(Detail::unsafe_write)) continue;
        const Event* holder = nullptr;
        for (std::size_t j = i; j-- > 0 && holder == nullptr;) {
            const Event& e = trace.events[j];
            if (e.op == holder_op && e.outcome == Outcome::acquired && e.node != late.node && !e.server) holder = &e;
        }
        LS_ASSERT(holder != nullptr);
        Failure f;
        f.property = Failure::Property::unsafe_write;
        f.tick = late.tick;
        f.late = Act{late.node, 0, late.tick};
        f.earlier = Act{holder->node, 0, holder->tick};
        f.quorum = holder_op == EventOp::quorum;
        f.record = holder_op == EventOp::acquire;
        return f;
    }
    return std::nullopt;
}

// The acquire event of a write's holder (its run's acquisition, §9.6).
const Event* acquire_of(const Trace& trace, std::size_t before, const Event& write) {
    for (std::size_t j = before; j-- > 0;) {
        const Event& e = trace.events[j];
        if (e.op == EventOp::acquire && e.outcome == Outcome::acquired && e.node == write.node && e.run == write.run)
            return &e;
    }
    return nullptr;
}

// The first write accepted after a successor of its slot had a write
// accepted (docs/model.md §9.6), and the last such successor's write.
std::optional<Failure> stale_after_successor(const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& late = trace.events[i];
        if (late.op != EventOp::write || !late.details.has(Detail::stale_after_successor)) continue;
        const Event* mine = acquire_of(trace, i, late);
        LS_ASSERT(mine != nullptr);
        const Event* successor = nullptr;
        for (std::size_t j = i; j-- > 0 && successor == nullptr;) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::write || e.outcome != Outcome::accepted) continue;
            const Event* theirs = acquire_of(trace, j, e);
            if (theirs != nullptr && theirs->slot == mine->slot && theirs->seq > mine->seq) successor = &e;
        }
        LS_ASSERT(successor != nullptr);
        Failure f;
        f.property = Failure::Property::stale_after_successor;
        f.tick = late.tick;
        f.late = act_of(late);
        f.earlier = act_of(*successor);
        return f;
    }
    return std::nullopt;
}

// The first acquisition issued a number issued before (docs/model.md §9.8),
// and the last earlier acquisition with that number.
std::optional<Failure> fencing_duplicate(const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& again = trace.events[i];
        if (again.op != EventOp::acquire || !again.details.has(Detail::fencing_duplicate)) continue;
        const Event* first = nullptr;
        for (std::size_t j = i; j-- > 0 && first == nullptr;) {
            const Event& e = trace.events[j];
            if (e.op == EventOp::acquire && e.fencing == again.fencing) first = &e;
        }
        LS_ASSERT(first != nullptr);
        Failure f;
        f.property = Failure::Property::fencing_duplicate;
        f.tick = again.tick;
        f.late = act_of(again);
        f.earlier = act_of(*first);
        return f;
    }
    return std::nullopt;
}

// The first overlap (docs/model.md §9.2) and who executes at the end of its tick.
std::optional<Failure> overlap(const Scenario& scenario, const Trace& trace) {
    for (const Event& e : trace.events) {
        if (e.op != EventOp::overlap_begin) continue;
        // Which nodes execute at the end of that tick: replay up to it.
        Simulation sim(scenario);
        ModelStore store(scenario.lock);
        NullSink sink;
        while (!sim.finished() && sim.next_tick() <= e.tick) {
            auto stepped = sim.step(store, sink);
            LS_ASSERT(stepped.ok());
        }
        Failure f;
        f.property = Failure::Property::overlap;
        f.tick = e.tick;
        if (const RedissonRun* run = sim.redisson()) {
            // The nodes working in their action (model.md §21.3).
            for (std::size_t i = 0; i < run->nodes().size(); ++i) {
                const RedissonNode& node = run->nodes()[i];
                if (node.state == RedissonState::working && !node.crashed)
                    f.nodes.push_back(scenario.candidates[i].name);
            }
        }
        if (const RedlockRun* run = sim.redlock()) {
            // The nodes working after a quorum (model.md §20.5).
            for (std::size_t i = 0; i < run->nodes().size(); ++i) {
                const RedlockNode& node = run->nodes()[i];
                if (node.state == RedlockState::working && !node.crashed)
                    f.nodes.push_back(scenario.candidates[i].name);
            }
        }
        for (const Elector& el : sim.electors()) {
            if (el.executing()) f.nodes.push_back(el.owner());
        }
        f.capacity = scenario.lock.capacity;
        return f;
    }
    return std::nullopt;
}

// No run ended elected: how each one ended instead.
Failure liveness(const Trace& trace) {
    Failure f;
    f.property = Failure::Property::liveness;
    f.tick = trace.summary.end_tick;
    f.runs = trace.summary.results;
    return f;
}

}  // namespace

AddedFault added_fault(const Scenario& base, const Fault& f, std::string node) {
    AddedFault added{f, std::move(node), base.is_redlock(), {}};
    if (added.redlock && (f.kind == FaultKind::partition || f.kind == FaultKind::delay)) {
        for (std::size_t i = 0; i < base.stores.size(); ++i)
            if ((f.stores >> i) & 1u) added.stores.push_back(base.stores[i]);
    }
    return added;
}

CounterexampleFacts schedule_facts(const Explorer& ex, const Schedule& schedule) {
    CounterexampleFacts facts;
    if (schedule.variant != 0) facts.shuffled_seed = ex.variant(schedule.variant).seed;
    const Scenario& base = ex.base();
    for (const std::int32_t a : schedule.atoms) {
        const Fault& f = ex.atoms().at(static_cast<std::size_t>(a));
        // A Redlock store's fault is named after its store (model.md §20).
        std::string name;
        if (f.node >= 0) name = base.candidates.at(static_cast<std::size_t>(f.node)).name;
        if (f.store >= 0) name = base.stores.at(static_cast<std::size_t>(f.store));
        facts.faults.push_back(added_fault(base, f, std::move(name)));
    }
    return facts;
}

Counterexample make_counterexample(const Explorer& ex, const Schedule& schedule) {
    Counterexample out;
    out.scenario = ex.to_scenario(schedule);
    out.verdict = ex.check(schedule);
    Scenario& s = out.scenario;
    s.name = clip_utf8(ex.base().name, static_cast<std::size_t>(limits::name_length_max) - 15) + "-counterexample";

    out.facts = schedule_facts(ex, schedule);
    CounterexampleFacts& facts = out.facts;

    out.trace = simulate(s);
    const Properties& failed = out.verdict.failed;
    if (failed.unsafe_write) {
        std::optional<Failure> f;
        if (s.is_redlock() || s.is_redisson())
            f = fenceless_unsafe_write(out.trace, s.is_redlock() ? EventOp::quorum : EventOp::acquire);
        else
            f = write_against_highest(s, out.trace, Detail::unsafe_write, Failure::Property::unsafe_write);
        if (f) facts.failures.push_back(std::move(*f));
    }
    if (failed.fencing_regressed) {
        if (auto f = fencing_regressed(out.trace)) facts.failures.push_back(std::move(*f));
    }
    if (failed.stale_after_successor) {
        if (auto f = stale_after_successor(out.trace)) facts.failures.push_back(std::move(*f));
    }
    if (failed.holder_rejected) {
        if (auto f = write_against_highest(s, out.trace, Detail::holder_rejected, Failure::Property::holder_rejected))
            facts.failures.push_back(std::move(*f));
    }
    if (failed.fencing_duplicate) {
        if (auto f = fencing_duplicate(out.trace)) facts.failures.push_back(std::move(*f));
    }
    if (failed.overlap) {
        if (auto f = overlap(s, out.trace)) facts.failures.push_back(std::move(*f));
    }
    if (failed.liveness) facts.failures.push_back(liveness(out.trace));
    return out;
}

}  // namespace leasescope::sim
