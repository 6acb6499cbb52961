// How a scenario error names what the user wrote: bounded quotations and
// paths, line and column, a value's kind, and "did you mean" for a near word.
#include <algorithm>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"
#include "leasescope/sim/text_list.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

std::string json_quoted(std::string_view s) {
    return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// Edits between two words, a swap of neighbours counting as one ("mdoe" is
// one edit from "mode"): the optimal string alignment distance, in three
// rows of `rows` (reused from one call to the next).
std::size_t edit_distance(std::string_view a, std::string_view b, std::vector<std::size_t>& rows) {
    const std::size_t w = b.size() + 1;
    rows.assign(3 * w, 0);
    std::size_t* two_up = rows.data();  // row i - 2
    std::size_t* up = two_up + w;       // row i - 1
    std::size_t* row = up + w;          // row i
    for (std::size_t j = 0; j < w; ++j) up[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j < w; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({up[j] + 1, row[j - 1] + 1, up[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], two_up[j - 2] + 1);
        }
        std::size_t* oldest = two_up;
        two_up = up;
        up = row;
        row = oldest;
    }
    return up[b.size()];
}

}  // namespace

// The first limits::quoted_bytes_max bytes of `s`, cut at a UTF-8 character
// boundary (all of it when it is that short).
std::string_view clipped(std::string_view s) {
    const auto max = static_cast<std::size_t>(limits::quoted_bytes_max);
    if (s.size() <= max) return s;
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut);
}

// A byte-bounded quotation of something the user wrote, for an error line: at
// most limits::quoted_bytes_max bytes, as a JSON string, with the full length
// when it was cut. A 60 MB key must not become a 120 MB error line.
std::string quote(std::string_view s) {
    const std::string_view head = clipped(s);
    if (head.size() == s.size()) return json_quoted(s);
    return fmt::format("{}… ({} bytes)", json_quoted(head), s.size());
}

// A JSON-pointer component for a path in an error line (clipped like quote).
std::string path_part(std::string_view s) {
    const std::string_view head = clipped(s);
    return head.size() == s.size() ? std::string(s) : std::string(head) + "…";
}

// Line and column (1-based) of byte `offset` of `text`.
std::string line_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return fmt::format("{}:{}", line, column);
}

// ", did you mean \"lease\"?" when a known word is close; else the list.
std::string suggestion(std::string_view word, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = std::string::npos;
    // One edit per three letters, at least one: "leese" finds "lease", but
    // "node" does not find "lose".
    const std::size_t near = std::max<std::size_t>(1, word.size() / 3);
    // The distance table is |word| x |known word|: only short words are
    // compared (a long one is close to nothing a scenario knows anyway), and
    // a known word whose length differs by more than `near` is at least that
    // far, so it is never the suggestion and is not compared (a thousand
    // unknown keys of an object stay cheap).
    const bool comparable = static_cast<std::int64_t>(word.size()) <= limits::quoted_bytes_max;
    std::vector<std::size_t> rows;
    for (const auto& k : known) {
        if (!comparable) break;
        const std::size_t apart = word.size() > k.size() ? word.size() - k.size() : k.size() - word.size();
        if (apart > near) continue;
        const std::size_t d = edit_distance(word, k, rows);
        if (d < best_distance) {
            best_distance = d;
            best = k;
        }
    }
    if (!best.empty() && best_distance <= near) return fmt::format("; did you mean \"{}\"?", best);
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return fmt::format("; expected one of: {}", list);
}

std::string describe(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_string()) return fmt::format("the string {}", quote(v.get_ref<const std::string&>()));
    if (v.is_number_float()) return fmt::format("the number {}", v.dump());
    if (v.is_number()) return v.dump();
    if (v.is_array()) return "an array";
    return "an object";
}

}  // namespace leasescope::sim::scenario_detail

namespace leasescope::sim {
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known) {
    return scenario_detail::suggestion(word, known);
}
}  // namespace leasescope::sim
