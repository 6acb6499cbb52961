#pragma once
// The import fuzzer's entry point (model.md §19), shared by the libFuzzer
// target tests/fuzz/fuzz_import.cpp and the regression test that replays the
// checked-in inputs (tests/fuzz/fuzz_regression_test.cpp). The bytes are a
// capture, line by line, and every line is also read as a log line. Nothing
// may crash; a refusal says why; an accepted capture becomes a history whose
// trace the trace reader reads back byte for byte.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/import.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::fuzz {

inline std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t begin = 0;
    while (begin < text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return lines;
}

// Every line as an application log line: parsed, skipped when blank, or
// refused with "FILE:LINE: …".
inline std::vector<sim::import::LogEntry> logs_of(const std::vector<std::string_view>& lines) {
    std::vector<sim::import::LogEntry> logs;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string error;
        auto entry = sim::import::parse_log_line(lines[i], "app.jsonl", 0, static_cast<std::int64_t>(i + 1), 0, error);
        if (entry) {
            logs.push_back(std::move(*entry));
        } else if (!error.empty()) {  // no error: a blank line (spaces, a CR), skipped
            LS_ASSERT(error.rfind("app.jsonl:", 0) == 0);
        }
    }
    return logs;
}

inline int import_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::vector<std::string_view> lines = lines_of(text);
    const std::vector<sim::import::LogEntry> logs = logs_of(lines);
    sim::import::ImportOptions options;
    // The first byte chooses the lenient reading and the kept clock steps (a
    // capture's first digit, '1', is odd: lenient, so log lines among the
    // capture's are gaps and the history gets both).
    options.lenient = size > 0 && (data[0] & 1) != 0;
    options.keep_clock_steps = size > 0 && (data[0] & 2) != 0;
    // A draft's run is cut short early (model.md §19.8.3), so that one input
    // costs milliseconds and the fuzzer explores; the cut itself is code it
    // reaches.
    options.draft_events_max = 20'000;
    sim::import::CaptureReader reader(options);
    reader.begin_source("cap.txt");
    for (const std::string_view line : lines) {
        if (!reader.add_line(line)) {
            LS_ASSERT(!reader.error().empty());
            return 0;
        }
    }
    auto observations = reader.finish();
    if (!observations) {
        LS_ASSERT(!reader.error().empty());
        return 0;
    }
    std::string error;
    auto history = sim::import::build_history(*observations, reader.report(), logs, {"app.jsonl"}, options, error);
    if (!history) {
        LS_ASSERT(!error.empty());
        return 0;
    }
    const std::string bytes = sim::trace_to_jsonl(history->trace);
    auto read = sim::parse_trace(bytes, "import.jsonl");
    if (!read.ok())
        std::fprintf(stderr, "the trace written does not read back: %s\n%.3000s\n", read.error().to_string().c_str(),
                     bytes.c_str());
    LS_ASSERT(read.ok());
    LS_ASSERT(sim::trace_to_jsonl(read.value()) == bytes);
    return 0;
}

}  // namespace leasescope::fuzz
