// The shortest possible longest path: over every set of `count` internally node-disjoint s-t
// paths, the least length of its longest path, L*(s, t). An oracle for how far a construction's
// lengths (Theorem 2 of the Metacube paper bounds them by H + 2^k + m + 5) are from the best.
//
// Deciding "count disjoint paths, each of length <= L" is NP-hard in general (length-bounded
// disjoint paths); on the small graphs it is used on it is cheap. For L = d(s,t), d + 1, ...
// (d, d + 2, ... in a bipartite graph such as a metacube: every s-t path has the parity of d):
//  1. Keep only the nodes x with d(s,x) + d(x,t) <= L: no path of length <= L passes anywhere
//     else. Augmenting paths count the disjoint paths there (too few: L is infeasible), then
//     Boost's min-cost flow on that subgraph (core/graph.h, MinCostDisjointPaths) gives
//     `count` disjoint paths of least total length T, or fewer (then L is infeasible).
//  2. If T > count * L, L is infeasible (ceil(T / count) is a lower bound); if the longest of
//     those paths is at most L, L is feasible; a longest path U > L is remembered (L* <= U).
//     Otherwise the exact search decides.
//  3. Exact search: every neighbour of s starts exactly one path and every neighbour of t ends
//     exactly one (count = deg(s) = deg(t) is required, so the paths use them all), so paths are
//     built one per first hop, in the order of s's neighbours, by depth-first search over simple
//     paths avoiding the nodes taken so far. Pruning: a node is entered only if the hops so far
//     plus its BFS distance to t (avoiding the taken nodes) are within L; after each path, the
//     remaining first hops must still reach t by node-disjoint paths in the subgraph of nodes
//     within L (unit-capacity augmenting paths); and a failed set of taken nodes is remembered
//     (the rest of the search depends only on it). The first L that is feasible is L*; if none
//     below the best U seen is, L* = U.
// Result paths are vertex lists s ... t ordered by first hop, judged by the caller with core's
// checkers (a search is never its own judge).
// Cost: the search is exponential in the worst case and stops after `max_steps` DFS steps per
// pair, leaving `optimum` empty (callers report that as inconclusive, never as holds).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/checks.h"
#include "core/graph.h"

namespace topocheck::claims {

struct MinMaxDisjointPaths {
  int count = 0;               // paths asked for (the degree of s and t)
  int distance = 0;            // d(s, t)
  int flow = 0;                // disjoint paths of the last min-cost flow (< count: no set exists)
  long min_total = 0;          // the least total length within the last subgraph with `count` paths
  int min_cost_longest = 0;    // the longest path of that min-cost set: an upper bound on L*
  int lower_bound = 0;         // the last L tried: every smaller L is infeasible
  std::optional<int> optimum;  // L*, once decided
  std::vector<std::vector<uint64_t>> paths;  // a set whose longest path is L* (vertex indices)
  int searched_lengths = 0;    // lengths the exact search had to decide (the bounds did not)
  long steps = 0;              // DFS steps taken
};

class MinMaxPathsOracle {
 public:
  // Copies the adjacency and builds the min-cost flow network once: O(V + E). Degrees <= 64.
  explicit MinMaxPathsOracle(const UndirectedGraph& graph);

  // Preconditions (TC_CHECK): s != t, both vertices of the graph, count = deg(s) = deg(t) >= 1.
  // Not thread-safe (the flow network is reused); one oracle per thread.
  MinMaxDisjointPaths solve(uint64_t s, uint64_t t, int count, long max_steps = 5'000'000);

 private:
  std::vector<std::vector<uint32_t>> adjacency_;
  MinCostDisjointPaths min_cost_;
  bool bipartite_ = true;  // then every s-t path has the parity of d(s, t)
};

// metacube.thm2.optimality's own property at one pair: Theorem 2's length bound is attainable,
// L*(s, t) <= bound (bound = H(s,t) + 2^k + m + 5). A violation when the decided optimum exceeds
// the bound (then no set of k+m disjoint s-t paths fits the bound, whatever the construction);
// nullopt when it does not or when the optimum is undecided (the caller reports that as
// inconclusive). The verdict depends on L* alone: a wrong L* above the bound fails it.
Violation check_bound_attainable(const MinMaxDisjointPaths& oracle, int bound);

}  // namespace topocheck::claims
