// The trace reader's fast path (trace_line_scan.hpp) reads exactly what the
// general reader reads: on every golden trace and trace seed, and on event
// lines mutated byte by byte (with the summary's hash fixed up, so a line
// that still parses is read to the end), both readers give the same trace or
// the same error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "leasescope/sim/trace.hpp"

using namespace leasescope::sim;

namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// The traces the tests read: the goldens, the fuzzer's trace seeds and its
// trace regressions (formats 1 to 6 among them).
std::vector<std::filesystem::path> trace_files() {
    const std::filesystem::path src = LEASESCOPE_SOURCE_DIR;
    std::vector<std::filesystem::path> out;
    for (const char* dir : {"tests/golden", "tests/fuzz/corpus/trace", "tests/fuzz_regressions/trace"}) {
        for (const auto& entry : std::filesystem::directory_iterator(src / dir))
            if (entry.is_regular_file()) out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Both readers on `text`: the same trace, or the same error.
void expect_same(const std::string& text, const std::string& what) {
    const auto fast = parse_trace(text, "t.jsonl", TraceLineReader::fast);
    const auto general = parse_trace(text, "t.jsonl", TraceLineReader::general);
    ASSERT_EQ(fast.ok(), general.ok()) << what << (fast.ok() ? general.error() : fast.error()).to_string();
    if (!fast.ok()) {
        EXPECT_EQ(fast.error().to_string(), general.error().to_string()) << what;
        return;
    }
    EXPECT_EQ(fast.value().header, general.value().header) << what;
    EXPECT_EQ(fast.value().events, general.value().events) << what;
    EXPECT_EQ(fast.value().summary, general.value().summary) << what;
}

// `text` with the summary's trace_sha256 replaced by the hash of its event
// lines (lines starting {"type":"event"), so a changed event line that still
// reads is checked to the end.
std::string with_fixed_hash(const std::string& text) {
    TraceHasher hasher;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + pos, end - pos);
        if (line.starts_with(R"({"type":"event")")) hasher.add_line(line);
        pos = end + 1;
    }
    const std::string key = R"("trace_sha256":")";
    const std::size_t at = text.rfind(key);
    if (at == std::string::npos || at + key.size() + 64 > text.size()) return text;
    std::string out = text;
    out.replace(at + key.size(), 64, hasher.hex());
    return out;
}

}  // namespace

TEST(TraceFastPath, ReadsEveryTraceFileAsTheGeneralReaderDoes) {
    const auto files = trace_files();
    ASSERT_GE(files.size(), 37U);
    for (const auto& path : files) expect_same(read_file(path), path.string());
}

TEST(TraceFastPath, AgreesWithTheGeneralReaderOnMutatedEventLines) {
    // Bytes that make a value of another kind, a sign, an escape, a space, a
    // non-ASCII byte, or end a value early.
    const std::string replacements = std::string("0-\"\\ n},.") + '\x7f' + '\xc3';
    int mutated = 0;
    for (const auto& path : trace_files()) {
        const std::string text = read_file(path);
        if (text.size() > 4'000) continue;  // the small ones (formats 1 to 4 and 6): every byte of one line
        // The last event line: read after all the others, so its order checks count too.
        std::vector<std::size_t> starts;
        for (std::size_t pos = 0; pos < text.size(); pos = text.find('\n', pos) + 1) {
            if (text.compare(pos, 15, R"({"type":"event")") == 0) starts.push_back(pos);
            if (text.find('\n', pos) == std::string::npos) break;
        }
        if (starts.empty()) continue;
        {
            const std::size_t start = starts.back();
            const std::size_t end = text.find('\n', start);
            for (std::size_t i = start; i < end; ++i) {
                for (const char c : replacements) {
                    std::string changed = text;
                    changed[i] = c;
                    expect_same(with_fixed_hash(changed), path.string() + " byte " + std::to_string(i) + " = " + c);
                    ++mutated;
                }
                std::string shorter = text;
                shorter.erase(i, 1);
                expect_same(with_fixed_hash(shorter), path.string() + " byte " + std::to_string(i) + " deleted");
                ++mutated;
            }
        }
    }
    EXPECT_GT(mutated, 3'000);
}
