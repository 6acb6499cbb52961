// The lanes of a Redlock run, from its trace (redlock_lanes.hpp).
#include "redlock_lanes.hpp"

#include <algorithm>

#include "leasescope/words/redlock_facts.hpp"
#include "span_track.hpp"

namespace leasescope::gui {
namespace {

using sim::Event;
using sim::EventOp;
using words::RedlockClientState;
using words::RedlockFacts;

using span_track::close_at;
using span_track::Open;
using span_track::span_of;
using span_track::track;

SpanKind client_span(const words::RedlockClientFact& c, const RedlockFacts& f, std::int32_t quorum) {
    switch (c.state) {
        case RedlockClientState::locking:
        case RedlockClientState::unlocking:
        case RedlockClientState::retrying: return SpanKind::waiting;
        case RedlockClientState::working:
        case RedlockClientState::releasing:
            // Rule 20.6: its token holds fewer than a quorum of stores: it works on a lock it lost.
            return words::redlock_holders(f, c.token) >= quorum ? SpanKind::running : SpanKind::stale;
        case RedlockClientState::crashed: return SpanKind::crashed;
        case RedlockClientState::idle:
        case RedlockClientState::finished: return SpanKind::idle;
    }
    return SpanKind::idle;
}

// A store's answer to an unlock; `before`: the store's key before the answer.
MarkerKind store_answer_kind(const std::vector<Event>& events, std::size_t i, const words::RedlockStoreFact& before) {
    const MarkerKind k = redlock_marker_kind(events, i);
    if (k == MarkerKind::release_left_alone && before.token.empty()) return MarkerKind::release_no_key;
    return k;
}

class Builder {
public:
    Builder(const sim::Trace& trace, const sim::Scenario* scenario)
        : trace_(trace), scenario_(scenario), fold_(trace.header) {
        const auto& h = trace.header;
        n_clients_ = static_cast<std::int32_t>(h.candidates.size());
        n_stores_ = static_cast<std::int32_t>(h.stores.size());
        quorum_ = n_stores_ / 2 + 1;
        for (std::int32_t i = 0; i < n_clients_; ++i) add_lane(LaneKind::candidate, h.candidates[i], i);
        for (std::int32_t s = 0; s < n_stores_; ++s) add_lane(LaneKind::store, h.stores[s], s);
        add_lane(LaneKind::resource, "", 0);
        client_open_.resize(static_cast<std::size_t>(n_clients_));
        pause_open_.resize(static_cast<std::size_t>(n_clients_));
        key_open_.resize(static_cast<std::size_t>(n_stores_));
        down_open_.resize(static_cast<std::size_t>(n_stores_));
    }

    LaneModel build() {
        const auto& events = trace_.events;
        std::size_t k = 0;
        while (k < events.size()) {
            const Tick t = events[k].tick;
            for (; k < events.size() && events[k].tick == t; ++k) event(k);
            state_at(t);
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
    Lane& store_lane_at(std::int32_t s) { return lanes_[static_cast<std::size_t>(n_clients_ + s)]; }
    Lane& resource_lane() { return lanes_.back(); }

    std::int32_t client_of(const std::string& name) const { return span_track::candidate_index(trace_.header, name); }

    void event(std::size_t k) {
        const Event& e = trace_.events[k];
        const bool at_store = e.server && *e.server >= 0 && *e.server < n_stores_;
        Marker m;
        m.tick = e.tick;
        m.kind = at_store
                     ? store_answer_kind(trace_.events, k, fold_.facts().stores[static_cast<std::size_t>(*e.server)])
                     : redlock_marker_kind(trace_.events, k);
        fold_.apply(e);
        m.event = static_cast<std::int32_t>(k);
        const std::int32_t client = client_of(e.node);
        if (e.op == EventOp::overlap_begin) overlap_.push_back(span_of(SpanKind::overlap, e.tick));
        if (e.op == EventOp::overlap_end && !overlap_.empty()) overlap_.back().end = e.tick;
        if (e.op == EventOp::overlap_begin || e.op == EventOp::overlap_end) return;
        if (at_store) {
            // A store's own event (§20.8): its answer to a client, expiry, crash or clock jump. Its
            // restart is the end of its hatched down time, with no mark of its own.
            if (e.op != EventOp::restart) store_lane_at(*e.server).markers.push_back(m);
            return;
        }
        if (e.op == EventOp::quorum) quorum(k, m);
        if (e.op == EventOp::write) resource_lane().markers.push_back(m);
        if (client >= 0) client_lane(client).markers.push_back(m);
    }

    // A count: its mark carries votes of stores and (a lock) the validity;
    // a won lock's validity window is an overlay on the client's lane.
    void quorum(std::size_t k, Marker& m) {
        const Event& e = trace_.events[k];
        m.votes = static_cast<std::int32_t>(e.overlap_count);
        m.stores = n_stores_;
        const auto count = words::redlock_count(scenario_, trace_, k);
        if (!count) return;
        m.validity_ms = count->validity_ms;
        m.drift_assumed = count->drift_factor_assumed;
        const std::int32_t client = client_of(e.node);
        if (client < 0 || e.outcome != sim::Outcome::acquired || count->valid_until <= count->start) return;
        Span w = span_of(SpanKind::validity, count->start);
        w.end = count->valid_until;
        w.run = e.run;
        w.owner = client;
        w.votes = m.votes;
        w.stores = m.stores;
        w.validity_ms = count->validity_ms;
        w.drift_assumed = count->drift_factor_assumed;
        auto& overlays = client_lane(client).overlays;
        if (!overlays.empty() && overlays.back().kind == SpanKind::validity)
            w.begin = std::max(w.begin, overlays.back().end);
        if (w.end > w.begin) overlays.push_back(w);
    }

    // The state at the end of tick t: each client's span, pauses, each store's key and down time.
    void state_at(Tick t) {
        const RedlockFacts& f = fold_.facts();
        for (std::int32_t i = 0; i < n_clients_; ++i) {
            const auto& c = f.clients[static_cast<std::size_t>(i)];
            Span want = span_of(client_span(c, f, quorum_));
            want.run = c.run;
            auto& lane = client_lane(i);
            track(client_open_[static_cast<std::size_t>(i)], want.kind != SpanKind::idle, want, t, lane.spans);
            track(pause_open_[static_cast<std::size_t>(i)], c.paused, span_of(SpanKind::paused), t, paused_[i]);
        }
        for (std::int32_t s = 0; s < n_stores_; ++s) {
            const auto& st = f.stores[static_cast<std::size_t>(s)];
            Span key = span_of(SpanKind::record);
            key.owner = client_of(st.node);
            key.run = st.run;
            key.ttl = st.ttl_ms / std::max<std::int64_t>(1, trace_.header.tick_ms);
            auto& lane = store_lane_at(s);
            track(key_open_[static_cast<std::size_t>(s)], !st.token.empty(), key, t, lane.spans);
            track(down_open_[static_cast<std::size_t>(s)], st.down, span_of(SpanKind::crashed), t, lane.overlays);
        }
    }

    void close_all(Tick end) {
        for (std::int32_t i = 0; i < n_clients_; ++i) {
            close_at(client_open_[static_cast<std::size_t>(i)], end, client_lane(i).spans);
            close_at(pause_open_[static_cast<std::size_t>(i)], end, paused_[i]);
            // Pauses and validity windows are overlays of different kinds: both sorted by their begin.
            auto& overlays = client_lane(i).overlays;
            overlays.insert(overlays.end(), paused_[i].begin(), paused_[i].end());
            std::stable_sort(overlays.begin(), overlays.end(),
                             [](const Span& a, const Span& b) { return a.begin < b.begin; });
        }
        for (std::int32_t s = 0; s < n_stores_; ++s) {
            close_at(key_open_[static_cast<std::size_t>(s)], end, store_lane_at(s).spans);
            close_at(down_open_[static_cast<std::size_t>(s)], end, store_lane_at(s).overlays);
        }
        for (Span& o : overlap_)
            if (o.end <= o.begin) o.end = end;
    }

    const sim::Trace& trace_;
    const sim::Scenario* scenario_;
    words::RedlockFold fold_;
    std::int32_t n_clients_ = 0, n_stores_ = 0, quorum_ = 1;
    std::vector<Lane> lanes_;
    std::vector<Span> overlap_;
    std::vector<Open> client_open_, pause_open_, key_open_, down_open_;
    std::map<std::int32_t, std::vector<Span>> paused_;
};

}  // namespace

LaneModel build_redlock_lanes(const sim::Trace& trace, const sim::Scenario* scenario) {
    return Builder(trace, scenario).build();
}

MarkerKind redlock_marker_kind(const std::vector<sim::Event>& events, std::size_t k) {
    const Event& e = events[k];
    if (e.op == EventOp::release && e.server && e.outcome == sim::Outcome::not_owner)
        return MarkerKind::release_left_alone;
    const MarkerKind kind = marker_kind_of(e, sim::ResourceMode::off);
    if (e.op != EventOp::quorum || kind != MarkerKind::release_error) return kind;
    // The stores' answers to this unlock: the node's release events just before its count.
    for (std::size_t i = k; i-- > 0;) {
        const Event& answer = events[i];
        if (answer.node != e.node) continue;
        if (answer.op != EventOp::release || !answer.server) break;
        if (answer.outcome == sim::Outcome::error) return MarkerKind::release_error;
    }
    return MarkerKind::release_rejected;
}

std::int32_t store_lane(const LaneModel& model, std::int32_t store) {
    for (std::size_t i = 0; i < model.lanes.size(); ++i)
        if (model.lanes[i].kind == LaneKind::store && model.lanes[i].index == store)
            return static_cast<std::int32_t>(i);
    return -1;
}

}  // namespace leasescope::gui
