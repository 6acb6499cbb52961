// Shared pieces of the CLI's commands (common.hpp): loading scenarios and traces, errors, the string tables.
#include "common.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "leasescope/io/files.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {

std::optional<std::string> read_file(const std::string& path, std::int64_t max_bytes, std::string_view limit_name) {
    std::string error;
    auto bytes = io::read_file(path, max_bytes, limit_name, error);
    if (!bytes) fmt::print(stderr, "error: {}\n", error);
    return bytes;
}

bool write_file_atomic(const std::string& path, const std::string& bytes) {
    std::string error;
    if (io::write_file(path, bytes, error)) return true;
    fmt::print(stderr, "error: {}\n", error);
    return false;
}

bool open_output_file(const std::string& path, std::unique_ptr<io::OutputFile>& file) {
    if (path.empty()) return true;
    std::string error;
    file = io::OutputFile::open(path, error);
    if (file) return true;
    fmt::print(stderr, "error: {}\n", error);
    return false;
}

bool commit_output_file(io::OutputFile& file) {
    std::string error;
    if (file.commit(error)) return true;
    fmt::print(stderr, "error: {}\n", error);
    return false;
}

int finish_output(int exit_code) {
    std::string error;
    if (io::finish_stdout(error)) return exit_code;
    fmt::print(stderr, "error: {}\n", error);
    return exit_code == exit_ok || exit_code == exit_check_failed ? exit_write_failed : exit_code;
}

namespace {

// Empty when `text` is an integer in [lo, hi] written plainly; else the reason.
template <class T>
std::string check_integer(const std::string& text, T lo, T hi) {
    const bool negative_ok = lo < T{0};
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const bool digits = !text.empty() && std::all_of(text.begin() + (negative_ok && text[0] == '-' ? 1 : 0), text.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; });
    T value{};
    const auto [end, ec] = std::from_chars(first, last, value);
    if (!digits || text == "-" || ec == std::errc::invalid_argument || end != last)
        return fmt::format("{}: expected a whole number from {} to {}", text, lo, hi);
    if (ec == std::errc::result_out_of_range || value < lo || value > hi)
        return fmt::format("{}: out of range; expected {} to {}", text, lo, hi);
    return {};
}

}  // namespace

CLI::Validator integer_in(std::int64_t lo, std::int64_t hi) {
    return CLI::Validator([lo, hi](std::string& text) { return check_integer<std::int64_t>(text, lo, hi); },
                          fmt::format("INT in [{} - {}]", lo, hi));
}

CLI::Validator unsigned_integer() {
    return CLI::Validator(
        [](std::string& text) {
            return check_integer<std::uint64_t>(text, 0, std::numeric_limits<std::uint64_t>::max());
        },
        "UINT64");
}

std::optional<sim::Scenario> load_scenario(const std::string& path, const std::vector<std::string>& sets,
                                           std::vector<std::string>* errors) {
    auto report = [&](const std::string& message) {
        fmt::print(stderr, "error: {}\n", message);
        if (errors != nullptr) errors->push_back(message);
    };
    std::vector<sim::Override> overrides;
    for (const auto& s : sets) {
        auto o = sim::parse_override(s);
        if (!o.ok()) {
            report(o.error());
            return std::nullopt;
        }
        overrides.push_back(o.value());
    }
    auto text = read_file(path, limits::scenario_bytes_max, "scenario_bytes_max");
    if (!text) {
        if (errors != nullptr) errors->push_back(fmt::format("{}: cannot read the file", path));
        return std::nullopt;
    }
    auto scenario = sim::parse_scenario_all_errors(*text, path, overrides);
    if (!scenario.ok()) {
        for (const sim::ScenarioError& e : scenario.error()) report(e.to_string());
        if (scenario.error().size() > 1) fmt::print(stderr, "{}: {} errors\n", path, scenario.error().size());
        return std::nullopt;
    }
    return std::move(scenario).value();
}

std::string xml_escape(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // XML 1.0 allows no control characters but tab and newlines.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                    out += '?';
                } else {
                    out += c;
                }
        }
    }
    return out;
}

std::optional<sim::Trace> load_trace(const std::string& path) {
    auto text = read_file(path, limits::trace_bytes_max, "trace_bytes_max");
    if (!text) return std::nullopt;
    auto trace = sim::parse_trace(*text, path);
    if (!trace.ok()) {
        fmt::print(stderr, "error: {}\n", trace.error().to_string());
        return std::nullopt;
    }
    return std::move(trace).value();
}

std::string find_assets_dir(const std::string& flag) {
    if (!flag.empty()) return flag;
    if (const char* env = std::getenv("LEASESCOPE_ASSETS"); env != nullptr && *env != '\0') return env;
    if (std::filesystem::is_directory("assets/i18n")) return "assets";
    return std::string(LEASESCOPE_SOURCE_DIR) + "/assets";
}

bool read_string_tables(const std::string& assets_dir, words::Strings& strings) {
    for (const words::Lang lang : {words::Lang::en, words::Lang::ko}) {
        const std::string path = assets_dir + "/i18n/" + words::lang_code(lang) + ".json";
        auto text = read_file(path, limits::scenario_bytes_max, "scenario_bytes_max");
        if (!text) return false;
        std::string error;
        if (!strings.load(lang, *text, error)) {
            fmt::print(stderr, "error: {}: {}\n", path, error);
            return false;
        }
    }
    return true;
}

}  // namespace leasescope::cli
