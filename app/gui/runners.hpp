#pragma once
// The three ways the desktop app runs its frames in a window host: one
// picture to a PNG, a frame-time measurement, or the interactive loop.
#include <chrono>
#include <string>
#include <vector>

#include "flags.hpp"
#include "host.hpp"

namespace leasescope::gui {

class App;
class WindowHost;

// ImGui sizes windows and tables on their first frames: a picture is taken,
// and the interactive loop starts to idle, only after these.
inline constexpr int settle_frames = 4;

// Draws until the layout has settled (and a --live run or a search is over),
// then writes the frame to `png_path` when it is not empty, and, when `layout_report` is not empty,
// the layout check of that frame (core/layout_check.hpp) to that file.
// Returns exit_ok or exit_write_failed.
int run_screenshot(App& app, WindowHost& host, const std::string& png_path, const std::string& layout_report = {});
// --layout-sweep: for each case, the language, the scale and the window's
// size set, ImGui started afresh, and run_screenshot's layout report written
// to `folder`/NAME.txt (LayoutCase::name). Returns exit_ok, exit_write_failed,
// or exit_no_display when the window cannot take a size.
int run_layout_sweep(App& app, WindowHost& host, const std::vector<LayoutCase>& cases, const std::string& folder);
// Draws `frames` frames after 5 warm-up frames, the playhead one tick further
// each time, and prints frame-time percentiles (run_frame_bench.cpp).
void run_frame_bench(App& app, WindowHost& host, int frames, int width, int height);
// Until the window closes: input, playback, background jobs, frames; idle
// when nothing moves. Remembers the window size at the end.
void run_interactive(App& app, WindowHost& host);

// The frame step the screenshot runner and the interactive loop share, once
// events are in: the app advances by the time since the previous frame
// (`last` becomes `frame_start`), collects finished background jobs, and the
// host builds frame number `frame` (with the fill report when asked).
HostFrame advance_and_build(App& app, WindowHost& host, std::chrono::steady_clock::time_point frame_start,
                            std::chrono::steady_clock::time_point& last, int frame);

// With LEASESCOPE_FILL_REPORT=1, on the settled frame: how many pixels each
// window's draw list covers, on stderr (what costs fill rate under software
// rendering). Call after the frame is built.
void report_fill_if_asked(int frame);

}  // namespace leasescope::gui
