#include "offscreen.hpp"

#include <cstdint>

#include <GL/glext.h>
#include <GLFW/glfw3.h>
#include <imgui_impl_opengl3.h>

namespace leasescope::gui {
namespace {

PFNGLGENFRAMEBUFFERSPROC gen_framebuffers = nullptr;
PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers = nullptr;
PFNGLBINDFRAMEBUFFERPROC bind_framebuffer = nullptr;
PFNGLFRAMEBUFFERTEXTURE2DPROC framebuffer_texture_2d = nullptr;
PFNGLCHECKFRAMEBUFFERSTATUSPROC check_framebuffer_status = nullptr;

ImTextureID as_id(GLuint texture) { return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)); }

}  // namespace

bool GlOffscreen::init() {
    gen_framebuffers = reinterpret_cast<PFNGLGENFRAMEBUFFERSPROC>(glfwGetProcAddress("glGenFramebuffers"));
    delete_framebuffers = reinterpret_cast<PFNGLDELETEFRAMEBUFFERSPROC>(glfwGetProcAddress("glDeleteFramebuffers"));
    bind_framebuffer = reinterpret_cast<PFNGLBINDFRAMEBUFFERPROC>(glfwGetProcAddress("glBindFramebuffer"));
    framebuffer_texture_2d =
        reinterpret_cast<PFNGLFRAMEBUFFERTEXTURE2DPROC>(glfwGetProcAddress("glFramebufferTexture2D"));
    check_framebuffer_status =
        reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(glfwGetProcAddress("glCheckFramebufferStatus"));
    ready_ = gen_framebuffers && delete_framebuffers && bind_framebuffer && framebuffer_texture_2d &&
             check_framebuffer_status;
    return ready_;
}

GlOffscreen::~GlOffscreen() {
    for (Target& t : targets_) {
        if (t.fbo && delete_framebuffers) delete_framebuffers(1, &t.fbo);
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
        gen_framebuffers(1, &t.fbo);
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
        bind_framebuffer(GL_FRAMEBUFFER, t.fbo);
        framebuffer_texture_2d(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.texture, 0);
        const GLenum status = check_framebuffer_status(GL_FRAMEBUFFER);
        bind_framebuffer(GL_FRAMEBUFFER, 0);
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
        bind_framebuffer(GL_FRAMEBUFFER, t.fbo);
        glViewport(0, 0, t.w, t.h);
        // The panels' background, opaque: the image then looks exactly like
        // drawing the list straight onto the frame. Alpha stays 1 (the mask)
        // whatever blend function the backend uses.
        glClearColor(0.985f, 0.985f, 0.975f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
        ImGui_ImplOpenGL3_RenderDrawData(&data);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        bind_framebuffer(GL_FRAMEBUFFER, 0);
    }
    queue_.clear();
}

}  // namespace leasescope::gui
