#include "common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace leasescope::cli {

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fmt::print(stderr, "error: {}: cannot open: {}\n", path, std::strerror(errno));
        return std::nullopt;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) {
        fmt::print(stderr, "error: {}: read failed\n", path);
        return std::nullopt;
    }
    return std::move(buffer).str();
}

bool write_file_atomic(const std::string& path, const std::string& bytes) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            fmt::print(stderr, "error: {}: cannot write: {}\n", temporary, std::strerror(errno));
            return false;
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            fmt::print(stderr, "error: {}: write failed\n", temporary);
            std::remove(temporary.c_str());
            return false;
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        fmt::print(stderr, "error: {}: cannot rename into place: {}\n", path, std::strerror(errno));
        std::remove(temporary.c_str());
        return false;
    }
    return true;
}

std::optional<sim::Scenario> load_scenario(const std::string& path, const std::vector<std::string>& sets) {
    std::vector<sim::Override> overrides;
    for (const auto& s : sets) {
        auto o = sim::parse_override(s);
        if (!o.ok()) {
            fmt::print(stderr, "error: {}\n", o.error());
            return std::nullopt;
        }
        overrides.push_back(o.value());
    }
    auto text = read_file(path);
    if (!text) return std::nullopt;
    auto scenario = sim::parse_scenario(*text, path, overrides);
    if (!scenario.ok()) {
        fmt::print(stderr, "error: {}\n", scenario.error().to_string());
        return std::nullopt;
    }
    return std::move(scenario).value();
}

std::optional<sim::Trace> load_trace(const std::string& path) {
    auto text = read_file(path);
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
        auto text = read_file(path);
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
