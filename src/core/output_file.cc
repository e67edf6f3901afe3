#include "core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>

#include <fmt/format.h>

namespace topocheck {

namespace fs = std::filesystem;

namespace {

Error write_error(const std::string& file, const std::string& what, int err) {
  return Error{ErrorCode::kInvalidArgument, fmt::format("{}: {}", what, std::strerror(err)), file, 0};
}

Error stdout_error(int err) {
  // errno is 0 when the failing write happened earlier (a buffer flushed mid-run).
  return Error{ErrorCode::kInvalidArgument, err ? fmt::format("write failed: {}", std::strerror(err)) : "write failed",
               "stdout", 0};
}

// ---------------------------------------------------------------------------------------------
// The registry: fixed slots, so that the signal handler reads it without allocating or locking.

constexpr int kSlots = 32;
constexpr size_t kPathMax = 4096;
struct Slot {
  std::atomic<bool> used{false};
  char path[kPathMax] = {};
};
std::array<Slot, kSlots> g_slots;
std::atomic<int> g_live{0};

void on_signal(int sig) {
  temporaries::unlink_all();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Writes all of `content` to `fd`; errno on failure, 0 on success.
int write_all(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t w = ::write(fd, content.data() + done, content.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (w == 0) return EIO;
    done += static_cast<size_t>(w);
  }
  return 0;
}

// Plain writes to what `file` names (a device, a FIFO, a symlink's target): no temporary.
Result<fs::path> write_in_place(const fs::path& file, std::string_view content) {
  const std::string name = file.string();
  const int fd = ::open(name.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return write_error(name, "cannot open for writing", errno);
  if (const int err = write_all(fd, content)) {
    ::close(fd);
    return write_error(name, "write failed", err);
  }
  if (::close(fd) != 0) return write_error(name, "write failed", errno);
  return file;
}

// Temporary, fsync, rename, fsync of the folder.
// `mode`: the replaced file's permissions to keep; nullopt: a new file (0666 less the umask).
Result<fs::path> write_atomically(const fs::path& file, std::string_view content, std::optional<mode_t> mode) {
  static std::atomic<unsigned> counter{0};
  const std::string name = file.string();
  const std::string tmp = fmt::format("{}.tmp.{}.{}", name, ::getpid(), counter++);
  install_signal_cleanup();
  const int slot = temporaries::add(tmp);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    temporaries::remove(slot);
    return write_error(name, "cannot create a temporary file beside it", err);
  }
  auto fail = [&](const char* what, int err) -> Result<fs::path> {
    ::close(fd);
    ::unlink(tmp.c_str());
    temporaries::remove(slot);
    return write_error(name, what, err);
  };
  if (const int err = write_all(fd, content)) return fail("write failed", err);
  if (mode && ::fchmod(fd, *mode) != 0) return fail("cannot keep the file's mode", errno);
  if (::fsync(fd) != 0) return fail("fsync failed", errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    temporaries::remove(slot);
    return write_error(name, "write failed", err);
  }
  if (::rename(tmp.c_str(), name.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    temporaries::remove(slot);
    return write_error(name, "cannot rename the temporary file over it", err);
  }
  temporaries::remove(slot);
  // The rename is durable once the folder is.
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    const int rc = ::fsync(dfd);
    const int err = errno;
    ::close(dfd);
    // Some file systems cannot fsync a folder (EINVAL); the file itself is already complete.
    if (rc != 0 && err != EINVAL && err != EROFS) return write_error(name, "fsync of its folder failed", err);
  }
  return file;
}

}  // namespace

namespace temporaries {

int add(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[static_cast<size_t>(i)];
    bool expected = false;
    if (!s.used.load(std::memory_order_relaxed) &&
        s.used.compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      // The path is filled in while the slot is claimed but not yet live for the handler.
      std::memcpy(s.path, path.c_str(), path.size() + 1);
      std::atomic_signal_fence(std::memory_order_release);
      g_live.fetch_add(1);
      return i;
    }
  }
  return -1;
}

void remove(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  Slot& s = g_slots[static_cast<size_t>(slot)];
  s.path[0] = '\0';
  std::atomic_signal_fence(std::memory_order_release);
  s.used.store(false, std::memory_order_release);
  g_live.fetch_sub(1);
}

void unlink_all() noexcept {
  for (Slot& s : g_slots)
    if (s.used.load(std::memory_order_acquire) && s.path[0] != '\0') ::unlink(s.path);
}

int live() { return g_live.load(); }

const char* slot_path(int slot) {
  if (slot < 0 || slot >= kSlots) return "";
  return g_slots[static_cast<size_t>(slot)].path;
}

}  // namespace temporaries

void install_signal_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      ::sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring
      struct sigaction sa {};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

Result<fs::path> write_file(const fs::path& file, std::string_view content, const WriteOptions& options) {
  const std::string name = file.string();
  if (name.empty()) return invalid_argument("an empty file name");
  if (name == "-") {
    std::cout.flush();
    std::fwrite(content.data(), 1, content.size(), stdout);
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      const int err = errno;
      std::clearerr(stdout);  // reported here: finish_stdout() does not report it again
      return stdout_error(err);
    }
    return file;
  }
  struct stat st {};
  if (::lstat(name.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Error{ErrorCode::kInvalidArgument, "is a directory", name, 0};
    if (S_ISLNK(st.st_mode)) {
      struct stat target {};
      if (::stat(name.c_str(), &target) == 0 && S_ISDIR(target.st_mode))
        return Error{ErrorCode::kInvalidArgument, "is a directory (through a symlink)", name, 0};
      return write_in_place(file, content);
    }
    if (!S_ISREG(st.st_mode)) return write_in_place(file, content);
    return write_atomically(file, content, static_cast<mode_t>(st.st_mode & 07777));
  }
  if (errno != ENOENT) return write_error(name, "cannot reach the file", errno);
  if (options.create_folders && file.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec) return Error{ErrorCode::kInvalidArgument, "cannot create the folder: " + ec.message(), name, 0};
  }
  return write_atomically(file, content, std::nullopt);
}

Result<bool> finish_stdout() {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = errno;
  if (!flushed || std::ferror(stdout) || !std::cout)
    return stdout_error(err);
  return true;
}

}  // namespace topocheck
