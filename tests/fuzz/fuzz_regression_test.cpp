// Every input checked in for the fuzzers — the seed corpora in tests/fuzz/corpus/
// and the inputs that once crashed a fuzzer, in tests/fuzz_regressions/ —
// replayed through the very entry points the fuzzers call
// (tests/fuzz/fuzz_entry.hpp), so a fixed crash stays fixed in every build,
// sanitizers included, without libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_entry.hpp"
#include "fuzz/fuzz_import_entry.hpp"

namespace fs = std::filesystem;

namespace {

using EntryPoint = int (*)(const std::uint8_t*, std::size_t);

std::vector<fs::path> inputs_of(const std::string& kind) {
    std::vector<fs::path> files;
    for (const char* root : {"tests/fuzz/corpus", "tests/fuzz_regressions"}) {
        const fs::path dir = fs::path(LEASESCOPE_SOURCE_DIR) / root / kind;
        if (!fs::is_directory(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return std::move(buffer).str();
}

// Replays each input; a crash aborts the test binary (with the sanitizer's
// report), so the file being replayed is printed first.
std::size_t replay(const std::string& kind, EntryPoint entry) {
    const auto files = inputs_of(kind);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        std::fprintf(stderr, "replaying %s\n", file.string().c_str());
        const std::string bytes = bytes_of(file);
        EXPECT_EQ(entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
    }
    return files.size();
}

}  // namespace

// The scenario parser and validator never crash on a checked-in input, and a
// scenario they accept simulates and writes back to the same trace.
TEST(FuzzRegressions, ScenarioInputs) { EXPECT_GT(replay("scenario", leasescope::fuzz::scenario_one_input), 0u); }

// The trace reader never crashes, and a trace it accepts reads back the same.
TEST(FuzzRegressions, TraceInputs) { EXPECT_GT(replay("trace", leasescope::fuzz::trace_one_input), 0u); }

// --set overrides never crash the override parser or the scenario parser.
TEST(FuzzRegressions, OverrideInputs) { EXPECT_GT(replay("override", leasescope::fuzz::override_one_input), 0u); }

// Structurally built inputs (deep, long, many values, NUL bytes, work): each
// is refused or accepted with a short error, quickly.
// The fuzzer builds them up to 16 KiB; here they are built up to 4 MiB as
// well, where they pass every JSON limit but the file size.
TEST(FuzzRegressions, StructureInputs) {
    EXPECT_GT(replay("structure", leasescope::fuzz::structure_one_input), 0u);
    EXPECT_GT(replay("structure", leasescope::fuzz::structure_large_one_input), 0u);
}

// A few programs built once up to 4 MiB, past what the fuzzer builds: many
// values (past json_values_max), nesting a million deep, a 4 MiB string, a
// long key, many keys, a number of 4 million digits. Each builds to 3 to 4 MiB
// and is refused with a short error (the entry point asserts it).
TEST(FuzzRegressions, StructureInputsOfFourMebibytes) {
    const std::vector<std::vector<std::uint8_t>> programs = {
        {5, 0xff, 0xff, 0xff}, {0, 0xff, 0xff, 0xff, 2}, {1, 0xff, 0xff, 0xff, 2}, {3, 0xff, 0xff, 0xff},
        {4, 0xff, 0xff, 0xff}, {6, 0xff, 0xff, 0xff},    {9, 0xff, 0xff, 0xff, 1}};
    for (const auto& program : programs) {
        SCOPED_TRACE(static_cast<int>(program[0]));
        const std::string text = leasescope::fuzz::build_structure(program.data(), program.size(),
                                                                   leasescope::fuzz::structure_large_bytes_max);
        EXPECT_GT(text.size(), std::size_t{3} << 20);
        EXPECT_EQ(leasescope::fuzz::structure_large_one_input(program.data(), program.size()), 0);
    }
}

// Traces with their hash fixed up, so the reader's range checks are reached.
TEST(FuzzRegressions, TraceFixedInputs) {
    EXPECT_GT(replay("trace_fixed", leasescope::fuzz::trace_fixed_one_input), 0u);
    EXPECT_GT(replay("trace", leasescope::fuzz::trace_fixed_one_input), 0u);
}

// Captures (and their lines read as log lines) never crash the importer, and
// a history it builds reads back as the same trace (model.md §19).
TEST(FuzzRegressions, ImportInputs) { EXPECT_GT(replay("import", leasescope::fuzz::import_one_input), 0u); }

// The fix-up makes a trace with a changed value pass the hash check, so what
// the reader says is about the value: a guard that the target reaches it.
TEST(FuzzRegressions, TraceFixUpReachesTheRangeChecks) {
    const std::string golden = bytes_of(fs::path(LEASESCOPE_SOURCE_DIR) / "tests/golden/expiry-takeover.jsonl");
    auto intact = leasescope::sim::parse_trace(leasescope::fuzz::fix_up_trace(golden), "t");
    EXPECT_TRUE(intact.ok());
    const std::string wrapped =
        bytes_of(fs::path(LEASESCOPE_SOURCE_DIR) / "tests/fuzz/corpus/trace_fixed/slot-2-to-the-32.jsonl");
    auto read = leasescope::sim::parse_trace(leasescope::fuzz::fix_up_trace(wrapped), "t");
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message.find("\"slot\" is 4294967296"), std::string::npos) << read.error().to_string();
}

// The empty input, and the base scenario of the override fuzzer, parse as
// expected: a guard that the entry points still look at their input.
TEST(FuzzRegressions, EntryPointsSeeTheirInput) {
    EXPECT_EQ(leasescope::fuzz::scenario_one_input(nullptr, 0), 0);
    auto base = leasescope::sim::parse_scenario(leasescope::fuzz::override_base_scenario, "<base>");
    ASSERT_TRUE(base.ok()) << base.error().to_string();
    EXPECT_EQ(base.value().candidates.size(), 3u);
}
