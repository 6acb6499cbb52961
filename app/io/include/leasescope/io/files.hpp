#pragma once
// Files at the edge of both programs: reading with a size limit, writing
// whole-or-nothing without ever following a link or replacing what is not a
// plain file, and checking standard output. Every error names the path the
// user gave (never a temporary name) and says why.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace leasescope::io {

// Reads the whole file at `path`, never more than `max_bytes` + 1 bytes: a
// longer file (or /dev/zero) is an error naming `limit_name` and the limit. A
// directory is "is a directory". nullopt with `error` set on any failure.
std::optional<std::string> read_file(const std::string& path, std::int64_t max_bytes, std::string_view limit_name,
                                     std::string& error);

// An output file, written whole or not at all.
//
// - "-" is standard output, written straight through.
// - An existing FIFO is written straight through (the user named a pipe).
// - Anything else that exists must be a regular file: a symbolic link, a
//   device, a directory or a socket at `path` is refused, never replaced.
// - Otherwise the bytes go to a new temporary file beside `path`, created
//   with a unique name and O_CREAT | O_EXCL | O_NOFOLLOW (so a link planted
//   there is never followed), registered for removal on SIGINT and SIGTERM
//   (signals.hpp). commit() flushes, fsyncs, closes and renames it over
//   `path`; any error before that, or destruction without commit(), removes
//   it.
//
// open() creates the temporary file at once, so an unwritable folder is
// found before any work is done.
class OutputFile {
public:
    static std::unique_ptr<OutputFile> open(const std::string& path, std::string& error);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Buffered. False once any write has failed (the first error is kept).
    bool write(std::string_view bytes);
    // Flush, fsync, close and rename into place. False (with the error,
    // naming the user's path) if anything failed; the temporary is removed.
    bool commit(std::string& error);
    const std::string& path() const { return path_; }

private:
    enum class Kind { stdout_stream, direct, temporary };
    OutputFile() = default;
    bool flush_buffer();
    void discard();

    Kind kind_ = Kind::temporary;
    std::string path_;       // as the user gave it
    std::string temporary_;  // Kind::temporary only
    int fd_ = -1;
    int slot_ = -1;  // signal cleanup registration
    bool committed_ = false;
    std::string buffer_;
    std::string error_;  // the first write error
};

// Writes `bytes` to `path` whole or not at all (OutputFile). False with the
// error on failure.
bool write_file(const std::string& path, std::string_view bytes, std::string& error);

// Flushes standard output and reports whether every write to it since the
// start succeeded (a full disk, a closed pipe or /dev/full make it fail). Call
// it once, after the last output; it closes the stream.
bool finish_stdout(std::string& error);

}  // namespace leasescope::io
