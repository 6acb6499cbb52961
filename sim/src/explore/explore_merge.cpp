// The memo of merged states (docs/explorer.md, Merging states).
#include <algorithm>

#include "explore_internal.hpp"

namespace leasescope::sim::explore_detail {

const Verdict* MergeMemo::find(const Key& key) const {
    const auto it = states_.find(key);
    return it == states_.end() ? nullptr : &verdicts_[it->second];
}

void MergeMemo::note(const Key& key) {
    if (states_.size() + pending_.size() < cap_) pending_.push_back(key);
}

namespace {

std::uint64_t verdict_hash(const Verdict& v) {
    StateHasher h;
    for (const std::int64_t n :
         {v.violations.overlap, v.violations.unsafe_write, v.violations.fencing_regressed,
          v.violations.stale_after_successor, v.violations.holder_rejected, v.violations.fencing_duplicate})
        h.add(n);
    h.add(v.elected);
    h.add(v.end_tick);
    h.add(v.failed.any());  // `failed` follows from the rest and the checked properties
    return h.digest().low;
}

}  // namespace

void MergeMemo::finish(const Verdict& verdict) {
    if (pending_.empty()) return;
    // Verdicts are far fewer than states: each is kept once.
    const std::uint64_t fingerprint = verdict_hash(verdict);
    std::uint32_t index = 0;
    auto [first, last] = verdict_index_.equal_range(fingerprint);
    const auto same = std::find_if(first, last, [&](const auto& e) { return verdicts_[e.second] == verdict; });
    if (same != last) {
        index = same->second;
    } else {
        index = static_cast<std::uint32_t>(verdicts_.size());
        verdicts_.push_back(verdict);
        verdict_index_.emplace(fingerprint, index);
    }
    for (const Key& key : pending_) states_.emplace(key, index);
    pending_.clear();
}

}  // namespace leasescope::sim::explore_detail
