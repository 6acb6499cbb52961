// leasescope: the desktop app. Opens a scenario (expiry-takeover by default)
// on a timeline; can also render one frame to a PNG and exit, or measure frame
// times, for tests and docs.
#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "app.hpp"
#include "leasescope/words/counterexample_words.hpp"
#include "leasescope/io/data_dir.hpp"
#include "leasescope/io/signals.hpp"
#include "host.hpp"
#include "offscreen.hpp"
#include "platform.hpp"

namespace fs = std::filesystem;
using namespace leasescope;
using namespace leasescope::gui;

namespace {

constexpr int exit_ok = 0;
constexpr int exit_bad_input = 2;
constexpr int exit_no_display = 3;
constexpr int exit_failure = 4;
constexpr int exit_live_differs = 5;      // --live: the live run differs from the simulation
constexpr int exit_live_unavailable = 6;  // --live: Redis unreachable or failing, no verdict, or no live mode

// What --live and --find-counterexample print once their work is over, and the exit status.
int report_live(const App& app) {
    const LiveStatus& s = app.live_status();
    const Strings& t = app.strings();
    const Fields f{{"url", s.url_shown},
                   {"reason", s.message},
                   {"events", std::to_string(s.live_trace.events.size())},
                   {"tick_ms", std::to_string(s.tick_ms)}};
    switch (s.verdict) {
        case LiveVerdict::identical:
            std::printf("live: %s (%s)\n", t.tr("live.identical", f).c_str(), t.tr("live.identical_detail", f).c_str());
            break;
        case LiveVerdict::diverged:
            std::printf("live: %s at event %lld\n%s\n", t.tr("live.diverged", f).c_str(),
                        static_cast<long long>(s.divergence_event), s.message.c_str());
            break;
        case LiveVerdict::void_timing: std::printf("live: %s\n%s\n", t.tr("live.void", f).c_str(), s.message.c_str()); break;
        case LiveVerdict::unreachable: std::printf("live: %s\n", t.tr("live.unreachable", f).c_str()); break;
        case LiveVerdict::failed: std::printf("live: %s\n", t.tr("live.failed", f).c_str()); break;
        case LiveVerdict::bad_input: std::printf("live: %s\n", t.tr("live.bad_input", f).c_str()); break;
        case LiveVerdict::cancelled: std::printf("live: %s\n", t.tr("live.cancelled", f).c_str()); break;
        case LiveVerdict::none:
        case LiveVerdict::running: std::printf("live: %s\n", t.tr("live.unsupported").c_str()); break;
    }
    for (const auto& [tick, late] : s.timing_faults)
        std::printf("live: timing fault at tick %lld: %.1f ms late (not a divergence)\n", static_cast<long long>(tick), late);
    std::fflush(stdout);
    switch (s.verdict) {
        case LiveVerdict::identical: return exit_ok;
        case LiveVerdict::diverged: return exit_live_differs;
        case LiveVerdict::bad_input: return exit_bad_input;
        default: return exit_live_unavailable;
    }
}

void report_find(const App& app) {
    const FindStatus& s = app.find_status();
    if (!s.error.empty()) {
        std::printf("find: %s\n", s.error.c_str());
    } else if (s.found) {
        Strings en = app.strings();
        en.set_lang(Lang::en);
        std::string faults;
        const std::vector<std::string> lines = words::fault_lines(s.facts, en);
        for (const std::string& f : lines) faults += (faults.empty() ? "" : "; ") + f;
        std::printf("find: counterexample (%zu added fault%s): %s\n", lines.size(), lines.size() == 1 ? "" : "s",
                    faults.empty() ? "none" : faults.c_str());
        std::printf("find: => %s\n", words::explanation_words(s.facts, en).c_str());
        std::printf("find: loaded %s at tick %lld\n", app.timeline()->scenario().name.c_str(),
                    static_cast<long long>(s.violation_tick));
    } else {
        std::printf("find: no counterexample with up to %d added faults (%llu schedules checked)\n", s.max_faults,
                    static_cast<unsigned long long>(s.schedules));
    }
    std::fflush(stdout);
}

// Finds the assets: the flag, then $LEASESCOPE_ASSETS, then an installed
// copy (<executable>/../share/leasescope/...), then the source tree this
// binary was built from, then next to the binary.
std::string locate_dir(const std::string& flag, const char* env, const char* built_in, const char* beside) {
    std::error_code ec;
    if (!flag.empty()) return flag;
    if (const char* e = std::getenv(env); e && *e) return e;
    if (auto data = leasescope::io::installed_data_dir()) return *data + "/" + beside;
    if (fs::is_directory(built_in, ec)) return built_in;
    const std::string near = executable_dir() + "/" + beside;
    if (fs::is_directory(near, ec)) return near;
    return built_in;
}

double process_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto k = static_cast<std::size_t>(std::min<double>(static_cast<double>(v.size() - 1),
                                                              std::ceil(p / 100.0 * static_cast<double>(v.size())) - 1));
    return v[k];
}

// Prints how many pixels each window's draw list covers (triangle areas), to
// find what costs fill rate under software rendering. LEASESCOPE_FILL_REPORT=1.
void report_fill(const ImDrawData* data) {
    double total = 0;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        double area = 0;
        for (int i = 0; i + 2 < list->IdxBuffer.Size; i += 3) {
            const ImVec2 a = list->VtxBuffer[list->IdxBuffer[i]].pos, b = list->VtxBuffer[list->IdxBuffer[i + 1]].pos,
                         c = list->VtxBuffer[list->IdxBuffer[i + 2]].pos;
            area += std::fabs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * 0.5;
        }
        total += area;
        std::fprintf(stderr, "fill %-28s %10.0f px  %6d triangles  %4d draw calls\n",
                     list->_OwnerName ? list->_OwnerName : "?", area, list->IdxBuffer.Size / 3, list->CmdBuffer.Size);
    }
    std::fprintf(stderr, "font atlas %dx%d\n", ImGui::GetIO().Fonts->TexWidth, ImGui::GetIO().Fonts->TexHeight);
    std::fprintf(stderr, "fill total %.0f px (%.2f screens)\n", total,
                 total / (static_cast<double>(data->DisplaySize.x) * data->DisplaySize.y));
}

}  // namespace

int main(int argc, char** argv) {
    // Ctrl-C or SIGTERM during an export removes its temporary file.
    leasescope::io::install_cleanup_on_signals();
    CLI::App cli{"LeaseScope: replay Redis lease / leader-election scenarios on a timeline.\n"
                 "Opens the expiry-takeover preset when no scenario is given."};
    std::string scenario_path, screenshot, size_text = "1600x900", lang_text, assets_flag, scenarios_flag;
    std::string svg_path, trace_path;
    long long tick = -1;
    int bench_frames = 0;
    int tour_step = 0;
    bool tour = false;
    std::string live_url;
    long long live_tick_ms = 0;
    bool find_counterexample = false;
    bool direct_draw = false;
    cli.add_option("scenario", scenario_path, "Scenario file (JSON) to open");
    cli.add_option("--tick", tick, "Put the playhead on this tick");
    cli.add_option("--screenshot", screenshot, "Render one frame to this PNG file and exit");
    cli.add_option("--size", size_text, "Window size WxH (default 1600x900)");
    cli.add_option("--lang", lang_text, "Language: en or ko (default: the last one used)")->check(CLI::IsMember({"en", "ko"}));
    cli.add_option("--bench-frames", bench_frames, "Render N frames and print frame-time percentiles, then exit");
    cli.add_option("--tour", tour_step, "Start the guided tour at this step (1-based)")->each([&](const std::string&) { tour = true; });
    cli.add_option("--svg", svg_path, "Also write the timeline as SVG to this file");
    cli.add_option("--trace", trace_path, "Also write the trace as JSONL to this file");
    cli.add_option("--live", live_url,
                   "Open the Live panel and run the scenario against Redis at URL (default $LEASESCOPE_REDIS_URL, "
                   "else redis://127.0.0.1:6379); with --screenshot, waits for the result, prints it and exits "
                   "5 if it differs, 6 if Redis cannot be reached")
        ->expected(0, 1);
    cli.add_option("--live-tick-ms", live_tick_ms, "Milliseconds per tick for --live (default: the scenario's)")
        ->check(CLI::Range(1LL, 60000LL));
    cli.add_flag("--find-counterexample", find_counterexample,
                 "Search for a counterexample to the opened scenario (up to 2 added faults), load what it finds "
                 "and put the playhead on the violation; with --screenshot, prints the result");
    cli.add_flag("--direct-draw", direct_draw,
                 "Draw the timeline afresh every frame instead of keeping its picture in a texture until it "
                 "changes (to compare frame times)");
    cli.footer("Exit status: 0 ok, 2 bad input, 3 no display, 4 failure, 5 --live differs from the simulation,\n"
               "6 --live could not reach Redis or reached no verdict.");
    cli.add_option("--assets", assets_flag, "Assets folder (string tables, tour, style)");
    cli.add_option("--scenarios", scenarios_flag, "Folder of preset scenarios");
    CLI11_PARSE(cli, argc, argv);

    // "leasescope --live FILE": --live takes an optional URL, so CLI11 hands it
    // the scenario; a value that is not a URL is the scenario after all.
    if (!live_url.empty() && live_url.find("://") == std::string::npos && scenario_path.empty()) {
        scenario_path = live_url;
        live_url.clear();
    }
    int width = 1600, height = 900;
    const bool size_given = cli.count("--size") > 0;
    if (std::sscanf(size_text.c_str(), "%dx%d", &width, &height) != 2 || width < 320 || height < 240 ||
        width > 8192 || height > 8192) {
        std::fprintf(stderr, "leasescope: --size wants WxH between 320x240 and 8192x8192, got \"%s\"\n",
                     size_text.c_str());
        return exit_bad_input;
    }
    const bool headless = !screenshot.empty() || bench_frames > 0;

    AppOptions options;
    options.assets_dir = locate_dir(assets_flag, "LEASESCOPE_ASSETS", LEASESCOPE_SOURCE_DIR "/assets", "assets");
    options.scenarios_dir =
        locate_dir(scenarios_flag, "LEASESCOPE_SCENARIOS", LEASESCOPE_SOURCE_DIR "/scenarios", "scenarios");
    // Headless runs neither read nor write the remembered settings, so their pictures are reproducible.
    options.config_dir = headless ? std::string() : default_config_dir();
    App app(options);
    std::string error;
    if (!app.init(error)) {
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        return exit_failure;
    }
    if (!lang_text.empty()) app.set_lang(lang_from_code(lang_text));
    if (!size_given && !headless && app.saved_window_w() > 0) {
        width = app.saved_window_w();
        height = app.saved_window_h();
    }
    if (scenario_path.empty()) scenario_path = options.scenarios_dir + "/expiry-takeover.json";
    if (!app.load_file(scenario_path, error)) {
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        return exit_bad_input;
    }

    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
        std::fprintf(stderr,
                     "leasescope: no display (DISPLAY is not set), so the window cannot open.\n"
                     "  For a picture without a screen:  xvfb-run -a -s '-screen 0 1600x900x24' leasescope %s "
                     "--tick 12 --screenshot shot.png\n"
                     "  For the trace as text:           leasescope-cli run %s --format text\n",
                     scenario_path.c_str(), scenario_path.c_str());
        return exit_no_display;
    }
    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "leasescope: GLFW %d: %s\n", code, text); });
    if (!glfwInit()) {
        std::fprintf(stderr, "leasescope: cannot open the display (glfwInit failed)\n");
        return exit_no_display;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    GLFWwindow* window = glfwCreateWindow(width, height, "LeaseScope", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "leasescope: cannot create an OpenGL 3.0 window\n");
        glfwTerminate();
        return exit_no_display;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(headless ? 0 : 1);

    std::string ini_path;
    if (!options.config_dir.empty()) {
        std::error_code ec;
        fs::create_directories(options.config_dir, ec);
        ini_path = options.config_dir + "/imgui.ini";
    }
    host_init(app, window, "#version 130", ini_path.c_str());

    // The timeline's picture is kept in a texture while it does not change.
    std::optional<GlOffscreen> offscreen;
    if (!direct_draw) {
        offscreen.emplace();
        if (offscreen->init()) app.set_offscreen(&*offscreen);
        else offscreen.reset();
    }

    if (tour) app.tour_goto(std::max(0, tour_step - 1));
    if (tick >= 0) app.seek(tick);
    // Opened plainly, the app plays the story once from tick 0 (Space pauses).
    if (tick < 0 && !tour && !headless) app.set_playing(true);
    if (!svg_path.empty()) app.apply({cmd_text(Command::Kind::export_svg, svg_path)});
    if (!trace_path.empty()) app.apply({cmd_text(Command::Kind::export_jsonl, trace_path)});
    // Exports asked for on the command line report on stderr, not in the picture.
    const bool export_failed = !app.error().empty();
    if (export_failed) std::fprintf(stderr, "leasescope: %s\n", app.error().c_str());
    app.set_notice("");
    const bool live_asked = cli.count("--live") > 0;
    if (live_asked) {
        std::string url = live_url;
        if (url.empty()) {
            const char* env = std::getenv("LEASESCOPE_REDIS_URL");
            url = env && *env ? env : "redis://127.0.0.1:6379";
        }
        app.apply({cmd(Command::Kind::live_toggle)});
        app.apply({Command{Command::Kind::live_run, live_tick_ms, 0, url, {}}});
    }
    if (find_counterexample) {
        app.apply({cmd(Command::Kind::find_toggle)});
        app.apply({Command{Command::Kind::find_run, 2, 0, "unsafe_write,fencing_regressed,liveness", {}}});
    }
    // Headless, nothing is on screen while the search runs: give it long slices.
    if (headless) app.set_find_budget_ms(250);

    const bool fill_report = std::getenv("LEASESCOPE_FILL_REPORT") != nullptr;
    int exit_code = exit_ok;
    std::vector<double> frame_ms;  // whole frame: build, render, swap, glFinish
    std::vector<double> ui_ms;     // building the frame (views + ImGui), before any GL work
    std::vector<double> cpu_ms;    // CPU time of the whole process (its renderer threads too)
    int frame = 0;
    // A screenshot waits a few frames: ImGui sizes windows and tables on their first frames,
    // and, with --live or --find-counterexample, a few more after their work is over.
    const int screenshot_frame = 4;
    int ready_frame = screenshot_frame;
    auto last = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(window)) {
        const auto frame_start = std::chrono::steady_clock::now();
        const double cpu_start = bench_frames > 0 ? process_cpu_ms() : 0.0;
        // Headless, a live run or a search in progress is only waited for: no
        // frames are rendered meanwhile, so the software renderer does not
        // take the CPU the live run needs to keep time.
        if (!screenshot.empty() && app.jobs_busy()) {
            app.poll_jobs();
            if (app.jobs_busy()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ready_frame = frame + screenshot_frame;
            continue;
        }
        // Idle in class costs nothing: without playback or the tour's pulse,
        // wait for input (or a quarter second) instead of redrawing flat out.
        // A search in progress draws every frame (its progress bar); a live run
        // only needs its progress a few times a second.
        if (!headless && app.jobs_busy() && !app.find_status().running && !app.playing())
            glfwWaitEventsTimeout(0.1);
        else if (!headless && !app.playing() && !app.touring() && !app.jobs_busy() && frame > screenshot_frame)
            glfwWaitEventsTimeout(0.25);
        else
            glfwPollEvents();
        const double dt = std::chrono::duration<double>(frame_start - last).count();
        last = frame_start;
        app.advance(dt);
        app.poll_jobs();
        if (bench_frames > 0) app.seek((app.playhead() + 1) % (app.end_tick() + 1));

        HostFrame built = host_frame(app, window, offscreen ? &*offscreen : nullptr, headless);
        const auto ui_end = built.ui_end;
        const int fb_w = built.fb_w, fb_h = built.fb_h;
        Commands& commands = built.commands;
        if (fill_report && frame == screenshot_frame) report_fill(ImGui::GetDrawData());
        if (!screenshot.empty() && frame >= ready_frame) {
            if (!write_framebuffer_png(screenshot, fb_w, fb_h)) {
                std::fprintf(stderr, "leasescope: cannot write %s\n", screenshot.c_str());
                exit_code = exit_failure;
            }
            break;
        }
        glfwSwapBuffers(window);
        // The first frames build and upload the font atlas; they are warm-up, not frame time.
        constexpr int bench_warmup = 5;
        if (bench_frames > 0 && frame < bench_warmup) glFinish();
        if (bench_frames > 0 && frame >= bench_warmup) {
            glFinish();
            frame_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
            ui_ms.push_back(std::chrono::duration<double, std::milli>(ui_end - frame_start).count());
            cpu_ms.push_back(process_cpu_ms() - cpu_start);
            if (static_cast<int>(frame_ms.size()) >= bench_frames) break;
        }
        app.apply(commands);
        ++frame;
    }
    if (bench_frames > 0) {
        const auto* tl = app.timeline();
        std::printf("frames %zu (after 5 warm-up)  size %dx%d  events %zu  ticks %lld\n", frame_ms.size(), width, height,
                    tl ? tl->trace().events.size() : 0, static_cast<long long>(app.end_tick()));
        std::printf("frame ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", percentile(frame_ms, 50),
                    percentile(frame_ms, 90), percentile(frame_ms, 99),
                    frame_ms.empty() ? 0.0 : *std::max_element(frame_ms.begin(), frame_ms.end()));
        std::printf("ui ms     p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (views and ImGui, before OpenGL)\n",
                    percentile(ui_ms, 50), percentile(ui_ms, 90), percentile(ui_ms, 99),
                    ui_ms.empty() ? 0.0 : *std::max_element(ui_ms.begin(), ui_ms.end()));
        // On a shared machine wall time includes waiting for a core; CPU time does not.
        std::printf("cpu ms    p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (process CPU time per frame, all threads)\n",
                    percentile(cpu_ms, 50), percentile(cpu_ms, 90), percentile(cpu_ms, 99),
                    cpu_ms.empty() ? 0.0 : *std::max_element(cpu_ms.begin(), cpu_ms.end()));
    }
    if (live_asked && !screenshot.empty()) {
        const int live_code = report_live(app);
        if (exit_code == exit_ok) exit_code = live_code;
    }
    if (find_counterexample && !screenshot.empty()) report_find(app);
    if (!headless) {
        int w = 0, h = 0;
        glfwGetWindowSize(window, &w, &h);
        app.remember_window(w, h);
    }
    app.set_offscreen(nullptr);
    offscreen.reset();  // its textures go before the context
    host_shutdown();
    glfwDestroyWindow(window);
    glfwTerminate();
    // An export asked for on the command line that could not be written.
    if (export_failed && exit_code == exit_ok) exit_code = exit_failure;
    return exit_code;
}
