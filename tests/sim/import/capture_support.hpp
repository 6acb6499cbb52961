#pragma once
// Helpers of the capture tests (tests/sim/import/capture_*_test.cpp): MONITOR
// lines written as redis-server 7.0 writes them, and a capture read whole.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import::test {

// 1796374662 s: a time of the session the real captures were made in.
inline constexpr std::int64_t t0_us = 1'796'374'662'000'000;

// One line: `ts_us` after t0, the client, the arguments as bytes.
inline std::string mline(std::int64_t after_t0_us, const std::string& client, const std::vector<std::string>& args) {
    const std::int64_t ts = t0_us + after_t0_us;
    std::string text = std::to_string(ts / 1'000'000) + ".";
    const std::string micros = std::to_string(ts % 1'000'000);
    text += std::string(6 - micros.size(), '0') + micros + " [0 " + client + "]";
    for (const std::string& a : args) text += " \"" + redis_repr(a) + "\"";
    return text;
}

struct Read {
    std::optional<std::vector<Observation>> observations;
    CaptureReport report;
    std::string error;
};

// Reads each source (a name and its lines) in order.
inline Read read_capture(const std::vector<std::pair<std::string, std::vector<std::string>>>& sources,
                         ImportOptions options = {}) {
    CaptureReader reader(std::move(options));
    Read r;
    for (const auto& [name, lines] : sources) {
        reader.begin_source(name);
        for (const std::string& l : lines) {
            if (!reader.add_line(l)) {
                r.error = reader.error();
                r.report = reader.report();
                return r;
            }
        }
    }
    r.observations = reader.finish();
    r.error = reader.error();
    r.report = reader.report();
    return r;
}

inline Read read_one(const std::vector<std::string>& lines, ImportOptions options = {}) {
    return read_capture({{"cap.txt", lines}}, std::move(options));
}

}  // namespace leasescope::sim::import::test
