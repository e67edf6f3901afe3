// The graphs of the wormhole experiments (issue 8): ITMs (papers/002) as routing networks, random
// ITMs, and the negative controls on which shortest-path wormhole routing can deadlock.
//
//  - network_of(g, name): an itm::Graph as a Network (node i = node i; ports in g's sorted
//    neighbour order) named `name`. Errors: disconnected, empty, too large (Network's limits).
//  - random_itm(n, rule, seed): n >= 3 nodes (aborts below); step i adds node 3 + i at a usable
//    edge (any edge under kAnyEdge, an exterior one under kExterior) chosen uniformly by
//    Rng(seed): one below(count) draw per step over the usable edges (x, y), x < y, in sorted
//    order. Returned as its steps (x < y), replayable by itm::Itm::build under `rule`.
//  - Controls: C4, K_{2,3}, the 3x3 grid (itm.h), and random_nonchordal(n, seed): a connected
//    graph on n >= 4 nodes (aborts below) with a chordless cycle of length >= 4. Drawn from
//    Rng(seed): a random spanning tree (a shuffled node order, each node after the first joined
//    to a uniformly drawn earlier one) plus 1..n random pairs added when not yet edges; redrawn
//    until non-chordal (connected by construction).
//  - is_chordal(g): no chordless cycle of length >= 4 (maximum cardinality search + perfect
//    elimination ordering check; Tarjan-Yannakakis 1984). ITMs are chordal (2-trees). Any graph,
//    disconnected too.
//  - control_graph(name): "c4", "k23", "grid3x3", "nonchordal" (random_nonchordal(8, 1)); the
//    names of `kControlNames`.
// Graph names for messages: "ITM(exterior, 16, seed 3)", "C4", "K_{2,3}", "grid 3x3",
// "nonchordal(8, seed 1)".
// Example: random_itm(4, kExterior, s) is one step 3:(x,y) on one of the kernel's three edges,
// each for about a third of the seeds; is_chordal(cycle_graph(4)) is false.
// Cost: random_itm O(n^3) (itm::Itm::add_node copies the graph); is_chordal O(n^2 + E * degree);
// random_nonchordal O(n^2) per draw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "itm/itm.h"
#include "network/network.h"

namespace topocheck::routing {

Result<Network> network_of(const itm::Graph& g, const std::string& name);
itm::Steps random_itm(int n, itm::Rule rule, uint64_t seed);
itm::Graph random_nonchordal(int n, uint64_t seed);
bool is_chordal(const itm::Graph& g);

inline constexpr std::string_view kControlNames[] = {"c4", "k23", "grid3x3", "nonchordal"};
// Errors: an unknown name (listing the known ones).
Result<itm::Graph> control_graph(std::string_view name);
// "C4", "K_{2,3}", "grid 3x3", "nonchordal(8, seed 1)"; an unknown name is returned as it is.
std::string control_title(std::string_view name);

}  // namespace topocheck::routing
