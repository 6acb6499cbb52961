#pragma once
// What an imported history holds, made to fit what a trace can hold
// (docs/model.md rule 19.5.4): names and tokens are text of bounded length,
// fencing numbers lie in the trace's range. The importer applies these where
// a value enters the history, so the invariants see what the trace shows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "leasescope/sim/import.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"

namespace leasescope::sim::import::internal {

// `text` as UTF-8 (rule 19.5.4) and at most `max` bytes: a longer one keeps
// its first bytes (whole characters) and ends in `~` and the first eight hex
// digits of the SHA-1 of the whole, so two long names stay two names.
inline std::string fit_text(std::string_view raw, std::int64_t max) {
    std::string text = escape_invalid_utf8(raw);
    if (static_cast<std::int64_t>(text.size()) <= max) return text;
    std::string out = clip_utf8(text, static_cast<std::size_t>(max) - 9);
    out += '~';
    out += sha1_hex(text).substr(0, 8);
    return out;
}

inline std::string fit_name(std::string_view raw) { return fit_text(raw, limits::name_length_max); }
inline std::string fit_token(std::string_view raw) { return fit_text(raw, limits::token_length_max); }

// A fencing number the trace can hold (1 to limits::fencing_max) is kept;
// another is dropped, and the first one dropped (`noted` false) is told in
// `notes` as "<whose> fencing number of N is outside what a trace holds …".
inline void fit_fencing(std::optional<Fencing>& f, std::string_view whose, bool& noted,
                        std::vector<std::string>& notes) {
    if (!f || (*f >= 1 && *f <= limits::fencing_max)) return;
    if (!noted) {
        notes.push_back(
            fmt::format("{} fencing number of {} is outside what a trace holds (1 to {}): such numbers "
                        "are shown without a number",
                        whose, *f, limits::fencing_max));
    }
    noted = true;
    f.reset();
}

}  // namespace leasescope::sim::import::internal
