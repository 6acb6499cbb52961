// The app opens a trace as a read-only replay (model.md §19.9), without a
// window: a file whose first line is a trace header is replayed, not
// simulated; the commands that would change the history are refused with the
// one sentence that says why; a bad trace names its line and leaves what was
// shown; the draft scenario goes beside it in the compare view.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app_test_support.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

const std::string replay_data_dir = std::string(LEASESCOPE_SOURCE_DIR) + "/tests/data/import/";
const std::string trace_path = replay_data_dir + "incident.trace.jsonl";
const std::string draft_path = replay_data_dir + "incident.draft.json";

std::string replay_temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() /
            (std::string("leasescope-replay-") + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "-" + name))
        .string();
}

}  // namespace

TEST(ReplayApp, ATraceFileOpensAsAReplayAndAScenarioAfterItIsSimulatedAgain) {
    auto app = test::open_app(trace_path);
    ASSERT_NE(app->timeline(), nullptr);
    EXPECT_TRUE(app->timeline()->replayed());
    EXPECT_EQ(app->end_tick(), 72);
    EXPECT_EQ(app->trace_event_count(), 22u);
    app->seek(41);
    EXPECT_EQ(app->playhead(), 41);
    std::string error;
    ASSERT_TRUE(app->load_file(draft_path, error)) << error;
    EXPECT_FALSE(app->timeline()->replayed());
}

TEST(ReplayApp, EditsSavingLiveAndTheExplorerAreRefusedWithTheReason) {
    auto app = test::open_app(trace_path);
    const sim::Timeline* before = app->timeline();
    const std::string reason = app->strings().tr("replay.read_only");
    app->apply({command::EditScenario{{Edit{Edit::Kind::set, "/horizon", 100}}}});
    EXPECT_EQ(app->error(), reason);
    EXPECT_EQ(app->timeline(), before);  // not simulated again
    EXPECT_EQ(app->end_tick(), 72);
    app->set_error("");
    const std::string saved = replay_temp_path("saved.json");
    app->apply({command::SavePath{saved}});
    EXPECT_EQ(app->error(), reason);
    EXPECT_FALSE(std::filesystem::exists(saved));
    app->set_error("");
    app->apply({command::LiveToggle{}, command::FindToggle{}, command::ExerciseToggle{}});
    EXPECT_EQ(app->error(), reason);
    EXPECT_FALSE(app->live_status().open);
    EXPECT_FALSE(app->find_status().open);
    EXPECT_FALSE(app->exercise().open);
    // Playback is not an edit.
    app->set_error("");
    app->apply({command::Seek{53}, command::NextEvent{}});
    EXPECT_EQ(app->error(), "");
    EXPECT_EQ(app->playhead(), 54);
}

TEST(ReplayApp, ABadTraceSaysWhereAndKeepsWhatWasShown) {
    auto app = test::open_app(draft_path);
    std::ifstream in(trace_path);
    std::stringstream text;
    text << in.rdbuf();
    std::string bytes = text.str();
    bytes.replace(bytes.find("\"tick\":5,"), 9, "\"tick\":99,");  // time goes back after it
    const std::string bad = replay_temp_path("bad.trace.jsonl");
    std::ofstream(bad) << bytes;
    std::string error;
    EXPECT_FALSE(app->load_file(bad, error));
    // The file and the line of the event after it, whose tick goes back.
    EXPECT_EQ(error.rfind(bad + ":6: ", 0), 0u) << error;
    EXPECT_FALSE(app->timeline()->replayed());
    EXPECT_EQ(app->timeline()->scenario().name, "incident-draft");
    std::filesystem::remove(bad);
}

TEST(ReplayApp, TheDraftScenarioGoesBesideTheHistoryButAVariantOfItCannot) {
    auto app = test::open_app(trace_path);
    app->apply({command::CompareOpen{"", "", {}}});
    EXPECT_EQ(app->compare(), nullptr);
    EXPECT_EQ(app->error(), app->strings().tr("replay.read_only"));
    app->apply({command::CompareOpen{"", draft_path, {}}});
    ASSERT_NE(app->compare(), nullptr);
    EXPECT_EQ(app->compare()->b().scenario().name, "incident-draft");
    EXPECT_TRUE(app->timeline()->replayed());  // A stays the history
}
