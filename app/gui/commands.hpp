#pragma once
// What views ask the app to do. Views never touch the simulation: they read a
// const frame context and push commands, which the app applies between frames.
#include <cstdint>
#include <string>
#include <vector>

#include "core/edit.hpp"

namespace leasescope::gui {

struct Command {
    enum class Kind {
        seek,          // value: tick
        step,          // value: +1 / -1 ticks
        next_event,    // jump to the next tick with an event
        prev_event,
        toggle_play,
        set_speed,     // number: ticks per second
        restart,
        fit,           // fit the timeline to the whole run
        select_event,  // value: event index (also seeks there)
        edit,          // edits
        load_preset,   // text: path
        open_path,     // text: path
        save_path,     // text: path
        set_lang,      // text: "en" / "ko"
        tour_goto,     // value: step index
        tour_stop,
        reset_layout,  // place every panel on the computed layout again
        set_top_height,  // number: the height the top bar needs (its knobs and the lesson wrap)
        export_png,    // text: path
        export_svg,    // text: path
        export_jsonl,  // text: path
        live_toggle,   // show or hide the Live panel
        live_run,      // text: Redis URL (password included), value: tick_ms (0: the scenario's)
        live_cancel,
        find_toggle,   // show or hide the "find a counterexample" panel
        find_run,      // text: properties ("unsafe_write,liveness"), value: max faults
        find_cancel,
        open_picker,   // the shell's own file dialog (the browser's); the file comes back as open_path
    };
    Kind kind = Kind::seek;
    std::int64_t value = 0;
    double number = 0;
    std::string text;
    std::vector<Edit> edits;
};

using Commands = std::vector<Command>;

inline Command cmd(Command::Kind kind, std::int64_t value = 0) {
    Command c;
    c.kind = kind;
    c.value = value;
    return c;
}
inline Command cmd_text(Command::Kind kind, std::string text) {
    Command c;
    c.kind = kind;
    c.text = std::move(text);
    return c;
}
inline Command cmd_edit(std::vector<Edit> edits) {
    Command c;
    c.kind = Command::Kind::edit;
    c.edits = std::move(edits);
    return c;
}

}  // namespace leasescope::gui
