// The ITM encodings input by input (suite ItmSmtEncoding; binary itm_smt_test): the inputs each
// encoding admits are exactly the ITMs (or the triangulations of the n-gon: the reduction behind
// kPolygon, checked here for every exterior ITM up to n = 8), symmetry breaking keeps every
// isomorphism class, and the inputs on which a violation is satisfiable are exactly those the
// naive checkers reject.
#include "smt/itm_smt.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "itm/itm_checks.h"
#include "smt/itm_smt_test_support.h"

namespace topocheck::smt {
namespace {

using namespace itm_smt_test;

// The reduction behind kPolygon: an exterior ITM with each node renamed by its position in the
// circular order is a triangulated n-gon (n - 3 pairwise non-crossing chords).
TEST(ItmSmt, ExteriorItmsAreTriangulatedPolygonsInCircularOrderCoordinates) {
  for (int n = 3; n <= kCrossCheckMaxN; ++n)
    for_each_itm(n, Rule::kExterior, [&](const Itm& g) {
      const std::vector<int> order = itm::circular_order(g).value();
      std::vector<int> position(static_cast<size_t>(n));
      for (int k = 0; k < n; ++k) position[static_cast<size_t>(order[static_cast<size_t>(k)])] = k;
      std::vector<std::pair<int, int>> chords;
      for (const auto& [u, v] : g.graph().edges()) {
        const int p = std::min(position[static_cast<size_t>(u)], position[static_cast<size_t>(v)]);
        const int q = std::max(position[static_cast<size_t>(u)], position[static_cast<size_t>(v)]);
        if (q != p + 1 && !(p == 0 && q == n - 1)) chords.emplace_back(p, q);
      }
      ASSERT_EQ(static_cast<int>(chords.size()), n - 3) << itm::to_string(g.steps());
      for (const auto& [i, j] : chords)
        for (const auto& [k, l] : chords)
          ASSERT_FALSE(i < k && k < j && j < l) << itm::to_string(g.steps()) << ": chords (" << i << "," << j
                                                << ") and (" << k << "," << l << ") cross";
    });
}

std::vector<std::string> sorted_texts(const std::vector<itm::Steps>& all) {
  std::vector<std::string> out;
  for (const itm::Steps& steps : all) out.push_back(itm::to_string(steps));
  std::sort(out.begin(), out.end());
  return out;
}

// The symbolic ITM admits exactly the sequences Itm::build accepts: no more (the claims would be
// refuted on non-ITMs) and no fewer (a proof would miss ITMs).
TEST(ItmSmtEncoding, SymbolicItmAdmitsExactlyTheValidSequences) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 3; n <= 7; ++n) {
      std::vector<itm::Steps> brute;
      for_each_itm(n, rule, [&](const Itm& g) { brute.push_back(g.steps()); });
      const auto models = symbolic_itm_models(n, rule, ItmEncoding::kSteps, false);
      ASSERT_TRUE(models.ok()) << models.error().message;
      EXPECT_EQ(sorted_texts(*models), sorted_texts(brute)) << itm::to_string(rule) << " n = " << n;
    }
}

// The graph of `steps` on nodes 0..n-1 as a bit set of pairs, minimized over all relabellings: equal
// for two sequences iff their graphs are isomorphic. n! relabellings: small n only.
uint64_t canonical_graph(const Graph& g) {
  const int n = g.n();
  std::vector<int> perm(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  uint64_t best = ~uint64_t{0};
  const auto edges = g.edges();
  do {
    uint64_t mask = 0;
    for (const auto& [u, v] : edges) {
      const int a = std::min(perm[static_cast<size_t>(u)], perm[static_cast<size_t>(v)]);
      const int b = std::max(perm[static_cast<size_t>(u)], perm[static_cast<size_t>(v)]);
      mask |= uint64_t{1} << (b * (b - 1) / 2 + a);
    }
    best = std::min(best, mask);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

// Theorem 5's symmetry breaking keeps at least one sequence of every isomorphism class (the
// claims are invariant under relabelling), and does remove most sequences.
TEST(ItmSmtEncoding, SymmetryBreakingKeepsEveryIsomorphismClass) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 3; n <= 7; ++n) {
      std::set<uint64_t> all, kept;
      uint64_t sequences = 0;
      for_each_itm(n, rule, [&](const Itm& g) {
        all.insert(canonical_graph(g.graph()));
        ++sequences;
      });
      const auto models = symbolic_itm_models(n, rule, ItmEncoding::kSteps, true);
      ASSERT_TRUE(models.ok()) << models.error().message;
      for (const itm::Steps& steps : *models) {
        auto g = Itm::build(steps, rule);
        ASSERT_TRUE(g.ok()) << g.error().message;
        kept.insert(canonical_graph(g->graph()));
      }
      EXPECT_EQ(kept, all) << itm::to_string(rule) << " n = " << n;
      if (n == 7) {
        EXPECT_LT(models->size() * 4, sequences) << itm::to_string(rule);
      }
    }
}

// The polygon admits exactly the triangulations of the n-gon: Catalan(n - 2) chord sets, none
// crossing; the broken control admits every set of n - 3 chords.
TEST(ItmSmtEncoding, PolygonAdmitsExactlyTheTriangulations) {
  const uint64_t catalan[] = {1, 1, 2, 5, 14, 42, 132, 429};  // C_0 .. C_7
  for (int n = 3; n <= 9; ++n) {
    const auto models = polygon_models(n, ItmEncoding::kPolygon);
    ASSERT_TRUE(models.ok()) << models.error().message;
    EXPECT_EQ(models->size(), catalan[n - 2]) << "n = " << n;
    std::set<std::vector<std::pair<int, int>>> distinct(models->begin(), models->end());
    EXPECT_EQ(distinct.size(), models->size());
    for (const auto& chords : *models) {
      ASSERT_EQ(static_cast<int>(chords.size()), n - 3);
      for (const auto& [i, j] : chords)
        for (const auto& [k, l] : chords) ASSERT_FALSE(i < k && k < j && j < l) << "n = " << n;
    }
  }
  for (int n = 4; n <= 7; ++n) {
    const auto models = polygon_models(n, ItmEncoding::kBrokenCrossingChords);
    ASSERT_TRUE(models.ok());
    const uint64_t chords = static_cast<uint64_t>(n * (n - 3) / 2);
    uint64_t sets = 1;  // C(chords, n - 3)
    for (uint64_t i = 0; i < static_cast<uint64_t>(n - 3); ++i) sets = sets * (chords - i) / (i + 1);
    EXPECT_EQ(models->size(), sets) << "n = " << n;
  }
}

Graph graph_of(int n, const itm::Steps& steps) {
  std::vector<std::pair<int, int>> edges{{0, 1}, {0, 2}, {1, 2}};
  for (const itm::Step& s : steps) {
    edges.emplace_back(s.x, s.v);
    edges.emplace_back(s.y, s.v);
  }
  return Graph::from_edges(n, edges).value();
}

// Theorem 2's violation, input by input: the sequences on which the encoding has a cycle are
// exactly those check_deadlock_free rejects, among the ITMs (kSteps: none) and among all
// sequences of pairs (kBrokenNonEdge, any-edge: a step on any two existing nodes, C4s and
// cycles appear).
TEST(ItmSmtEncoding, DeadlockViolationIsTheCheckerOnEveryInput) {
  for (int n = 3; n <= 7; ++n) {
    const auto every = symbolic_itm_models(n, Rule::kAnyEdge, ItmEncoding::kBrokenNonEdge, false);
    ASSERT_TRUE(every.ok()) << every.error().message;
    std::vector<itm::Steps> failing;
    for (const itm::Steps& steps : *every)
      if (itm::check_deadlock_free(graph_of(n, steps))) failing.push_back(steps);
    const auto violating = deadlock_violating_models(n, Rule::kAnyEdge, ItmEncoding::kBrokenNonEdge);
    ASSERT_TRUE(violating.ok()) << violating.error().message;
    EXPECT_EQ(sorted_texts(*violating), sorted_texts(failing)) << "n = " << n;
    if (n == 7) {
      EXPECT_GT(failing.size(), 100u);
      EXPECT_LT(failing.size(), every->size());
    }
    for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
      const auto none = deadlock_violating_models(n, rule, ItmEncoding::kSteps);
      ASSERT_TRUE(none.ok());
      EXPECT_TRUE(none->empty()) << itm::to_string(rule) << " n = " << n << ": " << itm::to_string(none->front());
    }
  }
}

// Theorem 5's violation, input by input, for all four readings: the exterior ITMs on which the
// kSteps encoding (symbolic circular order) is satisfiable are exactly those check_contention_free
// rejects; the chord sets on which the polygon encodings are satisfiable are, up to rotation,
// exactly those it rejects with the order 0..n-1 (kPolygon: every triangulation;
// kBrokenCrossingChords: every set of n - 3 chords, where every reading has violations).
std::vector<std::pair<int, int>> with_sides(int n, std::vector<std::pair<int, int>> chords) {
  for (int k = 0; k < n; ++k) chords.emplace_back(std::min(k, (k + 1) % n), std::max(k, (k + 1) % n));
  return chords;
}

std::set<std::vector<std::pair<int, int>>> rotations(int n, const std::vector<std::vector<std::pair<int, int>>>& sets) {
  std::set<std::vector<std::pair<int, int>>> out;
  for (const auto& chords : sets)
    for (int r = 0; r < n; ++r) {
      std::vector<std::pair<int, int>> rotated;
      for (const auto& [u, v] : chords)
        rotated.emplace_back(std::min((u + r) % n, (v + r) % n), std::max((u + r) % n, (v + r) % n));
      std::sort(rotated.begin(), rotated.end());
      out.insert(rotated);
    }
  return out;
}

TEST(ItmSmtEncoding, ContentionViolationIsTheCheckerOnEveryInput) {
  for (Contention c : kReadings) {
    for (int n = 3; n <= kStepsPointwiseMaxN; ++n) {
      std::vector<itm::Steps> failing;
      for_each_itm(n, Rule::kExterior, [&](const Itm& g) {
        if (itm::check_contention_free(g.graph(), itm::circular_order(g).value(), c)) failing.push_back(g.steps());
      });
      const auto violating = contention_violating_models(n, c, ItmEncoding::kSteps);
      ASSERT_TRUE(violating.ok()) << violating.error().message;
      EXPECT_EQ(sorted_texts(*violating), sorted_texts(failing)) << reading_name(c) << " n = " << n;
    }
    int broken_failures = 0;
    for (int n = 4; n <= kPolygonPointwiseMaxN; ++n) {
      std::vector<int> order(static_cast<size_t>(n));
      for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
      for (ItmEncoding encoding : {ItmEncoding::kPolygon, ItmEncoding::kBrokenCrossingChords}) {
        const auto every = polygon_models(n, encoding);
        ASSERT_TRUE(every.ok());
        std::vector<std::vector<std::pair<int, int>>> failing;
        for (const auto& chords : *every)
          if (itm::check_contention_free(Graph::from_edges(n, with_sides(n, chords)).value(), order, c))
            failing.push_back(chords);
        const auto violating = polygon_violating_models(n, c, encoding);
        ASSERT_TRUE(violating.ok()) << violating.error().message;
        EXPECT_EQ(rotations(n, *violating), rotations(n, failing))
            << reading_name(c) << " " << to_string(encoding) << " n = " << n;
        if (encoding == ItmEncoding::kBrokenCrossingChords) broken_failures += static_cast<int>(failing.size());
      }
    }
    EXPECT_GT(broken_failures, 20) << reading_name(c);
  }
}

}  // namespace
}  // namespace topocheck::smt
