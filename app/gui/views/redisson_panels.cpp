// The side panels' Redisson parts (redisson_panels.hpp).
#include "redisson_panels.hpp"

#include <algorithm>
#include <cstdlib>

namespace leasescope::gui {
namespace {

using words::RedissonClientFact;
using words::RedissonClientState;

const ImVec4 stale_text{0.92f, 0.0f, 0.31f, 1};

std::int64_t tick_ms_of(const FrameContext& ctx) {
    return std::max<std::int64_t>(1, ctx.timeline.trace().header.tick_ms);
}

// Whether client c's field holds the hash `f` at tick t.
bool holds_key(const FrameContext& ctx, const words::RedissonFacts& f, const RedissonClientFact& c, Tick t) {
    const words::RedissonRecordFact& r = f.record;
    return !c.token.empty() && r.token == c.token && words::redisson_pttl_ms(r, t, tick_ms_of(ctx)) > 0;
}
bool holds_key(const FrameContext& ctx, const RedissonClientFact& c) {
    return holds_key(ctx, *ctx.redisson, c, ctx.playhead);
}

// The lane colour of a client's state at tick t (redisson_lanes.cpp's).
SpanKind state_kind(const FrameContext& ctx, const words::RedissonFacts& f, const RedissonClientFact& c, Tick t) {
    switch (c.state) {
        case RedissonClientState::locking:
        case RedissonClientState::sleeping: return SpanKind::waiting;
        case RedissonClientState::holding: return holds_key(ctx, f, c, t) ? SpanKind::running : SpanKind::stale;
        case RedissonClientState::crashed: return SpanKind::crashed;
        default: return SpanKind::idle;
    }
}

// A client's badge: its state, but STALE for a client that believes it
// holds the lock while the key no longer holds its field (rule 21.6.1), as
// its lane and the Protected action panel say.
std::string badge_words(const FrameContext& ctx, const words::RedissonFacts& f, const RedissonClientFact& c, Tick t) {
    if (c.state == RedissonClientState::holding && state_kind(ctx, f, c, t) == SpanKind::stale)
        return ctx.tr("rsp.state.stale");
    return ctx.strings.tr(std::string("rsp.state.") + words::to_string(c.state));
}

// What a sleeping client waits for (rules 21.3.4, 21.5.2, 21.5.3).
void sleeping_lines(const FrameContext& ctx, const RedissonClientFact& c) {
    const Fields f{{"wake", std::to_string(c.wake_at)}, {"ttl", std::to_string(c.told_ttl_ms)}};
    if (c.woken) return (void)ImGui::TextUnformatted(ctx.tr("rsp.woken"));
    ImGui::TextUnformatted(ctx.strings.tr("rsp.sleeping", f).c_str());
    if (c.message_lost) ImGui::TextColored(stale_text, "%s", ctx.strings.tr("rsp.message_lost", f).c_str());
}

// How a holding client keeps its key (rule 21.4), or that it lost it (21.6.1).
void holding_lines(const FrameContext& ctx, const RedissonClientFact& c, std::size_t i) {
    const sim::Candidate* cand = i < ctx.scenario.candidates.size() ? &ctx.scenario.candidates[i] : nullptr;
    const bool replayed = ctx.timeline.replayed();
    if (c.renewal_stopped) {
        ImGui::TextUnformatted(ctx.tr("rsp.renewal_stopped"));
    } else if (c.watchdog) {
        const std::string period =
            replayed ? std::string("–") : std::to_string(ctx.scenario.redisson.lock_watchdog_timeout_ms / 3);
        ImGui::TextUnformatted(ctx.strings.tr("rsp.watchdog", {{"period_ms", period}}).c_str());
        if (c.renewed_at != tick_none)
            ImGui::TextDisabled("%s",
                                ctx.strings.tr("rsp.renewed_at", {{"tick", std::to_string(c.renewed_at)}}).c_str());
    } else if (cand != nullptr && !replayed) {
        const std::string lease = std::to_string(cand->options.lease * tick_ms_of(ctx));
        ImGui::TextUnformatted(ctx.strings.tr("rsp.lease", {{"lease_ms", lease}}).c_str());
    }
    if (!holds_key(ctx, c)) ImGui::TextColored(stale_text, "%s", ctx.tr("rsp.stale"));
}

void client_card(const FrameContext& ctx, const RedissonClientFact& c, std::size_t i, const std::string& name) {
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PopFont();
    const SpanKind kind = state_kind(ctx, *ctx.redisson, c, ctx.playhead);
    state_badge(ctx, badge_words(ctx, *ctx.redisson, c, ctx.playhead), kind);
    if (c.paused) badge_beside(ctx.tr("legend.paused"), ctx.palette.of(SpanKind::paused));
    if (!c.token.empty()) ImGui::Text("%s %s", ctx.tr("rsp.field"), short_token(c.token, 8).c_str());
    if (c.state == RedissonClientState::sleeping) sleeping_lines(ctx, c);
    if (c.state == RedissonClientState::holding) holding_lines(ctx, c, i);
    if (c.state == RedissonClientState::finished) {
        static constexpr const char* ends[] = {"rsp.end.none", "rsp.end.unlocked", "rsp.end.gave_up", "rsp.end.failed"};
        ImGui::TextDisabled("%s", ctx.tr(ends[static_cast<std::size_t>(c.end)]));
    }
}

}  // namespace

void draw_redisson_hash_lines(const FrameContext& ctx, const words::RedissonFacts& f, Tick t) {
    const words::RedissonRecordFact& r = f.record;
    // Held in tick t; its PTTL at the tick's end, the time the panels' headings name.
    if (r.token.empty() || words::redisson_pttl_ms(r, t, tick_ms_of(ctx)) <= 0)
        return (void)ImGui::TextDisabled("%s", ctx.tr("rsp.no_key"));
    const std::int64_t left = words::redisson_pttl_ms(r, t + 1, tick_ms_of(ctx));
    owner_swatch(ctx, r.node);
    ImGui::TextUnformatted(
        ctx.strings.tr("rsp.holder", {{"node", r.node}, {"holds", std::to_string(r.holds)}}).c_str());
    ImGui::Text("%s %s", ctx.tr("rsp.field"), short_token(r.token, 8).c_str());
    ImGui::TextUnformatted(ctx.strings
                               .tr("rsp.pttl", {{"left", std::to_string(left)},
                                                {"ttl", std::to_string(r.ttl_ms)},
                                                {"set_at", std::to_string(r.set_at)}})
                               .c_str());
}

void draw_redisson_record(const FrameContext& ctx) {
    const words::RedissonRecordFact& r = ctx.redisson->record;
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(ctx.scenario.lock.name.c_str());
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", state_at_words(ctx.lanes.clock, ctx.playhead, ctx.strings).c_str());
    draw_redisson_hash_lines(ctx, *ctx.redisson, ctx.playhead);
    if (r.jumps_ms != 0)
        ImGui::TextDisabled("%s", ctx.strings
                                      .tr(r.jumps_ms > 0 ? "rsp.clock_ahead" : "rsp.clock_behind",
                                          {{"ms", std::to_string(std::llabs(r.jumps_ms))}})
                                      .c_str());
    ImGui::Separator();
    ImGui::TextDisabled("%s", ctx.tr("rsp.head"));
    ImGui::PopTextWrapPos();
}

void draw_redisson_clients(const FrameContext& ctx) {
    const auto& names = ctx.timeline.trace().header.candidates;
    ImGui::PushTextWrapPos(0.0f);
    for (std::size_t i = 0; i < ctx.redisson->clients.size() && i < names.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        client_card(ctx, ctx.redisson->clients[i], i, names[i]);
        ImGui::PopID();
        ImGui::Separator();
    }
    ImGui::PopTextWrapPos();
}

void draw_redisson_resource_head(const FrameContext& ctx) {
    const words::RedissonFacts& f = *ctx.redisson;
    draw_fenceless_resource_head(ctx, "rsp.resource_mode", f.writes, f.stale, f.unsafe);
}

void draw_redisson_state_badges(const FrameContext& ctx, const sim::Trace& trace, const words::RedissonFacts& f,
                                Tick t) {
    const auto& names = trace.header.candidates;
    for (std::size_t i = 0; i < f.clients.size() && i < names.size(); ++i) {
        const RedissonClientFact& c = f.clients[i];
        ImGui::TextUnformatted(names[i].c_str());
        state_badge(ctx, badge_words(ctx, f, c, t), state_kind(ctx, f, c, t));
        if (c.paused) badge_beside(ctx.tr("legend.paused"), ctx.palette.of(SpanKind::paused));
    }
}

std::vector<ActionInside> redisson_inside(const FrameContext& ctx) {
    std::vector<ActionInside> out;
    const auto& names = ctx.timeline.trace().header.candidates;
    for (std::size_t i = 0; i < ctx.redisson->clients.size() && i < names.size(); ++i) {
        const RedissonClientFact& c = ctx.redisson->clients[i];
        if (c.state != RedissonClientState::holding) continue;
        out.push_back({names[i], !holds_key(ctx, c), std::nullopt});
    }
    return out;
}

}  // namespace leasescope::gui
