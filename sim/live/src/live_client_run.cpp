// A client run stepped in real time (live_client_run.hpp, docs/model.md
// rules 20.9.4 and 21.9.5).
#include "live_client_run.hpp"

#include <algorithm>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/live/tick_pacer.hpp"

namespace leasescope::live {

Result<std::string, StoreError> load_script(redis::RedisConnection& c, std::string_view script) {
    auto reply = c.command({"SCRIPT", "LOAD", script});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_STRING) {
        return Err{StoreError{c.where() + ": SCRIPT LOAD answered " + redis::describe_reply(r), false}};
    }
    return std::string(r->str, r->len);
}

void step_client_in_real_time(sim::Simulation& sim, const std::optional<StoreError>& first_error, ClientTraceSink& sink,
                              const LiveOptions& options, LiveReport& report) {
    ModelStore unused{LockConfig{}};  // Simulation::step's store: a client run has its own
    TickPacer pacer(sim.scenario().tick_ms);
    pacer.start();
    while (!sim.finished()) {
        const Tick t = sim.next_tick();
        if (!pacer.wait_for_mid(t, options.cancel) || (options.cancel != nullptr && options.cancel->load())) {
            report.cancelled = true;
            return;
        }
        (void)sim.step(unused, sink);
        if (!pacer.within(t)) report.timing_faults.push_back(TimingFault{t, pacer.ms_past_deadline(t)});
        if (first_error) {
            report.backend_error = first_error;
            return;
        }
    }
    report.completed = true;
}

void summarise_client_run(const sim::Simulation& sim, ClientTraceSink& sink, LiveReport& report) {
    sim::TraceSummary& summary = report.trace.summary;
    summary.end_tick = sim.finished() ? sim.end_tick() : std::max<Tick>(0, sim.next_tick() - 1);
    summary.results = sim.results();
    summary.violations = sim.violations();
    summary.events = static_cast<std::int64_t>(report.trace.events.size());
    summary.trace_sha256 = sink.hex();
}

}  // namespace leasescope::live
