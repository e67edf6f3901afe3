#include "catalog/metacube/connectivity_oracle.h"

#include <fmt/format.h>

namespace topocheck::claims {

std::string connectivity_violation(int flow, const std::string& degree_name, int degree) {
  return fmt::format("max-flow finds {} node-disjoint paths, not {} = {}", flow, degree_name, degree);
}

CaseCheck connectivity_case(const UndirectedGraph& graph, uint64_t s, uint64_t t, int degree,
                            const std::string& degree_name) {
  const int flow = max_node_disjoint_paths(graph, s, t);
  Violation v;
  if (flow != degree) v = connectivity_violation(flow, degree_name, degree);
  return CaseCheck{v, nlohmann::json{{"max_flow", flow}}};
}

bool sweep_connectivity(const ConnectivitySweep& sweep, const std::vector<uint64_t>& sources, MethodResult& result) {
  const uint64_t size = sweep.topology->num_nodes();
  for (uint64_t s : sources)
    for (uint64_t t = 0; t < size; ++t) {
      if (t == s) continue;
      ++result.cases;
      const int flow = max_node_disjoint_paths(*sweep.graph, s, t);
      if (flow == sweep.degree) continue;
      result.outcome = Outcome::kRefuted;
      result.detail = sweep.detail_prefix + connectivity_violation(flow, sweep.degree_name, sweep.degree);
      Counterexample cx;
      cx.params = sweep.params;
      cx.input = {{sweep.input_keys.first, sweep.topology->node_at(s).to_string()},
                  {sweep.input_keys.second, sweep.topology->node_at(t).to_string()}};
      cx.violation = result.detail;
      cx.witness = {{"max_flow", flow}};
      cx.minimized = true;
      result.counterexample = cx;
      return true;
    }
  return false;
}

}  // namespace topocheck::claims
