// Routing functions for the wormhole simulator (wormhole.h), each a set of allowed next channels.
//
//  - Shortest-path routing (papers/002, Theorem 2: "any routing discipline that takes the
//    shortest path is deadlock-free in ITM"): from x to d the allowed channels are x -> y with
//    d(y, d) = d(x, d) - 1 (Network::distance). kDeterministic: only the first such in port
//    order (a fixed shortest path per pair, the network's "static" routing); kAdaptive: all of
//    them, in port order (fully adaptive among shortest paths).
//  - up*/down* routing (Autonet; Schroeder et al. 1991), the paper's comparison: a BFS spanning
//    tree from `root` (Boost BFS, neighbours in port order) gives each node a level (distance
//    from the root); the "up" end of every link {u, v} (tree or not) is the end with the smaller
//    (level, node id). A route is legal iff it never takes an up hop after a down hop. The
//    allowed channels are those that begin a SHORTEST LEGAL route from (x, phase) to d, where the
//    phase is "down" iff the channel the header arrived on was a down hop (kInjection: "up",
//    i.e. anything allowed). kDeterministic: the first in port order; kAdaptive: all.
//    Distances over (node, phase) states by BFS; every node pair has a legal route (up to the
//    root, down the tree), and shortest legal routes are simple paths.
// Both are deadlock-free under wormhole switching where their channel dependency graph is
// acyclic: up*/down* always; shortest-path on ITMs (Theorem 2), not on C4 and other graphs with
// a chordless cycle of length >= 4.
//
// Example (C4 = 0-1-2-3-0, ports in neighbour order): shortest-path adaptive from 0 to 2 allows
// 0->1 and 0->3; deterministic allows 0->1 only. up*/down* with root 0: levels 0, 1, 2, 1; from 1
// to 3 the legal shortest routes are 1->0->3 (up then down) and 1->2->3 is illegal (down then up).
// Cost: construction O(N * (N + E)) for the state distances (up*/down*), 2 N^2 bytes; allowed()
// O(degree).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routing/network.h"
#include "routing/wormhole.h"

namespace topocheck::routing {

enum class Adaptivity { kDeterministic, kAdaptive };
enum class RoutingFamily { kShortestPath, kUpDown };

// "sp-deterministic", "sp-adaptive", "updown-deterministic", "updown-adaptive".
struct RoutingSpec {
  RoutingFamily family = RoutingFamily::kShortestPath;
  Adaptivity adaptivity = Adaptivity::kAdaptive;
  NodeId root = 0;  // up*/down* only
  friend bool operator==(const RoutingSpec&, const RoutingSpec&) = default;
};
std::string to_string(const RoutingSpec& spec);  // the words above (root not included)
std::optional<RoutingSpec> parse_routing_spec(std::string_view s);

// Errors: root out of range.
Result<std::unique_ptr<WormholeRouting>> make_routing(const Network& net, const RoutingSpec& spec);

// The up*/down* orientation, exposed for the naive judge and tests.
struct UpDownTree {
  NodeId root = 0;
  std::vector<int> level;        // BFS distance from the root
  std::vector<NodeId> parent;    // parent[root] = root
  // True iff crossing u -> v is an up hop: (level[v], v) < (level[u], u).
  bool up(NodeId u, NodeId v) const {
    return level[v] < level[u] || (level[v] == level[u] && v < u);
  }
};
UpDownTree updown_tree(const Network& net, NodeId root);

}  // namespace topocheck::routing
