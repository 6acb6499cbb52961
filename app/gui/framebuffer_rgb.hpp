#pragma once
// Reading the framebuffer as upright RGB rows, shared by both shells'
// write_framebuffer_png (platform.cpp, app/web/platform_web.cpp), which differ
// only in how they encode and save the picture.
#include <vector>

namespace leasescope::gui {

// The current read framebuffer's width × height pixels as RGB, 3 bytes a pixel,
// rows from the top (OpenGL's start at the bottom). The window is opaque, so
// alpha is dropped (smaller files, never see-through). Needs width, height > 0.
std::vector<unsigned char> read_framebuffer_rgb(int width, int height);

}  // namespace leasescope::gui
