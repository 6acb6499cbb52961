#pragma once
// Draw lists rendered once into a texture and then drawn as one image, for a
// panel whose picture changes far less often than the frame (the timeline
// during playback). Under software rendering (Mesa llvmpipe) every pixel of
// every triangle costs, so a timeline of thousands of spans and markers is
// drawn again only when it changes (zoom, pan, scroll, a new simulation,
// another language), not on every frame.
//
// Needs framebuffer objects (OpenGL 3.0, WebGL 2), called through gl.hpp
// (libepoxy on the desktop, Emscripten's GL in the browser).
#include <vector>

#include "gl.hpp"

#include "views/view.hpp"

namespace leasescope::gui {

class GlOffscreen final : public Offscreen {
public:
    GlOffscreen() = default;
    ~GlOffscreen() override;
    GlOffscreen(const GlOffscreen&) = delete;
    GlOffscreen& operator=(const GlOffscreen&) = delete;

    // Checks for framebuffer objects; false (and the app draws directly) without them.
    bool init();
    ImTextureID render(int slot, ImDrawList& list, ImVec2 pos, ImVec2 size) override;
    // Renders the lists queued this frame. Call after ImGui::Render(), before
    // the frame itself is drawn; needs the ImGui OpenGL3 backend initialised.
    void flush();

private:
    struct Target {
        GLuint texture = 0;
        GLuint fbo = 0;
        int w = 0, h = 0;
    };
    struct Job {
        int slot = 0;
        ImDrawList* list = nullptr;
        ImVec2 pos, size;
    };
    std::vector<Target> targets_;
    std::vector<Job> queue_;
    bool ready_ = false;
};

}  // namespace leasescope::gui
