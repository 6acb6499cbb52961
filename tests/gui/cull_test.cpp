// Culling and folding: only visible items are produced, narrow items fold, and
// the folded item keeps the most important kind (stale is never hidden).
#include <gtest/gtest.h>

#include "core/cull.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

std::vector<Span> alternating(Tick count) {
    std::vector<Span> spans;
    for (Tick i = 0; i < count; ++i) {
        Span s;
        s.begin = i * 2;
        s.end = i * 2 + 1;
        s.kind = i % 1000 == 500 ? SpanKind::stale : SpanKind::running;
        spans.push_back(s);
    }
    return spans;
}

}  // namespace

TEST(Cull, OnlyVisibleSpansAreProduced) {
    const auto spans = alternating(1000);
    TimeAxis axis;
    axis.first_tick = 100;
    axis.px_per_tick = 20;
    axis.width_px = 200;  // ticks 100 .. 110
    std::vector<DrawSpan> out;
    cull_spans(spans, axis, 3.0f, out);
    ASSERT_FALSE(out.empty());
    EXPECT_LE(out.size(), 6u);
    for (const DrawSpan& d : out) {
        EXPECT_GE(d.x1, 0.0f);
        EXPECT_LE(d.x0, 200.0f);
        EXPECT_EQ(d.folded, 1);
    }
}

// 100,000 one-tick spans across 1,000 pixels fold into at most width / min_px items.
TEST(Cull, NarrowSpansFold) {
    const auto spans = alternating(100'000);
    const TimeAxis axis = fit_axis(0, 200'000, 0.0f, 1000.0f);
    std::vector<DrawSpan> out;
    cull_spans(spans, axis, 3.0f, out);
    EXPECT_LE(out.size(), 1000u / 3u + 2u);
    std::int64_t folded = 0;
    bool stale_seen = false;
    for (const DrawSpan& d : out) {
        folded += d.folded;
        EXPECT_GE(d.x1 - d.x0, 3.0f - 1e-3f);
        if (d.kind == SpanKind::stale) stale_seen = true;
    }
    EXPECT_EQ(folded, 100'000);
    EXPECT_TRUE(stale_seen) << "a fold that contains a stale span must show stale";
}

TEST(Cull, MarkersFoldByPixel) {
    std::vector<Marker> markers;
    for (Tick t = 0; t < 50'000; ++t) {
        Marker m;
        m.tick = t;
        m.kind = t == 25'000 ? MarkerKind::release_rejected : MarkerKind::acquire_busy;
        m.event = static_cast<std::int32_t>(t);
        markers.push_back(m);
    }
    const TimeAxis axis = fit_axis(0, 50'000, 0.0f, 500.0f);
    std::vector<DrawMarker> out;
    cull_markers(markers, axis, 6.0f, out);
    EXPECT_LE(out.size(), 500u / 6u + 2u);
    bool rejected = false;
    std::int64_t total = 0;
    for (const DrawMarker& d : out) {
        total += d.folded;
        if (d.kind == MarkerKind::release_rejected) rejected = true;
    }
    EXPECT_EQ(total, 50'000);
    EXPECT_TRUE(rejected);
}

TEST(Cull, ZoomKeepsTheAnchorTick) {
    const TimeAxis axis = fit_axis(0, 100, 50.0f, 1000.0f);
    const double before = axis.tick_at(400.0);
    const TimeAxis zoomed = zoom_axis(axis, 2.0, 400.0f);
    EXPECT_NEAR(zoomed.tick_at(400.0), before, 1e-9);
    EXPECT_NEAR(zoomed.px_per_tick, axis.px_per_tick * 2.0, 1e-9);
}

TEST(Cull, RulerStepIsNice) {
    EXPECT_EQ(ruler_step(50.0, 40.0f), 1);
    EXPECT_EQ(ruler_step(30.0, 40.0f), 2);
    EXPECT_EQ(ruler_step(10.0, 40.0f), 5);
    EXPECT_EQ(ruler_step(1.0, 40.0f), 50);
    EXPECT_EQ(ruler_step(0.001, 40.0f), 50'000);
}
