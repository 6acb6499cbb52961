// The explanation of an event (explain(), words.hpp): sentences built from the
// facts of the trace (trace_facts.hpp), which read only the events before the
// explained one, so no sentence can tell what has not happened yet.
#include "leasescope/words/words.hpp"

#include <algorithm>
#include <string_view>

#include "redisson_explain.hpp"
#include "redlock_explain.hpp"
#include "trace_facts.hpp"

namespace leasescope::words {
namespace {

using namespace facts;

// A record held just before an event, with its deadline on the store's clock
// (half milliseconds, model.md §3.3 rule 4), rebuilt from the trace.
struct StoreDeadline {
    Held held;
    std::int64_t deadline_half_ms = 0;
    // Perhaps renewed by an extend whose answer was never read (a dropped
    // reply, a timeout, a crashed node): the trace shows an error and no TTL
    // (docs/trace-format.md, model.md §16.6), so the deadline is unknown.
    bool unknown = false;
};

// The store's clock (drift and the jumps of the events before `index`) and
// the deadlines of the records held before `index`: an acquire or a renewal
// at tick s with ttl L sets c(moment(s)) + 2·L·tick_ms, a kept release with
// ttl k lowers it to c(moment(now)) + 2·k·tick_ms (§4.2).
struct StoreClockFacts {
    DriftClock clock;
    std::int64_t jumps_half_ms = 0;
    std::vector<StoreDeadline> records;

    std::int64_t reading(Tick t) const { return clock.reading_at_tick(t) + jumps_half_ms; }
};

StoreClockFacts store_clock_before(const sim::Trace& trace, const sim::Scenario& scenario, std::size_t index) {
    StoreClockFacts f;
    f.clock = scenario.lock.clock;
    f.clock.tick_ms = trace.header.tick_ms;
    const std::vector<Held> held = records_before(trace, index);
    for (const Held& h : held) f.records.push_back({h, 0});
    // In the order Redis applied the calls, each read on its clock at the
    // tick it applied them (a reply read late set its deadline earlier).
    for (const std::size_t k : applied_before(trace, index)) {
        const Event& e = trace.events[k];
        if (e.op == EventOp::clock_jump && e.node == "store") f.jumps_half_ms += 2 * e.clock_ms;
        const bool ends = e.op == EventOp::expire || (e.op == EventOp::release && e.outcome == Outcome::released);
        // An acquire by a token that already holds the record changes nothing (its ttl is the time left).
        // An orphan's too: applied, its reply lost (§7.2).
        const bool acquires = acquires_record(e);
        const bool renews = e.op == EventOp::extend && e.outcome == Outcome::renewed;
        const bool kept = e.op == EventOp::release && e.outcome == Outcome::kept;
        // An extend that failed may still have renewed: a dropped reply, a timeout, a crashed node's
        // (model.md §7.2, §16.4); only a dropped request surely did nothing.
        const NodeFaultState cut = faults_before(trace, e.node, k);
        const bool hidden = e.op == EventOp::extend && e.outcome == Outcome::error &&
                            !(cut.partitioned && cut.partition_mode.has(sim::Detail::drop_requests));
        for (StoreDeadline& r : f.records) {
            if (r.held.token != e.token) continue;
            if (ends) r.deadline_half_ms = 0;
            if (hidden) r.unknown = true;
            if (renews) r.unknown = false;
            if (!e.ttl) continue;
            const std::int64_t d = f.reading(applied_at(e)) + 2 * *e.ttl * trace.header.tick_ms;
            if ((acquires && r.deadline_half_ms == 0) || renews) r.deadline_half_ms = d;
            if (kept) r.deadline_half_ms = std::min(r.deadline_half_ms, d);
        }
    }
    return f;
}

// Half milliseconds as milliseconds: "250", or "12.5" for an odd count.
std::string half_ms_text(std::int64_t half_ms) {
    const std::int64_t whole = half_ms / 2;
    return std::to_string(whole) + (half_ms % 2 != 0 ? ".5" : "");
}

class Builder {
public:
    Builder(const ExplainContext& ctx, const Strings& s)
        : ctx_(ctx), s_(s), trace_(*ctx.trace), i_(ctx.event_index), e_(trace_.events[ctx.event_index]) {
        f_ = event_fields(e_);
        f_.emplace_back("ticks", s.tr(e_.ttl && *e_.ttl == 1 ? "word.tick" : "word.ticks"));
        mode_ = ctx.scenario ? ctx.scenario->resource : sim::ResourceMode::off;
        f_.emplace_back("resource_mode", s.tr(std::string("mode.") + sim::to_string(mode_)));
        f_.emplace_back("capacity", std::to_string(trace_.header.capacity));
    }

    // The sentence `key` with the event's fields and `extra`; a field of
    // `extra` wins over the event's field of the same name.
    void add(const std::string& key, const Fields& extra = {}) { facts::add_sentence(out_, s_, key, extra, f_); }

    Explanation build() {
        const std::string key = event_key(e_);
        out_.heading = s_.tr("explain.heading", {{"tick", std::to_string(e_.tick)},
                                                 {"op", op_words(e_, s_)},
                                                 {"node", e_.node.empty() ? std::string("–") : e_.node}});
        add(first_key(key), first_fields());
        wire();
        {
            switch (e_.op) {
                case EventOp::skip: skip(); break;
                case EventOp::write: write(); break;
                case EventOp::expire: expire(); break;
                case EventOp::extend: extend(); break;
                case EventOp::release: release(); break;
                case EventOp::acquire: acquire(); break;
                case EventOp::pause: pause(); break;
                case EventOp::resume: resume(); break;
                case EventOp::crash: crash(); break;
                case EventOp::partition: partition(); break;
                case EventOp::failover: failover(); break;
                case EventOp::clock_jump:
                    if (e_.node == "store") store_clock_jump();
                    break;
                case EventOp::validate:
                    if (e_.phase == sim::Phase::work) {
                        own_check();
                    } else if (e_.outcome == Outcome::stale) {
                        add("explain.validate.stale", holder_fields());
                    }
                    break;
                case EventOp::overlap_begin: overlap_begin(); break;
                case EventOp::overlap_end: overlap_end(); break;
                case EventOp::link_cut: link_cut(); break;
                case EventOp::link_restored: link_restored(); break;
                case EventOp::wait: wait(); break;
                default: break;
            }
        }
        no_replicas();
        answered_by_old_primary();
        return out_;
    }

private:
    // The event in one sentence: the table's key, or a truer one where time
    // on the wire or a clock changes the story.
    std::string first_key(const std::string& key) const {
        // A record that a jump of Redis's clock ended: not its TTL running out in true time.
        if (e_.op == EventOp::expire && jump_ended_it()) return "ev.expire.clock_jump";
        // Redis answered busy when it applied the call: the time left counts from then (model.md §16.6).
        if ((key == "acquire.busy" || key == "acquire.busy_holdoff") && e_.applied) return "ev." + key + "_late";
        // A crashed node's call ends when its reply arrives, as an error that ends no run (§16.4).
        if (key == "acquire.error" && faults_before(trace_, e_.node, i_).crashed) return "ev.acquire.error_crashed";
        // On the wire and not a crash: the call timed out, or Redis applies it after that timeout (§16.4, §16.6).
        if (key == "acquire.error" && e_.sent)
            return earlier_error() ? "ev.acquire.applied_late" : "ev.acquire.timeout";
        // In split brain another primary issued the number from its own counter (model.md §17.5).
        if (key == "acquire.regressed" && split_rival()) return "ev.acquire.regressed_split";
        // Marked fencing_regressed with no counter reset: answers read out of order (regressed()).
        if (key == "acquire.regressed" && !counter_reset_before(trace_, i_)) return "ev.acquire.regressed_late";
        return "ev." + key;
    }

    // Whether this run's acquire already failed before this event (its timeout).
    bool earlier_error() const {
        for (std::size_t k = 0; k < i_; ++k) {
            const Event& p = trace_.events[k];
            if (p.op == EventOp::acquire && p.outcome == Outcome::error && p.node == e_.node && p.run == e_.run)
                return true;
        }
        return false;
    }

    Fields first_fields() const {
        Fields f;
        if (e_.applied) f.emplace_back("applied", std::to_string(*e_.applied));
        const NodeFaultState faults = faults_before(trace_, e_.node, i_);
        if (faults.crashed) f.emplace_back("at", std::to_string(faults.crashed_at));
        return f;
    }

    // Whether the jump of Redis's clock in this tick ended the expiring
    // record: its deadline lay ahead of the clock before the jump (model.md
    // §3.3 rules 4-5). A record whose time had come anyway expires by its TTL.
    bool jump_ended_it() const {
        const std::int64_t jump = store_jump_this_tick();
        if (jump <= 0 || !ctx_.scenario) return false;
        const StoreClockFacts f = store_clock_before(trace_, *ctx_.scenario, i_);
        const std::int64_t before = f.reading(e_.tick) - 2 * jump;
        for (const StoreDeadline& r : f.records)
            if (r.held.token == e_.token) return r.deadline_half_ms > before;
        return false;
    }

    // Time on the wire (model.md §16.6): when the message was sent and the
    // store applied it, only for an event that says so.
    void wire() {
        if (!e_.sent) return;
        const Fields sent{{"sent", std::to_string(*e_.sent)}, {"tick", std::to_string(e_.tick)}};
        if (e_.op == EventOp::write) {
            add("explain.wire.write", sent);
        } else if (e_.applied && e_.op == EventOp::validate) {
            // A check's answer carries no time left: it is about the tick Redis read it.
            Fields f = sent;
            f.emplace_back("applied", std::to_string(*e_.applied));
            add("explain.wire.check", f);
        } else if (e_.applied) {
            Fields f = sent;
            f.emplace_back("applied", std::to_string(*e_.applied));
            // An error with the request applied: the timeout came first, unless the node had crashed (a
            // crashed node has no timeout: its call ends when the reply arrives, model.md §16.4).
            const bool timed_out = e_.outcome == Outcome::error && !faults_before(trace_, e_.node, i_).crashed;
            add(timed_out ? "explain.wire.call_timeout" : "explain.wire.call_applied", f);
        } else {
            // Applied at this very tick and answered at once, or never answered
            // (a timeout, a crash, a request applied after its call timed out).
            add(e_.outcome == Outcome::error ? "explain.wire.call" : "explain.wire.call_here", sent);
        }
    }

    // A node's own check before a write (model.md §5.8): what follows from
    // its answer, and why `current` is no fence.
    void own_check() {
        if (e_.outcome == Outcome::current) {
            add("explain.check.current");
            if (mode_ == sim::ResourceMode::off) {
                add("explain.check.not_a_fence_off");
            } else {
                add("explain.check.not_a_fence");
            }
        } else if (e_.outcome == Outcome::stale || e_.outcome == Outcome::vacant) {
            add("explain.check.throws");
        }
    }

    // The holders other than the event's own token, just before the event.
    std::vector<Held> others() const {
        std::vector<Held> h = records_before(trace_, i_);
        h.erase(std::remove_if(h.begin(), h.end(), [&](const Held& r) { return r.token == e_.token; }), h.end());
        return h;
    }

    Fields holder_fields() const { return holder_fields(others()); }

    // The newest of `records` other than the event's own token.
    Fields holder_fields(std::vector<Held> h) const {
        h.erase(std::remove_if(h.begin(), h.end(), [&](const Held& r) { return r.token == e_.token; }), h.end());
        if (h.empty()) return {{"holder", s_.tr("explain.nobody")}, {"holder_fencing", "–"}};
        // The newest holder: the highest fencing number.
        const Held* best = &h.front();
        for (const Held& r : h)
            if (r.fencing > best->fencing) best = &r;
        return {{"holder", best->owner}, {"holder_fencing", std::to_string(best->fencing)}};
    }

    Fields end_fields(const LeaseEnd& end) const { return {{"end_tick", std::to_string(end.tick)}}; }

    // Why the lease of the event's token ended, as the trace shows it.
    void lease_cause(const std::string& prefix) {
        const LeaseEnd end = lease_end(trace_, e_.token, i_);
        // Split brain (§17.5): its record is on the old primary only; the new one's records count.
        if (const Event* from_old = acquired_from_old_primary(); from_old && end.kind == LeaseEnd::Kind::none)
            add(prefix + "split",
                {{"server", std::to_string(*from_old->server)}, {"acquired", std::to_string(applied_at(*from_old))}});
        else if (end.kind == LeaseEnd::Kind::expiry)
            add(prefix + "expired", end_fields(end));
        else if (end.kind == LeaseEnd::Kind::failover)
            add(prefix + "failover", end_fields(end));
        else if (end.kind == LeaseEnd::Kind::release)
            add(prefix + "released", end_fields(end));
    }

    void write() {
        const bool stale = e_.details.has(sim::Detail::stale);
        const std::optional<Fencing> highest = highest_accepted_before(trace_, i_);
        Fields f{{"highest_before", opt_text(highest)}};
        const Fields h = holder_fields();
        f.insert(f.end(), h.begin(), h.end());
        if (stale) lease_cause("explain.write.stale_");
        const std::vector<Held> holders = others();
        Fencing newest = 0;
        for (const Held& r : holders) newest = std::max(newest, r.fencing);
        const Fencing mine = e_.fencing.value_or(0);
        if (trace_.header.import) {
            recorded_write(stale, f);
        } else if (e_.outcome == Outcome::accepted) {
            switch (mode_) {
                case sim::ResourceMode::off:
                    if (e_.details.has(sim::Detail::unsafe_write)) {
                        add("explain.write.off_unsafe", f);
                        add("explain.advice.check_unsafe", f);
                    } else if (stale) {
                        add(highest ? "explain.write.off_stale" : "explain.write.off_stale_first", f);
                        add("explain.advice.check_stale", f);
                    } else {
                        add("explain.write.off", f);
                    }
                    break;
                case sim::ResourceMode::check:
                    add(highest ? "explain.write.check_accepted" : "explain.write.check_accepted_first", f);
                    if (!stale) break;
                    if (!holders.empty() && newest > mine) {
                        add("explain.write.check_not_yet", f);
                    } else if (!holders.empty() && counter_reset_before(trace_, i_)) {
                        Fields g = f;
                        g.emplace_back("reset_tick", opt_text(counter_reset_before(trace_, i_)));
                        add("explain.write.check_regressed", g);
                    } else if (!holders.empty()) {
                        // Not below the holder's number with no counter reset: numbers reported out of order.
                        add("explain.write.check_not_below", f);
                    } else if (holders.empty()) {
                        add("explain.write.check_vacant", f);
                    }
                    break;
                case sim::ResourceMode::validate: add("explain.write.validate_accepted", f); break;
            }
        } else {
            switch (mode_) {
                case sim::ResourceMode::check:
                    add("explain.write.check_rejected", f);
                    if (stale) {
                        add("explain.write.rejected_harmless", f);
                    } else if (regressed_before(trace_, i_) && counter_reset_before(trace_, i_)) {
                        Fields g = f;
                        g.emplace_back("reset_tick", opt_text(counter_reset_before(trace_, i_)));
                        add("explain.write.check_rejects_holder", g);
                    }
                    break;
                case sim::ResourceMode::validate:
                    add(holders.empty() ? "explain.write.validate_rejected_vacant" : "explain.write.validate_rejected",
                        f);
                    if (stale) add("explain.write.rejected_harmless", f);
                    break;
                case sim::ResourceMode::off: break;  // mode off rejects nothing
            }
        }
        safety_marks(f);
    }

    // A write of an imported history (model.md §19.9): the trace says what the
    // real resource did, not how it checks, so no mode is named.
    void recorded_write(bool stale, const Fields& f) {
        if (e_.outcome == Outcome::accepted) {
            add("explain.write.recorded_accepted", f);
            if (stale) add("explain.write.recorded_stale", f);
        } else {
            add("explain.write.recorded_rejected", f);
            if (stale) add("explain.write.rejected_harmless", f);
        }
    }

    // The marks of model.md §9.6 and §9.7 on a write, told from the trace.
    void safety_marks(const Fields& f) {
        if (e_.details.has(sim::Detail::stale_after_successor)) {
            if (const auto s = successor_write_before(trace_, i_)) {
                add("explain.write.stale_after_successor", {{"successor", s->node},
                                                            {"slot", std::to_string(s->slot)},
                                                            {"successor_tick", std::to_string(s->acquired)},
                                                            {"successor_write_tick", std::to_string(s->wrote)}});
            }
        }
        if (e_.details.has(sim::Detail::holder_rejected)) {
            if (trace_.header.capacity > 1 && !regressed_before(trace_, i_)) add("explain.write.group_rejected", f);
            add("explain.write.holder_rejected", f);
        }
    }

    // §9.8: who had the number before.
    void duplicate_number() {
        if (!e_.details.has(sim::Detail::fencing_duplicate)) return;
        if (const Event* before = same_number_before(trace_, i_)) {
            add("explain.acquire.duplicate",
                {{"other", before->node}, {"other_tick", std::to_string(applied_at(*before))}});
        }
    }

    void expire() {
        // The acquisition of this record, and what its owner was doing since.
        std::size_t a = i_;
        for (std::size_t k = i_; k-- > 0;) {
            if (acquires_record(trace_.events[k]) && trace_.events[k].token == e_.token) {
                a = k;
                break;
            }
        }
        if (a == i_) {
            add("explain.expire.other");
            return;
        }
        const Event& acq = trace_.events[a];
        const std::optional<Tick> ended = run_ended_before(trace_, acq.node, acq.run, i_);
        const NodeFaultState faults = faults_before(trace_, e_.node, i_);
        const Tick renewed = last_renewal(trace_, e_.token, i_);
        const sim::Candidate* cand = candidate_of(ctx_.scenario, e_.node);
        if (acq.outcome == Outcome::error) {
            add("explain.expire.orphan", {{"at", std::to_string(acq.tick)}});
        } else if (faults.crashed) {
            add("explain.expire.crashed", {{"at", std::to_string(faults.crashed_at)}});
        } else if (ended) {
            add("explain.expire.after_kept", {{"at", std::to_string(*ended)}});
        } else {
            const auto paused = fault_during(trace_, e_.node, renewed, i_, EventOp::pause, EventOp::resume);
            const auto cut = fault_during(trace_, e_.node, renewed, i_, EventOp::partition, EventOp::heal);
            const bool watchdog = cand && cand->options.auto_extend;
            if (jump_ended_it()) {
                add("explain.expire.clock_jump", {{"jump_ms", std::to_string(store_jump_this_tick())}});
            } else if (!watchdog) {
                add("explain.expire.no_watchdog", {{"renewed", std::to_string(renewed)}});
            }
            // Its reply read late: the node counts the lease from then, Redis from its application (§16.4).
            if (acq.applied && renewed == *acq.applied) {
                add("explain.expire.late_reply", {{"learned", std::to_string(acq.tick)},
                                                  {"applied", std::to_string(*acq.applied)},
                                                  {"late", std::to_string(acq.tick - *acq.applied)}});
            }
            if (paused) {
                add(watchdog ? "explain.expire.paused_watchdog" : "explain.expire.paused",
                    {{"since", std::to_string(paused->from)}});
            }
            if (cut && watchdog) add("explain.expire.partitioned", {{"since", std::to_string(cut->from)}});
            if (watchdog && !paused && !cut) slow_watchdog_or_other(*cand);
            add("explain.expire.stale_now");
        }
    }

    // A watchdog on a slow node clock runs late (model.md §3.3 rule 7): its
    // period is measured on that clock, so the TTL ran out first.
    void slow_watchdog_or_other(const sim::Candidate& cand) {
        const std::int32_t ppm = cand.options.drift_ppm;
        if (ppm >= 0) {
            add("explain.expire.other");
            return;
        }
        add("explain.expire.slow_clock", clock_rate_fields(ppm));
    }

    // A node clock's rate as a percent of true time, one decimal, and its drift.
    static Fields clock_rate_fields(std::int32_t ppm) {
        const std::int64_t rate_tenths = (ppm_one + ppm) / 1000;  // per mille: one decimal of a percent
        const std::string rate = std::to_string(rate_tenths / 10) +
                                 (rate_tenths % 10 != 0 ? "." + std::to_string(rate_tenths % 10) : std::string());
        return {{"rate", rate}, {"ppm", std::to_string(ppm)}};
    }

    // The milliseconds Redis's clock jumped in this tick before this event (0: none).
    std::int64_t store_jump_this_tick() const {
        std::int64_t ms = 0;
        for (std::size_t k = i_; k-- > 0 && trace_.events[k].tick == e_.tick;)
            if (trace_.events[k].op == EventOp::clock_jump && trace_.events[k].node == "store")
                ms += trace_.events[k].clock_ms;
        return ms;
    }

    void extend() {
        if (e_.outcome == Outcome::renewed) {
            add("explain.extend.renewed");
            return;
        }
        if (e_.outcome == Outcome::error) {
            const NodeFaultState faults = faults_before(trace_, e_.node, i_);
            if (faults.partitioned)
                add("explain.extend.error_partition", {{"since", std::to_string(faults.partitioned_since)}});
            return;
        }
        // lost
        const LeaseEnd end = lease_end(trace_, e_.token, i_);
        if (end.kind == LeaseEnd::Kind::expiry) {
            add("explain.extend.lost_expired", end_fields(end));
            const Tick renewed = last_renewal(trace_, e_.token, i_);
            if (auto p = fault_during(trace_, e_.node, renewed, i_, EventOp::pause, EventOp::resume)) {
                add("explain.extend.late_paused", {{"since", std::to_string(p->from)}});
            } else if (auto c = fault_during(trace_, e_.node, renewed, i_, EventOp::partition, EventOp::heal)) {
                add("explain.extend.late_partitioned", {{"since", std::to_string(c->from)}});
            } else if (const sim::Candidate* cand = candidate_of(ctx_.scenario, e_.node);
                       cand && cand->options.drift_ppm < 0) {
                // Its period measured on a slow clock (model.md §3.3 rule 7).
                add("explain.extend.late_slow_clock", clock_rate_fields(cand->options.drift_ppm));
            }
        } else if (end.kind == LeaseEnd::Kind::failover) {
            add("explain.extend.lost_failover", end_fields(end));
        }
        add("explain.extend.lost_tail");
    }

    void release() {
        switch (e_.outcome) {
            case Outcome::released: add("explain.release.released"); break;
            case Outcome::kept: add("explain.release.kept"); break;
            case Outcome::not_owner: {
                lease_cause("explain.release.ended_");
                const Fields h = holder_fields();
                if (others().empty())
                    add("explain.release.not_owner_vacant");
                else if (trace_.header.capacity > 1)
                    add("explain.release.not_owner_group");
                else
                    add("explain.release.not_owner_held", h);
                const LeaseEnd end = lease_end(trace_, e_.token, i_);
                if (end.kind != LeaseEnd::Kind::none) add("explain.release.work_done", end_fields(end));
                break;
            }
            default: {
                const NodeFaultState faults = faults_before(trace_, e_.node, i_);
                if (faults.partitioned) {
                    add("explain.release.error_partition", {{"since", std::to_string(faults.partitioned_since)}});
                }
                break;
            }
        }
    }

    void acquire() {
        if (e_.outcome == Outcome::acquired) {
            if (e_.details.has(sim::Detail::fencing_regressed)) {
                regressed();
            } else {
                add("explain.acquire.acquired");
            }
            if (!others().empty()) {
                // Another node's record is still held: only in a group with a free slot.
                add("explain.acquire.group", holder_fields());
            }
        } else if (e_.outcome == Outcome::busy) {
            if (e_.details.has(sim::Detail::hold_off)) {
                add("explain.acquire.busy_holdoff", deadline_fields());
            } else {
                Fields f = deadline_fields();
                // Who held it when Redis decided: a reply read late was decided earlier (model.md §16.6).
                const Fields h = holder_fields(records_deciding(trace_, i_));
                f.insert(f.end(), h.begin(), h.end());
                add("explain.acquire.busy", f);
            }
        } else if (e_.details.has(sim::Detail::reply_lost)) {
            add("explain.acquire.reply_lost");
        } else {
            const NodeFaultState faults = faults_before(trace_, e_.node, i_);
            if (faults.partitioned)
                add("explain.acquire.error_partition", {{"since", std::to_string(faults.partitioned_since)}});
        }
        duplicate_number();
        shuffled_order();
    }

    // fencing_regressed (model.md §9.4): after a failover that lost the
    // counter, or, with time on the wire, because a higher number issued
    // later was reported first: the trace orders acquisitions by when their
    // answers were read, Redis by when it applied them.
    void regressed() {
        if (const Event* rival = split_rival()) {
            split_numbers(*rival);
            return;
        }
        const std::optional<Promotion> back = rollback_before(trace_, i_);
        const std::optional<Tick> reset = counter_reset_before(trace_, i_);
        if (back && reset && *reset == back->tick) {
            rolled_back(*back);
            return;
        }
        if (reset) {
            add("explain.acquire.regressed", {{"reset_tick", std::to_string(*reset)}});
            return;
        }
        const Event* higher = nullptr;
        for (std::size_t k = 0; k < i_; ++k) {
            const Event& p = trace_.events[k];
            if (acquires_record(p) && *p.fencing >= *e_.fencing && (!higher || *p.fencing > *higher->fencing))
                higher = &p;
        }
        if (!higher) return;
        add("explain.acquire.regressed_late", {{"applied", std::to_string(applied_at(e_))},
                                               {"other", higher->node},
                                               {"other_fencing", std::to_string(*higher->fencing)},
                                               {"other_tick", std::to_string(higher->tick)}});
    }

    void skip() {
        add("explain.skip");
        // Why it did not get in: a pause or a partition while it waited, as the trace shows.
        if (const std::optional<Tick> started = run_start(trace_, e_.node, e_.run, i_)) {
            if (auto p = fault_during(trace_, e_.node, *started, i_, EventOp::pause, EventOp::resume)) {
                add("explain.skip.paused", {{"since", std::to_string(p->from)}});
            } else if (auto c = fault_during(trace_, e_.node, *started, i_, EventOp::partition, EventOp::heal)) {
                add("explain.skip.partitioned", {{"since", std::to_string(c->from)}});
            }
        }
        const Fields h = holder_fields();
        if (!others().empty()) {
            add("explain.skip.holder", h);
        } else if (ctx_.scenario && ctx_.scenario->elector == ElectorKind::lock &&
                   records_before(trace_, i_).size() < static_cast<std::size_t>(trace_.header.capacity)) {
            // Free at the deadline, yet no try: the single lock's rule (model.md, waiting loops).
            add("explain.skip.free_at_deadline");
        }
    }

    Fields deadline_fields() const {
        const sim::Candidate* cand = candidate_of(ctx_.scenario, e_.node);
        const std::optional<Tick> started = run_start(trace_, e_.node, e_.run, i_ + 1);
        if (!cand || !started) return {{"deadline", "–"}};
        // On the node's clock (model.md §3.3 rule 7), as the elector keeps it.
        const DriftClock clock{cand->options.tick_ms, cand->options.drift_ppm};
        return {{"deadline", std::to_string(clock.after(*started, cand->options.wait))}};
    }

    // With order = shuffled, the order of this tick's callers when it decided
    // a race: some acquired and some found the lock busy.
    void shuffled_order() {
        if (!ctx_.scenario || ctx_.scenario->order != sim::Order::shuffled) return;
        std::vector<std::string> order, winners, losers;
        for (const Event& e : trace_.events) {
            if (e.tick != e_.tick || e.phase != sim::Phase::acquire) continue;
            if (std::find(order.begin(), order.end(), e.node) == order.end()) order.push_back(e.node);
            if (e.op == EventOp::acquire && e.outcome == Outcome::acquired) winners.push_back(e.node);
            if (e.op == EventOp::acquire && e.outcome == Outcome::busy) losers.push_back(e.node);
        }
        if (order.size() < 2 || winners.empty() || losers.empty()) return;
        add("explain.order.shuffled", {{"order", join(order)}, {"winners", join(winners)}, {"losers", join(losers)}});
    }

    void pause() {
        add("explain.pause");
        for (const Held& r : records_before(trace_, i_)) {
            if (r.owner != e_.node) continue;
            add("explain.pause.holding", {{"fencing", std::to_string(r.fencing)}});
            break;
        }
    }

    void resume() {
        // The node's latest run that acquired a record, and whether that record outlived the pause.
        Token token;
        for (std::size_t k = i_; k-- > 0;) {
            const Event& p = trace_.events[k];
            if (p.node == e_.node && acquires_record(p)) {
                token = p.token;
                break;
            }
        }
        if (token.empty()) return;
        // Only a run that is still going matters.
        std::int32_t run = -1;
        for (std::size_t k = i_; k-- > 0;)
            if (trace_.events[k].token == token && trace_.events[k].run >= 0) {
                run = trace_.events[k].run;
                break;
            }
        if (run_ended_before(trace_, e_.node, run, i_)) return;
        const LeaseEnd end = lease_end(trace_, token, i_);
        if (end.kind == LeaseEnd::Kind::expiry)
            add("explain.resume.expired", end_fields(end));
        else if (end.kind == LeaseEnd::Kind::failover)
            add("explain.resume.failover", end_fields(end));
        else if (end.kind == LeaseEnd::Kind::none)
            add("explain.resume.still_held");
    }

    void crash() {
        bool holding = false;
        for (const Held& r : records_before(trace_, i_)) holding = holding || r.owner == e_.node;
        add(holding ? "explain.crash" : "explain.crash.nothing_held");
    }

    void partition() {
        add(e_.details.has(sim::Detail::drop_replies) ? "explain.partition.replies" : "explain.partition.requests");
    }

    void failover() {
        if (e_.server) {
            promoted();
            return;
        }
        std::vector<std::string> lost;
        for (const Held& r : records_before(trace_, i_)) lost.push_back(r.owner + " #" + std::to_string(r.fencing));
        add(lost.empty() ? "explain.failover.nothing_held" : "explain.failover.records", {{"records", join(lost)}});
        if (e_.details.has(sim::Detail::all)) {
            add("explain.failover.all", {{"counter", ctx_.snapshot ? std::to_string(ctx_.snapshot->counter) : "–"}});
        } else {
            add("explain.failover.leases");
        }
    }

    // What a jump of Redis's clock did to each record (model.md §3.3 rules
    // 4–5): its time left before the jump, and whether the new time has
    // passed its deadline (then it ends at once) or what is left now.
    void store_clock_jump() {
        if (!ctx_.scenario) return;
        const StoreClockFacts f = store_clock_before(trace_, *ctx_.scenario, i_);
        const std::int64_t before = f.reading(e_.tick);
        const std::int64_t after = before + 2 * e_.clock_ms;
        bool any = false;
        for (const StoreDeadline& r : f.records) {
            if (r.unknown) {
                add("explain.clock_jump.record_unknown",
                    {{"owner", r.held.owner}, {"fencing", std::to_string(r.held.fencing)}});
                any = true;
                continue;
            }
            // Its time had come before the jump: Redis counts it vacant already (§3.3 rule 5).
            if (r.deadline_half_ms <= before) continue;
            any = true;
            const Fields rf{{"owner", r.held.owner},
                            {"fencing", std::to_string(r.held.fencing)},
                            {"left_ms", half_ms_text(r.deadline_half_ms - before)},
                            {"now_ms", half_ms_text(r.deadline_half_ms - after)}};
            add(r.deadline_half_ms <= after ? "explain.clock_jump.record_expired" : "explain.clock_jump.record_kept",
                rf);
        }
        if (!any) add("explain.clock_jump.nothing_held");
    }

    std::vector<std::string> executing(sim::NodeStatus which) const {
        std::vector<std::string> out;
        if (!ctx_.snapshot) return out;
        for (const sim::NodeSnapshot& n : ctx_.snapshot->nodes)
            if (n.status == which) out.push_back(n.name);
        return out;
    }

    void overlap_begin() {
        std::vector<std::string> acting = executing(sim::NodeStatus::running);
        const std::vector<std::string> stale = executing(sim::NodeStatus::stale);
        add("explain.overlap_begin", {{"count", std::to_string(e_.overlap_count)}});
        if (!stale.empty()) add("explain.overlap.stale_nodes", {{"stale", join(stale)}});
        switch (mode_) {
            case sim::ResourceMode::off: add("explain.advice.fence_overlap"); break;
            case sim::ResourceMode::check: overlap_check(); break;
            case sim::ResourceMode::validate: add("explain.overlap.validate"); break;
        }
    }

    // Mode check stops a stale writer only once a higher number than its own
    // was accepted (model.md §8): not when its number is not below the
    // working holder's, as after a failover that lost the counter (§9.6).
    void overlap_check() {
        const sim::NodeSnapshot* stale = nullptr;
        const sim::NodeSnapshot* holder = nullptr;
        static const std::vector<sim::NodeSnapshot> none;
        for (const sim::NodeSnapshot& n : ctx_.snapshot ? ctx_.snapshot->nodes : none) {
            if (!n.fencing) continue;
            if (n.status == sim::NodeStatus::stale && (!stale || *n.fencing > *stale->fencing)) stale = &n;
            if (n.status == sim::NodeStatus::running && (!holder || *n.fencing > *holder->fencing)) holder = &n;
        }
        if (stale && holder && *stale->fencing >= *holder->fencing) {
            add("explain.overlap.check_not_higher", {{"stale_node", stale->name},
                                                     {"stale_fencing", std::to_string(*stale->fencing)},
                                                     {"holder_fencing", std::to_string(*holder->fencing)}});
        } else {
            add("explain.overlap.check");
        }
    }

    void overlap_end() {
        const std::vector<std::string> stale = executing(sim::NodeStatus::stale);
        if (!stale.empty())
            add("explain.overlap_end.stale_left", {{"stale", join(stale)}});
        else if (ctx_.snapshot)
            add("explain.overlap_end.clear");
    }

    // Replication (model.md §17). The records as "node-a #1, node-b #2".
    static std::string records_text(const std::vector<Held>& held) {
        std::vector<std::string> out;
        for (const Held& r : held) out.push_back(r.owner + " #" + std::to_string(r.fencing));
        return join(out);
    }

    // "node-b's acquisition at tick 11, …": the acquisitions a promoted replica missed.
    std::string missed_text(const Promotion& p) const {
        std::vector<std::string> out;
        for (const std::size_t k : p.missed)
            out.push_back(
                s_.tr("explain.missed_acquisition",
                      {{"node", trace_.events[k].node}, {"tick", std::to_string(applied_at(trace_.events[k]))}}));
        return join(out);
    }

    Fields counter_fields(const Promotion& p) const {
        return {{"was", std::to_string(p.was)},
                {"counter", std::to_string(p.counter)},
                {"next", std::to_string(p.counter + 1)},
                {"missed", missed_text(p)},
                {"cut", p.cut ? std::to_string(*p.cut) : std::string("–")},
                {"failover_tick", std::to_string(p.tick)}};
    }

    // A promoting failover (§17.3): what the promoted replica held, what was
    // lost with the old primary, and where its counter stands.
    void promoted() {
        const std::optional<Promotion> p = promotion_at(trace_, i_);
        if (!p) return;
        add(p->kept.empty() ? "explain.failover.promote_nothing" : "explain.failover.promote_kept",
            {{"records", records_text(p->kept)}});
        if (!p->lost.empty()) add("explain.failover.records", {{"records", records_text(p->lost)}});
        if (p->counter < p->was && !p->missed.empty())
            add("explain.failover.rollback", counter_fields(*p));
        else
            add("explain.failover.counter_kept", counter_fields(*p));
        split_brain_at_failover();
    }

    // §17.5: the scenario keeps the old primary for some nodes (a fact of this tick, not of its end).
    void split_brain_at_failover() {
        if (!ctx_.scenario) return;
        for (const sim::Fault& f : ctx_.scenario->faults) {
            if (f.kind != sim::FaultKind::failover || f.at != e_.tick || !f.old_primary) continue;
            std::vector<std::string> nodes;
            for (const NodeIndex n : f.old_primary->reachable_by)
                if (n >= 0 && static_cast<std::size_t>(n) < ctx_.scenario->candidates.size())
                    nodes.push_back(ctx_.scenario->candidates[static_cast<std::size_t>(n)].name);
            const StoreReplay r = replay(trace_, applied_before(trace_, i_));
            add("explain.failover.split", {{"old", std::to_string(r.primary_server)}, {"nodes", join(nodes)}});
        }
    }

    // The acquisition of the event's token, when an old primary answered it (split brain, §17.5).
    const Event* acquired_from_old_primary() const {
        for (std::size_t k = i_; k-- > 0;) {
            const Event& p = trace_.events[k];
            if (p.token == e_.token && acquires_record(p)) return p.server ? &p : nullptr;
        }
        return nullptr;
    }

    // Split brain (§17.5): the last acquisition issued a number not below
    // this one's by the other primary (one of the two answered by an old
    // primary, the other not), or null.
    const Event* split_rival() const {
        if (!e_.fencing) return nullptr;
        const Event* rival = nullptr;
        for (std::size_t k = 0; k < i_; ++k) {
            const Event& p = trace_.events[k];
            if (acquires_record(p) && *p.fencing >= *e_.fencing) rival = &p;
        }
        if (const Event* same = same_number_before(trace_, i_)) rival = same;
        return rival && rival->server != e_.server ? rival : nullptr;
    }

    // Which primary issued an acquisition: the old one (its `server`) or the new one.
    std::string issuer(const Event& e) const {
        if (e.server) return s_.tr("explain.by_old_primary", {{"server", std::to_string(*e.server)}});
        const StoreReplay r = replay(trace_, applied_before(trace_, i_));
        return s_.tr("explain.by_new_primary", {{"server", std::to_string(r.primary_server)}});
    }

    void split_numbers(const Event& rival) {
        add("explain.acquire.split", {{"other", rival.node},
                                      {"other_fencing", opt_text(rival.fencing)},
                                      {"other_tick", std::to_string(applied_at(rival))},
                                      {"other_by", issuer(rival)},
                                      {"by", issuer(e_)}});
    }

    // The acquire issued a number again after a promotion that set the counter back.
    void rolled_back(const Promotion& p) { add("explain.acquire.rollback", counter_fields(p)); }

    void link_cut() {
        const StoreReplay r = replay(trace_, applied_before(trace_, i_));
        add("explain.link_cut",
            {{"before", std::to_string(e_.tick - 1)}, {"counter", std::to_string(r.primary.counter)}});
    }

    void link_restored() {
        const StoreReplay r = replay(trace_, applied_before(trace_, i_));
        const bool split_end = r.old && e_.server && r.old->server == *e_.server &&
                               std::none_of(r.frozen.begin(), r.frozen.end(),
                                            [&](const StoreReplay::Cut& c) { return c.server == *e_.server; });
        if (!split_end) {
            add("explain.link_restored", {{"counter", std::to_string(r.primary.counter)}});
            return;
        }
        std::vector<Held> only_old;
        for (const Held& h : r.old->held)
            if (std::none_of(r.primary.held.begin(), r.primary.held.end(),
                             [&](const Held& p) { return p.token == h.token; }))
                only_old.push_back(h);
        add(only_old.empty() ? "explain.link_restored.split_end" : "explain.link_restored.split_end_lost",
            {{"primary", std::to_string(r.primary_server)}, {"records", records_text(only_old)}});
    }

    // WAIT (§17.6): how many replicas acknowledged, of how many asked, within which timeout.
    void wait() {
        const sim::Candidate* cand = candidate_of(ctx_.scenario, e_.node);
        const Fields f{{"wait", cand ? std::to_string(cand->options.wait_replicas) : std::string("–")},
                       {"timeout", cand ? std::to_string(cand->options.wait_timeout_ticks()) : std::string("–")}};
        add(e_.outcome == Outcome::synced ? "explain.wait.synced" : "explain.wait.not_synced", f);
    }

    // min-replicas-to-write refused the call (§17.4 rule 3).
    void no_replicas() {
        if (!e_.details.has(sim::Detail::no_replicas)) return;
        const std::int32_t min = ctx_.scenario ? ctx_.scenario->lock.replication.min_replicas_to_write : 0;
        add("explain.no_replicas", {{"min", min > 0 ? std::to_string(min) : std::string("–")}});
        if (e_.op == EventOp::acquire) add("explain.no_replicas.acquire");
        if (e_.op == EventOp::extend) add("explain.no_replicas.extend");
        if (e_.op == EventOp::release) add("explain.no_replicas.release");
    }

    // Split brain (§17.5 rule 4): a call the old primary answered.
    void answered_by_old_primary() {
        const bool call = e_.op == EventOp::acquire || e_.op == EventOp::extend || e_.op == EventOp::release ||
                          e_.op == EventOp::validate || e_.op == EventOp::wait;
        if (e_.server && call) add("explain.split.old_primary");
    }

    const ExplainContext& ctx_;
    const Strings& s_;
    const sim::Trace& trace_;
    std::size_t i_;
    const Event& e_;
    Fields f_;
    sim::ResourceMode mode_ = sim::ResourceMode::off;
    Explanation out_;
};

}  // namespace

std::string Explanation::body() const {
    std::string out;
    for (std::size_t k = 0; k < sentences.size(); ++k) {
        if (k == 1)
            out += "\n\n";
        else if (k > 1)
            out += ' ';
        out += sentences[k].text;
    }
    return out;
}

Explanation explain(const ExplainContext& ctx, const Strings& s) {
    if (!ctx.trace || ctx.event_index >= ctx.trace->events.size()) {
        Explanation none;
        none.sentences.push_back({"explain.none", s.tr("explain.none")});
        return none;
    }
    // A Redlock trace's own events (model.md §20.8).
    if (ctx.trace->header.format == 5) {
        Explanation redlock;
        if (explain_redlock(ctx, s, redlock)) return redlock;
    }
    // A Redisson trace's own events (model.md §21.9).
    if (ctx.trace->header.format == 6) {
        Explanation redisson;
        if (explain_redisson(ctx, s, redisson)) return redisson;
    }
    return Builder(ctx, s).build();
}

std::string explain_event(const ExplainContext& ctx, const Strings& s) { return explain(ctx, s).body(); }

}  // namespace leasescope::words
