// goal (docs/model.md §18.3): a combination of knob values applied as
// `--set` to the file's bytes, the file's own values, and "show me".
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "exercise_internal.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::sim {
namespace {

using exercise_detail::exercise_of;
using json = nlohmann::json;

std::vector<Override> overrides_of(const Exercise& e, const std::vector<std::int32_t>& values) {
    std::vector<Override> out;
    for (std::size_t k = 0; k < e.knobs.size(); ++k)
        out.push_back(Override{e.knobs[k].set, e.knobs[k].values[static_cast<std::size_t>(values[k])]});
    return out;
}

// The value the file writes at a `--set` path (dots or slashes), if any.
const json* written_at(const json& root, const std::string& path) {
    const json* node = &root;
    std::string part;
    const std::string p = path.size() > 1 && path[0] == '/' ? path.substr(1) : path;
    for (std::size_t i = 0; i <= p.size(); ++i) {
        if (i < p.size() && p[i] != '.' && p[i] != '/') {
            part += p[i];
            continue;
        }
        if (node->is_object() && node->contains(part)) {
            node = &(*node)[part];
        } else if (node->is_array() && !part.empty() && part.size() <= 9 &&
                   std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                   std::stoul(part) < node->size()) {
            node = &(*node)[std::stoul(part)];
        } else {
            return nullptr;
        }
        part.clear();
    }
    return node;
}

// The index of `own` among the knob's values, or of the nearest number.
std::int32_t index_of(const Knob& knob, const json& own) {
    for (std::size_t i = 0; i < knob.values.size(); ++i) {
        if (json::parse(knob.values[i]) == own) return static_cast<std::int32_t>(i);
    }
    if (!own.is_number()) return 0;
    std::int32_t best = 0;
    double best_distance = -1;
    for (std::size_t i = 0; i < knob.values.size(); ++i) {
        const json v = json::parse(knob.values[i]);
        if (!v.is_number()) continue;
        const double d = std::abs(v.get<double>() - own.get<double>());
        if (best_distance < 0 || d < best_distance) {
            best = static_cast<std::int32_t>(i);
            best_distance = d;
        }
    }
    return best;
}

// A knob whose path the file does not write: the value that `--set` reads
// back as the file's own scenario (a default), else the first.
std::int32_t index_by_effect(const ExerciseBase& base, const Knob& knob) {
    const std::string own = scenario_to_json(base.scenario);
    for (std::size_t i = 0; i < knob.values.size(); ++i) {
        auto s = parse_scenario(base.text, base.file, {Override{knob.set, knob.values[i]}});
        if (s.ok() && scenario_to_json(s.value()) == own) return static_cast<std::int32_t>(i);
    }
    return 0;
}

// Total index steps from `from` (§18.3 item 4).
std::int64_t steps(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& from) {
    std::int64_t total = 0;
    for (std::size_t k = 0; k < a.size(); ++k) total += std::abs(a[k] - from[k]);
    return total;
}

// Every combination, nearest to `from` first; ties in knob order, lower values first.
std::vector<std::vector<std::int32_t>> combinations_by_distance(const Exercise& e,
                                                                const std::vector<std::int32_t>& from) {
    std::vector<std::vector<std::int32_t>> all{{}};
    for (const Knob& k : e.knobs) {
        std::vector<std::vector<std::int32_t>> next;
        for (const auto& prefix : all) {
            for (std::size_t i = 0; i < k.values.size(); ++i) {
                next.push_back(prefix);
                next.back().push_back(static_cast<std::int32_t>(i));
            }
        }
        all = std::move(next);
    }
    std::stable_sort(all.begin(), all.end(),
                     [&](const auto& a, const auto& b) { return steps(a, from) < steps(b, from); });
    return all;
}

}  // namespace

Result<Attempt, std::string> try_knobs(const ExerciseBase& base, std::size_t index,
                                       const std::vector<std::int32_t>& values) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::goal);
    if (values.size() != e.knobs.size())
        return Err{fmt::format("expected {} knob values, found {}", e.knobs.size(), values.size())};
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (values[k] < 0 || static_cast<std::size_t>(values[k]) >= e.knobs[k].values.size())
            return Err{fmt::format("knob {} ({}): value {} is not one of its {} values", k + 1, e.knobs[k].set,
                                   values[k], e.knobs[k].values.size())};
    }
    const std::vector<Override> sets = overrides_of(e, values);
    auto s = parse_scenario(base.text, base.file, sets);
    if (!s.ok()) {
        // The scenario's error, after the values that led to it.
        std::string tried;
        for (const Override& o : sets) tried += fmt::format("{}{}={}", tried.empty() ? "" : ", ", o.path, o.value);
        return Err{fmt::format("with {}: {}", tried, s.error().to_string())};
    }
    return exercise_detail::attempt_of(base, e.goal, std::move(s).value());
}

std::vector<std::int32_t> written_knobs(const ExerciseBase& base, std::size_t index) {
    const Exercise& e = exercise_of(base, index);
    const json root = json::parse(base.text, nullptr, false, /*ignore_comments=*/true);
    std::vector<std::int32_t> out;
    for (const Knob& k : e.knobs) {
        const json* own = root.is_discarded() ? nullptr : written_at(root, k.set);
        out.push_back(own != nullptr ? index_of(k, *own) : index_by_effect(base, k));
    }
    return out;
}

std::optional<std::vector<std::int32_t>> solve_knobs(const ExerciseBase& base, std::size_t index) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::goal);
    std::int64_t tries = 0;
    for (const auto& values : combinations_by_distance(e, written_knobs(base, index))) {
        if (++tries > limits::exercise_tries_max) break;
        auto a = try_knobs(base, index, values);
        if (a.ok() && a.value().result.met) return values;
    }
    return std::nullopt;
}

}  // namespace leasescope::sim
