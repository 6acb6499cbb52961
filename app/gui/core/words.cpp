#include "words.hpp"

#include <string_view>

namespace leasescope::gui {
namespace {

bool has_detail(const sim::Event& e, std::string_view word) {
    // Details combine with commas (DESIGN §12); match whole items only.
    std::string_view d = e.detail;
    while (!d.empty()) {
        const auto comma = d.find(',');
        const std::string_view item = d.substr(0, comma);
        if (item == word) return true;
        if (comma == std::string_view::npos) break;
        d.remove_prefix(comma + 1);
    }
    return false;
}

std::string opt_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "–"; }

}  // namespace

std::string short_token(const std::string& token, std::size_t keep) {
    if (token.empty()) return "–";
    if (token.size() <= keep) return token;
    return token.substr(0, keep) + "…";
}

std::string event_key(const sim::Event& e) {
    using sim::EventOp;
    using sim::Outcome;
    switch (e.op) {
        case EventOp::pause: return "pause";
        case EventOp::resume: return "resume";
        case EventOp::crash: return "crash";
        case EventOp::partition: return "partition";
        case EventOp::heal: return "heal";
        case EventOp::failover: return e.detail == "all" ? "failover.all" : "failover.leases";
        case EventOp::expire: return "expire";
        case EventOp::write:
            if (e.outcome == Outcome::rejected) return has_detail(e, "stale") ? "write.rejected_stale" : "write.rejected";
            if (has_detail(e, "unsafe_write")) return "write.unsafe";
            if (has_detail(e, "stale")) return "write.accepted_stale";
            return "write.accepted";
        case EventOp::release:
            switch (e.outcome) {
                case Outcome::released: return "release.released";
                case Outcome::kept: return "release.kept";
                case Outcome::not_owner: return "release.not_owner";
                default: return "release.error";
            }
        case EventOp::extend:
            if (e.outcome == Outcome::renewed) return "extend.renewed";
            if (e.outcome == Outcome::lost) return "extend.lost";
            return "extend.error";
        case EventOp::start: return "start";
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired)
                return has_detail(e, "fencing_regressed") ? "acquire.regressed" : "acquire.acquired";
            if (e.outcome == Outcome::error) return has_detail(e, "reply_lost") ? "acquire.reply_lost" : "acquire.error";
            return has_detail(e, "hold_off") ? "acquire.busy_holdoff" : "acquire.busy";
        case EventOp::skip: return "skip";
        case EventOp::status: return e.outcome == Outcome::held ? "status.held" : "status.vacant";
        case EventOp::validate:
            if (e.outcome == Outcome::current) return "validate.current";
            if (e.outcome == Outcome::stale) return "validate.stale";
            return "validate.vacant";
        case EventOp::overlap_begin: return "overlap_begin";
        case EventOp::overlap_end: return "overlap_end";
    }
    return "unknown";
}

Fields event_fields(const sim::Event& e) {
    Fields f;
    f.emplace_back("node", e.node.empty() ? std::string("–") : e.node);
    f.emplace_back("tick", std::to_string(e.tick));
    f.emplace_back("run", e.run >= 0 ? std::to_string(e.run) : std::string("–"));
    f.emplace_back("slot", e.slot ? std::to_string(*e.slot) : std::string("–"));
    f.emplace_back("fencing", opt_text(e.fencing));
    f.emplace_back("ttl", opt_text(e.ttl));
    f.emplace_back("token", short_token(e.token, 8));
    f.emplace_back("detail", e.detail);
    f.emplace_back("mode", e.detail == "drop_replies" ? "drop_replies" : "drop_requests");
    f.emplace_back("lose", e.detail);
    return f;
}

std::string op_words(const sim::Event& e, const Strings& s) {
    return s.tr(std::string("op.") + sim::to_string(e.op));
}

std::string outcome_words(const sim::Event& e, const Strings& s) {
    const std::string key = event_key(e);
    return s.tr("out." + key, event_fields(e));
}

std::string describe_event(const sim::Event& e, const Strings& s) {
    return s.tr("ev." + event_key(e), event_fields(e));
}

std::string status_words(sim::NodeStatus status, const Strings& s) {
    return s.tr(std::string("status.") + sim::to_string(status));
}

std::string explain_event(const ExplainContext& ctx, const Strings& s) {
    if (!ctx.trace || ctx.event_index >= ctx.trace->events.size()) return s.tr("explain.none");
    const auto& events = ctx.trace->events;
    const sim::Event& e = events[ctx.event_index];
    Fields f = event_fields(e);
    // When did this node's token stop being current? The expire event of a
    // record with the same token, or a failover after its acquisition.
    std::string expired_at = "–";
    if (!e.token.empty()) {
        for (std::size_t k = ctx.event_index; k-- > 0;) {
            const sim::Event& p = events[k];
            if (p.op == sim::EventOp::expire && p.token == e.token) {
                expired_at = std::to_string(p.tick);
                break;
            }
            if (p.op == sim::EventOp::failover) {
                expired_at = std::to_string(p.tick);
                break;
            }
            if (p.op == sim::EventOp::acquire && p.token == e.token && p.outcome == sim::Outcome::acquired) break;
        }
    }
    f.emplace_back("expired_at", expired_at);
    // Who holds the lock at the end of this tick.
    std::string holder = s.tr("explain.nobody");
    std::string holder_fencing = "–";
    std::string holder_until = "–";
    if (ctx.snapshot) {
        for (const SlotRecord& r : ctx.snapshot->slots) {
            if (!r.valid_at(ctx.snapshot->tick)) continue;
            if (r.token == e.token) continue;
            holder = r.owner;
            holder_fencing = std::to_string(r.fencing);
            holder_until = std::to_string(r.expires_at);
            break;
        }
        f.emplace_back("highest", ctx.snapshot->resource.highest_accepted
                                      ? std::to_string(*ctx.snapshot->resource.highest_accepted)
                                      : std::string("–"));
        f.emplace_back("counter", std::to_string(ctx.snapshot->counter));
    }
    f.emplace_back("holder", holder);
    f.emplace_back("holder_fencing", holder_fencing);
    f.emplace_back("holder_until", holder_until);
    f.emplace_back("resource_mode", s.tr(std::string("mode.") + sim::to_string(ctx.resource)));
    const std::string key = event_key(e);
    std::string text = s.tr("ev." + key, f);
    if (s.has(s.lang(), "explain." + key) || s.has(Lang::en, "explain." + key)) text += "\n\n" + s.tr("explain." + key, f);
    return text;
}

std::string explain_state(const sim::Snapshot& snap, const Strings& s) {
    std::string out = s.tr("explain.state_at", {{"tick", std::to_string(snap.tick)}});
    std::size_t shown = 0;
    for (const sim::NodeSnapshot& n : snap.nodes) {
        if (n.status == sim::NodeStatus::idle || n.status == sim::NodeStatus::done) continue;
        if (++shown > 8) break;  // a summary, not the whole candidates panel
        Fields f{{"node", n.name},
                 {"status", status_words(n.status, s)},
                 {"fencing", opt_text(n.fencing)},
                 {"progress", std::to_string(n.progress)},
                 {"action", std::to_string(n.action)}};
        const char* key = n.status == sim::NodeStatus::stale     ? "explain.node_stale"
                          : n.status == sim::NodeStatus::running ? "explain.node_running"
                                                                  : "explain.node_other";
        out += "\n• " + s.tr(key, f);
    }
    for (const SlotRecord& r : snap.slots) {
        if (!r.valid_at(snap.tick)) continue;
        out += "\n• " + s.tr("explain.slot_held", {{"owner", r.owner},
                                                    {"fencing", std::to_string(r.fencing)},
                                                    {"expires", std::to_string(r.expires_at)}});
    }
    return out;
}

}  // namespace leasescope::gui
