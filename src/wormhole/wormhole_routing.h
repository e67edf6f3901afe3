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
//    root, down the tree), and shortest legal routes are simple paths. In the down phase dst may
//    be unreachable (only down hops remain); for such an arrival, which a header routed by this
//    function never has, allowed() is empty although at != dst.
//    Errors: a shortest legal route longer than 254 hops (the table holds bytes).
// Both are deadlock-free under wormhole switching where their channel dependency graph is
// acyclic: up*/down* always; shortest-path on ITMs (Theorem 2). sp-adaptive is cyclic on every
// graph with a chordless cycle of length >= 4 (consecutive hops around it are at distance 2,
// each pair a dependency), C4 first; sp-deterministic (thinner) is acyclic on the four controls
// of wormhole_graphs.h but cyclic on about half of random non-chordal graphs (the first found:
// random_nonchordal(5, 5)); see channel_dependencies below.
//
// Example (C4 = 0-1-2-3-0, ports in neighbour order): shortest-path adaptive from 0 to 2 allows
// 0->1 and 0->3; deterministic allows 0->1 only. up*/down* with root 0: levels 0, 1, 2, 1; from 1
// to 3 the legal shortest routes are 1->0->3 (up then down) and 1->2->3 is illegal (down then up).
// Cost: construction O(N * (N + E)) for the state distances (up*/down*), 2 N^2 bytes; allowed()
// O(degree). A routing copies what it needs of the network (shortest-path: N^2 bytes of
// distances), so it may outlive `net`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "network/network.h"
#include "wormhole/wormhole.h"

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
std::optional<RoutingSpec> parse_routing_spec(std::string_view s);  // root 0; nullopt: not a word above

// Errors: root out of range (up*/down* only; shortest-path ignores root); an up*/down* route too
// long for the table (see above).
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
// Aborts (TC_CHECK) when root is not a node; the network is connected (Network's invariant).
UpDownTree updown_tree(const Network& net, NodeId root);

// The channel dependency graph of a routing (Dally and Seitz 1987): c1 -> c2 iff for some
// destination d, c1 is allowed toward d at tail(c1) for some arrival there (kInjection or any
// channel into tail(c1)), head(c1) != d, and c2 is in routing.allowed(head(c1), c1, d).
// Wormhole routing with this routing is deadlock-free when the graph is acyclic (core's
// find_dependency_cycle decides it). Taking every in-channel, not only those a header bound for
// d can actually arrive on, can only add edges, so "acyclic" is a safe verdict. Shortest-path
// routing ignores the arrival: no edge is added. up*/down* gets extra edges from down-phase
// arrivals no header toward d has (measured in wormhole_routing_test: in about a third of the
// runs on ITMs and small graphs); they are still legal turns, and the graph stays acyclic.
// Returns pairs (c1, c2) of channel ids (ChannelTable::of), sorted, each once.
// Example: sp-adaptive on C4 gives the 8 dependencies a -> b -> c around the cycle in both
// directions, a cycle; updown-adaptive(root 0) on C4 has neither of the turns 1 -> 2 -> 3 and
// 3 -> 2 -> 1 (down then up) and is acyclic.
// Cost: O(N * channels * degree) calls of allowed(); O(channels * max degree) bytes.
std::vector<std::pair<uint64_t, uint64_t>> channel_dependencies(const Network& net, const WormholeRouting& routing);

}  // namespace topocheck::routing
