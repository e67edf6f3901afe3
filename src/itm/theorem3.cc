// Theorem 3 of the ITM paper (002) itself (theorem3.h): whether a direction of the theorem holds
// for a graph under a rule and a reading, and the survey of every combination over every graph up
// to isomorphism (geng). The deciders are spanning_itm.cc (left-hand side) and triangulated.cc
// (right-hand side); graph6.cc runs geng. Cost: each decider once per graph (n = 8, 12346
// graphs: about 0.3 s).
#include "itm/theorem3.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace topocheck::itm {

std::optional<std::vector<int>> outer_cycle(const Graph& g) {
  const int n = g.n();
  for (const std::vector<int>& cycle : hamiltonian_cycles(g)) {
    std::vector<int> pos(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) pos[static_cast<size_t>(cycle[static_cast<size_t>(i)])] = i;
    std::vector<std::pair<int, int>> chords;
    for (const auto& [u, v] : g.edges()) {
      const int a = std::min(pos[static_cast<size_t>(u)], pos[static_cast<size_t>(v)]);
      const int b = std::max(pos[static_cast<size_t>(u)], pos[static_cast<size_t>(v)]);
      if (b - a != 1 && b - a != n - 1) chords.emplace_back(a, b);
    }
    bool crossing = false;
    for (size_t i = 0; i < chords.size() && !crossing; ++i)
      for (size_t j = i + 1; j < chords.size() && !crossing; ++j) {
        const auto [a, b] = chords[i];
        const auto [p, q] = chords[j];
        crossing = (a < p && p < b && b < q) || (p < a && a < q && q < b);
      }
    if (!crossing) return cycle;
  }
  return std::nullopt;
}

std::string to_string(Theorem3Direction direction) { return direction == Theorem3Direction::kIf ? "if" : "only-if"; }

std::string to_string(const Theorem3Combination& combination) {
  return fmt::format("{}/{}/{}", to_string(combination.rule), to_string(combination.reading),
                     to_string(combination.direction));
}

namespace {

bool holds(bool has_spanning_itm, bool right_side, Theorem3Direction direction) {
  return direction == Theorem3Direction::kIf ? (!right_side || has_spanning_itm) : (!has_spanning_itm || right_side);
}

}  // namespace

bool theorem3_holds_for(const Graph& g, const Theorem3Combination& combination) {
  return holds(spanning_itm(g, combination.rule).has_value(), rhs(g, combination.reading), combination.direction);
}

Result<std::vector<Theorem3Finding>> survey_theorem3(int max_n) {
  std::vector<Theorem3Finding> findings;
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (TriangulatedReading reading : kTriangulatedReadings)
      for (Theorem3Direction direction : {Theorem3Direction::kIf, Theorem3Direction::kOnlyIf}) {
        Theorem3Finding f;
        f.combination = Theorem3Combination{rule, reading, direction};
        f.counterexamples_by_n.assign(static_cast<size_t>(std::max(max_n, 0) + 1), 0);
        findings.push_back(std::move(f));
      }
  for (int n = 1; n <= max_n; ++n) {
    auto graphs = all_graphs(n, false);
    if (!graphs) return graphs.error();
    for (const Graph& g : *graphs) {
      // Each decider once per graph, shared by the combinations.
      const bool spanning[2] = {spanning_itm(g, Rule::kAnyEdge).has_value(),
                                spanning_itm(g, Rule::kExterior).has_value()};
      bool right_side[std::size(kTriangulatedReadings)];  // by the reading's value (its index there)
      for (size_t r = 0; r < std::size(kTriangulatedReadings); ++r) right_side[r] = rhs(g, kTriangulatedReadings[r]);
      for (Theorem3Finding& f : findings) {
        ++f.graphs_checked;
        const auto& c = f.combination;
        if (holds(spanning[c.rule == Rule::kExterior ? 1 : 0], right_side[static_cast<size_t>(c.reading)],
                  c.direction))
          continue;
        ++f.counterexamples_by_n[static_cast<size_t>(n)];
        if (!f.first_counterexample) f.first_counterexample = g;
      }
    }
  }
  return findings;
}

Result<std::optional<Graph>> first_counterexample(const Theorem3Combination& combination, int max_n) {
  for (int n = 1; n <= max_n; ++n) {
    auto graphs = all_graphs(n, false);
    if (!graphs) return graphs.error();
    for (const Graph& g : *graphs)
      if (!theorem3_holds_for(g, combination)) return std::optional<Graph>{g};
  }
  return std::optional<Graph>{};
}

}  // namespace topocheck::itm
