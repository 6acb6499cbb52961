// Durations with units (model.md §11.7): parsing "30s" into ticks, and
// writing times back as text (durations.hpp).
#include "leasescope/sim/durations.hpp"

#include <array>
#include <limits>

#include <fmt/format.h>

namespace leasescope::sim {
namespace {

constexpr std::size_t digits_max = 15;

// 128-bit integers (a GCC and Clang extension; __extension__ keeps -Wpedantic quiet) hold the products below.
__extension__ using int128 = __int128;

struct DurationUnit {
    std::string_view name;
    std::int64_t us;
};
constexpr std::array<DurationUnit, 4> units{{{"ms", 1'000}, {"s", 1'000'000}, {"m", 60'000'000}, {"h", 3'600'000'000}}};

struct Parsed {
    int128 us = 0;
    std::string error;  // the reason, after "is not a duration: "
};

// Digits, an optional fraction and a unit: microseconds, or why not.
Parsed parse_duration(std::string_view text) {
    std::size_t pos = 0;
    int128 whole = 0, fraction = 0, scale = 1;
    std::size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits <= digits_max) {
        whole = whole * 10 + (text[pos++] - '0');
        ++digits;
    }
    const std::size_t whole_digits = digits;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits <= digits_max) {
            fraction = fraction * 10 + (text[pos++] - '0');
            scale *= 10;
            ++digits;
        }
        if (digits == whole_digits) return {0, "a digit must follow the point"};
    }
    if (digits == 0) return {0, "expected ticks (an integer) or a duration such as \"30s\", \"1500ms\" or \"2m\""};
    if (digits > digits_max) return {0, fmt::format("a duration has at most {} digits", digits_max)};
    const std::string_view unit = text.substr(pos);
    if (unit.empty())
        return {0, fmt::format("it has no unit: write ticks as a number ({}), a duration with ms, s, m or h",
                               text.substr(0, pos))};
    for (const DurationUnit& u : units) {
        if (unit != u.name) continue;
        if (fraction * u.us % scale != 0) return {0, "a duration is at most as fine as a microsecond"};
        return {whole * u.us + fraction * u.us / scale, ""};
    }
    return {0,
            "expected ticks (an integer) or a duration such as \"30s\", \"1500ms\" or \"2m\"; the unit is ms, s, m "
            "or h"};
}

}  // namespace

DurationTicks duration_ticks(std::string_view text, std::int64_t tick_ms) {
    const Parsed d = parse_duration(text);
    if (!d.error.empty()) return {0, "is not a duration: " + d.error};
    const int128 tick_us = static_cast<int128>(tick_ms) * 1000;
    const int128 ticks = d.us / tick_us;
    if (ticks > std::numeric_limits<std::int64_t>::max() / 4)
        return {0, fmt::format("is more than {} ticks", std::numeric_limits<std::int64_t>::max() / 4)};
    if (d.us % tick_us != 0) {
        const auto below = static_cast<std::int64_t>(ticks);
        return {0, fmt::format("is not a whole number of {} ms ticks: the nearest are {} ticks ({}) and {} ticks ({})",
                               tick_ms, below, duration_text(below * tick_ms * 1000), below + 1,
                               duration_text((below + 1) * tick_ms * 1000))};
    }
    return {static_cast<Tick>(ticks), ""};
}

bool looks_like_duration(std::string_view text) {
    const Parsed d = parse_duration(text);
    return d.error.empty();
}

std::string duration_text(std::int64_t us) {
    if (us == 0) return "0s";
    for (auto it = units.rbegin(); it != units.rend(); ++it) {
        const int128 thousandths = static_cast<int128>(us) * 1000 / it->us;
        if (thousandths * it->us != static_cast<int128>(us) * 1000 || thousandths < 1000) continue;
        std::string text = fmt::format("{}", static_cast<std::int64_t>(thousandths / 1000));
        const auto rest = static_cast<std::int64_t>(thousandths % 1000);
        if (rest != 0) {
            std::string decimals = fmt::format("{:03}", rest);
            while (decimals.back() == '0') decimals.pop_back();
            text += "." + decimals;
        }
        return text + std::string(it->name);
    }
    return fmt::format("{}µs", us);
}

std::string elapsed_text(Tick tick, std::int64_t tick_ms) {
    const std::int64_t ms = tick * tick_ms;
    const std::int64_t h = ms / 3'600'000, m = ms / 60'000 % 60, s = ms / 1000 % 60, rest = ms % 1000;
    if (h > 0) return fmt::format("{}:{:02}:{:02}.{:03}", h, m, s, rest);
    return fmt::format("{}:{:02}.{:03}", m, s, rest);
}

}  // namespace leasescope::sim
