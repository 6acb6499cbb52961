#pragma once
// The edges of the app that touch the system, one implementation per shell:
// platform.cpp for the desktop (fontconfig, files on disk, zlib for PNGs),
// app/web/platform_web.cpp for the browser (fonts packed with the page,
// files downloaded and picked through the browser). Views and the app call
// these and never ask which shell they run in.
#include <string>

namespace leasescope::gui {

// The file of the best font for `pattern` (":lang=ko", "DejaVu Sans"); empty
// when there is none.
std::string find_font_file(const std::string& pattern);

// Reads the current framebuffer (width × height, RGBA) and writes it as a PNG,
// rows flipped so the picture is upright. False on failure.
bool write_framebuffer_png(const std::string& path, int width, int height);

// The directory of the running executable ("" when unknown).
std::string executable_dir();

// Called after the app wrote a file the user asked for (save, an export):
// the desktop has nothing more to do; the browser hands it to the user as a
// download.
void file_saved(const std::string& path);

// True when the shell picks files to open itself (the browser's file
// dialog); false when the app asks for a path (the desktop).
bool shell_picks_files();
// Asks the shell for a scenario file; it arrives later as an open_path
// command (the browser shell queues it). Does nothing where
// shell_picks_files() is false.
void pick_file_to_open();

}  // namespace leasescope::gui
