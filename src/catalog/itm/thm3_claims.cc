// Theorem 3 of the ITM paper (002), both directions, over every graph up to isomorphism (nauty's
// geng), under each reading of "ITM" (Rule) and of "totally triangulated" (itm/theorem3.h has
// the words and what each reading is proved to give). Claim ids itm.thm3.if and itm.thm3.only_if;
// readings `<rule>-<triangulated reading>`, e.g. `exterior-every-chord-crosses`.
//
// The deciders are exact searches (src/itm/theorem3_test.cc cross-checks them by brute force);
// what they find is re-checked here before it is believed: a spanning ITM witness must replay
// through Itm::build and use edges of g only, a Hamiltonian cycle must be one.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/itm/parts.h"
#include "catalog/itm/scope.h"
#include "claims/claim.h"
#include "itm/itm.h"
#include "itm/theorem3.h"

namespace topocheck::claims::itm_parts {
namespace {

using itm::Graph;
using nlohmann::json;

// Re-checks the deciders' witnesses; an error names what is wrong (a bug, reported as such).
std::optional<std::string> recheck(const Graph& g, const std::optional<itm::SpanningItm>& spanning,
                                   const std::optional<std::vector<int>>& cycle) {
  if (spanning) {
    auto built = itm::Itm::build(spanning->steps, spanning->rule);
    if (!built) return "the spanning ITM witness does not replay: " + built.error().message;
    if (built->n() != g.n()) return "the spanning ITM witness has the wrong size";
    for (const auto& [a, b] : built->graph().edges())
      if (!g.adjacent(spanning->order[static_cast<size_t>(a)], spanning->order[static_cast<size_t>(b)]))
        return "the spanning ITM witness uses a non-edge of g";
  }
  if (cycle) {
    const auto& c = *cycle;
    if (static_cast<int>(c.size()) != g.n()) return "the Hamiltonian cycle witness misses nodes";
    std::vector<char> seen(static_cast<size_t>(g.n()), 0);
    for (size_t i = 0; i < c.size(); ++i) {
      if (seen[static_cast<size_t>(c[i])]++) return "the Hamiltonian cycle witness repeats a node";
      if (!g.adjacent(c[i], c[(i + 1) % c.size()])) return "the Hamiltonian cycle witness uses a non-edge";
    }
  }
  return std::nullopt;
}

// The verdict of one combination on g, with the witness for show / replay. `premise` (may be
// null) receives whether the direction's premise holds on g: "if", that g is Hamiltonian and
// totally triangulated; "only if", that g has a spanning ITM.
Violation check_graph(const Graph& g, const itm::Theorem3Combination& combo, json* witness, bool* premise = nullptr) {
  std::vector<int> cycle;
  const bool right = itm::rhs(g, combo.reading, &cycle);
  const auto spanning = itm::spanning_itm(g, combo.rule);
  if (auto bug = recheck(g, spanning, right ? std::optional(cycle) : std::nullopt))
    TC_CHECK(false, "Theorem 3 decider: " + *bug);
  if (witness) {
    json edges = json::array();
    for (const auto& [u, v] : g.edges()) edges.push_back({u, v});
    (*witness)["edges"] = edges;
    if (right) (*witness)["order"] = cycle;
    if (spanning) {
      json sp = json::array();
      for (const auto& [u, v] : spanning->edges) sp.push_back({u, v});
      (*witness)["spanning_itm"] = sp;
    }
  }
  if (premise) *premise = combo.direction == itm::Theorem3Direction::kIf ? right : spanning.has_value();
  const std::string rule = itm::to_string(combo.rule), reading = itm::to_string(combo.reading);
  if (combo.direction == itm::Theorem3Direction::kIf && right && !spanning)
    return fmt::format("Hamiltonian and totally triangulated ({}) for the cycle ({}), but no spanning ITM ({})", reading,
                       fmt::join(cycle, ":"), rule);
  if (combo.direction == itm::Theorem3Direction::kOnlyIf && spanning && !right)
    return fmt::format("has a spanning ITM ({}: edges {}), but no Hamiltonian cycle for which it is totally "
                       "triangulated ({})",
                       rule, fmt::join(spanning->edges, " "), reading);
  return std::nullopt;
}

MethodResult exhaustive_graphs(const RunContext& ctx, const itm::Theorem3Combination& combo, int max_n) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = fmt::format("every graph with n = 1..{} nodes up to isomorphism (nauty-geng), geng's order", max_n);
  uint64_t applicable = 0;
  for (int n = 1; n <= max_n; ++n) {
    ctx.report(fmt::format("graphs on {} nodes", n));
    auto graphs = itm::all_graphs(n, false);
    if (!graphs) {
      result.outcome = Outcome::kError;
      result.detail = graphs.error().message;
      return result;
    }
    for (const Graph& g : *graphs) {
      ++result.cases;
      bool premise = false;
      const Violation v = check_graph(g, combo, nullptr, &premise);
      if (premise) ++applicable;
      if (!v) continue;
      Counterexample cx;
      cx.params = {{"n", n}};
      cx.input = {{"graph6", itm::to_graph6(g)}};
      cx.violation = *check_graph(g, combo, &cx.witness);
      cx.minimized = true;
      result.outcome = Outcome::kRefuted;
      result.detail = cx.violation;
      result.counterexample = std::move(cx);
      result.applicable = applicable;
      return result;
    }
  }
  result.outcome = Outcome::kHolds;
  // The graphs the direction speaks of: Hamiltonian and totally triangulated ("if"), with a
  // spanning ITM ("only if"); the others satisfy an implication without being asked anything.
  result.applicable = applicable;
  result.scope += fmt::format("; the premise ({}) held on {} of them",
                              combo.direction == itm::Theorem3Direction::kIf ? "Hamiltonian and totally triangulated"
                                                                              : "a spanning ITM",
                              applicable);
  return result;
}

CaseFn graph_case_fn(itm::Theorem3Combination combo) {
  return [combo](const json& params, const json& input) -> Result<CaseCheck> {
    if (!input.is_object() || !input.contains("graph6") || !input.at("graph6").is_string())
      return invalid_argument("input.graph6 must be a graph6 string");
    auto g = itm::parse_graph6(input.at("graph6").get<std::string>());
    if (!g) return invalid_argument("input.graph6: " + g.error().message);
    if (g->n() > itm::kMaxTheorem3Nodes)
      return invalid_argument(fmt::format("input.graph6: {} nodes, the deciders take at most {}", g->n(),
                                          itm::kMaxTheorem3Nodes));
    if (params.is_object() && params.contains("n") &&
        (!params.at("n").is_number_integer() || params.at("n").get<int>() != g->n()))
      return invalid_argument(fmt::format("params.n: the graph has {} nodes", g->n()));
    CaseCheck out;
    out.violation = check_graph(*g, combo, &out.witness);
    return out;
  };
}

// The readings of one direction: every rule x every reading of "totally triangulated".
std::vector<Reading> thm3_readings(itm::Theorem3Direction direction) {
  std::vector<Reading> readings;
  for (itm::Rule rule : {itm::Rule::kAnyEdge, itm::Rule::kExterior})
    for (itm::TriangulatedReading reading : itm::kTriangulatedReadings) {
      const itm::Theorem3Combination combo{rule, reading, direction};
      Reading r;
      r.name = itm::to_string(rule) + "-" + itm::to_string(reading);
      r.description = fmt::format(
          "ITM = AddNode on {}; totally triangulated = {}",
          rule == itm::Rule::kAnyEdge ? "any edge (a spanning 2-tree)" : "exterior edges (a spanning triangulated polygon)",
          reading == itm::TriangulatedReading::kEveryChordCrosses
              ? "every non-edge, drawn as a straight chord, properly crosses an edge of G (G's edges may cross)"
          : reading == itm::TriangulatedReading::kMaximalOuterplanar
              ? "as every-chord-crosses, and no two edges of G cross (G is a triangulated polygon on the cycle)"
              : "G drawn without crossings with its chords inside or outside the circle, and no non-edge can be "
                "added on either side");
      // Not a faithful reading of "only if": it needs 3n - 6 edges, which no ITM with n >= 4 has
      // (2n - 3), so it fails on every ITM itself; its refutation is the reading's error, and the
      // description says so in every report.
      r.faithful = !(reading == itm::TriangulatedReading::kPlanarDrawing && direction == itm::Theorem3Direction::kOnlyIf);
      if (!r.faithful)
        r.description += " (not faithful for 'only if': no ITM with n >= 4 is totally triangulated in this sense, so "
                         "the theorem would fail on every ITM itself; a refutation here is an error of the reading, not "
                         "of the paper)";
      r.check_case = graph_case_fn(combo);
      r.methods.emplace_back(Method::kExhaustive, [combo](const RunContext& ctx) {
        return exhaustive_graphs(ctx, combo, itm_scope::kTheorem3MaxN.at(ctx.budget));
      });
      readings.push_back(std::move(r));
    }
  return readings;
}

}  // namespace

void add_thm3_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "itm.thm3.if", "Theorem 3",
                           "If G is Hamiltonian and totally triangulated for some Hamiltonian cycle, then G has an "
                           "ITM subgraph that contains all the nodes in V.",
                           thm3_readings(itm::Theorem3Direction::kIf)));
  registry.add(Claim::make(kPaper, "itm.thm3.only_if", "Theorem 3",
                           "If G has an ITM subgraph that contains all the nodes in V, then G is Hamiltonian and "
                           "totally triangulated for some Hamiltonian cycle.",
                           thm3_readings(itm::Theorem3Direction::kOnlyIf)));
}

}  // namespace topocheck::claims::itm_parts
