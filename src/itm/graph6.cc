// graph6 and nauty's geng (theorem3.h): the graph6 text form of a graph (nauty's formats.txt,
// one-byte size form, n <= kMaxGraph6Nodes), files of graph6 lines, and every graph on n nodes up
// to isomorphism by running geng (found on PATH, without a shell) and parsing its output. Errors
// as theorem3.h states them. Cost: O(n^2) per graph; geng's own time (n = 9: 274668 graphs).
#include "itm/theorem3.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace topocheck::itm {
namespace {

Error geng_error(ErrorCode code, std::string message) { return Error{code, std::move(message), {}, 0}; }

// Runs `program args...` (PATH lookup, no shell) and returns its standard output. nullopt when
// the program was not found.
Result<std::optional<std::string>> run_capture(const std::string& program, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return geng_error(ErrorCode::kInternal, fmt::format("pipe: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // Both ends are close-on-exec; dup2 onto the child's stdout clears the flag on fd 1 only.
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<std::string> argv_strings{program};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    if (spawned == ENOENT) return std::optional<std::string>{};
    return geng_error(ErrorCode::kInternal, fmt::format("cannot run {}: {}", program, std::strerror(spawned)));
  }
  std::string out;
  char buffer[1 << 16];
  while (true) {
    const ssize_t got = read(fds[0], buffer, sizeof buffer);
    if (got > 0) {
      out.append(buffer, static_cast<size_t>(got));
    } else if (got == 0) {
      break;
    } else if (errno != EINTR) {
      const int saved = errno;
      close(fds[0]);
      waitpid(pid, nullptr, 0);
      return geng_error(ErrorCode::kInternal, fmt::format("reading the output of {}: {}", program, std::strerror(saved)));
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return geng_error(ErrorCode::kInternal, fmt::format("waiting for {}: {}", program, std::strerror(errno)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return geng_error(ErrorCode::kInternal,
                      WIFEXITED(status) ? fmt::format("{} exited with status {}", program, WEXITSTATUS(status))
                                        : fmt::format("{} was killed by signal {}", program, WTERMSIG(status)));
  return std::optional<std::string>{std::move(out)};
}

}  // namespace

Result<Graph> parse_graph6(std::string_view text) {
  if (text.empty()) return parse_error("empty graph6 string");
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 63 || c > 126) {
      if (i == 0 && c == ':') return parse_error("':' starts a sparse6 string; graph6 expected");
      if (i == 0 && c == '&') return parse_error("'&' starts a digraph6 string; graph6 expected");
      return parse_error(fmt::format("byte {} (0x{:02x}) at column {} is outside graph6's '?'..'~'", i + 1, c, i + 1));
    }
  }
  if (text[0] == '~')
    return parse_error(fmt::format("graph6 sizes above {} (the '~' size form) are not supported", kMaxGraph6Nodes));
  const int n = text[0] - 63;
  const size_t pairs = static_cast<size_t>(n) * static_cast<size_t>(std::max(n - 1, 0)) / 2;
  const size_t bytes = (pairs + 5) / 6;
  if (text.size() != 1 + bytes)
    return parse_error(fmt::format("graph6 for {} nodes needs {} bytes after the size byte, found {}", n, bytes,
                                   text.size() - 1));
  Graph g(n);
  size_t k = 0;  // bit index in column order: x(0,1), x(0,2), x(1,2), x(0,3), ...
  for (int v = 1; v < n; ++v)
    for (int u = 0; u < v; ++u, ++k) {
      const int byte = text[1 + k / 6] - 63;
      if ((byte >> (5 - k % 6) & 1) != 0) g.add_edge(u, v);
    }
  for (; k < 6 * bytes; ++k)
    if (((text[1 + k / 6] - 63) >> (5 - k % 6) & 1) != 0)
      return parse_error("graph6 padding bits after the last node pair are not 0");
  return g;
}

std::string to_graph6(const Graph& g) {
  const int n = g.n();
  TC_CHECK(n >= 0 && n <= kMaxGraph6Nodes, fmt::format("to_graph6: {} nodes", n));
  std::string out(1, static_cast<char>(n + 63));
  int byte = 0, filled = 0;
  for (int v = 1; v < n; ++v)
    for (int u = 0; u < v; ++u) {
      byte = byte << 1 | (g.adjacent(u, v) ? 1 : 0);
      if (++filled == 6) {
        out += static_cast<char>(byte + 63);
        byte = filled = 0;
      }
    }
  if (filled > 0) out += static_cast<char>((byte << (6 - filled)) + 63);
  return out;
}

Result<std::vector<Graph>> parse_graph6_lines(std::string_view text, const std::string& source) {
  std::vector<Graph> graphs;
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    constexpr std::string_view kHeader = ">>graph6<<";
    if (line_number == 1 && line.substr(0, kHeader.size()) == kHeader) line.remove_prefix(kHeader.size());
    auto graph = parse_graph6(line);
    if (!graph) return parse_error(graph.error().message, source, line_number);
    graphs.push_back(std::move(graph).value());
  }
  return graphs;
}

Result<std::vector<Graph>> all_graphs(int n, bool connected_only) {
  if (n < 1 || n > kMaxGengNodes)
    return invalid_argument(fmt::format("all_graphs: n = {} is outside 1..{}", n, kMaxGengNodes));
  std::vector<std::string> args{"-g", "-q"};
  if (connected_only) args.push_back("-c");
  args.push_back(std::to_string(n));
  for (const std::string program : {"nauty-geng", "geng"}) {
    auto output = run_capture(program, args);
    if (!output) return output.error();
    if (!output->has_value()) continue;
    std::string source = program;
    for (const std::string& a : args) source += " " + a;
    return parse_graph6_lines(**output, source);
  }
  return Error{ErrorCode::kNotFound,
               "nauty's geng is not on PATH as `nauty-geng` or `geng` (Debian/Ubuntu: apt-get install nauty)",
               {},
               0};
}

}  // namespace topocheck::itm
