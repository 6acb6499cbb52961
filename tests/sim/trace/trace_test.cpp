// Trace format tests: canonical bytes, hashing, reading back, text view and diff (docs/model.md §12).
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <openssl/sha.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

Scenario preset(const std::string& name) { return test::load_preset(name); }

// The line nlohmann writes for an ordered_json built in the key order of docs/model.md §12.
std::string reference_line(const Event& e) {
    nlohmann::ordered_json j;
    j["type"] = "event";
    j["tick"] = e.tick;
    j["seq"] = e.seq;
    j["phase"] = to_string(e.phase);
    j["node"] = e.node.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(e.node);
    j["run"] = e.run < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(e.run);
    j["op"] = to_string(e.op);
    j["token"] = e.token.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(e.token);
    j["fencing"] = e.fencing ? nlohmann::ordered_json(*e.fencing) : nlohmann::ordered_json(nullptr);
    j["slot"] = e.slot ? nlohmann::ordered_json(*e.slot) : nlohmann::ordered_json(nullptr);
    j["ttl"] = e.ttl ? nlohmann::ordered_json(*e.ttl) : nlohmann::ordered_json(nullptr);
    j["outcome"] =
        e.outcome == Outcome::none ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(to_string(e.outcome));
    const std::string detail = detail_text(e);
    j["detail"] = detail.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(detail);
    return j.dump();
}

}  // namespace

// The fast event writer gives exactly nlohmann's bytes, escapes and UTF-8 included.
TEST(TraceFormat, EventLineMatchesOrderedJsonDump) {
    std::vector<Event> samples;
    for (const char* name : {"expiry-takeover", "lost-reply-orphan", "failover-fencing-regressed"}) {
        for (const Event& e : simulate(preset(name)).events) samples.push_back(e);
    }
    Event odd;
    odd.tick = 123456789012;
    odd.seq = 7;
    odd.node = "노드-\"quoted\"\\\t\x01";
    odd.token = "ZZ";
    odd.fencing = -5;
    odd.named_node = "é";
    samples.push_back(odd);
    for (const Event& e : samples) EXPECT_EQ(event_line(e), reference_line(e));
}

// trace_sha256 is the SHA-256 of the event lines, each followed by a newline, as sha256sum sees them.
TEST(TraceFormat, HashIsSha256OfEventLines) {
    const Trace t = simulate(preset("expiry-takeover"));
    std::string lines;
    for (const Event& e : t.events) lines += event_line(e) + "\n";
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(lines.data()), lines.size(), digest);
    std::string hex;
    for (unsigned char b : digest) {
        static const char* digits = "0123456789abcdef";
        hex += digits[b >> 4];
        hex += digits[b & 15];
    }
    EXPECT_EQ(t.summary.trace_sha256, hex);
    EXPECT_EQ(t.summary.events, static_cast<std::int64_t>(t.events.size()));
}

// A written trace reads back equal, and its bytes are reproduced exactly.
TEST(TraceFormat, RoundTrip) {
    const Trace t = simulate(preset("scheduled-job"));
    const std::string bytes = trace_to_jsonl(t);
    auto back = parse_trace(bytes, "x.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(trace_to_jsonl(back.value()), bytes);
    EXPECT_FALSE(first_divergence(t, back.value()).has_value());
}

// The reader rejects what is not a canonical, complete, self-consistent trace, naming the line.
TEST(TraceFormat, ReaderRejectsBadFiles) {
    const std::string good = trace_to_jsonl(simulate(preset("contention")));
    auto error_of = [](const std::string& text) {
        auto r = parse_trace(text, "t.jsonl");
        return r.ok() ? std::string("(accepted)") : r.error().to_string();
    };
    EXPECT_NE(error_of("").find("empty"), std::string::npos);
    EXPECT_NE(error_of(good.substr(0, good.size() - 1)).find("no newline"), std::string::npos);
    const std::size_t last = good.rfind("{\"type\":\"summary\"");
    EXPECT_NE(error_of(good.substr(0, last)).find("no summary"), std::string::npos);
    std::string spaced = good;
    spaced.replace(spaced.find("\"tick\":0"), 8, "\"tick\": 0");
    EXPECT_NE(error_of(spaced).find("t.jsonl:2: not in canonical form"), std::string::npos);
    std::string tampered = good;
    tampered.replace(tampered.find("\"acquired\""), 10, "\"busy\"");
    EXPECT_NE(error_of(tampered).find("trace_sha256 does not match"), std::string::npos);
    std::string reordered = good;
    reordered.replace(reordered.find("\"tick\":0,\"seq\":0"), 16, "\"seq\":0,\"tick\":0");
    EXPECT_NE(error_of(reordered).find("expected key \"tick\""), std::string::npos);
    std::string junk = good;
    junk.insert(good.find('\n') + 1, "not json\n");
    EXPECT_NE(error_of(junk).find("t.jsonl:2: not valid JSON"), std::string::npos);
    std::string unknown_op = good;
    unknown_op.replace(unknown_op.find("\"op\":\"start\""), 12, "\"op\":\"begin\"");
    EXPECT_NE(error_of(unknown_op).find("unknown op"), std::string::npos);
}

// The reader knows every detail word and rejects any other, naming the line:
// a misspelt word, words out of their fixed order (model.md §12.3), a word
// twice, and an overlap count that is not a count.
TEST(TraceFormat, ReaderRejectsUnknownDetails) {
    const std::string good = trace_to_jsonl(simulate(preset("gc-pause-no-fencing")));
    ASSERT_TRUE(parse_trace(good, "t.jsonl").ok());
    auto error_with = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const std::size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at == std::string::npos) return std::string();
        text.replace(at, from.size(), to);
        auto r = parse_trace(text, "t.jsonl");
        return r.ok() ? std::string("(accepted)") : r.error().to_string();
    };
    const std::string line = "t.jsonl:13: ";
    const std::string marks = "\"stale,unsafe_write,stale_after_successor\"";
    EXPECT_EQ(error_with(marks, "\"stale,unsafe\""),
              line +
                  "\"detail\" has the unknown word \"unsafe\"; expected words of: drop_requests, drop_replies, "
                  "leases, all, hold_off, reply_lost, fencing_regressed, fencing_duplicate, stale, unsafe_write, "
                  "stale_after_successor, holder_rejected (joined by commas)");
    EXPECT_NE(error_with(marks, "\"unsafe_write,stale\"").find(line + "\"detail\" is"), std::string::npos);
    EXPECT_NE(error_with(marks, "\"stale,stale_after_successor,unsafe_write\"").find(line + "\"detail\" is"),
              std::string::npos);
    EXPECT_NE(error_with(marks, "\"stale,stale\"").find("each word once"), std::string::npos);
    EXPECT_NE(error_with(marks, "\"stale,\"").find("unknown word \"\""), std::string::npos);

    const std::string overlap = trace_to_jsonl(simulate(preset("group-expiry")));
    const std::size_t at = overlap.find("\"op\":\"overlap_begin\"");
    ASSERT_NE(at, std::string::npos);
    for (const char* bad : {"\"x\"", "\"03\"", "\"1\"", "\"-3\""}) {
        std::string text = overlap;
        const std::size_t detail = text.find("\"detail\":\"3\"", at);
        ASSERT_NE(detail, std::string::npos);
        text.replace(detail + 9, 3, bad);
        auto r = parse_trace(text, "t.jsonl");
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().to_string().find("\"detail\" of overlap_begin is"), std::string::npos) << bad;
    }
}

// One table spells the detail words: each reads back as itself, the partition
// and failover words are the scenario's own spellings, and a set writes its
// words in the fixed order whatever order they were added in.
TEST(TraceFormat, DetailWordsHaveOneSpelling) {
    for (std::size_t i = 0; i < detail_words; ++i) {
        const auto d = static_cast<Detail>(i);
        EXPECT_EQ(detail_from_string(to_string(d)), d) << to_string(d);
    }
    EXPECT_FALSE(detail_from_string("unstale").has_value());
    EXPECT_STREQ(to_string(Detail::drop_requests), to_string(PartitionMode::drop_requests));
    EXPECT_STREQ(to_string(Detail::drop_replies), to_string(PartitionMode::drop_replies));
    EXPECT_STREQ(to_string(Detail::leases), to_string(FailoverLoss::leases));
    EXPECT_STREQ(to_string(Detail::all), to_string(FailoverLoss::all));
    Event e;
    e.op = EventOp::acquire;
    e.details.add(Detail::fencing_regressed);
    e.details.add(Detail::reply_lost);
    EXPECT_EQ(detail_text(e), "reply_lost,fencing_regressed");
    EXPECT_NE(event_line(e).find("\"detail\":\"reply_lost,fencing_regressed\"}"), std::string::npos);
    Event overlap;
    overlap.op = EventOp::overlap_begin;
    overlap.overlap_count = 12;
    EXPECT_NE(event_line(overlap).find("\"detail\":\"12\"}"), std::string::npos);
}

// The text view tells a stale holder, a rejected release and a rejected write at a glance.
TEST(TraceText, MarksStaleAndRejections) {
    const std::string text = trace_to_text(simulate(preset("gc-pause-fencing")));
    EXPECT_NE(text.find("! write REJECTED (STALE holder)"), std::string::npos);
    EXPECT_NE(text.find("! release REJECTED: stale token"), std::string::npos);
    EXPECT_NE(text.find("Tick  Candidate    Operation"), std::string::npos);
    const std::string unsafe = trace_to_text(simulate(preset("gc-pause-no-fencing")));
    EXPECT_NE(unsafe.find("UNSAFE"), std::string::npos);
}

// The summary tells per run what became of its writes: a run can end
// "elected" with every write rejected (gc-pause-fencing's paused holder), so
// each run's line counts its accepted and rejected writes from the trace.
TEST(TraceText, SummaryCountsEachRunsWrites) {
    const Trace trace = simulate(preset("gc-pause-fencing"));
    const std::string text = trace_to_text(trace);
    bool saw_rejected_run = false;
    for (const RunSummary& r : trace.summary.results) {
        std::int64_t accepted = 0, rejected = 0;
        for (const Event& e : trace.events) {
            if (e.op != EventOp::write || e.node != r.node || e.run != r.run) continue;
            (e.outcome == Outcome::accepted ? accepted : rejected) += 1;
        }
        const std::string line_start = fmt::format("  {:<12} run {}  {:<15} fencing ", r.node, r.run, r.result);
        const std::size_t at = text.find(line_start);
        ASSERT_NE(at, std::string::npos) << line_start;
        const std::string line = text.substr(at, text.find('\n', at) - at);
        const std::int64_t total = accepted + rejected;
        const std::string words = total == 0 ? "no writes"
                                             : fmt::format("{} write{}: {} accepted, {} rejected", total,
                                                           total == 1 ? "" : "s", accepted, rejected);
        EXPECT_NE(line.find(words), std::string::npos) << line << "\nexpected: " << words;
        saw_rejected_run = saw_rejected_run || (r.result == "elected" && accepted == 0 && rejected > 0);
    }
    EXPECT_TRUE(saw_rejected_run) << text;
    // Unsafe writes are accepted, and said to be unsafe.
    EXPECT_NE(trace_to_text(simulate(preset("gc-pause-no-fencing"))).find("UNSAFE)"), std::string::npos);
}

// The text view's filter keeps only the rows asked for and says how many of
// all it shows; the summary stays whole. A row of no candidate (a failover)
// passes the node filter.
TEST(TraceText, FilterKeepsMarkedNodeAndTicks) {
    const Trace trace = simulate(preset("gc-pause-fencing"));
    const std::string whole = trace_to_text(trace);
    const std::string summary = whole.substr(whole.find("\nended at"));
    auto rows_of = [](const std::string& text) {
        std::vector<std::string> rows;
        std::size_t pos = text.find('\n', text.find("Tick  Candidate")) + 1;
        while (pos < text.size() && text[pos] != '\n' && text.compare(pos, 6, "shown:") != 0) {
            const std::size_t end = text.find('\n', pos);
            rows.push_back(text.substr(pos, end - pos));
            pos = end + 1;
        }
        return rows;
    };
    EXPECT_EQ(rows_of(whole).size(), trace.events.size());
    EXPECT_EQ(whole.find("shown:"), std::string::npos);

    TextFilter marked;
    marked.marked_only = true;
    const std::string m = trace_to_text(trace, marked);
    std::size_t marked_count = 0;
    for (const Event& e : trace.events) marked_count += text_marked(e) ? 1 : 0;
    ASSERT_GT(marked_count, 0u);
    EXPECT_EQ(rows_of(m).size(), marked_count);
    for (const std::string& row : rows_of(m)) EXPECT_NE(row.find('!'), std::string::npos) << row;
    EXPECT_NE(m.find(fmt::format("shown: {} of {} events", marked_count, trace.events.size())), std::string::npos);
    EXPECT_NE(m.find(summary), std::string::npos);

    TextFilter node_ticks;
    const std::string node = trace.events.front().node;
    node_ticks.nodes = {node};
    node_ticks.from = 2;
    node_ticks.to = 9;
    for (const std::string& row : rows_of(trace_to_text(trace, node_ticks))) {
        EXPECT_TRUE(row.find(node) != std::string::npos || row.substr(7, 2) == "- ") << row;
        const long tick = std::stol(row.substr(0, 5));
        EXPECT_GE(tick, 2);
        EXPECT_LE(tick, 9);
    }
    std::size_t kept = 0;
    for (const Event& e : trace.events) kept += ((e.node == node || e.node.empty()) && e.tick >= 2 && e.tick <= 9);
    EXPECT_EQ(rows_of(trace_to_text(trace, node_ticks)).size(), kept);
    Event failover;
    failover.op = EventOp::failover;
    failover.tick = 3;
    EXPECT_TRUE(node_ticks.keeps(failover));
    failover.tick = 10;
    EXPECT_FALSE(node_ticks.keeps(failover));
}

// Time on the wire in the text view (model.md §16.6): a row whose event has
// `sent` or `applied` ends with "(sent S, applied A)", each part only when the
// trace line has it; every other row is the row of an event without them.
TEST(TraceText, RowsTellSentAndApplied) {
    std::size_t with_wire = 0;
    for (const char* name : {"late-reply", "delayed-write"}) {
        const Trace trace = simulate(preset(name));
        for (const Event& e : trace.events) {
            Event bare = e;
            bare.sent.reset();
            bare.applied.reset();
            const std::string row = text_row(e);
            if (!e.sent && !e.applied) {
                EXPECT_EQ(row, text_row(bare));
                EXPECT_EQ(row.find("(sent"), std::string::npos) << row;
                continue;
            }
            ++with_wire;
            std::string wire = "  (";
            if (e.sent) wire += fmt::format("sent {}", *e.sent);
            if (e.sent && e.applied) wire += ", ";
            if (e.applied) wire += fmt::format("applied {}", *e.applied);
            EXPECT_EQ(row, text_row(bare) + wire + ")");
        }
    }
    EXPECT_GE(with_wire, 2u);
    // late-reply: node-a's acquire, applied at 0, is learned at 7.
    const std::string text = trace_to_text(simulate(preset("late-reply")));
    EXPECT_NE(text.find("acquired slot 0  (sent 0, applied 0)"), std::string::npos) << text;
    // delayed-write: node-a's write sent at 4 arrives at 12.
    const std::string late = trace_to_text(simulate(preset("delayed-write")));
    EXPECT_NE(late.find("   12  node-a       write"), std::string::npos) << late;
    EXPECT_NE(late.find("(sent 4)"), std::string::npos) << late;
}

// diff names the first divergent event, with context, and can ignore tokens.
TEST(TraceDiff, FirstDivergence) {
    const Trace a = simulate(preset("expiry-takeover"));
    Trace b = a;
    EXPECT_FALSE(first_divergence(a, b).has_value());
    b.events[7].ttl = 99;
    auto d = first_divergence(a, b);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->index, 7);
    EXPECT_NE(d->description.find("first divergence at event 7"), std::string::npos);

    Trace c = a;
    for (Event& e : c.events) {
        if (!e.token.empty()) e.token = "live-" + e.token;
    }
    c.summary.trace_sha256 = "different";
    EXPECT_TRUE(first_divergence(a, c).has_value());
    EXPECT_FALSE(first_divergence(a, c, /*ignore_tokens=*/true).has_value());

    Trace shorter = a;
    shorter.events.pop_back();
    auto d2 = first_divergence(a, shorter);
    ASSERT_TRUE(d2.has_value());
    EXPECT_NE(d2->description.find("no more events"), std::string::npos);
}

// Different headers are reported, yet the events are still compared: the first divergent event is named.
TEST(TraceDiff, HeaderDifferenceStillComparesEvents) {
    const Trace a = simulate(preset("gc-pause-fencing"));
    const Trace b = simulate(preset("gc-pause-no-fencing"));
    auto d = first_divergence(a, b);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->index, 11);
    EXPECT_NE(d->description.find("headers differ"), std::string::npos);
    EXPECT_NE(d->description.find("first divergence at event 11 (tick 15, phase work)"), std::string::npos);
    Trace renamed = a;
    renamed.header.scenario = "other";
    auto only_header = first_divergence(a, renamed);
    ASSERT_TRUE(only_header.has_value());
    EXPECT_EQ(only_header->index, -1);
}

namespace {

// The trace of `name` as format 1 wrote it (model.md §12.1 item 4): the old
// format string, the summary without the three safety counters.
std::string as_format_1(std::string text) {
    const std::string v2 = "\"format\":\"leasescope-trace/2\"";
    const std::string counters = ",\"stale_after_successor\":0,\"holder_rejected\":0,\"fencing_duplicate\":0";
    EXPECT_NE(text.find(v2), std::string::npos);
    EXPECT_NE(text.find(counters), std::string::npos);
    text.replace(text.find(v2), v2.size(), "\"format\":\"leasescope-trace/1\"");
    text.replace(text.find(counters), counters.size(), "");
    return text;
}

}  // namespace

// Format 2 is written; format 1 is still read, without the three counters and
// their words, so saved traces keep working with diff and check; a file that
// mixes the two formats is refused (model.md §12.1 item 4).
TEST(TraceFormat, ReadsFormat1) {
    const Trace t = simulate(preset("expiry-takeover"));
    const std::string v2 = trace_to_jsonl(t);
    EXPECT_EQ(v2.rfind("{\"type\":\"header\",\"format\":\"leasescope-trace/2\"", 0), 0u);
    const std::string v1 = as_format_1(v2);
    auto old = parse_trace(v1, "old.jsonl");
    ASSERT_TRUE(old.ok()) << old.error().to_string();
    EXPECT_EQ(old.value().events, t.events);
    EXPECT_EQ(old.value().summary, t.summary);
    EXPECT_FALSE(first_divergence(old.value(), t).has_value());
    EXPECT_EQ(trace_to_jsonl(old.value()), v2);  // written back as format 2

    auto error_of = [](const std::string& text) {
        auto r = parse_trace(text, "t.jsonl");
        return r.ok() ? std::string("(accepted)") : r.error().to_string();
    };
    std::string v1_with_counters = v2;
    v1_with_counters.replace(v1_with_counters.find("/2"), 2, "/1");
    EXPECT_NE(error_of(v1_with_counters).find("in \"violations\""), std::string::npos);
    std::string v2_without = v1;
    v2_without.replace(v2_without.find("/1"), 2, "/2");
    EXPECT_NE(error_of(v2_without).find("in \"violations\""), std::string::npos);
    std::string v7 = v2;
    v7.replace(v7.find("/2"), 2, "/7");
    EXPECT_NE(error_of(v7).find("unsupported format; expected \"leasescope-trace/2\", \"leasescope-trace/3\", "
                                "\"leasescope-trace/4\", \"leasescope-trace/5\", \"leasescope-trace/6\" (or "
                                "the older \"leasescope-trace/1\")"),
              std::string::npos);
    // A /2 file called /4 lacks the header's import object (model.md §19.7.1).
    std::string v4 = v2;
    v4.replace(v4.find("/2"), 2, "/4");
    EXPECT_EQ(error_of(v4), "t.jsonl:1: missing key \"import\"");

    // A format-1 file cannot hold a word format 2 added.
    const std::string marked = trace_to_jsonl(simulate(preset("failover-fencing-regressed")));
    ASSERT_NE(marked.find("fencing_duplicate"), std::string::npos);
    std::string old_marked = marked;
    old_marked.replace(old_marked.find("/2"), 2, "/1");
    EXPECT_NE(error_of(old_marked).find("which format \"leasescope-trace/1\" does not have"), std::string::npos);
}
