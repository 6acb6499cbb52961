// The desktop shell's platform: fontconfig, files on disk, zlib for PNGs.
#include "platform.hpp"

#include "leasescope/io/files.hpp"

#include <filesystem>
#include <vector>

#include "framebuffer_rgb.hpp"
#include "gl.hpp"
#include <fontconfig/fontconfig.h>

#include <cstdlib>
#include <zlib.h>

// stb's built-in deflate is simple and makes large files; zlib at its default
// level makes screenshots about a third smaller (docs images stay small). Level
// 9 gained about 1 % more and took most of a 2560x1440 screenshot's time.
static unsigned char* zlib_compress_for_stb(unsigned char* data, int data_len, int* out_len, int /*quality*/) {
    uLongf size = compressBound(static_cast<uLong>(data_len));
    auto* out = static_cast<unsigned char*>(std::malloc(size));
    if (!out) return nullptr;
    if (compress2(out, &size, data, static_cast<uLong>(data_len), Z_DEFAULT_COMPRESSION) != Z_OK) {
        std::free(out);
        return nullptr;
    }
    *out_len = static_cast<int>(size);
    return out;
}

// The PNG encoder's implementation lives in this one file, with internal
// linkage, so it cannot clash with a copy inside a shared libstb.
#define STBIW_ZLIB_COMPRESS zlib_compress_for_stb
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace leasescope::gui {

std::string find_font_file(const std::string& pattern_text) {
    std::string out;
    if (!FcInit()) return out;
    FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(pattern_text.c_str()));
    if (!pattern) return out;
    FcConfigSubstitute(nullptr, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcPattern* match = FcFontMatch(nullptr, pattern, &result);
    if (match) {
        FcChar8* file = nullptr;
        if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch && file) {
            out = reinterpret_cast<const char*>(file);
            // ImGui reads TrueType/OpenType files only; skip bitmap or Type 1 matches.
            const auto ext = std::filesystem::path(out).extension().string();
            if (ext != ".ttf" && ext != ".otf" && ext != ".ttc" && ext != ".TTF" && ext != ".OTF") out.clear();
        }
        FcPatternDestroy(match);
    }
    FcPatternDestroy(pattern);
    return out;
}

bool write_framebuffer_png(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0) return false;
    glReadBuffer(GL_BACK);
    const std::vector<unsigned char> rgb = read_framebuffer_rgb(width, height);
    const auto rgb_stride = static_cast<std::size_t>(width) * 3;
    stbi_write_png_compression_level = 9;
    // Encoded in memory, then written whole or not at all (io::write_file).
    std::string png;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (stbi_write_png_to_func(append, &png, width, height, 3, rgb.data(), static_cast<int>(rgb_stride)) == 0)
        return false;
    std::string error;
    return io::write_file(path, png, error);
}

std::string executable_dir() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return p.parent_path().string();
}

void file_saved(const std::string&) {}

bool shell_picks_files() { return false; }

void pick_file_to_open() {}

}  // namespace leasescope::gui
