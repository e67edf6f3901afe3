#include "itm/itm_checks.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boyer_myrvold_planar_test.hpp>
#include <boost/graph/planar_face_traversal.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/graph.h"

namespace topocheck::itm {
namespace {

UndirectedGraph to_boost(const Graph& g) {
  UndirectedGraph b(static_cast<size_t>(g.n()));
  for (const auto& [u, v] : g.edges()) boost::add_edge(static_cast<size_t>(u), static_cast<size_t>(v), b);
  return b;
}

size_t at(int n, int a, int b) { return static_cast<size_t>(a) * static_cast<size_t>(n) + static_cast<size_t>(b); }

// One shortest path a -> b (d from `dist`), following the smallest next node.
std::vector<int> shortest_path(const Graph& g, const std::vector<int>& dist, int a, int b) {
  std::vector<int> path{a};
  int u = a;
  while (u != b) {
    for (int v : g.neighbors(u))
      if (dist[at(g.n(), v, b)] == dist[at(g.n(), u, b)] - 1) {
        u = v;
        break;
      }
    path.push_back(u);
  }
  return path;
}

// A shortest w -> x path through the directed edge a -> b (which must lie on one).
std::vector<int> path_through(const Graph& g, const std::vector<int>& dist, int w, int x, int a, int b) {
  std::vector<int> path = shortest_path(g, dist, w, a);
  for (int v : shortest_path(g, dist, b, x)) path.push_back(v);
  return path;
}

}  // namespace

std::vector<int> distances(const Graph& g) {
  const UndirectedGraph b = to_boost(g);
  std::vector<int> out(static_cast<size_t>(g.n()) * static_cast<size_t>(g.n()));
  for (int s = 0; s < g.n(); ++s) {
    const std::vector<int> row = bfs_distances(b, static_cast<uint64_t>(s));
    std::copy(row.begin(), row.end(), out.begin() + static_cast<long>(at(g.n(), s, 0)));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lemma 1

Violation check_planar(const Graph& g) {
  UndirectedGraph b = to_boost(g);
  if (boost::boyer_myrvold_planarity_test(b)) return std::nullopt;
  return fmt::format("the graph is not planar (Boyer-Myrvold): {}", g.to_string());
}

Violation check_edge_count(const Graph& g) {
  if (g.num_edges() == 2 * g.n() - 3) return std::nullopt;
  return fmt::format("{} edges, not 2|V| - 3 = {}", g.num_edges(), 2 * g.n() - 3);
}

std::string to_string(ChordMeaning meaning) {
  switch (meaning) {
    case ChordMeaning::kAlongCycle: return "along-cycle";
    case ChordMeaning::kAlongCycleLiteral: return "along-cycle-all-cycles";
    case ChordMeaning::kGraphDistance: return "graph-distance";
  }
  return "?";
}

std::vector<std::vector<int>> simple_cycles(const Graph& g) {
  std::vector<std::vector<int>> out;
  const int n = g.n();
  std::vector<int> path;
  std::vector<char> on_path(static_cast<size_t>(n), 0);
  // Cycles whose smallest node is s: DFS from s through nodes > s; a cycle closes at s. Each
  // cycle is found twice (both directions); keep the one whose second node < last node.
  std::function<void(int, int)> dfs = [&](int s, int u) {
    for (int v : g.neighbors(u)) {
      if (v == s && path.size() >= 3 && path[1] < path.back()) out.push_back(path);
      if (v <= s || on_path[static_cast<size_t>(v)]) continue;
      on_path[static_cast<size_t>(v)] = 1;
      path.push_back(v);
      dfs(s, v);
      path.pop_back();
      on_path[static_cast<size_t>(v)] = 0;
    }
  };
  for (int s = 0; s < n; ++s) {
    path = {s};
    on_path[static_cast<size_t>(s)] = 1;
    dfs(s, s);
    on_path[static_cast<size_t>(s)] = 0;
  }
  return out;
}

Violation check_cycle_chord(const Graph& g, ChordMeaning meaning) {
  const std::vector<int> dist = meaning == ChordMeaning::kGraphDistance ? distances(g) : std::vector<int>{};
  for (const std::vector<int>& c : simple_cycles(g)) {
    const int len = static_cast<int>(c.size());
    if (meaning == ChordMeaning::kAlongCycle && len < 4) continue;
    bool found = false;
    for (int i = 0; i < len && !found; ++i)
      for (int j = i + 1; j < len && !found; ++j) {
        const int a = c[static_cast<size_t>(i)], b = c[static_cast<size_t>(j)];
        const bool distance_two = meaning == ChordMeaning::kGraphDistance
                                      ? dist[at(g.n(), a, b)] == 2
                                      : std::min(j - i, len - (j - i)) == 2;
        found = distance_two && g.adjacent(a, b);
      }
    if (!found)
      return fmt::format("cycle ({}) of length {} has no edge joining two of its nodes at distance 2 ({})",
                         fmt::join(c, ":"), len, to_string(meaning));
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Theorem 2

Channels channels_of(const Graph& g) {
  Channels c;
  c.n = g.n();
  c.id.assign(static_cast<size_t>(g.n()) * static_cast<size_t>(g.n()), -1);
  for (int a = 0; a < g.n(); ++a)
    for (int b : g.neighbors(a)) {
      c.id[at(g.n(), a, b)] = static_cast<int>(c.ends.size());
      c.ends.emplace_back(a, b);
    }
  return c;
}

std::vector<std::pair<uint64_t, uint64_t>> shortest_path_dependencies(const Graph& g, const Channels& channels) {
  const std::vector<int> dist = distances(g);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (int b = 0; b < g.n(); ++b)
    for (int a : g.neighbors(b))
      for (int c : g.neighbors(b))
        if (a != c && dist[at(g.n(), a, c)] == 2)
          out.emplace_back(static_cast<uint64_t>(channels.of(a, b)), static_cast<uint64_t>(channels.of(b, c)));
  return out;
}

Violation check_deadlock_free(const Graph& g) {
  const Channels channels = channels_of(g);
  const auto cycle = find_dependency_cycle(channels.ends.size(), shortest_path_dependencies(g, channels));
  if (!cycle) return std::nullopt;
  std::vector<std::string> hops;
  for (uint64_t ch : *cycle) hops.push_back(fmt::format("{}->{}", channels.ends[ch].first, channels.ends[ch].second));
  return fmt::format("the shortest-path channel dependency graph has a cycle of {} channels: {} (back to the first)",
                     cycle->size(), fmt::join(hops, ", "));
}

// ---------------------------------------------------------------------------------------------
// Lemma 4

namespace {

// Counts the faces of a planar embedding (Boost planar_face_traversal).
struct FaceCounter : public boost::planar_face_traversal_visitor {
  int faces = 0;
  void begin_face() { ++faces; }
};

}  // namespace

Violation check_lemma4_counts(const Itm& itm) {
  const int n = itm.n();
  const int ext = static_cast<int>(itm.exterior_edges().size());
  const int inter = static_cast<int>(itm.interior_edges().size());
  if (ext != n) return fmt::format("{} exterior edges, not n = {}", ext, n);
  if (inter != n - 3) return fmt::format("{} interior edges, not n - 3 = {}", inter, n - 3);
  const Graph& g = itm.graph();
  int triangles = 0;
  for (int a = 0; a < n; ++a)
    for (int b : g.neighbors(a))
      for (int c : g.neighbors(b))
        if (a < b && b < c && g.adjacent(a, c)) ++triangles;
  if (triangles != n - 2) return fmt::format("{} triangles (3-cliques), not n - 2 = {} facets", triangles, n - 2);
  // Bounded faces of a planar embedding: all faces but the outer one.
  using EmbGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                         boost::property<boost::vertex_index_t, int>,
                                         boost::property<boost::edge_index_t, int>>;
  EmbGraph b(static_cast<size_t>(n));
  for (const auto& [u, v] : g.edges()) boost::add_edge(static_cast<size_t>(u), static_cast<size_t>(v), b);
  auto edge_index = boost::get(boost::edge_index, b);
  int index = 0;
  for (auto [e, end] = boost::edges(b); e != end; ++e) boost::put(edge_index, *e, index++);
  using Embedding = std::vector<std::vector<boost::graph_traits<EmbGraph>::edge_descriptor>>;
  Embedding embedding(static_cast<size_t>(n));
  if (!boost::boyer_myrvold_planarity_test(boost::boyer_myrvold_params::graph = b,
                                           boost::boyer_myrvold_params::embedding = &embedding[0]))
    return fmt::format("the graph is not planar, so it has no facets: {}", g.to_string());
  FaceCounter counter;
  boost::planar_face_traversal(b, &embedding[0], counter);
  if (counter.faces - 1 != n - 2)
    return fmt::format("a planar embedding has {} bounded faces, not n - 2 = {}", counter.faces - 1, n - 2);
  return std::nullopt;
}

Violation check_lemma4_cycle(const Itm& itm) {
  auto order = circular_order(itm);
  if (!order) return order.error().message;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Theorem 5

std::string to_string(Contention c) {
  switch (c) {
    case Contention::kPaper: return "paper";
    case Contention::kReversed: return "reversed";
    case Contention::kUndirected: return "undirected";
    case Contention::kSharedEndpoint: return "shared-endpoint";
  }
  return "?";
}

Violation check_contention_free(const Graph& g, const std::vector<int>& order, Contention c,
                                ContentionWitness* witness) {
  const int n = g.n();
  if (static_cast<int>(order.size()) != n) return fmt::format("the order has {} nodes, the graph {}", order.size(), n);
  {
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < n; ++i)
      if (sorted[static_cast<size_t>(i)] != i) return "the order is not a permutation of the nodes";
  }
  const std::vector<int> dist = distances(g);
  const Channels channels = channels_of(g);
  const size_t words = (channels.ends.size() + 63) / 64;
  // used[(w, x)]: the channels on some shortest w -> x path.
  std::vector<uint64_t> used(static_cast<size_t>(n) * static_cast<size_t>(n) * words, 0);
  for (int w = 0; w < n; ++w)
    for (int x = 0; x < n; ++x) {
      if (w == x || dist[at(n, w, x)] < 0) continue;  // unreachable: no shortest path, no channel
      uint64_t* bits = &used[at(n, w, x) * words];
      for (size_t ch = 0; ch < channels.ends.size(); ++ch) {
        const auto [a, b] = channels.ends[ch];
        if (dist[at(n, w, a)] >= 0 && dist[at(n, b, x)] >= 0 &&
            dist[at(n, w, a)] + 1 + dist[at(n, b, x)] == dist[at(n, w, x)])
          bits[ch / 64] |= uint64_t{1} << (ch % 64);
      }
    }
  // The channel b -> a of channel a -> b, for undirected sharing.
  auto shares = [&](int w, int x, int y, int z) -> int {  // a shared channel of w->x (direction of w->x), or -1
    const uint64_t* p = &used[at(n, w, x) * words];
    const uint64_t* q = &used[at(n, y, z) * words];
    for (size_t i = 0; i < words; ++i)
      if (p[i] & q[i]) return static_cast<int>(i * 64 + static_cast<size_t>(std::countr_zero(p[i] & q[i])));
    if (c == Contention::kUndirected) {
      for (size_t ch = 0; ch < channels.ends.size(); ++ch)
        if ((p[ch / 64] >> (ch % 64)) & 1) {
          const auto [a, b] = channels.ends[ch];
          const int back = channels.of(b, a);
          if ((q[static_cast<size_t>(back) / 64] >> (back % 64)) & 1) return static_cast<int>(ch);
        }
    }
    return -1;
  };
  // Deliberate twin of src/itm/itm_oracle.cc:oracle_contention: the oracle re-derives the message
  // quadruples from the listed shortest paths, independently of these channel bitsets.
  const bool touching = c == Contention::kSharedEndpoint;
  // Positions relative to w: w at 0, then x at i, y at j, z at k (k = n stands for z = w).
  for (int p = 0; p < n; ++p) {
    const int w = order[static_cast<size_t>(p)];
    auto node = [&](int offset) { return order[static_cast<size_t>((p + offset) % n)]; };
    for (int i = 1; i < n; ++i)
      for (int j = touching ? i : i + 1; j < n; ++j)
        for (int k = j + 1; k <= (touching ? n : n - 1); ++k) {
          const int x = node(i), y = node(j), z = node(k);
          if (touching && x == y && z == w) continue;  // the same two nodes both ways (distinct messages otherwise)
          const int from2 = c == Contention::kReversed ? z : y, to2 = c == Contention::kReversed ? y : z;
          const int ch = shares(w, x, from2, to2);
          if (ch < 0) continue;
          const auto [a, b] = channels.ends[static_cast<size_t>(ch)];
          const bool same_direction = dist[at(n, from2, a)] + 1 + dist[at(n, b, to2)] == dist[at(n, from2, to2)];
          std::vector<int> first = path_through(g, dist, w, x, a, b);
          std::vector<int> second = same_direction ? path_through(g, dist, from2, to2, a, b)
                                                   : path_through(g, dist, from2, to2, b, a);
          if (witness) *witness = ContentionWitness{first, second};
          return fmt::format("messages {}->{} and {}->{} ({}: {} < {} < {} < {} in the circular order) can share {} "
                             "{}{}{}: shortest paths ({}) and ({})",
                             w, x, from2, to2, to_string(c), w, x, y, z,
                             same_direction ? "directed edge" : "edge", a, same_direction ? "->" : "-", b,
                             fmt::join(first, ":"), fmt::join(second, ":"));
        }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Broadcast

Rounds recursive_broadcast(const std::vector<int>& list) {
  Rounds rounds;
  // Each pending interval [lo, hi) holds the message at lo; one round splits every interval.
  std::vector<std::pair<size_t, size_t>> intervals{{0, list.size()}};
  while (true) {
    std::vector<std::pair<int, int>> round;
    std::vector<std::pair<size_t, size_t>> next;
    for (const auto& [lo, hi] : intervals) {
      if (hi - lo <= 1) continue;
      const size_t mid = lo + (hi - lo) / 2;
      round.emplace_back(list[lo], list[mid]);
      next.emplace_back(lo, mid);
      next.emplace_back(mid, hi);
    }
    if (round.empty()) break;
    rounds.push_back(std::move(round));
    intervals = std::move(next);
  }
  return rounds;
}

Rounds broadcast_from(const std::vector<int>& order, int source) {
  const auto it = std::find(order.begin(), order.end(), source);
  TC_CHECK(it != order.end(), "broadcast_from: source not in the order");
  std::vector<int> list(it, order.end());
  list.insert(list.end(), order.begin(), it);
  return recursive_broadcast(list);
}

// Deliberate twin of src/itm/itm_oracle.cc:oracle_broadcast: the oracle judges the same rounds over
// the explicit shortest-path lists, independently of this distance-based channel test.
Violation check_broadcast(const Graph& g, const std::vector<int>& list, const Rounds& rounds) {
  const int n = g.n();
  if (list.empty()) return "the list is empty";
  std::vector<char> has(static_cast<size_t>(n), 0), in_list(static_cast<size_t>(n), 0);
  for (int v : list) in_list[static_cast<size_t>(v)] = 1;
  has[static_cast<size_t>(list[0])] = 1;
  const std::vector<int> dist = distances(g);
  const Channels channels = channels_of(g);
  for (size_t r = 0; r < rounds.size(); ++r) {
    std::vector<char> got(static_cast<size_t>(n), 0);
    // The channels each message of the round can use.
    std::vector<std::set<int>> uses;
    for (const auto& [from, to] : rounds[r]) {
      if (!has[static_cast<size_t>(from)])
        return fmt::format("round {}: {} sends to {} before it has the message", r + 1, from, to);
      if (!in_list[static_cast<size_t>(to)] || has[static_cast<size_t>(to)] || got[static_cast<size_t>(to)])
        return fmt::format("round {}: {} receives although it is not a destination or already has the message",
                           r + 1, to);
      got[static_cast<size_t>(to)] = 1;
      if (dist[at(n, from, to)] < 0) return fmt::format("round {}: {} cannot reach {}", r + 1, from, to);
      std::set<int> u;
      for (size_t ch = 0; ch < channels.ends.size(); ++ch) {
        const auto [a, b] = channels.ends[ch];
        if (dist[at(n, from, a)] >= 0 && dist[at(n, b, to)] >= 0 &&
            dist[at(n, from, a)] + 1 + dist[at(n, b, to)] == dist[at(n, from, to)])
          u.insert(static_cast<int>(ch));
      }
      for (size_t i = 0; i < uses.size(); ++i)
        for (int ch : u)
          if (uses[i].count(ch)) {
            const auto [a, b] = channels.ends[static_cast<size_t>(ch)];
            const auto [f0, t0] = rounds[r][i];
            return fmt::format("round {}: messages {}->{} and {}->{} can both use directed edge {}->{}", r + 1, f0, t0,
                               from, to, a, b);
          }
      uses.push_back(std::move(u));
    }
    for (int v = 0; v < n; ++v)
      if (got[static_cast<size_t>(v)]) has[static_cast<size_t>(v)] = 1;
  }
  for (int v : list)
    if (!has[static_cast<size_t>(v)]) return fmt::format("node {} never receives the message", v);
  return std::nullopt;
}

}  // namespace topocheck::itm
