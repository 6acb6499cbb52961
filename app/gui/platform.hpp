#pragma once
// The edges of the app that touch the system: fonts found through fontconfig,
// the PNG of the window, file paths.
#include <string>

namespace leasescope::gui {

// The file of the best font fontconfig offers for `pattern` (":lang=ko",
// "DejaVu Sans"); empty when there is none.
std::string find_font_file(const std::string& pattern);

// Reads the current framebuffer (width × height, RGBA) and writes it as a PNG,
// rows flipped so the picture is upright. False on failure.
bool write_framebuffer_png(const std::string& path, int width, int height);

// The directory of the running executable ("" when unknown).
std::string executable_dir();

}  // namespace leasescope::gui
