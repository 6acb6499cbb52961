// The elector's rules for one candidate's runs: waiting, running, releasing, the watchdog (elector.hpp, docs/model.md
// §5).
#include "leasescope/engine/elector.hpp"

namespace leasescope {

const char* to_string(RunResult r) {
    switch (r) {
        case RunResult::elected: return "elected";
        case RunResult::skipped: return "skipped";
        case RunResult::action_failed: return "action_failed";
        case RunResult::acquire_failed: return "acquire_failed";
        case RunResult::crashed: return "crashed";
        case RunResult::unfinished: return "unfinished";
    }
    return "?";
}

const char* to_string(ElectorKind k) {
    switch (k) {
        case ElectorKind::lock: return "lock";
        case ElectorKind::group: return "group";
    }
    return "?";
}

const char* to_string(WriteCheck c) {
    switch (c) {
        case WriteCheck::none: return "none";
        case WriteCheck::validate: return "validate";
    }
    return "?";
}

Elector::Elector(std::string owner, ElectorOptions options) : options_(std::move(options)), owner_(std::move(owner)) {
    LS_ASSERT(options_.lease >= 1);
    LS_ASSERT(options_.min_lease >= 0);
    LS_ASSERT(options_.min_lease <= options_.lease);
    LS_ASSERT(options_.wait >= 0);
    LS_ASSERT(options_.retry_every >= 1);
    LS_ASSERT(options_.action >= 1);
    LS_ASSERT(options_.extend_every >= 0);
    LS_ASSERT(options_.tick_ms >= 1);
    LS_ASSERT(options_.drift_ppm > -ppm_one && options_.drift_ppm < ppm_one);
    LS_ASSERT(options_.runs >= 1);
    LS_ASSERT(options_.runs == 1 || options_.every >= 1);
}

Tick Elector::next_run_at() const {
    if (state_ != ElectorState::idle || awaiting_ != Awaiting::none) return tick_none;
    const auto k = static_cast<Tick>(run_count());
    if (k >= options_.runs) return tick_none;
    Tick at = options_.start + k * options_.every;
    if (k > 0) at = std::max(at, latest_.ended_at + 1);
    return at;
}

bool Elector::run_due(Tick now, bool active) const {
    if (!active) return false;
    const Tick at = next_run_at();
    return at != tick_none && now >= at;
}

void Elector::begin_run(Tick now, Token&& token) {
    LS_ASSERT(state_ == ElectorState::idle);
    // A fresh record, written in place: the token is moved once (into the
    // parameter, a fresh record and then latest_ were three moves).
#if LEASESCOPE_HASH_SIZES_PINNED
    static_assert(sizeof(RunRecord) == 80, "a member was added to RunRecord: reset it here too");
#endif
    latest_.run = run_count();
    latest_.result = RunResult::unfinished;
    latest_.fencing.reset();
    latest_.token = std::move(token);
    latest_.started_at = now;
    latest_.acquired_at = tick_none;
    latest_.ended_at = tick_none;
    if (outcomes_.size() == outcomes_.capacity()) {
        // Grow by doubling, but never past the runs still to come: a
        // candidate with many runs would otherwise keep up to half its
        // outcomes' room unused (a quarter of a 100,000-candidate run's memory).
        const auto remaining = static_cast<std::size_t>(options_.runs - run_count());
        outcomes_.reserve(outcomes_.size() + std::min(std::max<std::size_t>(outcomes_.size(), 4), remaining));
    }
    outcomes_.emplace_back();
    state_ = ElectorState::waiting;
    next_attempt_ = now;
    attempted_ = false;
    deadline_ = clock().after(now, options_.wait);
}

bool Elector::attempt_due(Tick now, bool active) const {
    return active && state_ == ElectorState::waiting && now >= next_attempt_ && awaiting_ == Awaiting::none;
}

std::optional<RunResult> Elector::begin_attempt(Tick now) {
    LS_ASSERT(state_ == ElectorState::waiting);
    LS_ASSERT(awaiting_ == Awaiting::none);
    // The single lock tests the time left after its sleep: once the deadline
    // has come it gives up without another attempt (model.md §5.2). The first
    // check of a run always attempts (a do-while loop).
    if (options_.elector == ElectorKind::lock && attempted_ && now >= deadline_) {
        end_run(now, RunResult::skipped);
        return RunResult::skipped;
    }
    attempted_ = true;
    awaiting_ = Awaiting::acquire;
    return std::nullopt;
}

template <class S>
AttemptEffect Elector::attempt_on(Tick now, S& store) {
    if (std::optional<RunResult> gave_up = begin_attempt(now)) {
        AttemptEffect effect;
        effect.ended = gave_up;
        return effect;
    }
    return learn_acquire(now, store.acquire(now, owner_, latest_.token, options_.lease));
}

// The answer of an acquire, learned at `now` (model.md §5.2, §16.4): the
// lease the node believes in counts from here.
AttemptEffect Elector::learn_acquire(Tick now, StoreResult<AcquireReply>&& store_reply) {
    LS_ASSERT(state_ == ElectorState::waiting);
    LS_ASSERT(awaiting_ == Awaiting::acquire);
    awaiting_ = Awaiting::none;
    RunRecord& run = latest_;
    AttemptEffect effect;
    effect.reply.emplace(std::move(store_reply));
    if (!effect.reply->ok()) {
        // A backend failure is never relabelled as contention.
        end_run(now, RunResult::acquire_failed);
        effect.ended = RunResult::acquire_failed;
        return effect;
    }
    const AcquireReply& reply = effect.reply->value();
    if (reply.acquired) {
        state_ = ElectorState::running;
        run.fencing = reply.fencing;
        outcomes_.back().fencing = reply.fencing;
        outcomes_.back().has_fencing = true;
        run.acquired_at = now;
        progress_ = 0;
        next_write_ = 0;
        next_extend_half_ms_ = watchdog_due_after(tick_middle_half_ms(now, options_.tick_ms));
        watchdog_stopped_ = false;
        extend_awaited_ = false;  // an extend of an earlier run may still be on the wire
        return effect;
    }
    // Busy at or after the deadline: the group tests the time left before
    // sleeping and gives up here; so does the lock's first attempt of wait 0.
    if (now >= deadline_) {
        end_run(now, RunResult::skipped);
        effect.ended = RunResult::skipped;
        return effect;
    }
    next_attempt_ = std::min(clock().after(now, options_.retry_every), deadline_);
    return effect;
}

WorkEffect Elector::advance(Tick /*now*/) {
    LS_ASSERT(state_ == ElectorState::running);
    LS_ASSERT(!check_awaited_);  // the action waits for its check (model.md §5.8)
    WorkEffect effect;
    ++progress_;
    if (next_write_ < options_.writes.size() && options_.writes[next_write_] == progress_) {
        effect.write = true;
        ++next_write_;
    }
    if (options_.fail_at > 0 && progress_ == options_.fail_at) {
        effect.ended = RunResult::action_failed;
    } else if (progress_ == options_.action) {
        effect.ended = RunResult::elected;
    }
    if (effect.write && options_.check == WriteCheck::validate) {
        // The check comes first; the write and the end wait for its answer.
        check_awaited_ = true;
        check_then_ended_ = effect.ended;
        effect = WorkEffect{};
        effect.check = true;
    }
    return effect;
}

WorkEffect Elector::learn_check(Tick now, bool current) {
    LS_ASSERT(check_awaited_);
    LS_ASSERT(state_ == ElectorState::running);
    check_awaited_ = false;
    check_learned_at_ = now;
    WorkEffect effect;
    if (current) {
        effect.write = true;
        effect.ended = check_then_ended_;
    } else {
        // The client's check throws inside the action (model.md §5.8).
        effect.ended = RunResult::action_failed;
    }
    check_then_ended_.reset();
    return effect;
}

Tick Elector::quiet_advances() const {
    LS_ASSERT(state_ == ElectorState::running);
    // advance() has an effect when the progress it reaches is the next
    // write's offset, fail_at or the action's length; never past the last.
    Tick next_effect = options_.action;
    if (next_write_ < options_.writes.size()) next_effect = std::min(next_effect, options_.writes[next_write_]);
    if (options_.fail_at > progress_) next_effect = std::min(next_effect, options_.fail_at);
    LS_ASSERT(next_effect > progress_);
    return next_effect - progress_ - 1;
}

void Elector::advance_quietly(Tick count) {
    LS_ASSERT(count >= 0 && count <= quiet_advances());
    progress_ += count;
}

Tick Elector::keep_for(Tick now) const {
    LS_ASSERT(!outcomes_.empty());
    return std::max<Tick>(0, options_.min_lease - (now - latest_.acquired_at));
}

template <class S>
StoreResult<ReleaseReply> Elector::end_action_on(Tick now, RunResult result, S& store) {
    LS_ASSERT(state_ == ElectorState::running);
    LS_ASSERT(result == RunResult::elected || result == RunResult::action_failed);
    const Tick keep = keep_for(now);
    // The result stands whatever the release answers: the library only logs it.
    auto reply = store.release(now, latest_.token, keep, options_.hold_off);
    end_run(now, result);
    return reply;
}

Tick Elector::begin_release(Tick now, RunResult result) {
    LS_ASSERT(state_ == ElectorState::running);
    LS_ASSERT(result == RunResult::elected || result == RunResult::action_failed);
    const Tick keep = keep_for(now);
    end_run(now, result);
    awaiting_ = Awaiting::release;
    return keep;
}

// runIfLeader's finally is blocking: the run ends when the release returns
// (model.md §16.4), and the next run is due after that.
void Elector::learn_release(Tick now) {
    LS_ASSERT(awaiting_ == Awaiting::release);
    awaiting_ = Awaiting::none;
    latest_.ended_at = now;
}

std::int64_t Elector::watchdog_period_ms() const {
    if (options_.extend_every > 0) return options_.extend_every * options_.tick_ms;
    return library_watchdog_period_ms(options_.lease, options_.tick_ms);
}

// A fixed delay measured on the node's monotonic clock (model.md §3.3 rule 7).
std::int64_t Elector::watchdog_due_after(std::int64_t moment) const {
    const std::int64_t period_half_ms = 2 * watchdog_period_ms();
    const DriftClock c = clock();
    if (c.true_rate()) return moment + period_half_ms;
    return c.moment_reaching(c.reading(moment) + period_half_ms);
}

Tick Elector::next_extend() const { return next_extend_half_ms_ / (2 * options_.tick_ms); }

bool Elector::extend_due(Tick now, bool active) const {
    return active && watchdog_running() && next_extend() <= now && !extend_awaited_;
}

// A run due in this tick happens at its own moment; one whose tick has
// passed (the node was paused, or it fell inside the acquisition tick)
// happens now, at this tick's middle, and the missed runs collapse into it.
std::int64_t Elector::extend_moment(Tick now) const {
    LS_ASSERT(watchdog_running());
    LS_ASSERT(next_extend() <= now);
    return next_extend() == now ? next_extend_half_ms_ : tick_middle_half_ms(now, options_.tick_ms);
}

// Fixed delay: the next run is due a period after this one completed.
void Elector::extend_answered(std::int64_t moment, const StoreResult<ExtendReply>& reply) {
    next_extend_half_ms_ = watchdog_due_after(moment);
    if (reply.ok() && !reply.value().renewed) watchdog_stopped_ = true;  // lost: stop for good
    // An error that is not transient (a Redis error reply such as
    // -NOREPLICAS, model.md §17.4 rule 3) stops it for good too, as in the library.
    if (!reply.ok() && !reply.error().connection) watchdog_stopped_ = true;
}

template <class S>
StoreResult<ExtendReply> Elector::extend_on(Tick now, S& store) {
    const std::int64_t moment = extend_moment(now);
    auto reply = store.extend(now, latest_.token, options_.lease);
    extend_answered(moment, reply);
    return reply;
}

void Elector::begin_extend(Tick now) {
    extend_sent_half_ms_ = extend_moment(now);
    extend_awaited_ = true;
}

// scheduleWithFixedDelay counts from the run's completion (model.md §16.4):
// its own moment when the answer came in the tick it was sent, else the
// middle of the tick it was learned. An answer for a run that has ended
// changes nothing.
void Elector::learn_extend(Tick now, Tick sent, const StoreResult<ExtendReply>& reply) {
    extend_awaited_ = false;
    if (!watchdog_running()) return;
    extend_answered(now == sent ? extend_sent_half_ms_ : tick_middle_half_ms(now, options_.tick_ms), reply);
}

bool Elector::crash(Tick now) {
    const bool going = state_ == ElectorState::waiting || state_ == ElectorState::running;
    if (going) end_run(now, RunResult::crashed);
    state_ = ElectorState::finished;
    check_awaited_ = false;  // its check's answer changes nothing now (model.md §16.4)
    return going;
}

void Elector::end_run(Tick now, RunResult result) {
    RunRecord& run = latest_;
    run.result = result;
    run.ended_at = now;
    outcomes_.back().result = result;
    state_ = run_count() < options_.runs ? ElectorState::idle : ElectorState::finished;
}

void Elector::forget_outcomes(std::size_t count) {
    LS_ASSERT(count <= final_outcomes_held());
    outcomes_.erase(outcomes_.begin(), outcomes_.begin() + static_cast<std::ptrdiff_t>(count));
    forgotten_ += static_cast<std::int32_t>(count);
    settled_outcomes_ = StateHasher{};
    outcomes_folded_ = 0;
}

template AttemptEffect Elector::attempt_on<Store>(Tick, Store&);
template AttemptEffect Elector::attempt_on<ModelStore>(Tick, ModelStore&);
template StoreResult<ReleaseReply> Elector::end_action_on<Store>(Tick, RunResult, Store&);
template StoreResult<ReleaseReply> Elector::end_action_on<ModelStore>(Tick, RunResult, ModelStore&);
template StoreResult<ExtendReply> Elector::extend_on<Store>(Tick, Store&);
template StoreResult<ExtendReply> Elector::extend_on<ModelStore>(Tick, ModelStore&);

}  // namespace leasescope

namespace leasescope {

void Elector::fold_outcome(StateHasher& h, const RunOutcome& o) {
    h.add(o.fencing);
    h.add(o.result);
    h.add(o.has_fencing);
}

void Elector::hash_into(StateHasher& h) const {
#if LEASESCOPE_HASH_SIZES_PINNED
    static_assert(sizeof(Elector) == 392, "a member was added to Elector: feed it here, then pin the size");
    static_assert(sizeof(RunRecord) == 80, "a member was added to RunRecord: feed it here, then pin the size");
    static_assert(sizeof(RunOutcome) == 16, "a member was added to RunOutcome: feed it here, then pin the size");
#endif
    h.add(state_);
    h.add(outcomes_.size());
    const std::size_t settled_count = outcomes_.empty() ? 0 : outcomes_.size() - 1;
    for (auto i = static_cast<std::size_t>(outcomes_folded_); i < settled_count; ++i)
        fold_outcome(settled_outcomes_, outcomes_[i]);
    outcomes_folded_ = static_cast<std::int32_t>(settled_count);
    const StateHasher::Digest settled = settled_outcomes_.digest();  // all but the last
    h.add(settled.high);
    h.add(settled.low);
    if (!outcomes_.empty()) fold_outcome(h, outcomes_.back());
    h.add(forgotten_);
    h.add(latest_.run);
    h.add(latest_.result);
    h.add(latest_.fencing);
    h.add(latest_.token);
    h.add(latest_.started_at);
    h.add(latest_.acquired_at);
    h.add(latest_.ended_at);
    h.add(deadline_);
    h.add(next_attempt_);
    h.add(attempted_);
    h.add(progress_);
    h.add(next_write_);
    h.add(next_extend_half_ms_);
    h.add(watchdog_stopped_);
    h.add(awaiting_);
    h.add(extend_awaited_);
    h.add(extend_sent_half_ms_);
    h.add(check_awaited_);
    h.add(check_then_ended_);
    h.add(check_learned_at_);
}

}  // namespace leasescope
