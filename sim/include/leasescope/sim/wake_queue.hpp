#pragma once
// The simulation's wake queue: a min-queue of packed (tick, node) entries
// (Simulation::wake_entry), in two parts. A "soon" bucket holds entries of
// one rank (tick) that was, when the bucket was opened, at or before the
// heap's least: at 100,000 candidates most entries filed are a waiting
// node's next attempt, one tick ahead, and they go in and out of the bucket
// at a push_back each. Everything else goes to a 4-ary heap in one vector:
// half the levels of a binary heap, a node's four children adjacent. The
// order in which entries leave, and the layout, are the queue's own; the
// simulation treats entries as hints and sorts what it takes, and the state
// digest is fed the entries sorted (sorted_entries).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "leasescope/engine/assert.hpp"

namespace leasescope::sim {

class WakeQueue {
public:
    using Entry = std::uint64_t;
    // An entry's low node_bits bits are its node; the bits above, its rank
    // (its tick's place in the order).
    static constexpr int node_bits = 20;
    // From this many entries in the heap on, taking the least asks for the
    // next level's entries before comparing this one's (a hint only).
    static constexpr std::size_t prefetch_from_entries = 4096;

    bool empty() const { return heap_.empty() && soon_.empty(); }
    std::size_t size() const { return heap_.size() + soon_.size(); }
    void reserve(std::size_t n) { heap_.reserve(n); }
    // The least entry.
    Entry least() const {
        LS_ASSERT(!empty());
        if (soon_.empty()) return heap_.front();
        if (heap_.empty()) return soon_least_;
        return std::min(soon_least_, heap_.front());
    }
    void push(Entry entry) {
        const Entry rank = entry >> node_bits;
        if (!soon_.empty() && rank == soon_rank_) {
            soon_.push_back(entry);
            soon_least_ = std::min(soon_least_, entry);
            return;
        }
        if (soon_.empty() && (heap_.empty() || rank <= heap_.front() >> node_bits)) {
            soon_.push_back(entry);
            soon_rank_ = rank;
            soon_least_ = entry;
            return;
        }
        push_heap(entry);
    }
    // Removes every entry at or below last, handing each to take (in no
    // particular order).
    template <class Take>
    void pop_through(Entry last, Take&& take) {
        if (!soon_.empty() && soon_least_ <= last) pop_soon_through(last, take);
        while (!heap_.empty() && heap_.front() <= last) {
            take(heap_.front());
            pop_heap();
        }
    }
    // Entries given in any order, then made a heap at once.
    void assign(std::vector<Entry> entries) {
        soon_.clear();
        heap_ = std::move(entries);
        for (std::size_t i = heap_.size() / arity + 1; i-- > 0;) {
            if (i < heap_.size()) sift_down(i, heap_[i]);
        }
    }
    // The entries in ascending order: a form that does not depend on the
    // order they were pushed and popped in (for the state digest).
    std::vector<Entry> sorted_entries() const {
        std::vector<Entry> sorted = heap_;
        sorted.insert(sorted.end(), soon_.begin(), soon_.end());
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }

private:
    static constexpr std::size_t arity = 4;
    template <class Take>
    void pop_soon_through(Entry last, Take& take) {
        std::size_t kept = 0;
        Entry kept_least = ~Entry{0};
        for (const Entry entry : soon_) {
            if (entry <= last) {
                take(entry);
            } else {
                soon_[kept++] = entry;
                kept_least = std::min(kept_least, entry);
            }
        }
        soon_.resize(kept);
        soon_least_ = kept_least;
    }
    void push_heap(Entry entry) {
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
    void pop_heap() {
        const Entry last = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) sift_down(0, last);
    }
    // Fills the hole at i with entry, moving lesser children up.
    void sift_down(std::size_t i, Entry entry) {
        const std::size_t n = heap_.size();
        Entry* const h = heap_.data();
        for (;;) {
            const std::size_t first = arity * i + 1;
            if (first >= n) break;
            // The next level's groups, asked for before this one is compared:
            // a heap of 100,000 nodes has its lower levels out of the caches,
            // and this lets those misses overlap. A hint only, and only for a
            // heap too large to stay in the caches.
            if (n >= prefetch_from_entries) {
                const std::size_t below = arity * first + 1;  // the first child's first child
                if (below < n) __builtin_prefetch(h + below);
                if (below + 2 * arity < n) __builtin_prefetch(h + below + 2 * arity);
            }
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
    // Entries of one rank (soon_rank_) that, when the first of them came, was
    // at or below every entry of the heap: the next tick's attempts, mostly,
    // filed and taken without the heap's log n steps.
    std::vector<Entry> soon_;
    Entry soon_rank_ = 0;
    Entry soon_least_ = 0;
};

}  // namespace leasescope::sim
