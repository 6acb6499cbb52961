#pragma once
// Result files of a search split across machines (`explore --shard K/N`) and
// their merge: what one part found, the search it belongs to, and the checks
// that the files of a merge are exactly the parts of one search.
//
// Pure: files come in and go out as text; the caller reads and writes them.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/engine/result.hpp"
#include "leasescope/sim/explorer.hpp"

namespace leasescope::sim {

// What a part measured of itself, carried to the merge's bench line. The
// search never reads a clock; the caller fills this in.
struct ShardTiming {
    double seconds = 0;      // wall time
    double cpu_seconds = 0;  // CPU time, all threads
    std::uint64_t jobs = 0;  // threads
};

// The fingerprint of a search: SHA-256 (hex) over its canonical description,
// the base as scenario_to_json writes it, the options, mode, seed and draws.
// Every part of one search has the same; how it is split is not part of it.
std::string search_fingerprint(const Explorer& explorer, const ExploreRun& run);

// The result file of part run.shard of run.shards: the search (enough to
// rebuild the explorer), its fingerprint, and the part's report. For random
// mode, the report's failing draw unshrunk (run.shrink false).
std::string shard_result_to_json(const Explorer& explorer, const ExploreRun& run, const ExploreReport& report,
                                 const ShardTiming& timing);

struct ShardFile {
    std::string name;  // named in every error about it
    std::string text;
};

// The whole search, rebuilt from its parts.
struct MergedSearch {
    Explorer explorer;
    ExploreRun run;        // mode, seed and draws of the search; unsplit
    ExploreReport report;  // what explore() gives for the whole search
    ShardTiming timing;    // CPU summed, wall time of the slowest part, threads summed
    std::uint64_t shards = 0;
};

// Checks that the files are the parts 0 … N − 1 of one search, each once,
// and merges their reports (merge_shard_reports). An error names the file
// at fault: not a result file, edited (fingerprint), a part of another
// search or of another split, a part given twice, or the parts missing.
Result<MergedSearch, std::string> merge_shard_results(const std::vector<ShardFile>& files);

}  // namespace leasescope::sim
