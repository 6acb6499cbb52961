// The explorer's counterexample in words (see counterexample_words.hpp): keys
// of the "explore." family filled with the facts of one counterexample.
#include "leasescope/words/counterexample_words.hpp"

#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"

namespace leasescope::words {
namespace {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

std::string count_word(std::int64_t n, const char* one, const char* many, const Strings& s) {
    return s.tr(n == 1 ? one : many);
}

Strings in(const Strings& strings, Lang lang) {
    Strings copy = strings;
    copy.set_lang(lang);
    return copy;
}

// The explorer's jumps are of the store's clock, on a grid of whole ticks
// (model.md §7.5); on Redlock of one named store's (§20.2 rule 4).
std::string clock_jump_words(const sim::AddedFault& added, const Strings& s) {
    const sim::Fault& f = added.fault;
    const Fields fields{
        {"at", std::to_string(f.at)}, {"jump_ms", std::to_string(f.ms < 0 ? -f.ms : f.ms)}, {"node", added.node}};
    if (f.store >= 0)
        return s.tr(f.ms < 0 ? "explore.fault.clock_jump_back_store" : "explore.fault.clock_jump_forward_store",
                    fields);
    return s.tr(f.ms < 0 ? "explore.fault.clock_jump_back" : "explore.fault.clock_jump_forward", fields);
}

// The stores a Redlock partition or delay concerns (model.md §20.7):
// "every store", "store A", "stores A, B".
std::string stores_words(const sim::AddedFault& added, const Strings& s) {
    if (added.stores.empty()) return s.tr("explore.stores.every");
    if (added.stores.size() == 1) return s.tr("explore.stores.one", {{"store", added.stores[0]}});
    return s.tr("explore.stores.some", {{"stores", join(added.stores, s.tr("explore.separator.items"))}});
}

// A delay of what the node sends on one link in one tick (model.md §7.6):
// the explorer's windows are one tick long.
std::string delay_words(const sim::AddedFault& added, const Strings& s) {
    const sim::Fault& f = added.fault;
    const Fields fields{{"node", added.node},
                        {"at", std::to_string(f.at)},
                        {"extra", std::to_string(f.extra)},
                        {"extra_word", count_word(f.extra, "explore.tick", "explore.ticks", s)}};
    const char* key = "explore.fault.delay_write";
    if (f.link == sim::Link::request) key = "explore.fault.delay_request";
    if (f.link == sim::Link::reply) key = "explore.fault.delay_reply";
    if (added.redlock && f.link != sim::Link::write) {
        Fields named = fields;
        named.emplace_back("stores", stores_words(added, s));
        return s.tr(
            f.link == sim::Link::request ? "explore.fault.delay_request_stores" : "explore.fault.delay_reply_stores",
            named);
    }
    return s.tr(key, fields);
}

// A cut of a replica's link, or a failover promoting a server with a lag
// (model.md §17.2, §17.3).
std::string replication_words(const sim::Fault& f, const Strings& s) {
    const Fields fields{
        {"at", std::to_string(f.at)},       {"server", std::to_string(f.server)},
        {"ticks", std::to_string(f.ticks)}, {"ticks_word", count_word(f.ticks, "explore.tick", "explore.ticks", s)},
        {"lag", std::to_string(f.lag)},     {"lag_word", count_word(f.lag, "explore.tick", "explore.ticks", s)}};
    if (f.kind == sim::FaultKind::replica_link) return s.tr("explore.fault.replica_link", fields);
    return s.tr(f.lag > 0 ? "explore.fault.failover_promote" : "explore.fault.failover_promote_no_lag", fields);
}

}  // namespace

std::string fault_words(const sim::AddedFault& added, const Strings& s) {
    const sim::Fault& f = added.fault;
    Fields fields{{"node", added.node},
                  {"at", std::to_string(f.at)},
                  {"ticks", std::to_string(f.ticks)},
                  {"ticks_word", count_word(f.ticks, "explore.tick", "explore.ticks", s)}};
    switch (f.kind) {
        case sim::FaultKind::pause: return s.tr("explore.fault.pause", fields);
        case sim::FaultKind::partition:
            if (added.redlock) {  // held, not dropped, whatever the mode (model.md §20.7)
                fields.emplace_back("stores", stores_words(added, s));
                return s.tr("explore.fault.partition_stores", fields);
            }
            fields.emplace_back("mode", sim::to_string(f.mode));
            return s.tr("explore.fault.partition", fields);
        case sim::FaultKind::crash: return s.tr("explore.fault.crash", fields);
        case sim::FaultKind::replica_link: return replication_words(f, s);
        case sim::FaultKind::failover:
            if (f.promotes()) return replication_words(f, s);
            return s.tr(f.lose == FailoverLoss::all ? "explore.fault.failover_all" : "explore.fault.failover_leases",
                        fields);
        case sim::FaultKind::clock_jump: return clock_jump_words(added, s);
        case sim::FaultKind::delay: return delay_words(added, s);
        case sim::FaultKind::restart:
            // A Redlock store's restart (model.md §20.3): `node` is the store.
            fields.emplace_back("persistence", sim::to_string(f.persistence));
            return s.tr("explore.fault.restart", fields);
    }
    return {};
}

std::vector<std::string> fault_lines(const sim::CounterexampleFacts& facts, const Strings& s) {
    std::vector<std::string> lines;
    if (facts.shuffled_seed)
        lines.push_back(s.tr("explore.shuffled", {{"seed", std::to_string(*facts.shuffled_seed)}}));
    for (const sim::AddedFault& f : facts.faults) lines.push_back(fault_words(f, s));
    return lines;
}

std::string failure_words(const sim::Failure& f, const Strings& s) {
    using Property = sim::Failure::Property;
    const Fields acts{{"node", f.late.node},
                      {"fencing", std::to_string(f.late.fencing)},
                      {"tick", std::to_string(f.late.tick)},
                      {"other", f.earlier.node},
                      {"other_fencing", std::to_string(f.earlier.fencing)},
                      {"other_tick", std::to_string(f.earlier.tick)}};
    switch (f.property) {
        case Property::unsafe_write: {
            if (f.quorum) return s.tr("explore.failure.unsafe_write_quorum", acts);
            if (f.record) return s.tr("explore.failure.unsafe_write_record", acts);
            Fields fields = acts;
            fields.emplace_back("mode", sim::to_string(f.resource));
            return s.tr("explore.failure.unsafe_write", fields);
        }
        case Property::fencing_regressed: return s.tr("explore.failure.fencing_regressed", acts);
        case Property::stale_after_successor: return s.tr("explore.failure.stale_after_successor", acts);
        case Property::holder_rejected: return s.tr("explore.failure.holder_rejected", acts);
        case Property::fencing_duplicate: return s.tr("explore.failure.fencing_duplicate", acts);
        case Property::overlap:
            return s.tr("explore.failure.overlap",
                        {{"tick", std::to_string(f.tick)},
                         {"count", std::to_string(f.nodes.size())},
                         {"nodes", join(f.nodes, s.tr("explore.separator.items"))},
                         {"capacity", std::to_string(f.capacity)},
                         {"slots_word", count_word(f.capacity, "explore.slot", "explore.slots", s)}});
        case Property::liveness: {
            if (f.runs.empty()) return s.tr("explore.failure.liveness_no_run");
            std::vector<std::string> runs;
            for (const sim::RunSummary& r : f.runs) {
                runs.push_back(
                    s.tr("explore.run", {{"node", r.node}, {"run", std::to_string(r.run)}, {"result", r.result}}));
            }
            return s.tr("explore.failure.liveness", {{"runs", join(runs, s.tr("explore.separator.items"))}});
        }
    }
    return {};
}

std::string explanation_words(const sim::CounterexampleFacts& facts, const Strings& s) {
    std::vector<std::string> parts;
    for (const sim::Failure& f : facts.failures) parts.push_back(failure_words(f, s));
    return join(parts, s.tr("explore.separator.clauses"));
}

void title_counterexample(sim::Counterexample& cx, const sim::Scenario& base, const Strings& strings) {
    const auto text_max = static_cast<std::size_t>(limits::text_length_max);
    const std::string title_en = base.title.en.empty() ? base.name : base.title.en;
    const std::string title_ko = base.title.ko.empty() ? title_en : base.title.ko;
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = in(strings, lang);
        const Fields fields{{"base", base.name},
                            {"title", lang == Lang::ko ? title_ko : title_en},
                            {"faults", join(fault_lines(cx.facts, s), s.tr("explore.separator.clauses"))},
                            {"explanation", explanation_words(cx.facts, s)}};
        std::string& title = lang == Lang::ko ? cx.scenario.title.ko : cx.scenario.title.en;
        std::string& summary = lang == Lang::ko ? cx.scenario.summary.ko : cx.scenario.summary.en;
        title = sim::clip_utf8(s.tr("explore.title", fields), text_max);
        summary = sim::clip_utf8(
            s.tr(cx.facts.faults.empty() && !cx.facts.shuffled_seed ? "explore.summary.no_fault" : "explore.summary",
                 fields),
            text_max);
    }
}

std::string fault_class_words(sim::FaultClass kind, const Strings& s) {
    switch (kind) {
        case sim::FaultClass::pause: return s.tr("find.kind.pause");
        case sim::FaultClass::partition: return s.tr("find.kind.partition");
        case sim::FaultClass::crash: return s.tr("find.kind.crash");
        case sim::FaultClass::failover: return s.tr("find.kind.failover");
        case sim::FaultClass::delay: return s.tr("find.kind.delay");
        case sim::FaultClass::clock_jump: return s.tr("find.kind.clock_jump");
        case sim::FaultClass::replica_link: return s.tr("find.kind.replica_link");
        case sim::FaultClass::failover_promote: return s.tr("find.kind.failover_promote");
        case sim::FaultClass::restart: return s.tr("find.kind.restart");
    }
    return std::string(sim::to_string(kind));
}

std::string size_words(Tick ticks, std::int64_t tick_ms, const Strings& s) {
    return s.tr("find.smallest.size", {{"time", sim::duration_text(ticks * tick_ms * 1000)},
                                       {"ticks", std::to_string(ticks)},
                                       {"ticks_word", count_word(ticks, "explore.tick", "explore.ticks", s)}});
}

std::string budget_words(const std::vector<Tick>& sizes, bool grid, std::int64_t tick_ms, const Strings& s) {
    if (sizes.empty()) return {};
    return s.tr(grid ? "find.budget.grid" : "find.budget.every", {{"lo", size_words(sizes.front(), tick_ms, s)},
                                                                  {"hi", size_words(sizes.back(), tick_ms, s)},
                                                                  {"count", std::to_string(sizes.size())}});
}

std::string kind_answer_words(const KindAnswer& a, std::int64_t tick_ms, const Strings& s) {
    Fields fields{{"kind", fault_class_words(a.kind, s)}};
    if (!a.sized) return s.tr(a.threshold ? "find.smallest.breaks_unsized" : "find.smallest.none_unsized", fields);
    if (!a.threshold) {
        fields.emplace_back("size", a.held ? size_words(*a.held, tick_ms, s) : std::string("-"));
        return s.tr("find.smallest.none", fields);
    }
    fields.emplace_back("size", size_words(*a.threshold, tick_ms, s));
    if (!a.held) return s.tr("find.smallest.breaks_smallest", fields);
    fields.emplace_back("held", size_words(*a.held, tick_ms, s));
    std::string out = s.tr("find.smallest.breaks", fields);
    if (a.on_grid && *a.held + 1 < *a.threshold) out += s.tr("find.smallest.between");
    return out;
}

}  // namespace leasescope::words
