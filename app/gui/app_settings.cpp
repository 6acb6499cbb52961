// What the app remembers between runs, in <config>/settings.json: the language, the speed, the window size, the
// UI scale, the high-contrast palette and the done exercises of each scenario. A missing file is a first run; a bad one is ignored with a warning.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "leasescope/io/files.hpp"
#include "platform.hpp"

namespace leasescope::gui {
namespace fs = std::filesystem;

std::string default_config_dir() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/leasescope";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.config/leasescope";
    return {};
}

void App::load_settings() {
    if (options_.config_dir.empty()) return;
    const std::string path = options_.config_dir + "/settings.json";
    std::error_code ec;
    if (!fs::exists(path, ec)) return;  // the first run
    std::string text;
    if (!read_text_file(path, text)) {
        std::fprintf(stderr, "leasescope: warning: cannot read %s; using the defaults\n", path.c_str());
        return;
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) {
        std::fprintf(stderr, "leasescope: warning: %s is not a JSON object; ignoring it (it is rewritten on exit)\n",
                     path.c_str());
        return;
    }
    // Each setting on its own: a wrong one is skipped, the others still count.
    if (j.contains("lang") && j["lang"].is_string())
        assets_.strings.set_lang(lang_from_code(j["lang"].get<std::string>()));
    if (j.contains("speed") && j["speed"].is_number()) doc_.speed = std::clamp(j["speed"].get<double>(), 0.5, 40.0);
    if (j.contains("window") && j["window"].is_array() && j["window"].size() == 2 &&
        j["window"][0].is_number_integer() && j["window"][1].is_number_integer()) {
        prefs_.window_w = std::clamp(j["window"][0].get<int>(), 320, 8192);
        prefs_.window_h = std::clamp(j["window"][1].get<int>(), 240, 8192);
    }
    if (j.contains("scale_percent") && j["scale_percent"].is_number_integer())
        prefs_.scale_percent = std::clamp(j["scale_percent"].get<int>(), scale_min_percent, scale_max_percent);
    // {"expiry-takeover": [1, 3]}: the done exercises by number; anything else is skipped.
    if (j.contains("exercises") && j["exercises"].is_object())
        for (const auto& [name, done] : j["exercises"].items())
            if (done.is_array())
                for (const auto& n : done)
                    if (n.is_number_integer() && n.get<int>() >= 1 && n.get<int>() <= 32)
                        exercise_progress_[name].insert(n.get<int>());
    if (j.contains("high_contrast") && j["high_contrast"].is_boolean()) {
        prefs_.high_contrast = j["high_contrast"].get<bool>();
        if (prefs_.high_contrast) prefs_.palette = high_contrast_palette();
    }
}

void App::save_settings() const {
    if (options_.config_dir.empty() || !prefs_.remember) return;
    std::error_code ec;
    fs::create_directories(options_.config_dir, ec);
    nlohmann::json j{{"lang", lang_code(assets_.strings.lang())},
                     {"speed", doc_.speed},
                     {"scale_percent", prefs_.scale_percent},
                     {"high_contrast", prefs_.high_contrast}};
    // The window size goes with imgui.ini: the remembered panel places only fit the same size.
    if (prefs_.window_w > 0 && prefs_.window_h > 0) j["window"] = {prefs_.window_w, prefs_.window_h};
    if (!exercise_progress_.empty()) {
        nlohmann::json done = nlohmann::json::object();
        for (const auto& [name, numbers] : exercise_progress_) done[name] = numbers;
        j["exercises"] = done;
    }
    // Whole or not at all (a crash never leaves half a file), never through a link.
    std::string why;
    if (!io::write_file(options_.config_dir + "/settings.json", j.dump(2) + "\n", why))
        std::fprintf(stderr, "leasescope: warning: cannot save the settings (%s)\n", why.c_str());
}

void App::set_scale(int percent) {
    percent = std::clamp(percent, scale_min_percent, scale_max_percent);
    if (percent == prefs_.scale_percent) return;
    prefs_.scale_percent = percent;
    assets_.fonts_dirty = true;
    screen_.relayout_pending = true;
    ++doc_.fit_generation;  // lanes change height: fit the timeline again
    save_settings();
}

void App::restart_frames() {
    views_ = make_views();
    // The screen as a new process starts it, but for what the flags chose.
    Screen fresh;
    fresh.panels = screen_.panels;
    fresh.code_open = screen_.code_open;
    fresh.force_layout = screen_.force_layout;
    fresh.tab = screen_.tab;
    screen_ = fresh;
}

void App::set_high_contrast(bool on) {
    if (on == prefs_.high_contrast) return;
    prefs_.high_contrast = on;
    if (on) {
        prefs_.palette = high_contrast_palette();
    } else {
        prefs_.palette = default_palette();
        if (!prefs_.style_text.empty()) apply_style_json(prefs_.palette, prefs_.style_text, nullptr);
    }
    assets_.fonts_dirty = true;  // the ImGui style's colours change with it
    ++doc_.timeline_generation;  // the timeline's cached picture is redrawn
    save_settings();
}

}  // namespace leasescope::gui

namespace leasescope::gui {

void App::set_panels(const PanelChoice& choice) {
    screen_.panels = choice;
    if (screen_.panels.limited && screen_.panels.open.test(panel_index(Panel::code)) && !screen_.code_open)
        apply({command::CodeToggle{}});
    request_relayout();
}

}  // namespace leasescope::gui
