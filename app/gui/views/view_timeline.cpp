// The timeline: one lane per candidate, per store slot, the hold-off, the
// resource and the third-party ops. Wheel zooms around the mouse, dragging
// pans, dragging in the ruler moves the playhead, right-click injects faults.
// Its drawing pieces (legend, ruler, playhead, spans, words): timeline_paint.cpp.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "../core/cull.hpp"
#include "../core/lane_layout.hpp"
#include "../core/marks.hpp"
#include "../core/words.hpp"
#include "timeline_paint.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

const char* lane_title(const FrameContext& ctx, const Lane& lane, std::string& buf) {
    switch (lane.kind) {
        case LaneKind::candidate: return lane.label.c_str();
        case LaneKind::slot:
            buf = ctx.strings.tr("lane.slot", {{"slot", std::to_string(lane.index)}});
            return buf.c_str();
        case LaneKind::holdoff: return ctx.tr("lane.holdoff");
        case LaneKind::resource: return ctx.tr("lane.resource");
        case LaneKind::ops: return lane.label.empty() ? ctx.tr("lane.ops") : lane.label.c_str();  // the actors
    }
    return "";
}

class TimelineView final : public View {
public:
    const char* id() const override { return "timeline"; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, id(), ctx.tr("panel.timeline"),
                         ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
            ImGui::End();
            return;
        }
        legend_.draw(ctx);
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float ui = ctx.scale;
        const float label_w = std::min(150.0f * ui, std::max(100.0f * ui, avail.x * 0.12f));
        const float ruler_h = ImGui::GetFontSize() + 10;
        const float plot_x = origin.x + label_w;
        const float plot_w = std::max(50.0f, avail.x - label_w);
        const float lanes_y = origin.y + ruler_h;
        const float lanes_h = std::max(40.0f, avail.y - ruler_h);
        const auto n_lanes = static_cast<int>(ctx.lanes.lanes.size());
        const float lane_h = std::clamp(lanes_h / static_cast<float>(std::max(1, n_lanes)), 20.0f * ui, 50.0f * ui);
        const float content_h = lane_h * static_cast<float>(n_lanes);
        scroll_y_ = std::clamp(scroll_y_, 0.0f, std::max(0.0f, content_h - lanes_h));

        if (!initialised_ || fit_generation_ != ctx.fit_generation) {
            axis_ = fit_axis(0, ctx.lanes.end_tick + 1, plot_x, plot_w);
            fit_generation_ = ctx.fit_generation;
            initialised_ = true;
            scroll_y_ = 0;
        }
        // Keep the tick under the left edge when the panel moves or resizes.
        axis_.left_px = plot_x;
        axis_.width_px = plot_w;

        // Interaction surface over ruler and lanes.
        ImGui::SetCursorScreenPos(origin);
        ImGui::InvisibleButton("##timeline_area", ImVec2(avail.x, ruler_h + lanes_h),
                               ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
        const bool hovered = ImGui::IsItemHovered();
        const ImGuiIO& io = ImGui::GetIO();
        const ImVec2 mouse = io.MousePos;
        const bool in_ruler = mouse.y < lanes_y;
        const bool in_plot = mouse.x >= plot_x;

        if (hovered && io.MouseWheel != 0.0f) {
            if (io.KeyShift) {
                scroll_y_ =
                    std::clamp(scroll_y_ - io.MouseWheel * lane_h * 2, 0.0f, std::max(0.0f, content_h - lanes_h));
            } else {
                axis_ = zoom_axis(axis_, std::pow(1.25, static_cast<double>(io.MouseWheel)), std::max(mouse.x, plot_x));
            }
        }
        if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) scrubbing_ = in_ruler && in_plot;
        if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            if (scrubbing_) {
                const auto t = static_cast<Tick>(std::floor(axis_.tick_at(mouse.x)));
                out.push_back(command::Seek{std::clamp<Tick>(t, 0, ctx.lanes.end_tick)});
            } else if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
                const ImVec2 d = io.MouseDelta;
                axis_.first_tick -= static_cast<double>(d.x) / axis_.px_per_tick;
                scroll_y_ = std::clamp(scroll_y_ - d.y, 0.0f, std::max(0.0f, content_h - lanes_h));
                dragged_ = true;
            }
        }
        if (ImGui::IsItemDeactivated()) {
            // A click without a drag seeks there and selects the event under the mouse.
            if (!dragged_ && !scrubbing_ && in_plot) {
                if (hover_event_ >= 0) {
                    out.push_back(command::SelectEvent{hover_event_});
                } else {
                    const auto t = static_cast<Tick>(std::floor(axis_.tick_at(mouse.x)));
                    out.push_back(command::Seek{std::clamp<Tick>(t, 0, ctx.lanes.end_tick)});
                }
            }
            dragged_ = false;
            scrubbing_ = false;
        }

        const ImVec2 clip_a(origin.x, origin.y);
        const ImVec2 clip_b(origin.x + std::floor(avail.x), std::floor(lanes_y + lanes_h));
        // Ruler, lanes, spans, markers and labels go to `sdl`. With an
        // offscreen service that is a list of the view's own, rendered into a
        // texture only when its picture changes, and the frame draws the image;
        // what changes with the playhead (the state squares, the veil, the
        // playhead) is drawn over it every frame.
        ImDrawList* sdl = dl;
        bool veiled = false;
        if (ctx.offscreen) {
            if (!static_list_) static_list_ = std::make_unique<ImDrawList>(ImGui::GetDrawListSharedData());
            sdl = static_list_.get();
            sdl->_ResetForNewFrame();
            sdl->PushClipRectFullScreen();
            sdl->PushTextureID(ImGui::GetIO().Fonts->TexID);
            const CacheKey key{ctx.timeline_generation,
                               ctx.lang(),
                               axis_.first_tick,
                               axis_.px_per_tick,
                               scroll_y_,
                               clip_a.x,
                               clip_a.y,
                               clip_b.x,
                               clip_b.y};
            if (!cache_texture_ || !(key == cache_key_)) {
                cache_texture_ =
                    ctx.offscreen->render(0, *sdl, clip_a, ImVec2(clip_b.x - clip_a.x, clip_b.y - clip_a.y));
                cache_key_ = key;
                ++cache_renders_;
            }
            if (cache_texture_) {
                // The future is veiled (see below): here by drawing that part of
                // the image at 65 % over the panel's background, rather than a
                // translucent rectangle over the image, which would fill those
                // pixels twice.
                const float veil_x = std::clamp(static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0)),
                                                plot_x, clip_b.x);
                const float veil_y = std::clamp(lanes_y, clip_a.y, clip_b.y);
                const auto uv = [&](float x, float y) {
                    return ImVec2((x - clip_a.x) / (clip_b.x - clip_a.x),
                                  1.0f - (y - clip_a.y) / (clip_b.y - clip_a.y));
                };
                const auto part = [&](ImVec2 a, ImVec2 b, ImU32 tint) {
                    if (b.x > a.x && b.y > a.y) dl->AddImage(cache_texture_, a, b, uv(a.x, a.y), uv(b.x, b.y), tint);
                };
                part(clip_a, ImVec2(clip_b.x, veil_y), IM_COL32_WHITE);
                part(ImVec2(clip_a.x, veil_y), ImVec2(veil_x, clip_b.y), IM_COL32_WHITE);
                part(ImVec2(veil_x, veil_y), clip_b, IM_COL32(255, 255, 255, 165));
                veiled = true;
            } else {
                sdl = dl;  // no framebuffer: draw directly, as without the service
            }
        }
        sdl->PushClipRect(clip_a, clip_b, true);
        if (sdl != dl) dl->PushClipRect(clip_a, clip_b, true);
        draw_ruler(ctx, sdl, axis_, origin, plot_x, plot_w, ruler_h);

        // Lanes.
        sdl->PushClipRect(ImVec2(origin.x, lanes_y), clip_b, true);
        if (sdl != dl) dl->PushClipRect(ImVec2(origin.x, lanes_y), clip_b, true);
        hover_event_ = -1;
        std::string hover_text;
        int hover_lane = -1;
        const int first_lane = std::max(0, static_cast<int>(scroll_y_ / lane_h));
        const int last_lane = std::min(n_lanes - 1, static_cast<int>((scroll_y_ + lanes_h) / lane_h));
        // The overlap band sits behind the candidate lanes.
        if (!ctx.lanes.overlap.empty() && ctx.lanes.candidate_lanes > 0) {
            spans_.clear();
            cull_spans(ctx.lanes.overlap, axis_, 2.0f, spans_);
            const float y0 = lanes_y - scroll_y_;
            const float y1 = y0 + lane_h * static_cast<float>(ctx.lanes.candidate_lanes);
            for (DrawSpan d : spans_) {
                d.x0 = std::max(d.x0, plot_x);
                d.x1 = std::min(d.x1, plot_x + plot_w);
                if (d.x1 <= d.x0) continue;
                // A pale band behind the lanes and a solid strip under the ruler (see the legend).
                sdl->AddRectFilled(ImVec2(d.x0, y0), ImVec2(d.x1, y1), col(ctx.palette.of(SpanKind::stale), 0.10f));
                sdl->AddRectFilled(ImVec2(d.x0, lanes_y), ImVec2(d.x1, lanes_y + 4),
                                   col(ctx.palette.of(SpanKind::stale)));
            }
        }
        // Where every mark and word goes (core/lane_layout.hpp): nothing overlaps.
        LayoutFrame lf;
        lf.axis = axis_;
        lf.plot_x = plot_x;
        lf.plot_w = plot_w;
        lf.lanes_top = lanes_y - scroll_y_;
        lf.lane_h = lane_h;
        lf.first_lane = first_lane;
        lf.last_lane = last_lane;
        lf.resource_until = ctx.playhead;
        lf.scale = ui;
        layout_lanes(ctx.lanes, lf, ctx.strings, metrics(ctx), layout_);
        std::string buf;
        for (int li = first_lane; li <= last_lane; ++li) {
            const Lane& lane = ctx.lanes.lanes[static_cast<std::size_t>(li)];
            const float y = lanes_y + lane_h * static_cast<float>(li) - scroll_y_;
            const bool lane_hovered = hovered && !in_ruler && mouse.y >= y && mouse.y < y + lane_h;
            if (lane_hovered) hover_lane = li;
            // The resource lane tells only what the resource panel counts, so it
            // ends at the playhead and is drawn with the playhead's layer.
            const bool resource = lane.kind == LaneKind::resource;
            ImDrawList* ldl = resource ? dl : sdl;
            // Background stripe and a separator before the store lanes.
            const bool store_part = lane.kind != LaneKind::candidate;
            // Every other lane gets a stripe; the rest shows the panel behind
            // (fewer filled pixels for a software renderer).
            if (store_part || li % 2)
                sdl->AddRectFilled(ImVec2(origin.x, y), ImVec2(plot_x + plot_w, y + lane_h),
                                   col(store_part ? Rgba{232, 238, 246, 255} : ctx.palette.lane_odd));
            if (li == ctx.lanes.candidate_lanes)
                sdl->AddLine(ImVec2(origin.x, y), ImVec2(plot_x + plot_w, y), col(ctx.palette.text_dim), 2.0f);
            // Label with the node's current state colour.
            const char* title = lane_title(ctx, lane, buf);
            float tx = origin.x + 6;
            if (lane.kind == LaneKind::candidate && static_cast<std::size_t>(lane.index) < ctx.snap.nodes.size()) {
                const auto& node = ctx.snap.nodes[static_cast<std::size_t>(lane.index)];
                const Rgba c = ctx.palette.of(span_kind_of(node.status));
                dl->AddRectFilled(ImVec2(tx, y + lane_h * 0.25f), ImVec2(tx + 6, y + lane_h * 0.75f), col(c), 2.0f);
                tx += 11;
            }
            sdl->AddText(ImVec2(tx, y + (lane_h - ImGui::GetFontSize()) * 0.5f), col(ctx.palette.text), title);

            // No clip rectangle per lane (each would be its own draw call):
            // spans are clamped to the plot and markers outside it skipped.
            const float pad = std::max(2.0f, lane_h * 0.14f);
            const float y0 = y + pad, y1 = y + lane_h - pad;
            const float resource_end = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
            // Main spans.
            spans_.clear();
            cull_spans(lane.spans, axis_, 3.0f, spans_);
            for (DrawSpan d : spans_) {
                const Span& sp = lane.spans[static_cast<std::size_t>(d.span)];
                d.x0 = std::max(d.x0, plot_x);
                d.x1 = std::min(d.x1, plot_x + plot_w);
                if (resource) d.x1 = std::min(d.x1, resource_end);
                if (d.x1 <= d.x0) continue;
                draw_span(ctx, ldl, d, y0, y1);
                if (lane_hovered && mouse.x >= d.x0 && mouse.x < d.x1) hover_text = span_words(ctx, sp, lane, d);
            }
            // Overlays: paused and partitioned (their words are in the layout).
            spans_.clear();
            cull_spans(lane.overlays, axis_, 3.0f, spans_);
            for (DrawSpan d : spans_) {
                d.x0 = std::max(d.x0, plot_x);
                d.x1 = std::min(d.x1, plot_x + plot_w);
                if (d.x1 <= d.x0) continue;
                const Rgba c = ctx.palette.of(d.kind);
                const ImVec2 a(d.x0, y + 1), b(d.x1, y + lane_h - 1);
                if (d.kind == SpanKind::paused) {
                    // Thin hatching only: the state under a pause (often STALE) must stay readable.
                    hatch(sdl, a, b, col(c, 0.75f), 9.0f, 1.5f);
                } else {
                    sdl->AddRectFilled(a, ImVec2(b.x, a.y + 3), col(c));
                    sdl->AddRectFilled(ImVec2(a.x, b.y - 3), b, col(c));
                }
                sdl->AddRect(a, b, col(c), 0, 0, 2.0f);
                if (lane_hovered && mouse.x >= d.x0 && mouse.x < d.x1 && hover_text.empty()) {
                    const Span& sp = lane.overlays[static_cast<std::size_t>(d.span)];
                    hover_text = ctx.strings.tr(
                        std::string("tip.") + span_kind_name(sp.kind),
                        {{"node", lane.label}, {"from", std::to_string(sp.begin)}, {"to", std::to_string(sp.end - 1)}});
                }
            }
        }
        // Marks, then words, as laid out.
        for (const PlacedMark& pm : layout_.marks) {
            const Lane& lane = ctx.lanes.lanes[static_cast<std::size_t>(pm.lane)];
            ImDrawList* ldl = lane.kind == LaneKind::resource ? dl : sdl;
            const Marker& mk = lane.markers[static_cast<std::size_t>(pm.marker)];
            if (layout_.overview) {
                if (marker_priority(pm.kind) >= 50)
                    ldl->AddRectFilled(ImVec2(pm.box.x0, pm.box.y0), ImVec2(pm.box.x1, pm.box.y1),
                                       col(ctx.palette.of(pm.kind)));
            } else {
                draw_marker_shape(ldl, ImVec2(pm.x, pm.y), pm.kind, col(ctx.palette.of(pm.kind)), pm.r);
                if (pm.folded > 1) {
                    // A small count tells that more marks hide here.
                    const std::string n = fmt::format("+{}", pm.folded - 1);
                    ldl->AddText(ctx.fonts.small, ctx.fonts.small->FontSize * 0.85f,
                                 ImVec2(pm.box.x1 - 2, pm.box.y1 - ctx.fonts.small->FontSize * 0.6f),
                                 col(ctx.palette.text), n.c_str());
                }
            }
            const bool near = layout_.overview ? std::fabs(mouse.x - pm.x) <= 2.5f
                                               : mouse.x >= pm.box.x0 - 2 && mouse.x <= pm.box.x1 + 2 &&
                                                     mouse.y >= pm.box.y0 - 2 && mouse.y <= pm.box.y1 + 2;
            if (hovered && !in_ruler && hover_lane == pm.lane && near) {
                const sim::Event& e = ctx.timeline.trace().events[static_cast<std::size_t>(mk.event)];
                hover_text = ctx.strings.tr(std::string("legend.") + marker_kind_name(pm.kind)) + "\n" +
                             describe_event(e, ctx.strings);
                if (pm.folded > 1)
                    hover_text.append("\n").append(
                        ctx.strings.tr("tip.folded", {{"count", std::to_string(pm.folded)}}));
                hover_event_ = mk.event;
            }
        }
        for (const PlacedLabel& pl : layout_.labels) {
            const Lane& lane = ctx.lanes.lanes[static_cast<std::size_t>(pl.lane)];
            draw_label(ctx, lane.kind == LaneKind::resource ? dl : sdl, pl);
        }
        // The future is veiled: everything shown in the panels is the playhead's tick.
        const float ph_x = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
        if (ph_x < plot_x + plot_w && !veiled)
            dl->AddRectFilled(ImVec2(std::max(ph_x, plot_x), lanes_y), ImVec2(plot_x + plot_w, lanes_y + lanes_h),
                              IM_COL32(255, 255, 255, 90));
        sdl->PopClipRect();
        if (sdl != dl) dl->PopClipRect();
        draw_playhead(ctx, dl, axis_, plot_x, plot_w, origin.y, lanes_y + std::min(lanes_h, content_h - scroll_y_),
                      ruler_h);
        sdl->PopClipRect();
        if (sdl != dl) dl->PopClipRect();

        if (!hover_text.empty() && !ImGui::IsPopupOpen("fault_menu")) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
            const double ht = std::floor(axis_.tick_at(mouse.x));
            ImGui::TextColored(ImVec4(0.4f, 0.45f, 0.5f, 1), "%s %.0f", ctx.tr("word.tick"), ht);
            ImGui::TextUnformatted(hover_text.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }

        // Fault injection on right-click.
        if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right) && hover_lane >= 0 && in_plot) {
            popup_lane_ = hover_lane;
            popup_tick_ = std::max<Tick>(0, static_cast<Tick>(std::floor(axis_.tick_at(mouse.x))));
            ImGui::OpenPopup("fault_menu");
        }
        draw_fault_menu(ctx, out);
        ImGui::End();
    }

private:
    void draw_fault_menu(const FrameContext& ctx, Commands& out) {
        if (!ImGui::BeginPopup("fault_menu")) return;
        if (popup_lane_ < 0 || static_cast<std::size_t>(popup_lane_) >= ctx.lanes.lanes.size()) {
            ImGui::EndPopup();
            return;
        }
        const Lane& lane = ctx.lanes.lanes[static_cast<std::size_t>(popup_lane_)];
        const std::string at = std::to_string(popup_tick_);
        if (lane.kind == LaneKind::candidate) {
            ImGui::TextDisabled("%s", ctx.strings.tr("fault.title", {{"node", lane.label}, {"tick", at}}).c_str());
            ImGui::Separator();
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
            ImGui::InputInt(ctx.tr("fault.ticks"), &fault_ticks_);
            fault_ticks_ = std::clamp(fault_ticks_, 1, 10000);
            if (ImGui::MenuItem(ctx.tr("fault.pause"))) {
                out.push_back(command::EditScenario{{pause_fault(lane.label, popup_tick_, fault_ticks_)}});
            }
            if (ImGui::MenuItem(ctx.tr("fault.partition_requests"))) {
                out.push_back(command::EditScenario{
                    {partition_fault(lane.label, popup_tick_, fault_ticks_, sim::PartitionMode::drop_requests)}});
            }
            if (ImGui::MenuItem(ctx.tr("fault.partition_replies"))) {
                out.push_back(command::EditScenario{
                    {partition_fault(lane.label, popup_tick_, fault_ticks_, sim::PartitionMode::drop_replies)}});
            }
            if (ImGui::MenuItem(ctx.tr("fault.crash")))
                out.push_back(command::EditScenario{{crash_fault(lane.label, popup_tick_)}});
        } else {
            ImGui::TextDisabled("%s", ctx.strings.tr("fault.store_title", {{"tick", at}}).c_str());
            ImGui::Separator();
            if (ImGui::MenuItem(ctx.tr("fault.failover_leases")))
                out.push_back(command::EditScenario{{failover_fault(popup_tick_, FailoverLoss::leases)}});
            if (ImGui::MenuItem(ctx.tr("fault.failover_all")))
                out.push_back(command::EditScenario{{failover_fault(popup_tick_, FailoverLoss::all)}});
        }
        ImGui::EndPopup();
    }

    // What the cached picture depends on; a change renders it again.
    struct CacheKey {
        std::uint64_t generation = 0;
        Lang lang = Lang::en;
        double first_tick = 0, px_per_tick = 0;
        float scroll_y = 0, x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        bool operator==(const CacheKey&) const = default;
    };
    std::unique_ptr<ImDrawList> static_list_;
    ImTextureID cache_texture_ = nullptr;
    CacheKey cache_key_;
    std::uint64_t cache_renders_ = 0;

    TimeAxis axis_;
    bool initialised_ = false;
    std::uint64_t fit_generation_ = 0;
    float scroll_y_ = 0;
    bool dragged_ = false;
    bool scrubbing_ = false;
    std::int32_t hover_event_ = -1;
    int popup_lane_ = -1;
    Tick popup_tick_ = 0;
    int fault_ticks_ = 3;
    std::vector<DrawSpan> spans_;
    LaneLayout layout_;
    TimelineLegend legend_;
};

}  // namespace

std::unique_ptr<View> make_timeline_view() { return std::make_unique<TimelineView>(); }

}  // namespace leasescope::gui
