#pragma once
// The app without a window, for the tests of its commands (exercise, find,
// replay): started on the project's assets and opened on one file.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "app.hpp"

namespace leasescope::gui::test {

// `config_dir` empty: no settings are read or written.
inline std::unique_ptr<App> open_app(const std::string& path, const std::string& config_dir = "") {
    AppOptions options;
    options.assets_dir = std::string(LEASESCOPE_SOURCE_DIR) + "/assets";
    options.config_dir = config_dir;
    auto app = std::make_unique<App>(options);
    std::string error;
    EXPECT_TRUE(app->init(error)) << error;
    EXPECT_TRUE(app->load_file(path, error)) << error;
    return app;
}

}  // namespace leasescope::gui::test
