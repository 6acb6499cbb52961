#pragma once
// The streamed `run`'s outcome spill: finished runs' outcomes written to an
// unnamed temporary file in $TMPDIR (else /tmp) and read back for the
// summary line, so that memory does not grow with the runs of a long run.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/outcome_spill.hpp"

namespace leasescope::cli {

class OutcomeSpillFile final : public sim::OutcomeSpill {
public:
    OutcomeSpillFile() = default;
    ~OutcomeSpillFile() override;
    OutcomeSpillFile(const OutcomeSpillFile&) = delete;
    OutcomeSpillFile& operator=(const OutcomeSpillFile&) = delete;

    // The file is made at the first put(): a run that never spills needs no
    // temporary folder.
    bool put(NodeIndex node, std::span<const RunOutcome> outcomes) override;
    bool end() override;
    bool rewind() override;
    bool read(NodeIndex node, const std::function<void(std::span<const RunOutcome>)>& each) override;

    // What went wrong, once a call returned false ("cannot write a temporary
    // file in /tmp: No space left on device").
    const std::string& error() const { return error_; }
    std::int64_t bytes() const { return size_; }

private:
    // One spill's records in the file, read with a small buffer of its own:
    // each spill lists nodes in increasing order, so a pass over the nodes
    // reads every spill from front to back once.
    struct Cursor {
        std::int64_t pos = 0;
        std::int64_t end = 0;
        std::vector<char> buffer;
        std::size_t buffer_pos = 0;
    };
    bool open_file();
    bool flush();
    bool fail(const std::string& what, int error_number);
    bool fill(Cursor& c, std::size_t need);

    int fd_ = -1;
    std::string dir_;
    std::string error_;
    std::vector<char> out_;  // bytes not yet written
    std::int64_t size_ = 0;  // bytes in the file and in out_
    std::int64_t spill_begin_ = 0;
    std::vector<Cursor> spills_;
    std::vector<RunOutcome> piece_;
};

}  // namespace leasescope::cli
