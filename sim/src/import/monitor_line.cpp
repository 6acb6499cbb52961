// One line of a `redis-cli monitor` capture (docs/model.md §19.1.1–2): the
// fast scan that leaves arguments escaped, decoding, and Redis's sdscatrepr.
#include <cstring>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "leasescope/sim/import.hpp"
#include "monitor_scan.hpp"

namespace leasescope::sim::import {
namespace internal {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Columns in messages are 1-based byte positions.
std::string at_column(std::size_t pos) { return fmt::format("at column {}", pos + 1); }

// `SECONDS.MICROS` (six digits after the point) from the start of `text`.
bool scan_time(std::string_view text, std::size_t& pos, std::int64_t& ts_us) {
    std::int64_t seconds = 0;
    std::size_t digits = 0;
    while (pos < text.size() && is_digit(text[pos]) && digits < 12) {
        seconds = seconds * 10 + (text[pos++] - '0');
        ++digits;
    }
    if (digits == 0 || pos >= text.size() || text[pos] != '.') return false;
    ++pos;
    std::int64_t micros = 0;
    for (int i = 0; i < 6; ++i, ++pos) {
        if (pos >= text.size() || !is_digit(text[pos])) return false;
        micros = micros * 10 + (text[pos] - '0');
    }
    ts_us = seconds * 1'000'000 + micros;
    return true;
}

// `[DB CLIENT] ` after the time; pos is at the '['. A client is IP:PORT,
// [IPv6]:PORT, unix:PATH or lua, so it ends at the first ']' followed by a
// space (an IPv6 address's own ']' is followed by ':').
bool scan_header(std::string_view text, std::size_t& pos, RawLine& out, std::string& error) {
    const std::size_t open = pos++;
    std::int64_t db = 0;
    const std::size_t db_start = pos;
    while (pos < text.size() && is_digit(text[pos]) && pos - db_start < 9) db = db * 10 + (text[pos++] - '0');
    if (pos == db_start || pos >= text.size() || text[pos] != ' ') {
        error = fmt::format("expected the database number and a space {}", at_column(db_start));
        return false;
    }
    const std::size_t client_start = ++pos;
    std::size_t end = client_start;
    for (;;) {
        end = text.find(']', end);
        if (end == std::string_view::npos) {
            error = fmt::format("expected ']' to close the part that starts {} (a line cut short?)", at_column(open));
            return false;
        }
        if (end + 1 == text.size() || text[end + 1] == ' ') break;
        ++end;
    }
    out.db = static_cast<std::int32_t>(db);
    out.client = text.substr(client_start, end - client_start);
    out.lua = out.client == "lua";
    if (out.client.empty()) {
        error = fmt::format("expected a client (IP:PORT, unix:PATH or lua) {}", at_column(client_start));
        return false;
    }
    pos = end + 1;
    return true;
}

// One quoted argument; pos is at its opening quote, and ends after the
// closing one.
bool scan_arg(std::string_view text, std::size_t& pos, RawLine& out, std::string& error) {
    const std::size_t open = pos++;
    for (;;) {
        const std::size_t stop = text.find_first_of("\"\\", pos);
        if (stop == std::string_view::npos) {
            error =
                fmt::format("expected '\"' to close the argument that starts {} (a line cut short?)", at_column(open));
            return false;
        }
        if (text[stop] == '"') {
            out.args.push_back(text.substr(open + 1, stop - open - 1));
            pos = stop + 1;
            return true;
        }
        const char e = stop + 1 < text.size() ? text[stop + 1] : '\0';
        if (e == 'x') {
            if (stop + 3 < text.size() && hex_value(text[stop + 2]) >= 0 && hex_value(text[stop + 3]) >= 0) {
                pos = stop + 4;
                continue;
            }
        } else if (e != '\0' && std::strchr("\\\"nrtab", e) != nullptr) {
            pos = stop + 2;
            continue;
        }
        if (e == '\0') {
            error =
                fmt::format("expected '\"' to close the argument that starts {} (a line cut short?)", at_column(open));
        } else {
            error =
                fmt::format("expected an escape (\\\\, \\\", \\n, \\r, \\t, \\a, \\b or \\xHH) {}", at_column(stop));
        }
        return false;
    }
}

bool scan_args(std::string_view text, std::size_t pos, RawLine& out, std::string& error) {
    do {
        if (pos + 1 >= text.size() || text[pos] != ' ' || text[pos + 1] != '"') {
            error = fmt::format("expected ' \"' (a quoted argument) {}", at_column(pos));
            return false;
        }
        ++pos;
        if (!scan_arg(text, pos, out, error)) return false;
    } while (pos < text.size());
    return true;
}

}  // namespace

ScanKind scan_monitor_line(std::string_view text, RawLine& out, std::string& error) {
    out.args.clear();
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty() || text == "OK") return ScanKind::skip;
    std::size_t pos = 0;
    if (!scan_time(text, pos, out.ts_us)) {
        error = "expected the server's time SECONDS.MICROS (six digits after the point) at column 1";
        return ScanKind::bad;
    }
    if (pos + 1 < text.size() && text[pos] == ' ' && text[pos + 1] == '"') {
        error = fmt::format(
            "expected '[DB CLIENT]' {}: this is the output of Redis before 2.6, which LeaseScope does not read",
            at_column(pos + 1));
        return ScanKind::bad;
    }
    if (pos + 1 >= text.size() || text[pos] != ' ' || text[pos + 1] != '[') {
        error = fmt::format("expected ' [DB CLIENT]' after the time {}", at_column(pos));
        return ScanKind::bad;
    }
    ++pos;
    if (!scan_header(text, pos, out, error)) return ScanKind::bad;
    if (!scan_args(text, pos, out, error)) return ScanKind::bad;
    return ScanKind::line;
}

std::string unescape_arg(std::string_view raw) {
    std::string bytes;
    bytes.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\' || i + 1 >= raw.size()) {
            bytes.push_back(raw[i]);
            continue;
        }
        const char e = raw[++i];
        switch (e) {
            case 'n': bytes.push_back('\n'); break;
            case 'r': bytes.push_back('\r'); break;
            case 't': bytes.push_back('\t'); break;
            case 'a': bytes.push_back('\a'); break;
            case 'b': bytes.push_back('\b'); break;
            case 'x':
                if (i + 2 < raw.size() && hex_value(raw[i + 1]) >= 0 && hex_value(raw[i + 2]) >= 0) {
                    bytes.push_back(static_cast<char>(hex_value(raw[i + 1]) * 16 + hex_value(raw[i + 2])));
                    i += 2;
                } else {
                    bytes.push_back('\\');
                    bytes.push_back('x');
                }
                break;
            default: bytes.push_back(e); break;  // \\ and \"
        }
    }
    return bytes;
}

bool raw_is(std::string_view raw, std::string_view word) {
    if (raw.size() != word.size()) return false;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (c != word[i]) return false;
    }
    return true;
}

}  // namespace internal

LineParse parse_monitor_line(std::string_view text) {
    LineParse result;
    internal::RawLine raw;
    switch (internal::scan_monitor_line(text, raw, result.error)) {
        case internal::ScanKind::skip: result.kind = LineParse::Kind::skip; return result;
        case internal::ScanKind::bad: result.kind = LineParse::Kind::bad; return result;
        case internal::ScanKind::line: break;
    }
    result.kind = LineParse::Kind::line;
    result.line.ts_us = raw.ts_us;
    result.line.db = raw.db;
    result.line.client = std::string(raw.client);
    result.line.lua = raw.lua;
    result.line.args.reserve(raw.args.size());
    for (const std::string_view a : raw.args) result.line.args.push_back(internal::unescape_arg(a));
    return result;
}

// Redis 7.0 src/sds.c sdscatrepr, without the surrounding quotes.
std::string redis_repr(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '\\': out += "\\\\"; break;
            case '"': out += "\\\""; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\a': out += "\\a"; break;
            case '\b': out += "\\b"; break;
            default:
                if (c >= 0x20 && c <= 0x7e) {
                    out.push_back(ch);
                } else {
                    out += fmt::format("\\x{:02x}", c);
                }
        }
    }
    return out;
}

}  // namespace leasescope::sim::import
