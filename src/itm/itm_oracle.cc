#include "itm/itm_oracle.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::itm {
namespace {

// Appends to `out` every simple path from path.front() with exactly `hops` hops that ends at `target`
// and meets `target` nowhere else, extending `path` (whose nodes are marked in `on_path`).
// Neighbours are taken in increasing order, so the paths come out in lexicographic order.
void collect_paths(const Graph& g, int target, size_t hops, NodePath& path, std::vector<char>& on_path,
                   std::vector<NodePath>& out) {
  const int u = path.back();
  if (path.size() == hops + 1) {
    if (u == target) out.push_back(path);
    return;
  }
  if (u == target) return;  // target reached early: a shorter path, not one of `hops` hops
  for (int v : g.neighbors(u)) {
    if (on_path[static_cast<size_t>(v)]) continue;
    on_path[static_cast<size_t>(v)] = 1;
    path.push_back(v);
    collect_paths(g, target, hops, path, on_path, out);
    path.pop_back();
    on_path[static_cast<size_t>(v)] = 0;
  }
}

// The hops of a path: (path[i], path[i + 1]).
std::vector<std::pair<int, int>> hops_of(const NodePath& path) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i + 1 < path.size(); ++i) out.emplace_back(path[i], path[i + 1]);
  return out;
}

std::string path_text(const NodePath& path) { return fmt::format("({})", fmt::join(path, ":")); }

// The first listed p of m1 and q of m2 that share a hop: p's hop (a, b) also in q (or, when
// `either_direction`, (b, a) in q). Pairs in lexicographic order of (p, q), hops in p's order.
std::optional<ContentionConflict> first_shared(const std::vector<NodePath>& m1, const std::vector<NodePath>& m2,
                                               bool either_direction) {
  for (const NodePath& p : m1)
    for (const NodePath& q : m2) {
      const auto q_hops = hops_of(q);
      for (const auto& [a, b] : hops_of(p)) {
        const bool same = std::find(q_hops.begin(), q_hops.end(), std::pair{a, b}) != q_hops.end();
        const bool back = either_direction && std::find(q_hops.begin(), q_hops.end(), std::pair{b, a}) != q_hops.end();
        if (same || back) {
          ContentionConflict c;
          c.first = p;
          c.second = q;
          c.a = a;
          c.b = b;
          c.same_direction = same;
          return c;
        }
      }
    }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The lists

ShortestPathLists::ShortestPathLists(const Graph& g) : graph_(g) {
  const int count = g.n();
  TC_CHECK(count <= kMaxOracleNodes, "ShortestPathLists: more nodes than kMaxOracleNodes");
  lists_.assign(static_cast<size_t>(count) * static_cast<size_t>(count), {});
  hops_.assign(lists_.size(), -1);
  std::vector<char> on_path(static_cast<size_t>(count), 0);
  for (int w = 0; w < count; ++w)
    for (int x = 0; x < count; ++x) {
      std::vector<NodePath>& list = lists_[index(w, x)];
      if (w == x) {
        list.push_back({w});
        hops_[index(w, x)] = 0;
        continue;
      }
      // Iterative deepening: the first hop count with a simple w -> x path is the shortest one
      // (a simple path has at most n - 1 hops; none of them: x is unreachable).
      for (size_t len = 1; len < static_cast<size_t>(count) && list.empty(); ++len) {
        NodePath path{w};
        on_path[static_cast<size_t>(w)] = 1;
        collect_paths(graph_, x, len, path, on_path, list);
        on_path[static_cast<size_t>(w)] = 0;
        if (!list.empty()) hops_[index(w, x)] = static_cast<int>(len);
      }
    }
}

size_t ShortestPathLists::total_paths() const {
  size_t total = 0;
  for (int w = 0; w < n(); ++w)
    for (int x = 0; x < n(); ++x)
      if (w != x) total += paths(w, x).size();
  return total;
}

// ---------------------------------------------------------------------------------------------
// Theorem 2

std::set<std::array<int, 3>> oracle_dependencies(const ShortestPathLists& lists) {
  std::set<std::array<int, 3>> out;
  for (int w = 0; w < lists.n(); ++w)
    for (int x = 0; x < lists.n(); ++x)
      for (const NodePath& p : lists.paths(w, x))
        for (size_t i = 0; i + 2 < p.size(); ++i) out.insert({p[i], p[i + 1], p[i + 2]});
  return out;
}

Violation oracle_deadlock_violation(const ShortestPathLists& lists) {
  const int n = lists.n();
  // Channel a -> b is the vertex a * n + b of the dependency graph; its successors are b * n + c.
  const size_t vertices = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<std::vector<size_t>> next(vertices);
  for (const auto& [a, b, c] : oracle_dependencies(lists))
    next[static_cast<size_t>(a * n + b)].push_back(static_cast<size_t>(b * n + c));
  // Depth-first search with colours (0 new, 1 on the stack, 2 done); an edge to a vertex on the
  // stack closes a cycle, read off the stack.
  std::vector<char> colour(vertices, 0);
  std::vector<std::pair<size_t, size_t>> stack;  // (vertex, index of its next successor)
  for (size_t root = 0; root < vertices; ++root) {
    if (colour[root] != 0 || next[root].empty()) continue;
    stack.emplace_back(root, 0);
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [u, i] = stack.back();
      if (i == next[u].size()) {
        colour[u] = 2;
        stack.pop_back();
        continue;
      }
      const size_t v = next[u][i++];
      if (colour[v] == 0) {
        colour[v] = 1;
        stack.emplace_back(v, 0);
      } else if (colour[v] == 1) {
        std::vector<std::string> hops;
        size_t k = 0;
        while (stack[k].first != v) ++k;
        for (; k < stack.size(); ++k)
          hops.push_back(
              fmt::format("{}->{}", stack[k].first / static_cast<size_t>(n), stack[k].first % static_cast<size_t>(n)));
        return fmt::format(
            "the listed shortest paths' channel dependencies have a cycle of {} channels: {} (back to "
            "the first)",
            hops.size(), fmt::join(hops, ", "));
      }
    }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Theorem 5

std::optional<ContentionConflict> oracle_contention(const ShortestPathLists& lists, const std::vector<int>& order,
                                                    Contention reading) {
  const int n = lists.n();
  {
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = static_cast<int>(sorted.size()) == n;
    for (int i = 0; permutation && i < n; ++i) permutation = sorted[static_cast<size_t>(i)] == i;
    TC_CHECK(permutation, "oracle_contention: the order is not a permutation of the nodes");
  }
  // Deliberate twin of src/itm/itm_checks.cc:check_contention_free: an independent re-derivation
  // over the explicit path lists, so that it can judge the fast check.
  const bool touching = reading == Contention::kSharedEndpoint;
  // The messages in check_contention_free's order: w at position p, then x, y, z at the offsets
  // i < j < k after it (touching: i <= j < k <= n, offset n being w again), the same two nodes
  // both ways excluded.
  for (int p = 0; p < n; ++p) {
    const int w = order[static_cast<size_t>(p)];
    auto at_offset = [&](int offset) { return order[static_cast<size_t>((p + offset) % n)]; };
    for (int i = 1; i < n; ++i)
      for (int j = touching ? i : i + 1; j < n; ++j)
        for (int k = j + 1; k <= (touching ? n : n - 1); ++k) {
          const int x = at_offset(i), y = at_offset(j), z = at_offset(k);
          if (touching && x == y && z == w) continue;
          const int from = reading == Contention::kReversed ? z : y;
          const int to = reading == Contention::kReversed ? y : z;
          auto conflict = first_shared(lists.paths(w, x), lists.paths(from, to), reading == Contention::kUndirected);
          if (!conflict) continue;
          conflict->w = w;
          conflict->x = x;
          conflict->second_from = from;
          conflict->second_to = to;
          return conflict;
        }
  }
  return std::nullopt;
}

std::string to_string(const ContentionConflict& c) {
  return fmt::format("{}->{} and {}->{} share {}{}{}: {} {}", c.w, c.x, c.second_from, c.second_to, c.a,
                     c.same_direction ? "->" : "-", c.b, path_text(c.first), path_text(c.second));
}

// ---------------------------------------------------------------------------------------------
// Broadcast

// Deliberate twin of src/itm/itm_checks.cc:check_broadcast: an independent re-derivation over the
// explicit path lists, so that it can judge the fast check.
Violation oracle_broadcast(const ShortestPathLists& lists, const std::vector<int>& list, const Rounds& rounds) {
  const int n = lists.n();
  auto in_range = [n](int v) { return v >= 0 && v < n; };
  if (list.empty()) return "the list is empty";
  std::vector<char> has(static_cast<size_t>(n), 0), in_list(static_cast<size_t>(n), 0);
  for (int v : list) {
    TC_CHECK(in_range(v), "oracle_broadcast: a node of the list is out of range");
    in_list[static_cast<size_t>(v)] = 1;
  }
  has[static_cast<size_t>(list[0])] = 1;
  for (size_t r = 0; r < rounds.size(); ++r) {
    std::vector<char> got(static_cast<size_t>(n), 0);
    for (size_t m = 0; m < rounds[r].size(); ++m) {
      const auto [from, to] = rounds[r][m];
      TC_CHECK(in_range(from) && in_range(to), "oracle_broadcast: a message's node is out of range");
      if (!has[static_cast<size_t>(from)])
        return fmt::format("round {}: {} sends to {} before it has the message", r + 1, from, to);
      if (!in_list[static_cast<size_t>(to)] || has[static_cast<size_t>(to)] || got[static_cast<size_t>(to)])
        return fmt::format("round {}: {} receives although it is not a destination or already has the message", r + 1,
                           to);
      got[static_cast<size_t>(to)] = 1;
      for (size_t e = 0; e < m; ++e) {
        const auto [f0, t0] = rounds[r][e];
        if (auto shared = first_shared(lists.paths(f0, t0), lists.paths(from, to), false))
          return fmt::format("round {}: messages {}->{} and {}->{} can both use directed edge {}->{}: {} {}", r + 1, f0,
                             t0, from, to, shared->a, shared->b, path_text(shared->first), path_text(shared->second));
      }
    }
    for (int v = 0; v < n; ++v)
      if (got[static_cast<size_t>(v)]) has[static_cast<size_t>(v)] = 1;
  }
  for (int v : list)
    if (!has[static_cast<size_t>(v)]) return fmt::format("node {} never receives the message", v);
  return std::nullopt;
}

}  // namespace topocheck::itm
