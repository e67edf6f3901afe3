// The ITM check of itm.h.
#include "check/itm.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "itm/itm_checks.h"
#include "itm/theorem3.h"

namespace topocheck::check {
namespace {

using nlohmann::json;

constexpr int kMaxItmNodes = 64;

// The checks that follow from a circular order of g's nodes under reading `r`.
void judge_order(CheckReport& r, const std::string& rule, const itm::Graph& g, const std::vector<int>& order) {
  r.add("circular_order[" + rule + "]", std::nullopt, fmt::format("the exterior edges are the cycle {}", fmt::join(order, " ")));
  r.add("contention_free[" + rule + "]", itm::check_contention_free(g, order, itm::Contention::kPaper),
        "no two messages w->x, y->z with w < x < y < z in circular order share a directed edge on shortest paths");
  std::optional<std::string> bad;
  for (int source : order) {
    if (bad) break;
    std::vector<int> list = order;
    std::rotate(list.begin(), std::find(list.begin(), list.end(), source), list.end());
    if (auto v = itm::check_broadcast(g, list, itm::broadcast_from(order, source)))
      bad = fmt::format("from {}: {}", source, *v);
  }
  r.add("broadcast[" + rule + "]", bad, fmt::format("the recursive broadcast from each of the {} nodes is contention-free", order.size()));
}

void skip_order(CheckReport& r, const std::string& rule, const std::string& why) {
  for (const char* c : {"circular_order", "contention_free", "broadcast"}) r.skip(fmt::format("{}[{}]", c, rule), why);
}

}  // namespace

Result<ItmFile> itm_file_from_json(const json& j, const std::string& text, const std::string& file) {
  const FileErrors errors(text, file);
  if (!j.is_object()) return errors.at("", "an itm file is a JSON object with steps or graph");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "kind" && it.key() != "steps" && it.key() != "graph") return errors.at("/" + it.key(), "unknown field (steps, graph)");
  if (j.contains("kind") && j.at("kind") != "itm") return errors.at("/kind", "must be \"itm\" in an itm file");
  if (j.contains("steps") == j.contains("graph")) return errors.at("", "give exactly one of steps and graph");
  ItmFile out;
  if (j.contains("steps")) {
    if (!j.at("steps").is_string()) return errors.at("/steps", "must be AddNode steps as text, e.g. \"3:(0,1) 4:(1,3)\"");
    out.steps_text = j.at("steps").get<std::string>();
    auto steps = itm::parse_steps(out.steps_text);
    if (!steps) return errors.at("/steps", steps.error().message);
    if (steps->size() + 3 > static_cast<size_t>(kMaxItmNodes)) return errors.at("/steps", fmt::format("at most {} nodes", kMaxItmNodes));
    out.steps = *steps;
    return out;
  }
  const json& g = j.at("graph");
  if (!g.is_object()) return errors.at("/graph", "must be {\"nodes\": N, \"edges\": [[u, v], ...]}");
  for (auto it = g.begin(); it != g.end(); ++it)
    if (it.key() != "nodes" && it.key() != "edges") return errors.at("/graph/" + it.key(), "unknown field (nodes, edges)");
  if (!g.contains("nodes") || !is_count(g.at("nodes")) || g.at("nodes").get<uint64_t>() < 3 || g.at("nodes").get<uint64_t>() > kMaxItmNodes)
    return errors.at("/graph/nodes", fmt::format("must be an integer in 3..{}", kMaxItmNodes));
  const int n = static_cast<int>(g.at("nodes").get<uint64_t>());
  if (!g.contains("edges") || !g.at("edges").is_array()) return errors.at("/graph/edges", "must be an array of [u, v] pairs");
  std::vector<std::pair<int, int>> edges;
  for (size_t i = 0; i < g.at("edges").size(); ++i) {
    const json& e = g.at("edges")[i];
    const std::string p = fmt::format("/graph/edges/{}", i);
    if (!e.is_array() || e.size() != 2 || !is_count(e[0]) || !is_count(e[1]) || e[0].get<uint64_t>() >= static_cast<uint64_t>(n) ||
        e[1].get<uint64_t>() >= static_cast<uint64_t>(n))
      return errors.at(p, fmt::format("must be a pair [u, v] of node numbers 0..{}", n - 1));
    edges.emplace_back(static_cast<int>(e[0].get<uint64_t>()), static_cast<int>(e[1].get<uint64_t>()));
  }
  auto graph = itm::Graph::from_edges(n, edges);
  if (!graph) return errors.at("/graph/edges", graph.error().message);
  out.graph = std::move(graph).value();
  return out;
}

CheckReport judge_itm(const ItmFile& in) {
  CheckReport r;
  r.kind = "itm";
  std::optional<itm::Graph> any_graph;
  for (itm::Rule rule : {itm::Rule::kAnyEdge, itm::Rule::kExterior}) {
    const std::string name = itm::to_string(rule);
    if (in.steps) {
      auto built = itm::Itm::build(*in.steps, rule);
      if (!built) {
        r.add("itm[" + name + "]", built.error().message, "");
        skip_order(r, name, "the steps do not build an ITM under this reading");
        continue;
      }
      r.add("itm[" + name + "]", std::nullopt, fmt::format("the {} steps build an ITM of {} nodes", in.steps->size(), built->n()));
      if (!any_graph) any_graph = built->graph();
      auto order = itm::circular_order(*built);
      if (!order) {
        r.add("circular_order[" + name + "]", order.error().message, "");
        r.skip("contention_free[" + name + "]", "no circular order");
        r.skip("broadcast[" + name + "]", "no circular order");
        continue;
      }
      judge_order(r, name, built->graph(), *order);
      continue;
    }
    const itm::Graph& g = in.graph;
    std::optional<itm::SpanningItm> s;
    if (g.num_edges() != 2 * g.n() - 3) {
      r.add("itm[" + name + "]", fmt::format("{} edges; an ITM of {} nodes has 2n - 3 = {}", g.num_edges(), g.n(), 2 * g.n() - 3), "");
    } else if (!(s = itm::spanning_itm(g, rule))) {
      r.add("itm[" + name + "]", "no sequence of AddNode steps under this reading builds the graph (exact search)", "");
    } else {
      r.add("itm[" + name + "]", std::nullopt,
            fmt::format("built by the steps {} with ITM node i played by node {}", itm::to_string(s->steps),
                        fmt::format("{}", fmt::join(s->order, ","))));
    }
    if (!s) {
      skip_order(r, name, "the graph is not an ITM under this reading");
      continue;
    }
    auto built = itm::Itm::build(s->steps, rule);
    auto order = built ? itm::circular_order(*built) : Result<std::vector<int>>(built.error());
    if (!order) {
      r.add("circular_order[" + name + "]", order.error().message, "");
      r.skip("contention_free[" + name + "]", "no circular order");
      r.skip("broadcast[" + name + "]", "no circular order");
      continue;
    }
    std::vector<int> mine;  // the order in the file's labels
    for (int v : *order) mine.push_back(s->order[static_cast<size_t>(v)]);
    judge_order(r, name, g, mine);
  }
  const itm::Graph* g = in.steps ? (any_graph ? &*any_graph : nullptr) : &in.graph;
  if (g) r.add("deadlock_free", itm::check_deadlock_free(*g), "shortest-path routing's channel dependency graph is acyclic");
  else r.skip("deadlock_free", "the steps build no graph");
  return r;
}

}  // namespace topocheck::check
