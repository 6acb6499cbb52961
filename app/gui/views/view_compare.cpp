// Side by side on screen (view_compare.hpp): the pair's top bar with B's own knobs, run A over run B on one
// tick axis with the shared playhead and the first divergence, each run's state at the playhead, and the words.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui_internal.h>  // FindWindowByName: the top bar's height in the last frame

#include "../core/resource_data.hpp"
#include "../core/timeline_frame.hpp"
#include "../core/words.hpp"
#include "redisson_panels.hpp"
#include "timeline_paint.hpp"
#include "view_compare.hpp"

namespace leasescope::gui {
namespace {

constexpr ImGuiWindowFlags fixed_flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                                         ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoTitleBar |
                                         ImGuiWindowFlags_NoSavedSettings;

void fixed_window(const char* name, ImVec2 pos, ImVec2 size, ImGuiWindowFlags extra = 0) {
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
    ImGui::SetNextWindowSize(size, ImGuiCond_Always);
    ImGui::Begin(name, nullptr, fixed_flags | extra);
}

std::string title_of(const sim::Scenario& sc, Lang lang) {
    const std::string& t = lang == Lang::ko && !sc.title.ko.empty() ? sc.title.ko : sc.title.en;
    return t.empty() ? sc.name : t;
}

// The top bar wraps: the next item, `w` wide, goes on the row of the last
// one when it fits there, else it starts a new row.
void flow(float w) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
}
float button_w(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}
bool flow_button(const char* label) {
    flow(button_w(label));
    return ImGui::Button(label);
}

// One run: what the state column and the lanes read.
struct Run {
    const char* id;
    const char* letter;
    const sim::Timeline& timeline;
    const LaneModel& lanes;
    const sim::Snapshot& snap;
    std::string title;
};

// The data the run's writes left by the playhead (core/resource_data.hpp), crimson when a lost
// update put it there: side by side, the two runs' data differ where the fence made a difference.
void draw_data_now(const FrameContext& ctx, const Run& run) {
    const std::size_t end = run.timeline.first_event_at_or_after(run.snap.tick + 1);
    const ResourceData data = resource_data(run.timeline.trace(), end);
    const std::string text = data_now_words(data, ctx.strings);
    if (data.value && data.writes[*data.value].lost_update)
        ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", text.c_str());
    else
        ImGui::TextUnformatted(text.c_str());
}

// The three columns of a Redisson run (model.md §21): the hash, the resource
// with no fencing number, the clients in Redisson's terms; the snapshot has no elector.
void draw_redisson_columns(const FrameContext& ctx, const Run& run) {
    const sim::Trace& trace = run.timeline.trace();
    const Tick t = run.snap.tick;
    const words::RedissonFacts f =
        words::redisson_facts_at(trace, run.timeline.replayed() ? nullptr : &run.timeline.scenario(), t);
    ImGui::TableSetColumnIndex(0);
    ImGui::PushTextWrapPos(0.0f);
    draw_redisson_hash_lines(ctx, f, t);
    ImGui::PopTextWrapPos();
    ImGui::TableSetColumnIndex(1);
    draw_fenceless_resource_head(ctx, "rsp.resource_mode", f.writes, f.stale, f.unsafe);
    draw_data_now(ctx, run);
    ImGui::TableSetColumnIndex(2);
    draw_redisson_state_badges(ctx, trace, f, t);
}

// The record, the resource and the candidates of one run at the playhead, side by side in three columns.
void draw_state(const FrameContext& ctx, const Run& run) {
    const sim::Snapshot& snap = run.snap;
    const Tick t = snap.tick;
    if (!ImGui::BeginTable(run.letter, 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY)) return;
    ImGui::TableSetupColumn(ctx.tr("compare.record"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(ctx.tr("compare.resource"), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(ctx.tr("compare.candidates"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    if (run.timeline.trace().header.format == 6) {
        draw_redisson_columns(ctx, run);
        ImGui::EndTable();
        return;
    }
    ImGui::TableSetColumnIndex(0);
    ImGui::PushTextWrapPos(0.0f);
    for (std::size_t i = 0; i < snap.slots.size(); ++i) {
        const auto& s = snap.slots[i];
        if (s.valid_at(t))
            ImGui::Text("%s · %s #%lld · %s %lld", s.owner.c_str(), short_token(s.token, 6).c_str(),
                        static_cast<long long>(s.fencing), ctx.tr("record.expires_at"),
                        static_cast<long long>(s.expires_at));
        else
            ImGui::TextDisabled("%zu: %s", i, ctx.tr("compare.no_record"));
    }
    ImGui::Text("%s %lld", ctx.tr("record.counter"), static_cast<long long>(snap.counter));
    ImGui::PopTextWrapPos();
    ImGui::TableSetColumnIndex(1);
    ImGui::PushTextWrapPos(0.0f);
    // A replayed history's resource judged each write itself (model.md §19.9): no mode of ours.
    const std::string mode =
        run.timeline.replayed()
            ? ctx.strings.tr("resource.mode_recorded")
            : ctx.strings.tr(
                  "resource.mode",
                  {{"mode", ctx.strings.tr(std::string("mode.") + sim::to_string(run.timeline.scenario().resource))}});
    ImGui::TextUnformatted(mode.c_str());
    draw_data_now(ctx, run);
    if (snap.resource.highest_accepted) {
        ImGui::TextUnformatted(
            ctx.strings.tr("resource.highest", {{"fencing", std::to_string(*snap.resource.highest_accepted)}}).c_str());
        ImGui::SameLine();
    }
    ImGui::TextUnformatted(ctx.strings
                               .tr("resource.counts", {{"accepted", std::to_string(snap.resource.accepted)},
                                                       {"rejected", std::to_string(snap.resource.rejected)}})
                               .c_str());
    if (snap.violations.unsafe_write > 0)
        ImGui::TextColored(
            ImVec4(0.85f, 0.0f, 0.28f, 1), "%s",
            ctx.strings.tr("resource.unsafe", {{"count", std::to_string(snap.violations.unsafe_write)}}).c_str());
    ImGui::PopTextWrapPos();
    ImGui::TableSetColumnIndex(2);
    for (const sim::NodeSnapshot& n : snap.nodes) {
        ImGui::TextUnformatted(n.name.c_str());
        ImGui::SameLine();
        badge(status_words(n.status, ctx.strings).c_str(), ctx.palette.of(span_kind_of(n.status)));
        if (n.paused) {
            ImGui::SameLine();
            badge(ctx.tr("legend.paused"), ctx.palette.of(SpanKind::paused));
        }
        if (n.fencing) {
            ImGui::SameLine();
            ImGui::TextDisabled("#%lld", static_cast<long long>(*n.fencing));
        }
    }
    ImGui::EndTable();
}

// Where one run's lanes go: the shared axis [0, t_end] across the width,
// every lane in view (the rows share `height`, under a ruler, above the
// divergence's label). When the rows would get lower than a lane's title,
// they keep that height and scroll by `scroll_y`, with a scrollbar and a hint
// (the main view's rule), and the divergence's label gives its room to them.
// The height of a run's message view here (0 without time on the wire).
float compare_messages_h(const FrameContext& ctx, const Run& run) {
    TimelineViewport v;
    v.scale = ctx.scale;
    v.title_h = ImGui::GetFontSize() + 2;
    return message_strip_want_h(run.lanes, v);
}

TimelineViewport compare_viewport(const FrameContext& ctx, const Run& run, Tick t_end, float height, float scroll_y) {
    const float em = ImGui::GetFontSize();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    TimelineViewport v;
    v.x = p0.x;
    v.y = p0.y;
    v.width = std::max(60.0f, ImGui::GetContentRegionAvail().x - 6.0f);
    v.label_w = em * 6.0f;
    v.ruler_h = em + 10;
    const auto lanes = static_cast<float>(std::max<std::size_t>(1, run.lanes.lanes.size()));
    const float messages_h = compare_messages_h(ctx, run);  // under the lanes
    const float row_h = std::clamp((height - v.ruler_h - em * 1.4f - messages_h) / lanes, 6.0f, em * 1.35f);
    v.lane_h_min = v.lane_h_max = row_h;
    v.height = v.ruler_h + row_h * lanes + messages_h;
    v.title_h = em + 2;
    if (row_h < v.title_h) {
        v.lane_h_min = v.lane_h_max = std::max(v.title_h, 20.0f * ctx.scale);  // the main view's least lane
        v.height = std::max(v.ruler_h + v.title_h, height);
        v.hint_h = ctx.fonts.small->FontSize + 6;
        v.scrollbar_w = 8.0f * ctx.scale;
        v.scroll_y = scroll_y;
    }
    v.px_per_tick = std::max(50.0f, v.width - v.label_w - v.scrollbar_w) / static_cast<double>(t_end + 1);
    v.playhead = ctx.playhead;
    v.scale = ctx.scale;
    return v;
}

// The divergence's label under the lanes, where it hides no tick number.
void draw_divergence_label(const FrameContext& ctx, const TimelineFrame& f, Tick divergence, float bottom) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto x = static_cast<float>(f.axis.x_of(static_cast<double>(divergence) + 0.5));
    const std::string text = ctx.strings.tr("compare.divergence", {{"tick", std::to_string(divergence)}});
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    const float tx = std::clamp(x - ts.x * 0.5f, f.plot_x, f.plot_x + f.plot_w - ts.x - 4);
    dl->AddRectFilled(ImVec2(tx - 3, bottom + 2), ImVec2(tx + ts.x + 3, bottom + 2 + ts.y),
                      col(ctx.palette.focus, 0.9f), 3);
    dl->AddText(ImVec2(tx, bottom + 2), IM_COL32(0, 0, 0, 255), text.c_str());
}

// The lanes of one run, drawn by the timeline's painter from its frame, the
// first divergence's dashed line (which gives way to marks and words) and
// its label under the lanes (when they all fit). A click seeks; the wheel
// scrolls lanes that do not fit (the run's window keeps the offset).
void draw_lanes(const FrameContext& ctx, const Run& run, Tick t_end, Tick divergence, float height, Commands& out) {
    float* scroll = ImGui::GetStateStorage()->GetFloatRef(ImGui::GetID("##lanes_scroll"), 0.0f);
    const TimelineViewport v = compare_viewport(ctx, run, t_end, height, *scroll);
    const TimelineFrame f = build_timeline_frame(run.lanes, v, ctx.strings, metrics(ctx));
    *scroll = f.scroll_y;
    const FramePaint paint{run.lanes, f, &run.snap};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float bottom = f.lanes_y + std::min(f.lanes_h, f.content_h - f.scroll_y);
    const bool scrolls = f.scrollbar.h() > 0;
    // The message view, when the run has one, is under the lanes: the clip,
    // the divergence's label and the mouse reach its bottom.
    const float under = f.messages_box.h() > 0 ? f.messages_box.y1 : bottom;
    dl->PushClipRect(ImVec2(v.x, v.y), ImVec2(v.x + v.width, std::max(bottom + f.hint_box.h(), under) + 2), true);
    draw_ruler(ctx, dl, f, ImVec2(v.x, v.y), v.ruler_h);
    // Scrolled lanes stay under the ruler.
    if (scrolls) dl->PushClipRect(ImVec2(v.x, f.lanes_y), ImVec2(v.x + v.width, bottom + f.hint_box.h()), true);
    paint_frame(ctx, paint, dl, dl);
    if (scrolls) dl->PopClipRect();
    draw_playhead(ctx, dl, f, v.y, bottom, v.ruler_h);
    probe_frame(run.lanes, f);
    if (divergence >= 0) {
        const auto x = static_cast<float>(f.axis.x_of(static_cast<double>(divergence) + 0.5));
        for (const auto& [y0, y1] : dashes_clear_of_frame(f, x, f.lanes_y, bottom, 6.0f, 4.0f))
            dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), col(ctx.palette.focus), 3.0f);
    }
    dl->PopClipRect();
    if (divergence >= 0 && !scrolls) draw_divergence_label(ctx, f, divergence, under);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImGui::SetCursorScreenPos(ImVec2(f.plot_x, v.y));
    ImGui::InvisibleButton(run.id, ImVec2(f.plot_w, std::max(1.0f, under - v.y)));
    const bool hovered = ImGui::IsItemHovered();
    if (ImGui::IsItemActive() && ImGui::IsMouseDown(0)) {
        const auto t = static_cast<Tick>(std::floor(f.axis.tick_at(mouse.x)));
        if (t != ctx.playhead) out.push_back(command::Seek{std::clamp<Tick>(t, 0, t_end)});
        if (scrolls) *scroll = std::max(0.0f, *scroll - ImGui::GetIO().MouseDelta.y);  // the hint's "drag"
    }
    const float after =
        scrolls ? std::max(bottom + f.hint_box.h(), under) + 4 : under + ImGui::GetFontSize() * 1.4f + 2;
    ImGui::SetCursorScreenPos(ImVec2(v.x, after));
    if (!hovered) return;
    const float wheel = ImGui::GetIO().MouseWheel;
    if (scrolls && wheel != 0.0f) *scroll = std::max(0.0f, *scroll - wheel * f.lane_h);
    const std::string words = hit_words(ctx, paint, run.timeline.trace(), hit_test(f, mouse.x, mouse.y));
    if (!words.empty()) ImGui::SetTooltip("%s", words.c_str());
}

// B's own knobs: the resource mode, autoExtend and the lease, written as overrides on B only.
void draw_b_knobs(const FrameContext& ctx, const ComparePair& pair, Commands& out) {
    const sim::Scenario& b = pair.b().scenario();
    ImGui::TextUnformatted(ctx.tr("compare.variant_knobs"));
    const char* modes[] = {"off", "check", "validate"};
    flow(ImGui::GetFontSize() * 10);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    const std::string shown = ctx.strings.tr(std::string("mode.") + sim::to_string(b.resource));
    if (ImGui::BeginCombo("##bmode", shown.c_str())) {
        for (const char* m : modes)
            if (ImGui::Selectable(ctx.strings.tr(std::string("mode.") + m).c_str(),
                                  std::string(m) == sim::to_string(b.resource)))
                out.push_back(command::CompareSetB{{std::string("resource.mode=") + m}});
        ImGui::EndCombo();
    }
    bool all_extend = !b.candidates.empty();
    Tick lease = b.candidates.empty() ? 0 : b.candidates.front().options.lease;
    for (const sim::Candidate& c : b.candidates) all_extend = all_extend && c.options.auto_extend;
    const ImGuiStyle& style = ImGui::GetStyle();
    flow(ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("autoExtend").x);
    bool extend = all_extend;
    auto every = [&](const std::string& key, const std::string& value) {
        std::vector<std::string> o;
        for (std::size_t i = 0; i < b.candidates.size(); ++i)
            o.push_back("candidates/" + std::to_string(i) + "/" + key + "=" + value);
        return o;
    };
    if (ImGui::Checkbox("autoExtend##b", &extend))
        out.push_back(command::CompareSetB{every("auto_extend", extend ? "true" : "false")});
    // The lease and its buttons stay on one row.
    const std::string lease_text = std::to_string(lease);
    flow(ImGui::CalcTextSize(ctx.tr("param.lease")).x + button_w("-") + button_w("+") +
         ImGui::CalcTextSize(lease_text.c_str()).x + style.ItemSpacing.x * 3);
    ImGui::TextUnformatted(ctx.tr("param.lease"));
    ImGui::SameLine();
    if (ImGui::SmallButton("-##lease") && lease > 1)
        out.push_back(command::CompareSetB{every("lease", std::to_string(lease - 1))});
    ImGui::SameLine();
    ImGui::TextUnformatted(lease_text.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("+##lease")) out.push_back(command::CompareSetB{every("lease", std::to_string(lease + 1))});
    if (!pair.b_overrides.empty()) {
        std::string all;
        for (const std::string& o : pair.b_overrides) all += (all.empty() ? "B: " : "  ") + o;
        flow(ImGui::CalcTextSize(all.c_str()).x);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", all.c_str());
        ImGui::PopTextWrapPos();
    }
}

constexpr const char* compare_top_name = "##compare_top";

// The top bar's height: what its wrapped rows took in the last frame (the
// first frame guesses two rows), at most `most`; beyond that it scrolls.
float compare_top_h(float em, float most) {
    float need = em * 4.4f;
    if (const ImGuiWindow* win = ImGui::FindWindowByName(compare_top_name))
        need = win->ContentSize.y + ImGui::GetStyle().WindowPadding.y * 2;
    return std::round(std::clamp(need, std::min(em * 4.4f, most), most));
}

// The top bar: title, transport, exports, close; then B's knobs (the rows wrap).
void draw_compare_top(const FrameContext& ctx, const ComparePair& pair, Tick t_end, Tick divergence, float top_h,
                      Commands& out) {
    const float w = ImGui::GetIO().DisplaySize.x, em = ImGui::GetFontSize();
    fixed_window(compare_top_name, ImVec2(0, 0), ImVec2(w, top_h));
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(ctx.tr("compare.title"));
    ImGui::PopFont();
    // The transport stays together on one row.
    const float transport_w = button_w("|<") + button_w("<") + button_w(">>") + button_w(">") + button_w(">|") +
                              ImGui::GetStyle().ItemSpacing.x * 4;
    flow(transport_w);
    if (ImGui::Button("|<")) out.push_back(command::Seek{0});
    ImGui::SameLine();
    if (ImGui::Button("<")) out.push_back(command::Step{-1});
    ImGui::SameLine();
    if (ImGui::Button(ctx.playing ? "||" : ">>")) out.push_back(command::TogglePlay{});
    ImGui::SameLine();
    if (ImGui::Button(">")) out.push_back(command::Step{1});
    ImGui::SameLine();
    if (ImGui::Button(">|")) out.push_back(command::Seek{t_end});
    int tick = static_cast<int>(ctx.playhead);
    flow(em * 14);
    ImGui::SetNextItemWidth(em * 14);
    if (ImGui::SliderInt("##tick", &tick, 0, static_cast<int>(t_end))) out.push_back(command::Seek{tick});
    if (divergence >= 0 &&
        flow_button(ctx.strings.tr("compare.divergence", {{"tick", std::to_string(divergence)}}).c_str()))
        out.push_back(command::Seek{divergence});
    const std::string base =
        "pair-" + (pair.pair_name.empty() ? ctx.scenario.name : pair.pair_name) + "-t" + std::to_string(ctx.playhead);
    if (flow_button(ctx.tr("compare.export_png"))) out.push_back(command::ExportPng{base + ".png"});
    if (flow_button(ctx.tr("compare.export_svg"))) out.push_back(command::ExportPairSvg{base + ".svg"});
    if (flow_button(ctx.tr("compare.close"))) out.push_back(command::CompareClose{});
    draw_b_knobs(ctx, pair, out);
    if (!ctx.error.empty())
        ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", ctx.error.c_str());
    else if (!ctx.notice.empty())
        ImGui::TextDisabled("%s", ctx.notice.c_str());
    ImGui::End();
}

// The difference in words, at the bottom.
void draw_compare_words(const FrameContext& ctx, const ComparePair& pair, float words_h) {
    const ImGuiIO& io = ImGui::GetIO();
    fixed_window("##compare_words", ImVec2(0, io.DisplaySize.y - words_h), ImVec2(io.DisplaySize.x, words_h));
    ImGui::PushFont(ctx.fonts.title);
    ImGui::TextUnformatted(ctx.tr("compare.in_words"));
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    for (const Sentence& s : pair.sentences()) {
        ImGui::Bullet();
        ImGui::TextUnformatted(s.text.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
}

// Whether the screen is too small for the usual split: there, a run's lanes
// would get lower than their titles.
bool compare_cramped(const FrameContext& ctx, const ComparePair& pair, float h) {
    const float em = ImGui::GetFontSize();
    const std::size_t most = std::max(ctx.lanes.lanes.size(), pair.lanes_b().lanes.size());
    const float run_h = std::floor((h - std::round(em * 4.4f) - std::round(std::max(em * 7.0f, h * 0.19f))) / 2.0f);
    const float title = ImGui::GetTextLineHeightWithSpacing() * 1.3f + ImGui::GetStyle().WindowPadding.y * 2;
    const float lanes_h = std::min((run_h - title) * 0.64f, em * (2.8f + 1.35f * static_cast<float>(most)));
    const float ruler_h = em + 10;
    return (lanes_h - ruler_h - em * 1.4f) / static_cast<float>(std::max<std::size_t>(most, 1)) < em + 2;
}

}  // namespace

void draw_compare(const FrameContext& ctx, const ComparePair& pair, Commands& out) {
    const ImGuiIO& io = ImGui::GetIO();
    const float w = io.DisplaySize.x, h = io.DisplaySize.y, em = ImGui::GetFontSize();
    const Tick t_end = pair.end_tick(ctx.lanes);
    const auto& d = pair.divergence();
    const Tick divergence = d.differ ? d.first_tick : -1;
    // Each run marks its own divergent event (a run with no more events marks diff's tick).
    const Tick mark_a = !d.differ ? -1 : (d.tick_a >= 0 ? d.tick_a : d.tick);
    const Tick mark_b = !d.differ ? -1 : (d.tick_b >= 0 ? d.tick_b : d.tick);
    // On a cramped screen the lanes keep priority: the top bar takes at most
    // a fifth of the height (it scrolls beyond) and the words a few lines.
    const bool cramped = compare_cramped(ctx, pair, h);
    const float top_h = compare_top_h(em, std::round(h * (cramped ? 0.2f : 0.42f)));
    draw_compare_top(ctx, pair, t_end, divergence, top_h, out);

    // The two runs, each with its state column, then the words.
    const float words_h =
        cramped ? std::round(std::max(em * 3.2f, h * 0.12f)) : std::round(std::max(em * 7.0f, h * 0.19f));
    const float run_h = std::floor((h - top_h - words_h) / 2.0f);
    std::string label_b = "B · " + title_of(pair.b().scenario(), ctx.lang());
    if (!pair.b_overrides.empty()) label_b += " (" + ctx.strings.tr("compare.variant") + ")";
    const Run runs[2] = {
        {"##run_a", "A", ctx.timeline, ctx.lanes, ctx.snap, "A · " + title_of(ctx.scenario, ctx.lang())},
        {"##run_b", "B", pair.b(), pair.lanes_b(), pair.snap_b(), label_b},
    };
    for (int r = 0; r < 2; ++r) {
        const Run& run = runs[r];
        const float y = top_h + run_h * static_cast<float>(r);
        fixed_window((std::string("##run") + run.letter).c_str(), ImVec2(0, y), ImVec2(w, run_h),
                     ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        if (!cramped) ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(run.title.c_str());
        if (!cramped) ImGui::PopFont();
        // The lanes get what they need up to two thirds; the state columns the rest
        // (on a cramped screen, what the lanes leave, when it holds a few lines).
        const float avail = ImGui::GetContentRegionAvail().y;
        const float need =
            em * (2.8f + 1.35f * static_cast<float>(run.lanes.lanes.size())) + compare_messages_h(ctx, run);
        const float lanes_h = cramped ? std::min(avail, need) : std::min(avail * 0.64f, need);
        draw_lanes(ctx, run, t_end, r == 0 ? mark_a : mark_b, lanes_h, out);
        if (!cramped || ImGui::GetContentRegionAvail().y >= em * 2.5f) draw_state(ctx, run);
        ImGui::End();
    }
    draw_compare_words(ctx, pair, words_h);
}

void draw_compare_menu(const FrameContext& ctx, Commands& out) {
    if (ImGui::Button(ctx.tr("compare.menu"))) ImGui::OpenPopup("compare_menu");
    if (!ImGui::BeginPopup("compare_menu")) return;
    for (const ReadyPair& p : ready_pairs())
        if (ImGui::MenuItem(ctx.strings.tr("compare.pair." + p.name).c_str()))
            out.push_back(command::CompareOpen{p.name, "", {}});
    ImGui::Separator();
    if (ImGui::BeginMenu(ctx.tr("compare.with_preset"))) {
        for (const PresetInfo& p : ctx.presets) {
            const std::string& t = ctx.lang() == Lang::ko && !p.title.ko.empty() ? p.title.ko : p.title.en;
            if (ImGui::MenuItem(t.empty() ? p.name.c_str() : t.c_str()))
                out.push_back(command::CompareOpen{"", p.path, {}});
        }
        ImGui::EndMenu();
    }
    // A replayed history has no scenario to copy: its draft is compared as a file (model.md §19.9).
    if (ImGui::MenuItem(ctx.tr("compare.with_variant"), nullptr, false, !ctx.timeline.replayed()))
        out.push_back(command::CompareOpen{"", "", {}});
    if (ImGui::BeginMenu(ctx.tr("compare.with_file"))) {
        static std::string path;  // what the user typed; the menu's own state
        char buf[1024];
        std::snprintf(buf, sizeof buf, "%s", path.c_str());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
        if (ImGui::InputTextWithHint("##cmp_path", ctx.tr("compare.file_hint"), buf, sizeof buf)) path = buf;
        ImGui::SameLine();
        if (ImGui::Button(ctx.tr("compare.open")) && !path.empty()) {
            out.push_back(command::CompareOpen{"", path, {}});
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem(ctx.tr("narrate.menu"))) out.push_back(command::NarrateToggle{});
    ImGui::EndPopup();
}

}  // namespace leasescope::gui
