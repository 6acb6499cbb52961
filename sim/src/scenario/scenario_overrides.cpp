// `--set path=value`: splitting the text, and applying a value to the
// document by its path before the scenario is read.
#include <algorithm>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim {
namespace scenario_detail {
namespace {

// "candidates/1/start" or "defaults.lease" as a JSON pointer.
std::string override_pointer(const std::string& path) {
    std::string pointer;
    std::string part;
    auto flush = [&] {
        std::string escaped;
        for (const char c : part) {
            if (c == '~')
                escaped += "~0";
            else
                escaped += c;
        }
        pointer += "/" + escaped;
        part.clear();
    };
    for (const char c : path) {
        if (c == '.' || c == '/') {
            flush();
        } else {
            part += c;
        }
    }
    flush();
    return pointer;
}

}  // namespace

void apply_override(json& root, const Override& o) {
    // The value is quoted clipped: a long --set value must not make a long error line.
    const std::string shown_value =
        o.value.size() <= static_cast<std::size_t>(limits::quoted_bytes_max) ? o.value : quote(o.value);
    const std::string where = fmt::format("--set {}={}", path_part(o.path), shown_value);
    // A path copied from an error message starts with '/': accept it.
    const std::string pointer = override_pointer(o.path.size() > 1 && o.path[0] == '/' ? o.path.substr(1) : o.path);
    const auto depth = static_cast<std::int64_t>(std::count(pointer.begin(), pointer.end(), '/'));
    if (depth >= limits::json_depth_max)
        fail(where, fmt::format("a path of {} parts; at most {} (json_depth_max)", depth, limits::json_depth_max - 1));
    // The value follows the rules of a file: no NUL byte, the same limits, no
    // duplicate keys; where it is not JSON it is a plain string.
    json value;
    try {
        std::optional<SyntaxError> syntax;
        if (auto parsed = parse_bounded(o.value, "", depth, syntax)) {
            value = std::move(*parsed);
        } else if (o.value.find('\0') != std::string::npos) {
            fail(where, "the value contains a NUL byte (\\0)");
        } else {
            // Not JSON (a syntax error), or a number beyond a double (1e400):
            // a plain string, which validation then rejects.
            if (static_cast<std::int64_t>(o.value.size()) > limits::json_string_bytes_max)
                fail(where, fmt::format("a value of {} bytes; at most {} (json_string_bytes_max)", o.value.size(),
                                        limits::json_string_bytes_max));
            value = o.value;
            // The JSON parser only lets valid UTF-8 in; a plain string must
            // be too, or every later dump() of it (errors, traces) would throw.
            try {
                (void)value.dump();
            } catch (const json::type_error&) {
                fail(where, "the value is not valid UTF-8");
            }
        }
    } catch (const Failure& f) {
        if (f.where == where) throw;
        fail(where, fmt::format("{}: {}", f.where, f.message));
    }
    // Walk the path: objects are created as needed, array indices must exist.
    json* node = &root;
    std::string walked;
    std::size_t pos = 1;
    while (true) {
        const std::size_t slash = pointer.find('/', pos);
        const std::string key = pointer.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
        walked += "/" + key;
        if (key.empty()) fail(where, "empty path component; expected a path like defaults.lease or candidates/1/start");
        json* next = nullptr;
        if (node->is_array()) {
            const bool digits = std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits || key.size() > 9)
                fail(where, fmt::format("{} is an array: expected an index, found \"{}\"", walked, key));
            const std::size_t index = std::stoul(key);
            if (index >= node->size())
                fail(where,
                     fmt::format("{}: index {} is out of range (the array has {} items)", walked, index, node->size()));
            next = &(*node)[index];
        } else if (node->is_object() || node->is_null()) {
            next = &(*node)[key];
        } else {
            fail(where, fmt::format("{} is not an object or array", walked.substr(0, walked.rfind('/'))));
        }
        if (slash == std::string::npos) {
            *next = value;
            return;
        }
        node = next;
        pos = slash + 1;
    }
}

}  // namespace scenario_detail

Result<Override, std::string> parse_override(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return Err{fmt::format("--set {}: expected PATH=VALUE, like defaults.lease=8 or candidates/1/start=3", text)};
    return Override{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

}  // namespace leasescope::sim
