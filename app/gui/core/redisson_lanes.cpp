// The lanes of a Redisson run, from its trace (redisson_lanes.hpp).
#include "redisson_lanes.hpp"

#include <algorithm>

#include "leasescope/words/redisson_facts.hpp"
#include "span_track.hpp"

namespace leasescope::gui {
namespace {

using sim::Event;
using sim::EventOp;
using words::RedissonClientState;
using words::RedissonFacts;

// A client's state as its lane's colour: stale while it holds by its own
// account but its field no longer holds the hash (rule 21.6.1).
SpanKind redisson_client_span(const words::RedissonClientFact& c, const RedissonFacts& f, Tick t,
                              std::int64_t tick_ms) {
    switch (c.state) {
        case RedissonClientState::locking:
        case RedissonClientState::sleeping: return SpanKind::waiting;
        case RedissonClientState::holding: {
            const bool holds = f.record.token == c.token && words::redisson_pttl_ms(f.record, t, tick_ms) > 0;
            return holds ? SpanKind::running : SpanKind::stale;
        }
        case RedissonClientState::crashed: return SpanKind::crashed;
        case RedissonClientState::idle:
        case RedissonClientState::finished: return SpanKind::idle;
    }
    return SpanKind::idle;
}

class RedissonLaneBuilder {
public:
    RedissonLaneBuilder(const sim::Trace& trace, const sim::Scenario* scenario)
        : trace_(trace), scenario_(scenario), fold_(trace.header, scenario) {
        const auto& h = trace.header;
        n_clients_ = static_cast<std::int32_t>(h.candidates.size());
        for (std::int32_t i = 0; i < n_clients_; ++i) add_lane(LaneKind::candidate, h.candidates[i], i);
        add_lane(LaneKind::key, h.lock, 0);
        add_lane(LaneKind::resource, "", 0);
        const auto n = static_cast<std::size_t>(n_clients_);
        client_open_.resize(n);
        pause_open_.resize(n);
        part_open_.resize(n);
        overlays_.resize(n);
    }

    LaneModel build() {
        const auto& events = trace_.events;
        std::size_t k = 0;
        while (k < events.size()) {
            const Tick t = events[k].tick;
            for (; k < events.size() && events[k].tick == t; ++k) event(k);
            state_at(t);
            // The hash's TTL may run out before the next event: the holder's lane turns stale then.
            const Tick next = k < events.size() ? events[k].tick : t + 1;
            const Tick gone = t + ttl_ticks_left(t);
            if (gone > t && gone < next) state_at(gone);
        }
        const Tick end = span_track::trace_end(trace_);
        close_all(end);
        return span_track::trace_lane_model(trace_, scenario_, std::move(lanes_), std::move(overlap_), end, n_clients_);
    }

private:
    void add_lane(LaneKind kind, const std::string& label, std::int32_t index) {
        lanes_.push_back(span_track::make_lane(kind, label, index));
    }
    Lane& client_lane(std::int32_t i) { return lanes_[static_cast<std::size_t>(i)]; }
    Lane& the_key_lane() { return lanes_[static_cast<std::size_t>(n_clients_)]; }
    Lane& resource_lane() { return lanes_.back(); }

    std::int32_t client_of(const std::string& name) const { return span_track::candidate_index(trace_.header, name); }

    // Whole ticks from t until the hash's TTL runs out (0: none held).
    Tick ttl_ticks_left(Tick t) const {
        const std::int64_t tick_ms = std::max<std::int64_t>(1, trace_.header.tick_ms);
        const std::int64_t ms = words::redisson_pttl_ms(fold_.facts().record, t, tick_ms);
        return ms <= 0 ? 0 : (ms + tick_ms - 1) / tick_ms;
    }

    void event(std::size_t k) {
        const Event& e = trace_.events[k];
        Marker m;
        m.tick = e.tick;
        m.kind = marker_kind_of(e, sim::ResourceMode::off);
        m.event = static_cast<std::int32_t>(k);
        fold_.apply(e);
        if (e.op == EventOp::overlap_begin) overlap_.push_back(span_track::span_of(SpanKind::overlap, e.tick));
        if (e.op == EventOp::overlap_end && !overlap_.empty()) overlap_.back().end = e.tick;
        if (e.op == EventOp::overlap_begin || e.op == EventOp::overlap_end) return;
        const std::int32_t client = client_of(e.node);
        if (e.op == EventOp::expire || (e.op == EventOp::clock_jump && client < 0)) {
            the_key_lane().markers.push_back(m);  // the store's own: the hash's expiry, its clock's step
            return;
        }
        if (e.op == EventOp::write) resource_lane().markers.push_back(m);
        if (client < 0) return;
        // The unlock that published (rule 21.5.1) comes just before its messages, in the same tick.
        if (e.op == EventOp::release && e.outcome != sim::Outcome::not_owner) unlocker_ = {e.tick, client};
        if (e.op == EventOp::message && unlocker_.first == e.tick) m.from_lane = unlocker_.second;
        client_lane(client).markers.push_back(m);
        if (e.op == EventOp::partition) partition_[client] = e.details.has(sim::Detail::drop_replies);
        if (e.op == EventOp::heal) partition_.erase(client);
    }

    // The state at the end of tick t: each client's span, pause and partition, the hash.
    void state_at(Tick t) {
        using span_track::span_of;
        using span_track::track;
        const RedissonFacts& f = fold_.facts();
        const std::int64_t tick_ms = std::max<std::int64_t>(1, trace_.header.tick_ms);
        for (std::int32_t i = 0; i < n_clients_; ++i) {
            const auto n = static_cast<std::size_t>(i);
            const auto& c = f.clients[n];
            Span want = span_of(redisson_client_span(c, f, t, tick_ms));
            want.run = c.run;
            if (c.state == RedissonClientState::sleeping) {  // rule 21.3.4: the TTL it was told, and when it runs out
                want.ttl = (c.told_ttl_ms + tick_ms - 1) / tick_ms;
                want.expires_at = c.wake_at;
            }
            auto& open = client_open_[n];
            if (open.open && open.span.expires_at != want.expires_at)
                span_track::close_at(open, t, client_lane(i).spans);
            track(open, want.kind != SpanKind::idle, want, t, client_lane(i).spans);
            track(pause_open_[n], c.paused, span_of(SpanKind::paused), t, overlays_[n]);
            const auto part = partition_.find(i);
            const SpanKind pk =
                part != partition_.end() && part->second ? SpanKind::partition_replies : SpanKind::partition_requests;
            track(part_open_[n], part != partition_.end(), span_of(pk), t, overlays_[n]);
        }
        Span key = span_of(SpanKind::record);
        key.owner = client_of(f.record.node);
        key.run = f.record.run;
        key.ttl = f.record.ttl_ms / tick_ms;
        key.expires_at = f.record.set_at + key.ttl;  // on true time; the store's clock jumps aside
        const bool held = !f.record.token.empty() && words::redisson_pttl_ms(f.record, t, tick_ms) > 0;
        // A renewal sets the TTL again on the same field: a new span from it, so the lane shows each renewal.
        if (held && key_open_.open && key_open_.span.expires_at != key.expires_at)
            span_track::close_at(key_open_, t, key_spans());
        track(key_open_, held, key, t, key_spans());
    }
    std::vector<Span>& key_spans() { return the_key_lane().spans; }

    void close_all(Tick end) {
        using span_track::close_at;
        for (std::int32_t i = 0; i < n_clients_; ++i) {
            const auto n = static_cast<std::size_t>(i);
            close_at(client_open_[n], end, client_lane(i).spans);
            close_at(pause_open_[n], end, overlays_[n]);
            close_at(part_open_[n], end, overlays_[n]);
            auto& overlays = client_lane(i).overlays;
            overlays = std::move(overlays_[n]);
            std::stable_sort(overlays.begin(), overlays.end(),
                             [](const Span& a, const Span& b) { return a.begin < b.begin; });
        }
        close_at(key_open_, end, key_spans());
        for (Span& o : overlap_)
            if (o.end <= o.begin) o.end = end;
    }

    const sim::Trace& trace_;
    const sim::Scenario* scenario_;
    words::RedissonFold fold_;
    std::int32_t n_clients_ = 0;
    std::vector<Lane> lanes_;
    std::vector<Span> overlap_;
    std::vector<span_track::Open> client_open_, pause_open_, part_open_;
    span_track::Open key_open_;
    std::vector<std::vector<Span>> overlays_;
    std::map<std::int32_t, bool> partition_;                 // partitioned clients: true under drop_replies
    std::pair<Tick, std::int32_t> unlocker_{tick_none, -1};  // the last unlock's tick and client
};

}  // namespace

LaneModel build_redisson_lanes(const sim::Trace& trace, const sim::Scenario* scenario) {
    return RedissonLaneBuilder(trace, scenario).build();
}

std::int32_t key_lane(const LaneModel& model) {
    for (std::size_t i = 0; i < model.lanes.size(); ++i)
        if (model.lanes[i].kind == LaneKind::key) return static_cast<std::int32_t>(i);
    return -1;
}

}  // namespace leasescope::gui
