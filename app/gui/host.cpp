// The window host both shells share: style, fonts, backends, one frame.
#include "host.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "gl.hpp"  // before GLFW: the GL header is chosen there
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "offscreen.hpp"
#include "platform.hpp"

namespace leasescope::gui {
namespace {

// The glyphs the app draws besides Latin and Hangul: arrows, bullets, check
// marks, media symbols.
const ImWchar* extra_ranges() {
    static const ImWchar ranges[] = {
        0x0020, 0x00FF, 0x2010, 0x2050, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x2300,
        0x23FF, 0x2500, 0x25FF, 0x2600, 0x26FF, 0x2700, 0x27BF, 0,
    };
    return ranges;
}

// The Korean font's ranges: the compatibility jamo and the syllables the app
// shows (App::hangul), as pairs, zero-terminated. Kept until the next bake:
// the atlas reads them when it is built.
const ImWchar* korean_ranges(const std::set<char32_t>& hangul) {
    static std::vector<ImWchar> ranges;
    ranges.assign({0x3131, 0x318E});
    for (char32_t cp : hangul) {
        if (cp <= 0x318E) continue;
        if (ranges.back() + 1 == static_cast<ImWchar>(cp)) {
            ranges.back() = static_cast<ImWchar>(cp);
        } else {
            ranges.push_back(static_cast<ImWchar>(cp));
            ranges.push_back(static_cast<ImWchar>(cp));
        }
    }
    ranges.push_back(0);
    return ranges.data();
}

void load_fonts(App& app, float px) {
    ImGuiIO& io = ImGui::GetIO();
    const ImWchar* hangul = korean_ranges(app.hangul());
    const std::string latin = find_font_file("DejaVu Sans");
    const std::string korean = find_font_file(":lang=ko");
    if (korean.empty())
        std::fprintf(stderr, "leasescope: no font with Korean glyphs found through fontconfig (install fonts-nanum)\n");
    ImFontConfig merge;
    merge.MergeMode = true;
    merge.OversampleH = 1;  // Hangul has thousands of glyphs: keep the atlas small
    merge.OversampleV = 1;
    auto add = [&](float size) -> ImFont* {
        ImFont* font = nullptr;
        ImFontConfig base;
        base.OversampleH = 1;  // one texel per pixel: see the nearest sampling in host_init()
        base.PixelSnapH = true;
        if (!latin.empty()) font = io.Fonts->AddFontFromFileTTF(latin.c_str(), size, &base, extra_ranges());
        if (!font) {
            ImFontConfig def;
            def.SizePixels = size;
            font = io.Fonts->AddFontDefault(&def);
        }
        if (!korean.empty()) io.Fonts->AddFontFromFileTTF(korean.c_str(), size, &merge, hangul);
        return font;
    };
    app.fonts().body = add(px);
    app.fonts().title = add(std::round(px * 1.22f));
    app.fonts().small = add(std::round(px * 0.8f));
    io.FontDefault = app.fonts().body;
}

// ImGui's style at the UI scale (projector mode), in the light or the high-contrast colours.
void apply_style(float px, float scale, bool high_contrast) {
    ImGui::GetStyle() = ImGuiStyle();  // sizes from scratch: a second scaling must not compound
    ImGui::StyleColorsLight();
    ImGuiStyle& s = ImGui::GetStyle();
    s.WindowRounding = 6;
    s.FrameRounding = 4;
    s.GrabRounding = 4;
    s.WindowPadding = ImVec2(10, 8);
    s.FramePadding = ImVec2(7, 4);
    s.ItemSpacing = ImVec2(8, 6);
    s.ScrollbarSize = std::max(14.0f, px * 0.85f);
    s.WindowBorderSize = 1;
    // Panels are tiled and never overlap, so their background is the clear
    // colour: a transparent window background saves a full-screen fill per
    // frame, which matters with software rendering (fill rate bound).
    s.Colors[ImGuiCol_WindowBg] = ImVec4(0.985f, 0.985f, 0.975f, 0.0f);
    s.Colors[ImGuiCol_PopupBg] = ImVec4(0.99f, 0.99f, 0.98f, 1.0f);
    s.Colors[ImGuiCol_TitleBg] = ImVec4(0.86f, 0.89f, 0.93f, 1.0f);
    s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.78f, 0.84f, 0.93f, 1.0f);
    s.Colors[ImGuiCol_Text] = ImVec4(0.10f, 0.11f, 0.14f, 1.0f);
    // Frames a shade darker than the panels, so checkboxes and sliders read on a projector.
    s.Colors[ImGuiCol_FrameBg] = ImVec4(0.86f, 0.88f, 0.91f, 1.0f);
    s.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.80f, 0.85f, 0.93f, 1.0f);
    s.Colors[ImGuiCol_FrameBgActive] = ImVec4(0.74f, 0.81f, 0.93f, 1.0f);
    // Light, narrow grabs: the value is written inside the slider and must stay readable over them.
    s.Colors[ImGuiCol_SliderGrab] = ImVec4(0.08f, 0.35f, 0.78f, 0.40f);
    s.Colors[ImGuiCol_SliderGrabActive] = ImVec4(0.08f, 0.35f, 0.78f, 1.0f);
    s.Colors[ImGuiCol_CheckMark] = ImVec4(0.08f, 0.35f, 0.78f, 1.0f);
    s.Colors[ImGuiCol_Button] = ImVec4(0.84f, 0.87f, 0.92f, 1.0f);
    s.GrabMinSize = 8;
    // Coarser circles: markers stay round at this size and cost fewer triangles.
    s.CircleTessellationMaxError = 0.6f;

    s.FrameBorderSize = 0;
    // Thick lines from the atlas's baked line texture need bilinear sampling;
    // the atlas is sampled nearest (see host_init()), so lines get geometric edges.
    s.AntiAliasedLinesUseTex = false;
    s.ScaleAllSizes(scale);
    s.ScrollbarSize = std::max(14.0f, px * 0.85f);
    if (high_contrast) {
        // Black text and outlines on white: readable from the back row of a bright room.
        s.Colors[ImGuiCol_Text] = ImVec4(0, 0, 0, 1);
        s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.25f, 0.25f, 0.25f, 1);
        s.Colors[ImGuiCol_Border] = ImVec4(0, 0, 0, 1);
        s.Colors[ImGuiCol_FrameBg] = ImVec4(1, 1, 1, 1);
        s.Colors[ImGuiCol_Button] = ImVec4(0.90f, 0.90f, 0.90f, 1);
        s.Colors[ImGuiCol_TitleBg] = ImVec4(0.80f, 0.80f, 0.80f, 1);
        s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.70f, 0.80f, 0.95f, 1);
        s.Colors[ImGuiCol_SliderGrab] = ImVec4(0, 0.45f, 0.70f, 0.6f);
        s.Colors[ImGuiCol_CheckMark] = ImVec4(0, 0, 0, 1);
        s.FrameBorderSize = std::max(1.0f, scale);
        s.WindowBorderSize = std::max(2.0f, scale * 1.5f);
    }
}

// The font atlas's texture is sampled nearest (see host_init()).
void nearest_font_sampling() {
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(ImGui::GetIO().Fonts->TexID)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

// The atlas holds the Hangul of the app's words and scenarios only, so
// Korean typed (or composed by an input method) into an input field, such as
// the path of Open and Save, would show as boxes: the characters queued for
// the next frame add their Hangul, and a new syllable re-bakes the fonts
// before that frame draws them. (Pasted text comes through the field's
// command, command::TextEdited.)
void typed_glyphs(App& app) {
    for (const ImWchar c : ImGui::GetIO().InputQueueCharacters) app.need_glyph(static_cast<char32_t>(c));
}

// The fonts of the current context at the app's size, from `kept`: its
// atlas becomes the context's, baked here the first time (load_fonts).
void use_kept_fonts(App& app, KeptFontAtlases& kept) {
    KeptFontAtlases::Kept& k = kept.at(app.font_px(), app.hangul());
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts = &k.atlas;
    if (!k.baked) {
        load_fonts(app, app.font_px());
        k.fonts = app.fonts();
        k.baked = true;
    } else {
        app.fonts() = k.fonts;
        io.FontDefault = k.fonts.body;
    }
}

// A new UI scale or palette: the fonts are baked again at the new size (sharp
// text, not a stretched atlas) and the style is scaled from scratch. A kept
// atlas is never cleared: another one, of the new size, takes its place.
void rebuild_fonts(App& app, KeptFontAtlases* kept) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    if (kept) {
        use_kept_fonts(app, *kept);
    } else {
        ImGui::GetIO().Fonts->Clear();
        load_fonts(app, app.font_px());
    }
    ImGui_ImplOpenGL3_CreateFontsTexture();
    if (kept) ImGui::GetIO().Fonts->ClearInputData();  // baked: its font files are not needed again
    nearest_font_sampling();
    apply_style(app.font_px(), app.ui_scale(), app.high_contrast());
}

}  // namespace

KeptFontAtlases::Kept& KeptFontAtlases::at(float px, const std::set<char32_t>& hangul) {
    for (const auto& k : kept_)
        if (k->px == px && k->hangul == hangul) return *k;
    kept_.push_back(std::make_unique<Kept>());
    kept_.back()->px = px;
    kept_.back()->hangul = hangul;
    return *kept_.back();
}

void host_init(App& app, GLFWwindow* window, const char* glsl_version, const char* ini_path, KeptFontAtlases* kept) {
    IMGUI_CHECKVERSION();
    // With kept atlases the context owns none: each stays for the next context.
    ImGui::CreateContext(kept ? &kept->at(app.font_px(), app.hangul()).atlas : nullptr);
    ImGuiIO& io = ImGui::GetIO();
    if (!ini_path || !*ini_path) {
        io.IniFilename = nullptr;
        app.set_force_layout(true);
    } else {
        io.IniFilename = ini_path;
    }
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    apply_style(app.font_px(), app.ui_scale(), app.high_contrast());
    if (kept)
        use_kept_fonts(app, *kept);
    else
        load_fonts(app, app.font_px());
    app.take_fonts_dirty();  // baked here at the current scale
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init(glsl_version);
    // Glyphs are rasterised at the size they are drawn and snapped to whole
    // pixels, so every text and solid pixel samples the atlas one texel per
    // pixel: nearest sampling gives the same picture as bilinear, and under
    // software rendering costs a quarter of the texel fetches (about a third
    // of the frame time, measured).
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    // A kept atlas is baked now and never again: its font files are not needed.
    if (kept) io.Fonts->ClearInputData();
    nearest_font_sampling();
}

void host_shutdown() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

HostFrame host_frame(App& app, GLFWwindow* window, GlOffscreen* offscreen, bool hide_pointer, KeptFontAtlases* kept) {
    HostFrame frame;
    // Between frames, never inside one: the atlas may not change while a frame is built.
    typed_glyphs(app);
    if (app.take_fonts_dirty()) rebuild_fonts(app, kept);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (hide_pointer) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    app.shortcuts(frame.commands);
    app.draw_frame(frame.commands);
    ImGui::Render();
    frame.ui_end = std::chrono::steady_clock::now();
    if (offscreen) offscreen->flush();
    glfwGetFramebufferSize(window, &frame.fb_w, &frame.fb_h);
    glViewport(0, 0, frame.fb_w, frame.fb_h);
    glClearColor(0.985f, 0.985f, 0.975f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (auto png = app.take_png_request()) {
        if (write_framebuffer_png(*png, frame.fb_w, frame.fb_h)) {
            file_saved(*png);
            app.set_notice(app.strings().tr("msg.saved", {{"path", *png}}));
        } else {
            app.set_error(app.strings().tr("msg.cannot_write", {{"path", *png}}));
        }
    }
    return frame;
}

}  // namespace leasescope::gui
