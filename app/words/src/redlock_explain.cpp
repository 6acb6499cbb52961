// The explanation of an event of a Redlock trace (model.md §20,
// `leasescope-trace/5`): what a store answered, what a client counted and
// why, what a write meant for the resource. Like explanation.cpp, it reads
// only the events before the explained one (and the scenario, when given).
#include "redlock_explain.hpp"

#include "leasescope/words/redlock_facts.hpp"
#include "trace_facts.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace leasescope::words {
namespace {

using sim::Event;
using sim::EventOp;
using sim::Outcome;

// Which token each store holds, and which stores are down, just before
// event `index`: the shared fold of the stores' own events (§20.8).
struct StoreKeys {
    struct Key {
        std::string token;
        std::string node;
    };
    std::vector<Key> keys;
    std::vector<bool> down;
};

StoreKeys keys_before(const sim::Trace& trace, std::size_t index) {
    const RedlockFacts f = redlock_facts_before(trace, index);
    StoreKeys k;
    for (const RedlockStoreFact& s : f.stores) {
        k.keys.push_back({s.token, s.node});
        k.down.push_back(s.down);
    }
    return k;
}

class RedlockBuilder {
public:
    RedlockBuilder(const ExplainContext& ctx, const Strings& s)
        : ctx_(ctx), s_(s), trace_(*ctx.trace), i_(ctx.event_index), e_(trace_.events[i_]) {
        f_ = event_fields(e_);
        const std::size_t n = trace_.header.stores.size();
        f_.emplace_back("stores", std::to_string(n));
        f_.emplace_back("quorum", std::to_string(n / 2 + 1));
        f_.emplace_back("votes", std::to_string(e_.overlap_count));
        if (e_.server && static_cast<std::size_t>(*e_.server) < n)
            f_.emplace_back("store", trace_.header.stores[static_cast<std::size_t>(*e_.server)]);
        f_.emplace_back("resource_mode", s.tr("mode.off"));  // Redlock's resource checks nothing (rule 20.6)
        f_.emplace_back("ttl_ms", e_.ttl ? std::to_string(*e_.ttl * trace_.header.tick_ms) : std::string("–"));
    }

    // False when the event has no words of its own here (explanation.cpp's apply).
    bool build(Explanation& out) {
        out_ = &out;
        out.heading = s_.tr("explain.heading", {{"tick", std::to_string(e_.tick)},
                                                {"op", op_words(e_, s_)},
                                                {"node", e_.node.empty() ? std::string("–") : e_.node}});
        switch (e_.op) {
            case EventOp::acquire:
                if (!e_.server) return false;
                store_answer();
                return true;
            case EventOp::release:
                if (!e_.server) return false;
                store_release();
                return true;
            case EventOp::quorum: e_.phase == sim::Phase::acquire ? count_lock() : count_release(); return true;
            case EventOp::write: write(); return true;
            case EventOp::expire: expire(); return true;
            case EventOp::crash:
                if (!e_.server) return false;
                add("rl.store_down");
                return true;
            case EventOp::restart: restart(); return true;
            case EventOp::clock_jump:
                if (!e_.server) return false;
                store_clock_jump();
                return true;
            case EventOp::skip: skip(); return true;
            default: return false;
        }
    }

private:
    void add(const std::string& key, const Fields& extra = {}) { facts::add_sentence(*out_, s_, key, extra, f_); }

    const StoreKeys::Key& key_here() const {
        static const StoreKeys::Key none;
        keys_ = keys_before(trace_, i_);
        return e_.server ? keys_.keys[static_cast<std::size_t>(*e_.server)] : none;
    }

    void store_answer() {
        if (e_.outcome == Outcome::acquired) return add("rl.acquire.yes");
        if (e_.outcome == Outcome::error) return add("rl.acquire.down");
        const StoreKeys::Key& k = key_here();
        if (!k.node.empty() && k.node != e_.node) return add("rl.acquire.no_held", {{"holder", k.node}});
        add(k.token == e_.token ? "rl.acquire.no_own" : "rl.acquire.no");
    }

    void store_release() {
        if (e_.outcome == Outcome::released) return add("rl.release.yes");
        if (e_.outcome == Outcome::error) return add("rl.release.down");
        const StoreKeys::Key& k = key_here();
        if (!k.node.empty() && k.node != e_.node) return add("rl.release.no_held", {{"holder", k.node}});
        add(k.token.empty() ? "rl.release.no_key" : "rl.release.no");
    }

    std::int64_t attempts() const {
        std::int64_t n = 0;
        for (std::size_t k = 0; k <= i_; ++k) {
            const Event& p = trace_.events[k];
            if (p.op == EventOp::quorum && p.phase == sim::Phase::acquire && p.node == e_.node && p.run == e_.run) ++n;
        }
        return n;
    }

    // The count of an attempt (rule 20.4.5): votes, quorum, validity.
    void count_lock() {
        const std::optional<RedlockCount> count = redlock_count(ctx_.scenario, trace_, i_);
        if (!count) {
            add(e_.outcome == Outcome::acquired ? "rl.quorum.locked_plain" : "rl.quorum.no_plain");
            return;
        }
        if (count->drift_factor_assumed) return count_lock_of_trace(*count);
        const sim::RedlockOptions& o = ctx_.scenario->redlock;
        const std::int64_t left = count->validity_ms;
        const Fields f{{"ttl_ms", std::to_string(count->ttl_ms)},
                       {"drift", std::to_string(count->drift_ms)},
                       {"validity", std::to_string(left)},
                       {"late", std::to_string(-left)},
                       {"elapsed", std::to_string(count->elapsed_ms)},
                       {"delay", std::to_string(o.retry_delay_ms)},
                       {"jitter", std::to_string(o.retry_jitter_ms)},
                       {"attempts", std::to_string(attempts())},
                       {"max", std::to_string(o.retry_count + 1)}};
        if (e_.outcome == Outcome::acquired) return add("rl.quorum.locked", f);
        add(count->votes >= count->quorum ? "rl.quorum.too_late" : "rl.quorum.no", f);
        const bool last = o.retry_count >= 0 && attempts() > o.retry_count;
        if (o.retry_count < 0) return add("rl.quorum.retry_forever", f);  // retryCount -1 (rule 20.1.2)
        add(last ? "rl.quorum.last" : "rl.quorum.retry", f);
    }

    // A trace alone: the count locked (only then does it carry the lease),
    // and the drift is the package's default's, said so (model.md §20.8).
    void count_lock_of_trace(const RedlockCount& count) {
        add("rl.quorum.locked_assumed", {{"ttl_ms", std::to_string(count.ttl_ms)},
                                         {"drift", std::to_string(count.drift_ms)},
                                         {"drift_factor", fmt::format("{}", count.drift_factor)},
                                         {"validity", std::to_string(count.validity_ms)},
                                         {"elapsed", std::to_string(count.elapsed_ms)}});
    }

    void count_release() { add(e_.outcome == Outcome::released ? "rl.release.quorum" : "rl.release.partial"); }

    // A write at the resource (rule 20.6).
    void write() {
        add("rl.write");
        keys_ = keys_before(trace_, i_);
        std::int64_t mine = 0;
        std::vector<std::pair<std::string, std::int64_t>> others;
        for (std::size_t s = 0; s < keys_.keys.size(); ++s) {
            const StoreKeys::Key& k = keys_.keys[s];
            if (keys_.down[s] || k.token.empty()) continue;
            if (k.token == e_.token) {
                ++mine;
                continue;
            }
            auto it = std::find_if(others.begin(), others.end(), [&](const auto& p) { return p.first == k.node; });
            if (it == others.end())
                others.emplace_back(k.node, 1);
            else
                ++it->second;
        }
        const Fields f{{"mine", std::to_string(mine)}};
        if (!e_.details.has(sim::Detail::stale)) return add("rl.write.held", f);
        add(mine == 0 ? "rl.write.stale_none" : "rl.write.stale", f);
        if (!e_.details.has(sim::Detail::unsafe_write)) return;
        const auto most = std::max_element(others.begin(), others.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
        add("rl.write.unsafe", {{"other", most == others.end() ? std::string("–") : most->first},
                                {"theirs", most == others.end() ? std::string("–") : std::to_string(most->second)}});
    }

    // A store that expires by a monotonic clock (rule 20.2.5) keeps its deadlines through the jump.
    void store_clock_jump() {
        const bool monotonic = ctx_.scenario != nullptr && ctx_.scenario->stores_clock == sim::StoresClock::monotonic;
        if (monotonic) return add(e_.clock_ms > 0 ? "rl.clock_jump.monotonic_forward" : "rl.clock_jump.monotonic_back");
        add(e_.clock_ms > 0 ? "rl.clock_jump.forward" : "rl.clock_jump.back");
    }

    void expire() {
        add("rl.expire");
        for (std::size_t k = i_; k-- > 0 && trace_.events[k].tick == e_.tick;) {
            const Event& p = trace_.events[k];
            if (p.op == EventOp::clock_jump && p.server == e_.server && p.clock_ms > 0)
                return add("rl.expire.jump", {{"jump_ms", std::to_string(p.clock_ms)}});
        }
    }

    void restart() {
        std::string persistence = "–";
        if (ctx_.scenario != nullptr && e_.server) {
            for (const sim::Fault& f : ctx_.scenario->faults)
                if (f.kind == sim::FaultKind::restart && f.store == *e_.server && f.end() == e_.tick)
                    persistence = sim::to_string(f.persistence);
        }
        const Fields f{{"persistence", persistence}, {"holder", key_here().node}};
        if (e_.outcome == Outcome::kept) return add("rl.restart.kept", f);
        if (e_.outcome == Outcome::lost) return add("rl.restart.lost", f);
        add("rl.restart.empty", f);
    }

    void skip() {
        const std::string max =
            ctx_.scenario ? std::to_string(ctx_.scenario->redlock.retry_count) : std::string("retryCount");
        add("rl.skip", {{"retry_count", max}});
    }

    const ExplainContext& ctx_;
    const Strings& s_;
    const sim::Trace& trace_;
    std::size_t i_;
    const Event& e_;
    Fields f_;
    mutable StoreKeys keys_;
    Explanation* out_ = nullptr;
};

}  // namespace

bool explain_redlock(const ExplainContext& ctx, const Strings& s, Explanation& out) {
    return RedlockBuilder(ctx, s).build(out);
}

}  // namespace leasescope::words
