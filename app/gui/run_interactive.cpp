// The interactive loop (runners.hpp): input, playback and frames until the window closes, idle when nothing moves.
#include <chrono>

#include "app.hpp"
#include "runners.hpp"
#include "window_host.hpp"

namespace leasescope::gui {

HostFrame advance_and_build(App& app, WindowHost& host, std::chrono::steady_clock::time_point frame_start,
                            std::chrono::steady_clock::time_point& last, int frame) {
    const double dt = std::chrono::duration<double>(frame_start - last).count();
    last = frame_start;
    app.advance(dt);
    app.poll_jobs();
    HostFrame built = host.frame();
    report_fill_if_asked(frame);
    return built;
}

void run_interactive(App& app, WindowHost& host) {
    int frame = 0;
    auto last = std::chrono::steady_clock::now();
    while (!host.should_close()) {
        const auto frame_start = std::chrono::steady_clock::now();
        // Idle in class costs nothing: without playback or the tour's pulse,
        // wait for input (or a quarter second) instead of redrawing flat out.
        // A search in progress draws every frame (its progress bar); a live run
        // only needs its progress a few times a second.
        if (app.jobs_busy() && !app.find_status().running && !app.playing())
            host.wait_events(0.1);
        else if (!app.playing() && !app.touring() && !app.jobs_busy() && frame > settle_frames)
            host.wait_events(0.25);
        else
            host.poll_events();
        HostFrame built = advance_and_build(app, host, frame_start, last, frame);
        host.swap();
        app.apply(built.commands);
        ++frame;
    }
    int w = 0, h = 0;
    host.size(w, h);
    app.remember_window(w, h);
}

}  // namespace leasescope::gui
