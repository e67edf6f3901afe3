// The output module's failure paths that no real file system in a test can provoke: a failing
// fsync, close, rename or fchmod of the temporary, and a failing fsync of the folder. This binary
// defines those libc functions itself (the executable's definitions take precedence for its own
// calls), passing through to the system calls unless a test arms a failure of the next call.
// Contract (output_file.h): every such failure is an Error naming the file and the system's
// reason, the target keeps its old content, and no temporary is left behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/output_file.h"

namespace {

// How many further calls pass before the armed one fails (-1: none armed).
std::atomic<int> g_close_after{-1}, g_fsync_after{-1}, g_rename_after{-1}, g_fchmod_after{-1};
// Calls of unlink with an empty path (a slot the cleanup should have skipped).
std::atomic<int> g_empty_unlinks{0};

// True when this call is the armed one (and disarms it).
bool fire(std::atomic<int>& after) {
  int n = after.load();
  while (n >= 0) {
    if (after.compare_exchange_weak(n, n - 1)) return n == 0;
  }
  return false;
}

}  // namespace

extern "C" int close(int fd) {
  const long rc = ::syscall(SYS_close, fd);
  if (fire(g_close_after)) {
    errno = EIO;  // the descriptor is closed all the same, as Linux does after EIO
    return -1;
  }
  return static_cast<int>(rc);
}

extern "C" int fsync(int fd) {
  if (fire(g_fsync_after)) {
    errno = EIO;
    return -1;
  }
  return static_cast<int>(::syscall(SYS_fsync, fd));
}

extern "C" int fchmod(int fd, mode_t mode) {
  if (fire(g_fchmod_after)) {
    errno = EPERM;
    return -1;
  }
  return static_cast<int>(::syscall(SYS_fchmod, fd, mode));
}

extern "C" int rename(const char* from, const char* to) {
  if (fire(g_rename_after)) {
    errno = EXDEV;
    return -1;
  }
  return static_cast<int>(::syscall(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to));
}

extern "C" int unlink(const char* path) {
  if (path[0] == '\0') ++g_empty_unlinks;
  return static_cast<int>(::syscall(SYS_unlinkat, AT_FDCWD, path, 0));
}

namespace topocheck {
namespace {

namespace fs = std::filesystem;

class OutputFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/output_faults_test.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    target_ = dir_ / "out.json";
    std::ofstream(target_) << "old\n";
  }
  void TearDown() override {
    g_close_after = g_fsync_after = g_rename_after = g_fchmod_after = -1;
    fs::remove_all(dir_);
  }
  std::string read_target() const {
    std::ifstream in(target_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Nothing but the target in the folder, no temporary registered, the target unchanged, and one
  // error naming the target with `message`.
  void expect_clean_failure(const Result<fs::path>& r, const std::string& message) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().file, target_.string());
    EXPECT_EQ(r.error().line, 0);
    EXPECT_EQ(r.error().message, message);
    EXPECT_EQ(read_target(), "old\n");
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir_)) {
      ++entries;
      EXPECT_EQ(e.path(), target_) << "left behind";
    }
    EXPECT_EQ(entries, 1);
    EXPECT_EQ(temporaries::live(), 0);
  }
  fs::path dir_, target_;
};

TEST_F(OutputFaultsTest, TheInterposedCallsPassThroughWhenNotArmed) {
  ASSERT_TRUE(write_file(target_, "new\n").ok());
  EXPECT_EQ(read_target(), "new\n");
}

TEST_F(OutputFaultsTest, AFailingFsyncOfTheTemporary) {
  g_fsync_after = 0;
  expect_clean_failure(write_file(target_, "new\n"), fmt::format("fsync failed: {}", std::strerror(EIO)));
}

TEST_F(OutputFaultsTest, AFailingCloseOfTheTemporary) {
  g_close_after = 0;  // the first close write_file makes is the temporary's
  expect_clean_failure(write_file(target_, "new\n"), fmt::format("write failed: {}", std::strerror(EIO)));
}

TEST_F(OutputFaultsTest, AFailingRename) {
  g_rename_after = 0;
  expect_clean_failure(write_file(target_, "new\n"),
                       fmt::format("cannot rename the temporary file over it: {}", std::strerror(EXDEV)));
}

TEST_F(OutputFaultsTest, AFailingFchmodWhenKeepingTheMode) {
  g_fchmod_after = 0;  // an existing file: its mode is kept with fchmod
  expect_clean_failure(write_file(target_, "new\n"),
                       fmt::format("cannot keep the file's mode: {}", std::strerror(EPERM)));
}

// The second fsync is the folder's: the rename has happened, so the file holds the new content,
// but its durability is not known, and that is reported.
TEST_F(OutputFaultsTest, AFailingFsyncOfTheFolderIsReported) {
  g_fsync_after = 1;
  const auto r = write_file(target_, "new\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, target_.string());
  EXPECT_EQ(r.error().message, fmt::format("fsync of its folder failed: {}", std::strerror(EIO)));
  EXPECT_EQ(read_target(), "new\n");
  EXPECT_EQ(temporaries::live(), 0);
}

// The signal cleanup skips a claimed slot whose path is not written yet (empty): it unlinks only
// what a slot names.
TEST_F(OutputFaultsTest, TheCleanupSkipsAClaimedSlotWithoutAPath) {
  const int slot = temporaries::add("");
  ASSERT_GE(slot, 0);
  const int before = g_empty_unlinks.load();
  temporaries::unlink_all();
  EXPECT_EQ(g_empty_unlinks.load(), before);
  temporaries::remove(slot);
  EXPECT_EQ(temporaries::live(), 0);
}

// A device is written in place: a failing close after the write is an error naming it.
TEST_F(OutputFaultsTest, AFailingCloseOfADeviceWrittenInPlace) {
  g_close_after = 0;
  const auto r = write_file("/dev/null", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "/dev/null");
  EXPECT_EQ(r.error().message, fmt::format("write failed: {}", std::strerror(EIO)));
}

}  // namespace
}  // namespace topocheck
