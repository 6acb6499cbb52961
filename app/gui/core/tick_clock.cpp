// The time beside a tick (tick_clock.hpp).
#include "tick_clock.hpp"

#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

std::optional<WallClock> wall_clock_of(const sim::Trace& trace) {
    if (!trace.header.import) return std::nullopt;
    return WallClock{trace.header.import->origin_us, trace.header.tick_ms};
}

std::string TickClock::at(Tick t) const {
    if (wall) return sim::wall_time_text(wall->us_of(t));
    return sim::elapsed_text(t, tick_ms);
}

std::string TickClock::of(const sim::Event& e) const {
    // A recorded line's time is the server's, which need not be its tick's start (model.md §19.7).
    if (wall) return e.wall_us ? sim::wall_time_text(*e.wall_us) : "\u2013";
    return at(e.tick);
}

TickClock tick_clock_of(const sim::Trace& trace) { return TickClock{trace.header.tick_ms, wall_clock_of(trace)}; }

std::string playhead_time_words(const TickClock& clock, Tick t, const Strings& strings) {
    return strings.tr(clock.wall ? "transport.wall" : "transport.elapsed", {{"time", clock.at(t)}});
}

std::string time_column_words(const TickClock& clock, const Strings& strings) {
    return strings.tr(clock.wall ? "col.time" : "col.elapsed");
}

std::string tick_time_words(const TickClock& clock, Tick t, const Strings& strings) {
    return strings.tr("word.tick") + " " + std::to_string(t) + " \u00b7 " + clock.at(t);
}

std::string tick_start_words(const TickClock& clock, Tick t, const Strings& strings) {
    return strings.tr("explain.tick_time", {{"tick", std::to_string(t)},
                                            {"time", sim::elapsed_text(t, clock.tick_ms)},
                                            {"tick_ms", std::to_string(clock.tick_ms)}});
}

std::string ttl_time_words(const TickClock& clock, Tick left, std::optional<Tick> ttl, Tick expires,
                           const Strings& strings) {
    const auto duration = [&](Tick ticks) { return sim::duration_text(ticks * clock.tick_ms * 1000); };
    Fields f{{"left", duration(left)}, {"expires", clock.at(expires)}};
    if (!ttl) return strings.tr("record.ttl_time_left_only", f);
    f.emplace_back("ttl", duration(*ttl));
    return strings.tr("record.ttl_time", f);
}

std::string state_at_words(const TickClock& clock, Tick t, const Strings& strings) {
    return strings.tr("record.at_tick", {{"tick", std::to_string(t)}, {"time", clock.at(t + 1)}});
}

}  // namespace leasescope::gui
