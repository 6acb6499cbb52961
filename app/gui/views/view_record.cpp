// The Redis record at the playhead, drawn as a conceptual record: one card per
// slot (owner, token, fencing, TTL left, expires at), the fencing counter and
// the hold-off marker.
#include <algorithm>
#include <optional>

#include "../core/words.hpp"
#include "redisson_panels.hpp"
#include "redlock_panels.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

// The last failover up to the playhead and the highest fencing number issued
// before it (what a counter reset threw away).
struct FailoverFact {
    std::int64_t event = -1;
    Tick tick = 0;
    bool lost_all = false;
    bool promoted = false;  // a replica promoted (model.md §17.3)
    std::optional<Fencing> issued_before;
};

FailoverFact last_failover(const sim::Trace& trace, std::size_t end) {
    FailoverFact f;
    std::optional<Fencing> highest;
    for (std::size_t k = 0; k < end && k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        if (e.op == sim::EventOp::acquire && e.fencing) highest = std::max(highest.value_or(*e.fencing), *e.fencing);
        if (e.op != sim::EventOp::failover) continue;
        f.event = static_cast<std::int64_t>(k);
        f.tick = e.tick;
        f.lost_all = e.details.has(sim::Detail::all);
        f.promoted = e.server.has_value();
        f.issued_before = highest;
    }
    return f;
}

class RecordView final : public View {
public:
    Panel panel() const override { return Panel::record; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), ctx.tr("panel.record"), 0, &out)) {
            ImGui::End();
            return;
        }
        if (ctx.redlock) {  // N independent stores, one key each (model.md §20)
            draw_redlock_stores(ctx);
            ImGui::End();
            return;
        }
        if (ctx.redisson) {  // one hash with a hold count, no fencing counter (model.md §21.2)
            draw_redisson_record(ctx);
            ImGui::End();
            return;
        }
        const sim::Snapshot& snap = ctx.snap;
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(ctx.scenario.lock.name.c_str());
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0.0f);  // with its time the line may not fit a narrow panel
        ImGui::TextDisabled("%s", state_at_words(ctx.lanes.clock, snap.tick, ctx.strings).c_str());
        ImGui::PopTextWrapPos();
        draw_store_wide(ctx);
        ImGui::Separator();
        ImGui::Spacing();
        std::size_t shown = 0;
        for (std::size_t i = 0; i < snap.slots.size(); ++i) {
            if (shown >= 12) {
                ImGui::TextDisabled(
                    "%s", ctx.strings.tr("record.more_slots", {{"count", std::to_string(snap.slots.size() - shown)}})
                              .c_str());
                break;
            }
            ++shown;
            draw_slot_card(ctx, i);
        }
        ImGui::End();
    }

private:
    // The store-wide part first (the counter, what a failover did, the
    // hold-off): it tells the fencing lesson and must not scroll away.
    static void draw_store_wide(const FrameContext& ctx) {
        const sim::Snapshot& snap = ctx.snap;
        const Tick t = snap.tick;
        ImGui::PushTextWrapPos(0.0f);
        ImGui::Text("%s  %lld", ctx.tr("record.counter"), static_cast<long long>(snap.counter));
        // The note beside the counter when it fits, else under it (wrapped).
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x +
                ImGui::CalcTextSize(ctx.tr("record.counter_note")).x <=
            right)
            ImGui::SameLine();
        ImGui::TextDisabled("%s", ctx.tr("record.counter_note"));
        draw_failover(ctx);
        draw_servers(ctx);
        if (snap.holdoff_until != tick_none && t < snap.holdoff_until) {
            ImGui::TextColored(ImVec4(0.78f, 0.55f, 0.15f, 1), "%s",
                               ctx.strings
                                   .tr("record.holdoff_until", {{"until", std::to_string(snap.holdoff_until)},
                                                                {"left", std::to_string(snap.holdoff_until - t)}})
                                   .c_str());
        } else {
            ImGui::Text("%s  —", ctx.tr("record.holdoff"));
        }
        ImGui::PopTextWrapPos();
    }

    // With replicas (model.md §17): each server's copy, counter and link at the playhead.
    static void draw_servers(const FrameContext& ctx) {
        const std::vector<std::string> lines = words::server_lines(ctx.snap, ctx.strings);
        if (lines.empty()) return;
        ImGui::TextDisabled("%s", ctx.tr("record.servers"));
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const sim::ServerSnapshot& sv = ctx.snap.servers[k];
            const bool cut = sv.role == sim::ServerRole::replica && !sv.linked;
            if (cut)
                ImGui::TextColored(ImVec4(0.45f, 0.45f, 0.5f, 1), "%s", lines[k].c_str());
            else
                ImGui::TextUnformatted(lines[k].c_str());
        }
    }

    // One slot's card. It is as tall as its wrapped lines: its words are
    // drawn first (channel 1), the card under them once their height is known.
    static void draw_slot_card(const FrameContext& ctx, std::size_t i) {
        const SlotRecord& r = ctx.snap.slots[i];
        const bool valid = r.valid_at(ctx.snap.tick);
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float w = ImGui::GetContentRegionAvail().x;
        ImGui::PushID(static_cast<int>(i));
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->ChannelsSplit(2);
        dl->ChannelsSetCurrent(1);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 8, p.y + 4));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w - 16);
        ImGui::BeginGroup();
        const std::string slot_title = ctx.strings.tr("lane.slot", {{"slot", std::to_string(i)}});
        if (!valid)
            ImGui::Text("%s  —  %s", slot_title.c_str(), ctx.tr("record.vacant"));
        else
            draw_slot_words(ctx, r, slot_title, p.x + w - 8, w);
        ImGui::EndGroup();
        ImGui::PopTextWrapPos();
        const float card_h = ImGui::GetItemRectMax().y - p.y + 6;
        dl->ChannelsSetCurrent(0);
        dl->AddRectFilled(p, ImVec2(p.x + w, p.y + card_h),
                          valid ? col(ctx.palette.of(SpanKind::record), 0.10f) : IM_COL32(240, 240, 240, 255), 6.0f);
        dl->AddRect(p, ImVec2(p.x + w, p.y + card_h),
                    valid ? col(ctx.palette.of(SpanKind::record)) : col(ctx.palette.grid), 6.0f, 0, 1.5f);
        dl->ChannelsMerge();
        ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + card_h + 6));
        ImGui::PopID();
    }

    // A held slot: its owner (beside the title when it fits, up to `right`),
    // token and fencing number, the TTL in words and as a draining bar.
    static void draw_slot_words(const FrameContext& ctx, const SlotRecord& r, const std::string& slot_title,
                                float right, float w) {
        const Tick t = ctx.snap.tick;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        ImGui::Text("%s", slot_title.c_str());
        const std::string owner = std::string(ctx.tr("record.owner")) + " " + r.owner;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(owner.c_str()).x <= right)
            ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.16f, 0.43f, 0.75f, 1), "%s %s", ctx.tr("record.owner"), r.owner.c_str());
        ImGui::Text("%s %s    %s %lld", ctx.tr("record.token"), short_token(r.token, 8).c_str(),
                    ctx.tr("record.fencing"), static_cast<long long>(r.fencing));
        const Tick left = r.expires_at - t;
        // What is left of the TTL its last acquisition or renewal set, and when: numbers the
        // event table shows (the span since the acquisition mixed a renewed lease with the first).
        const std::size_t end = ctx.timeline.first_event_at_or_after(t + 1);
        const auto set = ttl_set(ctx.timeline.trace(), end, r.token);
        const Tick lease_total = std::max<Tick>(1, set ? set->ttl : r.expires_at - r.acquired_at);
        ImGui::TextUnformatted(ttl_words(ctx.timeline.trace(), end, r, t, ctx.strings).c_str());
        // The same in time, for a lease set in seconds.
        const std::optional<Tick> set_ttl = set ? std::optional<Tick>(set->ttl) : std::nullopt;
        ImGui::TextDisabled("%s", ttl_time_words(ctx.lanes.clock, left, set_ttl, r.expires_at, ctx.strings).c_str());
        const ImVec2 bp = ImGui::GetCursorScreenPos();
        const float bw = w - 16;
        const float frac = std::clamp(static_cast<float>(left) / static_cast<float>(lease_total), 0.0f, 1.0f);
        dl->AddRectFilled(bp, ImVec2(bp.x + bw, bp.y + 8), IM_COL32(210, 214, 220, 255), 4.0f);
        dl->AddRectFilled(bp, ImVec2(bp.x + bw * frac, bp.y + 8),
                          col(left <= 1 ? ctx.palette.of(MarkerKind::expire) : ctx.palette.of(SpanKind::running)),
                          4.0f);
        ImGui::Dummy(ImVec2(bw, 10));
    }

    // After a failover the panel says what the store lost, with the failover's
    // mark: the leases, or the counter too (then the number shown was reset).
    static void draw_failover(const FrameContext& ctx) {
        const std::size_t end = ctx.timeline.first_event_at_or_after(ctx.playhead + 1);
        const FailoverFact f = last_failover(ctx.timeline.trace(), end);
        if (f.event < 0) return;
        const MarkerKind kind = f.promoted   ? MarkerKind::promote
                                : f.lost_all ? MarkerKind::failover_all
                                             : MarkerKind::failover_leases;
        const float h = ImGui::GetFontSize();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw_marker_shape(ImGui::GetWindowDrawList(), ImVec2(p.x + h * 0.5f, p.y + h * 0.6f), kind,
                          col(ctx.palette.of(kind)), h * 0.42f);
        ImGui::Dummy(ImVec2(h, h));
        ImGui::SameLine();
        const std::string was = f.issued_before ? std::to_string(*f.issued_before) : "–";
        const std::string text =
            f.promoted   ? describe_event(ctx.timeline.trace().events[static_cast<std::size_t>(f.event)], ctx.strings,
                                          ctx.timeline.trace().header)
            : f.lost_all ? ctx.strings.tr("mark.panel.counter_reset", {{"tick", std::to_string(f.tick)}, {"was", was}})
                         : ctx.strings.tr("mark.panel.failover_leases", {{"tick", std::to_string(f.tick)}});
        const ImVec4 c = ImGui::ColorConvertU32ToFloat4(col(ctx.palette.of(kind)));
        ImGui::TextColored(c, "%s", text.c_str());
    }
};

}  // namespace

std::unique_ptr<View> make_record_view() { return std::make_unique<RecordView>(); }

}  // namespace leasescope::gui
