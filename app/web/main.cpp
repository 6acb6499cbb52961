// leasescope in the browser: the browser shell around the same App, views and
// window host as the desktop (app/gui). The page's script (shell.js) decodes
// the link in the URL fragment, then starts this with arguments much like the
// desktop app's: --preset NAME or --scenario PATH, --tick, --lang, --event,
// --tour, --exercise, or --link-error KEY --link-detail TEXT when the link was
// damaged. The done exercises of each scenario are kept in the browser's
// localStorage (shell.js), read when a scenario with exercises opens.
// The frame loop is the browser's (requestAnimationFrame); there are no
// threads: Find failure runs a slice per frame, as on the desktop, and Live
// says why it needs the desktop app.
#include <emscripten.h>
#include <emscripten/html5.h>

#include "gl.hpp"  // before GLFW: the GL header is chosen there
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ls_probe reads a panel's scroll

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "host.hpp"
#include "offscreen.hpp"
#include "leasescope/sim/scenario.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// The one instance of the page's app. A shell holds its app for the browser's
// frame callback, which takes no closure.
struct Shell {
    std::unique_ptr<App> app;
    GLFWwindow* window = nullptr;
    std::optional<GlOffscreen> offscreen;
    std::chrono::steady_clock::time_point last;
    Commands pending;  // from the page (a file opened), applied before the next frame
    Lang shown_lang = Lang::en;
    long frames = 0;
    std::string reply;  // what the last exported call returned
    // The wheel ImGui was given, summed over every frame (ls_probe: the browser tests).
    double wheel_y = 0, wheel_x = 0;
    // The scenario whose done exercises were read from localStorage, and the
    // progress last written there (ExerciseStatus::progress_generation).
    std::string progress_name;
    std::uint64_t progress_generation = 0;
};
Shell* shell = nullptr;

const char* default_preset = "expiry-takeover";
const char* link_scenario_path = "/link/scenario.json";  // where shell.js puts a link's scenario

// The size of the page's stage, in CSS pixels.
void stage_size(int& w, int& h) {
    w = EM_ASM_INT({ return window.lsShell ? window.lsShell.stageWidth() : 1280; });
    h = EM_ASM_INT({ return window.lsShell ? window.lsShell.stageHeight() : 720; });
    w = std::max(w, 320);
    h = std::max(h, 240);
}

void tell_page_lang(Lang lang) {
    EM_ASM({ window.lsShell&& window.lsShell.langChanged(UTF8ToString($0)); }, lang_code(lang));
}

void tell_page_error(const std::string& text) {
    EM_ASM({ window.lsShell&& window.lsShell.showError(UTF8ToString($0)); }, text.c_str());
}

// The done exercises as a bit mask (bit n-1: exercise n; exercises_max is 32).
std::uint32_t done_mask(const ExerciseStatus& status) {
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < status.done.size() && i < 32; ++i)
        if (status.done[i]) mask |= 1u << i;
    return mask;
}

// A scenario with exercises just opened: its progress from localStorage; a
// change of progress: written back there, under the scenario's name.
void sync_progress(Shell& s) {
    const ExerciseStatus& status = s.app->exercise();
    if (!status.base) return;
    const std::string& name = status.base->scenario.name;
    if (name != s.progress_name) {
        s.progress_name = name;
        const auto mask = static_cast<std::uint32_t>(
            EM_ASM_INT({ return window.lsShell ? window.lsShell.loadProgress(UTF8ToString($0)) : 0; }, name.c_str()));
        std::set<int> done;
        for (int n = 1; n <= 32; ++n)
            if (mask & (1u << (n - 1))) done.insert(n);
        s.app->set_exercise_progress(name, done);
        s.progress_generation = status.progress_generation;
    }
    if (status.progress_generation == s.progress_generation) return;
    s.progress_generation = status.progress_generation;
    EM_ASM({ window.lsShell&& window.lsShell.saveProgress(UTF8ToString($0), $1 >>> 0); }, name.c_str(),
           static_cast<int>(done_mask(status)));
}

void frame() {
    Shell& s = *shell;
    int w = 0, h = 0, cw = 0, ch = 0;
    stage_size(w, h);
    glfwGetWindowSize(s.window, &cw, &ch);
    if (w != cw || h != ch) glfwSetWindowSize(s.window, w, h);
    glfwPollEvents();
    s.wheel_y += static_cast<double>(::ImGui::GetIO().MouseWheel);
    s.wheel_x += static_cast<double>(::ImGui::GetIO().MouseWheelH);
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - s.last).count();
    s.last = now;
    if (!s.pending.empty()) {
        Commands c;
        c.swap(s.pending);
        s.app->apply(c);
    }
    s.app->advance(dt);
    s.app->poll_jobs();
    HostFrame built = host_frame(*s.app, s.window, s.offscreen ? &*s.offscreen : nullptr, false);
    s.app->apply(built.commands);
    sync_progress(s);
    if (s.app->lang() != s.shown_lang) {
        s.shown_lang = s.app->lang();
        tell_page_lang(s.shown_lang);
    }
    if (++s.frames == 1) EM_ASM({ window.lsShell&& window.lsShell.firstFrame(); });
}

struct Args {
    std::string preset, scenario, lang, link_error, link_detail;
    long long tick = -1, event = -1, tour = 0, exercise = 0;
    bool given_tick = false;
};

Args parse_args(int argc, char** argv) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--preset")
            a.preset = value;
        else if (key == "--scenario")
            a.scenario = value;
        else if (key == "--lang")
            a.lang = value;
        else if (key == "--tick")
            a.tick = std::atoll(value.c_str()), a.given_tick = true;
        else if (key == "--event")
            a.event = std::atoll(value.c_str());
        else if (key == "--tour")
            a.tour = std::atoll(value.c_str());
        else if (key == "--exercise")
            a.exercise = std::atoll(value.c_str());
        else if (key == "--link-error")
            a.link_error = value;
        else if (key == "--link-detail")
            a.link_detail = value;
    }
    return a;
}

// A preset's name in a link: a file name in /scenarios, nothing that could leave it.
bool preset_name_ok(const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

// The message for a link that cannot be opened, and the fallback it shows.
void report_link_error(App& app, const std::string& key, std::string detail) {
    // The scenario of a link sits in a file of the page's own: its path means nothing to the reader.
    const std::string own_path = std::string(link_scenario_path) + ": ";
    if (detail.rfind(own_path, 0) == 0) detail.erase(0, own_path.size());
    const Strings& t = app.strings();
    std::string text = t.tr(key, {{"detail", detail}});
    if (!text.empty() && std::string_view(".\"?!").find(text.back()) == std::string_view::npos) text += '.';
    text += " " + t.tr("web.link.fallback", {{"preset", default_preset}});
    // Said once, by the page above the app (which the reader can close), not again in the app's top bar.
    tell_page_error(text);
}

}  // namespace

// The done exercises, numbered from 1 (ls_link_state).
std::vector<int> done_list(const ExerciseStatus& status) {
    std::vector<int> out;
    for (std::size_t i = 0; i < status.done.size(); ++i)
        if (status.done[i]) out.push_back(static_cast<int>(i) + 1);
    return out;
}

extern "C" {

// The view as a link records it (JSON): the scenario (and the preset's name
// when it is a preset unchanged), tick, language, selected event, tour step.
EMSCRIPTEN_KEEPALIVE const char* ls_link_state() {
    if (!shell || !shell->app || !shell->app->timeline()) return "";
    const App& app = *shell->app;
    const std::string scenario = sim::scenario_to_json(app.timeline()->scenario());
    std::string preset;
    for (const PresetInfo& p : app.presets()) {
        if (p.path != app.scenario_path()) continue;
        std::string bytes;
        if (!read_text_file(p.path, bytes)) break;
        auto parsed = sim::parse_scenario(bytes, p.path);
        if (parsed.ok() && sim::scenario_to_json(parsed.value()) == scenario) preset = p.name;
        break;
    }
    nlohmann::json j{{"preset", preset},
                     {"scenario", scenario},
                     {"tick", app.playhead()},
                     {"lang", lang_code(app.lang())},
                     {"event", app.selected_event()},
                     {"tour", app.tour_step() + 1},
                     {"exercise", app.exercise().open ? app.exercise().current + 1 : 0},
                     {"exercises_done", done_list(app.exercise())},
                     {"frames", shell->frames},
                     {"replayed", app.timeline()->replayed()}};
    shell->reply = j.dump();
    return shell->reply.c_str();
}

// A string of the app's tables in its current language (the page's own buttons).
EMSCRIPTEN_KEEPALIVE const char* ls_tr(const char* key) {
    if (!shell || !shell->app) return key;
    shell->reply = shell->app->strings().tr(key);
    return shell->reply.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* ls_lang() { return shell && shell->app ? lang_code(shell->app->lang()) : "en"; }

// A file the page put into the memory file system (picked or dropped): opened before the next frame.
EMSCRIPTEN_KEEPALIVE void ls_open_path(const char* path) {
    if (shell) shell->pending.push_back(command::OpenPath{path});
}

// An answer to the open exercise, as the panel's buttons give it (the browser
// tests; App::exercise_answer_command): applied before the next frame.
EMSCRIPTEN_KEEPALIVE void ls_exercise_answer(const char* value) {
    if (!shell || !shell->app) return;
    std::string error;
    if (auto command = shell->app->exercise_answer_command(value, error))
        shell->pending.push_back(std::move(*command));
    else
        shell->app->set_error(error);
}

// What the Save button and the Export menu do (the browser tests): "save",
// "png", "svg" or "jsonl", run before the next frame; each ends as a download.
EMSCRIPTEN_KEEPALIVE void ls_export(const char* what) {
    if (!shell || !shell->app || !shell->app->timeline()) return;
    const std::string name = shell->app->timeline()->scenario().name;
    const std::string base = name + "-t" + std::to_string(shell->app->playhead());
    const std::string kind = what;
    if (kind == "save")
        shell->pending.push_back(command::SavePath{name + "-edited.json"});
    else if (kind == "png")
        shell->pending.push_back(command::ExportPng{base + ".png"});
    else if (kind == "svg")
        shell->pending.push_back(command::ExportSvg{base + ".svg"});
    else if (kind == "jsonl")
        shell->pending.push_back(command::ExportJsonl{name + ".trace.jsonl"});
}

// Frame time, as the desktop's --bench-frames measures it: `frames` frames
// drawn back to back (after 5 warm-up frames), the playhead one tick further
// each time, each finished with glFinish. JSON with the percentiles in ms.
EMSCRIPTEN_KEEPALIVE const char* ls_bench(int frames) {
    if (!shell || !shell->app || frames <= 0) return "{}";
    Shell& s = *shell;
    std::vector<double> ms;
    for (int i = 0; i < frames + 5; ++i) {
        const double start = emscripten_get_now();
        s.app->seek((s.app->playhead() + 1) % (s.app->end_tick() + 1));
        HostFrame built = host_frame(*s.app, s.window, s.offscreen ? &*s.offscreen : nullptr, true);
        glFinish();
        if (i >= 5) ms.push_back(emscripten_get_now() - start);
    }
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) {
        return ms[std::min(ms.size() - 1,
                           static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(ms.size()))) - 1)];
    };
    const auto* tl = s.app->timeline();
    nlohmann::json j{{"frames", ms.size()}, {"events", tl ? tl->trace().events.size() : 0},
                     {"p50", pct(50)},      {"p90", pct(90)},
                     {"p99", pct(99)},      {"max", ms.back()}};
    s.reply = j.dump();
    return s.reply.c_str();
}

// What the browser tests look at besides the link: the app's own message
// line, whether it plays, the wheel ImGui was given in total (notches, up
// positive) and the scroll of the Events and Explain panels.
EMSCRIPTEN_KEEPALIVE const char* ls_probe() {
    if (!shell || !shell->app) return "{}";
    Shell& s = *shell;
    nlohmann::json j{{"error", s.app->error()},
                     {"playing", s.app->playing()},
                     {"wheel_y", s.wheel_y},
                     {"wheel_x", s.wheel_x},
                     {"frames", s.frames}};
    // Each panel's place, and the scroll of what scrolls in it (the Events
    // panel's table is a child window of its own).
    const ImGuiContext& g = *::ImGui::GetCurrentContext();
    for (const char* id : {"timeline", "events", "explain"}) {
        const ImGuiWindow* panel = ::ImGui::FindWindowByName((std::string("###") + id).c_str());
        if (!panel || !panel->WasActive) continue;
        const ImGuiWindow* scrolled = panel;
        for (const ImGuiWindow* w : g.Windows)
            if (w->RootWindow == panel && w != panel && w->ScrollMax.y > 0) scrolled = w;
        j[id] = {{"x", panel->Pos.x},
                 {"y", panel->Pos.y},
                 {"w", panel->Size.x},
                 {"h", panel->Size.y},
                 {"scroll_y", scrolled->Scroll.y},
                 {"scroll_max_y", scrolled->ScrollMax.y}};
    }
    s.reply = j.dump();
    return s.reply.c_str();
}

// Frames drawn so far (the browser tests wait for the layout to settle).
EMSCRIPTEN_KEEPALIVE int ls_ready() { return shell ? static_cast<int>(shell->frames) : 0; }

}  // extern "C"

int main(int argc, char** argv) {
    const Args args = parse_args(argc, argv);
    shell = new Shell();
    AppOptions options;
    options.assets_dir = "/assets";
    options.scenarios_dir = "/scenarios";
    options.config_dir = "/settings";  // IndexedDB, mounted and loaded by the page before main
    shell->app = std::make_unique<App>(options);
    App& app = *shell->app;
    std::string error;
    if (!app.init(error)) {
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        tell_page_error(error);
        return 1;
    }
    if (!args.lang.empty()) app.set_lang(lang_from_code(args.lang));

    const std::string fallback = std::string("/scenarios/") + default_preset + ".json";
    bool opened = false;
    if (!args.link_error.empty()) {
        report_link_error(app, args.link_error, args.link_detail);
    } else if (!args.preset.empty()) {
        const std::string path = "/scenarios/" + args.preset + ".json";
        std::error_code ec;
        if (!preset_name_ok(args.preset) || !std::filesystem::is_regular_file(path, ec))
            report_link_error(app, "web.link.unknown_preset", args.preset);
        else if (!app.load_file(path, error))
            report_link_error(app, "web.link.bad_scenario", error);
        else
            opened = true;
    } else if (!args.scenario.empty()) {
        if (!app.load_file(args.scenario, error))
            report_link_error(app, "web.link.bad_scenario", error);
        else
            opened = true;
    }
    const bool from_link = opened;
    if (!opened && !app.load_file(fallback, error)) {
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        tell_page_error(error);
        return 1;
    }

    glfwSetErrorCallback(
        [](int code, const char* text) { std::fprintf(stderr, "leasescope: GLFW %d: %s\n", code, text); });
    if (!glfwInit()) {
        tell_page_error(app.strings().tr("web.no_webgl2"));
        return 1;
    }
    int w = 0, h = 0;
    stage_size(w, h);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    shell->window = glfwCreateWindow(w, h, "LeaseScope", nullptr, nullptr);
    if (!shell->window) {
        tell_page_error(app.strings().tr("web.no_webgl2"));
        return 1;
    }
    glfwMakeContextCurrent(shell->window);
    host_init(app, shell->window, "#version 300 es", "/settings/imgui.ini");
    shell->offscreen.emplace();
    if (shell->offscreen->init())
        app.set_offscreen(&*shell->offscreen);
    else
        shell->offscreen.reset();

    sync_progress(*shell);
    if (from_link) {
        if (args.tour > 0) app.tour_goto(static_cast<int>(args.tour - 1));
        // An exercise the scenario does not have: said above the app, which shows the scenario.
        if (args.exercise > 0 && static_cast<std::size_t>(args.exercise) > app.exercise().count())
            tell_page_error(
                app.strings().tr("web.link.bad_field", {{"detail", "exercise=" + std::to_string(args.exercise)}}));
        else if (args.exercise > 0)
            app.apply({command::ExerciseOpen{static_cast<int>(args.exercise - 1)}});
        if (args.event >= 0) app.apply({command::SelectEvent{args.event}});
        if (args.given_tick) app.seek(args.tick);
    } else if (args.link_error.empty() && args.preset.empty() && args.scenario.empty()) {
        // Opened plainly, the app plays the story once from tick 0, as on the desktop.
        app.set_playing(true);
    }
    shell->shown_lang = app.lang();
    tell_page_lang(app.lang());
    shell->last = std::chrono::steady_clock::now();
    emscripten_set_main_loop(frame, 0, false);
    return 0;
}
