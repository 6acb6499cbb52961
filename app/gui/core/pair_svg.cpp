// Side by side as one SVG (pair_svg.hpp): two timeline_svg pictures nested one over the other, and the words.
#include "pair_svg.hpp"

#include <fmt/format.h>

#include "lane_layout.hpp"
#include "svg.hpp"

namespace leasescope::gui {
namespace {

// The height timeline_svg wrote into its root element.
float svg_height(const std::string& svg) {
    const auto at = svg.find("height=\"");
    return at == std::string::npos ? 0.0f : std::stof(svg.substr(at + 8));
}

// The picture placed at (0, y) inside the outer one.
std::string nested(const std::string& svg, float y) {
    std::string out = svg;
    const auto at = out.find("<svg ");
    if (at != std::string::npos) out.insert(at + 5, fmt::format("x=\"0\" y=\"{:.0f}\" ", y));
    return out;
}

// Words wrapped at spaces to `width` (estimated widths; Korean wraps at its spaces too).
std::vector<std::string> wrap(const std::string& text, float width, float px) {
    std::vector<std::string> lines;
    std::string line, word;
    auto flush_word = [&] {
        if (word.empty()) return;
        const std::string joined = line.empty() ? word : line + " " + word;
        if (!line.empty() && estimated_width(joined, px) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = joined;
        }
        word.clear();
    };
    for (char c : text) {
        if (c == ' ')
            flush_word();
        else
            word += c;
    }
    flush_word();
    if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace

std::string pair_svg(const LaneModel& a, const LaneModel& b, const Palette& pal, const Strings& s,
                     const PairSvgOptions& o) {
    SvgOptions so;
    so.first = o.first;
    so.last = o.last;
    so.playhead = o.playhead;
    so.width_px = o.width_px;
    so.mark_tick = o.divergence_a;
    so.mark_text = o.mark_text_a;
    so.title = o.label_a;
    const std::string svg_a = timeline_svg(a, pal, s, so);
    so.mark_tick = o.divergence_b;
    so.mark_text = o.mark_text_b;
    so.title = o.label_b;
    const std::string svg_b = timeline_svg(b, pal, s, so);
    const float head = 40, ha = svg_height(svg_a), hb = svg_height(svg_b), px = 15, line_h = 21;
    std::vector<std::string> lines;
    for (const std::string& sentence : o.sentences)
        for (std::string& l : wrap(sentence, o.width_px - 40, px)) lines.push_back(std::move(l));
    const float words_y = head + ha + hb + 16;
    const float height = words_y + line_h * static_cast<float>(lines.size()) + 16;
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
        "font-family=\"DejaVu Sans, NanumGothic, sans-serif\" font-size=\"{:.0f}\">\n",
        o.width_px, height, px);
    out += fmt::format("<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n", pal.background.hex());
    out += fmt::format("<text x=\"10\" y=\"28\" font-size=\"20\" font-weight=\"bold\" fill=\"{}\">{}</text>\n",
                       pal.text.hex(), svg_escape(o.title));
    out += nested(svg_a, head);
    out += fmt::format("<line x1=\"0\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                       head + ha, o.width_px, head + ha, pal.grid.hex());
    out += nested(svg_b, head + ha);
    float y = words_y + px;
    for (const std::string& l : lines) {
        out += fmt::format("<text x=\"20\" y=\"{:.0f}\" fill=\"{}\">{}</text>\n", y, pal.text.hex(), svg_escape(l));
        y += line_h;
    }
    out += "</svg>\n";
    return out;
}

}  // namespace leasescope::gui
