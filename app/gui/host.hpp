#pragma once
// The window host both shells share (app/gui/window_host.cpp on the desktop,
// app/web/main.cpp in the browser): ImGui's style, fonts and backends on a
// GLFW window, and one frame of the app from input to pixels. What differs
// between the shells (fonts on disk, files, settings) is behind platform.hpp.
#include <chrono>

#include "app.hpp"

struct GLFWwindow;

namespace leasescope::gui {

class GlOffscreen;

// Creates the ImGui context and sets it up on `window`'s current GL context:
// the style, the fonts (platform.hpp's find_font_file), the GLFW and OpenGL
// backends with `glsl_version` ("#version 130" on the desktop, "#version 300
// es" for WebGL2), and the font atlas sampled nearest. `ini_path` empty: no
// imgui.ini (and the computed layout every frame).
void host_init(App& app, GLFWwindow* window, const char* glsl_version, const char* ini_path);
// Shuts the backends down and destroys the ImGui context.
void host_shutdown();

struct HostFrame {
    Commands commands;                             // what the views asked for; apply after the frame
    std::chrono::steady_clock::time_point ui_end;  // views and ImGui done, before any GL work
    int fb_w = 0, fb_h = 0;
};

// One frame: a new ImGui frame, the shortcuts and the views, then the draw
// lists rendered into the window's framebuffer (the offscreen pictures
// first), and the PNG export a view asked for. Input must have been polled.
// `hide_pointer`: headless pictures do not depend on where the pointer is.
HostFrame host_frame(App& app, GLFWwindow* window, GlOffscreen* offscreen, bool hide_pointer);

}  // namespace leasescope::gui
