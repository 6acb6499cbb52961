// The side panels' Redlock parts (redlock_panels.hpp).
#include "redlock_panels.hpp"

#include <algorithm>

namespace leasescope::gui {
namespace {

using words::RedlockClientState;

std::int32_t quorum_of(const FrameContext& ctx) {
    return static_cast<std::int32_t>(ctx.redlock->stores.size() / 2 + 1);
}

std::string stores_count(const FrameContext& ctx, std::int32_t held) {
    return ctx.strings.tr("rlp.holds", {{"held", std::to_string(held)},
                                        {"stores", std::to_string(ctx.redlock->stores.size())},
                                        {"quorum", std::to_string(quorum_of(ctx))}});
}

void draw_store_card(const FrameContext& ctx, std::size_t s) {
    const words::RedlockStoreFact& st = ctx.redlock->stores[s];
    const auto& names = ctx.timeline.trace().header.stores;
    const std::string name = s < names.size() ? names[s] : std::to_string(s);
    const std::int64_t tick_ms = ctx.timeline.trace().header.tick_ms;
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(ctx.strings.tr("lane.store", {{"store", name}}).c_str());
    ImGui::PopFont();
    if (st.down) {
        ImGui::SameLine();
        badge(ctx.tr("rlp.down"), ctx.palette.of(SpanKind::crashed));
    }
    if (st.jumps_ms != 0)
        ImGui::TextDisabled("%s", ctx.strings
                                      .tr(st.jumps_ms > 0 ? "rlp.clock_ahead" : "rlp.clock_behind",
                                          {{"ms", std::to_string(std::llabs(st.jumps_ms))}})
                                      .c_str());
    if (st.token.empty()) {
        ImGui::TextDisabled("%s", ctx.tr("rlp.no_key"));
        return;
    }
    owner_swatch(ctx, st.node);
    ImGui::Text("%s %s   %s %s", ctx.tr("record.owner"), st.node.c_str(), ctx.tr("record.token"),
                short_token(st.token, 6).c_str());
    const std::int64_t left = words::redlock_ttl_left_ms(st, ctx.playhead, tick_ms);
    ImGui::TextUnformatted(ctx.strings
                               .tr("rlp.ttl_left", {{"left", std::to_string(left)},
                                                    {"ttl", std::to_string(st.ttl_ms)},
                                                    {"store", name},
                                                    {"set_at", std::to_string(st.set_at)}})
                               .c_str());
}

}  // namespace

void draw_redlock_stores(const FrameContext& ctx) {
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(ctx.scenario.lock.name.c_str());
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", state_at_words(ctx.lanes.clock, ctx.playhead, ctx.strings).c_str());
    ImGui::TextUnformatted(ctx.strings
                               .tr("rlp.stores_head", {{"stores", std::to_string(ctx.redlock->stores.size())},
                                                       {"quorum", std::to_string(quorum_of(ctx))}})
                               .c_str());
    ImGui::Separator();
    for (std::size_t s = 0; s < ctx.redlock->stores.size(); ++s) {
        ImGui::PushID(static_cast<int>(s));
        draw_store_card(ctx, s);
        ImGui::PopID();
        ImGui::Spacing();
    }
    ImGui::PopTextWrapPos();
}

void draw_redlock_clients(const FrameContext& ctx) {
    const auto& names = ctx.timeline.trace().header.candidates;
    ImGui::PushTextWrapPos(0.0f);
    for (std::size_t i = 0; i < ctx.redlock->clients.size() && i < names.size(); ++i) {
        const words::RedlockClientFact& c = ctx.redlock->clients[i];
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(names[i].c_str());
        ImGui::PopFont();
        const std::int32_t held = words::redlock_holders(*ctx.redlock, c.token);
        const bool working = c.state == RedlockClientState::working || c.state == RedlockClientState::releasing;
        const bool stale = working && held < quorum_of(ctx);
        SpanKind kind = SpanKind::idle;
        if (working) kind = stale ? SpanKind::stale : SpanKind::running;
        if (c.state == RedlockClientState::locking || c.state == RedlockClientState::unlocking ||
            c.state == RedlockClientState::retrying)
            kind = SpanKind::waiting;
        if (c.state == RedlockClientState::crashed) kind = SpanKind::crashed;
        state_badge(ctx, ctx.strings.tr(std::string("rlp.state.") + words::to_string(c.state)), kind);
        if (c.paused) badge_beside(ctx.tr("legend.paused"), ctx.palette.of(SpanKind::paused));
        if (!c.token.empty()) {
            ImGui::Text("%s %s", ctx.tr("record.token"), short_token(c.token, 6).c_str());
            ImGui::TextUnformatted(stores_count(ctx, held).c_str());
        }
        if (stale) ImGui::TextColored(ImVec4(0.92f, 0.0f, 0.31f, 1), "%s", ctx.tr("rlp.stale"));
        ImGui::Separator();
    }
    ImGui::PopTextWrapPos();
}

void owner_swatch(const FrameContext& ctx, const std::string& node) {
    std::int32_t owner = -1;
    const auto& clients = ctx.timeline.trace().header.candidates;
    if (const auto it = std::find(clients.begin(), clients.end(), node); it != clients.end())
        owner = static_cast<std::int32_t>(it - clients.begin());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFontSize();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 0.6f, p.y + h * 0.8f),
                                              col(ctx.palette.owner(owner)), 2.0f);
    ImGui::Dummy(ImVec2(h * 0.6f, h));
    ImGui::SameLine(0, 6);
}

void badge_beside(const char* text, const Rgba& fill, const Rgba& text_color) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(text).x + 14) ImGui::NewLine();  // badge's padding
    badge(text, fill, text_color);
}

void state_badge(const FrameContext& ctx, const std::string& state, SpanKind kind) {
    badge_beside(state.c_str(), ctx.palette.of(kind),
                 kind == SpanKind::waiting || kind == SpanKind::idle ? ctx.palette.text : Rgba{255, 255, 255, 255});
}

void draw_fenceless_resource_head(const FrameContext& ctx, const char* mode_key, std::int64_t writes,
                                  std::int64_t stale, std::int64_t unsafe) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(ctx.tr(mode_key));
    ImGui::Text(
        "%s",
        ctx.strings.tr("rlp.resource_counts", {{"writes", std::to_string(writes)}, {"stale", std::to_string(stale)}})
            .c_str());
    if (unsafe > 0)
        ImGui::TextColored(ImVec4(0.92f, 0.0f, 0.31f, 1), "%s",
                           ctx.strings.tr("resource.unsafe", {{"count", std::to_string(unsafe)}}).c_str());
    ImGui::PopTextWrapPos();
}

void draw_redlock_resource_head(const FrameContext& ctx) {
    const words::RedlockFacts& f = *ctx.redlock;
    draw_fenceless_resource_head(ctx, "rlp.resource_mode", f.writes, f.stale, f.unsafe);
}

// An unlock's answer, as its mark tells it (redlock_lanes.cpp store_answer_kind).
static const char* unlock_answer_key(const sim::Event& e, int mark) {
    if (e.outcome == sim::Outcome::released) return "rlp.answer.unlock_yes";
    if (e.outcome == sim::Outcome::error) return "rlp.answer.unlock_down";
    return mark == static_cast<int>(MarkerKind::release_no_key) ? "rlp.answer.unlock_no_key"
                                                                : "rlp.answer.unlock_left_alone";
}

std::string redlock_outcome_words(const FrameContext& ctx, const sim::Event& e, int mark) {
    // A write (rule 20.6): unsafe while another client holds a quorum, not "lower than accepted".
    if (e.op == sim::EventOp::write && e.details.has(sim::Detail::unsafe_write))
        return ctx.strings.tr("rlp.answer.write_unsafe");
    const auto& stores = ctx.timeline.trace().header.stores;
    if (!e.server || static_cast<std::size_t>(*e.server) >= stores.size()) return {};
    const Fields store{{"store", stores[static_cast<std::size_t>(*e.server)]}};
    std::string words;
    if (e.op == sim::EventOp::acquire)
        words = ctx.strings.tr(e.outcome == sim::Outcome::acquired ? "rlp.answer.lock_yes"
                               : e.outcome == sim::Outcome::error  ? "rlp.answer.lock_down"
                                                                   : "rlp.answer.lock_no");
    else if (e.op == sim::EventOp::release)
        words = ctx.strings.tr(unlock_answer_key(e, mark));
    else
        words = outcome_words(e, ctx.strings, ctx.timeline.trace().header.capacity);
    return words + " " + ctx.strings.tr("rlp.at_store", store);
}

std::vector<ActionInside> redlock_inside(const FrameContext& ctx) {
    std::vector<ActionInside> out;
    const auto& names = ctx.timeline.trace().header.candidates;
    for (std::size_t i = 0; i < ctx.redlock->clients.size() && i < names.size(); ++i) {
        const words::RedlockClientFact& c = ctx.redlock->clients[i];
        if (c.state != RedlockClientState::working && c.state != RedlockClientState::releasing) continue;
        out.push_back({names[i], words::redlock_holders(*ctx.redlock, c.token) < quorum_of(ctx), std::nullopt});
    }
    return out;
}

}  // namespace leasescope::gui
