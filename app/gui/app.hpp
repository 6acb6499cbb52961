#pragma once
// The app's state and the only code that changes it. The state is made of
// named parts, each in its own header under state/: the assets (string
// tables, presets, fonts), the preferences (scale, palette, window), the
// document (scenario, timeline, playhead, selection), the screen (panel
// layout, open panels), the tour and narration, the jobs (live run, search)
// and the compared pair. Views get a const FrameContext (built by field name
// in frame_context()) and return commands; apply() runs them between frames.
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/glyphs.hpp"
#include "core/panels.hpp"
#include "state/assets.hpp"
#include "state/compare_state.hpp"
#include "state/document.hpp"
#include "state/exercise_state.hpp"
#include "state/jobs_state.hpp"
#include "state/preferences.hpp"
#include "state/screen.hpp"
#include "state/tour_state.hpp"
#include "views/view.hpp"

namespace leasescope::gui {

struct AppOptions {
    std::string assets_dir;
    std::string scenarios_dir;
    std::string config_dir;  // empty: nothing is remembered (headless runs)
};

class App {
public:
    explicit App(AppOptions options);

    // Loads the string tables, style, tour and preset list; false with `error` set.
    bool init(std::string& error);
    // Loads a scenario file (a preset or any path); false and an error message on failure.
    bool load_file(const std::string& path, std::string& error);

    // Applies the commands the views returned this frame (app_commands.cpp).
    void apply(const Commands& commands);
    // Advances playback by `dt_seconds` of wall time.
    void advance(double dt_seconds);
    // Keyboard shortcuts, turned into commands.
    void shortcuts(Commands& out) const;

    // Draws one frame of every view into the current ImGui frame.
    void draw_frame(Commands& out);

    void set_lang(Lang lang);
    Lang lang() const { return assets_.strings.lang(); }
    void seek(Tick t);
    void set_playing(bool playing) { doc_.playing = playing; }
    bool playing() const { return doc_.playing; }
    bool touring() const { return tour_.running(); }
    // The window size remembered from the last run (0 when none), and the one to remember.
    int saved_window_w() const { return prefs_.window_w; }
    int saved_window_h() const { return prefs_.window_h; }
    void remember_window(int w, int h) {
        prefs_.window_w = w;
        prefs_.window_h = h;
        save_settings();
    }
    Tick playhead() const { return doc_.playhead; }
    // What a shared link records besides the scenario (app/web): the selected
    // event (-1: none), the open tour step (-1: none), the file behind the
    // scenario and the presets.
    std::int32_t selected_event() const { return doc_.selected_event; }
    int tour_step() const { return tour_.step; }
    const std::string& scenario_path() const { return doc_.scenario_path; }
    // The preset this scenario is an edited copy of (the same name, other
    // content: edited here, opened from a file or a shared link); empty when
    // it is a preset as it is, or a scenario of its own.
    const std::string& edited_from() const { return doc_.edited_from; }
    const std::vector<PresetInfo>& presets() const { return assets_.presets; }
    Tick end_tick() const { return doc_.lanes.end_tick; }
    const sim::Timeline* timeline() const { return doc_.timeline.get(); }
    const Palette& palette() const { return prefs_.palette; }
    const Strings& strings() const { return assets_.strings; }
    // The body font's size: style.json's font_px at the UI scale.
    float font_px() const { return std::round(prefs_.font_px * static_cast<float>(prefs_.scale_percent) / 100.0f); }
    // Projector mode: the UI scale in percent (100 … 250) and the high-contrast palette, both remembered.
    int scale_percent() const { return prefs_.scale_percent; }
    float ui_scale() const { return static_cast<float>(prefs_.scale_percent) / 100.0f; }
    void set_scale(int percent);
    bool high_contrast() const { return prefs_.high_contrast; }
    void set_high_contrast(bool on);
    // True once after the scale changed: the host re-bakes the fonts before the next frame.
    bool take_fonts_dirty() {
        const bool d = assets_.fonts_dirty;
        assets_.fonts_dirty = false;
        return d;
    }
    Fonts& fonts() { return assets_.fonts; }
    // The Hangul the font atlas holds: the app's own words and every opened
    // scenario's (core/glyphs.hpp); a scenario with a new syllable re-bakes.
    const std::set<char32_t>& hangul() const { return assets_.hangul; }
    // Hangul typed into an input field (host.cpp): baked before the next frame when new.
    void need_glyph(char32_t cp) {
        if (add_hangul_point(assets_.hangul, cp)) assets_.fonts_dirty = true;
    }
    const std::string& error() const { return doc_.error; }

    // Requests a PNG of the next rendered frame (host_frame reads pixels after drawing).
    std::optional<std::string> take_png_request();
    void set_notice(std::string text) { doc_.notice = std::move(text); }
    void set_error(std::string text) { doc_.error = std::move(text); }

    // The tour: step k loads its preset, seeks and points at its panel.
    void tour_goto(int step);

    // Background work (live run, counterexample search): advances the search
    // by a slice of `find_budget_ms`, copies progress into the statuses and
    // takes in finished results. Called once per frame, before drawing.
    void poll_jobs();
    bool jobs_busy() const { return jobs_.busy(); }
    void set_find_budget_ms(double ms) { jobs_.find_budget_ms = ms; }
    void set_offscreen(Offscreen* offscreen) { offscreen_ = offscreen; }
    const LiveStatus& live_status() const { return jobs_.live; }
    const FindStatus& find_status() const { return jobs_.find; }

private:
    // Simulates `scenario` and shows it; false, with `error` set and the
    // scenario shown before kept, when its run passes a limit (model.md §11.6).
    bool rebuild(sim::Scenario scenario, bool keep_playhead, std::string& error);
    bool load_trace(const std::string& path, std::string_view bytes, std::string& error);
    void show_run(ShownRun run, bool keep_playhead);
    void compute_layout(float width, float height);
    // The compact layout (state/screen.hpp): controls, timeline, transport, tabs, one shared place.
    void compute_compact_layout(float width, float height);
    void place_bottom_row(float width, float height, float bottom_height);
    // The per-frame context the views read, built by field name from the parts.
    FrameContext frame_context() const;
    void draw_views(const FrameContext& ctx, Commands& out);
    void draw_focus(std::optional<Panel> focus);  // the tour's outline over its panel
    void refresh_snapshot();
    bool write_text(const std::string& path, const std::string& bytes);
    std::string preset_edited_from(const sim::Scenario& scenario) const;
    // The remembered settings (app_settings.cpp): language, speed, window, scale, palette.
    void load_settings();
    void save_settings() const;
    void start_find(const sim::Properties& properties, int max_faults, bool smallest);
    void finish_find();
    // Opens a counterexample as an edited scenario with the playhead on its violation.
    void load_counterexample(sim::Counterexample found);

    AppOptions options_;
    Assets assets_;                       // string tables, presets, fonts (state/assets.hpp)
    Preferences prefs_;                   // scale, palette, window (state/preferences.hpp)
    Document doc_;                        // scenario, timeline, playhead, selection (state/document.hpp)
    Screen screen_;                       // panel layout and open panels (state/screen.hpp)
    TourState tour_;                      // the tour and narrated play (state/tour_state.hpp)
    JobsState jobs_;                      // live run and counterexample search (state/jobs_state.hpp)
    CompareState compare_;                // the pair side by side (state/compare_state.hpp)
    ExerciseStatus exercise_;             // the open file's exercises (state/exercise_state.hpp)
    ExerciseProgress exercise_progress_;  // done exercises per scenario name, remembered
    std::vector<std::unique_ptr<View>> views_;
    Offscreen* offscreen_ = nullptr;

public:
    // The panel the tour outlines in the last frame drawn (empty: none), and
    // where (the layout report's "focus:" line).
    std::string focus_id() const { return screen_.focus ? panel_name(*screen_.focus) : std::string(); }
    const PanelRect& focus_rect() const { return screen_.focus_rect; }
    // Headless runs and "reset layout" place every panel on the computed layout.
    void set_force_layout(bool on) { screen_.force_layout = on; }
    void request_relayout() { screen_.relayout_pending = true; }
    // For --layout-sweep, after ImGui is started afresh: the next frame is
    // drawn as a new window's first, by new views (their draw lists belong to
    // the ImGui that is gone) on a screen as a new process has it.
    void restart_frames();

private:
    // One handler per command (app_commands.cpp). `stop`: the commands after
    // this one were made against a timeline that is gone.
    enum class After { next, stop };
    After open_file(const std::string& path, bool leaves_tour);
    After on(const command::Seek& c);
    After on(const command::Step& c);
    After on(const command::NextEvent& c);
    After on(const command::PrevEvent& c);
    After on(const command::TogglePlay& c);
    After on(const command::SetSpeed& c);
    After on(const command::Restart& c);
    After on(const command::Fit& c);
    After on(const command::SelectEvent& c);
    After on(const command::EditScenario& c);
    After on(const command::LoadPreset& c);
    After on(const command::OpenPath& c);
    After on(const command::SavePath& c);
    After on(const command::OpenPicker& c);
    After on(const command::TextEdited& c);
    After on(const command::SetLang& c);
    After on(const command::TourGoto& c);
    After on(const command::TourStop& c);
    After on(const command::ResetLayout& c);
    After on(const command::SetTopHeight& c);
    After on(const command::SetScale& c);
    After on(const command::SetHighContrast& c);
    After on(const command::ExportPng& c);
    After on(const command::ExportSvg& c);
    After on(const command::ExportJsonl& c);
    After on(const command::LiveToggle& c);
    After on(const command::LiveRun& c);
    After on(const command::LiveCancel& c);
    After on(const command::FindToggle& c);
    After on(const command::CodeToggle& c);
    After on(const command::FindRun& c);
    After on(const command::FindCancel& c);
    After on(const command::FindShow& c);

    // Side by side and narrated play (app_compare.cpp).
    After on(const command::CompareOpen& c);
    After on(const command::CompareSetB& c);
    After on(const command::CompareClose& c);
    After on(const command::ExportPairSvg& c);
    After on(const command::NarrateToggle& c);
    After on(const command::SetPace& c);
    After on(const command::ShowTab& c);
    // Narrated play's step (from advance).
    void narrate_step(double dt);

    // Exercises (app_exercise.cpp, docs/model.md §18).
    After on(const command::ExerciseToggle& c);
    After on(const command::ExerciseOpen& c);
    After on(const command::ExerciseAnswer& c);
    After on(const command::ExerciseTryKnobs& c);
    After on(const command::ExerciseTryFault& c);
    After on(const command::ExerciseShowMe& c);
    After on(const command::ExerciseBack& c);
    // After a file is read: its exercises, judged on its bytes (none: the panel says so).
    void exercises_loaded(const std::string& path, const std::string& bytes, const sim::Scenario& parsed);
    // A try's run on the timeline, the playhead on the event that shows the result.
    After show_try(sim::Attempt attempt, ExerciseTry shown);
    void mark_exercise_done();
    void close_bottom_panels();  // Live, Find, Code: the Exercise panel takes their place

public:
    const ComparePair* compare() const { return compare_.pair.get(); }
    bool narrating() const { return tour_.narrate.on; }
    // The pair's difference in words and where the runs part, for headless reports.
    std::string compare_report() const;
    // Puts the playhead on the tick where the compared runs part (their first
    // divergence), so the words and the picture speak of the same tick; nothing
    // when no pair is open or the runs never part.
    void seek_to_divergence();
    // Opens only the panels of `choice` (--panels); the layout gives a closed
    // column or row's room to the timeline. "code" opens the Code panel.
    void set_panels(const PanelChoice& choice);
    // False: settings changed from now on are not written (--projector is for one session).
    void set_remember_settings(bool on) { prefs_.remember = on; }
    std::size_t trace_event_count() const { return doc_.timeline ? doc_.timeline->trace().events.size() : 0; }

    // Exercises: what the panel shows, and the done ones per scenario name
    // (the browser keeps them in localStorage: app/web).
    const ExerciseStatus& exercise() const { return exercise_; }
    const ExerciseProgress& exercise_progress() const { return exercise_progress_; }
    void set_exercise_progress(const std::string& scenario_name, const std::set<int>& done);
    // The command an answer typed as text stands for (--exercise-answer, a
    // link): a predict's choice by its value, a goal's values "5,off" or a
    // find_fault's "pause:node-a:10:5", or "show" (Show me). Nothing, with
    // `error` set, when it fits none.
    std::optional<Command> exercise_answer_command(const std::string& value, std::string& error) const;
};

// One step of Ctrl+plus / Ctrl+minus, and the bounds of the UI scale.
inline constexpr int scale_step_percent = 25;
inline constexpr int scale_min_percent = 100;
inline constexpr int scale_max_percent = 250;

// $XDG_CONFIG_HOME/leasescope or ~/.config/leasescope (created on demand).
std::string default_config_dir();

}  // namespace leasescope::gui
