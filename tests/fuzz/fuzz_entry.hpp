#pragma once
// The fuzzers' entry points, shared by the libFuzzer targets (tests/fuzz/*.cpp) and
// by the regression test that replays every checked-in input
// (tests/fuzz/fuzz_regression_test.cpp). Each takes arbitrary bytes, must never
// crash, hang or trip a sanitizer, and checks a few properties that hold for
// every input (a violated property aborts through LS_ASSERT, which libFuzzer
// reports as a crash with the input).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::fuzz {

// Fuzz inputs can name horizons of 100,000,000 ticks and 100,000 candidates;
// the simulator must stay fast on those, but one fuzz iteration must stay
// short, so the simulation stops after this tick.
inline constexpr Tick simulate_until = 200;
// Scenarios bigger than this are parsed but not simulated (time, not safety).
inline constexpr std::size_t simulate_candidates_max = 64;
// The structure target's bound (structure_one_input_of): its inputs are about
// the reader, and a valid one with dozens of candidates, simulated twice and
// its trace written and read back, cost 100 to 260 ms against a median of
// 1 ms, a few of them most of a run's time (docs/performance.md).
inline constexpr std::size_t structure_simulate_candidates_max = 16;
// Every error is one short line, whatever the input: quotes of keys and
// values are clipped (limits::quoted_bytes_max) and a path has at most
// json_depth_max parts.
inline constexpr std::size_t error_bytes_max = 8'192;

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// The summary line as nlohmann's dump() writes the ordered_json built in
// the key order of docs/model.md §12: the definition that sim::summary_line (written by hand,
// for speed) must match byte for byte.
inline std::string summary_line_reference(const sim::TraceSummary& s) {
    nlohmann::ordered_json j;
    j["type"] = "summary";
    j["end_tick"] = s.end_tick;
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const sim::RunSummary& r : s.results) {
        nlohmann::ordered_json item;
        item["node"] = r.node;
        item["run"] = r.run;
        item["result"] = r.result;
        item["fencing"] = r.fencing ? nlohmann::ordered_json(*r.fencing) : nlohmann::ordered_json(nullptr);
        results.push_back(std::move(item));
    }
    j["results"] = std::move(results);
    nlohmann::ordered_json v;
    v["overlap"] = s.violations.overlap;
    v["unsafe_write"] = s.violations.unsafe_write;
    v["fencing_regressed"] = s.violations.fencing_regressed;
    v["stale_after_successor"] = s.violations.stale_after_successor;
    v["holder_rejected"] = s.violations.holder_rejected;
    v["fencing_duplicate"] = s.violations.fencing_duplicate;
    j["violations"] = std::move(v);
    j["events"] = s.events;
    j["trace_sha256"] = s.trace_sha256;
    return j.dump();
}

// A scenario that validated must be safe to simulate (the electors' and the
// store's assertions hold) and must survive a write-back: scenario_to_json
// parses back to a scenario that gives the same trace.
inline void check_valid_scenario(const sim::Scenario& scenario, std::size_t candidates_max = simulate_candidates_max) {
    const std::string written = sim::scenario_to_json(scenario);
    auto again = sim::parse_scenario(written, "<written back>");
    LS_ASSERT(again.ok());
    if (scenario.candidates.size() > candidates_max) return;
    const sim::Trace first = sim::simulate(scenario, simulate_until);
    LS_ASSERT(sim::summary_line(first.summary) == summary_line_reference(first.summary));
    const sim::Trace second = sim::simulate(again.value(), simulate_until);
    LS_ASSERT(first.summary.trace_sha256 == second.summary.trace_sha256);
    // The canonical trace reads back.
    LS_ASSERT(sim::parse_trace(sim::trace_to_jsonl(first), "<fuzz trace>").ok());
}

// sim::parse_scenario on arbitrary bytes (the file a user opens).
inline int scenario_one_input(const std::uint8_t* data, std::size_t size) {
    auto parsed = sim::parse_scenario(as_text(data, size), "<fuzz>");
    // The scan of plain JSON reads what nlohmann's parser reads: the same
    // scenario or the same first error.
    auto general = sim::parse_scenario(as_text(data, size), "<fuzz>", {}, sim::ScenarioJsonReader::general);
    LS_ASSERT(parsed.ok() == general.ok());
    if (parsed.ok()) {
        LS_ASSERT(sim::scenario_to_json(parsed.value()) == sim::scenario_to_json(general.value()));
    } else {
        LS_ASSERT(parsed.error().to_string() == general.error().to_string());
    }
    if (parsed.ok()) {
        check_valid_scenario(parsed.value());
    } else {
        LS_ASSERT(!parsed.error().message.empty());
        LS_ASSERT(parsed.error().to_string().size() < error_bytes_max);
    }
    return 0;
}

// sim::parse_trace on arbitrary bytes (a trace file given to diff or check).
inline int trace_one_input(const std::uint8_t* data, std::size_t size) {
    auto parsed = sim::parse_trace(as_text(data, size), "<fuzz>");
    // The fast path for canonical event lines reads what the general reader
    // reads: the same trace or the same error.
    auto general = sim::parse_trace(as_text(data, size), "<fuzz>", sim::TraceLineReader::general);
    LS_ASSERT(parsed.ok() == general.ok());
    if (!parsed.ok()) {
        LS_ASSERT(parsed.error().to_string() == general.error().to_string());
        LS_ASSERT(parsed.error().to_string().size() < error_bytes_max);
        return 0;
    }
    const sim::Trace& trace = parsed.value();
    LS_ASSERT(trace.header == general.value().header);
    LS_ASSERT(trace.events == general.value().events);
    LS_ASSERT(trace.summary == general.value().summary);
    LS_ASSERT(sim::summary_line(trace.summary) == summary_line_reference(trace.summary));
    // What was accepted writes back and reads back to the same trace.
    auto again = sim::parse_trace(sim::trace_to_jsonl(trace), "<written back>");
    LS_ASSERT(again.ok());
    LS_ASSERT(!sim::first_divergence(trace, again.value()).has_value());
    (void)sim::trace_to_text(trace);
    return 0;
}

// The scenario the override fuzzer edits when its input brings none: small,
// with every section, so paths like faults/0/ticks or ops/0/token_of exist.
inline constexpr std::string_view override_base_scenario = R"({
  "name": "override-base", "horizon": 40, "seed": 3, "order": "shuffled",
  "lock": { "name": "base", "capacity": 2, "fencing_start": 5 },
  "resource": { "mode": "check" },
  "defaults": { "wait": 2, "lease": 6, "min_lease": 1, "action": 5, "auto_extend": true },
  "candidates": [ { "name": "a", "start": 0, "writes": [2, 5] },
                  { "name": "b", "start": 1, "runs": 3, "every": 7 },
                  { "name": "c", "start": 2, "fail_at": 3, "hold_off": 2 } ],
  "faults": [ { "kind": "pause", "node": "a", "at": 3, "ticks": 4 },
              { "kind": "partition", "node": "b", "at": 5, "ticks": 2, "mode": "drop_replies" },
              { "kind": "crash", "node": "c", "at": 20 },
              { "kind": "failover", "at": 12, "lose": "all" } ],
  "ops": [ { "at": 7, "actor": "auditor", "op": "validate", "token_of": "a" },
           { "at": 8, "actor": "auditor", "op": "status" } ]
})";

// `--set` overrides: each input line is one PATH=VALUE text given to
// sim::parse_override; the accepted ones are applied to the base scenario. A
// line "---" ends the overrides and the rest is the scenario text instead.
inline int override_one_input(const std::uint8_t* data, std::size_t size) {
    std::string_view text = as_text(data, size);
    std::string_view scenario = override_base_scenario;
    std::vector<sim::Override> overrides;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line == "---") {
            scenario = text;
            break;
        }
        auto o = sim::parse_override(line);
        if (o.ok()) overrides.push_back(std::move(o).value());
        if (overrides.size() >= 16) break;
    }
    auto parsed = sim::parse_scenario(scenario, "<fuzz>", overrides);
    if (parsed.ok()) {
        check_valid_scenario(parsed.value());
    } else {
        LS_ASSERT(parsed.error().to_string().size() < error_bytes_max);
    }
    return 0;
}

// ---- Structural inputs: deep and long texts from a few bytes ----
//
// libFuzzer's max_len caps its inputs at 64 KiB, far below the depths and
// lengths where memory and time blow up. This target reads its input as a
// small program that builds the text: each step repeats a piece (a level of
// nesting, a long string or key, many values or keys, a NUL, a huge number,
// many repeating candidates) up to millions of times, so a few bytes reach a
// 4 MB input nested 1,000,000 deep. The text is given to the scenario
// parser, as a --set value and as a trace line; each must answer within the
// run's -timeout and -rss_limit_mb with a short error or a valid result.
struct StructureProgram {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t at = 0;
    std::uint8_t byte() { return at < size ? data[at++] : 0; }
    // 0 .. 2^24 - 1, from three bytes: big counts from few bytes.
    std::size_t count() {
        const std::size_t a = byte(), b = byte(), c = byte();
        return (a << 16) | (b << 8) | c;
    }
};

// What one fuzzed input may be built up to: 16 KiB passes json_depth_max
// and json_object_keys_max several times over and keeps an input to about
// a millisecond under ASan, so the fuzzer explores (at 4 MiB it ran about 4
// inputs a second, at 64 KiB 164; at 16 KiB, with
// structure_simulate_candidates_max, 395, reaching as much coverage in 60 s:
// docs/performance.md). The large inputs, big enough to pass every JSON limit but
// the file size (1,500,001 values take 3 MB; the size limit has its own
// tests), are built up to structure_large_bytes_max by fuzz_regression_test:
// a few programs once, and every checked-in structure input.
inline constexpr std::size_t structure_bytes_max = 16u << 10;
inline constexpr std::size_t structure_large_bytes_max = 4u << 20;

inline std::string build_structure(const std::uint8_t* data, std::size_t size, std::size_t bytes_max) {
    StructureProgram p{data, size};
    std::string out;
    std::string closers;  // what closes the open arrays and objects, innermost last
    auto room = [&] { return out.size() < bytes_max ? bytes_max - out.size() : 0; };
    // `piece` n times (as many as fit), by doubling: a few large copies
    // rather than millions of small appends.
    auto repeat = [&](std::string_view piece, std::size_t n) {
        n = std::min(n, room() / std::max<std::size_t>(piece.size(), 1));
        if (n == 0) return n;
        const std::size_t start = out.size();
        const std::size_t total = n * piece.size();
        out.reserve(start + total);
        out += piece;
        while (out.size() - start < total) {
            const std::size_t have = out.size() - start;
            out.append(out, start, std::min(have, total - have));
        }
        return n;
    };
    while (p.at < p.size && room() > 0) {
        switch (p.byte() % 14) {
            case 0: closers.append(repeat("[", p.count()), ']'); break;
            case 1: closers.append(repeat(R"({"k":)", p.count()), '}'); break;
            case 2:  // close everything, innermost first
                out.append(closers.rbegin(), closers.rend());
                closers.clear();
                break;
            case 3:  // a long string value
                out += '"';
                repeat("s", p.count());
                out += '"';
                break;
            case 4:  // a long key
                out += "{\"";
                repeat("k", p.count());
                out += "\":1}";
                break;
            case 5:  // many values
                out += "[0";
                repeat(",0", p.count());
                out += ']';
                break;
            case 6: {  // many keys in one object
                const std::size_t n = std::min<std::size_t>(p.count(), room() / 12);
                out += '{';
                for (std::size_t i = 0; i < n; ++i) out += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
                out += '}';
                break;
            }
            case 7:
                out +=
                    R"({"name":"s","horizon":100,"defaults":{"wait":1,"lease":4,"action":2},"candidates":[{"name":"a"}]})";
                break;
            case 8: out += '\0'; break;
            case 9:  // a number of many digits, or beyond a double
                repeat("9", p.count());
                if (p.byte() % 2 == 0) out += "e400";
                break;
            case 10: {  // raw bytes from the program
                const std::size_t n = p.byte();
                for (std::size_t i = 0; i < n && p.at < p.size; ++i) out += static_cast<char>(p.byte());
                break;
            }
            case 11: {  // many candidates that repeat often: the work limits
                // At most 2,000 candidates: with runs up to 1,000,001 each that
                // still passes runs_total_max by far. A valid scenario here is
                // parsed, written back, parsed again and simulated twice; with
                // 65,536 candidates that took 36 s of CPU under ASan (a 5-minute
                // fuzzing run stopped on it as a timeout), while the release
                // CLI validates the same file in 0.45 s. candidates_max has its
                // own tests (limits_test). One candidate per 640 bytes of room:
                // about 100 in a fuzzed input (1,000 kept it to 40 inputs a
                // second under ASan), up to 2,000 in the large ones.
                const std::size_t n = std::min<std::size_t>(p.count() % 2'001, room() / 640);
                const std::size_t runs = p.count() % 1'000'001 + 1;
                const std::size_t every = p.count() % 1'000 + 1;
                out += R"({"name":"w","horizon":100000000,"defaults":{"wait":1,"lease":4,"action":2,"runs":)" +
                       std::to_string(runs) + R"(,"every":)" + std::to_string(every) + R"(},"candidates":[)";
                for (std::size_t i = 0; i < n; ++i)
                    out += (i ? R"(,{"name":"n)" : R"({"name":"n)") + std::to_string(i) + R"("})";
                out += "]}";
                break;
            }
            case 12: out += ','; break;
            case 13: out += ':'; break;
        }
    }
    return out;
}

inline int structure_one_input_of(const std::uint8_t* data, std::size_t size, std::size_t bytes_max) {
    const std::string text = build_structure(data, size, bytes_max);
    auto parsed = sim::parse_scenario(text, "<structure>");
    // Limits, duplicate keys and nesting: the scan of plain JSON stops where
    // nlohmann's parser does, with the same error.
    auto general = sim::parse_scenario(text, "<structure>", {}, sim::ScenarioJsonReader::general);
    LS_ASSERT(parsed.ok() == general.ok());
    if (!parsed.ok()) LS_ASSERT(parsed.error().to_string() == general.error().to_string());
    if (parsed.ok()) {
        // Valid scenarios here are small or refused by the work limits; the
        // simulation is bounded by simulate_until and, here, by
        // structure_simulate_candidates_max.
        check_valid_scenario(parsed.value(), structure_simulate_candidates_max);
    } else {
        LS_ASSERT(parsed.error().to_string().size() < error_bytes_max);
    }
    // The same text as a --set value (a string when it is not JSON).
    if (text.size() < (1u << 20)) {
        auto set = sim::parse_scenario(override_base_scenario, "<structure>", {sim::Override{"lock", text}});
        if (!set.ok()) LS_ASSERT(set.error().to_string().size() < error_bytes_max);
    }
    // And as the first event line of a trace.
    std::string trace =
        std::string(
            R"({"type":"header","format":"leasescope-trace/1","scenario":"s","seed":0,"tick_ms":50,"lock":"l","capacity":1,"candidates":["a"]})") +
        "\n";
    trace += text;
    trace += "\n";
    auto read = sim::parse_trace(trace, "<structure>");
    if (!read.ok()) LS_ASSERT(read.error().to_string().size() < error_bytes_max);
    return 0;
}

// What the fuzzer runs: inputs built up to structure_bytes_max.
inline int structure_one_input(const std::uint8_t* data, std::size_t size) {
    return structure_one_input_of(data, size, structure_bytes_max);
}

// The same program built up to structure_large_bytes_max (fuzz_regression_test).
inline int structure_large_one_input(const std::uint8_t* data, std::size_t size) {
    return structure_one_input_of(data, size, structure_large_bytes_max);
}

// ---- Traces whose hash matches ----
//
// Almost every mutation of a trace breaks its SHA-256, so the plain trace
// target rarely reaches the reader's checks behind the hash (ranges, slots,
// order). This one fixes the summary up first: "events" becomes the number of
// event lines and "trace_sha256" their hash, on a summary line that parses
// (or a new one appended), then the text goes through trace_one_input.
inline std::string fix_up_trace(std::string_view text) {
    std::vector<std::string> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.emplace_back(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    }
    sim::TraceHasher hasher;
    std::int64_t events = 0;
    std::optional<std::size_t> summary_at;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.rfind(R"({"type":"event")", 0) == 0) {
            hasher.add_line(line);
            ++events;
        } else if (line.rfind(R"({"type":"summary")", 0) == 0) {
            summary_at = i;
        }
    }
    const std::string hex = hasher.hex();
    nlohmann::ordered_json summary;
    if (summary_at) {
        summary = nlohmann::ordered_json::parse(lines[*summary_at], nullptr, false);
    }
    if (!summary_at || summary.is_discarded() || !summary.is_object()) {
        summary = nlohmann::ordered_json::parse(
            R"({"type":"summary","end_tick":0,"results":[],"violations":{"overlap":0,"unsafe_write":0,"fencing_regressed":0},"events":0,"trace_sha256":""})");
        summary_at = lines.size();
        lines.emplace_back();
    }
    summary["events"] = events;
    summary["trace_sha256"] = hex;
    try {
        lines[*summary_at] = summary.dump();
    } catch (const nlohmann::json::exception&) {
        // Invalid UTF-8 in a string: leave the line as it was.
    }
    std::string out;
    for (const auto& line : lines) out += line + "\n";
    return out;
}

inline int trace_fixed_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string fixed = fix_up_trace(as_text(data, size));
    return trace_one_input(reinterpret_cast<const std::uint8_t*>(fixed.data()), fixed.size());
}

}  // namespace leasescope::fuzz
