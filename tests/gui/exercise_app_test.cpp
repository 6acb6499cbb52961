// The app's exercise commands without a window (app_exercise.cpp): the same
// commands the Exercise panel's buttons push, checked on the state the panel
// reads, and the done marks remembered in settings.json for the next run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "app_test_support.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

const std::string sample = std::string(LEASESCOPE_SOURCE_DIR) + "/tests/gui/exercise-sample.json";

std::unique_ptr<App> open_app(const std::string& config_dir) { return test::open_app(sample, config_dir); }

std::string fresh_dir(const char* name) {
    const auto dir =
        std::filesystem::temp_directory_path() /
        (std::string("leasescope-") + name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

}  // namespace

TEST(ExerciseApp, APredictionWaitsBeforeItsTickThenShowsIt) {
    auto app = open_app("");
    ASSERT_EQ(app->exercise().count(), 3u);
    app->apply({command::ExerciseOpen{0}});
    const ExerciseStatus& s = app->exercise();
    EXPECT_TRUE(s.open);
    ASSERT_TRUE(s.prediction);
    EXPECT_EQ(app->playhead(), 5);  // the state before tick 6
    EXPECT_FALSE(app->playing());
    const auto wrong = std::find(s.prediction->choices.begin(), s.prediction->choices.end(), "node-a");
    app->apply({command::ExerciseAnswer{static_cast<int>(wrong - s.prediction->choices.begin())}});
    EXPECT_EQ(app->playhead(), 6);
    EXPECT_TRUE(s.wrong_before);
    EXPECT_FALSE(s.done[0]);
    app->apply({command::ExerciseOpen{0}});  // Try again: the hint stays
    EXPECT_EQ(app->playhead(), 5);
    EXPECT_TRUE(s.wrong_before);
    app->apply({command::ExerciseAnswer{s.prediction->right}});
    EXPECT_TRUE(s.done[0]);
}

TEST(ExerciseApp, ATryShowsItsRunAndBackShowsTheFilesRun) {
    auto app = open_app("");
    app->apply({command::ExerciseOpen{1}});
    const std::size_t file_events = app->trace_event_count();
    std::string error;
    const auto short_lease = app->exercise_answer_command("8", error);
    ASSERT_TRUE(short_lease) << error;
    app->apply({*short_lease});
    ASSERT_TRUE(app->exercise().last);
    EXPECT_FALSE(app->exercise().last->met());
    EXPECT_TRUE(app->exercise().showing_try);
    EXPECT_EQ(app->timeline()->scenario().candidates[0].options.lease, 8);
    EXPECT_TRUE(app->scenario_path().empty());  // an edited copy, no file behind it
    app->apply({command::ExerciseBack{}});
    EXPECT_FALSE(app->exercise().showing_try);
    EXPECT_EQ(app->trace_event_count(), file_events);
    EXPECT_EQ(app->scenario_path(), sample);
    app->apply({command::ExerciseShowMe{}});
    EXPECT_TRUE(app->exercise().last->met());
    EXPECT_TRUE(app->exercise().done[1]);
}

TEST(ExerciseApp, DoneExercisesAreRememberedPerScenario) {
    const std::string dir = fresh_dir("exercise-progress");
    {
        auto app = open_app(dir);
        app->apply({command::ExerciseOpen{0}});
        app->apply({command::ExerciseAnswer{app->exercise().prediction->right}});
        ASSERT_TRUE(app->exercise().done[0]);
    }
    auto again = open_app(dir);
    EXPECT_EQ(again->exercise().done, (std::vector<bool>{true, false, false}));
    std::filesystem::remove_all(dir);
}
