#include "itm/theorem3.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace topocheck::itm {

namespace {

// ---------------------------------------------------------------------------------------------
// Bit-mask view of a small graph: bit v of adj[u] is set iff {u, v} is an edge.

using Mask = uint32_t;

struct Bits {
  int n = 0;
  Mask all = 0;  // bits 0..n-1
  std::array<Mask, kMaxTheorem3Nodes> adj{};
  bool adjacent(int u, int v) const { return (adj[static_cast<size_t>(u)] >> v & 1u) != 0; }
};

Bits bits_of(const Graph& g) {
  TC_CHECK(g.n() >= 0 && g.n() <= kMaxTheorem3Nodes,
           fmt::format("theorem 3 deciders take at most {} nodes, not {}", kMaxTheorem3Nodes, g.n()));
  Bits b;
  b.n = g.n();
  b.all = (Mask{1} << b.n) - 1;
  for (const auto& [u, v] : g.edges()) {
    b.adj[static_cast<size_t>(u)] |= Mask{1} << v;
    b.adj[static_cast<size_t>(v)] |= Mask{1} << u;
  }
  return b;
}

Mask bit(int v) { return Mask{1} << v; }

// Index of the node pair {u, v} (u != v) in 0..n(n-1)/2 - 1 for n <= kMaxTheorem3Nodes: the
// pairs of larger endpoint w come after the w(w-1)/2 pairs of smaller larger endpoint.
int pair_index(int u, int v) {
  if (u > v) std::swap(u, v);
  return v * (v - 1) / 2 + u;
}
uint64_t pair_bit(int u, int v) { return uint64_t{1} << pair_index(u, v); }

// ---------------------------------------------------------------------------------------------
// Witnesses in g's labels, turned into SpanningItm (ITM labels).

struct LabelledStep {
  int v, x, y;  // node v of g added at the edge (x, y) of g
};

SpanningItm make_witness(const Graph& g, Rule rule, std::array<int, 3> kernel,
                         const std::vector<LabelledStep>& steps) {
  SpanningItm out;
  out.rule = rule;
  out.order = {kernel[0], kernel[1], kernel[2]};
  std::vector<int> label(static_cast<size_t>(g.n()), -1);
  for (int i = 0; i < 3; ++i) label[static_cast<size_t>(kernel[static_cast<size_t>(i)])] = i;
  auto add_edge = [&](int u, int v) {
    TC_CHECK(g.adjacent(u, v), "spanning ITM witness uses a non-edge of g");
    out.edges.emplace_back(std::min(u, v), std::max(u, v));
  };
  add_edge(kernel[0], kernel[1]);
  add_edge(kernel[0], kernel[2]);
  add_edge(kernel[1], kernel[2]);
  for (const LabelledStep& s : steps) {
    const int index = static_cast<int>(out.order.size());
    out.order.push_back(s.v);
    label[static_cast<size_t>(s.v)] = index;
    out.steps.push_back(Step{index, label[static_cast<size_t>(s.x)], label[static_cast<size_t>(s.y)]});
    add_edge(s.v, s.x);
    add_edge(s.v, s.y);
  }
  TC_CHECK(static_cast<int>(out.order.size()) == g.n() &&
               std::all_of(label.begin(), label.end(), [](int l) { return l >= 0; }),
           "spanning ITM witness does not span g");
  std::sort(out.edges.begin(), out.edges.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// The AddNode search. A partial ITM is its node set, its edge set and (kExterior) its exterior
// edges; what can still be added depends on nothing else, so a partial ITM that failed once is
// remembered by (edges, exterior) and never expanded again, whatever order reached it.

struct PartialKey {
  uint64_t edges, exterior;
  friend bool operator==(const PartialKey&, const PartialKey&) = default;
};
struct PartialKeyHash {
  size_t operator()(const PartialKey& k) const {
    return std::hash<uint64_t>()(k.edges * 0x9E3779B97F4A7C15ull ^ k.exterior);
  }
};

class AddNodeSearch {
 public:
  AddNodeSearch(const Bits& b, Rule rule) : b_(b), rule_(rule) {}

  // Tries every triangle of g as the kernel; on success kernel_ and steps_ hold the witness.
  bool run() {
    if (b_.n < 3) return false;
    // Every node of an ITM lies on a triangle of it, hence of g.
    for (int v = 0; v < b_.n; ++v) {
      bool on_triangle = false;
      for (int x = 0; x < b_.n && !on_triangle; ++x)
        if (b_.adjacent(v, x) && (b_.adj[static_cast<size_t>(v)] & b_.adj[static_cast<size_t>(x)]) != 0)
          on_triangle = true;
      if (!on_triangle) return false;
    }
    for (int a = 0; a < b_.n; ++a)
      for (int c1 = a + 1; c1 < b_.n; ++c1)
        for (int c2 = c1 + 1; c2 < b_.n; ++c2) {
          if (!b_.adjacent(a, c1) || !b_.adjacent(a, c2) || !b_.adjacent(c1, c2)) continue;
          kernel_ = {a, c1, c2};
          const uint64_t edges = pair_bit(a, c1) | pair_bit(a, c2) | pair_bit(c1, c2);
          if (grow(bit(a) | bit(c1) | bit(c2), edges, edges)) return true;
        }
    return false;
  }

  std::array<int, 3> kernel() const { return kernel_; }
  const std::vector<LabelledStep>& steps() const { return steps_; }

 private:
  // Invariant: `in` is the node set of a partial ITM with edge set `edges` whose exterior edges
  // (by the marking of itm.h; used only under kExterior) are `exterior`; steps_ built it.
  bool grow(Mask in, uint64_t edges, uint64_t exterior) {
    if (in == b_.all) return true;
    const PartialKey key{edges, rule_ == Rule::kExterior ? exterior : 0};
    if (failed_.count(key) != 0) return false;
    const uint64_t usable = rule_ == Rule::kExterior ? exterior : edges;
    for (int v = 0; v < b_.n; ++v) {
      if ((in >> v & 1u) != 0) continue;
      const Mask near = b_.adj[static_cast<size_t>(v)] & in;  // v's neighbours in the partial ITM
      for (Mask xs = near; xs != 0; xs &= xs - 1) {
        const int x = std::countr_zero(xs);
        for (Mask ys = xs & (xs - 1); ys != 0; ys &= ys - 1) {
          const int y = std::countr_zero(ys);
          if ((usable & pair_bit(x, y)) == 0) continue;
          steps_.push_back(LabelledStep{v, x, y});
          const uint64_t added = pair_bit(v, x) | pair_bit(v, y);
          // The step marks (x, y) interior and its two new edges exterior.
          if (grow(in | bit(v), edges | added, (exterior & ~pair_bit(x, y)) | added)) return true;
          steps_.pop_back();
        }
      }
    }
    failed_.insert(key);
    return false;
  }

  const Bits& b_;
  Rule rule_;
  std::array<int, 3> kernel_{};
  std::vector<LabelledStep> steps_;
  std::unordered_set<PartialKey, PartialKeyHash> failed_;
};

// ---------------------------------------------------------------------------------------------
// Hamiltonian cycles by depth-first search from node 0. `visit(path)` gets each cycle once
// (path[1] < path[n-1]); returning true stops the enumeration, and then this returns true.

template <class Visit>
bool for_each_hamiltonian_cycle(const Bits& b, Visit&& visit) {
  if (b.n < 3) return false;
  std::array<int, kMaxTheorem3Nodes> path{};
  path[0] = 0;
  auto extend = [&](auto&& self, int depth, Mask visited) -> bool {
    const int last = path[static_cast<size_t>(depth - 1)];
    if (depth == b.n) {
      if (!b.adjacent(last, 0) || path[1] > path[static_cast<size_t>(b.n - 1)]) return false;
      return visit(std::as_const(path));
    }
    for (Mask next = b.adj[static_cast<size_t>(last)] & ~visited; next != 0; next &= next - 1) {
      const int w = std::countr_zero(next);
      path[static_cast<size_t>(depth)] = w;
      if (self(self, depth + 1, visited | bit(w))) return true;
    }
    return false;
  };
  return extend(extend, 1, bit(0));
}

// ---------------------------------------------------------------------------------------------
// Chords on a cycle. The nodes sit on a circle in the cycle's order; arc(u, v) is the set of
// nodes strictly between u and v going one way round, other(u, v) those strictly between going
// the other way. Two chords with four distinct ends cross iff one end of the second is in
// arc(u, v) and the other in other(u, v); chords sharing an end never cross.

struct Circle {
  const Bits& b;
  std::array<int, kMaxTheorem3Nodes> pos{};
  std::array<Mask, kMaxTheorem3Nodes + 1> prefix{};  // prefix[k]: the nodes at positions < k

  Circle(const Bits& bits, const int* cycle) : b(bits) {
    for (int i = 0; i < b.n; ++i) {
      pos[static_cast<size_t>(cycle[i])] = i;
      prefix[static_cast<size_t>(i + 1)] = prefix[static_cast<size_t>(i)] | bit(cycle[i]);
    }
  }
  Mask arc(int u, int v) const {
    int p = pos[static_cast<size_t>(u)], q = pos[static_cast<size_t>(v)];
    if (p > q) std::swap(p, q);
    return prefix[static_cast<size_t>(q)] & ~prefix[static_cast<size_t>(p + 1)];  // positions p+1..q-1
  }
  Mask other(int u, int v) const { return b.all & ~arc(u, v) & ~bit(u) & ~bit(v); }
  bool side(int u, int v) const {  // consecutive on the cycle: a side of the polygon
    const int d = std::abs(pos[static_cast<size_t>(u)] - pos[static_cast<size_t>(v)]);
    return d == 1 || d == b.n - 1;
  }
  // Whether the chord (u, v) properly crosses some edge of the graph `edges` (adjacency masks).
  bool crosses_some(int u, int v, const std::array<Mask, kMaxTheorem3Nodes>& edges) const {
    const Mask beyond = other(u, v);
    for (Mask in = arc(u, v); in != 0; in &= in - 1)
      if ((edges[static_cast<size_t>(std::countr_zero(in))] & beyond) != 0) return true;
    return false;
  }
  bool cross(int u, int v, int x, int y) const {
    if (u == x || u == y || v == x || v == y) return false;
    const Mask a = arc(u, v);
    return ((a >> x & 1u) != 0) != ((a >> y & 1u) != 0);
  }
};

// Every node pair not adjacent in g, drawn as a chord, properly crosses an edge of g.
bool every_non_edge_crosses(const Circle& c) {
  for (int u = 0; u < c.b.n; ++u)
    for (int v = u + 1; v < c.b.n; ++v)
      if (!c.b.adjacent(u, v) && !c.crosses_some(u, v, c.b.adj)) return false;
  return true;
}

bool no_two_edges_cross(const Circle& c) {
  for (int u = 0; u < c.b.n; ++u)
    for (int v = u + 1; v < c.b.n; ++v)
      if (c.b.adjacent(u, v) && c.crosses_some(u, v, c.b.adj)) return false;
  return true;
}

// The planar-drawing reading: some assignment of g's chords to the inside and the outside of
// the circle has no crossing on either side and leaves no non-edge addable on either side.
bool planar_drawing(const Circle& c) {
  const Bits& b = c.b;
  std::vector<std::pair<int, int>> chords;
  for (int u = 0; u < b.n; ++u)
    for (int v = u + 1; v < b.n; ++v)
      if (b.adjacent(u, v) && !c.side(u, v)) chords.emplace_back(u, v);
  // Necessary (header: each side's chords triangulate the polygon, n - 3 chords a side).
  if (static_cast<int>(chords.size()) != 2 * (b.n - 3)) return false;
  // Crossing chords are on different sides: 2-colour each component of the crossing graph.
  const int m = static_cast<int>(chords.size());
  std::vector<int> colour(static_cast<size_t>(m), -1), component(static_cast<size_t>(m), -1);
  int components = 0;
  for (int s = 0; s < m; ++s) {
    if (colour[static_cast<size_t>(s)] >= 0) continue;
    colour[static_cast<size_t>(s)] = 0;
    component[static_cast<size_t>(s)] = components;
    std::vector<int> stack{s};
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (int j = 0; j < m; ++j) {
        const auto [u, v] = chords[static_cast<size_t>(i)];
        const auto [x, y] = chords[static_cast<size_t>(j)];
        if (!c.cross(u, v, x, y)) continue;
        if (colour[static_cast<size_t>(j)] < 0) {
          colour[static_cast<size_t>(j)] = 1 - colour[static_cast<size_t>(i)];
          component[static_cast<size_t>(j)] = components;
          stack.push_back(j);
        } else if (colour[static_cast<size_t>(j)] == colour[static_cast<size_t>(i)]) {
          return false;  // an odd cycle of crossings: no drawing without crossings
        }
      }
    }
    ++components;
  }
  // Swapping inside and outside maps drawings to drawings, so component 0 keeps its colours.
  for (uint32_t flips = 0; flips < (uint32_t{1} << std::max(components - 1, 0)); ++flips) {
    std::array<std::array<Mask, kMaxTheorem3Nodes>, 2> sides{};
    for (int i = 0; i < m; ++i) {
      const int comp = component[static_cast<size_t>(i)];
      const int s = colour[static_cast<size_t>(i)] ^ (comp > 0 ? static_cast<int>(flips >> (comp - 1) & 1u) : 0);
      const auto [u, v] = chords[static_cast<size_t>(i)];
      sides[static_cast<size_t>(s)][static_cast<size_t>(u)] |= bit(v);
      sides[static_cast<size_t>(s)][static_cast<size_t>(v)] |= bit(u);
    }
    // The words, literally: no crossing on either side, no non-edge addable on either side.
    bool ok = true;
    for (int u = 0; u < b.n && ok; ++u)
      for (int v = u + 1; v < b.n && ok; ++v)
        for (const auto& side_edges : sides) {
          if ((side_edges[static_cast<size_t>(u)] >> v & 1u) != 0 && c.crosses_some(u, v, side_edges)) ok = false;
          if (!b.adjacent(u, v) && !c.crosses_some(u, v, side_edges)) ok = false;
        }
    if (ok) return true;
  }
  return false;
}

bool totally_triangulated_on(const Circle& c, TriangulatedReading reading) {
  switch (reading) {
    case TriangulatedReading::kEveryChordCrosses:
      return every_non_edge_crosses(c);
    case TriangulatedReading::kMaximalOuterplanar:
      return no_two_edges_cross(c) && every_non_edge_crosses(c);
    case TriangulatedReading::kPlanarDrawing:
      return planar_drawing(c);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// kExterior: a triangulation of the polygon `cycle` by chords of g (interval DP, header).

std::optional<SpanningItm> triangulated_polygon(const Graph& g, const Bits& b, const int* cycle) {
  const int n = b.n;
  // split[i][j] (j >= i + 2): a k with i..k and k..j triangulable, or -1 when there is none.
  std::array<std::array<int, kMaxTheorem3Nodes>, kMaxTheorem3Nodes> split;
  for (auto& row : split) row.fill(-1);
  auto ok = [&](int i, int j) { return j == i + 1 || split[static_cast<size_t>(i)][static_cast<size_t>(j)] >= 0; };
  for (int len = 2; len < n; ++len)
    for (int i = 0; i + len < n; ++i) {
      const int j = i + len;
      if (!b.adjacent(cycle[i], cycle[j])) continue;
      for (int k = i + 1; k < j; ++k)
        if (ok(i, k) && ok(k, j)) {
          split[static_cast<size_t>(i)][static_cast<size_t>(j)] = k;
          break;
        }
    }
  if (!ok(0, n - 1)) return std::nullopt;
  // Kernel: the triangle on the side (c_0, c_{n-1}); then, parents first, each sub-chain i..j
  // of length >= 2 adds its apex c_k at the edge (c_i, c_j), which its parent made exterior.
  const int top = split[0][static_cast<size_t>(n - 1)];
  std::vector<LabelledStep> steps;
  auto emit = [&](auto&& self, int i, int j) -> void {
    if (j - i < 2) return;
    const int k = split[static_cast<size_t>(i)][static_cast<size_t>(j)];
    steps.push_back(LabelledStep{cycle[k], cycle[i], cycle[j]});
    self(self, i, k);
    self(self, k, j);
  };
  emit(emit, 0, top);
  emit(emit, top, n - 1);
  return make_witness(g, Rule::kExterior, {cycle[0], cycle[top], cycle[n - 1]}, steps);
}

// ---------------------------------------------------------------------------------------------
// graph6 and geng

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

// ---------------------------------------------------------------------------------------------
// graph6

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

// ---------------------------------------------------------------------------------------------
// Spanning ITMs

std::optional<SpanningItm> spanning_itm_by_search(const Graph& g, Rule rule) {
  const Bits b = bits_of(g);
  AddNodeSearch search(b, rule);
  if (!search.run()) return std::nullopt;
  return make_witness(g, rule, search.kernel(), search.steps());
}

std::optional<SpanningItm> spanning_itm(const Graph& g, Rule rule) {
  if (rule == Rule::kAnyEdge) return spanning_itm_by_search(g, rule);
  const Bits b = bits_of(g);
  std::optional<SpanningItm> found;
  for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& cycle) {
    found = triangulated_polygon(g, b, cycle.data());
    return found.has_value();
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Hamiltonian cycles and "totally triangulated"

std::vector<std::vector<int>> hamiltonian_cycles(const Graph& g) {
  const Bits b = bits_of(g);
  std::vector<std::vector<int>> out;
  for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& cycle) {
    out.emplace_back(cycle.begin(), cycle.begin() + b.n);
    return false;
  });
  return out;
}

std::string to_string(TriangulatedReading reading) {
  switch (reading) {
    case TriangulatedReading::kEveryChordCrosses:
      return "every-chord-crosses";
    case TriangulatedReading::kMaximalOuterplanar:
      return "maximal-outerplanar";
    case TriangulatedReading::kPlanarDrawing:
      return "planar-drawing";
  }
  return "?";
}

std::optional<TriangulatedReading> parse_triangulated_reading(std::string_view text) {
  for (TriangulatedReading r : kTriangulatedReadings)
    if (to_string(r) == text) return r;
  return std::nullopt;
}

bool totally_triangulated(const Graph& g, const std::vector<int>& cycle, TriangulatedReading reading) {
  const Bits b = bits_of(g);
  Mask seen = 0;
  TC_CHECK(static_cast<int>(cycle.size()) == b.n && b.n >= 3, "totally_triangulated: not a Hamiltonian cycle");
  for (size_t i = 0; i < cycle.size(); ++i) {
    const int v = cycle[i], w = cycle[(i + 1) % cycle.size()];
    TC_CHECK(v >= 0 && v < b.n && (seen & bit(v)) == 0 && w >= 0 && w < b.n && b.adjacent(v, w),
             fmt::format("totally_triangulated: not a Hamiltonian cycle of {}", g.to_string()));
    seen |= bit(v);
  }
  return totally_triangulated_on(Circle(b, cycle.data()), reading);
}

bool rhs(const Graph& g, TriangulatedReading reading, std::vector<int>* cycle) {
  const Bits b = bits_of(g);
  return for_each_hamiltonian_cycle(b, [&](const std::array<int, kMaxTheorem3Nodes>& path) {
    if (!totally_triangulated_on(Circle(b, path.data()), reading)) return false;
    if (cycle != nullptr) cycle->assign(path.begin(), path.begin() + b.n);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// The theorem

std::string to_string(Theorem3Direction direction) { return direction == Theorem3Direction::kIf ? "if" : "only-if"; }

std::string to_string(const Theorem3Combination& combination) {
  return fmt::format("{}/{}/{}", to_string(combination.rule), to_string(combination.reading),
                     to_string(combination.direction));
}

namespace {

bool holds(bool has_spanning_itm, bool right_side, Theorem3Direction direction) {
  return direction == Theorem3Direction::kIf ? (!right_side || has_spanning_itm) : (!has_spanning_itm || right_side);
}

}  // namespace

bool theorem3_holds_for(const Graph& g, const Theorem3Combination& combination) {
  return holds(spanning_itm(g, combination.rule).has_value(), rhs(g, combination.reading), combination.direction);
}

Result<std::vector<Theorem3Finding>> survey_theorem3(int max_n) {
  std::vector<Theorem3Finding> findings;
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (TriangulatedReading reading : kTriangulatedReadings)
      for (Theorem3Direction direction : {Theorem3Direction::kIf, Theorem3Direction::kOnlyIf}) {
        Theorem3Finding f;
        f.combination = Theorem3Combination{rule, reading, direction};
        f.counterexamples_by_n.assign(static_cast<size_t>(std::max(max_n, 0) + 1), 0);
        findings.push_back(std::move(f));
      }
  for (int n = 1; n <= max_n; ++n) {
    auto graphs = all_graphs(n, false);
    if (!graphs) return graphs.error();
    for (const Graph& g : *graphs) {
      // Each decider once per graph, shared by the combinations.
      const bool spanning[2] = {spanning_itm(g, Rule::kAnyEdge).has_value(),
                                spanning_itm(g, Rule::kExterior).has_value()};
      bool right_side[std::size(kTriangulatedReadings)];  // by the reading's value (its index there)
      for (size_t r = 0; r < std::size(kTriangulatedReadings); ++r) right_side[r] = rhs(g, kTriangulatedReadings[r]);
      for (Theorem3Finding& f : findings) {
        ++f.graphs_checked;
        const auto& c = f.combination;
        if (holds(spanning[c.rule == Rule::kExterior ? 1 : 0], right_side[static_cast<size_t>(c.reading)],
                  c.direction))
          continue;
        ++f.counterexamples_by_n[static_cast<size_t>(n)];
        if (!f.first_counterexample) f.first_counterexample = g;
      }
    }
  }
  return findings;
}

Result<std::optional<Graph>> first_counterexample(const Theorem3Combination& combination, int max_n) {
  for (int n = 1; n <= max_n; ++n) {
    auto graphs = all_graphs(n, false);
    if (!graphs) return graphs.error();
    for (const Graph& g : *graphs)
      if (!theorem3_holds_for(g, combination)) return std::optional<Graph>{g};
  }
  return std::optional<Graph>{};
}

}  // namespace topocheck::itm
