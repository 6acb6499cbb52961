#pragma once
// The window host both shells share (app/gui/window_host.cpp on the desktop,
// app/web/main.cpp in the browser): ImGui's style, fonts and backends on a
// GLFW window, and one frame of the app from input to pixels. What differs
// between the shells (fonts on disk, files, settings) is behind platform.hpp.
#include <chrono>
#include <memory>
#include <set>
#include <vector>

#include <imgui.h>

#include "app.hpp"

struct GLFWwindow;

namespace leasescope::gui {

class GlOffscreen;

// Font atlases kept across ImGui contexts, for --layout-sweep, which starts
// ImGui afresh for every case: one per font size and Hangul set, baked once
// as a context bakes its own (the same glyphs, so the same text and layout)
// instead of once per case. Once baked, a kept atlas never changes.
class KeptFontAtlases {
public:
    struct Kept {
        float px = 0;
        std::set<char32_t> hangul;
        ImFontAtlas atlas;
        Fonts fonts;  // body, title and small, in `atlas`
        bool baked = false;
    };
    // The atlas of this size and Hangul set, added (not yet baked) if there is none.
    Kept& at(float px, const std::set<char32_t>& hangul);

private:
    std::vector<std::unique_ptr<Kept>> kept_;
};

// Creates the ImGui context and sets it up on `window`'s current GL context:
// the style, the fonts (platform.hpp's find_font_file), the GLFW and OpenGL
// backends with `glsl_version` ("#version 130" on the desktop, "#version 300
// es" for WebGL2), and the font atlas sampled nearest. `ini_path` empty: no
// imgui.ini (and the computed layout every frame). With `kept`, the fonts
// come from there, baked only when it has none of this size and Hangul set.
void host_init(App& app, GLFWwindow* window, const char* glsl_version, const char* ini_path,
               KeptFontAtlases* kept = nullptr);
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
// `kept`: as host_init's, for fonts baked again between frames.
HostFrame host_frame(App& app, GLFWwindow* window, GlOffscreen* offscreen, bool hide_pointer,
                     KeptFontAtlases* kept = nullptr);

}  // namespace leasescope::gui
