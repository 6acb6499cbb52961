// The file edge (app/io): a write is whole or nothing, never follows a link,
// never replaces what is not a regular file (a FIFO is written straight
// through), leaves no temporary behind, and names the user's path in every
// error; a read never goes past its limit.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "leasescope/io/files.hpp"

namespace leasescope {
namespace {

namespace fs = std::filesystem;

class IoTest : public ::testing::Test {
protected:
    void SetUp() override {
        char name[] = "/tmp/leasescope-io-test.XXXXXX";
        ASSERT_NE(::mkdtemp(name), nullptr);
        dir_ = name;
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    static std::string slurp(const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    static void put(const std::string& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }
    // Names in the folder, sorted.
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }
    std::string dir_;
};

TEST_F(IoTest, WritesWholeFilesAndLeavesNoTemporary) {
    std::string error;
    ASSERT_TRUE(io::write_file(path("a.jsonl"), "hello\n", error)) << error;
    EXPECT_EQ(slurp(path("a.jsonl")), "hello\n");
    ASSERT_TRUE(io::write_file(path("a.jsonl"), "again\n", error)) << error;
    EXPECT_EQ(slurp(path("a.jsonl")), "again\n");
    EXPECT_EQ(entries(), std::vector<std::string>{"a.jsonl"});
}

TEST_F(IoTest, ALinkPlantedAtTheOldTemporaryNameIsNeverFollowed) {
    // The writer used PATH.tmp: a link there made it overwrite the link's target.
    put(path("victim"), "precious");
    fs::create_symlink(path("victim"), path("out.jsonl.tmp"));
    put(path("out.jsonl.tmp2"), "someone's file");
    std::string error;
    ASSERT_TRUE(io::write_file(path("out.jsonl"), "trace\n", error)) << error;
    EXPECT_EQ(slurp(path("victim")), "precious");
    EXPECT_TRUE(fs::is_symlink(path("out.jsonl.tmp")));
    EXPECT_EQ(slurp(path("out.jsonl.tmp2")), "someone's file");
    EXPECT_EQ(slurp(path("out.jsonl")), "trace\n");
    EXPECT_EQ(entries(), (std::vector<std::string>{"out.jsonl", "out.jsonl.tmp", "out.jsonl.tmp2", "victim"}));
}

TEST_F(IoTest, ALinkAtTheTargetIsRefusedNotReplaced) {
    put(path("real"), "real");
    fs::create_symlink(path("real"), path("link.jsonl"));
    std::string error;
    EXPECT_FALSE(io::write_file(path("link.jsonl"), "x", error));
    EXPECT_NE(error.find(path("link.jsonl") + ": is a symbolic link"), std::string::npos) << error;
    EXPECT_TRUE(fs::is_symlink(path("link.jsonl")));
    EXPECT_EQ(slurp(path("real")), "real");
    EXPECT_EQ(entries(), (std::vector<std::string>{"link.jsonl", "real"}));
}

TEST_F(IoTest, DevicesAndDirectoriesAreRefused) {
    // A node of our own, never /dev/null: a writer with the old bug would
    // replace the shared node with a plain file. mknod needs root; without
    // it a socket stands in (not a regular file either).
    std::string error;
    const std::string node = path("device");
    bool is_device = ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    if (!is_device) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address = {};
        address.sun_family = AF_UNIX;
        std::snprintf(address.sun_path, sizeof address.sun_path, "%s", node.c_str());
        ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        ::close(fd);
    }
    EXPECT_FALSE(io::write_file(node, "x", error));
    EXPECT_NE(error.find(node + (is_device ? ": is a character device" : ": is a socket")), std::string::npos) << error;
    struct stat st = {};
    ASSERT_EQ(::lstat(node.c_str(), &st), 0);
    EXPECT_TRUE(is_device ? S_ISCHR(st.st_mode) : S_ISSOCK(st.st_mode));
    fs::create_directory(path("d"));
    EXPECT_FALSE(io::write_file(path("d"), "x", error));
    EXPECT_NE(error.find(path("d") + ": is a directory"), std::string::npos) << error;
}

TEST_F(IoTest, AFifoIsWrittenStraightThrough) {
    ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = slurp(path("pipe")); });
    std::string error;
    const bool ok = io::write_file(path("pipe"), "through the pipe\n", error);
    reader.join();
    EXPECT_TRUE(ok) << error;
    EXPECT_EQ(received, "through the pipe\n");
    struct stat st = {};
    ASSERT_EQ(::lstat(path("pipe").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still a pipe, not replaced by a file
    EXPECT_EQ(entries(), std::vector<std::string>{"pipe"});
}

TEST_F(IoTest, AMissingFolderFailsAtOpenNamingThePath) {
    std::string error;
    EXPECT_EQ(io::OutputFile::open(path("no/such/x.jsonl"), error), nullptr);
    EXPECT_NE(error.find(path("no/such/x.jsonl")), std::string::npos) << error;
    EXPECT_NE(error.find("does not exist"), std::string::npos) << error;
}

TEST_F(IoTest, AFailedWriteNamesThePathKeepsTheOldFileAndRemovesTheTemporary) {
    put(path("old.jsonl"), "old content");
    // A file size limit makes write(2) fail with EFBIG, as a full disk would
    // with ENOSPC; SIGXFSZ is ignored so that the error is returned.
    struct rlimit before = {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
    auto* const old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = before;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string error;
    const bool ok = io::write_file(path("old.jsonl"), std::string(1 << 20, 'x'), error);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &before), 0);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_FALSE(ok);
    EXPECT_EQ(error.rfind(path("old.jsonl") + ": write failed", 0), 0u) << error;
    EXPECT_EQ(error.find(".tmp"), std::string::npos) << error;
    EXPECT_EQ(slurp(path("old.jsonl")), "old content");
    EXPECT_EQ(entries(), std::vector<std::string>{"old.jsonl"});
}

TEST_F(IoTest, AnOutputFileNotCommittedLeavesNothing) {
    put(path("kept"), "kept");
    {
        std::string error;
        auto out = io::OutputFile::open(path("kept"), error);
        ASSERT_NE(out, nullptr) << error;
        EXPECT_TRUE(out->write("partial"));
        EXPECT_EQ(entries().size(), 2u);  // the temporary exists while writing
    }
    EXPECT_EQ(slurp(path("kept")), "kept");
    EXPECT_EQ(entries(), std::vector<std::string>{"kept"});
}

TEST_F(IoTest, AReplacedFileKeepsItsPermissions) {
    put(path("mode"), "x");
    fs::permissions(path("mode"), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    std::string error;
    ASSERT_TRUE(io::write_file(path("mode"), "y", error)) << error;
    EXPECT_EQ(fs::status(path("mode")).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(IoTest, ReadsStopAtTheLimit) {
    std::string error;
    put(path("at"), std::string(1000, 'a'));
    auto at = io::read_file(path("at"), 1000, "test_max", error);
    ASSERT_TRUE(at.has_value()) << error;
    EXPECT_EQ(at->size(), 1000u);
    put(path("past"), std::string(1001, 'a'));
    EXPECT_FALSE(io::read_file(path("past"), 1000, "test_max", error).has_value());
    EXPECT_NE(error.find("larger than 1000 bytes (test_max)"), std::string::npos) << error;
    // /dev/zero never ends: it is read up to the limit, not until memory runs out.
    EXPECT_FALSE(io::read_file("/dev/zero", 1 << 20, "test_max", error).has_value());
    EXPECT_NE(error.find("/dev/zero: the file is larger than"), std::string::npos) << error;
    EXPECT_FALSE(io::read_file(dir_, 1000, "test_max", error).has_value());
    EXPECT_NE(error.find(dir_ + ": is a directory"), std::string::npos) << error;
    EXPECT_FALSE(io::read_file(path("absent"), 1000, "test_max", error).has_value());
    EXPECT_NE(error.find(path("absent") + ": cannot open"), std::string::npos) << error;
}

}  // namespace
}  // namespace leasescope
