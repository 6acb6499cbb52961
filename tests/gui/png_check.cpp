// Checks a screenshot: it decodes, has the expected size if asked, is not
// blank (enough distinct colours), and contains a given colour (or lacks one) if asked.
// Usage: leasescope_png_check FILE [--size WxH] [--min-colors N] [--expect-color rrggbb] [--absent-color rrggbb]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s FILE [--size WxH] [--min-colors N] [--expect-color rrggbb] [--absent-color rrggbb]\n",
                     argv[0]);
        return 2;
    }
    int want_w = 0, want_h = 0;
    long min_colors = 40;
    long expect = -1;
    long absent = -1;  // a colour that must not appear (a mark that must not be drawn)
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--size"))
            std::sscanf(argv[i + 1], "%dx%d", &want_w, &want_h);
        else if (!std::strcmp(argv[i], "--min-colors"))
            min_colors = std::strtol(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--expect-color"))
            expect = std::strtol(argv[i + 1], nullptr, 16);
        else if (!std::strcmp(argv[i], "--absent-color"))
            absent = std::strtol(argv[i + 1], nullptr, 16);
    }
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) {
        std::fprintf(stderr, "%s: cannot decode: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    int rc = 0;
    if (want_w && (w != want_w || h != want_h)) {
        std::fprintf(stderr, "%s: size %dx%d, expected %dx%d\n", argv[1], w, h, want_w, want_h);
        rc = 1;
    }
    std::set<long> colors;
    bool found = expect < 0;
    bool present = false;
    for (long i = 0; i < static_cast<long>(w) * h; ++i) {
        const long c = (px[i * 3] << 16) | (px[i * 3 + 1] << 8) | px[i * 3 + 2];
        colors.insert(c);
        if (c == expect) found = true;
        if (c == absent) present = true;
    }
    stbi_image_free(px);
    if (static_cast<long>(colors.size()) < min_colors) {
        std::fprintf(stderr, "%s: only %zu distinct colours: the picture looks blank\n", argv[1], colors.size());
        rc = 1;
    }
    if (!found) {
        std::fprintf(stderr, "%s: colour #%06lx not found\n", argv[1], expect);
        rc = 1;
    }
    if (present) {
        std::fprintf(stderr, "%s: colour #%06lx found, but must not be there\n", argv[1], absent);
        rc = 1;
    }
    std::printf("%s: %dx%d, %zu colours%s\n", argv[1], w, h, colors.size(), rc ? " (FAILED)" : "");
    return rc;
}
