// RedisStore on a real primary and real replicas (model.md §13.8, §17): link
// cuts by REPLICAOF NO ONE, restores and promotions by REPLICAOF, WAIT.
#include "leasescope/redis/redis_store.hpp"
#include "leasescope/redis/replication_admin.hpp"

#include <algorithm>

namespace leasescope::redis {

void RedisStore::set_primary_url(RedisUrl url) { urls_[0] = std::move(url); }

void RedisStore::add_replica(RedisConnection connection, RedisUrl url) {
    servers_.push_back(std::move(connection));
    urls_.push_back(std::move(url));
    known_.emplace_back(static_cast<std::size_t>(config_.capacity));
    cut_.push_back(false);
    was_primary_.push_back(false);
    cut_at_.push_back(0);
}

void RedisStore::note_gone(Tick now, std::string_view token) {
    for (auto& w : written_) {
        if (w.gone < 0 && w.record.token == token) w.gone = now;
    }
}

// After `server` took over from `old`: a slot it shows no record in may
// still have held one of the run's records that has expired since (Redis
// hides an expired key from every read). That record is the latest written
// on `old` before `held_before` and not gone by then; it stays known, so
// that the next expire() reports it as the model does (§17.3 rule 2). The
// records the new primary does not hold are lost with the failover.
void RedisStore::adopt_history(Tick now, std::int32_t old, std::int32_t server, Tick held_before, bool split) {
    Known& known = known_[static_cast<std::size_t>(server)];
    for (std::size_t slot = 0; slot < known.size(); ++slot) {
        if (known[slot]) continue;
        const Written* held = nullptr;
        for (const auto& w : written_) {
            if (w.server == old && static_cast<std::size_t>(w.record.slot) == slot && w.acquired < held_before &&
                (w.gone < 0 || w.gone >= held_before))
                held = &w;
        }
        if (held != nullptr) known[slot] = held->record;
    }
    for (auto& w : written_) {
        if (w.server != old) continue;
        const auto& k = known[static_cast<std::size_t>(w.record.slot)];
        if (k && k->token == w.record.token) {
            w.server = server;  // held by the new primary: not gone there, whatever the old one did
            w.gone = -1;
        } else if (!split) {
            w.server = -1;
            if (w.gone < 0) w.gone = now;
        }
    }
}

// Re-attached replicas must be online on the primary before the next
// command: WAIT and min-replicas-to-write count them at once (§17.2 rule 2).
StoreResult<Unit> RedisStore::link(std::int32_t replica) {
    const auto r = static_cast<std::size_t>(replica);
    auto attached = attach(servers_[r], urls_[static_cast<std::size_t>(primary_)]);
    if (!attached.ok()) return attached;
    auto linked = wait_linked(servers_[r], servers_[static_cast<std::size_t>(primary_)], urls_[r].port, link_wait_ms);
    if (!linked.ok()) return linked;
    return catch_up();  // online is not yet streaming (§13.8 rule 5)
}

// Replication is asynchronous even on loopback: before a link is cut the
// model's replica holds everything the primary applied (§17.1 rule 4), so
// WAIT until every online replica acknowledged it. The PUBLISH first (no
// key, no subscriber; a primary propagates it to its replicas) gives the
// WAIT an offset past any replica's resynchronisation snapshot: a replica
// that the primary lists as online but does not stream to yet cannot
// acknowledge it (§13.8 rule 5).
StoreResult<Unit> RedisStore::catch_up() {
    RedisConnection& p = servers_[static_cast<std::size_t>(primary_)];
    auto online = online_replicas(p);
    if (!online.ok()) return Err{online.error()};
    if (online.value() == 0) return Unit{};
    auto published = p.command({"PUBLISH", keys_.prefix() + "sync", "catch-up"});
    if (!published.ok()) return Err{published.error()};
    auto acked = wait_replicas(p, online.value(), link_wait_ms);
    if (!acked.ok()) return Err{acked.error()};
    if (acked.value() < online.value()) {
        return Err{StoreError{"the replicas of " + p.where() + " did not acknowledge its writes within " +
                                  std::to_string(link_wait_ms) + " ms",
                              false}};
    }
    return Unit{};
}

StoreResult<Unit> RedisStore::cut_link(Tick now, std::int32_t server) {
    LS_ASSERT(server >= 0);
    LS_ASSERT(server < server_count() && server != primary_ && server != old_primary_);
    auto caught_up = catch_up();
    if (!caught_up.ok()) return caught_up;
    const auto s = static_cast<std::size_t>(server);
    auto detached = detach(servers_[s]);
    if (!detached.ok()) return detached;
    cut_[s] = true;
    cut_at_[s] = now;
    // The primary stops counting it at once (§17.2 rule 3): wait until its ROLE says so.
    return wait_unlinked(servers_[static_cast<std::size_t>(primary_)], urls_[s].port, link_wait_ms);
}

StoreResult<Unit> RedisStore::restore_link(Tick /*now*/, std::int32_t server) {
    LS_ASSERT(server >= 0 && server < server_count() && server != primary_);
    auto linked = link(server);
    if (!linked.ok()) return linked;
    cut_[static_cast<std::size_t>(server)] = false;
    return Unit{};
}

// The new primary holds what its replica copy held (§17.3 rule 1): this
// run's records there are the ones to report when they expire, whatever
// the old primary's calls wrote after the cut.
StoreResult<Unit> RedisStore::reload_known(std::int32_t server) {
    Known& known = known_[static_cast<std::size_t>(server)];
    RedisConnection& c = servers_[static_cast<std::size_t>(server)];
    for (std::int32_t slot = 0; slot < config_.capacity; ++slot) {
        auto reply = c.command({"HMGET", keys_.slot(slot), "owner", "token", "fencing"});
        if (!reply.ok()) return Err{reply.error()};
        const redisReply* r = reply.value().get();
        auto& k = known[static_cast<std::size_t>(slot)];
        k.reset();
        if (r->type != REDIS_REPLY_ARRAY || r->elements != 3) {
            return Err{StoreError{"unexpected reply from HMGET on " + c.where() + ": " + describe_reply(r), false}};
        }
        const redisReply* const* e = r->element;
        if (e[0]->type != REDIS_REPLY_STRING || e[1]->type != REDIS_REPLY_STRING || e[2]->type != REDIS_REPLY_STRING)
            continue;  // no record in this slot
        k = ExpiredRecord{slot, std::string(e[0]->str, e[0]->len), Token(e[1]->str, e[1]->len),
                          std::stoll(std::string(e[2]->str, e[2]->len))};
    }
    return Unit{};
}

StoreResult<Fencing> RedisStore::promote(Tick now, std::int32_t server, const SplitBrain* split) {
    LS_ASSERT(server >= 0 && server < server_count() && server != primary_ && old_primary_ < 0);
    LS_ASSERT(routed_ < 0);
    const auto s = static_cast<std::size_t>(server);
    if (!cut_[s]) {
        // With lag 0 the replica has everything (§17.3): let it catch up first.
        auto caught_up = catch_up();
        if (!caught_up.ok()) return Err{caught_up.error()};
        auto detached = detach(servers_[s]);
        if (!detached.ok()) return Err{detached.error()};
    }
    // A linked replica holds every write before this tick; a cut one those before its cut.
    const Tick held_before = cut_[s] ? cut_at_[s] : now;
    cut_[s] = false;
    const std::int32_t old = primary_;
    primary_ = server;
    was_primary_[s] = true;
    if (split != nullptr) old_primary_ = old;
    // Every other server follows (§17.3 rule 3), except cut ones (they follow
    // when their cut ends) and an old primary kept alive by split brain.
    // All are pointed at it first and then waited for: their resynchronisations overlap.
    const auto follows = [&](std::int32_t t) {
        return t != server && t != old_primary_ && !cut_[static_cast<std::size_t>(t)];
    };
    for (std::int32_t t = 0; t < server_count(); ++t) {
        if (!follows(t)) continue;
        auto attached = attach(servers_[static_cast<std::size_t>(t)], urls_[s]);
        if (!attached.ok()) return Err{attached.error()};
    }
    for (std::int32_t t = 0; t < server_count(); ++t) {
        if (!follows(t)) continue;
        const auto u = static_cast<std::size_t>(t);
        auto linked = wait_linked(servers_[u], servers_[s], urls_[u].port, link_wait_ms);
        if (!linked.ok()) return Err{linked.error()};
    }
    auto streamed = catch_up();  // online is not yet streaming (§13.8 rule 5)
    if (!streamed.ok()) return Err{streamed.error()};
    if (split == nullptr) known_[static_cast<std::size_t>(old)].assign(known_[0].size(), std::nullopt);
    auto reloaded = reload_known(server);
    if (!reloaded.ok()) return Err{reloaded.error()};
    adopt_history(now, old, server, held_before, split != nullptr);
    auto counter = servers_[s].command({"GET", keys_.counter()});
    if (!counter.ok()) return Err{counter.error()};
    const redisReply* r = counter.value().get();
    if (r->type == REDIS_REPLY_NIL) return config_.fencing_start - 1;
    if (r->type != REDIS_REPLY_STRING) {
        return Err{StoreError{"unexpected reply from GET on " + servers_[s].where() + ": " + describe_reply(r), false}};
    }
    return static_cast<Fencing>(std::stoll(std::string(r->str, r->len)));
}

StoreResult<Unit> RedisStore::end_split(Tick /*now*/) {
    LS_ASSERT(old_primary_ >= 0 && routed_ < 0);
    const std::int32_t old = old_primary_;
    old_primary_ = -1;
    known_[static_cast<std::size_t>(old)].assign(known_[0].size(), std::nullopt);
    for (auto& w : written_) {
        if (w.server == old) w.server = -1;  // what it wrote is lost
    }
    return link(old);  // what it wrote is lost (§17.5 rule 3)
}

StoreResult<Unit> RedisStore::reset_topology() {
    routed_ = -1;
    old_primary_ = -1;
    StoreResult<Unit> first = Unit{};
    if (primary_ != 0) first = detach(servers_[0]);
    primary_ = 0;
    for (std::int32_t s = 1; s < server_count() && first.ok(); ++s) {
        if (servers_[static_cast<std::size_t>(s)].broken()) continue;
        auto linked = link(s);
        if (!linked.ok()) first = std::move(linked);
    }
    std::fill(cut_.begin(), cut_.end(), false);
    for (auto& k : known_) k.assign(k.size(), std::nullopt);
    return first;
}

void RedisStore::route(std::int32_t server) { routed_ = server >= 0 && server == old_primary_ ? server : -1; }

StoreResult<std::int32_t> RedisStore::synced_replicas(Tick /*now*/) {
    auto online = online_replicas(conn());
    if (!online.ok()) return Err{online.error()};
    if (online.value() == 0) return 0;
    return wait_replicas(conn(), online.value(), wait_probe_ms);
}

}  // namespace leasescope::redis
