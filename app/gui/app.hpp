#pragma once
// The app's state and the only code that changes it: the loaded scenario, its
// simulated timeline and lanes, the playhead, the tour. Views get a const
// FrameContext and return commands; apply() runs them between frames.
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commands.hpp"
#include "compare.hpp"
#include "core/panels.hpp"
#include "jobs.hpp"
#include "core/glyphs.hpp"
#include "core/lanes.hpp"
#include "core/palette.hpp"
#include "core/strings.hpp"
#include "core/tour.hpp"
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
    Lang lang() const { return strings_.lang(); }
    void seek(Tick t);
    void set_playing(bool playing) { playing_ = playing; }
    bool playing() const { return playing_; }
    bool touring() const { return tour_step_ >= 0; }
    // The window size remembered from the last run (0 when none), and the one to remember.
    int saved_window_w() const { return window_w_; }
    int saved_window_h() const { return window_h_; }
    void remember_window(int w, int h) {
        window_w_ = w;
        window_h_ = h;
        save_settings();
    }
    Tick playhead() const { return playhead_; }
    // What a shared link records besides the scenario (app/web): the selected
    // event (-1: none), the open tour step (-1: none), the file behind the
    // scenario and the presets.
    std::int32_t selected_event() const { return selected_event_; }
    int tour_step() const { return tour_step_; }
    const std::string& scenario_path() const { return scenario_path_; }
    // The preset this scenario is an edited copy of (the same name, other
    // content: edited here, opened from a file or a shared link); empty when
    // it is a preset as it is, or a scenario of its own.
    const std::string& edited_from() const { return edited_from_; }
    const std::vector<PresetInfo>& presets() const { return presets_; }
    Tick end_tick() const { return lanes_.end_tick; }
    const sim::Timeline* timeline() const { return timeline_.get(); }
    const Palette& palette() const { return palette_; }
    const Strings& strings() const { return strings_; }
    // The body font's size: style.json's font_px at the UI scale.
    float font_px() const { return std::round(font_px_ * static_cast<float>(scale_percent_) / 100.0f); }
    // Projector mode: the UI scale in percent (100 … 250) and the high-contrast palette, both remembered.
    int scale_percent() const { return scale_percent_; }
    float ui_scale() const { return static_cast<float>(scale_percent_) / 100.0f; }
    void set_scale(int percent);
    bool high_contrast() const { return high_contrast_; }
    void set_high_contrast(bool on);
    // True once after the scale changed: the host re-bakes the fonts before the next frame.
    bool take_fonts_dirty() {
        const bool d = fonts_dirty_;
        fonts_dirty_ = false;
        return d;
    }
    Fonts& fonts() { return fonts_; }
    // The Hangul the font atlas holds: the app's own words and every opened
    // scenario's (core/glyphs.hpp); a scenario with a new syllable re-bakes.
    const std::set<char32_t>& hangul() const { return hangul_; }
    // Hangul typed into an input field (host.cpp): baked before the next frame when new.
    void need_glyph(char32_t cp) {
        if (add_hangul_point(hangul_, cp)) fonts_dirty_ = true;
    }
    const std::string& error() const { return error_; }

    // Requests a PNG of the next rendered frame (host_frame reads pixels after drawing).
    std::optional<std::string> take_png_request();
    void set_notice(std::string text) { notice_ = std::move(text); }
    void set_error(std::string text) { error_ = std::move(text); }

    // The tour: step k loads its preset, seeks and points at its panel.
    void tour_goto(int step);

    // Background work (live run, counterexample search): advances the search
    // by a slice of `find_budget_ms`, copies progress into the statuses and
    // takes in finished results. Called once per frame, before drawing.
    void poll_jobs();
    bool jobs_busy() const { return live_job_ != nullptr || find_job_ != nullptr; }
    void set_find_budget_ms(double ms) { find_budget_ms_ = ms; }
    void set_offscreen(Offscreen* offscreen) { offscreen_ = offscreen; }
    const LiveStatus& live_status() const { return live_; }
    const FindStatus& find_status() const { return find_; }

private:
    // Simulates `scenario` and shows it; false, with `error` set and the
    // scenario shown before kept, when its run passes a limit (model.md §11.6).
    bool rebuild(sim::Scenario scenario, bool keep_playhead, std::string& error);
    void compute_layout(float width, float height);
    void draw_focus(const std::string& focus);  // the tour's outline over its panel
    void refresh_snapshot();
    bool write_text(const std::string& path, const std::string& bytes);
    // The remembered settings (app_settings.cpp): language, speed, window, scale, palette.
    void load_settings();
    void save_settings() const;

    AppOptions options_;
    Strings strings_;
    Palette palette_;
    float font_px_ = 17.0f;  // at 100 %
    int scale_percent_ = 100;
    bool high_contrast_ = false;
    bool fonts_dirty_ = false;
    std::set<char32_t> hangul_;
    std::string style_text_;  // assets/style.json, applied over the default palette
    float top_h_ = 0.0f;      // what the top bar asked for (0: the default)
    Fonts fonts_;
    std::vector<PresetInfo> presets_;
    std::vector<TourStep> tour_;
    int tour_step_ = -1;

    std::unique_ptr<sim::Timeline> timeline_;
    LaneModel lanes_;
    sim::Snapshot snapshot_;
    Tick snapshot_tick_ = -1;
    std::string scenario_path_;
    std::string edited_from_;
    std::string preset_edited_from(const sim::Scenario& scenario) const;

    Tick playhead_ = 0;
    double play_accum_ = 0.0;
    bool playing_ = false;
    double speed_ = 4.0;
    std::int32_t selected_event_ = -1;
    int window_w_ = 0, window_h_ = 0;
    std::uint64_t fit_generation_ = 1;
    std::uint64_t timeline_generation_ = 0;
    std::string error_, notice_;
    std::optional<std::string> png_request_;

    std::map<std::string, PanelRect> layout_;
    std::string focus_id_;
    PanelRect focus_rect_{};
    ImVec2 last_size_{0, 0};
    bool relayout_pending_ = false;
    std::uint64_t frames_ = 0;

public:
    // The panel the tour outlines in the last frame drawn, and where (the layout report's "focus:" line).
    const std::string& focus_id() const { return focus_id_; }
    const PanelRect& focus_rect() const { return focus_rect_; }
    // Headless runs and "reset layout" place every panel on the computed layout.
    bool force_layout_ = false;
    void request_relayout() { relayout_pending_ = true; }

private:
    std::vector<std::unique_ptr<View>> views_;

    LiveStatus live_;
    FindStatus find_;
    bool code_open_ = false;  // the Code panel (it shares the bottom row)
    PanelChoice panels_;      // --panels: which panels are open (all by default)
    std::unique_ptr<LiveJob> live_job_;
    std::unique_ptr<FindJob> find_job_;
    sim::Properties find_properties_;
    double find_budget_ms_ = 12.0;
    Offscreen* offscreen_ = nullptr;
    void start_find(const sim::Properties& properties, int max_faults);
    void finish_find();

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

    // Side by side and narrated play (app_compare.cpp).
    std::unique_ptr<ComparePair> compare_;
    Narration narrate_;
    After on(const command::CompareOpen& c);
    After on(const command::CompareSetB& c);
    After on(const command::CompareClose& c);
    After on(const command::ExportPairSvg& c);
    After on(const command::NarrateToggle& c);
    After on(const command::SetPace& c);
    // Narrated play's step (from advance).
    void narrate_step(double dt);

public:
    const ComparePair* compare() const { return compare_.get(); }
    bool narrating() const { return narrate_.on; }
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
    void set_remember_settings(bool on) { remember_settings_ = on; }
    std::size_t trace_event_count() const { return timeline_ ? timeline_->trace().events.size() : 0; }

private:
    bool remember_settings_ = true;
};

// One step of Ctrl+plus / Ctrl+minus, and the bounds of the UI scale.
inline constexpr int scale_step_percent = 25;
inline constexpr int scale_min_percent = 100;
inline constexpr int scale_max_percent = 250;

// $XDG_CONFIG_HOME/leasescope or ~/.config/leasescope (created on demand).
std::string default_config_dir();

}  // namespace leasescope::gui
