// The protected action boundary: who is inside it at the playhead, and
// whether each one still holds a current token (valid) or not (stale).
#include "../core/words.hpp"
#include <algorithm>

#include "redisson_panels.hpp"
#include "redlock_panels.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class ActionView final : public View {
public:
    Panel panel() const override { return Panel::action; }

    // Who is inside: the electors' snapshot, a Redlock run's working clients
    // (model.md §20.6) or a Redisson run's holding ones (§21.6).
    static std::vector<ActionInside> inside_nodes(const FrameContext& ctx) {
        if (ctx.redlock) return redlock_inside(ctx);
        if (ctx.redisson) return redisson_inside(ctx);
        std::vector<ActionInside> nodes;
        for (const auto& n : ctx.snap.nodes)
            if (n.status == sim::NodeStatus::running || n.status == sim::NodeStatus::stale)
                nodes.push_back({n.name, n.status == sim::NodeStatus::stale, n.fencing});
        return nodes;
    }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), ctx.tr("panel.action"), 0, &out)) {
            ImGui::End();
            return;
        }
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const std::vector<ActionInside> nodes = inside_nodes(ctx);
        const int inside = static_cast<int>(nodes.size());
        const int stale =
            static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const ActionInside& n) { return n.stale; }));
        // The boundary is a box; its border turns to the stale colour when a
        // stale node is inside or more nodes act than the lock allows.
        const bool overlap = inside > ctx.scenario.lock.capacity;
        const SpanKind frame = action_frame_kind(inside, stale, ctx.scenario.lock.capacity);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const ImU32 border = col(ctx.palette.of(frame));
        // The words first (channel 1), the box around them after (channel 0):
        // at least the panel's height, taller when the words need it (the panel scrolls).
        dl->ChannelsSplit(2);
        dl->ChannelsSetCurrent(1);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 10, p.y + 8));
        ImGui::BeginGroup();
        ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x - 12);  // window-local x
        if (inside == 0) {
            ImGui::TextDisabled("%s", ctx.tr("action.empty"));
        }
        int listed = 0;
        for (const ActionInside& n : nodes) {
            if (++listed > 6) {
                ImGui::TextDisabled("…");
                break;
            }
            const bool is_stale = n.stale;
            // Redlock issues no number (rule 20.6): its lines name none.
            const char* key = is_stale ? "action.inside_stale" : "action.inside_valid";
            if (ctx.redlock) key = is_stale ? "rlp.inside_stale" : "rlp.inside_valid";
            if (ctx.redisson) key = is_stale ? "rsp.inside_stale" : "rsp.inside_valid";
            const std::string text =
                ctx.strings.tr(key, {{"node", n.name}, {"fencing", n.fencing ? std::to_string(*n.fencing) : "–"}});
            badge(text.c_str(), ctx.palette.of(is_stale ? SpanKind::stale : SpanKind::running));
        }
        if (overlap) {
            ImGui::TextColored(
                ImVec4(0.92f, 0.0f, 0.31f, 1), "%s",
                ctx.strings
                    .tr(ctx.redlock    ? "rlp.overlap"
                        : ctx.redisson ? "rsp.overlap"
                                       : "action.overlap",
                        {{"count", std::to_string(inside)}, {"capacity", std::to_string(ctx.scenario.lock.capacity)}})
                    .c_str());
        }
        ImGui::PopTextWrapPos();
        ImGui::EndGroup();
        const float box_h = std::max(avail.y - 2, ImGui::GetItemRectMax().y - p.y + 8);
        dl->ChannelsSetCurrent(0);
        dl->AddRect(p, ImVec2(p.x + avail.x, p.y + box_h), border, 8.0f, 0, frame == SpanKind::stale ? 4.0f : 2.0f);
        dl->ChannelsMerge();
        ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + box_h));
        ImGui::Dummy(ImVec2(1, 2));
        ImGui::End();
    }
};

}  // namespace

std::unique_ptr<View> make_action_view() { return std::make_unique<ActionView>(); }

}  // namespace leasescope::gui
