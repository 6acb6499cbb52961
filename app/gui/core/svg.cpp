// The timeline written as an SVG picture with its legend (svg.hpp).
#include "svg.hpp"

#include <fmt/format.h>

#include "lane_layout.hpp"
#include "marks.hpp"

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

std::string lane_name(const Lane& lane, const Strings& s) {
    switch (lane.kind) {
        case LaneKind::candidate: return lane.label;
        case LaneKind::slot: return s.tr("lane.slot", {{"slot", std::to_string(lane.index)}});
        case LaneKind::holdoff: return s.tr("lane.holdoff");
        case LaneKind::resource: return s.tr("lane.resource");
        case LaneKind::ops: return lane.label.empty() ? s.tr("lane.ops") : lane.label;  // the ops' actors
    }
    return lane.label;
}

std::string rect(const Box& b, const std::string& fill, float rx = 0, const char* extra = "") {
    return fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"{:.0f}\" fill=\"{}\"{}/>\n", b.x0,
        b.y0, b.w(), b.h(), rx, fill, extra);
}

}  // namespace

std::string timeline_svg(const LaneModel& model, const Palette& pal, const Strings& s, const SvgOptions& o) {
    const float label_w = 130, lane_h = 34, top = 70, font_px = 13, small_px = 11;
    const float plot_x = label_w, plot_w = o.width_px - label_w - 20;
    const TimeAxis axis = fit_axis(o.first, o.last + 1, plot_x, plot_w);
    const TextMetrics metrics = estimated_metrics(font_px, small_px);
    const float lanes_bottom = top + lane_h * static_cast<float>(model.lanes.size());

    // The legend: every span and mark this timeline shows, each once, wrapped.
    std::vector<bool> spans_present(static_cast<std::size_t>(SpanKind::count_), false);
    std::vector<bool> marks_present(static_cast<std::size_t>(MarkerKind::count_), false);
    for (const Lane& lane : model.lanes) {
        for (const Span& sp : lane.spans) spans_present[static_cast<std::size_t>(sp.kind)] = true;
        for (const Span& sp : lane.overlays) spans_present[static_cast<std::size_t>(sp.kind)] = true;
        for (const Marker& m : lane.markers) marks_present[static_cast<std::size_t>(m.kind)] = true;
    }
    struct Entry {
        bool is_mark;
        int kind;
        std::string text;
        float x, y;
    };
    std::vector<Entry> legend;
    float lx = 10, ly = lanes_bottom + 28;
    auto add_entry = [&](bool is_mark, int kind, std::string text) {
        const float w = 22 + estimated_width(text, font_px) + 18;
        if (lx + w > o.width_px - 10 && lx > 10) {
            lx = 10;
            ly += 22;
        }
        legend.push_back(Entry{is_mark, kind, std::move(text), lx, ly});
        lx += w;
    };
    for (SpanKind k :
         {SpanKind::waiting, SpanKind::running, SpanKind::stale, SpanKind::paused, SpanKind::partition_requests,
          SpanKind::partition_replies, SpanKind::crashed, SpanKind::record, SpanKind::holdoff, SpanKind::fence})
        if (spans_present[static_cast<std::size_t>(k)])
            add_entry(false, static_cast<int>(k), s.tr(std::string("legend.") + span_kind_name(k)));
    for (MarkerKind k : legend_marks())
        if (marks_present[static_cast<std::size_t>(k)])
            add_entry(true, static_cast<int>(k), s.tr(std::string("legend.") + marker_kind_name(k)));
    const float height = ly + 24;

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
    // Ruler: the same numbers as on screen, none under the playhead's badge.
    const RulerLayout ruler =
        layout_ruler(axis, plot_x, plot_w, top - 26, 20, o.playhead >= 0 ? o.playhead : -1000000, metrics);
    const Tick step = ruler_step(axis.px_per_tick, 46.0f);
    for (Tick t = (o.first / step) * step; t <= o.last + 1; t += step) {
        const double x = axis.x_of(static_cast<double>(t));
        if (x < plot_x) continue;
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", x,
                           top - 6, x, lanes_bottom, pal.grid.hex());
    }
    for (const RulerLabel& l : ruler.labels)
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", l.box.x0, l.box.y1 - 3,
                           pal.text_dim.hex(), l.text);

    LayoutFrame frame;
    frame.axis = axis;
    frame.plot_x = plot_x;
    frame.plot_w = plot_w;
    frame.lanes_top = top;
    frame.lane_h = lane_h;
    frame.first_lane = 0;
    frame.last_lane = static_cast<int>(model.lanes.size()) - 1;
    frame.resource_until = o.playhead >= 0 ? o.playhead : tick_none;
    LaneLayout layout;
    layout_lanes(model, frame, s, metrics, layout);

    std::vector<DrawSpan> spans;
    for (std::size_t li = 0; li < model.lanes.size(); ++li) {
        const Lane& lane = model.lanes[li];
        const float y = top + lane_h * static_cast<float>(li);
        out += rect(Box{0, y, o.width_px, y + lane_h}, (li % 2 ? pal.lane_odd : pal.lane_even).hex());
        const std::string label = lane_name(lane, s);
        out += fmt::format("<text x=\"8\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", y + lane_h * 0.62f, pal.text.hex(),
                           svg_escape(label));
        const bool resource = lane.kind == LaneKind::resource;
        const float resource_end = frame.resource_until == tick_none
                                       ? plot_x + plot_w
                                       : static_cast<float>(axis.x_of(static_cast<double>(frame.resource_until) + 1.0));
        const float pad = lane_h * 0.14f;
        spans.clear();
        cull_spans(lane.spans, axis, 2.0f, spans);
        for (const DrawSpan& d : spans) {
            const float x1 = resource ? std::min(d.x1, resource_end) : d.x1;
            if (x1 <= d.x0) continue;
            if (d.kind == SpanKind::fence) {
                out += rect(Box{d.x0, y + lane_h - pad - 3, x1, y + lane_h - pad}, pal.of(d.kind).hex());
                continue;
            }
            const Box b{d.x0, y + pad, x1 - 1, y + lane_h - pad};
            out += rect(b, pal.of(d.kind).hex(), 3);
            if (d.kind == SpanKind::stale || d.kind == SpanKind::holdoff) out += rect(b, "url(#hatch)", 3);
        }
        spans.clear();
        cull_spans(lane.overlays, axis, 2.0f, spans);
        for (const DrawSpan& d : spans)
            out += fmt::format(
                "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
                "stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
                d.x0, y + 1, d.x1 - d.x0, lane_h - 2, pal.of(d.kind).hex());
    }
    for (const PlacedMark& pm : layout.marks) {
        std::string title = s.tr(std::string("legend.") + marker_kind_name(pm.kind));
        const Lane& lane = model.lanes[static_cast<std::size_t>(pm.lane)];
        const Marker& mk = lane.markers[static_cast<std::size_t>(pm.marker)];
        title = fmt::format("{} {} · {}", s.tr("word.tick"), mk.tick, title);
        title = lane_name(lane, s) + " · " + title;
        if (pm.folded > 1) title += " · " + s.tr("tip.folded", {{"count", std::to_string(pm.folded)}});
        out += svg_mark(pm.kind, pm.x, pm.y, pm.r, pal, title);
    }
    for (const PlacedLabel& pl : layout.labels) {
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
            case LabelKind::fencing: out += rect(pl.box, "#ffffff", 3, " fill-opacity=\"0.9\""); break;
            case LabelKind::failover:
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
    if (ruler.playhead_visible) {
        // As on screen: the playhead's cell is outlined through the lanes, its
        // line runs only through the ruler, so no mark of that tick is crossed.
        const auto x0 = static_cast<float>(axis.x_of(static_cast<double>(o.playhead)));
        const auto x1 = static_cast<float>(axis.x_of(static_cast<double>(o.playhead) + 1.0));
        out += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
            "fill-opacity=\"0.06\" stroke=\"{}\" stroke-width=\"2\"/>\n",
            x0, top - 26, x1 - x0, lanes_bottom - top + 26, pal.playhead.hex(), pal.playhead.hex());
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
            "stroke-width=\"2\"/>\n",
            ruler.playhead_x, top - 26, ruler.playhead_x, top - 6, pal.playhead.hex());
        out += rect(ruler.badge, pal.playhead.hex(), 3);
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#ffffff\">{}</text>\n", ruler.badge.x0 + 4,
                           ruler.badge.y1 - 4, ruler.badge_text);
    }
    if (o.mark_tick >= o.first && o.mark_tick <= o.last) {
        // A dashed line through the middle of the marked tick's cell, and its label.
        const auto xm = static_cast<float>(axis.x_of(static_cast<double>(o.mark_tick) + 0.5));
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\" "
            "stroke-dasharray=\"6 4\"/>\n",
            xm, top - 28, xm, lanes_bottom, pal.focus.hex());
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-weight=\"bold\">{}</text>\n", xm + 4,
                           top - 31, pal.text.hex(), svg_escape(o.mark_text));
    }
    // Legend.
    for (const Entry& e : legend) {
        if (e.is_mark) {
            const auto k = static_cast<MarkerKind>(e.kind);
            out += svg_mark(k, e.x + 8, e.y - 5, 6.5f, pal, e.text);
        } else {
            const auto k = static_cast<SpanKind>(e.kind);
            out += rect(Box{e.x, e.y - 12, e.x + 16, e.y + 2}, pal.of(k).hex(), 2);
        }
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", e.x + 22, e.y, pal.text.hex(),
                           svg_escape(e.text));
    }
    out += "</svg>\n";
    return out;
}

}  // namespace leasescope::gui
