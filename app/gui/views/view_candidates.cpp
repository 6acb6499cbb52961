// The candidates at the playhead: a state badge, token and fencing, and what
// each node believes next to what is true ("believes it leads" but STALE).
#include <algorithm>

#include "../core/words.hpp"
#include "redisson_panels.hpp"
#include "redlock_panels.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class CandidatesView final : public View {
public:
    Panel panel() const override { return Panel::candidates; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), ctx.tr("panel.candidates"), 0, &out)) {
            ImGui::End();
            return;
        }
        if (ctx.redlock) {  // the redlock clients (model.md §20.4, §20.5)
            draw_redlock_clients(ctx);
            ImGui::End();
            return;
        }
        if (ctx.redisson) {  // Redisson's clients (model.md §21.3-§21.5)
            draw_redisson_clients(ctx);
            ImGui::End();
            return;
        }
        const auto& nodes = ctx.snap.nodes;
        // Cards differ in height (they wrap): drawn whole up to a screenful of
        // nodes; past that, the clipper draws only the visible ones.
        if (nodes.size() <= 64) {
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                ImGui::PushID(static_cast<int>(i));
                draw_node(ctx, nodes[i]);
                ImGui::PopID();
            }
            ImGui::End();
            return;
        }
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(nodes.size()));
        while (clipper.Step()) {
            for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
                const sim::NodeSnapshot& n = nodes[static_cast<std::size_t>(i)];
                ImGui::PushID(i);
                draw_node(ctx, n);
                ImGui::PopID();
            }
        }
        ImGui::End();
    }

private:
    // The node's latest outcome up to the playhead, with its timeline mark.
    // How far the node's protected action got: a bar in its state's colour.
    static void draw_progress(const FrameContext& ctx, const sim::NodeSnapshot& n, SpanKind kind) {
        const float frac = n.action > 0 ? static_cast<float>(n.progress) / static_cast<float>(n.action) : 0.0f;
        const std::string overlay = ctx.strings.tr(
            "cand.progress", {{"progress", std::to_string(n.progress)}, {"action", std::to_string(n.action)}});
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::ColorConvertU32ToFloat4(col(ctx.palette.of(kind))));
        ImGui::ProgressBar(std::clamp(frac, 0.0f, 1.0f), ImVec2(-1, ImGui::GetFontSize() * 1.1f), overlay.c_str());
        ImGui::PopStyleColor();
    }

    static void draw_last_mark(const FrameContext& ctx, const sim::NodeSnapshot& n) {
        const std::int32_t li = candidate_lane(ctx.lanes, ctx.scenario.find(n.name));
        if (li < 0) return;
        const auto& markers = ctx.lanes.lanes[static_cast<std::size_t>(li)].markers;
        auto it = std::upper_bound(markers.begin(), markers.end(), ctx.playhead,
                                   [](Tick t, const Marker& m) { return t < m.tick; });
        while (it != markers.begin()) {
            --it;
            if (it->kind == MarkerKind::start || it->kind == MarkerKind::acquire_busy) continue;
            const float h = ImGui::GetFontSize();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            draw_marker_shape(ImGui::GetWindowDrawList(), ImVec2(p.x + h * 0.5f, p.y + h * 0.55f), it->kind,
                              col(ctx.palette.of(it->kind)), h * 0.36f);
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine(0, 4);
            const std::string text = ctx.strings.tr(
                "mark.panel.last", {{"tick", std::to_string(it->tick)},
                                    {"mark", ctx.strings.tr(std::string("legend.") + marker_kind_name(it->kind))}});
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", text.c_str());
            ImGui::PopTextWrapPos();
            return;
        }
    }

    // Starts a new row when a badge with `text` no longer fits on this one.
    static void flow_badge(const char* text) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        const float w = ImGui::CalcTextSize(text).x + 14;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    }

    static void draw_node(const FrameContext& ctx, const sim::NodeSnapshot& n) {
        const SpanKind kind = span_kind_of(n.status);
        // Every line wraps at the panel's edge: a narrow panel (a small window,
        // a large UI scale) makes the card taller, never cut.
        ImGui::PushTextWrapPos(0.0f);
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(n.name.c_str());
        ImGui::PopFont();
        const std::string status = status_words(n.status, ctx.strings);
        flow_badge(status.c_str());
        badge(status.c_str(), ctx.palette.of(kind),
              kind == SpanKind::waiting || kind == SpanKind::idle || kind == SpanKind::done ? ctx.palette.text
                                                                                            : Rgba{255, 255, 255, 255});
        if (n.paused) {
            flow_badge(ctx.tr("legend.paused"));
            badge(ctx.tr("legend.paused"), ctx.palette.of(SpanKind::paused));
        }
        if (n.partition) {
            flow_badge(ctx.tr("legend.partition_short"));
            badge(ctx.tr("legend.partition_short"), ctx.palette.of(SpanKind::partition_requests));
        }
        ImGui::Text("%s %s   %s %s", ctx.tr("record.token"), short_token(n.token, 6).c_str(), ctx.tr("record.fencing"),
                    n.fencing ? std::to_string(*n.fencing).c_str() : "–");
        if (n.status == sim::NodeStatus::running || n.status == sim::NodeStatus::stale) {
            // Belief against truth: the node cannot see that its lease is gone.
            ImGui::TextUnformatted(ctx.tr("cand.believes_leader"));
            if (n.status == sim::NodeStatus::stale) {
                ImGui::TextColored(ImVec4(0.92f, 0.0f, 0.31f, 1), "%s", ctx.tr("cand.truth_stale"));
            } else {
                ImGui::TextColored(ImVec4(0.13f, 0.55f, 0.3f, 1), "%s", ctx.tr("cand.truth_valid"));
            }
            // A replayed history knows no action's length: no progress to show (model.md §19.9).
            if (!ctx.timeline.replayed()) draw_progress(ctx, n, kind);
        } else if (n.last_result) {
            ImGui::TextDisabled(
                "%s", ctx.strings
                          .tr("cand.last_result",
                              {{"result", ctx.strings.tr(std::string("result.") + to_string(*n.last_result))}})
                          .c_str());
        }
        draw_last_mark(ctx, n);
        if (n.watchdog) {
            ImGui::TextColored(ImVec4(0.08f, 0.55f, 0.59f, 1), "%s", ctx.tr("cand.watchdog"));
        }
        ImGui::PopTextWrapPos();
        ImGui::Separator();
    }
};

}  // namespace

std::unique_ptr<View> make_candidates_view() { return std::make_unique<CandidatesView>(); }

}  // namespace leasescope::gui
