// The explanation of an event of a Redisson trace (model.md §21,
// `leasescope-trace/6`): what the lock, renew and unlock scripts answered,
// what the unlock message did, what a write meant for the resource. Like
// explanation.cpp, it reads only the events before the explained one (and
// the scenario, when given).
#include "redisson_explain.hpp"

#include "trace_facts.hpp"

namespace leasescope::words {
namespace {

using sim::Event;
using sim::EventOp;
using sim::Outcome;

// Who holds the key just before event `index`, folded from the trace: a lock
// taken (also one whose reply was lost), a key deleted or expired.
std::string holder_before(const sim::Trace& trace, std::size_t index) {
    std::string holder;
    for (std::size_t i = 0; i < index; ++i) {
        const Event& e = trace.events[i];
        if (e.op == EventOp::acquire && (e.outcome == Outcome::acquired || e.details.has(sim::Detail::reply_lost)))
            holder = e.node;
        if ((e.op == EventOp::release && e.outcome == Outcome::released) || e.op == EventOp::expire) holder.clear();
    }
    return holder;
}

class RedissonBuilder {
public:
    RedissonBuilder(const ExplainContext& ctx, const Strings& s)
        : ctx_(ctx), s_(s), trace_(*ctx.trace), i_(ctx.event_index), e_(trace_.events[i_]) {
        f_ = event_fields(e_);
        f_.emplace_back("resource_mode", s.tr("mode.off"));  // no number to check (rule 21.6)
        f_.emplace_back("ttl_ms", e_.ttl ? std::to_string(*e_.ttl * trace_.header.tick_ms) : std::string("–"));
        const std::string holder = holder_before(trace_, i_);
        f_.emplace_back("holder", holder.empty() ? std::string("–") : holder);
        holder_ = holder;
    }

    // False when the event has no words of its own here (explanation.cpp's apply).
    bool build(Explanation& out) {
        out_ = &out;
        out.heading = s_.tr("explain.heading", {{"tick", std::to_string(e_.tick)},
                                                {"op", op_words(e_, s_)},
                                                {"node", e_.node.empty() ? std::string("–") : e_.node}});
        switch (e_.op) {
            case EventOp::start: add("rs.start"); return true;
            case EventOp::acquire: acquire(); return true;
            case EventOp::extend: extend(); return true;
            case EventOp::release: release(); return true;
            case EventOp::message:
                add(e_.outcome == Outcome::delivered ? "rs.message.delivered" : "rs.message.lost");
                return true;
            case EventOp::write: write(); return true;
            case EventOp::expire: add("rs.expire"); return true;
            case EventOp::skip: add("rs.skip"); return true;
            default: return false;
        }
    }

private:
    void add(const std::string& key, const Fields& extra = {}) { facts::add_sentence(*out_, s_, key, extra, f_); }

    // The attempt before this one in the same run, if any (RL 235 then 278).
    bool first_attempt() const {
        for (std::size_t k = i_; k-- > 0;) {
            const Event& p = trace_.events[k];
            if (p.node != e_.node) continue;
            if (p.op == EventOp::start) return true;
            if (p.op == EventOp::acquire) return false;
        }
        return true;
    }

    bool watchdog() const {
        const sim::Candidate* c = facts::candidate_of(ctx_.scenario, e_.node);
        return c != nullptr && c->options.auto_extend;
    }

    void acquire() {
        if (e_.outcome == Outcome::acquired) {
            add("rs.acquire.acquired");
            if (watchdog())
                add("rs.acquire.watchdog",
                    {{"period_ms", std::to_string(ctx_.scenario->redisson.lock_watchdog_timeout_ms / 3)}});
            return;
        }
        if (e_.outcome == Outcome::busy) {
            add(holder_.empty() ? "rs.acquire.busy_plain" : "rs.acquire.busy");
            add(first_attempt() ? "rs.acquire.subscribe" : "rs.acquire.sleep");
            return;
        }
        add(e_.details.has(sim::Detail::reply_lost) ? "rs.acquire.reply_lost" : "rs.acquire.error");
    }

    void extend() {
        if (e_.outcome == Outcome::renewed) return add("rs.extend.renewed");
        add(e_.outcome == Outcome::lost ? "rs.extend.lost" : "rs.extend.error");
    }

    void release() {
        switch (e_.outcome) {
            case Outcome::released: return add("rs.release.released");
            case Outcome::kept: return add("rs.release.kept");
            case Outcome::not_owner:
                return add(holder_.empty() || holder_ == e_.node ? "rs.release.not_owner_none"
                                                                 : "rs.release.not_owner");
            default: return add("rs.release.error");
        }
    }

    // A write at the resource (rule 21.6).
    void write() {
        add("rs.write");
        if (!e_.details.has(sim::Detail::stale)) return add("rs.write.held");
        add("rs.write.stale");
        if (e_.details.has(sim::Detail::unsafe_write)) add("rs.write.unsafe");
    }

    const ExplainContext& ctx_;
    const Strings& s_;
    const sim::Trace& trace_;
    std::size_t i_;
    const Event& e_;
    Fields f_;
    std::string holder_;
    Explanation* out_ = nullptr;
};

}  // namespace

bool explain_redisson(const ExplainContext& ctx, const Strings& s, Explanation& out) {
    return RedissonBuilder(ctx, s).build(out);
}

}  // namespace leasescope::words
