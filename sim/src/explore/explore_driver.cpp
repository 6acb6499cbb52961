// The one driver of a search: ExploreSession steps through a level's work
// units (or the draws) in chunks handed to the runner; explore() is that loop
// run to the end; merge_shard_reports() joins the shards of a split search.
#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <functional>
#include <limits>

#include "explore_internal.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

// Chunks one search is split into at most; a bigger search gets bigger chunks
// (the result does not depend on the chunk size).
constexpr std::uint64_t chunks_max = 1 << 16;
// Chunks a level of two faults or more is cut into at most while subtrees
// are shared: enough for two to eight threads to share the work evenly.
constexpr std::uint64_t share_chunks = 16;

void merge_chunk(ChunkResult& into, const ChunkResult& from, const Explorer& ex) {
    into.stats.add(from.stats);
    into.complete = into.complete && from.complete;
    if (!from.best) return;
    if (!into.best || ex.ranks_before(*from.best, *into.best) ||
        (*from.best == *into.best && from.best_draw < into.best_draw)) {
        into.best = from.best;
        into.best_draw = from.best_draw;
    }
}

// Evaluates `total` units through the runner, chunk by chunk, and merges the
// chunks in index order: the merge is a sum and a minimum, so the result is
// the same whatever order the runner ran them in.
ChunkResult run_chunks(const ExploreRun& run, std::uint64_t total, const Explorer& ex,
                       const std::function<ChunkResult(std::uint64_t, std::uint64_t)>& evaluate) {
    std::uint64_t chunk = std::max<std::uint64_t>(run.chunk, 1);
    chunk = std::max(chunk, total / chunks_max + 1);
    const std::uint64_t count = total == 0 ? 0 : (total - 1) / chunk + 1;
    std::vector<ChunkResult> results(static_cast<std::size_t>(count));
    const std::function<void(std::size_t)> run_chunk = [&](std::size_t c) {
        const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk;
        results[c] = evaluate(begin, std::min(total, begin + chunk));
    };
    if (run.runner) {
        run.runner(static_cast<std::size_t>(count), run_chunk);
    } else {
        for (std::size_t c = 0; c < results.size(); ++c) run_chunk(c);
    }
    ChunkResult merged;
    for (const ChunkResult& r : results) merge_chunk(merged, r, ex);
    return merged;
}

// How many of `total` units (or draws) fall to a part: those whose index is
// `shard` modulo `shards`.
std::uint64_t part_size(std::uint64_t total, std::uint64_t shard, std::uint64_t shards) {
    return total > shard ? (total - shard - 1) / shards + 1 : 0;
}

}  // namespace

ExploreReport explore(const Explorer& ex, const ExploreRun& run, ExploreControl* control) {
    ExploreSession session(ex, run, control);
    while (!session.step(std::numeric_limits<std::uint64_t>::max())) {}
    return session.report();
}

ExploreSession::ExploreSession(const Explorer& explorer, ExploreRun run, ExploreControl* control)
    : explorer_(&explorer), run_(std::move(run)), control_(control) {
    LS_ASSERT(run_.shards >= 1);
    LS_ASSERT(run_.shards <= explore_shards_max);
    LS_ASSERT(run_.shard < run_.shards);
    if (run_.mode == ExploreMode::exhaustive) {
        begin_level();
    } else {
        LS_ASSERT(run_.draws <= explore_draws_max);
        total_ = part_size(run_.draws, run_.shard, run_.shards);
    }
}

void ExploreSession::begin_level() {
    if (control_ != nullptr) control_->level.store(level_, std::memory_order_relaxed);
    current_ = ChunkResult{};
    next_ = 0;
    total_ = part_size(explorer_->level_units(level_), run_.shard, run_.shards);
}

// Units [begin, end) of this part, counted within the part: unit i of the
// part is unit shard + i · shards of the level (or draw).
ChunkResult ExploreSession::evaluate(std::uint64_t begin, std::uint64_t end) const {
    if (begin >= end) return ChunkResult{};
    const std::uint64_t first = run_.shard + begin * run_.shards;
    const std::uint64_t last = run_.shard + (end - 1) * run_.shards;
    return run_.mode == ExploreMode::exhaustive
               ? explorer_->evaluate_level(level_, first, last + 1, control_, run_.shards)
               : explorer_->evaluate_draws(run_.seed, first, last + 1, control_, run_.shards);
}

bool ExploreSession::step(std::uint64_t units) {
    if (done_) return true;
    const std::uint64_t from = next_;
    const std::uint64_t count = std::min(units, total_ - next_);
    // At two faults and more, the prefixes of one chunk share subtrees
    // (docs/explorer.md, Sharing subtrees), which pays over long runs of
    // neighbouring prefixes: the level is cut into at most share_chunks.
    ExploreRun cut = run_;
    if (run_.mode == ExploreMode::exhaustive && level_ >= 2 && explorer_->shares_subtrees())
        cut.chunk = std::max<std::uint64_t>(cut.chunk, (total_ + share_chunks - 1) / share_chunks);
    const ChunkResult chunk = run_chunks(cut, count, *explorer_, [&](std::uint64_t begin, std::uint64_t end) {
        return evaluate(from + begin, from + end);
    });
    merge_chunk(current_, chunk, *explorer_);
    next_ = from + count;
    if (next_ < total_ && current_.complete) return false;
    if (run_.mode == ExploreMode::random) {
        report_.totals = current_.stats;
        report_.complete = current_.complete;
        if (current_.best) {
            report_.drawn = current_.best;
            report_.drawn_index = current_.best_draw;
            if (run_.shrink) report_.found = explorer_->shrink(*current_.best);
        }
        done_ = true;
        return true;
    }
    report_.levels.push_back(LevelReport{level_, current_.stats});
    report_.totals.add(current_.stats);
    if (!current_.complete) {
        // Stopped part way: a failing schedule found so far is a real
        // counterexample, but not proved the best-ranked of its level.
        report_.complete = false;
        report_.found = current_.best;
        done_ = true;
    } else if (current_.best) {
        // Every schedule with fewer faults passed, so the best failing
        // schedule of this level is the smallest counterexample overall.
        report_.found = current_.best;
        done_ = true;
    } else if (level_ >= explorer_->options().max_faults) {
        done_ = true;
    } else {
        ++level_;
        begin_level();
    }
    return done_;
}

ExploreReport merge_shard_reports(const Explorer& ex, const ExploreRun& run, const std::vector<ExploreReport>& parts) {
    LS_ASSERT(!parts.empty());
    ExploreReport merged;
    if (run.mode == ExploreMode::random) {
        ChunkResult best;
        for (const ExploreReport& part : parts) {
            ChunkResult c;
            c.stats = part.totals;
            c.complete = part.complete;
            c.best = part.drawn;
            c.best_draw = part.drawn_index;
            merge_chunk(best, c, ex);
        }
        merged.totals = best.stats;
        merged.complete = best.complete;
        if (best.best) {
            merged.drawn = best.best;
            merged.drawn_index = best.best_draw;
            if (run.shrink) merged.found = ex.shrink(*best.best);
        }
        return merged;
    }
    for (int level = 0; level <= ex.options().max_faults; ++level) {
        ChunkResult sum;
        for (const ExploreReport& part : parts) {
            // A part that stopped before this level failed at a lower one
            // and ended the search there.
            LS_ASSERT(static_cast<std::size_t>(level) < part.levels.size());
            ChunkResult c;
            c.stats = part.levels[static_cast<std::size_t>(level)].stats;
            c.complete = part.complete || static_cast<std::size_t>(level) + 1 < part.levels.size();
            if (static_cast<std::size_t>(level) + 1 == part.levels.size()) c.best = part.found;
            merge_chunk(sum, c, ex);
        }
        merged.levels.push_back(LevelReport{level, sum.stats});
        merged.totals.add(sum.stats);
        if (!sum.complete) {
            merged.complete = false;
            break;
        }
        if (sum.best) {
            merged.found = sum.best;
            break;
        }
    }
    return merged;
}

}  // namespace leasescope::sim
