// Draw lists rendered into textures through framebuffer objects (offscreen.hpp).
#include "offscreen.hpp"

#include <cstdint>

#include <imgui_impl_opengl3.h>

#include "gl.hpp"

namespace leasescope::gui {
namespace {

ImTextureID as_id(GLuint texture) { return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)); }

}  // namespace

bool GlOffscreen::init() {
#ifdef __EMSCRIPTEN__
    ready_ = true;  // WebGL 2 always has framebuffer objects
#else
    // OpenGL 3.0 or GL_ARB_framebuffer_object; epoxy resolves the functions on first call.
    ready_ = epoxy_gl_version() >= 30 || epoxy_has_gl_extension("GL_ARB_framebuffer_object");
#endif
    return ready_;
}

GlOffscreen::~GlOffscreen() {
    for (Target& t : targets_) {
        if (t.fbo) glDeleteFramebuffers(1, &t.fbo);
        if (t.texture) glDeleteTextures(1, &t.texture);
    }
}

ImTextureID GlOffscreen::render(int slot, ImDrawList& list, ImVec2 pos, ImVec2 size) {
    if (!ready_ || slot < 0 || size.x < 1 || size.y < 1) return nullptr;
    if (static_cast<std::size_t>(slot) >= targets_.size()) targets_.resize(static_cast<std::size_t>(slot) + 1);
    Target& t = targets_[static_cast<std::size_t>(slot)];
    const int w = static_cast<int>(size.x), h = static_cast<int>(size.y);
    if (!t.texture) {
        glGenTextures(1, &t.texture);
        glGenFramebuffers(1, &t.fbo);
    }
    if (t.w != w || t.h != h) {
        GLint bound = 0;
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
        glBindTexture(GL_TEXTURE_2D, t.texture);
        // Drawn at one texel per pixel: nearest sampling is exact and the cheapest.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(bound));
        glBindFramebuffer(GL_FRAMEBUFFER, t.fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.texture, 0);
        const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        if (status != GL_FRAMEBUFFER_COMPLETE) return nullptr;
        t.w = w;
        t.h = h;
    }
    queue_.push_back(Job{slot, &list, pos, ImVec2(static_cast<float>(w), static_cast<float>(h))});
    return as_id(t.texture);
}

void GlOffscreen::flush() {
    for (Job& job : queue_) {
        const Target& t = targets_[static_cast<std::size_t>(job.slot)];
        job.list->_PopUnusedDrawCmd();
        ImDrawData data;
        data.Valid = true;
        data.CmdListsCount = 1;
        data.CmdLists = &job.list;
        data.TotalVtxCount = job.list->VtxBuffer.Size;
        data.TotalIdxCount = job.list->IdxBuffer.Size;
        data.DisplayPos = job.pos;
        data.DisplaySize = job.size;
        data.FramebufferScale = ImVec2(1, 1);
        glBindFramebuffer(GL_FRAMEBUFFER, t.fbo);
        glViewport(0, 0, t.w, t.h);
        // The panels' background, opaque: the image then looks exactly like
        // drawing the list straight onto the frame. Alpha stays 1 (the mask)
        // whatever blend function the backend uses.
        glClearColor(0.985f, 0.985f, 0.975f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
        ImGui_ImplOpenGL3_RenderDrawData(&data);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    queue_.clear();
}

}  // namespace leasescope::gui
