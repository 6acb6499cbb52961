// The timeline written as an SVG picture with its legend (svg.hpp).
#include "svg.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lane_layout.hpp"
#include "marks.hpp"
#include "timeline_frame.hpp"

namespace leasescope::gui {

std::string svg_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

std::string points_attr(const GlyphPart& part, float cx, float cy, float r) {
    std::string pts;
    for (const GlyphPoint& p : part.points) {
        if (!pts.empty()) pts += ' ';
        pts += fmt::format("{:.1f},{:.1f}", cx + p.x * r, cy + p.y * r);
    }
    return pts;
}

// One mark: the same glyph as on screen, in a group whose <title> names the
// outcome (what a screen reader says, what a script can search for).
std::string svg_mark(MarkerKind kind, float cx, float cy, float r, const Palette& pal, const std::string& title) {
    const Rgba white{255, 255, 255, 255};
    std::string out = fmt::format("<g class=\"mark {}\"><title>{}</title>", marker_kind_name(kind), svg_escape(title));
    for (const GlyphPart& part : mark_glyph(kind).parts) {
        const Rgba ink = part.ink == Ink::mark ? pal.of(kind) : part.ink == Ink::white ? white : pal.text;
        const float stroke = std::max(1.0f, part.stroke * r);
        switch (part.type) {
            case GlyphPart::Type::polygon:
                out += fmt::format("<polygon points=\"{}\" fill=\"{}\"/>", points_attr(part, cx, cy, r), ink.hex());
                break;
            case GlyphPart::Type::polyline:
                out += fmt::format(
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.1f}\" "
                    "stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                    points_attr(part, cx, cy, r), ink.hex(), stroke);
                break;
            case GlyphPart::Type::outline:
                out += fmt::format(
                    "<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.1f}\" "
                    "stroke-linejoin=\"round\"/>",
                    points_attr(part, cx, cy, r), ink.hex(), stroke);
                break;
            case GlyphPart::Type::circle:
                out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\"/>",
                                   cx + part.points[0].x * r, cy + part.points[0].y * r, part.size * r, ink.hex());
                break;
            case GlyphPart::Type::ring:
                out += fmt::format(
                    "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"none\" stroke=\"{}\" "
                    "stroke-width=\"{:.1f}\"/>",
                    cx + part.points[0].x * r, cy + part.points[0].y * r, part.size * r, ink.hex(), stroke);
                break;
        }
    }
    out += "</g>\n";
    return out;
}

std::string rect(const Box& b, const std::string& fill, float rx = 0, const char* extra = "") {
    return fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"{:.0f}\" fill=\"{}\"{}/>\n", b.x0,
        b.y0, b.w(), b.h(), rx, fill, extra);
}

}  // namespace

namespace {

constexpr float font_px = 13, small_px = 11;

// The legend: every span and mark this timeline shows, each once, wrapped
// under the lanes from `y`; returns where the picture ends.
float svg_legend(const LaneModel& model, const Palette& pal, const Strings& s, float width_px, float y,
                 std::string& out) {
    std::vector<bool> spans_present(static_cast<std::size_t>(SpanKind::count_), false);
    std::vector<bool> marks_present(static_cast<std::size_t>(MarkerKind::count_), false);
    for (const Lane& lane : model.lanes) {
        for (const Span& sp : lane.spans) spans_present[static_cast<std::size_t>(sp.kind)] = true;
        for (const Span& sp : lane.overlays) spans_present[static_cast<std::size_t>(sp.kind)] = true;
        for (const Marker& m : lane.markers) marks_present[static_cast<std::size_t>(m.kind)] = true;
    }
    float lx = 10, ly = y;
    auto add_entry = [&](const std::string& text) {
        const float w = 22 + estimated_width(text, font_px) + 18;
        if (lx + w > width_px - 10 && lx > 10) {
            lx = 10;
            ly += 22;
        }
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", lx + 22, ly, pal.text.hex(),
                           svg_escape(text));
        lx += w;
        return lx - w;
    };
    for (SpanKind k : {SpanKind::waiting, SpanKind::running, SpanKind::stale, SpanKind::paused,
                       SpanKind::partition_requests, SpanKind::partition_replies, SpanKind::crashed, SpanKind::record,
                       SpanKind::holdoff, SpanKind::fence, SpanKind::cut, SpanKind::validity}) {
        if (!spans_present[static_cast<std::size_t>(k)]) continue;
        const float x = add_entry(s.tr(std::string("legend.") + span_kind_name(k)));
        out += rect(Box{x, ly - 12, x + 16, ly + 2}, pal.of(k).hex(), 2);
    }
    for (MarkerKind k : legend_marks()) {
        if (!marks_present[static_cast<std::size_t>(k)]) continue;
        const std::string text = s.tr(std::string("legend.") + marker_kind_name(k));
        const float x = add_entry(text);
        out += svg_mark(k, x + 8, ly - 5, 6.5f, pal, text);
    }
    for (const MessageLook look : message_looks(model.messages)) {  // the message view's arrows
        const float x = add_entry(s.tr(message_look_key(look)));
        const Rgba ink = look == MessageLook::lost   ? pal.message_lost
                         : look == MessageLook::late ? pal.message_late
                                                     : pal.message;
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>\n", x,
            ly - 5, x + 16, ly - 5, ink.hex());
    }
    return ly + 24;
}

// The ruler's gridlines and numbers (the frame's, none under the playhead's badge).
void svg_ruler(const TimelineFrame& f, const Palette& pal, const SvgOptions& o, float bottom, std::string& out) {
    const Tick step = ruler_grid_step(f.ruler.step, f.axis.px_per_tick, 46.0f);
    for (Tick t = (o.first / step) * step; t <= o.last + 1; t += step) {
        const double x = f.axis.x_of(static_cast<double>(t));
        if (x < f.plot_x) continue;
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", x,
                           f.lanes_y - 6, x, bottom, pal.grid.hex());
    }
    for (const RulerLabel& l : f.ruler.labels)
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", l.box.x0, l.box.y1 - 3,
                           pal.text_dim.hex(), l.text);
}

// The lanes' stripes and titles, then spans and overlays, as the frame has them.
void svg_lanes(const TimelineFrame& f, const Palette& pal, float width_px, std::string& out) {
    for (const FrameLane& fl : f.lanes) {
        out += rect(Box{0, fl.box.y0, width_px, fl.box.y1}, (fl.lane % 2 ? pal.lane_odd : pal.lane_even).hex());
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", fl.title_box.x0,
                           fl.box.y0 + fl.box.h() * 0.62f, pal.text.hex(), svg_escape(fl.title));
    }
    for (const FrameSpan& sp : f.spans) {
        const DrawSpan& d = sp.draw;
        if (sp.overlay) {
            out += fmt::format(
                "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
                "stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
                d.x0, sp.box.y0, d.x1 - d.x0, sp.box.h(), pal.of(d.kind).hex());
        } else if (d.kind == SpanKind::fence) {
            out += rect(Box{d.x0, sp.box.y1 - 3, d.x1, sp.box.y1}, pal.of(d.kind).hex());
        } else {
            const Box b{d.x0, sp.box.y0, d.x1 - 1, sp.box.y1};
            out += rect(b, pal.of(d.kind).hex(), 3);
            if (d.kind == SpanKind::stale || d.kind == SpanKind::holdoff) out += rect(b, "url(#hatch)", 3);
        }
    }
}

// The marks, each titled with its lane, tick and outcome, then the words.
void svg_marks_and_words(const LaneModel& model, const TimelineFrame& f, const Palette& pal, const Strings& s,
                         std::string& out) {
    for (const PlacedMark& pm : f.layout.marks) {
        const Lane& lane = model.lanes[static_cast<std::size_t>(pm.lane)];
        const Marker& mk = lane.markers[static_cast<std::size_t>(pm.marker)];
        std::string title = lane_title(lane, s) + " · " +
                            fmt::format("{} {} · {}", s.tr("word.tick"), mk.tick,
                                        s.tr(std::string("legend.") + marker_kind_name(pm.kind)));
        if (pm.folded > 1) title += " · " + s.tr("tip.folded", {{"count", std::to_string(pm.folded)}});
        out += svg_mark(pm.kind, pm.x, pm.y, pm.r, pal, title);
    }
    for (const PlacedLabel& pl : f.layout.labels) {
        Rgba fill = pal.text;
        switch (pl.kind) {
            case LabelKind::span:
                fill = pl.span == SpanKind::waiting ? pal.text : Rgba{255, 255, 255, 255};
                if (pl.span == SpanKind::stale) out += rect(pl.box, "#96002d", 3);
                break;
            case LabelKind::overlay:
                out += rect(pl.box, pal.of(pl.span).hex(), 3);
                fill = Rgba{255, 255, 255, 255};
                break;
            case LabelKind::fence: fill = pal.text_dim; break;
            case LabelKind::clock:  // a compact store lane's clock reads like a fencing number: dark on white
            case LabelKind::fencing: out += rect(pl.box, "#ffffff", 3, " fill-opacity=\"0.9\""); break;
            case LabelKind::failover:
            case LabelKind::quorum:
                out += rect(pl.box, "#ffffff", 3,
                            fmt::format(" stroke=\"{}\" stroke-width=\"1.5\"", pal.of(pl.mark).hex()).c_str());
                fill = pal.of(pl.mark);
                break;
        }
        out +=
            fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\"{}>{}</text>\n", pl.text_x,
                        pl.text_y + (pl.small ? small_px : font_px) * 0.85f, fill.hex(),
                        pl.small ? fmt::format(" font-size=\"{:.0f}\"", small_px) : std::string(), svg_escape(pl.text));
    }
}

// As on screen: the playhead's cell is outlined through the lanes, its line
// runs only through the ruler, so no mark of that tick is crossed.
void svg_playhead(const TimelineFrame& f, const Palette& pal, Tick playhead, float ruler_top, float bottom,
                  std::string& out) {
    if (!f.ruler.playhead_visible) return;
    const auto x0 = static_cast<float>(f.axis.x_of(static_cast<double>(playhead)));
    const auto x1 = static_cast<float>(f.axis.x_of(static_cast<double>(playhead) + 1.0));
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
        "fill-opacity=\"0.06\" stroke=\"{}\" stroke-width=\"2\"/>\n",
        x0, ruler_top, x1 - x0, bottom - ruler_top, pal.playhead.hex(), pal.playhead.hex());
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\"/>\n",
        f.ruler.playhead_x, ruler_top, f.ruler.playhead_x, f.lanes_y - 6, pal.playhead.hex());
    out += rect(f.ruler.badge, pal.playhead.hex(), 3);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#ffffff\">{}</text>\n", f.ruler.badge.x0 + 4,
                       f.ruler.badge.y1 - 4, f.ruler.badge_text);
}

// The clock lanes, as the screen's painter draws them.
void svg_clocks(const TimelineFrame& f, const Palette& pal, std::string& out) {
    const std::string ink = pal.of(MarkerKind::clock_jump).hex();
    for (const FrameClockLane& c : f.clocks) {
        out += rect(c.box, pal.lane_even.hex());
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
            "stroke-dasharray=\"4 4\"/>\n",
            f.plot_x, c.zero_y, f.plot_x + f.plot_w, c.zero_y, pal.text_dim.hex());
        std::string pts;
        for (const auto& [x, y] : c.line) pts += fmt::format("{:.1f},{:.1f} ", x, y);
        out += fmt::format("<polyline class=\"clock\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                           pts, ink);
        out +=
            fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"{:.0f}\">{}</text>\n", c.title_box.x0,
                        c.title_box.y0 + small_px * 0.85f, pal.text.hex(), small_px, svg_escape(c.title));
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"{:.0f}\">{}</text>\n",
                           c.axis_box.x0, c.axis_box.y0 + small_px * 0.85f, ink, small_px, svg_escape(c.axis));
    }
}

// One message's arrow, its <title> the message in words.
void svg_arrow(const FrameArrow& a, const Palette& pal, const std::string& title, std::string& out) {
    const Rgba ink = a.lost ? pal.message_lost : a.late ? pal.message_late : pal.message;
    out += fmt::format("<g class=\"message{}{}\"><title>{}</title>", a.late ? " late" : "", a.lost ? " lost" : "",
                       svg_escape(title));
    out +=
        fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    a.x0, a.y0, a.x1, a.y1, ink.hex(), a.late ? "2.5" : "1.5");
    if (a.head && a.lost) {
        out += fmt::format("<path d=\"M{0:.1f} {1:.1f}l8 8m0 -8l-8 8\" stroke=\"{2}\" stroke-width=\"2\"/>", a.x1 - 4,
                           a.y1 - 4, ink.hex());
    } else if (a.head) {
        const float dx = a.x1 - a.x0, dy = a.y1 - a.y0, len = std::max(1e-3f, std::hypot(dx, dy));
        const float ux = dx / len, uy = dy / len;
        out += fmt::format("<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"{}\"/>", a.x1, a.y1,
                           a.x1 - ux * 6 - uy * 3, a.y1 - uy * 6 + ux * 3, a.x1 - ux * 6 + uy * 3,
                           a.y1 - uy * 6 - ux * 3, ink.hex());
    }
    out += "</g>\n";
}

// The message view, as the screen's painter draws it; each arrow says in its
// <title> when it was sent and arrived.
void svg_messages(const LaneModel& model, const TimelineFrame& f, const Palette& pal, const Strings& s,
                  std::string& out) {
    for (std::size_t i = 0; i < f.message_lanes.size(); ++i) {
        const FrameMessageLane& ml = f.message_lanes[i];
        out += rect(ml.box, (i % 2 == 0 ? pal.lane_even : pal.lane_odd).hex());
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", f.plot_x,
                           ml.mid_y, ml.box.x1, ml.mid_y, pal.grid.hex());
        out +=
            fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"{:.0f}\">{}</text>\n", ml.title_box.x0,
                        ml.title_box.y0 + small_px * 0.85f, pal.text.hex(), small_px, svg_escape(ml.title));
    }
    for (const FrameArrow& a : f.arrows) svg_arrow(a, pal, message_summary(model.messages, a.message, s), out);
    // Redisson's unlock messages between the lanes (model.md §21.5), told by their legend's words.
    for (const FrameArrow& a : f.lane_arrows)
        svg_arrow(a, pal, s.tr(a.lost ? "legend.unlock_message_lost" : "legend.unlock_message"), out);
}

}  // namespace

// The SVG painter of the timeline's frame (core/timeline_frame.hpp): the same
// lanes, titles, spans, marks and words as the screen's painter draws.
std::string timeline_svg(const LaneModel& model, const Palette& pal, const Strings& s, const SvgOptions& o) {
    const float lane_h = 34, top = 70;
    TimelineViewport v;
    v.x = 2;
    v.y = top - 26;
    v.width = o.width_px - 22;
    v.label_w = 128;
    v.ruler_h = 26;
    v.lane_h_min = v.lane_h_max = lane_h;
    v.height = v.ruler_h + lane_h * static_cast<float>(model.lanes.size());
    v.height += clock_strip_h(model, v);
    v.height += message_strip_want_h(model, v);
    const TimeAxis axis = fit_axis(o.first, o.last + 1, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = axis.first_tick;
    v.px_per_tick = axis.px_per_tick;
    v.playhead = o.playhead >= 0 ? o.playhead : -1000000;
    v.resource_until = o.playhead >= 0 ? o.playhead : tick_none;
    v.state_square_w = 0;
    const TimelineFrame f = build_timeline_frame(model, v, s, estimated_metrics(font_px, small_px));
    const float lanes_bottom = f.lanes_y + f.content_h + clock_strip_h(model, v) + message_strip_h(model, v);

    std::string legend;
    const float height = svg_legend(model, pal, s, o.width_px, lanes_bottom + 28, legend);
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
        "font-family=\"DejaVu Sans, NanumGothic, sans-serif\" font-size=\"{:.0f}\">\n",
        o.width_px, height, font_px);
    out += fmt::format("<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n", pal.background.hex());
    out +=
        "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"white\" "
        "stroke-width=\"2\" stroke-opacity=\"0.6\"/></pattern></defs>\n";
    out += fmt::format("<text x=\"10\" y=\"24\" font-size=\"18\" font-weight=\"bold\" fill=\"{}\">{}</text>\n",
                       pal.text.hex(), svg_escape(o.title));
    svg_ruler(f, pal, o, lanes_bottom, out);
    svg_lanes(f, pal, o.width_px, out);
    svg_clocks(f, pal, out);
    svg_messages(model, f, pal, s, out);
    if (o.mark_tick >= o.first && o.mark_tick <= o.last) {
        // A dashed line through the middle of the marked tick's cell, under
        // the marks and words (none hides behind it), and its label.
        const auto xm = static_cast<float>(f.axis.x_of(static_cast<double>(o.mark_tick) + 0.5));
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\" "
            "stroke-dasharray=\"6 4\"/>\n",
            xm, top - 28, xm, lanes_bottom, pal.focus.hex());
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-weight=\"bold\">{}</text>\n", xm + 4,
                           top - 31, pal.text.hex(), svg_escape(o.mark_text));
    }
    svg_marks_and_words(model, f, pal, s, out);
    svg_playhead(f, pal, o.playhead, v.y, lanes_bottom, out);
    out += legend;
    out += "</svg>\n";
    return out;
}

}  // namespace leasescope::gui
