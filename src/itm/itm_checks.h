// The naive checkers of the ITM claims (paper 002), shared by every method (exhaustive, random,
// oracle, SMT re-checks) and by the negative controls. Each returns the FIRST violation in words
// (std::nullopt when the property holds) and states its definition directly.
//
// Shortest paths: d(u, v) is the hop distance (Boost BFS). A directed edge a -> b lies on some
// shortest w -> x path iff d(w, a) + 1 + d(b, x) = d(w, x).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/checks.h"
#include "itm/itm.h"

namespace topocheck::itm {

// All-pairs hop distances, row-major n x n (-1: unreachable), one Boost BFS per node.
std::vector<int> distances(const Graph& g);

// Lemma 1 --------------------------------------------------------------------------------------
Violation check_planar(const Graph& g);       // Boost boyer_myrvold_planarity_test
Violation check_edge_count(const Graph& g);   // exactly 2|V| - 3 edges

// What "two nodes in C that are of distance 2" means (Lemma 1, third property).
enum class ChordMeaning {
  kAlongCycle,        // two nodes two steps apart along C; cycles of length >= 4 (a triangle has none)
  kAlongCycleLiteral, // the same, for ALL cycles as printed, triangles included
  kGraphDistance,     // two nodes at distance 2 in G (an edge joins nodes at distance 1: never)
};
std::string to_string(ChordMeaning meaning);
// Every simple cycle of g (each once), as node lists starting at its smallest node, in
// increasing order of that node then lexicographic. Exponential: for small graphs.
std::vector<std::vector<int>> simple_cycles(const Graph& g);
Violation check_cycle_chord(const Graph& g, ChordMeaning meaning);

// Theorem 2 ------------------------------------------------------------------------------------
// Channels are directed edges; (a -> b) then (b -> c) is a dependency iff the two hops are
// consecutive on some shortest path, i.e. (subpaths of shortest paths are shortest) iff a != c
// and d(a, c) = 2. The returned pairs are channel ids of `channel_ids`.
struct Channels {
  std::vector<std::pair<int, int>> ends;  // channel -> (a, b)
  std::vector<int> id;                    // n * n: the channel a -> b, -1 if not an edge
  int of(int a, int b) const { return id[static_cast<size_t>(a) * static_cast<size_t>(n) + static_cast<size_t>(b)]; }
  int n = 0;
};
Channels channels_of(const Graph& g);  // (a -> b) for a in order, b in a's sorted neighbours
std::vector<std::pair<uint64_t, uint64_t>> shortest_path_dependencies(const Graph& g, const Channels& channels);
// The channel dependency graph of every shortest-path routing is acyclic (core's Boost
// strong-components check); the violation names one cycle of channels.
Violation check_deadlock_free(const Graph& g);

// Lemma 4 --------------------------------------------------------------------------------------
// n exterior edges, n - 3 interior edges, n - 2 facets, where a facet is counted two ways that
// must agree with n - 2: the triangles (3-cliques) of G, and the bounded faces of Boost's planar
// embedding of G (planar_face_traversal).
Violation check_lemma4_counts(const Itm& itm);
// The exterior edges form one simple cycle through every node.
Violation check_lemma4_cycle(const Itm& itm);

// Theorem 5 ------------------------------------------------------------------------------------
// Which pairs of messages must not share, and what sharing means.
enum class Contention {
  kPaper,           // w->x, y->z with w < x < y < z cyclically; share a directed edge
  kReversed,        // w->x and z->y (the second message reversed), same positions
  kUndirected,      // w->x, y->z as in kPaper; share an edge in either direction
  kSharedEndpoint,  // w->x, y->z with arcs that touch: w < x <= y < z <= w cyclically (x = y or
                    // z = w allowed, the messages distinct); share a directed edge
};
std::string to_string(Contention c);
// For every pair of messages of the kind, no shortest path of the first shares (as defined) an
// edge with any shortest path of the second. `order` is a circular order of all nodes. The
// witness, when asked, gets the two messages and one shortest path of each through the edge.
struct ContentionWitness {
  std::vector<int> first, second;  // the two paths
};
Violation check_contention_free(const Graph& g, const std::vector<int>& order, Contention c,
                                ContentionWitness* witness = nullptr);

// The recursive broadcast over a circular order -----------------------------------------------
// broadcast(L): if |L| > 1, L[0] sends to L[mid], mid = |L| / 2 (rounded down), then both halves
// L[0..mid-1] and L[mid..] broadcast in the next round, in parallel. The list of a broadcast from
// `source` is the circular order rotated to start at the source. A multicast is the same over the
// source followed by the destinations in circular order. Round r's messages are (from, to).
using Rounds = std::vector<std::vector<std::pair<int, int>>>;
Rounds recursive_broadcast(const std::vector<int>& list);
Rounds broadcast_from(const std::vector<int>& order, int source);
// Every node other than the list's head receives exactly once, from a node that already has the
// message (a schedule check, the construction not trusted), and no two messages of one round can
// share a directed edge on shortest paths.
Violation check_broadcast(const Graph& g, const std::vector<int>& list, const Rounds& rounds);

}  // namespace topocheck::itm
