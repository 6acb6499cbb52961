#pragma once
// The direct C++ API: one blocking `runIfLeader` call against any Store, in
// the caller's time. The engine owns no clock: the caller passes a TickSource
// (a logical counter in tests, a real-time one in a live program).
#include <functional>

#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/prng.hpp"

namespace leasescope {

class TickSource {
public:
    virtual ~TickSource() = default;
    virtual Tick now() = 0;
    // Returns at tick `t` or later.
    virtual void wait_until(Tick t) = 0;
};

struct ActionContext {
    Tick now = 0;
    Tick progress = 0;  // 1, 2, … : active ticks since acquisition
    Fencing fencing = 0;
    const Token* token = nullptr;
};

enum class ActionStep { keep_going, done, failed };

struct LeaderRun {
    RunResult result = RunResult::unfinished;
    std::optional<Fencing> fencing;
    Token token;
};

// Runs one run of the elector: attempts until acquired or the deadline
// passes, then calls `action` once per tick of work until it says done or
// failed, extending the lease when `options.auto_extend`, and releases with
// the min-lease and hold-off rules. `options.action`, `writes` and `fail_at`
// are ignored: the action decides when it ends.
LeaderRun run_if_leader(Store& store, TickSource& time, SplitMix64& rng, const std::string& owner,
                        ElectorOptions options, const std::function<ActionStep(const ActionContext&)>& action);

}  // namespace leasescope
