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

// One mark hides another when they share more than half of the smaller
// one (touching glyphs of folded neighbours do not count).
bool hides(const LayoutRect& a, const LayoutRect& b) {
    const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
    const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    if (w <= 0 || h <= 0) return false;
    const float smaller = std::min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0));
    return w * h > 0.5f * smaller;
}

const char* kind_word(const LayoutItem& it) {
    switch (it.drawn) {
        case DrawnKind::lane_title: return "lane: ";
        case DrawnKind::mark: return "mark: ";
        case DrawnKind::mark_label: return "label: ";
        case DrawnKind::tick_number: return "tick: ";
        case DrawnKind::hint: return "hint: ";
        case DrawnKind::none: break;
    }
    return it.text ? "text: " : "item: ";
}

// Rules 6 and 7: the timeline's marks over its words, its lanes in view.
void check_timelines(const std::vector<LayoutItem>& items, const std::vector<LayoutTimeline>& timelines,
                     std::vector<std::string>& problems) {
    for (const LayoutTimeline& t : timelines) {
        const std::string counts = std::to_string(t.lanes_shown) + " of " + std::to_string(t.lanes_total);
        if (t.lanes_total > 0 && t.lanes_shown == 0)
            problems.push_back("in " + t.window + ": the timeline shows no lane (" + counts + ")");
        else if (t.lanes_shown < t.lanes_total && !t.hint)
            problems.push_back("in " + t.window + ": the timeline shows " + counts +
                               " lanes, without a hint that the others scroll");
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        const LayoutItem& m = items[i];
        if (m.drawn != DrawnKind::mark || empty(visible(m))) continue;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const LayoutItem& t = items[k];
            const bool other_mark = t.drawn == DrawnKind::mark && k > i;  // each pair once
            if (!(t.text || other_mark) || t.window != m.window || empty(visible(t))) continue;
            if (other_mark ? hides(visible(m), visible(t)) : overlap(visible(m), visible(t)))
                problems.push_back("in " + m.window + ": mark " + short_label(m.label) + " " + rect_text(m.rect) +
                                   " overlaps " + (other_mark ? "mark " : "") + short_label(t.label) + " " +
                                   rect_text(t.rect));
        }
    }
}

}  // namespace

std::vector<std::string> check_layout(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                                      float display_w, float display_h, const std::vector<LayoutTimeline>& timelines) {
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
    check_timelines(items, timelines, problems);
    return problems;
}

std::string layout_report(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                          const std::vector<std::string>& problems, const std::vector<LayoutTimeline>& timelines) {
    std::string out = "layout: " + std::to_string(windows.size()) + " windows, " + std::to_string(items.size()) +
                      " items, " + std::to_string(problems.size()) + " problems\n";
    for (const std::string& p : problems) out += "problem: " + p + "\n";
    for (const LayoutWindow& w : windows) out += "window: " + w.name + " " + rect_text(w.rect) + "\n";
    for (const LayoutTimeline& t : timelines)
        out += "timeline: " + t.window + " shows " + std::to_string(t.lanes_shown) + " of " +
               std::to_string(t.lanes_total) + " lanes" + (t.hint ? ", with a scroll hint" : "") + "\n";
    for (const LayoutItem& it : items)
        out += std::string(kind_word(it)) + it.window + " " + rect_text(it.rect) + " clip " + rect_text(it.clip) +
               (it.scrolls_y ? " scrolls" : "") + (it.scrolls_x ? " scrolls-x " : " ") + short_label(it.label) + "\n";
    return out;
}

}  // namespace leasescope::gui
