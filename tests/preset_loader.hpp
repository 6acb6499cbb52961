#pragma once
// The presets in scenarios/, as tests load them: the file's bytes, or the
// parsed scenario (a parse error fails the test and names the file).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "leasescope/sim/scenario.hpp"

namespace leasescope::test {

inline std::string preset_path(const std::string& name) {
    return std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + name + ".json";
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
