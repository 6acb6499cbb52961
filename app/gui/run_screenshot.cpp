// The headless screenshot runner (runners.hpp): frames until the picture is ready, then one PNG.
#include <chrono>
#include <cstdio>
#include <thread>

#include "app.hpp"
#include "leasescope/io/exit_codes.hpp"
#include "platform.hpp"
#include "runners.hpp"
#include "window_host.hpp"

namespace leasescope::gui {

int run_screenshot(App& app, WindowHost& host, const std::string& png_path) {
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
        HostFrame built = advance_and_build(app, host, frame_start, last, frame);
        if (frame >= ready_frame) {
            if (!write_framebuffer_png(png_path, built.fb_w, built.fb_h)) {
                std::fprintf(stderr, "leasescope: cannot write %s\n", png_path.c_str());
                return io::exit_write_failed;
            }
            return io::exit_ok;
        }
        host.swap();
        app.apply(built.commands);
        ++frame;
    }
    return io::exit_ok;
}

}  // namespace leasescope::gui
