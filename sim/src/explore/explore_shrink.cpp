// Shrinking: a failing schedule made smaller while it still fails (faults
// removed, the base's order preferred, durations shortened, delays, clock
// jumps and lags made smaller, faults moved earlier), for random mode's counterexamples.
#include "leasescope/sim/explorer.hpp"

#include <algorithm>

#include "explore_internal.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

// The same delay with fewer extra ticks, the same jump by fewer whole ticks
// (the budget's grid), or the same promotion with less lag, smallest first.
std::vector<Fault> smaller(const Fault& f, std::int64_t tick_ms) {
    std::vector<Fault> out;
    if (f.kind == FaultKind::delay) {
        for (Tick e = 1; e < f.extra; ++e) {
            Fault g = f;
            g.extra = e;
            out.push_back(g);
        }
    } else if (f.promotes()) {
        for (Tick lag = 0; lag < f.lag; ++lag) {
            Fault g = f;
            g.lag = lag;
            out.push_back(g);
        }
    } else if (f.kind == FaultKind::clock_jump) {
        const std::int64_t sign = f.ms < 0 ? -1 : 1;
        for (std::int64_t ms = tick_ms; ms < f.ms * sign; ms += tick_ms) {
            Fault g = f;
            g.ms = ms * sign;
            out.push_back(g);
        }
    }
    return out;
}

// No atom twice, no two that clash, and roles the servers allow (a cut of
// server 0 whose failover was removed is not).
bool valid_schedule(const Scenario& variant, const std::vector<Fault>& table, const std::vector<std::int32_t>& atoms) {
    if (std::adjacent_find(atoms.begin(), atoms.end()) != atoms.end()) return false;
    for (std::size_t i = 0; i < atoms.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (clashes(table[static_cast<std::size_t>(atoms[i])], table[static_cast<std::size_t>(atoms[j])]))
                return false;
        }
    }
    std::vector<Fault> faults = variant.faults;
    for (const std::int32_t a : atoms) faults.push_back(table[static_cast<std::size_t>(a)]);
    return roles_valid(faults);
}

}  // namespace

Schedule Explorer::shrink(const Schedule& failing) const {
    Schedule best = failing;
    if (!check(best).fails()) return best;
    auto try_take = [&](Schedule candidate) {
        std::sort(candidate.atoms.begin(), candidate.atoms.end());
        if (!valid_schedule(variant(candidate.variant), atoms_, candidate.atoms)) return false;
        if (!check(candidate).fails()) return false;
        best = std::move(candidate);
        return true;
    };
    auto index_of = [&](const Fault& f) -> std::int32_t {
        const auto it = std::lower_bound(atoms_.begin(), atoms_.end(), f, fault_less);
        if (it == atoms_.end() || fault_less(f, *it)) return -1;
        return static_cast<std::int32_t>(it - atoms_.begin());
    };
    // Fault i replaced by g, when g is in the budget.
    auto try_atom = [&](std::size_t i, const Fault& g) {
        const std::int32_t a = index_of(g);
        if (a < 0) return false;
        Schedule c = best;
        c.atoms[i] = a;
        return try_take(std::move(c));
    };
    // Each pass makes the schedule strictly smaller or earlier, so this ends;
    // the bound only guards against a mistake.
    for (int pass = 0; pass < 1000; ++pass) {
        bool changed = false;
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            Schedule c = best;
            c.atoms.erase(c.atoms.begin() + static_cast<std::ptrdiff_t>(i));
            changed = try_take(std::move(c));
        }
        if (!changed && best.variant != 0) {
            Schedule c = best;
            c.variant = 0;
            changed = try_take(std::move(c));
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            const Fault f = atoms_[static_cast<std::size_t>(best.atoms[i])];
            for (Tick d = 1; d < f.ticks && !changed; ++d) {
                Fault g = f;
                g.ticks = d;
                changed = try_atom(i, g);
            }
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            for (const Fault& g : smaller(atoms_[static_cast<std::size_t>(best.atoms[i])], variants_.front().tick_ms)) {
                if ((changed = try_atom(i, g))) break;
            }
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            const Fault f = atoms_[static_cast<std::size_t>(best.atoms[i])];
            for (Tick t = 0; t < f.at && !changed; t += options_.start_every) {  // on the start grid
                Fault g = f;
                g.at = t;
                changed = try_atom(i, g);
            }
        }
        if (!changed) break;
    }
    return best;
}

}  // namespace leasescope::sim
