// The words library is pure: no ImGui or GLFW (the CLI links it without a
// display), no files, no clock, no threads. The shells read the tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

TEST(WordsPurity, NoGuiNoIoNoClock) {
    const std::regex forbidden(
        R"(#\s*include\s*[<"](imgui[^>"]*|GLFW/[^>"]*|fstream|filesystem|cstdio|stdio\.h|iostream|chrono|ctime|thread|random)[>"])");
    std::size_t files = 0;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::string(LEASESCOPE_SOURCE_DIR) + "/app/words")) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp") continue;
        std::ifstream in(entry.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        std::smatch m;
        EXPECT_FALSE(std::regex_search(text, m, forbidden)) << entry.path() << ": " << m.str();
        ++files;
    }
    EXPECT_GE(files, 6u);
}
