// The counterexample: the schedule as a scenario named after its base, and
// in words what went wrong, from its trace.
#include "leasescope/sim/explorer.hpp"

#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "explore_internal.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

std::string plural(std::int64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Cuts UTF-8 text to at most `max_bytes` without splitting a character.
std::string clip_utf8(std::string text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return text;
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
    return text;
}

}  // namespace

Localized describe_fault(const Scenario& s, const Fault& f) {
    const std::string node = f.node >= 0 ? s.candidates.at(static_cast<std::size_t>(f.node)).name : std::string();
    switch (f.kind) {
        case FaultKind::pause:
            return {fmt::format("pause {} for {} at tick {}", node, plural(f.ticks, "tick", "ticks"), f.at),
                    fmt::format("{}틱부터 {}틱 동안 {} 멈춤", f.at, f.ticks, node)};
        case FaultKind::partition:
            return {fmt::format("partition {} from the store for {} at tick {} ({})", node,
                                plural(f.ticks, "tick", "ticks"), f.at, to_string(f.mode)),
                    fmt::format("{}틱부터 {}틱 동안 {}와 저장소 사이 네트워크 분리({})", f.at, f.ticks, node,
                                to_string(f.mode))};
        case FaultKind::crash:
            return {fmt::format("crash {} at tick {}", node, f.at), fmt::format("{}틱에 {} 크래시", f.at, node)};
        case FaultKind::failover:
            if (f.lose == FailoverLoss::all)
                return {fmt::format("fail the store over at tick {}, losing everything, the fencing counter included",
                                    f.at),
                        fmt::format("{}틱에 페일오버, 펜싱 카운터까지 모두 유실", f.at)};
            return {fmt::format("fail the store over at tick {}, losing the leases (the fencing counter survives)", f.at),
                    fmt::format("{}틱에 페일오버, 리스 유실(펜싱 카운터는 유지)", f.at)};
    }
    return {};
}

Localized describe_variant(const Explorer& ex, std::int32_t v) {
    if (v == 0) return {};
    const Scenario& s = ex.variant(v);
    return {fmt::format("order shuffled with seed {}", s.seed), fmt::format("순서 섞기(seed {})", s.seed)};
}

namespace {

bool has_detail(const Event& e, std::string_view item) {
    std::string_view d = e.detail;
    for (std::string_view part : split_list(d)) {
        if (part == item) return true;
    }
    return false;
}

std::optional<Localized> explain_unsafe_write(const Scenario& scenario, const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& late = trace.events[i];
        if (late.op != EventOp::write || !has_detail(late, "unsafe_write")) continue;
        const Event* newer = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::write || e.outcome != Outcome::accepted || !e.fencing) continue;
            if (newer == nullptr || *e.fencing > *newer->fencing) newer = &e;
        }
        LS_ASSERT(newer != nullptr);
        return Localized{
            fmt::format("unsafe_write: {}'s write with fencing {} at tick {} lands after {}'s write with fencing {} "
                        "at tick {}; the resource (mode {}) accepts it",
                        late.node, *late.fencing, late.tick, newer->node, *newer->fencing, newer->tick,
                        to_string(scenario.resource)),
            fmt::format("unsafe_write: {}의 쓰기(펜싱 {}, {}틱)가 {}의 쓰기(펜싱 {}, {}틱) 뒤에 도착했는데도 "
                        "리소스({} 모드)가 받아들입니다",
                        late.node, *late.fencing, late.tick, newer->node, *newer->fencing, newer->tick,
                        to_string(scenario.resource))};
    }
    return std::nullopt;
}

std::optional<Localized> explain_fencing_regressed(const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& low = trace.events[i];
        if (low.op != EventOp::acquire || !has_detail(low, "fencing_regressed")) continue;
        const Event* earlier = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::acquire || !e.fencing) continue;
            if (earlier == nullptr || *e.fencing > *earlier->fencing) earlier = &e;
        }
        LS_ASSERT(earlier != nullptr);
        return Localized{
            fmt::format("fencing_regressed: {} is issued fencing {} at tick {}, but {} was already issued {} at "
                        "tick {}: the fence is not above an earlier one",
                        low.node, *low.fencing, low.tick, earlier->node, *earlier->fencing, earlier->tick),
            fmt::format("fencing_regressed: {}의 획득(펜싱 {}, {}틱)이 {}의 획득(펜싱 {}, {}틱)보다 크지 않습니다. "
                        "펜싱 번호가 앞으로 나아가지 않았습니다",
                        low.node, *low.fencing, low.tick, earlier->node, *earlier->fencing, earlier->tick)};
    }
    return std::nullopt;
}

std::optional<Localized> explain_overlap(const Scenario& scenario, const Trace& trace) {
    for (const Event& e : trace.events) {
        if (e.op != EventOp::overlap_begin) continue;
        // Which nodes execute at the end of that tick: replay up to it.
        Simulation sim(scenario);
        ModelStore store(scenario.lock);
        NullSink sink;
        while (!sim.finished() && sim.next_tick() <= e.tick) {
            auto stepped = sim.step(store, sink);
            LS_ASSERT(stepped.ok());
        }
        std::vector<std::string> names;
        for (const Elector& el : sim.electors()) {
            if (el.executing()) names.push_back(el.owner());
        }
        const std::string list = fmt::format("{}", fmt::join(names, ", "));
        return Localized{fmt::format("overlap: at tick {}, {} nodes execute at once ({}) on a lock with {}", e.tick,
                                     names.size(), list, plural(scenario.lock.capacity, "slot", "slots")),
                         fmt::format("overlap: {}틱에 노드 {}개({})가 동시에 실행합니다. 슬롯은 {}개입니다", e.tick,
                                     names.size(), list, scenario.lock.capacity)};
    }
    return std::nullopt;
}

Localized explain_liveness(const Trace& trace) {
    if (trace.summary.results.empty())
        return {"liveness: no run starts before the end", "liveness: 끝날 때까지 시작한 실행이 없습니다"};
    std::vector<std::string> runs;
    for (const RunSummary& r : trace.summary.results) runs.push_back(fmt::format("{} run {} {}", r.node, r.run, r.result));
    const std::string list = fmt::format("{}", fmt::join(runs, ", "));
    return {fmt::format("liveness: no run ends elected ({})", list),
            fmt::format("liveness: elected로 끝난 실행이 없습니다({})", list)};
}

}  // namespace

Counterexample make_counterexample(const Explorer& ex, const Schedule& schedule) {
    Counterexample out;
    out.scenario = ex.to_scenario(schedule);
    out.verdict = ex.check(schedule);
    const Scenario& base = ex.base();
    Scenario& s = out.scenario;
    s.name = clip_utf8(base.name, static_cast<std::size_t>(limits::name_length_max) - 15) + "-counterexample";

    if (schedule.variant != 0) out.faults.push_back(describe_variant(ex, schedule.variant));
    for (const std::int32_t a : schedule.atoms) out.faults.push_back(describe_fault(s, ex.atoms().at(static_cast<std::size_t>(a))));

    out.trace = simulate(s);
    std::vector<Localized> reasons;
    const Properties& failed = out.verdict.failed;
    if (failed.unsafe_write) {
        if (auto r = explain_unsafe_write(s, out.trace)) reasons.push_back(*r);
    }
    if (failed.fencing_regressed) {
        if (auto r = explain_fencing_regressed(out.trace)) reasons.push_back(*r);
    }
    if (failed.overlap) {
        if (auto r = explain_overlap(s, out.trace)) reasons.push_back(*r);
    }
    if (failed.liveness) reasons.push_back(explain_liveness(out.trace));
    for (const Localized& r : reasons) {
        out.explanation.en += (out.explanation.en.empty() ? "" : "; ") + r.en;
        out.explanation.ko += (out.explanation.ko.empty() ? "" : "; ") + r.ko;
    }

    std::vector<std::string> faults_en, faults_ko;
    for (const Localized& f : out.faults) {
        faults_en.push_back(f.en);
        faults_ko.push_back(f.ko);
    }
    const std::string base_title_en = base.title.en.empty() ? base.name : base.title.en;
    const std::string base_title_ko = !base.title.ko.empty() ? base.title.ko : base_title_en;
    const auto text_max = static_cast<std::size_t>(limits::text_length_max);
    s.title.en = clip_utf8("Counterexample: " + base_title_en, text_max);
    s.title.ko = clip_utf8("반례: " + base_title_ko, text_max);
    if (out.faults.empty()) {
        s.summary.en = fmt::format("Found by the explorer: \"{}\" fails as it is, with no added fault. {}.", base.name,
                                   out.explanation.en);
        s.summary.ko = fmt::format("탐색기가 찾은 반례: \"{}\"는 결함을 더하지 않아도 실패합니다. {}.", base.name,
                                   out.explanation.ko);
    } else {
        s.summary.en = fmt::format("Found by the explorer from \"{}\": {}. {}.", base.name, fmt::join(faults_en, "; "),
                                   out.explanation.en);
        s.summary.ko = fmt::format("탐색기가 \"{}\"에서 찾은 반례: {}. {}.", base.name, fmt::join(faults_ko, "; "),
                                   out.explanation.ko);
    }
    s.summary.en = clip_utf8(s.summary.en, text_max);
    s.summary.ko = clip_utf8(s.summary.ko, text_max);
    return out;
}

}  // namespace leasescope::sim
