// The streamed `run`'s outcome spill file: records of (node, count, outcomes)
// per spill, written through a 64 KiB buffer, read back spill by spill with
// pread (outcome_spill_file.hpp).
#include "outcome_spill_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace leasescope::cli {
namespace {

constexpr std::size_t out_buffer_bytes = std::size_t{64} << 10;
constexpr std::size_t read_buffer_bytes = std::size_t{4} << 10;
constexpr std::size_t header_bytes = 8;                                   // node, count: 32 bits each
constexpr std::size_t record_bytes = 10;                                  // fencing (64 bits), result, has_fencing
constexpr std::size_t piece_outcomes = read_buffer_bytes / record_bytes;  // a piece fits the buffer

void put_u32(std::vector<char>& out, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
}

std::uint32_t get_u32(const char* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, 4);
    return v;
}

}  // namespace

OutcomeSpillFile::~OutcomeSpillFile() {
    if (fd_ >= 0) ::close(fd_);
}

bool OutcomeSpillFile::fail(const std::string& what, int error_number) {
    if (error_.empty()) error_ = what + " in " + dir_ + ": " + std::strerror(error_number);
    return false;
}

bool OutcomeSpillFile::open_file() {
    const char* tmpdir = std::getenv("TMPDIR");
    dir_ = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
    // Unnamed: nothing to clean up, whatever way the process ends.
    fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        // A file system without O_TMPFILE: a named file, unlinked at once.
        std::string path = dir_ + "/leasescope-outcomes.XXXXXX";
        fd_ = ::mkostemp(path.data(), O_CLOEXEC);
        if (fd_ >= 0) ::unlink(path.c_str());
    }
    if (fd_ < 0) return fail("cannot make a temporary file for the runs' results", errno);
    return true;
}

bool OutcomeSpillFile::flush() {
    std::size_t done = 0;
    while (done < out_.size()) {
        const ssize_t n = ::write(fd_, out_.data() + done, out_.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return fail("cannot write the temporary file of the runs' results", n < 0 ? errno : ENOSPC);
        done += static_cast<std::size_t>(n);
    }
    out_.clear();
    return true;
}

bool OutcomeSpillFile::put(NodeIndex node, std::span<const RunOutcome> outcomes) {
    if (!error_.empty()) return false;
    if (fd_ < 0 && !open_file()) return false;
    if (out_.capacity() < out_buffer_bytes) out_.reserve(out_buffer_bytes);
    std::size_t k = 0;
    while (k < outcomes.size()) {
        // A record holds at most what fits a 32-bit count.
        const std::size_t count = std::min<std::size_t>(outcomes.size() - k, 0xffffffffu);
        put_u32(out_, static_cast<std::uint32_t>(node));
        put_u32(out_, static_cast<std::uint32_t>(count));
        size_ += static_cast<std::int64_t>(header_bytes + count * record_bytes);
        for (std::size_t j = k; j < k + count; ++j) {
            const RunOutcome& o = outcomes[j];
            char b[record_bytes];
            std::memcpy(b, &o.fencing, 8);
            b[8] = static_cast<char>(o.result);
            b[9] = static_cast<char>(o.has_fencing ? 1 : 0);
            out_.insert(out_.end(), b, b + record_bytes);
            if (out_.size() >= out_buffer_bytes && !flush()) return false;
        }
        k += count;
    }
    return true;
}

bool OutcomeSpillFile::end() {
    if (!error_.empty()) return false;
    if (fd_ < 0) return true;  // nothing was put
    if (!flush()) return false;
    spills_.push_back(Cursor{spill_begin_, size_, {}, 0});
    spill_begin_ = size_;
    return true;
}

bool OutcomeSpillFile::rewind() {
    if (!error_.empty()) return false;
    // Every spill starts where the previous one ended.
    std::int64_t begin = 0;
    for (Cursor& c : spills_) {
        c.pos = begin;
        begin = c.end;
        c.buffer.clear();
        c.buffer_pos = 0;
    }
    return true;
}

// Makes `need` bytes available at c.buffer[c.buffer_pos...]; false at the
// spill's end or on a read error.
bool OutcomeSpillFile::fill(Cursor& c, std::size_t need) {
    std::size_t have = c.buffer.size() - c.buffer_pos;
    if (have >= need) return true;
    if (c.pos >= c.end) return false;
    c.buffer.erase(c.buffer.begin(), c.buffer.begin() + static_cast<std::ptrdiff_t>(c.buffer_pos));
    c.buffer_pos = 0;
    const auto want = static_cast<std::size_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(std::max(need, read_buffer_bytes) - have), c.end - c.pos));
    c.buffer.resize(have + want);
    std::size_t got = 0;
    while (got < want) {
        const ssize_t n = ::pread(fd_, c.buffer.data() + have + got, want - got, c.pos);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fail("cannot read the temporary file of the runs' results back", n < 0 ? errno : EIO);
            return false;
        }
        got += static_cast<std::size_t>(n);
        c.pos += n;
    }
    return c.buffer.size() - c.buffer_pos >= need;
}

bool OutcomeSpillFile::read(NodeIndex node, const std::function<void(std::span<const RunOutcome>)>& each) {
    if (!error_.empty()) return false;
    for (Cursor& c : spills_) {
        // A spill may hold several records of one node (a count over 32 bits).
        while (fill(c, header_bytes)) {
            const char* h = c.buffer.data() + c.buffer_pos;
            if (static_cast<NodeIndex>(get_u32(h)) != node) break;
            std::size_t left = get_u32(h + 4);
            c.buffer_pos += header_bytes;
            while (left > 0) {
                const std::size_t n = std::min(left, piece_outcomes);
                if (!fill(c, n * record_bytes)) {
                    return error_.empty() ? fail("the temporary file of the runs' results is cut short", EIO) : false;
                }
                piece_.resize(n);
                const char* p = c.buffer.data() + c.buffer_pos;
                for (std::size_t j = 0; j < n; ++j, p += record_bytes) {
                    std::memcpy(&piece_[j].fencing, p, 8);
                    piece_[j].result = static_cast<RunResult>(p[8]);
                    piece_[j].has_fencing = p[9] != 0;
                }
                c.buffer_pos += n * record_bytes;
                left -= n;
                each(piece_);
            }
        }
        if (!error_.empty()) return false;
    }
    return true;
}

}  // namespace leasescope::cli
