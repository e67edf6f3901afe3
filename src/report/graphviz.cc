// Graphviz as a child process (graphviz.h): posix_spawnp with three pipes, a poll loop that
// writes stdin and drains stdout and stderr until all are closed or the deadline passes.
#include "report/graphviz.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <tuple>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace topocheck::report {
namespace {

// A pipe whose ends are closed when it goes out of scope (unless released).
struct Pipe {
  int fd[2] = {-1, -1};
  ~Pipe() {
    for (int& f : fd) close_end(f);
  }
  static void close_end(int& f) {
    if (f >= 0) ::close(f);
    f = -1;
  }
};

Error program_error(const std::string& program, const std::string& what) {
  return Error{ErrorCode::kInternal, fmt::format("{}: {}", program, what), {}, 0};
}

// The last part of stderr, enough to name the problem without flooding the message.
std::string stderr_tail(const std::string& err) {
  constexpr size_t kKeep = 2000;
  std::string s = err.size() > kKeep ? "..." + err.substr(err.size() - kKeep) : err;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "(no message on stderr)" : s;
}

}  // namespace

Result<std::string> run_program(const std::string& program, const std::vector<std::string>& args,
                                const std::string& input, std::chrono::milliseconds timeout) {
  Pipe in, out, err;
  for (Pipe* p : {&in, &out, &err})
    if (::pipe2(p->fd, O_CLOEXEC) != 0) return program_error(program, fmt::format("pipe: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == ENOENT)
    return Error{ErrorCode::kNotFound,
                 fmt::format("{}: not found on PATH; install Graphviz (the Debian package graphviz)", program), {}, 0};
  if (spawned != 0) return program_error(program, fmt::format("cannot start: {}", std::strerror(spawned)));
  // The child holds its own copies; the parent keeps only its ends, non-blocking.
  Pipe::close_end(in.fd[0]);
  Pipe::close_end(out.fd[1]);
  Pipe::close_end(err.fd[1]);
  for (int f : {in.fd[1], out.fd[0], err.fd[0]}) ::fcntl(f, F_SETFL, ::fcntl(f, F_GETFL) | O_NONBLOCK);
  // A child that exits before reading all of stdin must not kill us with SIGPIPE: it is blocked in
  // this thread while we write (the child started with our mask already), a pending one is taken
  // back below, and the write fails with EPIPE; the exit status then reports the child's problem.
  sigset_t sigpipe_only, previous_mask;
  sigemptyset(&sigpipe_only);
  sigaddset(&sigpipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &sigpipe_only, &previous_mask);
  bool raised_sigpipe = false;

  std::string stdout_text, stderr_text;
  size_t written = 0;
  if (input.empty()) Pipe::close_end(in.fd[1]);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  int poll_errno = 0;
  std::array<char, 65536> buffer;
  while (in.fd[1] >= 0 || out.fd[0] >= 0 || err.fd[0] >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{{{in.fd[1], POLLOUT, 0}, {out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}}};
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      poll_errno = errno;
      break;
    }
    if (fds[0].revents != 0) {
      const ssize_t w = ::write(in.fd[1], input.data() + written, input.size() - written);
      if (w > 0) written += static_cast<size_t>(w);
      if (w < 0 && errno == EPIPE) raised_sigpipe = true;
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) Pipe::close_end(in.fd[1]);
    }
    for (auto [index, fd, text] : {std::tuple{1, &out.fd[0], &stdout_text}, std::tuple{2, &err.fd[0], &stderr_text}}) {
      if (fds[static_cast<size_t>(index)].revents == 0) continue;
      const ssize_t r = ::read(*fd, buffer.data(), buffer.size());
      if (r > 0) text->append(buffer.data(), static_cast<size_t>(r));
      else if (r == 0 || (errno != EAGAIN && errno != EINTR)) Pipe::close_end(*fd);
    }
  }
  if (raised_sigpipe) {
    const timespec no_wait{0, 0};
    ::sigtimedwait(&sigpipe_only, nullptr, &no_wait);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  if (timed_out || poll_errno != 0) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return program_error(program, fmt::format("killed after the {} ms timeout", timeout.count()));
  if (poll_errno != 0) return program_error(program, fmt::format("poll: {}", std::strerror(poll_errno)));
  if (WIFSIGNALED(status))
    return program_error(program, fmt::format("killed by signal {}: {}", WTERMSIG(status), stderr_tail(stderr_text)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return program_error(program, fmt::format("exit status {}: {}", WEXITSTATUS(status), stderr_tail(stderr_text)));
  return stdout_text;
}

Result<std::string> render_svg(const std::string& dot_text, Layout layout, std::chrono::milliseconds timeout) {
  if (layout == Layout::kNeatoPinned) return run_program("neato", {"-n", "-Tsvg"}, dot_text, timeout);
  return run_program("dot", {"-Tsvg"}, dot_text, timeout);
}

}  // namespace topocheck::report
