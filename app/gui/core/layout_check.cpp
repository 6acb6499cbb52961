// The layout check's rules (layout_check.hpp): items inside their panels, text over no other text.
#include "layout_check.hpp"

#include <algorithm>
#include <cstdio>

namespace leasescope::gui {
namespace {

constexpr float slack = 1.0f;

std::string rect_text(const LayoutRect& r) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "[%.0f,%.0f - %.0f,%.0f]", static_cast<double>(r.x0), static_cast<double>(r.y0),
                  static_cast<double>(r.x1), static_cast<double>(r.y1));
    return buf;
}

std::string short_label(const std::string& s) {
    std::string out;
    for (char c : s) out += (c == '\n' || c == '"') ? ' ' : c;
    if (out.size() > 48) {
        std::size_t cut = 48;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
        out = out.substr(0, cut) + "…";
    }
    return "\"" + out + "\"";
}

bool empty(const LayoutRect& r) { return r.x1 - r.x0 < 1.0f || r.y1 - r.y0 < 1.0f; }

// The part of an item that shows: rows scrolled out of a table or a panel hide nothing.
LayoutRect visible(const LayoutItem& it) {
    return LayoutRect{std::max(it.rect.x0, it.clip.x0), std::max(it.rect.y0, it.clip.y0),
                      std::min(it.rect.x1, it.clip.x1), std::min(it.rect.y1, it.clip.y1)};
}

bool overlap(const LayoutRect& a, const LayoutRect& b) {
    return a.x0 + slack < b.x1 && b.x0 + slack < a.x1 && a.y0 + slack < b.y1 && b.y0 + slack < a.y1;
}

}  // namespace

std::vector<std::string> check_layout(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                                      float display_w, float display_h) {
    std::vector<std::string> problems;
    for (const LayoutWindow& w : windows)
        if (w.rect.x0 < -slack || w.rect.y0 < -slack || w.rect.x1 > display_w + slack || w.rect.y1 > display_h + slack)
            problems.push_back("window " + w.name + " " + rect_text(w.rect) + " leaves the display");
    for (std::size_t i = 0; i < windows.size(); ++i)
        for (std::size_t k = i + 1; k < windows.size(); ++k)
            if (overlap(windows[i].rect, windows[k].rect))
                problems.push_back("window " + windows[i].name + " " + rect_text(windows[i].rect) + " overlaps " +
                                   windows[k].name + " " + rect_text(windows[k].rect));
    for (const LayoutItem& it : items) {
        if (empty(it.rect)) continue;
        const LayoutRect& r = it.rect;
        const LayoutRect& c = it.clip;
        if (!it.scrolls_x && (r.x0 < c.x0 - slack || r.x1 > c.x1 + slack))
            problems.push_back("in " + it.window + ": " + short_label(it.label) + " " + rect_text(r) +
                               " is cut left or right by " + rect_text(c));
        else if (!it.scrolls_y && (r.y0 < c.y0 - slack || r.y1 > c.y1 + slack))
            problems.push_back("in " + it.window + ": " + short_label(it.label) + " " + rect_text(r) +
                               " is cut at the top or bottom by " + rect_text(c) + ", and the panel does not scroll");
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        const LayoutItem& a = items[i];
        if (!a.text || empty(visible(a))) continue;
        for (std::size_t k = i + 1; k < items.size(); ++k) {
            const LayoutItem& b = items[k];
            if (!b.text || empty(visible(b)) || b.window != a.window) continue;
            if (overlap(visible(a), visible(b)))
                problems.push_back("in " + a.window + ": " + short_label(a.label) + " " + rect_text(a.rect) +
                                   " overlaps " + short_label(b.label) + " " + rect_text(b.rect));
        }
    }
    return problems;
}

std::string layout_report(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                          const std::vector<std::string>& problems) {
    std::string out = "layout: " + std::to_string(windows.size()) + " windows, " + std::to_string(items.size()) +
                      " items, " + std::to_string(problems.size()) + " problems\n";
    for (const std::string& p : problems) out += "problem: " + p + "\n";
    for (const LayoutWindow& w : windows) out += "window: " + w.name + " " + rect_text(w.rect) + "\n";
    for (const LayoutItem& it : items)
        out += std::string(it.text ? "text: " : "item: ") + it.window + " " + rect_text(it.rect) + " clip " +
               rect_text(it.clip) + (it.scrolls_y ? " scrolls" : "") + (it.scrolls_x ? " scrolls-x " : " ") +
               short_label(it.label) + "\n";
    return out;
}

}  // namespace leasescope::gui
