#pragma once
// The one place that picks where the app's own OpenGL calls (those outside
// ImGui's backend: the offscreen targets, the font atlas filter, reading
// pixels, glFinish) come from: libepoxy on the desktop, Emscripten's WebGL 2
// (GLES3) in the browser. Include it before <GLFW/glfw3.h>, or define
// GLFW_INCLUDE_NONE there, so that no other GL header comes first.
//
// ImGui's OpenGL3 backend keeps its own loader (imgui_impl_opengl3_loader.h)
// inside imgui_impl_opengl3.cpp; it must never share a translation unit with
// epoxy, whose function pointers it would shadow.
#if defined(__gl3w_h_)
#error "gl.hpp and ImGui's OpenGL3 loader in one translation unit"
#endif
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif
