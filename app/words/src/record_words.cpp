// The Redis record's TTL in words a student can check against the event table
// (words.hpp ttl_words): what is left, of which TTL, set at which tick; and
// the name of the scripted ops' lane (ops_actors).
#include "leasescope/words/words.hpp"

#include <algorithm>
#include <limits>

namespace leasescope::words {

std::optional<TtlSet> ttl_set(const sim::Trace& trace, std::size_t end, const Token& token) {
    // The latest acquisition or renewal of the token that the store applied
    // before `end`: the TTL it set, from the tick Redis applied it. With time
    // on the wire a call is reported when its reply arrives, with `applied`
    // earlier (model.md §16.6): a record is held from its application on.
    end = std::min(end, trace.events.size());
    const Tick end_tick = end < trace.events.size() ? trace.events[end].tick : std::numeric_limits<Tick>::max();
    std::optional<TtlSet> out;
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        if (e.token != token || !e.ttl) continue;
        const Tick applied = e.applied.value_or(e.tick);
        if (k >= end && applied >= end_tick) continue;
        // An acquire with a fencing number wrote the record: acquired, or applied with its reply lost (an orphan).
        // A release that keeps the record for min_lease sets its TTL anew, shorter.
        const bool sets = (e.op == sim::EventOp::acquire && e.fencing) ||
                          (e.op == sim::EventOp::extend && e.outcome == sim::Outcome::renewed) ||
                          (e.op == sim::EventOp::release && e.outcome == sim::Outcome::kept);
        if (sets && (!out || applied >= out->tick)) out = TtlSet{applied, *e.ttl};
    }
    return out;
}

std::string ttl_words(const sim::Trace& trace, std::size_t end, const SlotRecord& record, Tick tick,
                      const Strings& strings) {
    const Fields f{{"left", std::to_string(record.expires_at - tick)}, {"expires", std::to_string(record.expires_at)}};
    const std::optional<TtlSet> set = ttl_set(trace, end, record.token);
    if (!set) return strings.tr("record.ttl_left_only", f);
    Fields g = f;
    g.emplace_back("ttl", std::to_string(set->ttl));
    g.emplace_back("set_at", std::to_string(set->tick));
    return strings.tr("record.ttl_of_set", g);
}

std::vector<std::string> server_lines(const sim::Snapshot& snap, const Strings& strings) {
    std::vector<std::string> out;
    for (const sim::ServerSnapshot& sv : snap.servers) {
        const Fields server{{"server", std::to_string(sv.server)}};
        const char* title = sv.role == sim::ServerRole::primary   ? "lane.server_primary"
                            : sv.role == sim::ServerRole::replica ? "lane.server_replica"
                                                                  : "lane.server_old_primary";
        std::string records;
        for (const SlotRecord& r : sv.slots) {
            if (!r.valid_at(snap.tick)) continue;
            records += (records.empty() ? "" : ", ") + r.owner + " #" + std::to_string(r.fencing);
        }
        // A primary has no link to a primary to be up or cut.
        const bool replica = sv.role == sim::ServerRole::replica;
        const char* link = sv.linked ? "record.link_up" : "record.link_cut";
        out.push_back(strings.tr(replica ? "record.server_line" : "record.server_line_primary",
                                 {{"title", strings.tr(title, server)},
                                  {"records", records.empty() ? strings.tr("record.no_record") : records},
                                  {"counter", std::to_string(sv.counter)},
                                  {"link", strings.tr(link)}}));
    }
    return out;
}

std::string ops_actors(const sim::Scenario& scenario) {
    std::vector<std::string> seen;
    for (const sim::Op& op : scenario.ops)
        if (std::find(seen.begin(), seen.end(), op.actor) == seen.end()) seen.push_back(op.actor);
    std::string out;
    for (const std::string& a : seen) out += (out.empty() ? "" : ", ") + a;
    return out;
}

}  // namespace leasescope::words
