// The simulation's wake queue (sim/wake_queue.hpp) against a plain sorted
// multiset: under random pushes, takes of every entry up to a bound, and
// rebuilds, the least entry, the size, the entries taken and the sorted
// entries are the multiset's at every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/wake_queue.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

using Entry = WakeQueue::Entry;

void expect_same(const WakeQueue& queue, const std::multiset<Entry>& model) {
    ASSERT_EQ(queue.size(), model.size());
    ASSERT_EQ(queue.empty(), model.empty());
    if (!model.empty()) {
        ASSERT_EQ(queue.least(), *model.begin());
    }
    ASSERT_EQ(queue.sorted_entries(), std::vector<Entry>(model.begin(), model.end()));
}

// An entry of one of `ranks` ranks at or after `from` and any of 8 nodes.
Entry draw_entry(SplitMix64& rng, Entry from, Entry ranks) {
    return (from + rng.next() % ranks) << WakeQueue::node_bits | rng.next() % 8;
}

// Takes every entry at or below `last` from both, and compares what came out.
void take_through(WakeQueue& queue, std::multiset<Entry>& model, Entry last) {
    std::vector<Entry> taken;
    queue.pop_through(last, [&](Entry e) { taken.push_back(e); });
    std::sort(taken.begin(), taken.end());
    const auto end = model.upper_bound(last);
    ASSERT_EQ(taken, std::vector<Entry>(model.begin(), end));
    model.erase(model.begin(), end);
}

// One random run, as the simulation uses the queue: a clock that moves on by
// 0 to 2 ranks a step; pushes mostly a rank or two ahead (the soon bucket's
// case), some far ahead, some behind the clock; takes of everything through
// the clock's rank, and sometimes through a bound inside a rank; now and then
// the whole queue rebuilt from a fresh list (WakeQueue::assign).
void run_against_multiset(std::uint64_t seed, Entry far) {
    SplitMix64 rng(seed);
    WakeQueue queue;
    std::multiset<Entry> model;
    Entry now = 5;
    for (int step = 0; step < 3000; ++step) {
        const std::uint64_t draw = rng.next() % 100;
        if (draw < 2) {
            std::vector<Entry> fresh(rng.next() % 200);
            for (auto& e : fresh) e = draw_entry(rng, now, far);
            model = std::multiset<Entry>(fresh.begin(), fresh.end());
            queue.assign(std::move(fresh));
        } else if (draw < 40) {
            const Entry e = draw_entry(rng, now + 1, 2);
            queue.push(e);
            model.insert(e);
        } else if (draw < 60) {
            const Entry e = draw_entry(rng, draw < 50 ? now : now - std::min<Entry>(now, 3), far);
            queue.push(e);
            model.insert(e);
        } else if (draw < 90) {
            now += rng.next() % 3;
            take_through(queue, model, (now + 1) << WakeQueue::node_bits);
        } else {
            take_through(queue, model, now << WakeQueue::node_bits | rng.next() % 8);
        }
        expect_same(queue, model);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST(WakeQueue, TakesWhatASortedMultisetHoldsThroughTheBound) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        SCOPED_TRACE(seed);
        run_against_multiset(seed, 1000);
        run_against_multiset(seed + 100, 4);
        if (HasFatalFailure()) return;
    }
}

TEST(WakeQueue, DrainsEveryEntryInAnyOrderButNoneTwice) {
    SplitMix64 rng(5);
    WakeQueue queue;
    std::vector<Entry> pushed;
    for (int i = 0; i < 1000; ++i) {
        pushed.push_back(draw_entry(rng, 0, 50));
        queue.push(pushed.back());
    }
    std::vector<Entry> drained;
    queue.pop_through(~Entry{0}, [&](Entry e) { drained.push_back(e); });
    std::sort(drained.begin(), drained.end());
    std::sort(pushed.begin(), pushed.end());
    EXPECT_EQ(drained, pushed);
    EXPECT_TRUE(queue.empty());
}

// A heap large enough for the hints taking the least entry gives
// (WakeQueue::prefetch_from_entries): the same entries through each bound
// as the multiset, however far below the threshold it drains.
TEST(WakeQueue, AHeapLargeEnoughForHintsTakesWhatTheMultisetHolds) {
    SplitMix64 rng(29);
    const std::size_t size = 3 * WakeQueue::prefetch_from_entries;
    std::vector<Entry> fresh(size);
    for (auto& e : fresh) e = draw_entry(rng, 10, 20'000);
    std::multiset<Entry> model(fresh.begin(), fresh.end());
    WakeQueue queue;
    queue.assign(std::move(fresh));
    for (Entry now = 10; !model.empty(); now += 7) {
        // Ahead of every entry the heap holds: these go to the heap, not the soon bucket.
        if (now % 3 == 0) {
            const Entry e = draw_entry(rng, now + 30'000, 100);
            queue.push(e);
            model.insert(e);
        }
        take_through(queue, model, (now + 1) << WakeQueue::node_bits);
        if (HasFatalFailure()) return;
        if (now > 60'000) take_through(queue, model, ~Entry{0});
    }
    expect_same(queue, model);
}
