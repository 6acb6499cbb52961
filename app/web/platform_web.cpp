// The browser shell's platform (platform.hpp): fonts packed with the page,
// PNGs encoded by stb's own deflate (no zlib in the browser build), files the
// app writes handed to the user as downloads, and the browser's file dialog
// for Open. The JavaScript side is window.lsShell in app/web/shell.js.
#include "platform.hpp"

#include <emscripten.h>

#include "framebuffer_rgb.hpp"
#include "gl.hpp"

#include <cstdio>
#include <filesystem>
#include <vector>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace leasescope::gui {

std::string find_font_file(const std::string& pattern) {
    // tools/web_build.sh packs both fonts cut down to the glyphs the app uses.
    const std::string path =
        pattern.find("lang=ko") != std::string::npos ? "/fonts/NanumGothic-subset.ttf" : "/fonts/DejaVuSans-subset.ttf";
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) ? path : std::string();
}

bool write_framebuffer_png(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0) return false;
    const std::vector<unsigned char> rgb = read_framebuffer_rgb(width, height);
    const auto rgb_stride = static_cast<std::size_t>(width) * 3;
    return stbi_write_png(path.c_str(), width, height, 3, rgb.data(), static_cast<int>(rgb_stride)) != 0;
}

std::string executable_dir() { return "/"; }

void file_saved(const std::string& path) {
    // The file is in the page's memory file system: the browser downloads it
    // under its own name, and the copy in memory goes.
    EM_ASM({ window.lsShell&& window.lsShell.download(UTF8ToString($0)); }, path.c_str());
}

bool shell_picks_files() { return true; }

void pick_file_to_open() {
    EM_ASM({ window.lsShell&& window.lsShell.pickFile(); });
}

}  // namespace leasescope::gui
