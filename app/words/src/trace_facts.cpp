// The facts an explanation is built from, read from the trace before the explained event (trace_facts.hpp).
#include "trace_facts.hpp"

#include <algorithm>

namespace leasescope::words::facts {

// The give-up event (model.md: op `skip`, outcome `skipped`).
bool is_skip(const Event& e) { return e.op == EventOp::skip; }

std::string opt_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "–"; }

void add_sentence(Explanation& out, const Strings& s, const std::string& key, const Fields& extra,
                  const Fields& event) {
    Fields f = extra;
    f.insert(f.end(), event.begin(), event.end());
    out.sentences.push_back({key, s.tr(key, f)});
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += items[i];
    }
    return out;
}

bool acquires_record(const Event& e) {
    return e.op == EventOp::acquire && e.fencing &&
           (e.outcome == Outcome::acquired || (e.outcome == Outcome::error && e.details.has(sim::Detail::reply_lost)));
}

Tick applied_at(const Event& e) { return e.applied.value_or(e.tick); }

std::vector<std::size_t> applied_before(const sim::Trace& trace, std::size_t index) {
    std::vector<std::pair<Tick, std::size_t>> order;
    if (index >= trace.events.size()) {
        for (std::size_t k = 0; k < trace.events.size(); ++k) order.emplace_back(applied_at(trace.events[k]), k);
    } else {
        const Tick a = applied_at(trace.events[index]);
        for (std::size_t k = 0; k < trace.events.size(); ++k) {
            const Tick t = applied_at(trace.events[k]);
            if (t < a || (t == a && k < index)) order.emplace_back(t, k);
        }
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<std::size_t> out;
    for (const auto& [t, k] : order) out.push_back(k);
    return out;
}

namespace {

void drop(std::vector<Held>& held, const Token& token) {
    held.erase(std::remove_if(held.begin(), held.end(), [&](const Held& h) { return h.token == token; }), held.end());
}

}  // namespace

// The copies of the record the servers hold, replayed in the order the store
// applied the events (model.md §17): the primary's, each cut replica's frozen
// at its cut (§17.2 rule 1), and an old primary's in split brain (§17.5).
void StoreReplay::apply(const sim::Trace& trace, std::size_t k) {
    const Event& e = trace.events[k];
    // A call an old primary answered, or its own expiry, carries `server` (§17.5 rule 4).
    const bool to_old = e.server && e.op != EventOp::failover && e.op != EventOp::link_cut &&
                        e.op != EventOp::link_restored && old && e.server == old->server;
    Copy& copy = to_old ? *old : primary;
    if (acquires_record(e)) {
        const bool again =
            std::any_of(copy.held.begin(), copy.held.end(), [&](const Held& h) { return h.token == e.token; });
        if (!again) copy.held.push_back({e.node, e.token, *e.fencing});
        copy.counter = *e.fencing;
        if (!to_old) issued.push_back(k);
    } else if (e.op == EventOp::expire || (e.op == EventOp::release && e.outcome == Outcome::released) ||
               release_applied_silently(trace, k)) {
        drop(copy.held, e.token);
    } else if (e.op == EventOp::link_cut && e.server) {
        frozen.push_back({*e.server, e.tick, primary});
    } else if (e.op == EventOp::link_restored && e.server) {
        const auto it = std::find_if(frozen.begin(), frozen.end(), [&](const Cut& c) { return c.server == *e.server; });
        if (it != frozen.end())
            frozen.erase(it);
        else if (old && old->server == *e.server)
            old.reset();  // split brain ends: what the old primary wrote is lost (§17.5 rule 3)
    } else if (e.op == EventOp::failover && e.server) {
        promote(trace, k);
    } else if (e.op == EventOp::failover) {
        primary.held.clear();
    }
}

// A failover promoting `server` (§17.3): it keeps what it held, frozen at
// its cut or the primary's copy when linked; the old primary's copy lives on
// for an old primary in split brain.
void StoreReplay::promote(const sim::Trace& trace, std::size_t k) {
    const Event& e = trace.events[k];
    Promotion p;
    p.tick = e.tick;
    p.server = *e.server;
    p.was = primary.counter;
    Copy next = primary;
    const auto it = std::find_if(frozen.begin(), frozen.end(), [&](const Cut& c) { return c.server == p.server; });
    if (it != frozen.end()) {
        p.cut = it->tick;
        next = it->copy;
        frozen.erase(it);
    }
    next.counter = e.fencing.value_or(0);
    p.counter = next.counter;
    p.kept = next.held;
    for (const Held& h : primary.held)
        if (std::none_of(next.held.begin(), next.held.end(), [&](const Held& n) { return n.token == h.token; }))
            p.lost.push_back(h);
    for (const std::size_t a : issued)
        if (p.cut && applied_at(trace.events[a]) >= *p.cut) p.missed.push_back(a);
    old = primary;
    old->server = primary_server;
    primary = std::move(next);
    primary_server = p.server;
    issued.clear();
    promotion = std::move(p);
}

StoreReplay replay(const sim::Trace& trace, const std::vector<std::size_t>& order) {
    StoreReplay r;
    for (const std::size_t k : order) r.apply(trace, k);
    return r;
}

namespace {

std::vector<Held> records_of(const sim::Trace& trace, const std::vector<std::size_t>& order) {
    return replay(trace, order).primary.held;
}

}  // namespace

std::vector<Held> records_before(const sim::Trace& trace, std::size_t index) {
    const StoreReplay r = replay(trace, applied_before(trace, index));
    // A call an old primary answered was decided by its copy (§17.5 rule 1).
    if (index < trace.events.size() && trace.events[index].server && r.old &&
        trace.events[index].server == r.old->server && trace.events[index].op != EventOp::failover &&
        trace.events[index].op != EventOp::link_cut && trace.events[index].op != EventOp::link_restored)
        return r.old->held;
    return r.primary.held;
}

std::vector<Held> records_deciding(const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return records_before(trace, index);
    std::vector<std::size_t> order = applied_before(trace, index);
    const Tick a = applied_at(trace.events[index]);
    for (std::size_t k = index + 1; k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (acquires_record(e) && applied_at(e) == a && e.tick > a) order.push_back(k);
    }
    return records_of(trace, order);
}

bool release_applied_silently(const sim::Trace& trace, std::size_t k) {
    const Event& r = trace.events[k];
    if (r.op != EventOp::release || r.outcome != Outcome::error || !r.applied) return false;
    // Held when Redis applied it.
    const std::vector<Held> held = records_of(trace, applied_before(trace, k));
    if (std::none_of(held.begin(), held.end(), [&](const Held& h) { return h.token == r.token; })) return false;
    // Kept for a minimum lease, it would expire later: an expire event of the token.
    return std::none_of(trace.events.begin(), trace.events.end(),
                        [&](const Event& e) { return e.op == EventOp::expire && e.token == r.token; });
}

std::optional<Fencing> highest_accepted_before(const sim::Trace& trace, std::size_t index) {
    std::optional<Fencing> h;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::write && e.outcome == Outcome::accepted && e.fencing)
            h = h ? std::max(*h, *e.fencing) : *e.fencing;
    }
    return h;
}

LeaseEnd lease_end(const sim::Trace& trace, const Token& token, std::size_t index) {
    LeaseEnd out;
    if (token.empty()) return out;
    bool holding = false;
    for (const std::size_t k : applied_before(trace, index)) {
        const Event& e = trace.events[k];
        if (acquires_record(e) && e.token == token) {
            holding = true;
            out = {};
            continue;
        }
        if (!holding) continue;
        if (e.op == EventOp::expire && e.token == token) {
            out = {LeaseEnd::Kind::expiry, e.tick, {}};
            holding = false;
        } else if (e.op == EventOp::release && e.token == token &&
                   (e.outcome == Outcome::released || release_applied_silently(trace, k))) {
            out = {LeaseEnd::Kind::release, applied_at(e), {}};
            holding = false;
        } else if (e.op == EventOp::failover && !(e.server && promotion_kept(trace, k, token))) {
            out = {LeaseEnd::Kind::failover, e.tick, e.details};
            holding = false;
        }
    }
    return out;
}

NodeFaultState faults_before(const sim::Trace& trace, const std::string& node, std::size_t index) {
    NodeFaultState s;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.node != node) continue;
        switch (e.op) {
            case EventOp::pause:
                s.paused = true;
                s.paused_since = e.tick;
                break;
            case EventOp::resume: s.paused = false; break;
            case EventOp::partition:
                s.partitioned = true;
                s.partitioned_since = e.tick;
                s.partition_mode = e.details;
                break;
            case EventOp::heal: s.partitioned = false; break;
            case EventOp::crash:
                s.crashed = true;
                s.crashed_at = e.tick;
                break;
            default: break;
        }
    }
    return s;
}

std::optional<Span> fault_during(const sim::Trace& trace, const std::string& node, Tick from, std::size_t index,
                                 EventOp begin_op, EventOp end_op) {
    std::optional<Span> current, hit;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.node != node) continue;
        if (e.op == begin_op) current = Span{e.tick, std::nullopt};
        if (e.op == end_op && current) {
            current->until = e.tick;
            if (e.tick > from) hit = current;  // it covered ticks in [from, until)
            current.reset();
        }
    }
    if (current) hit = current;  // still in force
    return hit;
}

std::optional<Tick> run_start(const sim::Trace& trace, const std::string& node, std::int32_t run, std::size_t index) {
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::start && e.node == node && e.run == run) return e.tick;
    }
    return std::nullopt;
}

Tick last_renewal(const sim::Trace& trace, const Token& token, std::size_t index) {
    Tick t = 0;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.token != token) continue;
        // When Redis set the TTL: the tick it applied the call, not the tick its reply was read (§16.6).
        if (acquires_record(e) || (e.op == EventOp::extend && e.outcome == Outcome::renewed)) t = applied_at(e);
    }
    return t;
}

std::optional<Tick> counter_reset_before(const sim::Trace& trace, std::size_t index) {
    std::optional<Tick> t;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::failover && e.details.has(sim::Detail::all)) t = e.tick;
    }
    // A promoted replica that had missed acquisitions set the counter back too (§17.3 rule 1).
    if (const std::optional<Promotion> p = rollback_before(trace, index)) {
        if (!t || p->tick >= *t) t = p->tick;
    }
    return t;
}

std::optional<Promotion> promotion_at(const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return std::nullopt;
    const Event& e = trace.events[index];
    if (e.op != EventOp::failover || !e.server) return std::nullopt;
    std::vector<std::size_t> order = applied_before(trace, index);
    order.push_back(index);
    return replay(trace, order).promotion;
}

std::optional<Promotion> rollback_before(const sim::Trace& trace, std::size_t index) {
    std::optional<Promotion> out;
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        if (trace.events[k].op != EventOp::failover || !trace.events[k].server) continue;
        std::optional<Promotion> p = promotion_at(trace, k);
        if (p && p->counter < p->was) out = std::move(p);
    }
    return out;
}

bool promotion_kept(const sim::Trace& trace, std::size_t index, const Token& token) {
    const std::optional<Promotion> p = promotion_at(trace, index);
    return p && std::any_of(p->kept.begin(), p->kept.end(), [&](const Held& h) { return h.token == token; });
}

bool regressed_before(const sim::Trace& trace, std::size_t index) {
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::acquire && e.details.has(sim::Detail::fencing_regressed)) return true;
    }
    return false;
}

namespace {

// The order in which the store issued acquisitions (model.md §9.4, §9.6): by
// the tick it applied them, then the trace's (the same without time on the wire).
std::pair<Tick, std::int64_t> issue_order(const Event& e) { return {applied_at(e), e.seq}; }

// The acquire event of the run that made the write at `index`.
const Event* acquisition_of(const sim::Trace& trace, std::size_t index) {
    const Event& w = trace.events[index];
    for (std::size_t k = index; k-- > 0;) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::acquire && e.outcome == Outcome::acquired && e.node == w.node && e.run == w.run) return &e;
    }
    return nullptr;
}

}  // namespace

std::optional<SuccessorWrite> successor_write_before(const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return std::nullopt;
    const Event* mine = acquisition_of(trace, index);
    if (mine == nullptr) return std::nullopt;
    for (std::size_t k = index; k-- > 0;) {
        const Event& e = trace.events[k];
        if (e.op != EventOp::write || e.outcome != Outcome::accepted) continue;
        const Event* theirs = acquisition_of(trace, k);
        if (theirs == nullptr || theirs->slot != mine->slot || issue_order(*theirs) <= issue_order(*mine)) continue;
        return SuccessorWrite{e.node, theirs->slot.value_or(0), applied_at(*theirs), e.tick};
    }
    return std::nullopt;
}

const Event* same_number_before(const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size() || !trace.events[index].fencing) return nullptr;
    const Event& mine = trace.events[index];
    // The last one the store issued before it (§9.8), whenever its reply was read.
    const Event* last = nullptr;
    for (const Event& e : trace.events) {
        if (e.op != EventOp::acquire || e.fencing != mine.fencing || issue_order(e) >= issue_order(mine)) continue;
        if (!last || issue_order(e) > issue_order(*last)) last = &e;
    }
    return last;
}

const sim::Candidate* candidate_of(const sim::Scenario* scenario, const std::string& node) {
    if (!scenario) return nullptr;
    for (const sim::Candidate& c : scenario->candidates)
        if (c.name == node) return &c;
    return nullptr;
}

std::optional<Tick> run_ended_before(const sim::Trace& trace, const std::string& node, std::int32_t run,
                                     std::size_t index) {
    for (std::size_t k = 0; k < index && k < trace.events.size(); ++k) {
        const Event& e = trace.events[k];
        if (e.node != node) continue;
        if (e.op == EventOp::crash) return e.tick;
        if (e.run != run) continue;
        if (e.op == EventOp::release || is_skip(e)) return e.tick;
        if (e.op == EventOp::acquire && e.outcome == Outcome::error && !e.details.has(sim::Detail::reply_lost))
            return e.tick;
    }
    return std::nullopt;
}

}  // namespace leasescope::words::facts
