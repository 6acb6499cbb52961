// The timeline: one lane per candidate, per store slot, the hold-off, the
// resource and the third-party ops. Wheel zooms around the mouse, dragging
// pans, dragging in the ruler moves the playhead, right-click injects faults.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "../core/cull.hpp"
#include "../core/lane_layout.hpp"
#include "../core/marks.hpp"
#include "../core/words.hpp"
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
        case LaneKind::ops: return ctx.tr("lane.ops");
    }
    return "";
}

class TimelineView final : public View {
public:
    const char* id() const override { return "timeline"; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, id(), ctx.tr("panel.timeline"), ImGuiWindowFlags_NoScrollbar |
                                                              ImGuiWindowFlags_NoScrollWithMouse)) {
            ImGui::End();
            return;
        }
        draw_legend(ctx);
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float label_w = std::min(150.0f, std::max(100.0f, avail.x * 0.12f));
        const float ruler_h = ImGui::GetFontSize() + 10;
        const float plot_x = origin.x + label_w;
        const float plot_w = std::max(50.0f, avail.x - label_w);
        const float lanes_y = origin.y + ruler_h;
        const float lanes_h = std::max(40.0f, avail.y - ruler_h);
        const auto n_lanes = static_cast<int>(ctx.lanes.lanes.size());
        const float lane_h = std::clamp(lanes_h / static_cast<float>(std::max(1, n_lanes)), 20.0f, 50.0f);
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
                scroll_y_ = std::clamp(scroll_y_ - io.MouseWheel * lane_h * 2, 0.0f,
                                       std::max(0.0f, content_h - lanes_h));
            } else {
                axis_ = zoom_axis(axis_, std::pow(1.25, static_cast<double>(io.MouseWheel)),
                                  std::max(mouse.x, plot_x));
            }
        }
        if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
            scrubbing_ = in_ruler && in_plot;
        if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            if (scrubbing_) {
                const auto t = static_cast<Tick>(std::floor(axis_.tick_at(mouse.x)));
                out.push_back(cmd(Command::Kind::seek, std::clamp<Tick>(t, 0, ctx.lanes.end_tick)));
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
                    out.push_back(cmd(Command::Kind::select_event, hover_event_));
                } else {
                    const auto t = static_cast<Tick>(std::floor(axis_.tick_at(mouse.x)));
                    out.push_back(cmd(Command::Kind::seek, std::clamp<Tick>(t, 0, ctx.lanes.end_tick)));
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
            const CacheKey key{ctx.timeline_generation, ctx.lang(), axis_.first_tick, axis_.px_per_tick, scroll_y_,
                               clip_a.x, clip_a.y, clip_b.x, clip_b.y};
            if (!cache_texture_ || !(key == cache_key_)) {
                cache_texture_ = ctx.offscreen->render(0, *sdl, clip_a, ImVec2(clip_b.x - clip_a.x, clip_b.y - clip_a.y));
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
                    return ImVec2((x - clip_a.x) / (clip_b.x - clip_a.x), 1.0f - (y - clip_a.y) / (clip_b.y - clip_a.y));
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
        draw_ruler(ctx, sdl, origin, plot_x, plot_w, ruler_h);

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
                sdl->AddRectFilled(ImVec2(d.x0, lanes_y), ImVec2(d.x1, lanes_y + 4), col(ctx.palette.of(SpanKind::stale)));
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
            const float resource_end =
                static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
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
                    hover_text = ctx.strings.tr(std::string("tip.") + span_kind_name(sp.kind),
                                                {{"node", lane.label},
                                                 {"from", std::to_string(sp.begin)},
                                                 {"to", std::to_string(sp.end - 1)}});
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
                    hover_text.append("\n").append(ctx.strings.tr("tip.folded", {{"count", std::to_string(pm.folded)}}));
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
        draw_playhead(ctx, dl, plot_x, plot_w, origin.y, lanes_y + std::min(lanes_h, content_h - scroll_y_), ruler_h);
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
    // Continues the legend on this line when the next item (`next_w` wide)
    // still fits, else starts a new line: no entry is ever cut.
    static void wrap_before(float next_w) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + 14 + next_w < right) ImGui::SameLine(0, 14);
    }

    // What this timeline shows, so the legend lists each of its marks once.
    void refresh_present(const FrameContext& ctx) {
        if (present_generation_ == ctx.timeline_generation && present_valid_) return;
        present_generation_ = ctx.timeline_generation;
        present_valid_ = true;
        present_spans_.assign(static_cast<std::size_t>(SpanKind::count_), false);
        present_marks_.assign(static_cast<std::size_t>(MarkerKind::count_), false);
        for (const Lane& lane : ctx.lanes.lanes) {
            for (const Span& sp : lane.spans) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
            for (const Span& sp : lane.overlays) present_spans_[static_cast<std::size_t>(sp.kind)] = true;
            for (const Marker& m : lane.markers) present_marks_[static_cast<std::size_t>(m.kind)] = true;
        }
        if (!ctx.lanes.overlap.empty()) present_spans_[static_cast<std::size_t>(SpanKind::overlap)] = true;
    }

    void draw_legend(const FrameContext& ctx) {
        refresh_present(ctx);
        ImGui::PushFont(ctx.fonts.small);
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float h = ImGui::GetFontSize();
        const SpanKind kinds[] = {SpanKind::waiting, SpanKind::running, SpanKind::stale, SpanKind::paused,
                                  SpanKind::partition_requests, SpanKind::partition_replies, SpanKind::crashed,
                                  SpanKind::record, SpanKind::holdoff, SpanKind::overlap, SpanKind::fence};
        bool first = true;
        for (SpanKind k : kinds) {
            if (!present_spans_[static_cast<std::size_t>(k)]) continue;
            const std::string text =
                k == SpanKind::overlap
                    ? ctx.strings.tr("legend.overlap", {{"capacity", std::to_string(ctx.scenario.lock.capacity)}})
                    : ctx.strings.tr(std::string("legend.") + span_kind_name(k));
            if (!first) wrap_before(h * 1.6f + 4 + ImGui::CalcTextSize(text.c_str()).x);
            first = false;
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const ImVec2 q(p.x + h * 1.6f, p.y + h);
            if (k == SpanKind::overlap) {
                dl->AddRectFilled(p, q, col(ctx.palette.of(SpanKind::stale), 0.12f), 3.0f);
                dl->AddRectFilled(p, ImVec2(q.x, p.y + 4), col(ctx.palette.of(SpanKind::stale)));
            } else if (k == SpanKind::fence) {
                dl->AddRectFilled(ImVec2(p.x, q.y - 4), q, col(ctx.palette.of(k)));
            } else if (k == SpanKind::paused) {
                hatch(dl, p, q, col(ctx.palette.of(k), 0.75f), 6.0f, 1.5f);
                dl->AddRect(p, q, col(ctx.palette.of(k)), 0, 0, 2.0f);
            } else if (k == SpanKind::partition_requests || k == SpanKind::partition_replies) {
                dl->AddRectFilled(p, ImVec2(q.x, p.y + 3), col(ctx.palette.of(k)));
                dl->AddRectFilled(ImVec2(p.x, q.y - 3), q, col(ctx.palette.of(k)));
                dl->AddRect(p, q, col(ctx.palette.of(k)), 0, 0, 2.0f);
            } else {
                dl->AddRectFilled(p, q, col(ctx.palette.of(k)), 3.0f);
            }
            if (k == SpanKind::stale) hatch(dl, p, q, IM_COL32(255, 255, 255, 150), 6.0f, 2.0f);
            if (k == SpanKind::holdoff) hatch(dl, p, q, IM_COL32(255, 255, 255, 120), 6.0f, 2.0f);
            ImGui::Dummy(ImVec2(h * 1.6f, h));
            ImGui::SameLine(0, 4);
            ImGui::TextUnformatted(text.c_str());
        }
        // Every mark this timeline shows, each once, in the order a reader meets them.
        for (MarkerKind k : legend_marks()) {
            if (!present_marks_[static_cast<std::size_t>(k)]) continue;
            const char* text = ctx.tr((std::string("legend.") + marker_kind_name(k)).c_str());
            if (!first) wrap_before(h * 1.1f + 3 + ImGui::CalcTextSize(text).x);
            first = false;
            const ImVec2 p = ImGui::GetCursorScreenPos();
            draw_marker_shape(dl, ImVec2(p.x + h * 0.55f, p.y + h * 0.55f), k, col(ctx.palette.of(k)), h * 0.36f);
            ImGui::Dummy(ImVec2(h * 1.1f, h));
            ImGui::SameLine(0, 3);
            ImGui::TextUnformatted(text);
        }
        // The mouse hint only where the lanes keep room; else it waits in a tooltip.
        if (ImGui::GetContentRegionAvail().y > ImGui::GetFontSize() * 16) {
            ImGui::TextDisabled("%s", ctx.tr("timeline.hint"));
        } else {
            ImGui::SameLine(0, 14);
            ImGui::TextDisabled("(?)");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("timeline.hint"));
        }
        ImGui::PopFont();
        ImGui::Spacing();
    }

    void draw_ruler(const FrameContext& ctx, ImDrawList* dl, ImVec2 origin, float plot_x, float plot_w,
                    float ruler_h) {
        dl->AddRectFilled(ImVec2(origin.x, origin.y), ImVec2(plot_x + plot_w, origin.y + ruler_h),
                          IM_COL32(225, 228, 232, 255));
        dl->AddText(ImVec2(origin.x + 6, origin.y + 4), col(ctx.palette.text_dim), ctx.tr("word.tick"));
        const Tick step = ruler_step(axis_.px_per_tick, 46.0f);
        const Tick t0 = std::max<Tick>(0, static_cast<Tick>(std::floor(axis_.first_tick)) / step * step);
        const double t1 = axis_.last_tick();
        const float bottom = origin.y + 10000;
        for (Tick t = t0; static_cast<double>(t) <= t1; t += step) {
            const auto x = static_cast<float>(axis_.x_of(static_cast<double>(t)));
            if (x < plot_x) continue;
            dl->AddLine(ImVec2(x, origin.y + ruler_h - 6), ImVec2(x, bottom), col(ctx.palette.grid), 1.0f);
        }
        // The numbers are drawn with the playhead (draw_playhead), which they give way to.
        // Single-tick gridlines when zoomed in enough to count cells.
        if (step > 1 && axis_.px_per_tick >= 8) {
            for (Tick t = t0; static_cast<double>(t) <= t1; ++t) {
                const auto x = static_cast<float>(axis_.x_of(static_cast<double>(t)));
                if (x < plot_x) continue;
                dl->AddLine(ImVec2(x, origin.y + ruler_h - 3), ImVec2(x, origin.y + ruler_h), col(ctx.palette.grid));
            }
        }
    }

    void draw_playhead(const FrameContext& ctx, ImDrawList* dl, float plot_x, float plot_w, float top,
                       float bottom, float ruler_h) {
        // The ruler's numbers first: none sits under the playhead's badge.
        const RulerLayout ruler = layout_ruler(axis_, plot_x, plot_w, top, ruler_h, ctx.playhead, metrics(ctx));
        for (const RulerLabel& l : ruler.labels)
            dl->AddText(ImVec2(l.box.x0, l.box.y0), col(ctx.palette.text), l.text.c_str());
        if (!ruler.playhead_visible) return;
        const auto x0 = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead)));
        const auto x1 = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
        const ImU32 c = col(ctx.palette.playhead);
        // The playhead's cell is outlined down through the lanes; its line runs
        // only through the ruler, so it never covers the marks of that tick.
        const float xm = (x0 + x1) * 0.5f;
        if (x1 - x0 > 6) {
            dl->AddRectFilled(ImVec2(x0, top + ruler_h), ImVec2(x1, bottom), col(ctx.palette.playhead, 0.06f));
            dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), col(ctx.palette.playhead, 0.8f), 0, 0, 2.0f);
            dl->AddLine(ImVec2(xm, top), ImVec2(xm, top + ruler_h), c, 2.5f);
        } else {
            dl->AddLine(ImVec2(xm, top), ImVec2(xm, bottom), c, 2.5f);
        }
        dl->AddRectFilled(ImVec2(ruler.badge.x0, ruler.badge.y0), ImVec2(ruler.badge.x1, ruler.badge.y1), c, 3.0f);
        dl->AddText(ImVec2(ruler.badge.x0 + 4, ruler.badge.y0 + 1), IM_COL32(255, 255, 255, 255), ruler.badge_text.c_str());
    }

    void draw_span(const FrameContext& ctx, ImDrawList* dl, const DrawSpan& d, float y0, float y1) {
        const Rgba c = ctx.palette.of(d.kind);
        const ImVec2 a(d.x0, y0), b(std::max(d.x1 - 1.0f, d.x0 + 1.0f), y1);
        if (d.kind == SpanKind::fence) {
            // The resource's highest accepted fencing: a thin line (its value is a laid-out word).
            dl->AddRectFilled(ImVec2(a.x, y1 - 3), ImVec2(b.x, y1), col(c));
            return;
        }
        const float rounding = (b.x - a.x) > 8 ? 4.0f : 0.0f;
        dl->AddRectFilled(a, b, col(c), rounding);
        if (d.kind == SpanKind::stale) {
            // Narrow stale items stay solid crimson: stripes there cost many tiny triangles and read as noise.
            if (b.x - a.x >= 12) hatch(dl, a, b, IM_COL32(255, 255, 255, 110), 8.0f, 2.5f);
            dl->AddRect(a, b, IM_COL32(120, 0, 30, 255), rounding, 0, 2.0f);
        }
        if (d.kind == SpanKind::holdoff) hatch(dl, a, b, IM_COL32(255, 255, 255, 120), 7.0f, 2.0f);
    }

    // One laid-out word: span words straight on their span, tags on a pill.
    void draw_label(const FrameContext& ctx, ImDrawList* dl, const PlacedLabel& pl) const {
        ImFont* font = pl.small ? ctx.fonts.small : ImGui::GetFont();
        const float size = pl.small ? ctx.fonts.small->FontSize : ImGui::GetFontSize();
        const ImVec2 a(pl.box.x0, pl.box.y0), b(pl.box.x1, pl.box.y1);
        ImU32 text = col(ctx.palette.text);
        switch (pl.kind) {
            case LabelKind::span:
                // Dark words on the amber bar, white on the rest; on the stale
                // bar a dark backing keeps them readable over the stripes.
                text = pl.span == SpanKind::waiting ? col(ctx.palette.text) : IM_COL32(255, 255, 255, 255);
                if (pl.span == SpanKind::stale)
                    dl->AddRectFilled(ImVec2(a.x - 2, a.y), ImVec2(b.x + 2, b.y), IM_COL32(150, 0, 45, 200), 3.0f);
                break;
            case LabelKind::overlay:
                dl->AddRectFilled(a, b, col(ctx.palette.of(pl.span)), 3.0f);
                text = IM_COL32(255, 255, 255, 255);
                break;
            case LabelKind::fence:
                dl->AddRectFilled(a, b, IM_COL32(232, 238, 246, 220), 2.0f);
                text = col(ctx.palette.text_dim);
                break;
            case LabelKind::fencing:
                dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 225), 3.0f);
                break;
            case LabelKind::failover:
                dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 240), 3.0f);
                dl->AddRect(a, b, col(ctx.palette.of(pl.mark)), 3.0f, 0, 1.5f);
                text = col(ctx.palette.of(pl.mark));
                break;
        }
        dl->AddText(font, size, ImVec2(pl.text_x, pl.text_y), text, pl.text.c_str());
    }

    static TextMetrics metrics(const FrameContext& ctx) {
        TextMetrics m;
        ImFont* body = ImGui::GetFont();
        const float body_px = ImGui::GetFontSize();
        ImFont* small = ctx.fonts.small;
        const float small_px = small->FontSize;
        m.body_width = [body, body_px](std::string_view t) {
            return body->CalcTextSizeA(body_px, FLT_MAX, 0, t.data(), t.data() + t.size()).x;
        };
        m.small_width = [small, small_px](std::string_view t) {
            return small->CalcTextSizeA(small_px, FLT_MAX, 0, t.data(), t.data() + t.size()).x;
        };
        m.body_h = body_px;
        m.small_h = small_px;
        return m;
    }

    std::string span_words(const FrameContext& ctx, const Span& sp, const Lane& lane, const DrawSpan& d) const {
        if (d.folded > 1) return ctx.strings.tr("tip.folded_spans", {{"count", std::to_string(d.folded)}});
        Fields f{{"node", lane.label},
                 {"from", std::to_string(sp.begin)},
                 {"to", std::to_string(sp.end - 1)},
                 {"fencing", sp.fencing ? std::to_string(*sp.fencing) : "–"},
                 {"expires", std::to_string(sp.expires_at)}};
        if (sp.kind == SpanKind::record) {
            std::string owner = "?";
            if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.scenario.candidates.size())
                owner = ctx.scenario.candidates[static_cast<std::size_t>(sp.owner)].name;
            f.emplace_back("owner", owner);
            f.emplace_back("slot", std::to_string(lane.index));
        }
        return ctx.strings.tr(std::string("tip.") + span_kind_name(sp.kind), f);
    }

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
                out.push_back(cmd_edit({pause_fault(lane.label, popup_tick_, fault_ticks_)}));
            }
            if (ImGui::MenuItem(ctx.tr("fault.partition_requests"))) {
                out.push_back(cmd_edit(
                    {partition_fault(lane.label, popup_tick_, fault_ticks_, sim::PartitionMode::drop_requests)}));
            }
            if (ImGui::MenuItem(ctx.tr("fault.partition_replies"))) {
                out.push_back(cmd_edit(
                    {partition_fault(lane.label, popup_tick_, fault_ticks_, sim::PartitionMode::drop_replies)}));
            }
            if (ImGui::MenuItem(ctx.tr("fault.crash"))) out.push_back(cmd_edit({crash_fault(lane.label, popup_tick_)}));
        } else {
            ImGui::TextDisabled("%s", ctx.strings.tr("fault.store_title", {{"tick", at}}).c_str());
            ImGui::Separator();
            if (ImGui::MenuItem(ctx.tr("fault.failover_leases")))
                out.push_back(cmd_edit({failover_fault(popup_tick_, FailoverLoss::leases)}));
            if (ImGui::MenuItem(ctx.tr("fault.failover_all")))
                out.push_back(cmd_edit({failover_fault(popup_tick_, FailoverLoss::all)}));
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
    std::vector<bool> present_spans_, present_marks_;
    std::uint64_t present_generation_ = 0;
    bool present_valid_ = false;
};

}  // namespace

std::unique_ptr<View> make_timeline_view() { return std::make_unique<TimelineView>(); }

}  // namespace leasescope::gui
