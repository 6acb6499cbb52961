// The timeline: one lane per candidate, per store slot, the hold-off, the
// resource and the third-party ops. Wheel zooms around the mouse, dragging
// pans, dragging in the ruler moves the playhead, right-click injects faults.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "../core/cull.hpp"
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
        std::string buf;
        for (int li = first_lane; li <= last_lane; ++li) {
            const Lane& lane = ctx.lanes.lanes[static_cast<std::size_t>(li)];
            const float y = lanes_y + lane_h * static_cast<float>(li) - scroll_y_;
            const bool lane_hovered = hovered && !in_ruler && mouse.y >= y && mouse.y < y + lane_h;
            if (lane_hovered) hover_lane = li;
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
            // Main spans.
            spans_.clear();
            cull_spans(lane.spans, axis_, 3.0f, spans_);
            for (DrawSpan d : spans_) {
                const Span& sp = lane.spans[static_cast<std::size_t>(d.span)];
                d.x0 = std::max(d.x0, plot_x);
                d.x1 = std::min(d.x1, plot_x + plot_w);
                if (d.x1 <= d.x0) continue;
                draw_span(ctx, sdl, d, sp, lane, y0, y1);
                if (lane_hovered && mouse.x >= d.x0 && mouse.x < d.x1) hover_text = span_words(ctx, sp, lane, d);
            }
            // Overlays: paused and partitioned.
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
                    sdl->AddRectFilled(a, ImVec2(b.x, a.y + 4), col(c));
                    sdl->AddRectFilled(ImVec2(a.x, b.y - 4), b, col(c));
                }
                sdl->AddRect(a, b, col(c), 0, 0, 2.0f);
                if (d.x1 - d.x0 > 50) {
                    const char* word = ctx.tr(d.kind == SpanKind::paused ? "legend.paused" : "legend.partition_short");
                    sdl->AddText(ImVec2(d.x0 + 4, y + 1), col(c), word);
                }
                if (lane_hovered && mouse.x >= d.x0 && mouse.x < d.x1 && hover_text.empty()) {
                    const Span& sp = lane.overlays[static_cast<std::size_t>(d.span)];
                    hover_text = ctx.strings.tr(std::string("tip.") + span_kind_name(sp.kind),
                                                {{"node", lane.label},
                                                 {"from", std::to_string(sp.begin)},
                                                 {"to", std::to_string(sp.end - 1)}});
                }
            }
            // Markers.
            markers_.clear();
            const float r = std::clamp(lane_h * 0.24f, 4.0f, 10.0f);
            // Zoomed far out, markers become thin ticks (a few pixels apart):
            // the spans carry the story and the picture stays cheap to draw.
            const bool overview = axis_.px_per_tick < 2.0;
            cull_markers(lane.markers, axis_, overview ? 4.0f : r * 1.6f, markers_);
            // On the resource lane the markers sit higher, above the highest-accepted line.
            const float cy = y + lane_h * (lane.kind == LaneKind::resource ? 0.38f : 0.5f);
            for (const DrawMarker& m : markers_) {
                if (m.x < plot_x + 2 || m.x > plot_x + plot_w + r) continue;
                const Marker& mk = lane.markers[static_cast<std::size_t>(m.marker)];
                if (overview) {
                    if (marker_priority(m.kind) >= 50)
                        sdl->AddRectFilled(ImVec2(m.x - 1.0f, y + pad * 0.5f), ImVec2(m.x + 1.0f, y + lane_h - pad * 0.5f),
                                          col(ctx.palette.of(m.kind)));
                    if (lane_hovered && std::fabs(mouse.x - m.x) <= 2.5f) {
                        const sim::Event& e = ctx.timeline.trace().events[static_cast<std::size_t>(mk.event)];
                        hover_text = describe_event(e, ctx.strings);
                        if (m.folded > 1)
                            hover_text.append("\n").append(ctx.strings.tr("tip.folded", {{"count", std::to_string(m.folded)}}));
                        hover_event_ = mk.event;
                    }
                    continue;
                }
                draw_marker_shape(sdl, ImVec2(m.x, cy), m.kind, col(ctx.palette.of(m.kind)), r);
                if (m.folded > 1 && axis_.px_per_tick < 3) continue;
                // Fencing numbers next to acquisitions and writes, where there is room.
                // Acquisitions are labelled by the running span that follows them.
                const bool labelled = m.kind == MarkerKind::write_accepted ||
                                      m.kind == MarkerKind::write_rejected || m.kind == MarkerKind::write_unsafe ||
                                      m.kind == MarkerKind::release_rejected;
                if (labelled && mk.fencing && axis_.px_per_tick >= 14 && lane.kind != LaneKind::slot) {
                    const std::string label = fmt::format("#{}", *mk.fencing);
                    sdl->AddText(ctx.fonts.small, ctx.fonts.small->FontSize, ImVec2(m.x + r + 1, y + 1),
                                col(ctx.palette.text), label.c_str());
                }
                if (lane_hovered && std::fabs(mouse.x - m.x) <= r + 2) {
                    const sim::Event& e = ctx.timeline.trace().events[static_cast<std::size_t>(mk.event)];
                    hover_text = describe_event(e, ctx.strings);
                    if (m.folded > 1)
                        hover_text.append("\n").append(ctx.strings.tr("tip.folded", {{"count", std::to_string(m.folded)}}));
                    hover_event_ = mk.event;
                }
            }
        }
        // The future is veiled: everything shown in the panels is the playhead's tick.
        const float ph_x = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
        if (ph_x < plot_x + plot_w && !veiled)
            dl->AddRectFilled(ImVec2(std::max(ph_x, plot_x), lanes_y), ImVec2(plot_x + plot_w, lanes_y + lanes_h),
                              IM_COL32(255, 255, 255, 90));
        sdl->PopClipRect();
        if (sdl != dl) dl->PopClipRect();
        draw_playhead(ctx, dl, plot_x, plot_w, origin.y, lanes_y + std::min(lanes_h, content_h - scroll_y_));
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
    // Continues the legend on this line when the next item (a swatch and its
    // word, guessed from the last one) still fits, else starts a new line.
    static void wrap_next(float swatch_w) {
        const float last_w = ImGui::GetItemRectSize().x + swatch_w + 14;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + 14 + last_w < right) ImGui::SameLine(0, 14);
    }

    void draw_legend(const FrameContext& ctx) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float h = ImGui::GetFontSize();
        const SpanKind kinds[] = {SpanKind::waiting, SpanKind::running, SpanKind::stale, SpanKind::paused,
                                  SpanKind::partition_requests, SpanKind::crashed, SpanKind::record,
                                  SpanKind::holdoff, SpanKind::overlap};
        for (SpanKind k : kinds) {
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const ImVec2 q(p.x + h * 1.6f, p.y + h);
            if (k == SpanKind::overlap) {
                dl->AddRectFilled(p, q, col(ctx.palette.of(SpanKind::stale), 0.12f), 3.0f);
                dl->AddRectFilled(p, ImVec2(q.x, p.y + 4), col(ctx.palette.of(SpanKind::stale)));
            } else {
                dl->AddRectFilled(p, q, col(ctx.palette.of(k)), 3.0f);
            }
            if (k == SpanKind::stale) hatch(dl, p, q, IM_COL32(255, 255, 255, 150), 6.0f, 2.0f);
            if (k == SpanKind::paused) hatch(dl, p, q, IM_COL32(255, 255, 255, 120), 6.0f, 1.5f);
            ImGui::Dummy(ImVec2(h * 1.6f, h));
            ImGui::SameLine(0, 4);
            const char* text = ctx.tr((std::string("legend.") + span_kind_name(k)).c_str());
            ImGui::TextUnformatted(text);
            wrap_next(h * 1.6f + 4);
        }
        ImGui::NewLine();
        const MarkerKind marks[] = {MarkerKind::acquire, MarkerKind::extend, MarkerKind::release,
                                    MarkerKind::expire, MarkerKind::skip, MarkerKind::write_accepted,
                                    MarkerKind::release_rejected};
        for (MarkerKind k : marks) {
            const ImVec2 p = ImGui::GetCursorScreenPos();
            draw_marker_shape(dl, ImVec2(p.x + h * 0.5f, p.y + h * 0.55f), k, col(ctx.palette.of(k)), h * 0.38f);
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine(0, 3);
            ImGui::TextUnformatted(ctx.tr((std::string("legend.") + marker_kind_name(k)).c_str()));
            wrap_next(h + 3);
        }
        ImGui::TextDisabled("%s", ctx.tr("timeline.hint"));
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
            const std::string label = std::to_string(t);
            dl->AddText(ImVec2(x + 3, origin.y + 4), col(ctx.palette.text), label.c_str());
        }
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
                       float bottom) {
        const auto x0 = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead)));
        const auto x1 = static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0));
        if (x1 < plot_x || x0 > plot_x + plot_w) return;
        const ImU32 c = col(ctx.palette.playhead);
        // The playhead's cell is outlined; the line runs through its middle.
        if (x1 - x0 > 6) dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom), col(ctx.palette.playhead, 0.6f), 0, 0, 1.5f);
        const float xm = (x0 + x1) * 0.5f;
        dl->AddLine(ImVec2(xm, top), ImVec2(xm, bottom), c, 2.5f);
        const float s = 8;
        dl->AddTriangleFilled(ImVec2(xm - s, top), ImVec2(xm + s, top), ImVec2(xm, top + s * 1.3f), c);
        const std::string label = std::to_string(ctx.playhead);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddRectFilled(ImVec2(xm + s, top), ImVec2(xm + s + ts.x + 8, top + ts.y + 2), c, 3.0f);
        dl->AddText(ImVec2(xm + s + 4, top + 1), IM_COL32(255, 255, 255, 255), label.c_str());
    }

    void draw_span(const FrameContext& ctx, ImDrawList* dl, const DrawSpan& d, const Span& sp, const Lane& lane,
                   float y0, float y1) {
        const Rgba c = ctx.palette.of(d.kind);
        const ImVec2 a(d.x0, y0), b(std::max(d.x1 - 1.0f, d.x0 + 1.0f), y1);
        if (d.kind == SpanKind::fence) {
            // The resource's highest accepted fencing: a thin line with its value.
            dl->AddRectFilled(ImVec2(a.x, y1 - 3), ImVec2(b.x, y1), col(c));
            if (d.folded == 1 && sp.fencing) {
                // Right-aligned in the span, clear of the write marker at its start.
                const std::string t = ctx.strings.tr("timeline.highest", {{"fencing", std::to_string(*sp.fencing)}});
                const float tw = ctx.fonts.small->CalcTextSizeA(ctx.fonts.small->FontSize, FLT_MAX, 0, t.c_str()).x;
                if (b.x - a.x > tw + 30)
                    dl->AddText(ctx.fonts.small, ctx.fonts.small->FontSize,
                                ImVec2(b.x - tw - 4, y1 - 3 - ctx.fonts.small->FontSize), col(ctx.palette.text_dim),
                                t.c_str());
            }
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
        if (d.folded > 1) return;
        // Inline label when the span is wide enough to read it.
        std::string label;
        if (d.kind == SpanKind::record) {
            label = fmt::format("#{}", sp.fencing.value_or(0));
            if (sp.owner >= 0 && static_cast<std::size_t>(sp.owner) < ctx.scenario.candidates.size())
                label += "  " + ctx.scenario.candidates[static_cast<std::size_t>(sp.owner)].name;
            label += "  " + ctx.strings.tr("timeline.ttl", {{"ttl", std::to_string(sp.ttl)}});
        } else if (d.kind == SpanKind::stale) {
            label = ctx.strings.tr("timeline.stale_label", {{"fencing", sp.fencing ? std::to_string(*sp.fencing) : "–"}});
        } else if (d.kind == SpanKind::running && sp.fencing) {
            label = fmt::format("#{}", *sp.fencing);
        } else if (d.kind == SpanKind::holdoff) {
            label = ctx.tr("legend.holdoff");
        }
        (void)lane;
        if (label.empty()) return;
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        // Too long for the bar: drop words from the end until it fits.
        ImVec2 fit = ts;
        while (fit.x + 8 + (tx_offset(a.x) - a.x) > b.x - a.x) {
            const auto cut = label.rfind("  ");
            if (cut == std::string::npos) return;
            label.erase(cut);
            fit = ImGui::CalcTextSize(label.c_str());
        }
        const ImU32 tc = d.kind == SpanKind::waiting ? col(ctx.palette.text) : IM_COL32(255, 255, 255, 255);
        const float ty = (y0 + y1 - fit.y) * 0.5f;
        const float tx = tx_offset(a.x);
        if (tx + fit.x > b.x) return;
        dl->AddText(ImVec2(tx, ty), tc, label.c_str());
    }

    // Markers sit in the middle of a span's first tick cell; its words start after them.
    float tx_offset(float x0) const {
        return std::max(x0 + static_cast<float>(std::min(axis_.px_per_tick * 0.5, 40.0)) + 13.0f, axis_.left_px + 5);
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
    std::vector<DrawMarker> markers_;
};

}  // namespace

std::unique_ptr<View> make_timeline_view() { return std::make_unique<TimelineView>(); }

}  // namespace leasescope::gui
