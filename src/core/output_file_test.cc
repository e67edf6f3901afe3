#include "core/output_file.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace topocheck {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/output_file_test.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // A file `name` in the folder (content: its name), for registering as a temporary.
  fs::path touch(const std::string& name) const {
    const fs::path p = dir_ / name;
    std::ofstream(p) << name;
    return p;
  }
  // No FILE.tmp.* left in the folder.
  bool no_temporaries() const {
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().find(".tmp.") != std::string::npos) return false;
    return true;
  }
  fs::path dir_;
};

TEST_F(OutputFileTest, WritesANewRegularFileAtomically) {
  const fs::path f = dir_ / "out.json";
  ASSERT_TRUE(write_file(f, "hello\n").ok());
  EXPECT_EQ(read(f), "hello\n");
  EXPECT_TRUE(no_temporaries());
  EXPECT_EQ(temporaries::live(), 0);
}

TEST_F(OutputFileTest, ReplacesARegularFileKeepingItsMode) {
  const fs::path f = dir_ / "out.json";
  ASSERT_TRUE(write_file(f, "first\n").ok());
  ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
  ASSERT_TRUE(write_file(f, "second\n").ok());
  EXPECT_EQ(read(f), "second\n");
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_TRUE(no_temporaries());
}

TEST_F(OutputFileTest, WritesThroughASymlinkWithoutReplacingIt) {
  const fs::path target = dir_ / "target.json", link = dir_ / "link.json";
  ASSERT_TRUE(write_file(target, "old\n").ok());
  fs::create_symlink(target, link);
  ASSERT_TRUE(write_file(link, "new\n").ok());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(target), "new\n");
  EXPECT_TRUE(no_temporaries());
}

TEST_F(OutputFileTest, DevicesAreWrittenInPlace) {
  ASSERT_TRUE(write_file("/dev/null", "x").ok());
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  auto full = write_file("/dev/full", "x");
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().file, "/dev/full");
  EXPECT_NE(full.error().message.find("No space left on device"), std::string::npos) << full.error().message;
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

TEST_F(OutputFileTest, AFifoIsWrittenInPlace) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t reader = ::fork();
  ASSERT_GE(reader, 0);
  if (reader == 0) {
    std::ifstream in(fifo);
    std::string line;
    std::getline(in, line);
    std::_Exit(line == "through" ? 0 : 1);
  }
  ASSERT_TRUE(write_file(fifo, "through\n").ok());
  int status = 0;
  ASSERT_EQ(::waitpid(reader, &status, 0), reader);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputFileTest, ErrorsNameTheFile) {
  auto d = write_file(dir_, "x");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().file, dir_.string());
  EXPECT_EQ(d.error().message, "is a directory");
  auto missing = write_file(dir_ / "no" / "such" / "out.json", "x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().file, (dir_ / "no" / "such" / "out.json").string());
  EXPECT_FALSE(write_file("", "x").ok());
  ASSERT_TRUE(write_file(dir_ / "made" / "out.json", "x", WriteOptions{.create_folders = true}).ok());
}

// A path through a regular file (ENOTDIR, not ENOENT): the error names the file, says why, and has
// no line (a written file has none: "FILE: message", never "FILE:1: message").
TEST_F(OutputFileTest, APathThroughAFileIsUnreachable) {
  ASSERT_TRUE(write_file(dir_ / "plain", "x").ok());
  const fs::path target = dir_ / "plain" / "out.json";
  auto r = write_file(target, "x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, target.string());
  EXPECT_EQ(r.error().line, 0);
  EXPECT_EQ(r.error().message, fmt::format("cannot reach the file: {}", std::strerror(ENOTDIR)));
}

// A write that fails half-way (the file size limit, EFBIG): the error names the file and why,
// the temporary is removed and the file keeps its old content.
TEST_F(OutputFileTest, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const fs::path f = dir_ / "out.json";
  ASSERT_TRUE(write_file(f, "old\n").ok());
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  auto r = write_file(f, std::string(8192, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, f.string());
  EXPECT_EQ(r.error().line, 0);
  EXPECT_EQ(r.error().message, fmt::format("write failed: {}", std::strerror(EFBIG)));
  EXPECT_EQ(read(f), "old\n");
  EXPECT_TRUE(no_temporaries());
}

// The registry's tests that register real files: each in the fixture's own folder.
using TemporariesInAFolder = OutputFileTest;

TEST_F(TemporariesInAFolder, UnlinkAllRemovesTheRegisteredOnly) {
  const fs::path a = touch("a.tmp.1"), b = touch("b.tmp.2");
  const int sa = temporaries::add(a.string());
  const int sb = temporaries::add(b.string());
  ASSERT_GE(sa, 0);
  ASSERT_GE(sb, 0);
  EXPECT_EQ(temporaries::live(), 2);
  temporaries::remove(sb);
  temporaries::unlink_all();
  EXPECT_FALSE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  temporaries::remove(sa);
  EXPECT_EQ(temporaries::live(), 0);
}

// Removing a slot that is no slot (add's -1, or past the registry) changes nothing.
TEST(Temporaries, RemovingANonSlotChangesNothing) {
  const int before = temporaries::live();
  temporaries::remove(-1);
  temporaries::remove(32);
  EXPECT_EQ(temporaries::live(), before);
}

// A released slot holds no path any more.
TEST(Temporaries, ARemovedSlotHoldsNoPath) {
  const int slot = temporaries::add("/tmp/output_file_released.tmp");
  ASSERT_GE(slot, 0);
  EXPECT_STREQ(temporaries::slot_path(slot), "/tmp/output_file_released.tmp");
  temporaries::remove(slot);
  EXPECT_STREQ(temporaries::slot_path(slot), "");
}

// unlink_all removes a registered temporary whatever the length of its path, one character too.
TEST_F(TemporariesInAFolder, UnlinkAllRemovesAOneCharacterPath) {
  const fs::path old = fs::current_path();
  touch("x");
  fs::current_path(dir_);
  const int slot = temporaries::add("x");
  temporaries::unlink_all();
  const bool gone = !fs::exists("x");
  temporaries::remove(slot);
  fs::current_path(old);
  ASSERT_GE(slot, 0);
  EXPECT_TRUE(gone);
}

// The registry holds 32 temporaries at once (the header's capacity), each in its own slot; the
// 33rd is refused, not registered over another.
TEST(Temporaries, HoldsThirtyTwoAtOnce) {
  std::vector<int> slots;
  for (int i = 0; i < 32; ++i) {
    const int slot = temporaries::add(fmt::format("/tmp/output_file_cap.{}.tmp", i));
    ASSERT_GE(slot, 0) << "temporary " << i;
    slots.push_back(slot);
  }
  EXPECT_EQ(temporaries::live(), 32);
  std::vector<int> sorted = slots;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "a slot given twice";
  EXPECT_EQ(temporaries::add("/tmp/output_file_cap.33.tmp"), -1);
  for (int slot : slots) temporaries::remove(slot);
  EXPECT_EQ(temporaries::live(), 0);
}

// A path of 4,096 bytes or more does not fit a slot: refused (the write goes on unprotected),
// and the slots registered around it keep their paths.
TEST_F(TemporariesInAFolder, RefusesAPathTooLongForASlot) {
  const fs::path a = touch("a.tmp.1"), b = touch("b.tmp.2");
  const int sa = temporaries::add(a.string());
  const int sb = temporaries::add(b.string());
  ASSERT_GE(sa, 0);
  ASSERT_GE(sb, 0);
  temporaries::remove(sa);  // a free slot before b's: where the long path would go
  EXPECT_EQ(temporaries::add(std::string(4096, 'x')), -1);
  EXPECT_EQ(temporaries::add(std::string(10000, 'y')), -1);
  EXPECT_EQ(temporaries::live(), 1);
  temporaries::unlink_all();
  EXPECT_FALSE(fs::exists(b)) << "b's slot lost its path";
  EXPECT_TRUE(fs::exists(a));
  temporaries::remove(sb);
  EXPECT_EQ(temporaries::live(), 0);
}

// write_file("-") reports a write to stdout that failed even when nothing is left to flush: an
// unbuffered stdout on /dev/full fails in fwrite itself, and the flush after it succeeds.
TEST(WriteStdout, ReportsAFailedUnbufferedWrite) {
  std::fflush(stdout);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int full = ::open("/dev/full", O_WRONLY);
    if (full < 0 || ::dup2(full, STDOUT_FILENO) < 0) std::_Exit(3);
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    const auto r = write_file("-", "x");
    std::_Exit(r.ok() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the failed write was not reported; 3: /dev/full not opened";
}

// A process killed by SIGTERM while a temporary is registered leaves no temporary and still dies
// of SIGTERM (the handler re-raises it).
TEST_F(TemporariesInAFolder, SigtermRemovesTheLiveTemporaries) {
  const fs::path tmp = dir_ / "out.json.tmp.99.0";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_signal_cleanup();
    std::ofstream(tmp) << "partial";
    if (temporaries::add(tmp.string()) < 0) std::_Exit(3);
    ::raise(SIGTERM);
    std::_Exit(4);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(fs::exists(tmp));
}

}  // namespace
}  // namespace topocheck
