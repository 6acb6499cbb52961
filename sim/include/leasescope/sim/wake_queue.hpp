#pragma once
// The simulation's wake queue: a min-queue of packed (tick, node) entries
// (Simulation::wake_entry). A 4-ary heap in one vector: half the levels of a
// binary heap, and a node's four children are adjacent, so a pop at 100,000
// candidates touches about half the cache lines a binary heap's pop does.
// The order in which equal-ranked entries leave, and the layout, are the
// heap's own; the simulation treats entries as hints and sorts what it pops,
// and the state digest is fed the entries sorted (sorted_entries).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "leasescope/engine/assert.hpp"

namespace leasescope::sim {

class WakeQueue {
public:
    using Entry = std::uint64_t;

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    void reserve(std::size_t n) { heap_.reserve(n); }
    // The least entry.
    Entry top() const {
        LS_ASSERT(!heap_.empty());
        return heap_.front();
    }
    void push(Entry entry) {
        std::size_t i = heap_.size();
        heap_.push_back(entry);
        while (i > 0) {
            const std::size_t parent = (i - 1) / arity;
            if (heap_[parent] <= entry) break;
            heap_[i] = heap_[parent];
            i = parent;
        }
        heap_[i] = entry;
    }
    // Removes the least entry.
    void pop() {
        LS_ASSERT(!heap_.empty());
        const Entry last = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) sift_down(0, last);
    }
    // Entries given in any order, then made a heap at once.
    void assign(std::vector<Entry> entries) {
        heap_ = std::move(entries);
        for (std::size_t i = heap_.size() / arity + 1; i-- > 0;) {
            if (i < heap_.size()) sift_down(i, heap_[i]);
        }
    }
    // The entries in ascending order: a form that does not depend on the
    // order they were pushed and popped in (for the state digest).
    std::vector<Entry> sorted_entries() const {
        std::vector<Entry> sorted = heap_;
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }

private:
    static constexpr std::size_t arity = 4;
    // Fills the hole at i with entry, moving lesser children up.
    void sift_down(std::size_t i, Entry entry) {
        const std::size_t n = heap_.size();
        Entry* const h = heap_.data();
        for (;;) {
            const std::size_t first = arity * i + 1;
            if (first >= n) break;
            std::size_t least = first;
            if (first + arity <= n) {
                const std::size_t a = h[first + 1] < h[first] ? first + 1 : first;
                const std::size_t b = h[first + 3] < h[first + 2] ? first + 3 : first + 2;
                least = h[b] < h[a] ? b : a;
            } else {
                for (std::size_t c = first + 1; c < n; ++c) {
                    if (h[c] < h[least]) least = c;
                }
            }
            if (entry <= h[least]) break;
            h[i] = h[least];
            i = least;
        }
        h[i] = entry;
    }
    std::vector<Entry> heap_;
};

}  // namespace leasescope::sim
