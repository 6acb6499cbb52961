#pragma once
// Shared by every test program: the source tree's folder, and a file's bytes
// (a missing file fails the test and names it).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace leasescope::test {

inline const std::string source_dir = LEASESCOPE_SOURCE_DIR;

inline std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << path;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace leasescope::test
