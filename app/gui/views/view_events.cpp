// The event table (Tick, Time, Candidate, Operation, Token, Fencing, TTL, Outcome),
// filterable; a click on a row seeks there. Rows after the playhead are hidden
// unless asked for, so the table agrees with the rest of the screen.
#include <algorithm>

#include "../core/cull.hpp"
#include "../core/words.hpp"
#include "redisson_panels.hpp"
#include "redlock_panels.hpp"
#include "view.hpp"

// After imgui.h (through view.hpp): it needs IMGUI_API.
#include <imgui_stdlib.h>

namespace leasescope::gui {
namespace {

class EventsView final : public View {
public:
    Panel panel() const override { return Panel::events; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (ctx.bottom_taken()) return;  // the Live or Find panel takes this place
        if (!begin_panel(ctx, panel(), ctx.tr("panel.events"), 0, &out)) {
            ImGui::End();
            return;
        }
        const std::size_t visible_rows = draw_filter_row(ctx);
        // Every column as wide as its widest word (never cut); when they do not fit
        // the panel, the table scrolls sideways.
        const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                      ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersInnerH |
                                      ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
        // At least a header and three rows: on a short panel the panel scrolls to the table instead.
        const float table_h =
            std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4 + 12);
        // The time column after the tick: since tick 0, or a recorded history's wall clock (model.md
        // §19.9), a table of its own id, as its times are wider.
        if (ImGui::BeginTable(ctx.lanes.clock.wall ? "events_wall" : "events", 9, flags, ImVec2(0, table_h))) {
            setup_columns(ctx);
            follow_playhead(ctx, visible_rows);
            ImGuiListClipper clipper;
            clipper.Begin(static_cast<int>(visible_rows));
            while (clipper.Step())
                for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r)
                    draw_row(ctx, rows_[static_cast<std::size_t>(r)], out);
            // Room for the sideways scrollbar under the last row: ImGui 1.86 decides the
            // vertical scrollbar as if the sideways one took no height, so rows that fit only
            // without it had the last one cut, with nothing to scroll it into view.
            ImGui::TableNextRow(ImGuiTableRowFlags_None, ImGui::GetStyle().ScrollbarSize);
            ImGui::EndTable();
        }
        ImGui::End();
    }

private:
    // The filter, the two checkboxes and the count; returns how many rows
    // show: those up to the playhead (the filtered indices are sorted), or all.
    std::size_t draw_filter_row(const FrameContext& ctx) {
        const auto& events = ctx.timeline.trace().events;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        ImGui::InputTextWithHint("##filter", ctx.tr("events.filter_hint"), &filter_);
        // The filter row flows: what does not fit goes to the next row.
        const auto flow = [](float w) {
            const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
            if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        };
        const auto checkbox_w = [](const char* label) {
            return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        };
        flow(checkbox_w(ctx.tr("events.show_future")));
        ImGui::Checkbox(ctx.tr("events.show_future"), &show_future_);
        flow(checkbox_w(ctx.tr("events.show_retries")));
        ImGui::Checkbox(ctx.tr("events.show_retries"), &show_retries_);
        refresh(ctx, events);
        const std::size_t limit = ctx.timeline.first_event_at_or_after(ctx.playhead + 1);
        const std::size_t visible_rows =
            show_future_
                ? rows_.size()
                : static_cast<std::size_t>(std::lower_bound(rows_.begin(), rows_.end(), limit) - rows_.begin());
        const std::string count = ctx.strings.tr(
            "events.count", {{"shown", std::to_string(visible_rows)}, {"total", std::to_string(events.size())}});
        flow(ImGui::CalcTextSize(count.c_str()).x);
        ImGui::TextDisabled("%s", count.c_str());
        return visible_rows;
    }

    static void setup_columns(const FrameContext& ctx) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn(ctx.tr("col.tick"), ImGuiTableColumnFlags_WidthFixed);
        const std::string time_title = time_column_words(ctx.lanes.clock, ctx.strings);
        ImGui::TableSetupColumn(time_title.c_str(), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(ctx.tr("col.candidate"), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(ctx.tr("col.operation"), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(ctx.tr("col.token"), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(ctx.tr("col.fencing"), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(ctx.tr("col.ttl"), ImGuiTableColumnFlags_WidthFixed);
        // The event's mark, the same glyph as on the timeline and in the legend.
        ImGui::TableSetupColumn("##mark", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 1.3f);
        ImGui::TableSetupColumn(ctx.tr("col.outcome"), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableHeadersRow();
    }

    // Follow the playhead: keep its latest row (or the selected one) in view when it moves.
    void follow_playhead(const FrameContext& ctx, std::size_t visible_rows) {
        const float row_h = ImGui::GetTextLineHeightWithSpacing();
        if (ctx.playhead == followed_tick_ && ctx.selected_event == followed_event_) return;
        followed_tick_ = ctx.playhead;
        followed_event_ = ctx.selected_event;
        std::size_t target = visible_rows > 0 ? visible_rows - 1 : 0;
        if (ctx.selected_event >= 0) {
            auto it = std::lower_bound(rows_.begin(), rows_.end(), static_cast<std::size_t>(ctx.selected_event));
            if (it != rows_.end() && *it == static_cast<std::size_t>(ctx.selected_event))
                target = static_cast<std::size_t>(it - rows_.begin());
        }
        const float y = static_cast<float>(target) * row_h;
        const float view_h = ImGui::GetWindowHeight() - row_h * 2;
        if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + view_h)
            ImGui::SetScrollY(std::max(0.0f, y - view_h * 0.5f));
    }

    // The row of event `k`; a click selects it.
    void draw_row(const FrameContext& ctx, std::size_t k, Commands& out) const {
        const sim::Event& e = ctx.timeline.trace().events[k];
        ImGui::TableNextRow();
        if (e.tick == ctx.playhead) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, col(ctx.palette.playhead, 0.14f));
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(static_cast<int>(k));
        const std::string tick = std::to_string(e.tick);
        if (ImGui::Selectable(tick.c_str(), static_cast<std::int32_t>(k) == ctx.selected_event,
                              ImGuiSelectableFlags_SpanAllColumns))
            out.push_back(command::SelectEvent{static_cast<std::int64_t>(k)});
        ImGui::PopID();
        // After the tick its time (a recorded line's: the server's time of the line).
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(ctx.lanes.clock.of(e).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(e.node.empty() ? "–" : e.node.c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(op_words(e, ctx.strings).c_str());
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(short_token(e.token, 6).c_str());
        ImGui::TableSetColumnIndex(5);
        ImGui::TextUnformatted(e.fencing ? std::to_string(*e.fencing).c_str() : "–");
        ImGui::TableSetColumnIndex(6);
        ImGui::TextUnformatted(e.ttl ? std::to_string(*e.ttl).c_str() : "–");
        ImGui::TableSetColumnIndex(7);
        const int mark = k < marks_.size() ? marks_[k] : -1;
        if (mark >= 0) draw_mark_cell(ctx, static_cast<MarkerKind>(mark));
        ImGui::TableSetColumnIndex(8);
        const bool bad = mark >= 0 && is_alarm(static_cast<MarkerKind>(mark));
        std::string outcome = ctx.redlock ? redlock_outcome_words(ctx, e, mark) : std::string();
        if (outcome.empty()) outcome = outcome_words(e, ctx.strings, ctx.timeline.trace().header);
        if (bad)
            ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", outcome.c_str());
        else
            ImGui::TextUnformatted(outcome.c_str());
    }

    // The event's mark, its legend words on hover.
    static void draw_mark_cell(const FrameContext& ctx, MarkerKind mk) {
        const float h = ImGui::GetFontSize();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw_marker_shape(ImGui::GetWindowDrawList(), ImVec2(p.x + h * 0.6f, p.y + h * 0.55f), mk,
                          col(ctx.palette.of(mk)), h * 0.36f);
        ImGui::Dummy(ImVec2(h * 1.2f, h));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.tr((std::string("legend.") + marker_kind_name(mk)).c_str()));
    }

    // Rebuilds the filtered row list only when its inputs change.
    void refresh(const FrameContext& ctx, const std::vector<sim::Event>& events) {
        if (ctx.timeline_generation == cached_generation_ && filter_ == cached_filter_ && ctx.lang() == cached_lang_ &&
            show_retries_ == cached_retries_)
            return;
        cached_generation_ = ctx.timeline_generation;
        cached_filter_ = filter_;
        cached_lang_ = ctx.lang();
        cached_retries_ = show_retries_;
        rows_.clear();
        // Each event's mark, read off the lanes so the table shows exactly the timeline's.
        marks_.assign(events.size(), -1);
        for (const Lane& lane : ctx.lanes.lanes)
            for (const Marker& m : lane.markers)
                if (m.event >= 0 && static_cast<std::size_t>(m.event) < events.size())
                    marks_[static_cast<std::size_t>(m.event)] = static_cast<int>(m.kind);
        ImGuiTextFilter filter(filter_.c_str());
        for (std::size_t k = 0; k < events.size(); ++k) {
            const sim::Event& e = events[k];
            // Busy retries repeat every tick; they are hidden unless asked for.
            if (!show_retries_ && e.op == sim::EventOp::acquire && e.outcome == sim::Outcome::busy) {
                if (!is_first_attempt(events, k)) continue;
            }
            if (filter.IsActive()) {
                const std::string row = e.node + " " + op_words(e, ctx.strings) + " " + outcome_words(e, ctx.strings) +
                                        " " + sim::to_string(e.op) + " " + sim::to_string(e.outcome) + " " +
                                        sim::detail_text(e);
                if (!filter.PassFilter(row.c_str())) continue;
            }
            rows_.push_back(k);
        }
    }

    // The first busy attempt of a run stays visible, so waiting is not hidden.
    static bool is_first_attempt(const std::vector<sim::Event>& events, std::size_t k) {
        const sim::Event& e = events[k];
        for (std::size_t j = k; j-- > 0;) {
            const sim::Event& p = events[j];
            if (p.node != e.node) continue;
            if (p.op == sim::EventOp::acquire && p.run == e.run) return false;
            if (p.op == sim::EventOp::start) return true;
            if (e.tick - p.tick > 1000) return true;
        }
        return true;
    }

    std::string filter_;
    bool show_future_ = false;
    bool show_retries_ = false;
    std::vector<std::size_t> rows_;
    std::vector<int> marks_;  // per event: its MarkerKind, -1 when it has no mark
    std::uint64_t cached_generation_ = ~std::uint64_t{0};
    std::string cached_filter_ = "\x01";
    Lang cached_lang_ = Lang::en;
    bool cached_retries_ = false;
    Tick followed_tick_ = -1;
    std::int32_t followed_event_ = -1;
};

}  // namespace

std::unique_ptr<View> make_events_view() { return std::make_unique<EventsView>(); }

}  // namespace leasescope::gui
