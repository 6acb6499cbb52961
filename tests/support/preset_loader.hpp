#pragma once
// The presets in scenarios/, as tests load them: the file's bytes, or the
// parsed scenario (a parse error fails the test and names the file).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "support/test_files.hpp"

namespace leasescope::test {

inline std::string preset_path(const std::string& name) { return source_dir + "/scenarios/" + name + ".json"; }

// The name of every preset in scenarios/, sorted.
inline std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(source_dir + "/scenarios"))
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string read_preset(const std::string& name) { return read_all(preset_path(name)); }

// The presets the app shows: every one, Redlock's (model.md §20.9) and
// Redisson's (§21.9) included.
inline std::vector<std::string> app_preset_names() { return preset_names(); }

inline sim::Scenario load_preset(const std::string& name) {
    auto parsed = sim::parse_scenario(read_preset(name), preset_path(name));
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

}  // namespace leasescope::test
