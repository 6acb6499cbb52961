// The simulation's wake queue (sim/wake_queue.hpp) against a plain sorted
// multiset: under random pushes, pops and rebuilds the least entry, the size
// and the sorted entries are the multiset's at every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/wake_queue.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

void expect_same(const WakeQueue& queue, const std::multiset<WakeQueue::Entry>& model) {
    ASSERT_EQ(queue.size(), model.size());
    if (!model.empty()) ASSERT_EQ(queue.top(), *model.begin());
    const std::vector<WakeQueue::Entry> sorted(model.begin(), model.end());
    ASSERT_EQ(queue.sorted_entries(), sorted);
}

// One random run: entries drawn from a range of `spread` values (small
// spreads give many equal entries), pushes and pops in a random mix whose
// balance drifts so the queue grows and empties again, and now and then the
// whole queue rebuilt from a fresh list (WakeQueue::assign).
void run_against_multiset(std::uint64_t seed, std::uint64_t spread) {
    SplitMix64 rng(seed);
    WakeQueue queue;
    std::multiset<WakeQueue::Entry> model;
    for (int step = 0; step < 4000; ++step) {
        const std::uint64_t draw = rng.next() % 100;
        const bool growing = (step / 500) % 2 == 0;
        if (draw < 2) {
            std::vector<WakeQueue::Entry> fresh(rng.next() % 300);
            for (auto& e : fresh) e = rng.next() % spread;
            model = std::multiset<WakeQueue::Entry>(fresh.begin(), fresh.end());
            queue.assign(std::move(fresh));
        } else if (draw < (growing ? 65u : 35u) || model.empty()) {
            const WakeQueue::Entry e = rng.next() % spread;
            queue.push(e);
            model.insert(e);
        } else {
            queue.pop();
            model.erase(model.begin());
        }
        expect_same(queue, model);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST(WakeQueue, PopsInTheOrderOfASortedMultiset) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        SCOPED_TRACE(seed);
        run_against_multiset(seed, 1u << 30);
        run_against_multiset(seed + 100, 7);
        if (HasFatalFailure()) return;
    }
}

TEST(WakeQueue, DrainsInAscendingOrder) {
    SplitMix64 rng(5);
    WakeQueue queue;
    std::vector<WakeQueue::Entry> pushed;
    for (int i = 0; i < 1000; ++i) {
        pushed.push_back(rng.next() % 50);
        queue.push(pushed.back());
    }
    std::sort(pushed.begin(), pushed.end());
    std::vector<WakeQueue::Entry> drained;
    while (!queue.empty()) {
        drained.push_back(queue.top());
        queue.pop();
    }
    EXPECT_EQ(drained, pushed);
}
