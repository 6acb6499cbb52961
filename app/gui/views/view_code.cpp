// The Code panel: from the picture to the code. For the candidate of the
// chosen event (the first candidate when none) it shows the real client's
// call with these knobs and tick_ms (Kotlin, Spring, d-core), and the Redis
// commands and Lua scripts the live store sends for that event, built by the
// store's own call builders (core/code_snippets.hpp). A copy button per tab.
#include <algorithm>
#include <set>

#include "../core/code_snippets.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

const char* note_key(CallNote note) {
    switch (note) {
        case CallNote::none: return nullptr;
        case CallNote::no_redis: return "code.note_no_redis";
        case CallNote::release_read: return "code.note_release_read";
        case CallNote::not_owner_read: return "code.note_not_owner_read";
        case CallNote::failed: return "code.note_failed";
        case CallNote::every_tick: return "code.note_every_tick";
    }
    return nullptr;
}

// Words on the left, a block of code with its copy button on the right.
template <typename Notes>
void notes_and_code(const FrameContext& ctx, const char* id, Notes&& notes, const std::string& code) {
    ImGui::PushID(id);
    const float em = ImGui::GetFontSize();
    const float left_w = std::max(em * 12, ImGui::GetContentRegionAvail().x * 0.28f);
    ImGui::BeginChild("##notes", ImVec2(left_w, 0), false);
    ImGui::PushTextWrapPos(0);
    notes();
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##code_side", ImVec2(0, 0), false);
    if (!code.empty()) {
        if (ImGui::SmallButton(ctx.tr("code.copy"))) ImGui::SetClipboardText(code.c_str());
        // Long lines wrap rather than run out of sight sideways (the copy button copies them whole).
        ImGui::BeginChild("##code", ImVec2(0, 0), true);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(code.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
    }
    ImGui::EndChild();
    ImGui::PopID();
}

void note(const FrameContext& ctx, const char* key) { ImGui::TextDisabled("%s", ctx.tr(key)); }

class CodeView final : public View {
public:
    Panel panel() const override { return Panel::code; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!ctx.code_open) return;
        if (!begin_panel(ctx, panel(), ctx.tr("panel.code"))) {
            ImGui::End();
            return;
        }
        const std::int32_t chosen = chosen_event(ctx);
        const auto& events = ctx.timeline.trace().events;
        NodeIndex node = 0;
        if (chosen >= 0) {
            const NodeIndex n = ctx.scenario.find(events[static_cast<std::size_t>(chosen)].node);
            if (n >= 0) node = n;
        }
        const ClientCode client = client_code(ctx.scenario, node);
        const std::string who = ctx.scenario.candidates.empty()
                                    ? std::string()
                                    : ctx.scenario.candidates[static_cast<std::size_t>(node)].name;
        if (ImGui::SmallButton(ctx.tr("live.close"))) out.push_back(command::CodeToggle{});
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(
            ctx.strings.tr("code.for", {{"node", who}, {"tick_ms", std::to_string(ctx.scenario.tick_ms)}}).c_str());
        ImGui::PopTextWrapPos();
        if (ctx.redlock) {  // the redlock client (model.md §20): its own calls, not the elector's
            redlock_tabs(ctx, node, chosen);
            ImGui::End();
            return;
        }
        if (ctx.redisson) {  // Redisson's RLock (model.md §21): its own calls and scripts
            redisson_tabs(ctx, node, chosen);
            ImGui::End();
            return;
        }
        if (ImGui::BeginTabBar("##code_tabs")) {
            if (ImGui::BeginTabItem(ctx.tr("code.tab_redis"))) {
                redis_tab(ctx, chosen);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem(ctx.tr("code.tab_kotlin"))) {
                notes_and_code(
                    ctx, "kotlin", [&] { note(ctx, client.group ? "code.note_group" : "code.note_kotlin"); },
                    client.kotlin);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem(ctx.tr("code.tab_spring"))) {
                notes_and_code(
                    ctx, "spring", [&] { note(ctx, "code.note_spring"); }, client.spring);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem(ctx.tr("code.tab_dcore"))) {
                notes_and_code(
                    ctx, "dcore", [&] { note(ctx, "code.note_dcore"); }, client.dcore);
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
        ImGui::End();
    }

private:
    // The redlock package's calls with the line of the client's current step
    // highlighted, and the script a store ran for the chosen event.
    void redlock_tabs(const FrameContext& ctx, NodeIndex node, std::int32_t chosen) {
        const auto& clients = ctx.redlock->clients;
        const char* state = static_cast<std::size_t>(node) < clients.size()
                                ? words::to_string(clients[static_cast<std::size_t>(node)].state)
                                : "idle";
        const RedlockCode code = redlock_code(ctx.scenario, node);
        const std::string call =
            chosen >= 0 ? redlock_event_call(ctx.scenario, ctx.timeline.trace(), static_cast<std::size_t>(chosen))
                        : std::string();
        const ClientTab tab{"code.tab_redlock", "code.note_redlock", "code.note_redlock_call",
                            "code.note_redlock_none"};
        client_tabs(ctx, tab, code, redlock_line(code, state), ctx.strings.tr("rlp.state." + std::string(state)),
                    chosen, call);
    }

    // Redisson's calls with the line of the client's step highlighted (its
    // unlock() in the tick its run unlocked), and the script Redis ran for the chosen event.
    void redisson_tabs(const FrameContext& ctx, NodeIndex node, std::int32_t chosen) {
        const auto& clients = ctx.redisson->clients;
        std::string state = "idle";
        if (static_cast<std::size_t>(node) < clients.size()) {
            const words::RedissonClientFact& c = clients[static_cast<std::size_t>(node)];
            state = words::to_string(c.state);
            if (c.end == words::RedissonRunEnd::unlocked && c.ended_at == ctx.playhead) state = "unlocking";
        }
        const RedlockCode code = redisson_code(ctx.scenario, node);
        const sim::Scenario* scenario = ctx.timeline.replayed() ? nullptr : &ctx.scenario;
        const std::string call =
            chosen >= 0 ? redisson_event_call(scenario, ctx.timeline.trace(), static_cast<std::size_t>(chosen))
                        : std::string();
        const ClientTab tab{"code.tab_redisson", "code.note_redisson", "code.note_redisson_call",
                            "code.note_redisson_none"};
        client_tabs(ctx, tab, code, redisson_line(code, state), ctx.strings.tr("rsp.state." + state), chosen, call);
    }

    // The words of a client's two tabs: its code's tab title and note, and the
    // Redis tab's notes for an event with a script and one without.
    struct ClientTab {
        const char* title;
        const char* note;
        const char* call_note;
        const char* none_note;
    };

    // A client's code with the current step's `line` highlighted, and the
    // script Redis ran for the chosen event (`call`, empty: none).
    void client_tabs(const FrameContext& ctx, const ClientTab& tab, const RedlockCode& code, std::int32_t line,
                     const std::string& state, std::int32_t chosen, const std::string& call) {
        if (!ImGui::BeginTabBar("##code_tabs")) return;
        if (ImGui::BeginTabItem(ctx.tr(tab.title))) {
            notes_and_lines(ctx, tab.note, code, line, state);
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem(ctx.tr("code.tab_redis"))) {
            notes_and_code(
                ctx, "redis",
                [&] {
                    note(ctx, chosen < 0 ? "code.pick_event" : call.empty() ? tab.none_note : tab.call_note);
                },
                call);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }

    // The notes beside the redlock code, drawn line by line so that the
    // current step's line has its own background.
    void notes_and_lines(const FrameContext& ctx, const char* note_key, const RedlockCode& code, std::int32_t line,
                         const std::string& state) {
        ImGui::PushID("redlock");
        const float em = ImGui::GetFontSize();
        ImGui::BeginChild("##notes", ImVec2(std::max(em * 12, ImGui::GetContentRegionAvail().x * 0.28f), 0), false);
        ImGui::PushTextWrapPos(0);
        note(ctx, note_key);
        if (line >= 0) ImGui::TextUnformatted(ctx.strings.tr("code.redlock_step", {{"state", state}}).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##code_side", ImVec2(0, 0), false);
        const std::string text = code.text();
        if (ImGui::SmallButton(ctx.tr("code.copy"))) ImGui::SetClipboardText(text.c_str());
        ImGui::BeginChild("##code", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
        for (std::size_t i = 0; i < code.lines.size(); ++i) {
            const ImVec2 p = ImGui::GetCursorScreenPos();
            if (static_cast<std::int32_t>(i) == line) {
                const float w =
                    std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(code.lines[i].c_str()).x);
                ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + ImGui::GetTextLineHeight()),
                                                          col(ctx.palette.playhead, 0.18f));
                if (line != shown_line_) ImGui::SetScrollHereY(0.5f);  // a new step: its line comes into view
            }
            ImGui::TextUnformatted(code.lines[i].empty() ? " " : code.lines[i].c_str());
        }
        ImGui::EndChild();
        ImGui::EndChild();
        ImGui::PopID();
        shown_line_ = line;
    }

    std::int32_t shown_line_ = -2;  // the redlock line highlighted last frame (scrolled to when it changes)

    static void redis_tab(const FrameContext& ctx, std::int32_t chosen) {
        if (chosen < 0) {
            notes_and_code(
                ctx, "redis", [&] { note(ctx, "code.pick_event"); }, std::string());
            return;
        }
        const auto& trace = ctx.timeline.trace();
        const sim::Event& e = trace.events[static_cast<std::size_t>(chosen)];
        const EventCalls calls = event_calls(ctx.scenario, trace, static_cast<std::size_t>(chosen));
        std::string text;
        if (!calls.calls.empty()) {
            const redis::KeyLayout keys(ctx.scenario.lock.name, ctx.scenario.lock.capacity);
            text = command_lines(calls.calls, keys);
            std::set<redis::ScriptId> shown;
            for (const redis::ScriptCall& call : calls.calls) {
                if (!shown.insert(call.script).second) continue;
                text += "\n-- ";
                text += redis::script_name(call.script);
                text += ".lua";
                text += redis::script_source(call.script);
            }
        }
        const char* outcome = sim::to_string(e.outcome);
        notes_and_code(
            ctx, "redis",
            [&] {
                ImGui::TextUnformatted(ctx.strings
                                           .tr("code.event", {{"tick", std::to_string(e.tick)},
                                                              {"node", e.node.empty() ? "—" : e.node},
                                                              {"op", sim::to_string(e.op)},
                                                              {"outcome", *outcome ? outcome : "—"}})
                                           .c_str());
                if (const char* key = note_key(calls.note)) note(ctx, key);
                if (!calls.calls.empty()) note(ctx, "code.note_ttl");
            },
            text);
    }
};

}  // namespace

std::unique_ptr<View> make_code_view() { return std::make_unique<CodeView>(); }

}  // namespace leasescope::gui
