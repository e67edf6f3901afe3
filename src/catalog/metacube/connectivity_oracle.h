// The max-flow connectivity oracle shared by hypercube.connectivity and metacube.connectivity: a
// topology claimed to be `degree`-connected has exactly `degree` internally node-disjoint paths
// between every two distinct nodes (Boost boykov_kolmogorov_max_flow on the node-split graph,
// core/graph.h: max_node_disjoint_paths). Cost: one max-flow, O(degree * (V + E)), per pair.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "core/graph.h"
#include "core/topology.h"

namespace topocheck::claims {

// One topology of a connectivity sweep and the words of its counterexamples.
struct ConnectivitySweep {
  const Topology* topology = nullptr;
  const UndirectedGraph* graph = nullptr;  // materialize(*topology)
  int degree = 0;                           // the claimed number of disjoint paths
  std::string degree_name;                  // how the violation names it: "n", "k+m"
  nlohmann::json params;                    // the counterexample's params, e.g. {"n": 3}
  std::pair<const char*, const char*> input_keys;  // the counterexample's input keys, e.g. {"x", "y"}
  std::string detail_prefix;                // before the violation in the detail and the counterexample
};

// "max-flow finds 2 node-disjoint paths, not n = 3".
std::string connectivity_violation(int flow, const std::string& degree_name, int degree);

// Replay of one stored pair (s, t: node indices of `graph`): the violation (nullopt when the
// flow is `degree`) and the witness {"max_flow": flow}.
CaseCheck connectivity_case(const UndirectedGraph& graph, uint64_t s, uint64_t t, int degree,
                            const std::string& degree_name);

// Every source (node index) x every target t != source, in index order: adds the pairs to
// result.cases; on the first pair whose flow is not `degree` makes `result` refuted (detail and
// counterexample, marked minimized: the caller sweeps topologies smallest first) and returns true.
bool sweep_connectivity(const ConnectivitySweep& sweep, const std::vector<uint64_t>& sources, MethodResult& result);

}  // namespace topocheck::claims
