// Engine and sim are pure (docs/model.md §2): outside engine/redis and sim/live, no
// source includes a clock, <random>, <thread>, ImGui, GLFW or hiredis.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> violations_in(const fs::path& root, const std::vector<std::string>& exempt) {
    const std::regex forbidden(
        R"(^\s*#\s*include\s*[<"](chrono|random|thread|ctime|time\.h|sys/time\.h|future|mutex|condition_variable|imgui[^>"]*|GLFW/[^>"]*|hiredis/[^>"]*)[>"])");
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) continue;
        const std::string path = entry.path().string();
        bool skip = false;
        for (const auto& e : exempt) skip = skip || path.find(e) != std::string::npos;
        if (skip) continue;
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp" && ext != ".h") continue;
        std::ifstream in(path);
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            if (std::regex_search(line, forbidden)) found.push_back(path + ":" + std::to_string(number) + ": " + line);
        }
    }
    return found;
}

}  // namespace

// No clock, randomness, threads or GUI/Redis headers inside the pure core.
TEST(Purity, EngineAndSimIncludeNoClockRandomThreadsOrIo) {
    const fs::path source(LEASESCOPE_SOURCE_DIR);
    for (const char* dir : {"engine", "sim"}) {
        const auto found = violations_in(source / dir, {"/engine/redis/", "/sim/live/"});
        for (const auto& f : found) ADD_FAILURE() << f;
    }
}

// The checker itself finds a forbidden include: a purity test that cannot fail is no test.
TEST(Purity, CheckerCatchesAForbiddenInclude) {
    const fs::path dir = fs::temp_directory_path() / "leasescope_purity_probe";
    fs::create_directories(dir);
    std::ofstream(dir / "bad.cpp") << "#include <chrono>\n#include <vector>\n";
    std::ofstream(dir / "bad2.hpp") << "  #  include \"imgui.h\"\n";
    const auto found = violations_in(dir, {});
    fs::remove_all(dir);
    EXPECT_EQ(found.size(), 2u);
}
