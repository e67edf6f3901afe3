// Graph adapters and oracles over Boost.Graph.
//
// `materialize` turns any implicit topology into a Boost `adjacency_list` (vertex i is
// topo.node_at(i)); it costs O(nodes * degree) memory and is meant for oracles on small sizes.
// `max_node_disjoint_paths` is the max-flow oracle (Boost's boykov_kolmogorov_max_flow on the
// node-split graph, unit capacities); `MinCostDisjointPaths` its min-cost variant (Boost's
// successive shortest paths). `find_dependency_cycle` decides whether a channel
// dependency graph is acyclic (Boost's strong_components) and returns one cycle when it is not.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "core/node.h"
#include "core/topology.h"

namespace topocheck {

using UndirectedGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

UndirectedGraph materialize(const Topology& topo);

// Maximum number of internally node-disjoint s-t paths (s != t, both nodes of `graph`), i.e. the
// local vertex connectivity (for adjacent s, t the direct edge counts as one path).
int max_node_disjoint_paths(const UndirectedGraph& graph, uint64_t s, uint64_t t);

// The cheapest set of internally node-disjoint s-t paths (s != t): Boost's
// successive_shortest_path_nonnegative_weights on the node-split graph (every hop costs 1, every
// internal node has capacity 1, s's capacity is `count`), so `paths` are min(count, the local
// connectivity) paths of least total length. `allowed` (empty: every vertex) restricts the
// internal vertices; s and t are always allowed. Paths are vertex lists s ... t, ordered by their
// first hop. The class builds the flow network once (O(V + E) allocations) for many queries on one
// graph; solve is not thread-safe. Cost per query: O(count * (V + E) log V).
struct DisjointPathsFlow {
  int count = 0;           // paths found
  long total_length = 0;   // their total number of hops (the flow's cost)
  std::vector<std::vector<uint64_t>> paths;
};
class MinCostDisjointPaths {
 public:
  explicit MinCostDisjointPaths(const UndirectedGraph& graph);
  ~MinCostDisjointPaths();
  DisjointPathsFlow solve(uint64_t s, uint64_t t, int count, const std::vector<bool>& allowed = {});

 private:
  struct Network;
  std::unique_ptr<Network> network_;
};
// One query (builds the network for it).
DisjointPathsFlow min_total_length_disjoint_paths(const UndirectedGraph& graph, uint64_t s, uint64_t t, int count,
                                                  const std::vector<bool>& allowed = {});

// Hop distances from vertex s to every vertex (Boost's breadth_first_search); unreachable: -1.
std::vector<int> bfs_distances(const UndirectedGraph& graph, uint64_t s);

// A dependency graph on channels 0..num_channels-1 given as edges (a depends-then-b). Returns
// std::nullopt if it is acyclic, otherwise the channels of one directed cycle in order
// (c0 -> c1 -> ... -> c0, the first channel not repeated).
std::optional<std::vector<uint64_t>> find_dependency_cycle(
    uint64_t num_channels, const std::vector<std::pair<uint64_t, uint64_t>>& dependencies);

}  // namespace topocheck

namespace topocheck {

// Numbers the directed links ("channels") of a topology 0..size()-1: channel (u -> v) for every
// node u (in index order) and every v in neighbors(u) (in the order returned).
class ChannelIndex {
 public:
  explicit ChannelIndex(const Topology& topo);
  uint64_t size() const { return ends_.size(); }
  // The channel u -> v; aborts if (u, v) is not an edge.
  uint64_t id(Node u, Node v) const;
  std::pair<Node, Node> ends(uint64_t channel) const { return ends_[channel]; }

 private:
  const Topology* topo_;
  std::vector<uint64_t> offset_;             // first channel of each node index
  std::vector<std::pair<Node, Node>> ends_;  // channel -> (u, v)
};

// Dependencies of a deterministic routing function: for every ordered pair (s, t), s != t, the
// consecutive channel pairs of route(s, t). Cost O(nodes^2 * path length).
std::vector<std::pair<uint64_t, uint64_t>> route_dependencies(
    const Topology& topo, const ChannelIndex& channels,
    const std::function<std::vector<Node>(Node, Node)>& route);

// Dependencies of every shortest-path routing at once (minimal fully adaptive routing): all
// consecutive channel pairs (w -> v, v -> x) that lie on some shortest path, found by one BFS per
// destination (w -> v -> x is on a shortest path to t iff d(w,t) = d(v,t) + 1 = d(x,t) + 2).
// Cost O(nodes^2 * degree^2).
std::vector<std::pair<uint64_t, uint64_t>> all_shortest_path_dependencies(
    const Topology& topo, const ChannelIndex& channels);

}  // namespace topocheck
