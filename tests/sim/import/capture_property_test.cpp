// Properties of the capture reader on generated captures (docs/model.md §19.1,
// §19.2; tests/support/capture_generator.hpp): lines of other keys anywhere
// between calls never change what it observes; a line cut short is an error
// naming exactly that line (with --lenient a capture_gap at the line before
// it); two lines swapped so time goes back are the clock-step error naming
// both lines (kept with --clock-steps keep: a clock_step and the later lines
// placed after the step); one file or the same lines split into two files
// observe the same, apart from the capture_gap between the files and where
// each line is (file, line).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/capture_generator.hpp"
#include "leasescope/sim/import.hpp"

using namespace leasescope;
namespace imp = leasescope::sim::import;
using capture_gen::CaptureLine;
using capture_gen::CaptureSpec;
using capture_gen::LockStyle;

namespace {

struct Imported {
    std::optional<std::vector<imp::Observation>> observations;
    std::string error;
    imp::CaptureReport report;
};

// Each file's lines through one reader, as the CLI feeds them.
Imported import_files(const std::vector<std::vector<CaptureLine>>& files, const imp::ImportOptions& options) {
    imp::CaptureReader reader(options);
    Imported run;
    for (std::size_t f = 0; f < files.size(); ++f) {
        reader.begin_source(f == 0 ? "cap.txt" : fmt::format("cap{}.txt", f + 1));
        for (const auto& line : files[f]) {
            if (!reader.add_line(line.text)) {
                run.error = reader.error();
                run.report = reader.report();
                return run;
            }
        }
    }
    run.observations = reader.finish();
    if (!run.observations) run.error = reader.error();
    run.report = reader.report();
    return run;
}

Imported import_one(const std::vector<CaptureLine>& lines, const imp::ImportOptions& options = {}) {
    return import_files({lines}, options);
}

bool is_gap(const imp::Observation& o) {
    return o.op == imp::ObservedOp::undecided && o.why == sim::Detail::capture_gap;
}

// Everything an observation says but where its line is.
std::string describe(const imp::Observation& o) {
    return fmt::format("{} op={} node={} token={} fencing={} outcome={} ttl={} library={} why={} step={} sha={}",
                       o.wall_us, static_cast<int>(o.op), o.node, o.token, o.fencing ? *o.fencing : -1,
                       sim::to_string(o.outcome), o.ttl_ms ? *o.ttl_ms : -1, o.library,
                       o.why ? sim::to_string(*o.why) : "-", o.step_ms, o.sha);
}

// Each observation with the text of its line (file `text_of` gives it), so
// that two captures that number their lines differently compare.
std::vector<std::string> described(const std::vector<imp::Observation>& observations,
                                   const std::vector<std::vector<CaptureLine>>& files) {
    std::vector<std::string> out;
    for (const auto& o : observations) {
        std::string at = "expiry";
        if (o.line > 0) {
            const auto& file = files.at(static_cast<std::size_t>(o.source));
            at = file.at(static_cast<std::size_t>(o.line - 1)).text;
        }
        out.push_back(describe(o) + " @ " + at);
    }
    return out;
}

std::vector<std::string> described(const std::vector<imp::Observation>& observations,
                                   const std::vector<CaptureLine>& lines) {
    return described(observations, std::vector<std::vector<CaptureLine>>{lines});
}

// A line may be put before `i` only where no script's `[lua]` line follows
// (rule 19.1.3: they follow their call before any other client's line).
bool boundary(const std::vector<CaptureLine>& lines, std::size_t i) { return i >= lines.size() || !lines[i].lua; }

// A line of another key that is a whole call: not a `[lua]` line and none follows.
bool lone_foreign(const std::vector<CaptureLine>& lines, std::size_t i) {
    return i > 0 && !lines[i].lock && !lines[i].lua && boundary(lines, i + 1);
}

std::size_t pick(SplitMix64& rng, const std::vector<CaptureLine>& lines,
                 bool (*fits)(const std::vector<CaptureLine>&, std::size_t)) {
    for (;;) {
        const std::size_t i = 2 + rng.next() % (lines.size() - 4);
        if (fits(lines, i)) return i;
    }
}

std::string with_time(const CaptureLine& line, std::int64_t ts_us) {
    return fmt::format("{}.{:06d}", ts_us / 1'000'000, ts_us % 1'000'000) + line.text.substr(line.text.find(' '));
}

std::vector<imp::Observation> without_expiry_times(std::vector<imp::Observation> observations) {
    for (auto& o : observations)
        if (o.op == imp::ObservedOp::expire) o.wall_us = 0;
    return observations;
}

// Equal lists, or a failure naming the first entry that differs.
void expect_same(const std::vector<std::string>& got, const std::vector<std::string>& want) {
    EXPECT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < std::min(got.size(), want.size()); ++k) {
        if (got[k] == want[k]) continue;
        ADD_FAILURE() << "observation " << k << " differs:\n  got  " << got[k].substr(0, 300) << "\n  want "
                      << want[k].substr(0, 300);
        return;
    }
}

std::vector<CaptureSpec> specs() {
    std::vector<CaptureSpec> out;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        for (const LockStyle style : {LockStyle::store, LockStyle::plain}) {
            CaptureSpec spec;
            spec.lines = 4'000;
            spec.lock_calls = 400;
            spec.line_gap_us_max = 40;  // about 80 ms: 16 leases of 5 ms
            spec.seed = seed;
            spec.style = style;
            out.push_back(spec);
        }
    }
    return out;
}

std::string name(const CaptureSpec& spec) {
    return fmt::format("seed {} style {}", spec.seed, spec.style == LockStyle::store ? "store" : "plain");
}

}  // namespace

// The generator is deterministic, its lines are capture lines that decode
// and re-encode to themselves, and its lock shows what the properties need:
// acquisitions, contention, expiries.
TEST(CaptureProperty, GeneratedCapturesAreCapturesOfOneContendedLock) {
    for (const auto& spec : specs()) {
        SCOPED_TRACE(name(spec));
        const auto lines = capture_gen::generate_capture(spec);
        ASSERT_EQ(static_cast<std::int64_t>(lines.size()), spec.lines);
        const auto again = capture_gen::generate_capture(spec);
        for (std::size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(lines[i].text, again[i].text);
        // Each line decodes, and written back with the importer's redis_repr
        // is the generator's own text (two sdscatrepr written apart agree).
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto parsed = imp::parse_monitor_line(lines[i].text);
            ASSERT_EQ(parsed.kind, imp::LineParse::Kind::line) << lines[i].text;
            const auto& ml = parsed.line;
            std::string back =
                fmt::format("{}.{:06d} [{} {}]", ml.ts_us / 1'000'000, ml.ts_us % 1'000'000, ml.db, ml.client);
            for (const auto& arg : ml.args) back += " \"" + imp::redis_repr(arg) + "\"";
            ASSERT_EQ(back, lines[i].text);
        }
        const Imported run = import_one(lines);
        ASSERT_TRUE(run.observations) << run.error;
        EXPECT_EQ(run.report.lock_key, "leasescope:orders:0");
        const auto lock_lines = std::count_if(lines.begin(), lines.end(), [](const auto& l) { return l.lock; });
        ASSERT_EQ(run.report.sources.size(), 1u);
        EXPECT_EQ(run.report.sources[0].used, lock_lines);
        EXPECT_EQ(run.report.sources[0].lines, spec.lines);
        int acquired = 0, busy = 0, expired = 0;
        for (const auto& o : *run.observations) {
            acquired += o.outcome == sim::Outcome::acquired;
            busy += o.outcome == sim::Outcome::busy;
            expired += o.op == imp::ObservedOp::expire;
        }
        EXPECT_GT(acquired, 5);
        EXPECT_GT(busy, 5);
        EXPECT_GT(expired, 0);
    }
}

// (a) Lines of other keys, anywhere a line may stand, change nothing: the
// lock's lines alone, the generated capture, and it with more lines of other
// keys (at any time between the lines around them) observe the same.
TEST(CaptureProperty, LinesOfOtherKeysAnywhereChangeNoObservation) {
    for (const auto& spec : specs()) {
        SCOPED_TRACE(name(spec));
        const auto full = capture_gen::generate_capture(spec);
        std::vector<CaptureLine> alone;
        for (const auto& l : full)
            if (l.lock) alone.push_back(l);
        CaptureSpec other = spec;
        other.seed = spec.seed + 100;
        other.lock_calls = 0;
        other.ok_line = false;
        const auto extra = capture_gen::generate_capture(other);
        SplitMix64 rng(spec.seed);
        std::vector<CaptureLine> more;
        std::size_t e = 0;
        for (std::size_t i = 0; i < full.size(); ++i) {
            more.push_back(full[i]);
            if (i == 0 || !boundary(full, i + 1)) continue;
            // At any time from this line's to the next one's, never going back.
            std::int64_t at = full[i].ts_us;
            const std::int64_t next = i + 1 < full.size() ? full[i + 1].ts_us : at;
            for (std::uint64_t k = rng.next() % 3; k > 0 && e < extra.size(); --k, ++e) {
                if (extra[e].lua) continue;  // an `[lua]` line of another call would need its call
                at += static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(next - at + 1));
                more.push_back(CaptureLine{at, with_time(extra[e], at), false, false, full[i].vacant});
            }
        }
        const Imported a = import_one(alone), b = import_one(full), c = import_one(more);
        ASSERT_TRUE(a.observations) << a.error;
        ASSERT_TRUE(b.observations) << b.error;
        ASSERT_TRUE(c.observations) << c.error;
        expect_same(described(*b.observations, full), described(*a.observations, alone));
        expect_same(described(*c.observations, more), described(*a.observations, alone));
        EXPECT_GT(c.report.sources[0].lines, b.report.sources[0].lines);
        EXPECT_EQ(c.report.sources[0].used, a.report.sources[0].used);
    }
}

namespace {

// Where each argument's quotes are: [open, close) pairs of byte offsets.
std::vector<std::pair<std::size_t, std::size_t>> quoted_spans(const std::string& text) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    std::size_t i = text.find(']');
    while ((i = text.find('"', i + 1)) != std::string::npos) {
        const std::size_t open = i;
        for (++i; text[i] != '"'; ++i)
            if (text[i] == '\\') ++i;
        spans.emplace_back(open, i);
    }
    return spans;
}

// The line cut at a random byte inside its time and client (before the `]`)
// or inside one of its arguments (after its opening quote, before its closing
// one), so what is left is no line. (A cut between two arguments leaves a
// line with fewer arguments, and a cut at 0 an empty line, which is skipped.)
std::string cut_short(SplitMix64& rng, const std::string& text) {
    const auto spans = quoted_spans(text);
    const std::size_t pick_one = rng.next() % (spans.size() + 1);
    if (pick_one == spans.size()) return text.substr(0, 1 + rng.next() % (text.find("] ") - 1));
    const auto [open, close] = spans[pick_one];
    return text.substr(0, open + 1 + rng.next() % (close - open));
}

}  // namespace

// (b) A line cut short at a random byte is an error naming exactly that line;
// with --lenient it is skipped and a capture_gap stands at the time of the
// line before it, everything else observed as before.
TEST(CaptureProperty, LineCutShortIsAnErrorNamingItOrWithLenientACaptureGap) {
    for (const auto& spec : specs()) {
        SCOPED_TRACE(name(spec));
        const auto lines = capture_gen::generate_capture(spec);
        const Imported whole = import_one(lines);
        ASSERT_TRUE(whole.observations) << whole.error;
        SplitMix64 rng(spec.seed * 7919);
        for (int trial = 0; trial < 16; ++trial) {
            auto cut = lines;
            // Any line for the error; a line of another key for the lenient
            // reading, whose observations must then be the same.
            const std::size_t i = trial % 2 == 0 ? pick(rng, lines, boundary) : pick(rng, lines, lone_foreign);
            cut[i].text = cut_short(rng, lines[i].text);
            SCOPED_TRACE(cut[i].text);
            const Imported strict = import_one(cut);
            EXPECT_FALSE(strict.observations);
            EXPECT_EQ(strict.error.rfind(fmt::format("cap.txt:{}: ", i + 1), 0), 0u) << strict.error;
            if (trial % 2 == 0) continue;
            imp::ImportOptions lenient;
            lenient.lenient = true;
            const Imported skipped = import_one(cut, lenient);
            ASSERT_TRUE(skipped.observations) << skipped.error;
            std::vector<imp::Observation> rest;
            int gaps = 0;
            for (const auto& o : *skipped.observations) {
                if (!is_gap(o)) {
                    rest.push_back(o);
                    continue;
                }
                ++gaps;
                EXPECT_EQ(o.wall_us, lines[i - 1].ts_us);
            }
            EXPECT_EQ(gaps, 1);
            // An expiry is found at the next line of the lock or gap and its
            // time is kept from going back before what was observed last, so
            // a gap just after a deadline may move it later (open, issue 28):
            // expiries are compared without their time.
            expect_same(described(without_expiry_times(rest), cut),
                        described(without_expiry_times(*whole.observations), lines));
        }
    }
}

namespace {

// Two lines of other keys side by side, each a whole call, the second with no
// `[lua]` line after it either.
bool foreign_pair(const std::vector<CaptureLine>& lines, std::size_t i) {
    return lone_foreign(lines, i) && i + 1 < lines.size() && lone_foreign(lines, i + 1);
}

// The capture with every line from `from` on `by` microseconds later.
std::vector<CaptureLine> shifted(std::vector<CaptureLine> lines, std::size_t from, std::int64_t by) {
    for (std::size_t k = from; k < lines.size(); ++k) {
        lines[k].ts_us += by;
        lines[k].text = with_time(lines[k], lines[k].ts_us);
    }
    return lines;
}

}  // namespace

// (c) Two lines swapped so that time goes back: an error naming the later
// line, the one before it and the step. With --clock-steps keep: one
// clock_step of that step (milliseconds, rounded toward zero) at that line,
// and every later line placed at the time of the line before the step plus
// its distance from the step's line (rule 19.1.4), so everything after the
// step is observed as before, that much later.
TEST(CaptureProperty, LinesSwappedSoTimeGoesBackAreTheClockStepError) {
    constexpr std::int64_t pause_us = 2'500'000;  // idle time before the swapped line: a step of seconds
    for (const auto& spec : specs()) {
        SCOPED_TRACE(name(spec));
        SplitMix64 rng(spec.seed * 104'729);
        const auto generated = capture_gen::generate_capture(spec);
        // A step where the lock has no record (released, or not yet
        // taken): a deadline that passes between the lock's last line before
        // the step and the step is found only at the lock's next line, after
        // the step, and placed with the step's shift (an open question of
        // the replay, issue 28), not this property's.
        const std::size_t i = pick(rng, generated, [](const std::vector<CaptureLine>& lines, std::size_t k) {
            return foreign_pair(lines, k) && lines[k].vacant && lines[k + 1].vacant;
        });
        const auto base = shifted(generated, i + 1, pause_us);
        const Imported plain = import_one(base);
        ASSERT_TRUE(plain.observations) << plain.error;
        auto swapped = base;
        std::swap(swapped[i], swapped[i + 1]);
        const std::int64_t back_us = base[i].ts_us - base[i + 1].ts_us;  // negative
        const Imported strict = import_one(swapped);
        EXPECT_FALSE(strict.observations);
        EXPECT_EQ(strict.error.rfind(fmt::format("cap.txt:{}: time goes back", i + 2), 0), 0u) << strict.error;
        EXPECT_NE(strict.error.find(fmt::format("from line {}", i + 1)), std::string::npos) << strict.error;

        imp::ImportOptions keep;
        keep.keep_clock_steps = true;
        const Imported kept = import_one(swapped, keep);
        ASSERT_TRUE(kept.observations) << kept.error;
        std::vector<imp::Observation> rest;
        int steps = 0;
        for (const auto& o : *kept.observations) {
            if (o.op != imp::ObservedOp::clock_step) {
                rest.push_back(o);
                continue;
            }
            ++steps;
            EXPECT_EQ(o.line, static_cast<std::int64_t>(i + 2));
            EXPECT_EQ(o.step_ms, back_us / 1000);
        }
        EXPECT_EQ(steps, 1);
        std::vector<imp::Observation> expected = *plain.observations;
        for (auto& o : expected)
            if (o.wall_us >= base[i + 1].ts_us) o.wall_us -= back_us;
        expect_same(described(rest, swapped), described(expected, base));
    }
}

// (d) One file, or the same lines in two files split at a line boundary
// (the second opening with redis-cli's `OK`, as a second `redis-cli monitor`
// does): the same observations, but for one capture_gap at the time of the
// first file's last line (rule 19.1.5) and each line's place (file, line);
// the report counts each file's lines and the lock's lines of each.
TEST(CaptureProperty, OneFileOrTwoObserveTheSameButTheGapBetween) {
    for (const auto& spec : specs()) {
        SCOPED_TRACE(name(spec));
        const auto lines = capture_gen::generate_capture(spec);
        SplitMix64 rng(spec.seed * 31);
        const std::size_t b = pick(rng, lines, boundary);
        std::vector<std::vector<CaptureLine>> files(2);
        files[0].assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(b));
        files[1].push_back(CaptureLine{0, "OK", false, false, lines[b].vacant});
        files[1].insert(files[1].end(), lines.begin() + static_cast<std::ptrdiff_t>(b), lines.end());
        const Imported one = import_one(lines);
        const Imported two = import_files(files, {});
        ASSERT_TRUE(one.observations) << one.error;
        ASSERT_TRUE(two.observations) << two.error;
        std::vector<imp::Observation> rest;
        int gaps = 0;
        for (const auto& o : *two.observations) {
            if (!is_gap(o)) {
                rest.push_back(o);
                continue;
            }
            ++gaps;
            EXPECT_EQ(o.wall_us, lines[b - 1].ts_us);
        }
        EXPECT_EQ(gaps, 1);
        expect_same(described(rest, files), described(*one.observations, lines));
        ASSERT_EQ(two.report.sources.size(), 2u);
        EXPECT_EQ(two.report.sources[0].file, "cap.txt");
        EXPECT_EQ(two.report.sources[1].file, "cap2.txt");
        EXPECT_EQ(two.report.sources[0].lines, static_cast<std::int64_t>(b));
        EXPECT_EQ(two.report.sources[1].lines, static_cast<std::int64_t>(lines.size() - b + 1));
        EXPECT_EQ(two.report.sources[0].used + two.report.sources[1].used, one.report.sources[0].used);
        EXPECT_EQ(two.report.lock_keys, one.report.lock_keys);
    }
}
