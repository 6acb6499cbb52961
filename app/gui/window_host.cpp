// The desktop window host (window_host.hpp): GLFW, the window, ImGui and the offscreen picture, set up and torn down.
#include "window_host.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "gl.hpp"  // before GLFW: the GL header is chosen there
#include <GLFW/glfw3.h>

#include "app.hpp"

namespace leasescope::gui {

void fit_to_work_area(int work_w, int work_h, int& width, int& height) {
    if (work_w <= 0 || work_h <= 0) return;  // no monitor told us its size: keep the wish
    if (width <= 0 || height <= 0) {
        width = work_w * 9 / 10;
        height = work_h * 9 / 10;
    }
    width = std::clamp(width, std::min(640, work_w), work_w);
    height = std::clamp(height, std::min(480, work_h), work_h);
}

std::unique_ptr<WindowHost> WindowHost::open(App& app, WindowSpec spec) {
    glfwSetErrorCallback(
        [](int code, const char* text) { std::fprintf(stderr, "leasescope: GLFW %d: %s\n", code, text); });
    if (!glfwInit()) {
        std::fprintf(stderr, "leasescope: cannot open the display (glfwInit failed)\n");
        return nullptr;
    }
    if (spec.fit_monitor) {
        int x = 0, y = 0, work_w = 0, work_h = 0;
        if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
            glfwGetMonitorWorkarea(monitor, &x, &y, &work_w, &work_h);
            if (work_w <= 0 || work_h <= 0) {
                if (const GLFWvidmode* mode = glfwGetVideoMode(monitor)) {
                    work_w = mode->width;
                    work_h = mode->height;
                }
            }
        }
        fit_to_work_area(work_w, work_h, spec.width, spec.height);
    }
    std::unique_ptr<WindowHost> host(new WindowHost(app, spec));
    host->glfw_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    host->window_ = glfwCreateWindow(spec.width, spec.height, "LeaseScope", nullptr, nullptr);
    if (!host->window_) {
        std::fprintf(stderr, "leasescope: cannot create an OpenGL 3.0 window\n");
        return nullptr;  // the destructor ends GLFW
    }
    glfwMakeContextCurrent(host->window_);
    glfwSwapInterval(spec.headless ? 0 : 1);
    host->start_ui();
    return host;
}

void WindowHost::start_ui() {
    host_init(app_, window_, "#version 130", spec_.ini_path.c_str(), kept_fonts_.get());
    imgui_ = true;
    // The timeline's picture is kept in a texture while it does not change.
    if (!spec_.direct_draw) {
        offscreen_.emplace();
        if (offscreen_->init())
            app_.set_offscreen(&*offscreen_);
        else
            offscreen_.reset();
    }
}

void WindowHost::stop_ui() {
    app_.set_offscreen(nullptr);
    offscreen_.reset();  // its textures go before the context
    if (imgui_) host_shutdown();
    imgui_ = false;
}

WindowHost::~WindowHost() {
    stop_ui();
    if (window_) glfwDestroyWindow(window_);
    if (glfw_) glfwTerminate();
}

bool WindowHost::restart_at(int w, int h) {
    stop_ui();
    if (!kept_fonts_) kept_fonts_ = std::make_unique<KeptFontAtlases>();
    glfwSetWindowSize(window_, w, h);
    // The X server resizes at once without a window manager, and tells GLFW in an event.
    int fb_w = 0, fb_h = 0;
    for (int tries = 0; tries < 400; ++tries) {
        glfwPollEvents();
        glfwGetFramebufferSize(window_, &fb_w, &fb_h);
        if (fb_w == w && fb_h == h) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (fb_w != w || fb_h != h) {
        std::fprintf(stderr, "leasescope: the window did not take the size %dx%d (it is %dx%d)\n", w, h, fb_w, fb_h);
        return false;
    }
    start_ui();
    return true;
}

bool WindowHost::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void WindowHost::poll_events() { glfwPollEvents(); }

void WindowHost::wait_events(double timeout_s) { glfwWaitEventsTimeout(timeout_s); }

HostFrame WindowHost::frame() {
    return host_frame(app_, window_, offscreen_ ? &*offscreen_ : nullptr, spec_.headless, kept_fonts_.get());
}

void WindowHost::swap() { glfwSwapBuffers(window_); }

void WindowHost::size(int& w, int& h) const { glfwGetWindowSize(window_, &w, &h); }

}  // namespace leasescope::gui
