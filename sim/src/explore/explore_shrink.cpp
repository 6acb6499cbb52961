// Shrinking: a failing schedule made smaller while it still fails (faults
// removed, the base's order preferred, durations shortened, faults moved
// earlier), for random mode's counterexamples.
#include "leasescope/sim/explorer.hpp"

#include <algorithm>

#include "explore_internal.hpp"

namespace leasescope::sim {

using namespace explore_detail;

Schedule Explorer::shrink(const Schedule& failing) const {
    Schedule best = failing;
    if (!check(best).fails()) return best;
    auto try_take = [&](Schedule candidate) {
        std::sort(candidate.atoms.begin(), candidate.atoms.end());
        if (std::adjacent_find(candidate.atoms.begin(), candidate.atoms.end()) != candidate.atoms.end()) return false;
        for (std::size_t i = 0; i < candidate.atoms.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (clashes(atoms_[static_cast<std::size_t>(candidate.atoms[i])],
                            atoms_[static_cast<std::size_t>(candidate.atoms[j])]))
                    return false;
            }
        }
        if (!check(candidate).fails()) return false;
        best = std::move(candidate);
        return true;
    };
    auto index_of = [&](const Fault& f) -> std::int32_t {
        const auto it = std::lower_bound(atoms_.begin(), atoms_.end(), f, fault_less);
        if (it == atoms_.end() || fault_less(f, *it)) return -1;
        return static_cast<std::int32_t>(it - atoms_.begin());
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
                const std::int32_t a = index_of(g);
                if (a < 0) continue;
                Schedule c = best;
                c.atoms[i] = a;
                changed = try_take(std::move(c));
            }
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            const Fault f = atoms_[static_cast<std::size_t>(best.atoms[i])];
            for (Tick t = 0; t < f.at && !changed; ++t) {
                Fault g = f;
                g.at = t;
                const std::int32_t a = index_of(g);
                if (a < 0) continue;
                Schedule c = best;
                c.atoms[i] = a;
                changed = try_take(std::move(c));
            }
        }
        if (!changed) break;
    }
    return best;
}

}  // namespace leasescope::sim
