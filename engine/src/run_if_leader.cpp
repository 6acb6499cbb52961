// The blocking runIfLeader call against any Store in the caller's time (run_if_leader.hpp).
#include "leasescope/engine/run_if_leader.hpp"

#include <limits>

namespace leasescope {

LeaderRun run_if_leader(Store& store, TickSource& time, SplitMix64& rng, const std::string& owner,
                        ElectorOptions options, const std::function<ActionStep(const ActionContext&)>& action) {
    // The action decides its own end, so the elector's counted end is moved
    // out of reach.
    options.action = std::numeric_limits<Tick>::max();
    options.writes.clear();
    options.fail_at = 0;
    options.runs = 1;
    Elector elector(owner, options);

    Tick now = time.now();
    elector.begin_run(now, draw_token(rng));
    while (elector.state() == ElectorState::waiting) {
        if (!elector.attempt_due(now, true)) {
            time.wait_until(elector.next_attempt());
            now = time.now();
            continue;
        }
        (void)elector.attempt(now, store);
        if (elector.state() == ElectorState::waiting) {
            time.wait_until(elector.next_attempt());
            now = time.now();
        }
    }
    while (elector.executing()) {
        time.wait_until(now + 1);
        now = time.now();
        (void)elector.advance(now);
        const RunRecord& run = *elector.latest_run();
        const ActionStep step = action(ActionContext{now, elector.progress(), *run.fencing, &run.token});
        if (step != ActionStep::keep_going) {
            (void)elector.end_action(now, step == ActionStep::done ? RunResult::elected : RunResult::action_failed,
                                     store);
            break;
        }
        while (elector.extend_due(now, true)) (void)elector.extend(now, store);
    }
    const RunRecord& run = *elector.latest_run();
    return LeaderRun{run.result, run.fencing, run.token};
}

}  // namespace leasescope
