#pragma once
// The presets in scenarios/, as tests load them: the file's bytes, or the
// parsed scenario (a parse error fails the test and names the file).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"

namespace leasescope::test {

inline std::string preset_path(const std::string& name) {
    return std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + name + ".json";
}

// The name of every preset in scenarios/, sorted.
inline std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios"))
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string read_preset(const std::string& name) {
    const std::string path = preset_path(name);
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << path;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

inline sim::Scenario load_preset(const std::string& name) {
    auto parsed = sim::parse_scenario(read_preset(name), preset_path(name));
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

}  // namespace leasescope::test
