// Reading with a limit, writing whole-or-nothing, checking standard output
// (files.hpp).
#include "leasescope/io/files.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "leasescope/io/signals.hpp"

namespace leasescope::io {
namespace {

std::string errno_text(int e) { return std::strerror(e); }

// What a file system node is, in words, for "refusing to replace it".
const char* kind_of(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISFIFO(mode)) return "a named pipe";
    return "not a regular file";
}

bool write_all(int fd, std::string_view bytes, int& error_number) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            error_number = errno;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

constexpr std::size_t buffer_bytes = 1 << 16;

}  // namespace

std::optional<std::string> read_file(const std::string& path, std::int64_t max_bytes, std::string_view limit_name,
                                     std::string& error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        error = fmt::format("{}: cannot open: {}", path, errno_text(errno));
        return std::nullopt;
    }
    struct stat st = {};
    if (::fstat(fd, &st) != 0) {
        error = fmt::format("{}: cannot read: {}", path, errno_text(errno));
        ::close(fd);
        return std::nullopt;
    }
    if (S_ISDIR(st.st_mode)) {
        error = fmt::format("{}: is a directory, not a file", path);
        ::close(fd);
        return std::nullopt;
    }
    auto too_large = [&] {
        return fmt::format("{}: the file is larger than {} bytes ({})", path, max_bytes, limit_name);
    };
    // A regular file says its size: refuse before reading any of it.
    if (S_ISREG(st.st_mode) && st.st_size > max_bytes) {
        error = too_large();
        ::close(fd);
        return std::nullopt;
    }
    std::string out;
    if (S_ISREG(st.st_mode)) out.reserve(static_cast<std::size_t>(st.st_size));
    // Anything else (a pipe, /dev/zero) is read up to the limit and one byte
    // more, which is enough to know it is too large.
    const auto limit = static_cast<std::size_t>(max_bytes) + 1;
    char chunk[buffer_bytes];
    while (out.size() < limit) {
        const std::size_t want = std::min(sizeof chunk, limit - out.size());
        const ssize_t n = ::read(fd, chunk, want);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = fmt::format("{}: read failed: {}", path, errno_text(errno));
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        out.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (out.size() > static_cast<std::size_t>(max_bytes)) {
        error = too_large();
        return std::nullopt;
    }
    return out;
}

std::unique_ptr<OutputFile> OutputFile::open(const std::string& path, std::string& error) {
    std::unique_ptr<OutputFile> out(new OutputFile());
    out->path_ = path;
    if (path == "-") {
        out->kind_ = Kind::stdout_stream;
        return out;
    }
    if (path.empty()) {
        error = "an empty file name";
        return nullptr;
    }
    struct stat st = {};
    const bool exists = ::lstat(path.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) {
        error = fmt::format("{}: cannot write: {}", path, errno_text(errno));
        return nullptr;
    }
    if (exists && S_ISFIFO(st.st_mode)) {
        // A named pipe the user chose: write into it, never replace it.
        out->kind_ = Kind::direct;
        out->fd_ = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        if (out->fd_ < 0) {
            error = fmt::format("{}: cannot write: {}", path, errno_text(errno));
            return nullptr;
        }
        return out;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        error = fmt::format("{}: is {}, not a regular file; refusing to replace it", path, kind_of(st.st_mode));
        return nullptr;
    }
    const std::string folder = folder_of(path);
    std::string base = base_of(path);
    if (base.size() > 100) base.resize(100);
    for (int attempt = 0; attempt < 32; ++attempt) {
        unsigned char random[6] = {};
        if (::getentropy(random, sizeof random) != 0) {
            for (auto& b : random) b = static_cast<unsigned char>(attempt * 37 + 11);
        }
        std::string name = fmt::format("{}/.{}.{}.", folder, base, static_cast<long>(::getpid()));
        for (const unsigned char b : random) name += fmt::format("{:02x}", b);
        name += ".tmp";
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == EEXIST) continue;  // someone's file or link: never touched, another name
            if (errno == ENOENT) {
                error = fmt::format("{}: cannot write: the folder {} does not exist", path, folder);
            } else {
                error = fmt::format("{}: cannot write in {}: {}", path, folder, errno_text(errno));
            }
            return nullptr;
        }
        // A file that is replaced keeps its permissions.
        if (exists) (void)::fchmod(fd, st.st_mode & 07777);
        out->fd_ = fd;
        out->temporary_ = name;
        out->slot_ = register_temporary(name.c_str());
        out->kind_ = Kind::temporary;
        return out;
    }
    error = fmt::format("{}: cannot create a temporary file in {}", path, folder);
    return nullptr;
}

OutputFile::~OutputFile() {
    if (!committed_) discard();
}

void OutputFile::discard() {
    if (fd_ >= 0 && kind_ != Kind::stdout_stream) ::close(fd_);
    fd_ = -1;
    if (kind_ == Kind::temporary && !temporary_.empty()) {
        ::unlink(temporary_.c_str());
        unregister_temporary(slot_);
        slot_ = -1;
        temporary_.clear();
    }
}

bool OutputFile::flush_buffer() {
    if (buffer_.empty() || !error_.empty()) return error_.empty();
    if (kind_ == Kind::stdout_stream) {
        if (std::fwrite(buffer_.data(), 1, buffer_.size(), stdout) != buffer_.size())
            error_ = fmt::format("standard output: write failed: {}", errno_text(errno));
    } else {
        int e = 0;
        if (!write_all(fd_, buffer_, e)) error_ = fmt::format("{}: write failed: {}", path_, errno_text(e));
    }
    buffer_.clear();
    return error_.empty();
}

bool OutputFile::write(std::string_view bytes) {
    if (!error_.empty() || committed_) return false;
    buffer_.append(bytes);
    if (buffer_.size() >= buffer_bytes) return flush_buffer();
    return true;
}

bool OutputFile::commit(std::string& error) {
    if (committed_) return true;
    auto failed = [&](std::string message) {
        error = std::move(message);
        discard();
        return false;
    };
    if (!flush_buffer()) return failed(error_);
    if (kind_ == Kind::stdout_stream) {
        if (std::fflush(stdout) != 0)
            return failed(fmt::format("standard output: write failed: {}", errno_text(errno)));
        committed_ = true;
        return true;
    }
    if (kind_ == Kind::direct) {
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) return failed(fmt::format("{}: write failed: {}", path_, errno_text(errno)));
        committed_ = true;
        return true;
    }
    if (::fsync(fd_) != 0) return failed(fmt::format("{}: write failed: {}", path_, errno_text(errno)));
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return failed(fmt::format("{}: write failed: {}", path_, errno_text(errno)));
    // The target may have changed since open(): still never replace what is
    // not a regular file.
    struct stat st = {};
    if (::lstat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return failed(fmt::format("{}: is {}, not a regular file; refusing to replace it", path_, kind_of(st.st_mode)));
    if (::rename(temporary_.c_str(), path_.c_str()) != 0)
        return failed(fmt::format("{}: cannot replace: {}", path_, errno_text(errno)));
    unregister_temporary(slot_);
    slot_ = -1;
    temporary_.clear();
    committed_ = true;
    // Make the rename itself durable; a failure here loses nothing written.
    const int dir = ::open(folder_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
    return true;
}

bool write_file(const std::string& path, std::string_view bytes, std::string& error) {
    auto out = OutputFile::open(path, error);
    if (!out) return false;
    out->write(bytes);
    return out->commit(error);
}

bool finish_stdout(std::string& error) {
    const bool had_error = std::ferror(stdout) != 0;
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int flush_errno = errno;
    const bool closed = std::fclose(stdout) == 0;
    const int close_errno = errno;
    if (flushed && closed && !had_error) return true;
    const int e = !flushed ? flush_errno : (!closed ? close_errno : 0);
    error = e != 0 ? fmt::format("standard output: write failed: {}", errno_text(e))
                   : std::string("standard output: a write failed");
    return false;
}

}  // namespace leasescope::io
