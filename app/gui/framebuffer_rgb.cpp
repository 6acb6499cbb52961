// Reads the framebuffer as upright RGB rows (framebuffer_rgb.hpp).
#include "framebuffer_rgb.hpp"

#include <cstddef>

#include "gl.hpp"

#include "leasescope/engine/assert.hpp"

namespace leasescope::gui {

std::vector<unsigned char> read_framebuffer_rgb(int width, int height) {
    LS_ASSERT(width > 0);
    LS_ASSERT(height > 0);
    const auto stride = static_cast<std::size_t>(width) * 4;
    std::vector<unsigned char> pixels(stride * static_cast<std::size_t>(height));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    const auto rgb_stride = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> rgb(rgb_stride * static_cast<std::size_t>(height));
    for (int y = 0; y < height; ++y) {
        const unsigned char* src = pixels.data() + stride * static_cast<std::size_t>(height - 1 - y);
        unsigned char* dst = rgb.data() + rgb_stride * static_cast<std::size_t>(y);
        for (int x = 0; x < width; ++x) {
            dst[x * 3 + 0] = src[x * 4 + 0];
            dst[x * 3 + 1] = src[x * 4 + 1];
            dst[x * 3 + 2] = src[x * 4 + 2];
        }
    }
    return rgb;
}

}  // namespace leasescope::gui
