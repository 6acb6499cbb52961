// One colour per state, shared by every view and the SVG export (palette.hpp).
#include "palette.hpp"

#include <algorithm>
#include <cmath>

#include <cstdio>

#include <nlohmann/json.hpp>

namespace leasescope::gui {

std::string Rgba::hex() const {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
    return buf;
}

bool parse_hex(std::string_view text, Rgba& out) {
    if (text.size() != 7 && text.size() != 9) return false;
    if (text[0] != '#') return false;
    unsigned v[4] = {0, 0, 0, 255};
    for (std::size_t i = 0; i * 2 + 1 < text.size(); ++i) {
        unsigned x = 0;
        for (std::size_t k = 1 + i * 2; k < 3 + i * 2; ++k) {
            const char ch = text[k];
            x <<= 4;
            if (ch >= '0' && ch <= '9')
                x |= static_cast<unsigned>(ch - '0');
            else if (ch >= 'a' && ch <= 'f')
                x |= static_cast<unsigned>(ch - 'a' + 10);
            else if (ch >= 'A' && ch <= 'F')
                x |= static_cast<unsigned>(ch - 'A' + 10);
            else
                return false;
        }
        v[i] = x;
    }
    out = Rgba{static_cast<std::uint8_t>(v[0]), static_cast<std::uint8_t>(v[1]), static_cast<std::uint8_t>(v[2]),
               static_cast<std::uint8_t>(v[3])};
    return true;
}

const char* span_kind_name(SpanKind kind) {
    switch (kind) {
        case SpanKind::idle: return "idle";
        case SpanKind::waiting: return "waiting";
        case SpanKind::running: return "running";
        case SpanKind::stale: return "stale";
        case SpanKind::done: return "done";
        case SpanKind::crashed: return "crashed";
        case SpanKind::paused: return "paused";
        case SpanKind::partition_requests: return "partition_requests";
        case SpanKind::partition_replies: return "partition_replies";
        case SpanKind::record: return "record";
        case SpanKind::holdoff: return "holdoff";
        case SpanKind::overlap: return "overlap";
        case SpanKind::fence: return "fence";
        case SpanKind::cut: return "cut_span";
        case SpanKind::validity: return "validity";
        case SpanKind::count_: break;
    }
    return "?";
}

const char* marker_kind_name(MarkerKind kind) {
    switch (kind) {
        case MarkerKind::start: return "start";
        case MarkerKind::acquire: return "acquire";
        case MarkerKind::acquire_busy: return "acquire_busy";
        case MarkerKind::acquire_error: return "acquire_error";
        case MarkerKind::acquire_regressed: return "acquire_regressed";
        case MarkerKind::acquire_duplicate: return "acquire_duplicate";
        case MarkerKind::skip: return "skip";
        case MarkerKind::extend: return "extend";
        case MarkerKind::extend_lost: return "extend_lost";
        case MarkerKind::extend_error: return "extend_error";
        case MarkerKind::release: return "release";
        case MarkerKind::release_rejected: return "release_rejected";
        case MarkerKind::release_error: return "release_error";
        case MarkerKind::release_left_alone: return "release_left_alone";
        case MarkerKind::release_no_key: return "release_no_key";
        case MarkerKind::expire: return "expire";
        case MarkerKind::write_current: return "write_current";
        case MarkerKind::write_stale: return "write_stale";
        case MarkerKind::write_unsafe: return "write_unsafe";
        case MarkerKind::write_rejected_fence: return "write_rejected_fence";
        case MarkerKind::write_rejected_token: return "write_rejected_token";
        case MarkerKind::write_rejected_recorded: return "write_rejected_recorded";
        case MarkerKind::write_lost_update: return "write_lost_update";
        case MarkerKind::write_holder_rejected: return "write_holder_rejected";
        case MarkerKind::pause: return "pause";
        case MarkerKind::resume: return "resume";
        case MarkerKind::crash: return "crash";
        case MarkerKind::partition: return "partition";
        case MarkerKind::heal: return "heal";
        case MarkerKind::failover_leases: return "failover_leases";
        case MarkerKind::failover_all: return "failover_all";
        case MarkerKind::op_read: return "op_read";
        case MarkerKind::clock_jump: return "clock_jump";
        case MarkerKind::overlap_begin: return "overlap_begin";
        case MarkerKind::overlap_end: return "overlap_end";
        case MarkerKind::link_cut: return "link_cut";
        case MarkerKind::link_restored: return "link_restored";
        case MarkerKind::promote: return "promote";
        case MarkerKind::wait_synced: return "wait_synced";
        case MarkerKind::wait_not_synced: return "wait_not_synced";
        case MarkerKind::refused: return "refused";
        case MarkerKind::believe_leader: return "believe_leader";
        case MarkerKind::believe_follower: return "believe_follower";
        case MarkerKind::undecided: return "undecided";
        case MarkerKind::unlock_message: return "unlock_message";
        case MarkerKind::unlock_message_lost: return "unlock_message_lost";
        case MarkerKind::count_: break;
    }
    return "?";
}

// The lanes' span colours of the default palette.
static void default_span_colours(Palette& p) {
    auto set = [&](SpanKind k, Rgba c) { p.span[static_cast<int>(k)] = c; };
    set(SpanKind::idle, {200, 204, 210, 255});
    set(SpanKind::waiting, {244, 180, 40, 255});  // amber: trying
    set(SpanKind::running, {34, 160, 90, 255});   // green: valid lease
    set(SpanKind::stale, {235, 0, 80, 255});      // hot crimson: the loudest
    set(SpanKind::done, {170, 176, 186, 255});
    set(SpanKind::crashed, {45, 45, 52, 255});
    set(SpanKind::paused, {70, 110, 200, 255});  // blue hatching over the lane
    set(SpanKind::partition_requests, {140, 80, 200, 255});
    set(SpanKind::partition_replies, {190, 90, 210, 255});
    set(SpanKind::record, {40, 110, 190, 255});
    set(SpanKind::holdoff, {200, 140, 40, 255});
    set(SpanKind::overlap, {235, 0, 80, 40});
    set(SpanKind::fence, {90, 100, 120, 255});
    set(SpanKind::cut, {120, 120, 130, 255});     // grey hatching: a frozen copy
    set(SpanKind::validity, {20, 140, 70, 255});  // the acquisition's green: how long the lock it won is good for
}

Palette default_palette() {
    Palette p;
    default_span_colours(p);
    auto mk = [&](MarkerKind k, Rgba c) { p.marker[static_cast<int>(k)] = c; };
    // Families share a hue (failures red, "no answer" purple, the fence
    // slate); inside a family the shapes tell the outcomes apart.
    const Rgba good{20, 140, 70, 255}, refused{200, 40, 40, 255}, no_answer{130, 60, 190, 255},
        neutral{90, 96, 110, 255};
    mk(MarkerKind::start, neutral);
    mk(MarkerKind::acquire, good);
    mk(MarkerKind::acquire_busy, {190, 140, 30, 255});
    mk(MarkerKind::acquire_error, no_answer);
    mk(MarkerKind::acquire_regressed, {175, 0, 175, 255});
    mk(MarkerKind::skip, {105, 105, 120, 255});
    mk(MarkerKind::extend, {20, 140, 150, 255});
    mk(MarkerKind::extend_lost, refused);
    mk(MarkerKind::extend_error, no_answer);
    mk(MarkerKind::release, {40, 110, 190, 255});
    mk(MarkerKind::release_rejected, refused);
    mk(MarkerKind::release_error, no_answer);
    mk(MarkerKind::release_left_alone, neutral);  // a Redlock unlock that deletes nothing: no failure
    mk(MarkerKind::release_no_key, neutral);
    mk(MarkerKind::expire, {230, 110, 0, 255});
    mk(MarkerKind::write_current, good);
    mk(MarkerKind::write_stale, {235, 0, 80, 255});           // the stale colour: the writer's lease was gone
    mk(MarkerKind::write_unsafe, {175, 0, 45, 255});          // darker and bigger: the violation
    mk(MarkerKind::write_rejected_fence, {55, 65, 95, 255});  // the fence line's slate
    mk(MarkerKind::write_rejected_token, {85, 60, 175, 255});
    mk(MarkerKind::write_rejected_recorded, {55, 65, 95, 255});  // a replay's rejection: never beside the fence's
    // The safety marks (model.md §9.6-§9.8) take their family's colour; the
    // shapes tell them apart.
    mk(MarkerKind::write_lost_update, {175, 0, 45, 255});      // the violation's, as write_unsafe
    mk(MarkerKind::write_holder_rejected, {55, 65, 95, 255});  // the fence's, as write_rejected_fence
    mk(MarkerKind::acquire_duplicate, {175, 0, 175, 255});     // as acquire_regressed
    mk(MarkerKind::pause, {70, 110, 200, 255});
    mk(MarkerKind::resume, {70, 110, 200, 255});
    mk(MarkerKind::crash, {45, 45, 52, 255});
    mk(MarkerKind::partition, {140, 80, 200, 255});
    mk(MarkerKind::heal, {140, 80, 200, 255});
    mk(MarkerKind::failover_leases, {190, 70, 20, 255});
    mk(MarkerKind::failover_all, {150, 20, 20, 255});
    mk(MarkerKind::op_read, neutral);
    mk(MarkerKind::unlock_message, {40, 110, 190, 255});  // the unlock's colour: its message
    mk(MarkerKind::unlock_message_lost, refused);
    mk(MarkerKind::clock_jump, {120, 80, 30, 255});  // brown: no other mark has it
    mk(MarkerKind::overlap_begin, {235, 0, 80, 255});
    mk(MarkerKind::overlap_end, {235, 0, 80, 255});
    mk(MarkerKind::link_cut, {140, 80, 200, 255});       // the partition's family: a link cut
    mk(MarkerKind::link_restored, {140, 80, 200, 255});  // … and whole again
    mk(MarkerKind::promote, {190, 70, 20, 255});         // the failover's
    mk(MarkerKind::wait_synced, good);
    mk(MarkerKind::wait_not_synced, refused);
    mk(MarkerKind::refused, refused);
    mk(MarkerKind::believe_leader, {20, 110, 60, 255});  // a darker green than the running span it sits on
    mk(MarkerKind::believe_follower, {20, 110, 60, 255});
    mk(MarkerKind::undecided, {150, 110, 0, 255});  // ochre: no other mark has it
    return p;
}

// The marks of replication (model.md §17) in the high-contrast palette: Okabe–Ito's colours.
static void high_contrast_replication(Palette& p) {
    const Rgba blue{0, 114, 178, 255}, vermillion{213, 94, 0, 255}, purple{204, 121, 167, 255};
    auto mk = [&](MarkerKind k, Rgba c) { p.marker[static_cast<int>(k)] = c; };
    mk(MarkerKind::link_cut, purple);
    mk(MarkerKind::link_restored, purple);
    mk(MarkerKind::promote, vermillion);
    mk(MarkerKind::wait_synced, blue);
    mk(MarkerKind::wait_not_synced, vermillion);
    mk(MarkerKind::refused, vermillion);
}

// Okabe and Ito's colours, far apart for every kind of colour vision, and two of our own.
constexpr Rgba hc_blue{0, 114, 178, 255}, hc_orange{230, 159, 0, 255}, hc_vermillion{213, 94, 0, 255},
    hc_sky{86, 180, 233, 255}, hc_purple{204, 121, 167, 255}, hc_yellow{240, 228, 66, 255}, hc_black{0, 0, 0, 255},
    hc_grey{150, 150, 150, 255}, hc_dark_blue{0, 60, 120, 255};

// The high-contrast palette's marker colours.
static void high_contrast_markers(Palette& p) {
    const Rgba blue = hc_blue, orange = hc_orange, vermillion = hc_vermillion, sky = hc_sky, purple = hc_purple,
               black = hc_black, grey = hc_grey, dark_blue = hc_dark_blue;
    auto mk = [&](MarkerKind k, Rgba c) { p.marker[static_cast<int>(k)] = c; };
    mk(MarkerKind::start, grey);
    mk(MarkerKind::acquire, blue);
    mk(MarkerKind::acquire_busy, orange);
    mk(MarkerKind::acquire_error, purple);
    mk(MarkerKind::acquire_regressed, black);
    mk(MarkerKind::skip, grey);
    mk(MarkerKind::extend, sky);
    mk(MarkerKind::extend_lost, vermillion);
    mk(MarkerKind::extend_error, purple);
    mk(MarkerKind::release, dark_blue);
    mk(MarkerKind::release_rejected, vermillion);
    mk(MarkerKind::release_error, purple);
    mk(MarkerKind::release_left_alone, grey);
    mk(MarkerKind::release_no_key, grey);
    mk(MarkerKind::expire, orange);
    // The five writes: five colours far apart for every kind of colour vision.
    mk(MarkerKind::write_current, blue);
    mk(MarkerKind::write_stale, orange);
    mk(MarkerKind::write_unsafe, black);
    mk(MarkerKind::write_rejected_fence, sky);
    mk(MarkerKind::write_rejected_token, purple);
    mk(MarkerKind::write_rejected_recorded, sky);
    mk(MarkerKind::write_lost_update, black);
    mk(MarkerKind::write_holder_rejected, sky);
    mk(MarkerKind::acquire_duplicate, black);
    mk(MarkerKind::pause, sky);
    mk(MarkerKind::resume, sky);
    mk(MarkerKind::crash, black);
    mk(MarkerKind::partition, purple);
    mk(MarkerKind::heal, purple);
    mk(MarkerKind::failover_leases, vermillion);
    mk(MarkerKind::failover_all, black);
    mk(MarkerKind::op_read, grey);
    mk(MarkerKind::unlock_message, dark_blue);
    mk(MarkerKind::unlock_message_lost, vermillion);
    mk(MarkerKind::clock_jump, black);
    mk(MarkerKind::overlap_begin, vermillion);
    mk(MarkerKind::overlap_end, vermillion);
}

Palette high_contrast_palette() {
    Palette p = default_palette();
    p.text = {0, 0, 0, 255};
    p.text_dim = {60, 60, 60, 255};
    p.background = {255, 255, 255, 255};
    p.lane_even = {255, 255, 255, 255};
    p.lane_odd = {236, 236, 236, 255};
    p.grid = {120, 120, 120, 255};
    p.playhead = {0, 0, 0, 255};
    p.focus = {230, 159, 0, 255};
    p.message = {60, 60, 60, 255};
    p.message_late = {204, 121, 167, 255};  // Okabe–Ito's purple
    p.message_lost = {213, 94, 0, 255};     // … vermillion
    const Rgba blue = hc_blue, orange = hc_orange, vermillion = hc_vermillion, sky = hc_sky, purple = hc_purple,
               yellow = hc_yellow, black = hc_black, grey = hc_grey, dark_blue = hc_dark_blue;
    auto set = [&](SpanKind k, Rgba c) { p.span[static_cast<int>(k)] = c; };
    set(SpanKind::idle, {215, 215, 215, 255});
    set(SpanKind::waiting, yellow);
    set(SpanKind::running, blue);
    set(SpanKind::stale, vermillion);
    set(SpanKind::done, grey);
    set(SpanKind::crashed, black);
    // Black hatching: it shows over every state a paused node can be in
    // (yellow, blue, vermillion), where sky blue vanished over the blue of a valid lease.
    set(SpanKind::paused, black);
    set(SpanKind::partition_requests, purple);
    set(SpanKind::partition_replies, {170, 80, 130, 255});
    set(SpanKind::record, dark_blue);
    set(SpanKind::holdoff, orange);
    set(SpanKind::overlap, {213, 94, 0, 60});
    set(SpanKind::fence, black);
    set(SpanKind::cut, grey);
    set(SpanKind::validity, blue);
    p.owners[0] = dark_blue;
    p.owners[1] = orange;
    p.owners[2] = purple;
    p.owners[3] = sky;
    high_contrast_markers(p);
    high_contrast_replication(p);
    return p;
}

double contrast_ratio(const Rgba& a, const Rgba& b) {
    const auto channel = [](std::uint8_t v) {
        const double c = v / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const auto luminance = [&](const Rgba& c) {
        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

void apply_style_json(Palette& palette, std::string_view json_text, float* font_px) {
    nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false, true);
    if (j.is_discarded() || !j.is_object()) return;
    if (font_px && j.contains("font_px") && j["font_px"].is_number()) *font_px = j["font_px"].get<float>();
    if (!j.contains("colors") || !j["colors"].is_object()) return;
    for (auto it = j["colors"].begin(); it != j["colors"].end(); ++it) {
        if (!it.value().is_string()) continue;
        Rgba c;
        if (!parse_hex(it.value().get<std::string>(), c)) continue;
        for (int k = 0; k < static_cast<int>(SpanKind::count_); ++k)
            if (it.key() == span_kind_name(static_cast<SpanKind>(k))) palette.span[k] = c;
        for (int k = 0; k < static_cast<int>(MarkerKind::count_); ++k)
            if (it.key() == std::string("marker.") + marker_kind_name(static_cast<MarkerKind>(k)))
                palette.marker[k] = c;
        if (it.key() == "playhead") palette.playhead = c;
        if (it.key() == "focus") palette.focus = c;
    }
}

SpanKind action_frame_kind(int inside, int stale, int capacity) {
    return stale > 0 || inside > capacity ? SpanKind::stale : SpanKind::running;
}

}  // namespace leasescope::gui
