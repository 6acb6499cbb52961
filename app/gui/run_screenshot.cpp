// The headless screenshot runner (runners.hpp): frames until the picture is ready, then one PNG
// and/or the layout report.
#include <chrono>
#include <cstdio>
#include <thread>

#include "app.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/io/exit_codes.hpp"
#include "platform.hpp"
#include "runners.hpp"
#include "views/layout_probe.hpp"
#include "window_host.hpp"

namespace leasescope::gui {

namespace {

// The layout check of the frame just built: the report to `path`, a summary on stderr.
bool write_layout_report(const App& app, const std::string& path) {
    probe::record(false);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const auto windows = probe::windows();
    const auto problems = check_layout(windows, probe::items(), display.x, display.y, probe::timelines());
    std::string report = layout_report(windows, probe::items(), problems, probe::timelines());
    if (!app.focus_id().empty()) {
        // The tour's outline: over the panel it names (tests/gui/tour_test.sh compares).
        const PanelRect& r = app.focus_rect();
        char line[160];
        std::snprintf(line, sizeof line, "focus: %s [%.0f,%.0f - %.0f,%.0f]\n", app.focus_id().c_str(),
                      static_cast<double>(r.x), static_cast<double>(r.y), static_cast<double>(r.x + r.w),
                      static_cast<double>(r.y + r.h));
        report += line;
    }
    std::string why;
    if (!io::write_file(path, report, why)) {
        std::fprintf(stderr, "leasescope: cannot write %s (%s)\n", path.c_str(), why.c_str());
        return false;
    }
    std::fprintf(stderr, "leasescope: layout: %zu items, %zu problems (%s)\n", probe::items().size(), problems.size(),
                 path.c_str());
    return true;
}

}  // namespace

int run_screenshot(App& app, WindowHost& host, const std::string& png_path, const std::string& layout_report_path) {
    int frame = 0;
    // A few more frames after a --live run or a search is over.
    int ready_frame = settle_frames;
    auto last = std::chrono::steady_clock::now();
    while (!host.should_close()) {
        const auto frame_start = std::chrono::steady_clock::now();
        // A live run or a search in progress is only waited for: no frames
        // are rendered meanwhile, so the software renderer does not take the
        // CPU the live run needs to keep time.
        if (app.jobs_busy()) {
            app.poll_jobs();
            if (app.jobs_busy()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ready_frame = frame + settle_frames;
            continue;
        }
        host.poll_events();
        probe::record(frame >= ready_frame && !layout_report_path.empty());
        HostFrame built = advance_and_build(app, host, frame_start, last, frame);
        if (frame >= ready_frame) {
            if (!png_path.empty() && !write_framebuffer_png(png_path, built.fb_w, built.fb_h)) {
                std::fprintf(stderr, "leasescope: cannot write %s\n", png_path.c_str());
                return io::exit_write_failed;
            }
            if (!layout_report_path.empty() && !write_layout_report(app, layout_report_path))
                return io::exit_write_failed;
            return io::exit_ok;
        }
        host.swap();
        app.apply(built.commands);
        ++frame;
    }
    return io::exit_ok;
}

int run_layout_sweep(App& app, WindowHost& host, const std::vector<LayoutCase>& cases, const std::string& folder) {
    for (const LayoutCase& c : cases) {
        app.set_lang(lang_from_code(c.lang));
        app.set_scale(c.scale_percent);
        if (!host.restart_at(c.width, c.height)) return io::exit_no_display;
        app.restart_frames();
        const int code = run_screenshot(app, host, "", folder + "/" + c.name() + ".txt");
        if (code != io::exit_ok) return code;
    }
    return io::exit_ok;
}

}  // namespace leasescope::gui
