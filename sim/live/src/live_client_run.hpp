#pragma once
// What Redlock live and Redisson live share (docs/model.md rules 20.9.4,
// 21.9.5): a client run (RedlockRun, RedissonRun) inside a Simulation,
// stepped once a tick at the tick's middle against real servers whose
// answers come through its store interface, its trace collected and hashed.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/live/live_driver.hpp"
#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::live {

// The run's events: kept, hashed as the trace's lines, handed to on_event.
class ClientTraceSink final : public sim::EventSink {
public:
    ClientTraceSink(std::vector<sim::Event>& events, const std::function<void(const sim::Event&)>& on_event)
        : events_(events), on_event_(on_event) {}
    void on_event(const sim::Event& event) override {
        events_.push_back(event);
        hasher_.add_line(sim::event_line(event));
        if (on_event_) on_event_(event);
    }
    std::string hex() { return hasher_.hex(); }

private:
    std::vector<sim::Event>& events_;
    const std::function<void(const sim::Event&)>& on_event_;
    sim::TraceHasher hasher_;
};

// SCRIPT LOAD of one script: its SHA-1, or the failure.
Result<std::string, StoreError> load_script(redis::RedisConnection& c, std::string_view script);

// The run, tick by tick at each tick's middle, until the scenario ends, the
// stores fail (`first_error`, the real stores' first failure, set while a
// tick runs) or the run is cancelled. Marks `report` completed, cancelled
// or failed, and its timing faults.
void step_client_in_real_time(sim::Simulation& sim, const std::optional<StoreError>& first_error, ClientTraceSink& sink,
                              const LiveOptions& options, LiveReport& report);

// The trace's summary of a run stepped so far.
void summarise_client_run(const sim::Simulation& sim, ClientTraceSink& sink, LiveReport& report);

// Runs `sim`, whose client run's stores are `stores` (the real ones, with
// first_error() and clean_up()), in real time: the trace and its summary in
// `report`, then the stores' clean-up, whose failure is reported too.
template <class RealStores>
void run_client_live(sim::Simulation& sim, RealStores& stores, const LiveOptions& options, LiveReport& report) {
    report.trace.header = sim.header();
    ClientTraceSink sink(report.trace.events, options.on_event);
    step_client_in_real_time(sim, stores.first_error(), sink, options, report);
    summarise_client_run(sim, sink, report);
    stores.clean_up();
    if (!report.backend_error && stores.first_error()) report.backend_error = stores.first_error();
}

}  // namespace leasescope::live
