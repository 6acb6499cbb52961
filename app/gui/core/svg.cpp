#include "svg.hpp"

#include <fmt/format.h>

namespace leasescope::gui {
namespace {

std::string escape(const std::string& text) {
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

bool is_bad(MarkerKind k) {
    return k == MarkerKind::release_rejected || k == MarkerKind::write_rejected || k == MarkerKind::write_unsafe ||
           k == MarkerKind::crash || k == MarkerKind::extend_lost || k == MarkerKind::acquire_error ||
           k == MarkerKind::release_error || k == MarkerKind::failover;
}

}  // namespace

std::string timeline_svg(const LaneModel& model, const Palette& pal, const Strings& s, const SvgOptions& o) {
    const float label_w = 130, lane_h = 30, top = 70, legend_h = 40;
    const float plot_w = o.width_px - label_w - 20;
    const TimeAxis axis = fit_axis(o.first, o.last + 1, label_w, plot_w);
    const float height = top + lane_h * static_cast<float>(model.lanes.size()) + legend_h + 20;
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
        "font-family=\"DejaVu Sans, NanumGothic, sans-serif\" font-size=\"13\">\n",
        o.width_px, height);
    out += fmt::format("<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n", pal.background.hex());
    out += "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
           "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"white\" "
           "stroke-width=\"2\" stroke-opacity=\"0.6\"/></pattern></defs>\n";
    out += fmt::format("<text x=\"10\" y=\"24\" font-size=\"18\" font-weight=\"bold\" fill=\"{}\">{}</text>\n",
                       pal.text.hex(), escape(o.title));
    // Ruler.
    const Tick step = ruler_step(axis.px_per_tick, 40);
    for (Tick t = (o.first / step) * step; t <= o.last + 1; t += step) {
        const double x = axis.x_of(static_cast<double>(t));
        if (x < label_w) continue;
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", x,
                           top - 8, x, top + lane_h * static_cast<float>(model.lanes.size()), pal.grid.hex());
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" text-anchor=\"middle\">{}</text>\n", x,
                           top - 12, pal.text_dim.hex(), t);
    }
    std::vector<DrawSpan> spans;
    std::vector<DrawMarker> markers;
    for (std::size_t li = 0; li < model.lanes.size(); ++li) {
        const Lane& lane = model.lanes[li];
        const float y = top + lane_h * static_cast<float>(li);
        out += fmt::format("<rect x=\"0\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", y,
                           o.width_px, lane_h, (li % 2 ? pal.lane_odd : pal.lane_even).hex());
        std::string label = lane.label;
        if (lane.kind == LaneKind::slot) label = s.tr("lane.slot", {{"slot", std::to_string(lane.index)}});
        if (lane.kind == LaneKind::holdoff) label = s.tr("lane.holdoff");
        if (lane.kind == LaneKind::resource) label = s.tr("lane.resource");
        if (lane.kind == LaneKind::ops) label = s.tr("lane.ops");
        out += fmt::format("<text x=\"8\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", y + lane_h * 0.65f, pal.text.hex(),
                           escape(label));
        spans.clear();
        cull_spans(lane.spans, axis, 2.0f, spans);
        for (const DrawSpan& d : spans) {
            const Span& sp = lane.spans[static_cast<std::size_t>(d.span)];
            out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n",
                               d.x0, y + 5, d.x1 - d.x0, lane_h - 10, pal.of(d.kind).hex());
            if (d.kind == SpanKind::stale)
                out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                                   "fill=\"url(#hatch)\"/>\n",
                                   d.x0, y + 5, d.x1 - d.x0, lane_h - 10);
            if (d.folded == 1 && sp.fencing && d.x1 - d.x0 > 24)
                out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"white\" font-weight=\"bold\">#{}</text>\n",
                                   d.x0 + 4, y + lane_h * 0.65f, *sp.fencing);
        }
        spans.clear();
        cull_spans(lane.overlays, axis, 2.0f, spans);
        for (const DrawSpan& d : spans)
            out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
                               "stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>\n",
                               d.x0, y + 3, d.x1 - d.x0, lane_h - 6, pal.of(d.kind).hex());
        markers.clear();
        cull_markers(lane.markers, axis, 4.0f, markers);
        for (const DrawMarker& m : markers) {
            if (m.kind == MarkerKind::acquire_busy || m.kind == MarkerKind::start) continue;
            const Rgba c = pal.of(m.kind);
            if (is_bad(m.kind))
                out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"16\" font-weight=\"bold\" "
                                   "text-anchor=\"middle\">✗</text>\n",
                                   m.x, y + lane_h * 0.7f, c.hex());
            else
                out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"{}\" stroke=\"white\"/>\n",
                                   m.x, y + lane_h * 0.5f, c.hex());
        }
    }
    if (o.playhead >= 0) {
        const double x = axis.x_of(static_cast<double>(o.playhead) + 0.5);
        out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                           "stroke-width=\"2\"/>\n",
                           x, top - 8, x, top + lane_h * static_cast<float>(model.lanes.size()), pal.playhead.hex());
    }
    // Legend.
    float lx = 10;
    const float ly = top + lane_h * static_cast<float>(model.lanes.size()) + 24;
    for (SpanKind k : {SpanKind::waiting, SpanKind::running, SpanKind::stale, SpanKind::paused,
                       SpanKind::partition_requests, SpanKind::crashed, SpanKind::record, SpanKind::holdoff}) {
        out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", lx, ly - 11,
                           pal.of(k).hex());
        const std::string name = s.tr(std::string("legend.") + span_kind_name(k));
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", lx + 18, ly, pal.text.hex(),
                           escape(name));
        lx += 30 + 8.0f * static_cast<float>(name.size());
    }
    out += "</svg>\n";
    return out;
}

}  // namespace leasescope::gui
