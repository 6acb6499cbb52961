// The first divergence between two traces, with the events around it.
#include <fmt/format.h>

#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

std::optional<Divergence> first_divergence(const Trace& a, const Trace& b, bool ignore_tokens, int context) {
    // A header difference (two scenarios, say) is reported, but the events are
    // still compared: the first divergent event is what a reader wants.
    std::string header_note;
    if (!(a.header == b.header)) {
        header_note = fmt::format("headers differ:\n  A {}\n  B {}\n", header_line(a.header), header_line(b.header));
    }
    auto same = [&](const Event& x, const Event& y) {
        if (!ignore_tokens) return x == y;
        Event xc = x, yc = y;
        xc.token = yc.token = "";
        // An imported history (/4) against its draft's simulated run (model.md
        // §19.8.3): the simulation has no wall clock, so it is not compared either.
        xc.wall_us = yc.wall_us = std::nullopt;
        return xc == yc;
    };
    const std::size_t n = std::min(a.events.size(), b.events.size());
    std::size_t i = 0;
    while (i < n && same(a.events[i], b.events[i])) ++i;
    if (i < n || a.events.size() != b.events.size()) {
        std::string d = header_note + fmt::format("first divergence at event {}", i);
        const Event* at = i < a.events.size() ? &a.events[i] : (i < b.events.size() ? &b.events[i] : nullptr);
        if (at != nullptr) d += fmt::format(" (tick {}, phase {})", at->tick, to_string(at->phase));
        d += ":\n";
        const std::size_t from = i >= static_cast<std::size_t>(context) ? i - static_cast<std::size_t>(context) : 0;
        for (std::size_t k = from; k < i; ++k) d += "    " + text_row(a.events[k]) + "\n";
        d += i < a.events.size() ? "  A " + text_row(a.events[i]) + "\n" : "  A (no more events)\n";
        d += i < b.events.size() ? "  B " + text_row(b.events[i]) + "\n" : "  B (no more events)\n";
        d += i < a.events.size() ? "  A " + event_line(a.events[i]) + "\n" : "";
        d += i < b.events.size() ? "  B " + event_line(b.events[i]) + "\n" : "";
        return Divergence{static_cast<std::int64_t>(i), d};
    }
    TraceSummary sa = a.summary, sb = b.summary;
    if (ignore_tokens) sa.trace_sha256 = sb.trace_sha256 = "";
    if (!(sa == sb)) {
        return Divergence{static_cast<std::int64_t>(n),
                          header_note + fmt::format("the events agree, the summaries differ:\n  A {}\n  B {}",
                                                    summary_line(a.summary), summary_line(b.summary))};
    }
    if (!header_note.empty()) return Divergence{-1, header_note + "the events and summaries agree"};
    return std::nullopt;
}

}  // namespace leasescope::sim
