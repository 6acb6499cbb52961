// The Live panel: runs the current scenario against a Redis server on a
// worker thread (the app owns it) and draws the live trace under the
// simulated one, lane by lane, with the first divergence marked. Timing
// faults are listed apart: they void a comparison, they are not divergences.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../core/cull.hpp"
#include "../core/trace_lanes.hpp"
#include "../core/words.hpp"
#include "leasescope/redis/redis_url.hpp"
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
    const char* id() const override { return "live"; }

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
        if (!begin_panel(ctx, id(), ctx.tr("panel.live"), ImGuiWindowFlags_NoScrollbar)) {
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
    void draw_controls(const FrameContext& ctx, Commands& out, float em) {
        const LiveStatus& s = ctx.live;
        if (!s.supported) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(red_text, "%s", ctx.tr("live.unsupported"));
            ImGui::PopTextWrapPos();
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
    // tick axis fitted to the width.
    void draw_timelines(const FrameContext& ctx) {
        const LiveStatus& s = ctx.live;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float em = ImGui::GetFontSize();
        // The simulated side: the comparison's trace once there is one, else the app's own.
        const LaneModel& sim_lanes = s.sim_lanes.lanes.empty() ? own_lanes(ctx) : s.sim_lanes;
        const sim::Trace& sim_trace = s.sim_lanes.lanes.empty() ? ctx.timeline.trace() : s.sim_trace;
        const LaneModel& live_lanes = s.live_lanes;
        const Tick end = std::max<Tick>({sim_lanes.end_tick, live_lanes.end_tick, s.end_tick, 1});
        const float label_w = em * 7.5f;
        const float plot_x = origin.x + label_w, plot_w = std::max(40.0f, avail.x - label_w - 6);
        const float ruler_h = em + 6;
        const auto rows = static_cast<int>(sim_lanes.lanes.size()) * 2;
        const float row_h =
            std::clamp((avail.y - ruler_h - em * 1.4f) / static_cast<float>(std::max(1, rows)), 9.0f, 26.0f);
        const float px = plot_w / static_cast<float>(end + 1);
        auto x_of = [&](Tick t) { return plot_x + (static_cast<float>(t) + 0.5f) * px; };

        // Ruler.
        dl->AddRectFilled(origin, ImVec2(plot_x + plot_w, origin.y + ruler_h), IM_COL32(225, 228, 232, 255));
        dl->AddText(ImVec2(origin.x + 4, origin.y + 3), col(ctx.palette.text_dim), ctx.tr("word.tick"));
        const Tick step = std::max<Tick>(1, static_cast<Tick>(std::ceil(46.0f / px)));
        const Tick nice = step <= 1 ? 1 : step <= 2 ? 2 : step <= 5 ? 5 : step <= 10 ? 10 : ((step + 49) / 50) * 50;
        for (Tick t = 0; t <= end; t += nice) {
            const float x = plot_x + static_cast<float>(t) * px;
            dl->AddLine(ImVec2(x, origin.y + ruler_h - 5),
                        ImVec2(x, origin.y + ruler_h + row_h * static_cast<float>(rows)), col(ctx.palette.grid));
            dl->AddText(ImVec2(x + 2, origin.y + 3), col(ctx.palette.text), std::to_string(t).c_str());
        }
        // Timing faults: amber notches on the ruler, never a divergence.
        for (const auto& [tick, late] : s.timing_faults) {
            const float x = x_of(tick);
            dl->AddTriangleFilled(ImVec2(x - 5, origin.y), ImVec2(x + 5, origin.y), ImVec2(x, origin.y + 8),
                                  col(amber));
        }
        // Where the run is now.
        if (s.running() && s.tick_now >= 0) {
            const float x = x_of(s.tick_now);
            dl->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + ruler_h + row_h * static_cast<float>(rows)),
                        col(ctx.palette.playhead), 2.0f);
        }

        float y = origin.y + ruler_h;
        const std::int64_t div = s.divergence_event;
        const bool diverged = s.verdict == LiveVerdict::diverged || s.verdict == LiveVerdict::void_timing;
        for (std::size_t li = 0; li < sim_lanes.lanes.size(); ++li) {
            const Lane& lane = sim_lanes.lanes[li];
            const Lane* live_lane = li < live_lanes.lanes.size() ? &live_lanes.lanes[li] : nullptr;
            for (int side = 0; side < 2; ++side) {
                const bool is_live = side == 1;
                if (is_live)
                    dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(plot_x + plot_w, y + row_h),
                                      IM_COL32(232, 238, 246, 255));
                const std::string label =
                    fmt::format("{} · {}", lane.kind == LaneKind::candidate ? lane.label : ctx.tr("live.store"),
                                ctx.tr(is_live ? "live.row_live" : "live.row_sim"));
                ImGui::PushFont(ctx.fonts.small);
                dl->AddText(ImVec2(origin.x + 4, y + (row_h - ImGui::GetFontSize()) * 0.5f), col(ctx.palette.text),
                            label.c_str());
                ImGui::PopFont();
                const Lane* shown = is_live ? live_lane : &lane;
                if (shown) {
                    const float r = std::clamp(row_h * 0.3f, 3.0f, 7.0f);
                    // Markers less than a marker apart fold into the most telling one
                    // (the divergent event wins), so a long run stays cheap and readable.
                    const Marker* pending = nullptr;
                    float pending_x = 0;
                    auto flush = [&] {
                        if (pending)
                            draw_marker_shape(dl, ImVec2(pending_x, y + row_h * 0.5f), pending->kind,
                                              col(ctx.palette.of(pending->kind)), r);
                        pending = nullptr;
                    };
                    auto rank = [&](const Marker& m) {
                        return diverged && m.event == div ? 1000 : marker_priority(m.kind);
                    };
                    for (const Marker& m : shown->markers) {
                        const float x = x_of(m.tick);
                        if (pending && x - pending_x < r) {
                            if (rank(m) > rank(*pending)) pending = &m;
                            continue;
                        }
                        flush();
                        pending = &m;
                        pending_x = x;
                    }
                    flush();
                }
                y += row_h;
            }
            dl->AddLine(ImVec2(origin.x, y), ImVec2(plot_x + plot_w, y), col(ctx.palette.grid));
        }
        // The first divergence: a crimson column through every row and rings
        // around the differing event on both sides.
        if (diverged && div >= 0) {
            const Rgba loud = ctx.palette.of(SpanKind::stale);
            const sim::Event* e = nullptr;
            if (static_cast<std::size_t>(div) < s.live_trace.events.size())
                e = &s.live_trace.events[static_cast<std::size_t>(div)];
            else if (static_cast<std::size_t>(div) < sim_trace.events.size())
                e = &sim_trace.events[static_cast<std::size_t>(div)];
            const Tick t = e ? e->tick : end;
            const float x = x_of(t);
            dl->AddRectFilled(ImVec2(x - std::max(3.0f, px * 0.5f), origin.y + ruler_h),
                              ImVec2(x + std::max(3.0f, px * 0.5f), y), col(loud, 0.18f));
            dl->AddLine(ImVec2(x, origin.y), ImVec2(x, y), col(loud), 3.0f);
            ring_event(dl, sim_lanes, s.sim_trace, div, false, origin.y + ruler_h, row_h, x_of, loud);
            ring_event(dl, live_lanes, s.live_trace, div, true, origin.y + ruler_h, row_h, x_of, loud);
            const std::string text = ctx.strings.tr("live.divergence_mark", {{"tick", std::to_string(t)}});
            const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
            const float tx = std::min(x + 6, plot_x + plot_w - ts.x - 8);
            dl->AddRectFilled(ImVec2(tx - 3, y + 2), ImVec2(tx + ts.x + 5, y + ts.y + 4), col(loud), 4.0f);
            dl->AddText(ImVec2(tx + 1, y + 3), IM_COL32(255, 255, 255, 255), text.c_str());
        } else {
            ImGui::SetCursorScreenPos(ImVec2(plot_x, y + 3));
            ImGui::TextDisabled("%s", ctx.tr(s.live_lanes.lanes.empty() ? "live.legend_empty" : "live.legend"));
        }
        ImGui::SetCursorScreenPos(ImVec2(origin.x, y + em * 1.4f));
        ImGui::Dummy(ImVec2(1, 1));
    }

    template <class XOf>
    static void ring_event(ImDrawList* dl, const LaneModel& lanes, const sim::Trace& trace, std::int64_t event,
                           bool live_side, float top, float row_h, const XOf& x_of, const Rgba& loud) {
        if (event < 0 || static_cast<std::size_t>(event) >= trace.events.size()) return;
        for (std::size_t li = 0; li < lanes.lanes.size(); ++li) {
            for (const Marker& m : lanes.lanes[li].markers) {
                if (m.event != event) continue;
                const float y = top + row_h * (static_cast<float>(li) * 2.0f + (live_side ? 1.5f : 0.5f));
                dl->AddCircle(ImVec2(x_of(m.tick), y), std::max(9.0f, row_h * 0.55f), col(loud), 0, 3.0f);
                return;
            }
        }
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
    std::uint64_t own_generation_ = ~std::uint64_t{0};
};

}  // namespace

std::unique_ptr<View> make_live_view() { return std::make_unique<LiveView>(); }

}  // namespace leasescope::gui
