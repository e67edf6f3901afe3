// The explicit-path oracle of the ITM checkers (paper 002): a brute force, independent of
// itm_checks.cc, that LISTS every shortest path of a small graph and decides Theorem 2, Theorem 5
// and the broadcast schedule check from those lists alone.
//
// What it does not use: distances(), BFS, or the facts the naive checkers rest on ("a -> b lies on
// a shortest w -> x path iff d(w, a) + 1 + d(b, x) = d(w, x)"; "(a -> b, b -> c) is a dependency
// iff a != c and d(a, c) = 2", i.e. that subpaths of shortest paths are shortest). Its only
// definition: a shortest w -> x path is a w -> x path with the fewest hops. Such a path is simple
// (a repeated node could be cut out), so the lists are built by depth-first search over SIMPLE
// paths with exactly L hops, for L = 1, 2, ... until one reaches x (iterative deepening; no
// pruning by distance).
//
// Words (itm_checks.h): a channel is a directed edge a -> b; a dependency is a pair of channels
// (a -> b, b -> c) used one after the other by some shortest path, written as the node triple
// {a, b, c}. Messages, orders and the four Contention readings are those of check_contention_free;
// rounds those of check_broadcast.
//
// Example: in C6 (cycle_graph(6)) paths(0, 3) is {0:1:2:3, 0:5:4:3}; dependencies() holds
// {0, 1, 2} and {5, 4, 3}, and every other pair of consecutive hops around the cycle in both
// directions (12 in all); oracle_deadlock_violation() names the cycle 0->1, 1->2, ..., 5->0.
//
// Cost: exponential in general (the number of simple paths); meant for n <= 9, where the tests
// compare it with the naive checkers on every labelled ITM up to n = 7 and samples at n = 8, 9.
// The benchmark also runs it on ITMs of 14 nodes (milliseconds each). kMaxOracleNodes bounds n.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/checks.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"

namespace topocheck::itm {

// The largest graph the oracle accepts (TC_CHECK aborts above it).
inline constexpr int kMaxOracleNodes = 20;

using NodePath = std::vector<int>;  // w ... x, one node per entry

// Every shortest path of a graph, for every ordered pair of distinct nodes, listed explicitly.
class ShortestPathLists {
 public:
  // Enumerates the lists (see the header comment). Preconditions: g.n() <= kMaxOracleNodes.
  explicit ShortestPathLists(const Graph& g);

  int n() const { return graph_.n(); }
  const Graph& graph() const { return graph_; }
  // The shortest w -> x paths in lexicographic order (w != x); empty when x is unreachable from w.
  // For w == x: the single path (w).
  const std::vector<NodePath>& paths(int w, int x) const { return lists_[index(w, x)]; }
  // Their number of hops: -1 when unreachable, 0 when w == x.
  int hops(int w, int x) const { return hops_[index(w, x)]; }
  size_t total_paths() const;  // over all ordered pairs w != x

 private:
  size_t index(int w, int x) const {
    return static_cast<size_t>(w) * static_cast<size_t>(n()) + static_cast<size_t>(x);
  }

  Graph graph_;
  std::vector<std::vector<NodePath>> lists_;  // n * n
  std::vector<int> hops_;                     // n * n
};

// Theorem 2 ------------------------------------------------------------------------------------
// The dependencies {a, b, c}: a, b, c consecutive on some listed shortest path.
std::set<std::array<int, 3>> oracle_dependencies(const ShortestPathLists& lists);
// Deadlock freedom from those dependencies: the channel dependency graph has no directed cycle
// (its own depth-first search, not core's Boost check). The violation names one cycle.
Violation oracle_deadlock_violation(const ShortestPathLists& lists);

// Theorem 5 ------------------------------------------------------------------------------------
// The first pair of messages whose listed shortest paths share an edge (as the reading defines
// sharing), taking the pairs in check_contention_free's order: w = order[p] for p = 0, 1, ...,
// then x, y, z at increasing positions after w (see itm_checks.cc), so the pair equals the one
// check_contention_free reports. `second_from -> second_to` is the second message as sent (for
// kReversed z -> y). `first`, `second` are the first pair of listed paths (lexicographic) that
// share; a -> b is the first shared hop of `first`, taken in `first`'s direction; `same_direction`
// is false only under kUndirected when `second` runs it b -> a.
struct ContentionConflict {
  int w = 0, x = 0, second_from = 0, second_to = 0;
  NodePath first, second;
  int a = 0, b = 0;
  bool same_direction = true;
};
// Preconditions (TC_CHECK): `order` is a permutation of the nodes.
std::optional<ContentionConflict> oracle_contention(const ShortestPathLists& lists, const std::vector<int>& order,
                                                    Contention reading);
std::string to_string(const ContentionConflict& conflict);  // "0->3 and 1->4 share 1->2: (0:1:2:3) (1:2:3:4)"

// Broadcast -------------------------------------------------------------------------------------
// check_broadcast's definition decided on the lists: every node of `list` but its head receives
// exactly once, from a node that already has the message, only nodes of the list receive, and no
// two messages of one round have listed shortest paths sharing a directed edge. The checks run in
// check_broadcast's order, so the two agree on the verdict. Nodes must be in range (TC_CHECK).
Violation oracle_broadcast(const ShortestPathLists& lists, const std::vector<int>& list, const Rounds& rounds);

}  // namespace topocheck::itm
