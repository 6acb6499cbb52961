// The state colours and the timeline's SVG export: stale is the loudest
// colour, and an exported timeline is an SVG with the run's lanes. (The words
// of events, the string tables and the tour are tested in tests/words/.)
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/palette.hpp"
#include "core/strings.hpp"
#include "core/svg.hpp"
#include "leasescope/sim/scenario.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::gui;

// Stale is the loudest state colour: the most saturated and distinct from every other.
TEST(Palette, StaleIsLoudest) {
    const Palette p = default_palette();
    auto chroma = [](Rgba c) { return std::max({c.r, c.g, c.b}) - std::min({c.r, c.g, c.b}); };
    const Rgba stale = p.of(SpanKind::stale);
    for (SpanKind k : {SpanKind::waiting, SpanKind::running, SpanKind::paused, SpanKind::crashed, SpanKind::record,
                       SpanKind::holdoff, SpanKind::partition_requests}) {
        EXPECT_NE(p.of(k).hex(), stale.hex());
        EXPECT_GT(chroma(stale), chroma(p.of(k))) << span_kind_name(k);
    }
}

TEST(Svg, TimelineExportsAsSvg) {
    const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/expiry-takeover.json";
    std::string bytes;
    ASSERT_TRUE(read_text_file(path, bytes));
    auto parsed = sim::parse_scenario(bytes, path);
    ASSERT_TRUE(parsed.ok());
    const ShownRun run = run_scenario(std::move(parsed).value());
    const LaneModel& model = run.lanes;
    const Strings s = test::string_tables();
    SvgOptions o;
    o.last = model.end_tick;
    o.playhead = 12;
    o.title = "Expiry + takeover";
    const std::string svg = timeline_svg(model, default_palette(), s, o);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_NE(svg.find(default_palette().of(SpanKind::stale).hex()), std::string::npos);
    EXPECT_NE(svg.find("node-a"), std::string::npos);
}
