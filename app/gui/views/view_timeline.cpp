// The timeline: one lane per candidate, per store slot, the hold-off, the
// resource and the third-party ops. Wheel zooms around the mouse, dragging
// pans, dragging in the ruler moves the playhead, right-click injects faults.
// Its drawing pieces (legend, ruler, playhead, spans, words): timeline_paint.cpp.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>

#include "../core/cull.hpp"
#include "../core/timeline_frame.hpp"
#include "timeline_paint.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class TimelineView final : public View {
public:
    Panel panel() const override { return Panel::timeline; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), ctx.tr("panel.timeline"),
                         ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
            ImGui::End();
            return;
        }
        // Every lane at its smallest height, under the ruler.
        TimelineViewport scaled;
        scaled.scale = ctx.scale;
        const float lanes_need_h =
            ImGui::GetFontSize() + 10 + static_cast<float>(ctx.lanes.lanes.size()) * 20.0f * ctx.scale +
            static_cast<float>(ctx.lanes.clocks.size()) * 22.0f * ctx.scale + message_strip_want_h(ctx.lanes, scaled);
        legend_.draw(ctx, lanes_need_h);
        measure_titles(ctx);
        TimelineViewport view = viewport(ctx);
        handle_input(ctx, view, out);
        view.first_tick = axis_.first_tick;
        view.px_per_tick = axis_.px_per_tick;
        view.scroll_y = scroll_y_;
        frame_ = build_timeline_frame(ctx.lanes, view, ctx.strings, metrics(ctx));
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const FrameHit hit = area_hovered_ ? hit_test(frame_, mouse.x, mouse.y) : FrameHit{};
        hover_lane_ = hit.lane;
        hover_event_ = event_at(ctx.lanes, frame_, hit);  // a click selects it (a mark's, or a message's)
        paint(ctx, view);
        probe_frame(ctx.lanes, frame_);
        const std::string hover_text =
            hit_words(ctx, FramePaint{ctx.lanes, frame_, &ctx.snap}, ctx.timeline.trace(), hit);
        if (!hover_text.empty() && !ImGui::IsPopupOpen("fault_menu")) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
            const auto ht = static_cast<Tick>(std::max(0.0, std::floor(frame_.axis.tick_at(mouse.x))));
            const std::string tick_line = tick_time_words(ctx.lanes.clock, ht, ctx.strings);
            ImGui::TextColored(ImVec4(0.4f, 0.45f, 0.5f, 1), "%s", tick_line.c_str());
            ImGui::TextUnformatted(hover_text.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        // Fault injection on right-click.
        if (area_hovered_ && ImGui::IsMouseClicked(ImGuiMouseButton_Right) && hover_lane_ >= 0 &&
            mouse.x >= frame_.plot_x) {
            popup_lane_ = hover_lane_;
            popup_tick_ = std::max<Tick>(0, static_cast<Tick>(std::floor(frame_.axis.tick_at(mouse.x))));
            ImGui::OpenPopup("fault_menu");
        }
        draw_fault_menu(ctx, out);
        ImGui::End();
    }

private:
    // The widest lane title in this language and font (measured again when
    // the run, the language or the scale changes; a long run's many lanes
    // are not all measured).
    void measure_titles(const FrameContext& ctx) {
        const TitlesKey key{ctx.timeline_generation, ctx.lang(), ImGui::GetFontSize()};
        if (key == titles_key_) return;
        titles_key_ = key;
        titles_w_ = 0;
        const std::size_t n = std::min<std::size_t>(ctx.lanes.lanes.size(), 256);
        for (std::size_t i = 0; i < n; ++i) {
            const Lane& lane = ctx.lanes.lanes[i];
            titles_w_ = std::max(titles_w_, ImGui::CalcTextSize(lane_title(lane, ctx.strings).c_str()).x);
            // A server's title changes with its role (model.md §17): room for each of them.
            for (const auto& role : lane.roles)
                titles_w_ =
                    std::max(titles_w_, ImGui::CalcTextSize(lane_title(lane, ctx.strings, role.first).c_str()).x);
        }
        if (n < ctx.lanes.lanes.size()) titles_w_ = std::max(titles_w_, 150.0f * ctx.scale);
        for (const ClockTrack& c : ctx.lanes.clocks)  // the clock lanes' titles share the column
            titles_w_ = std::max(titles_w_, ImGui::CalcTextSize(clock_title(c, ctx.strings).c_str()).x);
        for (const std::string& t : message_titles(ctx.lanes.messages, ctx.strings))  // and the message view's
            if (!ctx.lanes.messages.messages.empty()) titles_w_ = std::max(titles_w_, ImGui::CalcTextSize(t.c_str()).x);
    }

    // Where the timeline goes in the panel (the axis and scrolling are set after the input).
    TimelineViewport viewport(const FrameContext& ctx) const {
        TimelineViewport v;
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float ui = ctx.scale;
        v.x = origin.x;
        v.y = origin.y;
        v.width = avail.x;
        // The titles' column: as wide as the widest title needs, within bounds.
        v.label_w = std::min({150.0f * ui, avail.x * 0.3f, std::max(60.0f * ui, titles_w_ + 11 + 18)});
        v.ruler_h = ImGui::GetFontSize() + 10;
        v.height = v.ruler_h + std::max(40.0f, avail.y - v.ruler_h);
        v.lane_h_min = 20.0f * ui;
        v.lane_h_max = 50.0f * ui;
        v.playhead = ctx.playhead;
        v.resource_until = ctx.playhead;
        v.scale = ui;
        // Lanes that do not fit scroll, with a scrollbar and a hint that says so.
        v.hint_h = ctx.fonts.small->FontSize + 6;
        v.scrollbar_w = 8.0f * ui;
        v.title_h = ImGui::GetFontSize() + 2;
        v.compact_lane_h = ImGui::GetFontSize();  // a compact Redlock lane: its title's text alone
        return v;
    }

    // Wheel zooms around the mouse (with shift: scrolls the lanes), dragging
    // pans, dragging in the ruler moves the playhead, a click selects.
    void handle_input(const FrameContext& ctx, const TimelineViewport& view, Commands& out) {
        const TimelineFrame rows = timeline_rows(ctx.lanes, view);
        if (!initialised_ || fit_generation_ != ctx.fit_generation) {
            // The Fit button shows the whole run; a run opens on its story (opening_axis).
            axis_ = ctx.fit_whole ? fit_axis(0, ctx.lanes.end_tick + 1, rows.plot_x, rows.plot_w)
                                  : opening_axis(ctx.lanes, ctx.playhead, rows.plot_x, rows.plot_w);
            fit_generation_ = ctx.fit_generation;
            initialised_ = true;
            scroll_y_ = 0;
        }
        // Keep the tick under the left edge when the panel moves or resizes.
        axis_.left_px = rows.plot_x;
        axis_.width_px = rows.plot_w;
        const float max_scroll = std::max(0.0f, rows.content_h - rows.lanes_h);
        scroll_y_ = std::clamp(scroll_y_, 0.0f, max_scroll);
        ImGui::SetCursorScreenPos(ImVec2(view.x, view.y));
        ImGui::InvisibleButton("##timeline_area", ImVec2(view.width, view.height),
                               ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
        area_hovered_ = ImGui::IsItemHovered();
        const ImGuiIO& io = ImGui::GetIO();
        const ImVec2 mouse = io.MousePos;
        const bool in_ruler = mouse.y < rows.lanes_y;
        const bool in_plot = mouse.x >= rows.plot_x;
        if (area_hovered_ && io.MouseWheel != 0.0f) {
            if (io.KeyShift)
                scroll_y_ = std::clamp(scroll_y_ - io.MouseWheel * rows.lane_h * 2, 0.0f, max_scroll);
            else
                axis_ = zoom_axis(axis_, std::pow(1.25, static_cast<double>(io.MouseWheel)),
                                  std::max(mouse.x, rows.plot_x));
        }
        if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) scrubbing_ = in_ruler && in_plot;
        const auto tick_at_mouse = [&] {
            return std::clamp<Tick>(static_cast<Tick>(std::floor(axis_.tick_at(mouse.x))), 0, ctx.lanes.end_tick);
        };
        if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            if (scrubbing_) {
                out.push_back(command::Seek{tick_at_mouse()});
            } else if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
                axis_.first_tick -= static_cast<double>(io.MouseDelta.x) / axis_.px_per_tick;
                scroll_y_ = std::clamp(scroll_y_ - io.MouseDelta.y, 0.0f, max_scroll);
                dragged_ = true;
            }
        }
        if (ImGui::IsItemDeactivated()) {
            // A click without a drag seeks there and selects the event under the mouse.
            if (!dragged_ && !scrubbing_ && in_plot) {
                if (hover_event_ >= 0)
                    out.push_back(command::SelectEvent{hover_event_});
                else
                    out.push_back(command::Seek{tick_at_mouse()});
            }
            dragged_ = false;
            scrubbing_ = false;
        }
    }

    // Ruler, lanes, spans, marks and words go to a list of the view's own when
    // an offscreen service is at hand, rendered into a texture only when its
    // picture changes; what changes with the playhead (the state squares, the
    // resource lane, the veil, the playhead) is drawn over it every frame.
    // Returns the list for the still part (`dl` itself without the service).
    ImDrawList* still_list(const FrameContext& ctx, ImDrawList* dl, ImVec2 clip_a, ImVec2 clip_b, bool& veiled) {
        veiled = false;
        if (!ctx.offscreen) return dl;
        if (!static_list_) static_list_ = std::make_unique<ImDrawList>(ImGui::GetDrawListSharedData());
        ImDrawList* sdl = static_list_.get();
        sdl->_ResetForNewFrame();
        sdl->PushClipRectFullScreen();
        sdl->PushTextureID(ImGui::GetIO().Fonts->TexID);
        const CacheKey key{ctx.timeline_generation,
                           ctx.lang(),
                           axis_.first_tick,
                           axis_.px_per_tick,
                           frame_.scroll_y,
                           clip_a.x,
                           clip_a.y,
                           clip_b.x,
                           clip_b.y};
        if (!cache_texture_ || !(key == cache_key_)) {
            cache_texture_ = ctx.offscreen->render(0, *sdl, clip_a, ImVec2(clip_b.x - clip_a.x, clip_b.y - clip_a.y));
            cache_key_ = key;
            ++cache_renders_;
        }
        if (!cache_texture_) return dl;  // no framebuffer: draw directly, as without the service
        // The future is veiled (see paint): here by drawing that part of the
        // image at 65 % over the panel's background, rather than a translucent
        // rectangle over the image, which would fill those pixels twice.
        const float veil_x = std::clamp(static_cast<float>(axis_.x_of(static_cast<double>(ctx.playhead) + 1.0)),
                                        frame_.plot_x, clip_b.x);
        const float veil_y = std::clamp(frame_.lanes_y, clip_a.y, clip_b.y);
        const auto uv = [&](float x, float y) {
            return ImVec2((x - clip_a.x) / (clip_b.x - clip_a.x), 1.0f - (y - clip_a.y) / (clip_b.y - clip_a.y));
        };
        const auto part = [&](ImVec2 a, ImVec2 b, ImU32 tint) {
            if (b.x > a.x && b.y > a.y) dl->AddImage(cache_texture_, a, b, uv(a.x, a.y), uv(b.x, b.y), tint);
        };
        part(clip_a, ImVec2(clip_b.x, veil_y), IM_COL32_WHITE);
        part(ImVec2(clip_a.x, veil_y), ImVec2(veil_x, clip_b.y), IM_COL32_WHITE);
        if (!ctx.future_hidden()) part(ImVec2(veil_x, veil_y), clip_b, IM_COL32(255, 255, 255, 165));
        veiled = true;
        return sdl;
    }

    void paint(const FrameContext& ctx, const TimelineViewport& view) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const TimelineFrame& f = frame_;
        const ImVec2 clip_a(view.x, view.y);
        // The clock lanes and the message view, when there are any, are the bottom of the timeline.
        const float bottom = frame_bottom(f);
        const ImVec2 clip_b(view.x + std::floor(view.width), std::floor(bottom));
        bool veiled = false;
        ImDrawList* sdl = still_list(ctx, dl, clip_a, clip_b, veiled);
        const auto push = [&](ImVec2 a) {
            sdl->PushClipRect(a, clip_b, true);
            if (sdl != dl) dl->PushClipRect(a, clip_b, true);
        };
        const auto pop = [&] {
            sdl->PopClipRect();
            if (sdl != dl) dl->PopClipRect();
        };
        push(clip_a);
        draw_ruler(ctx, sdl, f, clip_a, view.ruler_h);
        push(ImVec2(view.x, f.lanes_y));
        paint_frame(ctx, FramePaint{ctx.lanes, f, &ctx.snap}, sdl, dl);
        // The future is veiled: everything shown in the panels is the playhead's tick.
        const float ph_x = static_cast<float>(f.axis.x_of(static_cast<double>(ctx.playhead) + 1.0));
        // Hidden rather than veiled while a prediction waits: the panel's own background, opaque.
        const ImU32 veil = ctx.future_hidden() ? ImGui::GetColorU32(ImGuiCol_WindowBg) : IM_COL32(255, 255, 255, 90);
        if (ph_x < f.plot_x + f.plot_w && !veiled)
            dl->AddRectFilled(ImVec2(std::max(ph_x, f.plot_x), f.lanes_y),
                              ImVec2(f.plot_x + f.plot_w, f.lanes_y + f.lanes_h), veil);
        for (const FrameClockLane& c : f.clocks)  // the clocks' future is veiled too
            if (ph_x < f.plot_x + f.plot_w && !veiled)
                dl->AddRectFilled(ImVec2(std::max(ph_x, f.plot_x), c.box.y0), ImVec2(f.plot_x + f.plot_w, c.box.y1),
                                  veil);
        if (ph_x < f.plot_x + f.plot_w && !veiled && f.messages_box.h() > 0)  // and the messages' future
            dl->AddRectFilled(ImVec2(std::max(ph_x, f.plot_x), f.messages_box.y0),
                              ImVec2(f.plot_x + f.plot_w, f.messages_box.y1), veil);
        pop();
        draw_playhead(ctx, dl, f, view.y, f.lanes_y + std::min(f.lanes_h, f.content_h - f.scroll_y), view.ruler_h);
        paint_lane_arrows(ctx, f, dl);
        pop();
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
    struct TitlesKey {
        std::uint64_t generation = ~std::uint64_t{0};
        Lang lang = Lang::en;
        float font_px = 0;
        bool operator==(const TitlesKey&) const = default;
    };
    TitlesKey titles_key_;
    float titles_w_ = 0;
    std::unique_ptr<ImDrawList> static_list_;
    ImTextureID cache_texture_ = nullptr;
    CacheKey cache_key_;
    std::uint64_t cache_renders_ = 0;

    TimeAxis axis_;
    TimelineFrame frame_;
    bool area_hovered_ = false;
    int hover_lane_ = -1;
    bool initialised_ = false;
    std::uint64_t fit_generation_ = 0;
    float scroll_y_ = 0;
    bool dragged_ = false;
    bool scrubbing_ = false;
    std::int32_t hover_event_ = -1;
    int popup_lane_ = -1;
    Tick popup_tick_ = 0;
    int fault_ticks_ = 3;
    TimelineLegend legend_;
};

}  // namespace

std::unique_ptr<View> make_timeline_view() { return std::make_unique<TimelineView>(); }

}  // namespace leasescope::gui
