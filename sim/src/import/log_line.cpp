// One line of an application's log (docs/model.md §19.6.1–2): JSON Lines with
// `ts`, `node`, `event` and optional `token`, `fencing`, `resource`, `value`;
// every error names the file, the line, the key and what was expected. Also
// the JSON Schema of such a line (`leasescope-cli schema --import-log`).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "leasescope/sim/import.hpp"
#include "leasescope/sim/text_list.hpp"

namespace leasescope::sim::import {
namespace {

using json = nlohmann::json;

constexpr std::array<LogEvent, 9> log_events = {LogEvent::acquired,    LogEvent::extended,  LogEvent::lost,
                                                LogEvent::released,    LogEvent::write,     LogEvent::write_rejected,
                                                LogEvent::pause_start, LogEvent::pause_end, LogEvent::crashed};
constexpr std::array<std::string_view, 7> log_keys = {"ts", "node", "event", "token", "fencing", "resource", "value"};
// Epoch milliseconds up to 9999-12-31T23:59:59.999Z: a time in microseconds
// then fits an int64 with room for --log-shift.
constexpr std::int64_t log_epoch_ms_max = 253'402'300'799'999;

// A log line's error: thrown inside this file only, turned into "FILE:LINE: …".
struct LogFailure {
    std::string message;
};

// "; did you mean \"node\"?" for a near word, else the list of the words
// expected: the scenario reader's rule (text_list.hpp did_you_mean).
std::string log_suggestion(std::string_view word, const std::vector<std::string_view>& known) {
    return did_you_mean(word, std::vector<std::string>(known.begin(), known.end()));
}

// What the user wrote, quoted as JSON and cut after 64 bytes.
std::string log_quote(std::string_view s) {
    const bool cut = s.size() > 64;
    const std::string shown =
        json(std::string(cut ? s.substr(0, 64) : s)).dump(-1, ' ', false, json::error_handler_t::replace);
    return cut ? fmt::format("{}… ({} bytes)", shown, s.size()) : shown;
}

std::string log_describe(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
        case json::value_t::string: return "the string " + log_quote(v.get_ref<const std::string&>());
        case json::value_t::array: return "an array";
        case json::value_t::object: return "an object";
        case json::value_t::number_float: return fmt::format("the number {}", v.dump());
        default: return fmt::format("the number {}", v.dump());
    }
}

// Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil).
std::int64_t log_days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) {
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool log_leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// Reads `count` decimal digits at `pos`; -1 when they are not all digits.
std::int64_t log_digits(std::string_view s, std::size_t pos, std::size_t count) {
    if (pos + count > s.size()) return -1;
    std::int64_t v = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

const char* const log_ts_form = "expected an RFC 3339 time such as \"2026-12-04T09:15:02.123Z\" or epoch milliseconds";

// The zone of an RFC 3339 time from `pos`: Z or ±HH:MM, in seconds east of UTC.
std::int64_t log_zone_seconds(std::string_view s, std::size_t pos) {
    if (pos >= s.size()) throw LogFailure{"\"ts\" has no zone: add Z or an offset such as +09:00"};
    if ((s[pos] == 'Z' || s[pos] == 'z') && pos + 1 == s.size()) return 0;
    const std::int64_t hh = log_digits(s, pos + 1, 2);
    const std::int64_t mm = log_digits(s, pos + 4, 2);
    if ((s[pos] != '+' && s[pos] != '-') || pos + 6 != s.size() || s[pos + 3] != ':' || hh < 0 || hh > 23 || mm < 0 ||
        mm > 59)
        throw LogFailure{fmt::format("\"ts\" {}: the zone at column {} should be Z or an offset such as +09:00",
                                     log_quote(s), pos + 1)};
    return (s[pos] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
}

// An RFC 3339 time ("2026-12-04T09:15:02.123456+09:00") in microseconds since
// the epoch; fractions finer than a microsecond are cut off. `resolution_us`:
// the width its digits give (rule 19.6.5).
std::int64_t log_rfc3339_us(std::string_view s, std::int64_t& resolution_us) {
    const std::int64_t y = log_digits(s, 0, 4), mo = log_digits(s, 5, 2), d = log_digits(s, 8, 2);
    const std::int64_t h = log_digits(s, 11, 2), mi = log_digits(s, 14, 2), se = log_digits(s, 17, 2);
    const bool shape = s.size() >= 19 && s[4] == '-' && s[7] == '-' && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') &&
                       s[13] == ':' && s[16] == ':';
    if (!shape || y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || se < 0)
        throw LogFailure{fmt::format("\"ts\" is {}: {}", log_quote(s), log_ts_form)};
    constexpr std::array<std::int64_t, 12> month_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool date_ok =
        mo >= 1 && mo <= 12 && d >= 1 &&
        d <= month_days[static_cast<std::size_t>(mo >= 1 && mo <= 12 ? mo - 1 : 0)] + (mo == 2 && log_leap(y) ? 1 : 0);
    if (!date_ok || h > 23 || mi > 59 || se > 60)
        throw LogFailure{fmt::format("\"ts\" is {}: no such date or time of day", log_quote(s))};
    std::size_t pos = 19;
    std::int64_t micros = 0;
    resolution_us = 1'000'000;
    if (pos < s.size() && s[pos] == '.') {
        std::size_t digits = 0;
        for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits)
            if (digits < 6) micros = micros * 10 + (s[pos] - '0');
        if (digits == 0) throw LogFailure{fmt::format("\"ts\" is {}: expected digits after the point", log_quote(s))};
        resolution_us = 1;
        for (; digits < 6; ++digits) {
            micros *= 10;
            resolution_us *= 10;
        }
    }
    const std::int64_t zone = log_zone_seconds(s, pos);
    const std::int64_t seconds = log_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - zone;
    return seconds * 1'000'000 + micros;
}

std::int64_t log_ts_us(const json& v, std::int64_t& resolution_us) {
    resolution_us = 1000;  // epoch milliseconds
    if (v.is_string()) return log_rfc3339_us(v.get_ref<const std::string&>(), resolution_us);
    if (v.is_number_integer()) {
        const bool fits = v.is_number_unsigned()
                              ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(log_epoch_ms_max)
                              : v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() <= log_epoch_ms_max;
        if (!fits)
            throw LogFailure{
                fmt::format("\"ts\" is {}: epoch milliseconds must be 0 … {}", v.dump(), log_epoch_ms_max)};
        return v.get<std::int64_t>() * 1000;
    }
    throw LogFailure{fmt::format("\"ts\" is {}: {}", log_describe(v), log_ts_form)};
}

std::string log_string(const json& object, std::string_view key, bool required) {
    const auto it = object.find(std::string(key));
    if (it == object.end()) {
        if (required) throw LogFailure{fmt::format("\"{}\" is missing: expected a string", key)};
        return {};
    }
    if (!it->is_string() || (required && it->get_ref<const std::string&>().empty()))
        throw LogFailure{
            fmt::format("\"{}\" is {}: expected a {}string", key, log_describe(*it), required ? "non-empty " : "")};
    return it->get<std::string>();
}

std::optional<std::string> log_optional_string(const json& object, std::string_view key) {
    if (!object.contains(std::string(key))) return std::nullopt;
    return log_string(object, key, false);
}

LogEvent log_event_of(const json& object) {
    const std::string word = log_string(object, "event", true);
    for (const LogEvent e : log_events)
        if (word == to_string(e)) return e;
    std::vector<std::string_view> known;
    for (const LogEvent e : log_events) known.emplace_back(to_string(e));
    throw LogFailure{fmt::format("\"event\" is {}{}", log_quote(word), log_suggestion(word, known))};
}

std::optional<Fencing> log_fencing_of(const json& object) {
    const auto it = object.find("fencing");
    if (it == object.end()) return std::nullopt;
    const bool ok = it->is_number_unsigned() ? it->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX)
                                             : it->is_number_integer() && it->get<std::int64_t>() >= 0;
    if (!ok) throw LogFailure{fmt::format("\"fencing\" is {}: expected an integer >= 0", log_describe(*it))};
    return it->get<Fencing>();
}

LogEntry log_entry_of(const json& object, std::int64_t shift_ms) {
    if (!object.is_object())
        throw LogFailure{fmt::format("the line is {}: expected a JSON object", log_describe(object))};
    std::vector<std::string_view> known(log_keys.begin(), log_keys.end());
    for (const auto& [key, value] : object.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
            throw LogFailure{fmt::format("unknown key {}{}", log_quote(key), log_suggestion(key, known))};
    if (!object.contains("ts")) throw LogFailure{fmt::format("\"ts\" is missing: {}", log_ts_form)};
    LogEntry entry;
    entry.wall_us = log_ts_us(object.at("ts"), entry.resolution_us) + shift_ms * 1000;
    entry.node = log_string(object, "node", true);
    entry.event = log_event_of(object);
    entry.token = log_optional_string(object, "token");
    entry.fencing = log_fencing_of(object);
    entry.resource = log_optional_string(object, "resource");
    entry.value = log_optional_string(object, "value");
    return entry;
}

bool log_blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

}  // namespace

const char* to_string(LogEvent e) {
    switch (e) {
        case LogEvent::acquired: return "acquired";
        case LogEvent::extended: return "extended";
        case LogEvent::lost: return "lost";
        case LogEvent::released: return "released";
        case LogEvent::write: return "write";
        case LogEvent::write_rejected: return "write_rejected";
        case LogEvent::pause_start: return "pause_start";
        case LogEvent::pause_end: return "pause_end";
        case LogEvent::crashed: return "crashed";
    }
    return "?";
}

std::optional<LogEntry> parse_log_line(std::string_view text, std::string_view file, std::int32_t source,
                                       std::int64_t line, std::int64_t shift_ms, std::string& error) {
    error.clear();
    if (log_blank(text)) return std::nullopt;
    json object = json::parse(text.begin(), text.end(), nullptr, false);
    if (object.is_discarded()) {
        error = fmt::format("{}:{}: expected one JSON object on the line (not valid JSON)", file, line);
        return std::nullopt;
    }
    try {
        LogEntry entry = log_entry_of(object, shift_ms);
        entry.source = source;
        entry.line = line;
        return entry;
    } catch (const LogFailure& f) {
        error = fmt::format("{}:{}: {}", file, line, f.message);
        return std::nullopt;
    }
}

std::string log_schema_json() {
    using ordered = nlohmann::ordered_json;
    ordered events = ordered::array();
    for (const LogEvent e : log_events) events.push_back(to_string(e));
    ordered schema;
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    schema["$id"] = "https://leasescope.invalid/schema/import-log-line.json";
    schema["title"] = "One line of an application log for leasescope-cli import (docs/model.md §19.6)";
    schema["type"] = "object";
    ordered props;
    props["ts"]["description"] = "RFC 3339 with Z or an offset (fractions allowed), or epoch milliseconds";
    props["ts"]["oneOf"] = ordered::array(
        {ordered{
             {"type", "string"},
             {"pattern",
              "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"}},
         ordered{{"type", "integer"}, {"minimum", 0}, {"maximum", log_epoch_ms_max}}});
    props["node"] = ordered{{"type", "string"}, {"minLength", 1}};
    props["event"] = ordered{{"enum", events}};
    props["token"] = ordered{{"type", "string"}};
    props["fencing"] = ordered{{"type", "integer"}, {"minimum", 0}};
    props["resource"] = ordered{{"type", "string"}};
    props["value"] = ordered{{"type", "string"}};
    schema["properties"] = props;
    schema["required"] = ordered::array({"ts", "node", "event"});
    schema["additionalProperties"] = false;
    return schema.dump(2) + "\n";
}

}  // namespace leasescope::sim::import
