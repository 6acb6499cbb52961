// The in-memory store model: slots, the fencing counter, the hold-off, expiry and failover (model_store.hpp,
// docs/model.md §4).
#include "leasescope/engine/model_store.hpp"

#include <algorithm>
#include <bit>
#include <functional>

namespace leasescope {
namespace {

// The fewest slots a store indexes by key (ModelStore::by_key_); a lock of
// one slot is scanned, since its one test costs less than keeping an index.
constexpr std::size_t indexed_slots_min = 2;

// The first slot from `from` on that satisfies `pred`, or -1, tested four
// slots a step: a scan that remains (validate's test for any valid slot, the
// vacancy search past an expiry, a store without an index by key) may pass
// over dozens of slots, and one branch on four tests costs less than four
// branches. The same slot as a plain scan.
template <class Hot, class Pred>
[[gnu::always_inline]] inline std::ptrdiff_t first_slot(const Hot& hot, std::size_t from, Pred pred) {
    const std::size_t n = hot.size();
    std::size_t i = from;
    // As ints: `|` on the four tests (not `||`) is what keeps them one branch.
    const auto hit = [&](std::size_t k) { return static_cast<int>(pred(hot[k])); };
    while (i + 4 <= n && (hit(i) | hit(i + 1) | hit(i + 2) | hit(i + 3)) == 0) i += 4;
    for (; i < n; ++i) {
        if (pred(hot[i])) return static_cast<std::ptrdiff_t>(i);
    }
    return -1;
}

// The first valid slot holding `token` (`key` its first eight bytes), by a
// scan: for a store without an index by key.
template <class Hot, class Slots>
std::ptrdiff_t scan_for_valid(const Hot& hot, const Slots& slots, std::uint64_t key, Tick now, std::string_view token) {
    const auto matches = [key, now](const auto& h) { return h.key == key && now < h.valid_until; };
    // On a key's match the whole token decides.
    for (std::ptrdiff_t i = first_slot(hot, 0, matches); i >= 0;
         i = first_slot(hot, static_cast<std::size_t>(i) + 1, matches)) {
        if (slots[static_cast<std::size_t>(i)].token == token) return i;
    }
    return -1;
}

// What an acquire asks of the slots of a store without an index by key, in
// one pass instead of two: the valid slot holding the token (`key` its first
// eight bytes; on a match the whole token decides), and the first vacant one
// (not valid at `now`). Past the first vacancy only a holder is looked for.
struct AcquireScan {
    std::ptrdiff_t held = -1;
    std::ptrdiff_t vacant = -1;
};
template <class Hot, class Slots>
AcquireScan scan_for_acquire(const Hot& hot, const Slots& slots, std::uint64_t key, Tick now, std::string_view token) {
    AcquireScan out;
    const auto next = [&hot](std::ptrdiff_t after, const auto& pred) {
        return first_slot(hot, static_cast<std::size_t>(after + 1), pred);
    };
    const auto stops = [key, now](const auto& h) { return h.key == key || !(now < h.valid_until); };
    for (std::ptrdiff_t i = next(-1, stops); i >= 0; i = next(i, stops)) {
        const auto at = static_cast<std::size_t>(i);
        if (!(now < hot[at].valid_until)) {
            out.vacant = i;
            break;
        }
        if (slots[at].token == token) {
            out.held = i;
            return out;
        }
    }
    if (out.vacant < 0) return out;
    const auto matches = [key, now](const auto& h) { return h.key == key && now < h.valid_until; };
    for (std::ptrdiff_t i = next(out.vacant, matches); i >= 0; i = next(i, matches)) {
        if (slots[static_cast<std::size_t>(i)].token == token) {
            out.held = i;
            return out;
        }
    }
    return out;
}

}  // namespace

ModelStore::ModelStore(LockConfig config)
    : config_(std::move(config)),
      slots_(static_cast<std::size_t>(config_.capacity)),
      hot_(static_cast<std::size_t>(config_.capacity)),
      counter_(config_.fencing_start - 1),
      true_clock_(config_.clock.true_rate()) {
    LS_ASSERT(config_.capacity >= 1);
    LS_ASSERT(config_.fencing_start >= 1);
    LS_ASSERT(config_.clock.tick_ms >= 1);
    LS_ASSERT(config_.clock.drift_ppm > -ppm_one && config_.clock.drift_ppm < ppm_one);
    LS_ASSERT(config_.replication.replicas >= 0);
    if (config_.replication.replicas > 0) servers_.resize(static_cast<std::size_t>(config_.replication.replicas) + 1);
    // At most a quarter of the index's entries are used: every probe ends at
    // an empty one, and the runs a lookup walks are short.
    if (slots_.size() >= indexed_slots_min) {
        std::size_t entries = 2;
        while (entries < 4 * slots_.size()) entries *= 2;
        key_shift_ = static_cast<unsigned>(64 - std::countr_zero(entries));
        by_key_.resize(entries);
        vacant_bits_.resize((slots_.size() + 63) / 64);
        index_clear();
    }
}

void ModelStore::index_clear() {
    if (by_key_.empty()) return;
    std::fill(by_key_.begin(), by_key_.end(), -1);
    std::fill(vacant_bits_.begin(), vacant_bits_.end(), ~std::uint64_t{0});
    const std::size_t tail = slots_.size() % 64;
    if (tail != 0) vacant_bits_.back() = (std::uint64_t{1} << tail) - 1;
}

void ModelStore::index_insert(std::int32_t slot) {
    const std::size_t mask = by_key_.size() - 1;
    std::size_t p = key_home(hot_[static_cast<std::size_t>(slot)].key);
    while (by_key_[p] >= 0) p = (p + 1) & mask;
    by_key_[p] = slot;
}

// Removes `slot`, filed under its key in hot_, and moves back each later
// entry of the run that may no longer be reached from its home.
void ModelStore::index_remove(std::int32_t slot) {
    const std::size_t mask = by_key_.size() - 1;
    std::size_t hole = key_home(hot_[static_cast<std::size_t>(slot)].key);
    while (by_key_[hole] != slot) hole = (hole + 1) & mask;
    for (std::size_t p = (hole + 1) & mask; by_key_[p] >= 0; p = (p + 1) & mask) {
        const std::size_t home = key_home(hot_[static_cast<std::size_t>(by_key_[p])].key);
        // The entry stays when its home lies cyclically in (hole, p].
        const bool stays = hole <= p ? (hole < home && home <= p) : (hole < home || home <= p);
        if (stays) continue;
        by_key_[hole] = by_key_[p];
        hole = p;
    }
    by_key_[hole] = -1;
}

// A record written or extended at `now` for `lease` ticks: at true time the
// tick rule of §4.2 (the deadline is then the moment of expires_at, and is
// only written down at the first jump); else on the store's clock (§3.3).
void ModelStore::set_expiry(SlotRecord& s, Tick now, Tick lease) {
    if (true_clock_) {
        s.expires_at = now + lease;
        return;
    }
    s.deadline_half_ms = deadline_after(now, lease);
    s.expires_at = tick_of(now, s.deadline_half_ms);
}

Tick ModelStore::remaining(Tick now, Tick until, std::int64_t deadline) const {
    if (true_clock_) return until - now;
    const std::int64_t left = deadline - store_time(now);
    LS_ASSERT(left > 0);
    const std::int64_t tick_half_ms = 2 * config_.clock.tick_ms;
    return (left + tick_half_ms - 1) / tick_half_ms;
}

SlotIndex ModelStore::find_valid(Tick now, std::string_view token) const {
    const std::uint64_t key = key_of(token);
    if (by_key_.empty()) return static_cast<SlotIndex>(scan_for_valid(hot_, slots_, key, now, token));
    const std::size_t mask = by_key_.size() - 1;
    // Every occupied slot with the token's key lies in the run of entries
    // from the key's home; the first valid one holding the whole token is
    // the one a scan in slot order would find.
    SlotIndex found = -1;
    for (std::size_t p = key_home(key); by_key_[p] >= 0; p = (p + 1) & mask) {
        const SlotIndex i = by_key_[p];
        const HotSlot& h = hot_[static_cast<std::size_t>(i)];
        if (h.key != key || !(now < h.valid_until) || (found >= 0 && found < i)) continue;
        if (slots_[static_cast<std::size_t>(i)].token == token) found = i;
    }
    return found;
}

std::ptrdiff_t ModelStore::first_vacant(Tick now) {
    // Before the earliest expiry every occupied slot is valid: the vacant
    // slots are the unoccupied ones, whose bits are set.
    if (!by_key_.empty() && now < min_expiry()) {
        for (std::size_t w = 0; w < vacant_bits_.size(); ++w) {
            if (vacant_bits_[w] != 0) return static_cast<std::ptrdiff_t>(w * 64 + std::countr_zero(vacant_bits_[w]));
        }
        return -1;
    }
    // Else a record has expired and awaits its expiry phase: its slot counts
    // as vacant too, so the slots are scanned.
    return first_slot(hot_, 0, [now](const HotSlot& h) { return !(now < h.valid_until); });
}

void ModelStore::sync(std::size_t i) {
    const SlotRecord& s = slots_[i];
    const std::uint64_t key = s.occupied ? key_of(s.token) : 0;
    if (by_key_.empty()) {
        hot_[i].valid_until = s.occupied ? s.expires_at : tick_none;
        hot_[i].key = key;
        return;
    }
    const auto slot = static_cast<std::int32_t>(i);
    const bool was_indexed = hot_[i].valid_until != tick_none;
    const bool keep = was_indexed && s.occupied && hot_[i].key == key;
    if (was_indexed && !keep) index_remove(slot);  // under its old key, so before hot_[i] changes
    hot_[i].valid_until = s.occupied ? s.expires_at : tick_none;
    hot_[i].key = key;
    if (s.occupied && !keep) index_insert(slot);
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if (s.occupied) {
        vacant_bits_[i / 64] &= ~bit;
    } else {
        vacant_bits_[i / 64] |= bit;
    }
}

void ModelStore::recompute_min() {
    min_expiry_ = std::numeric_limits<Tick>::max();
    for (const HotSlot& h : hot_) {
        if (h.valid_until != tick_none) min_expiry_ = std::min(min_expiry_, h.valid_until);
    }
    min_dirty_ = false;
}

// A slot's expiry moved from `previous` (tick_none: it was vacant) to
// `now_expires` (tick_none: it is vacant now).
void ModelStore::note_expiry(Tick previous, Tick now_expires) {
    if (min_dirty_) return;
    if (now_expires != tick_none && now_expires <= min_expiry_) {
        min_expiry_ = now_expires;
        return;
    }
    if (previous != tick_none && previous == min_expiry_) min_dirty_ = true;
}

std::int32_t ModelStore::occupied_count() const {
    return static_cast<std::int32_t>(
        std::count_if(slots_.begin(), slots_.end(), [](const SlotRecord& s) { return s.occupied; }));
}

AcquireReply ModelStore::do_acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) {
    LS_ASSERT(lease >= 1);
    AcquireReply reply;
    // The token is checked first: a holder asking again gets its own slot back,
    // unchanged, even inside a hold-off.
    const AcquireScan scan = by_key_.empty() ? scan_for_acquire(hot_, slots_, key_of(token), now, token)
                                             : AcquireScan{find_valid(now, token), first_vacant(now)};
    const auto held = static_cast<SlotIndex>(scan.held);
    if (held >= 0) {
        const SlotRecord& s = slots_[static_cast<std::size_t>(held)];
        reply.acquired = true;
        reply.fresh = false;
        reply.slot = held;
        reply.fencing = s.fencing;
        reply.ttl = remaining(now, s.expires_at, s.deadline_half_ms);
        return reply;
    }
    if (holdoff_until_ != tick_none && now < holdoff_until_) {
        reply.reason = BusyReason::hold_off;
        reply.remaining = remaining(now, holdoff_until_, holdoff_deadline_half_ms_);
        return reply;
    }
    // A record whose time has come but whose expiry phase has not run yet is
    // not valid: its slot counts as vacant.
    if (scan.vacant >= 0) {
        const auto i = static_cast<std::size_t>(scan.vacant);
        SlotRecord& s = slots_[i];
        const Tick previous = hot_[i].valid_until;
        s.occupied = true;
        s.owner.assign(owner);
        s.token.assign(token);
        s.fencing = ++counter_;
        s.acquired_at = now;
        set_expiry(s, now, lease);
        sync(i);
        note_expiry(previous, s.expires_at);
        reply.acquired = true;
        reply.fresh = true;
        reply.slot = static_cast<SlotIndex>(i);
        reply.fencing = s.fencing;
        reply.ttl = lease;
        return reply;
    }
    // Every slot is valid, so occupied: the earliest expiry is the nearest
    // (on the store's clock, the earliest deadline).
    Tick left = min_expiry() - now;
    if (!true_clock_) {
        const auto first = std::min_element(slots_.begin(), slots_.end(), [](const SlotRecord& a, const SlotRecord& b) {
            return a.deadline_half_ms < b.deadline_half_ms;
        });
        left = remaining(now, first->expires_at, first->deadline_half_ms);
    }
    LS_ASSERT(left > 0);
    reply.reason = BusyReason::held;
    reply.remaining = left;
    return reply;
}

ExtendReply ModelStore::do_extend(Tick now, std::string_view token, Tick lease) {
    LS_ASSERT(lease >= 1);
    ExtendReply reply;
    SlotIndex held = find_valid(now, token);
    if (held < 0) return reply;
    SlotRecord& s = slots_[static_cast<std::size_t>(held)];
    const Tick previous = s.expires_at;
    set_expiry(s, now, lease);
    hot_[static_cast<std::size_t>(held)].valid_until = s.expires_at;
    note_expiry(previous, s.expires_at);
    reply.renewed = true;
    reply.slot = held;
    reply.fencing = s.fencing;
    return reply;
}

ReleaseReply ModelStore::do_release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) {
    LS_ASSERT(keep_for >= 0);
    LS_ASSERT(hold_off >= 0);
    ReleaseReply reply;
    SlotIndex held = find_valid(now, token);
    if (held < 0) {
        reply.outcome = ReleaseOutcome::not_owner;
        return reply;
    }
    SlotRecord& s = slots_[static_cast<std::size_t>(held)];
    const Tick previous = s.expires_at;
    reply.slot = held;
    if (keep_for > 0) {
        if (true_clock_) {
            s.expires_at = std::min(s.expires_at, now + keep_for);
        } else {
            s.deadline_half_ms = std::min(s.deadline_half_ms, deadline_after(now, keep_for));
            s.expires_at = tick_of(now, s.deadline_half_ms);
        }
        reply.outcome = ReleaseOutcome::kept;
        reply.until = s.expires_at;
        note_expiry(previous, s.expires_at);
    } else {
        s = SlotRecord{};
        reply.outcome = ReleaseOutcome::released;
        note_expiry(previous, tick_none);
    }
    sync(static_cast<std::size_t>(held));
    if (hold_off > 0) {
        const bool none = holdoff_until_ == tick_none;
        if (true_clock_) {
            const Tick until = now + hold_off;
            holdoff_until_ = none ? until : std::max(holdoff_until_, until);
        } else {
            const std::int64_t deadline = deadline_after(now, hold_off);
            holdoff_deadline_half_ms_ = none ? deadline : std::max(holdoff_deadline_half_ms_, deadline);
            holdoff_until_ = tick_of(now, holdoff_deadline_half_ms_);
        }
    }
    return reply;
}

StatusReply ModelStore::do_status(Tick now) const {
    StatusReply reply;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        const SlotRecord& s = slots_[i];
        if (!s.valid_at(now)) continue;
        reply.slots.push_back(SlotStatus{static_cast<SlotIndex>(i), s.owner, s.fencing,
                                         remaining(now, s.expires_at, s.deadline_half_ms)});
    }
    if (holdoff_until_ != tick_none && now < holdoff_until_)
        reply.holdoff_remaining = remaining(now, holdoff_until_, holdoff_deadline_half_ms_);
    return reply;
}

Validity ModelStore::do_validate(Tick now, std::string_view token) const {
    if (find_valid(now, token) >= 0) return Validity::current;
    const bool any_valid = first_slot(hot_, 0, [now](const HotSlot& h) { return now < h.valid_until; }) >= 0;
    return any_valid ? Validity::stale : Validity::vacant;
}

void ModelStore::do_expire(Tick now, std::vector<ExpiredRecord>& out) {
    if (now >= min_expiry()) {
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            SlotRecord& s = slots_[i];
            if (!s.occupied || s.expires_at > now) continue;
            out.push_back(ExpiredRecord{static_cast<SlotIndex>(i), std::move(s.owner), std::move(s.token), s.fencing});
            s = SlotRecord{};
            sync(i);
        }
        recompute_min();
    }
    if (holdoff_until_ != tick_none && holdoff_until_ <= now) holdoff_until_ = tick_none;
}

void ModelStore::do_failover(FailoverLoss loss) {
    // Vanished slots emit no expire events: the replica never knew them.
    for (SlotRecord& s : slots_) s = SlotRecord{};
    for (HotSlot& h : hot_) h = HotSlot{};
    index_clear();
    min_expiry_ = std::numeric_limits<Tick>::max();
    min_dirty_ = false;
    holdoff_until_ = tick_none;
    holdoff_deadline_half_ms_ = 0;
    if (loss == FailoverLoss::all) counter_ = config_.fencing_start - 1;
}

// Every deadline stays where it was on the store's clock; the tick at which
// the clock reaches it moves (model.md §3.3 rules 4-5). A record the new time
// has passed is invalid at once and swept in this tick's expiry phase.
void ModelStore::do_clock_jump(Tick now, std::int64_t ms) {
    // The servers share the store's clock (§17.1 rule 3): every copy's
    // deadlines are converted and moved with the served one's.
    const std::int64_t tick_ms = config_.clock.tick_ms;
    const bool first = true_clock_;
    const auto jump_copy = [&](std::vector<SlotRecord>& slots, Tick& holdoff_until, std::int64_t& holdoff_deadline) {
        if (first) {
            // Until now the clock read true time, where every deadline is the
            // moment of its tick (§3.3 rule 4) and none was kept.
            for (SlotRecord& s : slots) {
                if (s.occupied) s.deadline_half_ms = clock_moment_half_ms(s.expires_at, tick_ms);
            }
            if (holdoff_until != tick_none) holdoff_deadline = clock_moment_half_ms(holdoff_until, tick_ms);
        }
        return [&slots, &holdoff_until, &holdoff_deadline, this, now] {
            for (SlotRecord& s : slots) {
                if (s.occupied) s.expires_at = tick_of(now, s.deadline_half_ms);
            }
            if (holdoff_until != tick_none) holdoff_until = tick_of(now, holdoff_deadline);
        };
    };
    std::vector<std::function<void()>> moves;
    moves.push_back(jump_copy(slots_, holdoff_until_, holdoff_deadline_half_ms_));
    for (ServerLink& l : servers_) {
        if (l.own) moves.push_back(jump_copy(l.own->slots, l.own->holdoff_until, l.own->holdoff_deadline_half_ms));
    }
    if (old_primary_ >= 0) {
        moves.push_back(jump_copy(old_copy_.slots, old_copy_.holdoff_until, old_copy_.holdoff_deadline_half_ms));
    }
    true_clock_ = false;
    jumps_half_ms_ += 2 * ms;
    for (const auto& move : moves) move();
    for (std::size_t i = 0; i < slots_.size(); ++i) sync(i);
    recompute_min();
}

// ---- Servers (model.md §17) ----

ModelStore::ServerCopy ModelStore::capture() const {
    return ServerCopy{slots_, counter_, holdoff_until_, holdoff_deadline_half_ms_};
}

void ModelStore::install(ServerCopy copy) {
    slots_ = std::move(copy.slots);
    counter_ = copy.counter;
    holdoff_until_ = copy.holdoff_until;
    holdoff_deadline_half_ms_ = copy.holdoff_deadline_half_ms;
    for (std::size_t i = 0; i < slots_.size(); ++i) sync(i);
    recompute_min();
}

void ModelStore::swap_with_old_primary() {
    ServerCopy served = ServerCopy{std::move(slots_), counter_, holdoff_until_, holdoff_deadline_half_ms_};
    install(std::move(old_copy_));
    old_copy_ = std::move(served);
    routed_old_ = !routed_old_;
}

ModelStore::ServerCopy ModelStore::server_copy(std::int32_t server) const {
    LS_ASSERT(!routed_old_);
    if (server == old_primary_) return old_copy_;
    const ServerLink& l = server_link(server);
    return l.own ? *l.own : capture();
}

std::int32_t ModelStore::good_replicas(Tick now) const {
    if (routed_old_) {
        const Tick lag = config_.replication.min_replicas_max_lag > 0
                             ? config_.replication.min_replicas_max_lag
                             : default_min_replicas_max_lag(config_.clock.tick_ms);
        return now < split_at_ + lag ? split_good_ : 0;
    }
    return linked_replicas();
}

std::int32_t ModelStore::linked_replicas() const {
    std::int32_t linked = 0;
    for (std::int32_t s = 0; s < server_count(); ++s) {
        if (s != primary_ && s != old_primary_ && servers_[static_cast<std::size_t>(s)].linked) ++linked;
    }
    return linked;
}

Err<StoreError> ModelStore::refusal() const {
    return Err{StoreError{"NOREPLICAS Not enough good replicas to write.", false, true}};
}

StoreResult<Unit> ModelStore::cut_link(Tick /*now*/, std::int32_t server) {
    LS_ASSERT(server >= 0 && server < server_count() && server != primary_ && server != old_primary_);
    ServerLink& l = servers_[static_cast<std::size_t>(server)];
    LS_ASSERT(l.linked && !routed_old_);
    l.linked = false;
    l.own = capture();  // phase 1: the primary's state at the end of the tick before (§17.2 rule 1)
    return Unit{};
}

StoreResult<Unit> ModelStore::restore_link(Tick /*now*/, std::int32_t server) {
    LS_ASSERT(server >= 0 && server < server_count() && server != primary_);
    ServerLink& l = servers_[static_cast<std::size_t>(server)];
    l.linked = true;  // resynchronised (§17.2 rule 2)
    l.own.reset();
    return Unit{};
}

StoreResult<Fencing> ModelStore::promote(Tick now, std::int32_t server, const SplitBrain* split) {
    LS_ASSERT(server >= 0 && server < server_count() && server != primary_ && !routed_old_);
    LS_ASSERT(old_primary_ < 0);
    const std::int32_t old = primary_;
    if (split != nullptr) {
        // The old primary lives on for some nodes; the replicas linked to it
        // now fall silent and still count for a while (§17.5 rule 2).
        split_good_ = linked_replicas();
        old_copy_ = capture();
        old_primary_ = old;
        split_at_ = now;
    }
    ServerLink& promoted = servers_[static_cast<std::size_t>(server)];
    // A linked replica holds the primary's copy, which the served fields are
    // already; a cut one holds its own (§17.3 rule 1).
    if (promoted.own) install(std::move(*promoted.own));
    promoted = ServerLink{};
    primary_ = server;
    // Every other server follows the new primary (§17.3 rule 3): linked ones
    // resynchronise, cut ones stay cut; the old primary joins as a replica.
    if (split == nullptr) servers_[static_cast<std::size_t>(old)] = ServerLink{};
    return counter_;
}

StoreResult<Unit> ModelStore::end_split(Tick /*now*/) {
    LS_ASSERT(old_primary_ >= 0 && !routed_old_);
    // The old primary becomes a replica of the new one: what it wrote is lost (§17.5 rule 3).
    servers_[static_cast<std::size_t>(old_primary_)] = ServerLink{};
    old_copy_ = ServerCopy{};
    old_primary_ = -1;
    return Unit{};
}

void ModelStore::route(std::int32_t server) {
    const bool to_old = server >= 0 && server == old_primary_;
    if (to_old != routed_old_) swap_with_old_primary();
}

StoreResult<std::int32_t> ModelStore::synced_replicas(Tick /*now*/) {
    // An old primary in split brain has lost its replicas (§17.5 rule 2).
    if (routed_old_) return 0;
    return linked_replicas();
}

// A primary short of good replicas refuses a script at its first write call,
// before it changed anything (model.md §17.4 rule 1): an acquire that would
// take a slot, an extend or a release of a token that holds one. A call that
// would write nothing answers as usual.
StoreResult<AcquireReply> ModelStore::acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) {
    if (writes_refused(now) && find_valid(now, token) < 0 && !(holdoff_until_ != tick_none && now < holdoff_until_) &&
        std::any_of(hot_.begin(), hot_.end(), [now](const HotSlot& h) { return !(now < h.valid_until); }))
        return refusal();
    return do_acquire(now, owner, token, lease);
}
StoreResult<ExtendReply> ModelStore::extend(Tick now, std::string_view token, Tick lease) {
    if (writes_refused(now) && find_valid(now, token) >= 0) return refusal();
    return do_extend(now, token, lease);
}
StoreResult<ReleaseReply> ModelStore::release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) {
    if (writes_refused(now) && find_valid(now, token) >= 0) return refusal();
    return do_release(now, token, keep_for, hold_off);
}
StoreResult<StatusReply> ModelStore::status(Tick now) { return do_status(now); }
StoreResult<Validity> ModelStore::validate(Tick now, std::string_view token) { return do_validate(now, token); }
StoreResult<std::vector<ExpiredRecord>> ModelStore::expire(Tick now) {
    std::vector<ExpiredRecord> out;
    do_expire(now, out);
    return out;
}
StoreResult<Unit> ModelStore::failover(Tick /*now*/, FailoverLoss loss) {
    do_failover(loss);
    return Unit{};
}
StoreResult<Unit> ModelStore::clock_jump(Tick now, std::int64_t ms) {
    do_clock_jump(now, ms);
    return Unit{};
}

}  // namespace leasescope

namespace leasescope {

void ModelStore::hash_copy(const ServerCopy& c, StateHasher& h) {
    h.add(c.slots.size());
    for (const SlotRecord& s : c.slots) s.hash_into(h);
    h.add(c.counter);
    h.add(c.holdoff_until);
    h.add(c.holdoff_deadline_half_ms);
}

void ModelStore::hash_into(StateHasher& h) const {
#if LEASESCOPE_HASH_SIZES_PINNED
    static_assert(sizeof(ModelStore) == 352, "a member was added to ModelStore: feed it here, then pin the size");
    static_assert(sizeof(SlotRecord) == 104, "a member was added to SlotRecord: feed it, then pin the size");
    static_assert(sizeof(ServerCopy) == 48, "a member was added to ServerCopy: feed it, then pin the size");
    static_assert(sizeof(ServerLink) == 64, "a member was added to ServerLink: feed it here, then pin the size");
    static_assert(sizeof(HotSlot) == 16, "a member was added to HotSlot: feed it here, then pin the size");
#endif
    h.add(servers_.size());
    for (const ServerLink& link : servers_) {
        h.add(link.linked);
        h.add(link.own.has_value());
        if (link.own) hash_copy(*link.own, h);
    }
    h.add(primary_);
    h.add(old_primary_);
    hash_copy(old_copy_, h);
    h.add(routed_old_);
    h.add(split_at_);
    h.add(split_good_);
    h.add(slots_.size());
    for (const SlotRecord& s : slots_) s.hash_into(h);
    // The hot slots and the earliest expiry are caches of the slots; they
    // are fed too, so that a cache that drifted could never merge.
    h.add(hot_.size());
    for (const HotSlot& s : hot_) {
        h.add(s.valid_until);
        h.add(s.key);
    }
    // The index by key and the vacant bits (by_key_, key_shift_,
    // vacant_bits_) are left out: they are kept from hot_, fed above, and
    // the index's layout depends on the order its entries came in.
    h.add(min_expiry_);
    h.add(min_dirty_);
    h.add(counter_);
    h.add(holdoff_until_);
    h.add(holdoff_deadline_half_ms_);
    h.add(jumps_half_ms_);
    h.add(true_clock_);
}

}  // namespace leasescope
