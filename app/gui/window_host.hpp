#pragma once
// The desktop window the app draws in, owned start to end: GLFW, the window
// and its GL context, ImGui with its backends (host.hpp), and the offscreen
// picture of the timeline, set up in open() and torn down, in the reverse
// order, by the destructor.
#include <memory>
#include <optional>
#include <string>

#include "host.hpp"
#include "offscreen.hpp"

struct GLFWwindow;

namespace leasescope::gui {

class App;

struct WindowSpec {
    int width = 1600, height = 900;
    bool headless = false;     // no vsync, pointer hidden, nothing remembered
    bool direct_draw = false;  // no offscreen picture of the timeline
    std::string ini_path;      // imgui.ini; empty: none
    // Without --size, on a screen: the window fits the primary monitor's work
    // area (width x height, the remembered size, shrunk to fit; 0 x 0: 90 % of it).
    bool fit_monitor = false;
};

// The size a window opens at on a monitor whose work area is work_w x work_h:
// the wished size (0: 90 % of the work area) no larger than the work area and
// no smaller than 640x480 (or the work area, when that is smaller still).
void fit_to_work_area(int work_w, int work_h, int& width, int& height);

class WindowHost {
public:
    // Opens the window and sets ImGui up on it; nullptr, with the reason on
    // stderr, when there is no display or no OpenGL 3.0 context.
    static std::unique_ptr<WindowHost> open(App& app, WindowSpec spec);
    ~WindowHost();
    WindowHost(const WindowHost&) = delete;
    WindowHost& operator=(const WindowHost&) = delete;

    bool should_close() const;
    void poll_events();
    void wait_events(double timeout_s);
    // One frame of the app into the back buffer (host_frame); not yet shown.
    HostFrame frame();
    void swap();
    // The window's size now, in screen coordinates.
    void size(int& w, int& h) const;
    // For --layout-sweep: the window resized to w x h, and ImGui and the
    // timeline's picture started afresh on it, as a new process has them (no
    // window placed, no table sized, the fonts baked at the app's scale).
    // False, said on stderr, when the window does not take that size.
    bool restart_at(int w, int h);

private:
    WindowHost(App& app, const WindowSpec& spec) : app_(app), spec_(spec) {}
    // ImGui on the window, and the timeline's picture unless direct_draw.
    void start_ui();
    void stop_ui();

public:
    const WindowSpec& spec() const { return spec_; }

private:
    App& app_;
    WindowSpec spec_;
    bool glfw_ = false;
    GLFWwindow* window_ = nullptr;
    bool imgui_ = false;
    std::optional<GlOffscreen> offscreen_;
    // From the first restart_at on (--layout-sweep): the fonts of each size
    // baked once for all the cases, not once per case.
    std::unique_ptr<KeptFontAtlases> kept_fonts_;
};

}  // namespace leasescope::gui
