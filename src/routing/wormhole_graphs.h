// The graphs of the wormhole experiments (issue 8): ITMs (papers/002) as routing networks, random
// ITMs, and the negative controls on which shortest-path wormhole routing can deadlock.
//
//  - network_of(g, name): an itm::Graph as a Network (node i = node i; ports in g's sorted
//    neighbour order). Errors: disconnected, empty.
//  - random_itm(n, rule, seed): n >= 3 nodes; step i adds node 3 + i at a usable edge (any edge
//    under kAnyEdge, an exterior one under kExterior) chosen uniformly by Rng(seed). Returned as
//    its steps, replayable by itm::Itm::build.
//  - Controls: C4, K_{2,3}, the 3x3 grid (itm.h), and random_nonchordal(n, seed): a connected
//    graph on n >= 4 nodes with a chordless cycle of length >= 4 (a random spanning tree plus
//    random extra edges from Rng(seed), redrawn until connected and non-chordal).
//  - is_chordal(g): no chordless cycle of length >= 4 (maximum cardinality search + perfect
//    elimination ordering check; Tarjan-Yannakakis 1984). ITMs are chordal (2-trees).
//  - control_graph(name): "c4", "k23", "grid3x3", "nonchordal" (random_nonchordal(8, 1)); the
//    names of `control_names`.
// Graph names for messages: "ITM(exterior, 16, seed 3)", "C4", "K_{2,3}", "grid 3x3",
// "nonchordal(8, seed 1)".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "itm/itm.h"
#include "routing/network.h"

namespace topocheck::routing {

Result<Network> network_of(const itm::Graph& g, const std::string& name);
itm::Steps random_itm(int n, itm::Rule rule, uint64_t seed);
itm::Graph random_nonchordal(int n, uint64_t seed);
bool is_chordal(const itm::Graph& g);

inline constexpr std::string_view kControlNames[] = {"c4", "k23", "grid3x3", "nonchordal"};
// Errors: an unknown name (listing the known ones).
Result<itm::Graph> control_graph(std::string_view name);
std::string control_title(std::string_view name);  // "C4", "K_{2,3}", "grid 3x3", "nonchordal(8, seed 1)"

}  // namespace topocheck::routing
