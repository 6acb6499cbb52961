// The Live panel: runs the current scenario against a Redis server on a
// worker thread (the app owns it) and draws the live trace under the
// simulated one, lane by lane, with the first divergence marked. Timing
// faults are listed apart: they void a comparison, they are not divergences.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../core/cull.hpp"
#include "../core/timeline_frame.hpp"
#include "../core/trace_lanes.hpp"
#include "../core/words.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "timeline_paint.hpp"
#include "view.hpp"

// After imgui.h (through view.hpp): it needs IMGUI_API.
#include <imgui_stdlib.h>

namespace leasescope::gui {
namespace {

const ImVec4 red_text(0.85f, 0.0f, 0.28f, 1);
const ImVec4 green_text(0.1f, 0.5f, 0.25f, 1);
const ImVec4 amber_text(0.72f, 0.42f, 0.0f, 1);
const Rgba amber{230, 140, 0, 255};

class LiveView final : public View {
public:
    Panel panel() const override { return Panel::live; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!ctx.live.open) return;
        if (!initialised_) {
            // The password never shows: it goes to a masked field of its own.
            const redis::UrlParts parts = redis::split_redis_password(ctx.live.url_initial);
            url_ = parts.url;
            password_ = parts.password;
            tick_ms_ = static_cast<int>(ctx.live.tick_ms > 0 ? ctx.live.tick_ms : ctx.scenario.tick_ms);
            initialised_ = true;
        }
        if (!begin_panel(ctx, panel(), ctx.tr("panel.live"), ImGuiWindowFlags_NoScrollbar)) {
            ImGui::End();
            return;
        }
        const float em = ImGui::GetFontSize();
        const float left_w = std::max(em * 22, ImGui::GetContentRegionAvail().x * 0.32f);
        ImGui::BeginChild("##live_left", ImVec2(left_w, 0), false);
        draw_controls(ctx, out, em);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##live_right", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
        draw_timelines(ctx);
        ImGui::EndChild();
        ImGui::End();
    }

private:
    // One server per store (model.md rule 20.9.4): the panel has one
    // address, so a Redlock run goes live from a terminal.
    static void draw_redlock_terminal_only(const FrameContext& ctx, Commands& out) {
        ImGui::PushTextWrapPos(0);
        const std::string path = ctx.scenario_path.empty() ? std::string("SCENARIO.json") : ctx.scenario_path;
        ImGui::TextColored(
            amber_text, "%s",
            ctx.strings.tr("live.redlock_cli", {{"stores", std::to_string(ctx.scenario.stores.size())}, {"path", path}})
                .c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::LiveToggle{});
    }

    void draw_controls(const FrameContext& ctx, Commands& out, float em) {
        const LiveStatus& s = ctx.live;
        if (!s.supported) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(red_text, "%s", ctx.tr("live.unsupported"));
            ImGui::PopTextWrapPos();
            return;
        }
        if (ctx.scenario.is_redlock() && !s.running()) {
            draw_redlock_terminal_only(ctx, out);
            return;
        }
        const bool running = s.running();
        ImGui::BeginDisabled(running);
        ImGui::SetNextItemWidth(-em * 5.5f);
        ImGui::InputText(ctx.tr("live.url"), &url_);
        ImGui::SetNextItemWidth(em * 9);
        ImGui::InputText(ctx.tr("live.password"), &password_, ImGuiInputTextFlags_Password);
        ImGui::SameLine(0, em);
        ImGui::SetNextItemWidth(em * 5);
        ImGui::InputInt(ctx.tr("live.tick_ms"), &tick_ms_, 0, 0);
        tick_ms_ = std::clamp(tick_ms_, 1, 60000);
        ImGui::EndDisabled();
        if (!running) {
            if (ImGui::Button(ctx.tr("live.run")))
                out.push_back(command::LiveRun{redis::join_redis_password(url_, password_), tick_ms_});
        } else if (ImGui::Button(ctx.tr("live.cancel"))) {
            out.push_back(command::LiveCancel{});
        }
        ImGui::SameLine();
        if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::LiveToggle{});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("live.close_tip"));

        ImGui::PushTextWrapPos(0);
        if (running) {
            const Tick now = std::max<Tick>(0, s.tick_now);
            const float frac = s.end_tick > 0 ? static_cast<float>(now) / static_cast<float>(s.end_tick) : 0.0f;
            const std::string overlay = ctx.strings.tr("live.progress", {{"tick", std::to_string(now)},
                                                                         {"end", std::to_string(s.end_tick)},
                                                                         {"events", std::to_string(s.events_so_far)}});
            ImGui::ProgressBar(std::clamp(frac, 0.0f, 1.0f), ImVec2(-1, em * 1.3f), overlay.c_str());
            ImGui::TextDisabled(
                "%s",
                ctx.strings.tr("live.running", {{"url", s.url_shown}, {"tick_ms", std::to_string(s.tick_ms)}}).c_str());
        } else {
            draw_verdict(ctx, em);
        }
        if (!s.timing_faults.empty()) {
            ImGui::Spacing();
            ImGui::TextColored(
                amber_text, "%s",
                ctx.strings.tr("live.timing_faults", {{"count", std::to_string(s.timing_faults.size())}}).c_str());
            const std::size_t shown = std::min<std::size_t>(s.timing_faults.size(), 4);
            for (std::size_t i = 0; i < shown; ++i)
                ImGui::TextColored(
                    amber_text, "  %s",
                    ctx.strings
                        .tr("live.timing_fault", {{"tick", std::to_string(s.timing_faults[i].first)},
                                                  {"late", fmt::format("{:.1f}", s.timing_faults[i].second)}})
                        .c_str());
            if (s.timing_faults.size() > shown)
                ImGui::TextColored(
                    amber_text, "  %s",
                    ctx.strings.tr("live.more", {{"count", std::to_string(s.timing_faults.size() - shown)}}).c_str());
        }
        ImGui::PopTextWrapPos();
    }

    static void draw_verdict(const FrameContext& ctx, float em) {
        const LiveStatus& s = ctx.live;
        const Fields f{{"url", s.url_shown},
                       {"reason", s.message},
                       {"events", std::to_string(s.live_trace.events.size())},
                       {"tick_ms", std::to_string(s.tick_ms)}};
        ImGui::PushFont(ctx.fonts.title);
        switch (s.verdict) {
            case LiveVerdict::none: break;
            case LiveVerdict::running: break;
            case LiveVerdict::identical:
                ImGui::TextColored(green_text, "%s", ctx.strings.tr("live.identical", f).c_str());
                break;
            case LiveVerdict::diverged:
                ImGui::TextColored(red_text, "%s", ctx.strings.tr("live.diverged", f).c_str());
                break;
            case LiveVerdict::void_timing:
                ImGui::TextColored(amber_text, "%s", ctx.strings.tr("live.void", f).c_str());
                break;
            case LiveVerdict::unreachable:
                ImGui::TextColored(red_text, "%s", ctx.strings.tr("live.unreachable", f).c_str());
                break;
            case LiveVerdict::failed:
                ImGui::TextColored(red_text, "%s", ctx.strings.tr("live.failed", f).c_str());
                break;
            case LiveVerdict::bad_input:
                ImGui::TextColored(red_text, "%s", ctx.strings.tr("live.bad_input", f).c_str());
                break;
            case LiveVerdict::cancelled:
                ImGui::TextColored(amber_text, "%s", ctx.strings.tr("live.cancelled", f).c_str());
                break;
        }
        ImGui::PopFont();
        if (s.verdict == LiveVerdict::none) ImGui::TextDisabled("%s", ctx.tr("live.hint"));
        if (s.verdict == LiveVerdict::identical)
            ImGui::TextDisabled("%s", ctx.strings.tr("live.identical_detail", f).c_str());
        if ((s.verdict == LiveVerdict::diverged || s.verdict == LiveVerdict::void_timing) && !s.message.empty()) {
            // The driver's own words: the first differing event, both sides.
            ImGui::BeginChild("##divergence", ImVec2(0, std::max(em * 4.5f, ImGui::GetContentRegionAvail().y)), true,
                              ImGuiWindowFlags_HorizontalScrollbar);
            ImGui::TextUnformatted(s.message.c_str());
            ImGui::EndChild();
        }
    }

    // The simulated and the live run, one pair of rows per candidate, on one
    // tick axis fitted to the width, drawn by the timeline's painter.
    void draw_timelines(const FrameContext& ctx) {
        const LiveStatus& s = ctx.live;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float em = ImGui::GetFontSize();
        // The simulated side: the comparison's trace once there is one, else the app's own.
        const bool own = s.sim_lanes.lanes.empty();
        const LaneModel& sim_lanes = own ? own_lanes(ctx) : s.sim_lanes;
        const sim::Trace& sim_trace = own ? ctx.timeline.trace() : s.sim_trace;
        const LaneModel& rows = live_rows(ctx, sim_lanes, own);
        const Tick end = std::max<Tick>({sim_lanes.end_tick, s.live_lanes.end_tick, s.end_tick, 1});
        TimelineViewport v;
        v.x = origin.x;
        v.y = origin.y;
        v.width = std::max(60.0f, avail.x - 6);
        v.label_w = em * 7.5f;
        v.ruler_h = em + 10;
        const float row_h = std::clamp(
            (avail.y - v.ruler_h - em * 1.4f) / static_cast<float>(std::max<std::size_t>(1, rows.lanes.size())), 9.0f,
            26.0f);
        v.lane_h_min = v.lane_h_max = row_h;
        v.height = v.ruler_h + row_h * static_cast<float>(rows.lanes.size());
        v.px_per_tick = std::max(50.0f, v.width - v.label_w) / static_cast<double>(end + 1);
        v.scale = ctx.scale;
        v.state_square_w = 0;
        const TimelineFrame f = build_timeline_frame(rows, v, ctx.strings, metrics(ctx));
        const float bottom = f.lanes_y + f.content_h;
        const auto x_of = [&](Tick t) { return static_cast<float>(f.axis.x_of(static_cast<double>(t) + 0.5)); };
        draw_ruler(ctx, dl, f, origin, v.ruler_h);
        for (const RulerLabel& l : f.ruler.labels)
            dl->AddText(ImVec2(l.box.x0, l.box.y0), col(ctx.palette.text), l.text.c_str());
        paint_frame(ctx, FramePaint{rows, f, nullptr}, dl, dl);
        probe_frame(rows, f);
        // Timing faults: amber notches on the ruler, never a divergence.
        for (const auto& [tick, late] : s.timing_faults) {
            const float x = x_of(tick);
            dl->AddTriangleFilled(ImVec2(x - 5, origin.y), ImVec2(x + 5, origin.y), ImVec2(x, origin.y + 8),
                                  col(amber));
        }
        // Where the run is now.
        if (s.running() && s.tick_now >= 0)
            dl->AddLine(ImVec2(x_of(s.tick_now), origin.y), ImVec2(x_of(s.tick_now), bottom), col(ctx.palette.playhead),
                        2.0f);
        const std::int64_t div = s.divergence_event;
        const bool diverged = s.verdict == LiveVerdict::diverged || s.verdict == LiveVerdict::void_timing;
        if (diverged && div >= 0) {
            draw_divergence(ctx, dl, f, rows, sim_trace, end, origin.y, bottom);
        } else {
            ImGui::SetCursorScreenPos(ImVec2(f.plot_x, bottom + 3));
            ImGui::TextDisabled("%s", ctx.tr(s.live_lanes.lanes.empty() ? "live.legend_empty" : "live.legend"));
        }
        ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + em * 1.4f));
        ImGui::Dummy(ImVec2(1, 1));
    }

    // The first divergence: a crimson column through every row and rings
    // around the differing event's mark on both sides.
    static void draw_divergence(const FrameContext& ctx, ImDrawList* dl, const TimelineFrame& f, const LaneModel& rows,
                                const sim::Trace& sim_trace, Tick end, float top, float bottom) {
        const LiveStatus& s = ctx.live;
        const std::int64_t div = s.divergence_event;
        const Rgba loud = ctx.palette.of(SpanKind::stale);
        const sim::Event* e = nullptr;
        if (static_cast<std::size_t>(div) < s.live_trace.events.size())
            e = &s.live_trace.events[static_cast<std::size_t>(div)];
        else if (static_cast<std::size_t>(div) < sim_trace.events.size())
            e = &sim_trace.events[static_cast<std::size_t>(div)];
        const Tick t = e ? e->tick : end;
        const auto x = static_cast<float>(f.axis.x_of(static_cast<double>(t) + 0.5));
        const float half = std::max(3.0f, static_cast<float>(f.axis.px_per_tick) * 0.5f);
        dl->AddRectFilled(ImVec2(x - half, f.lanes_y), ImVec2(x + half, bottom), col(loud, 0.18f));
        dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), col(loud), 3.0f);
        for (const PlacedMark& pm : f.layout.marks) {
            const Marker& m =
                rows.lanes[static_cast<std::size_t>(pm.lane)].markers[static_cast<std::size_t>(pm.marker)];
            if (m.event == div) dl->AddCircle(ImVec2(pm.x, pm.y), std::max(9.0f, pm.r * 1.6f), col(loud), 0, 3.0f);
        }
        const std::string text = ctx.strings.tr("live.divergence_mark", {{"tick", std::to_string(t)}});
        const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
        const float tx = std::min(x + 6, f.plot_x + f.plot_w - ts.x - 8);
        dl->AddRectFilled(ImVec2(tx - 3, bottom + 2), ImVec2(tx + ts.x + 5, bottom + ts.y + 4), col(loud), 4.0f);
        dl->AddText(ImVec2(tx + 1, bottom + 3), IM_COL32(255, 255, 255, 255), text.c_str());
    }

    // The rows the panel draws, built again when either side changes.
    const LaneModel& live_rows(const FrameContext& ctx, const LaneModel& sim_lanes, bool own) {
        const LiveStatus& s = ctx.live;
        const RowsKey key{ctx.timeline_generation,   own,       sim_lanes.event_count, s.live_lanes.event_count,
                          s.live_lanes.lanes.size(), ctx.lang()};
        if (rows_valid_ && key == rows_key_) return rows_;
        rows_ = interleave_lanes(sim_lanes, s.live_lanes, [&](const Lane& lane, bool live_side) {
            return fmt::format("{} · {}", lane.kind == LaneKind::candidate ? lane.label : ctx.tr("live.store"),
                               ctx.tr(live_side ? "live.row_live" : "live.row_sim"));
        });
        rows_key_ = key;
        rows_valid_ = true;
        return rows_;
    }

    // The app's simulated run as bare markers, rebuilt when the scenario changes.
    const LaneModel& own_lanes(const FrameContext& ctx) {
        if (own_generation_ != ctx.timeline_generation) {
            own_ = build_trace_lanes(ctx.timeline.trace(), ctx.scenario.resource);
            own_generation_ = ctx.timeline_generation;
        }
        return own_;
    }

    bool initialised_ = false;
    std::string url_, password_;
    int tick_ms_ = 50;
    LaneModel own_;
    struct RowsKey {
        std::uint64_t generation = 0;
        bool own = false;
        std::size_t sim_events = 0, live_events = 0, live_lanes = 0;
        Lang lang = Lang::en;
        bool operator==(const RowsKey&) const = default;
    };
    LaneModel rows_;
    RowsKey rows_key_;
    bool rows_valid_ = false;
    std::uint64_t own_generation_ = ~std::uint64_t{0};
};

}  // namespace

std::unique_ptr<View> make_live_view() { return std::make_unique<LiveView>(); }

}  // namespace leasescope::gui
