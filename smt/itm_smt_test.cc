// The SMT encodings of itm.thm2.deadlock_free and itm.thm5.contention_free against brute force:
//  - ItmSmt: every labelled AddNode sequence up to kCrossCheckMaxN nodes under both rules, judged
//    by the naive checkers; per n, the proof holds iff no sequence fails, a refuted reading is
//    refuted at the same smallest n, and every model is judged again; negative controls (a step
//    on a non-edge, crossing chords) are satisfiable at the smallest n brute force finds; limits,
//    the registry glue;
//  - ItmSmtEncoding: the formulas input by input: the inputs each encoding admits are exactly the
//    ITMs (or triangulations), symmetry breaking keeps every isomorphism class, and the inputs on
//    which a violation is satisfiable are exactly those the checkers reject.
#include "smt/itm_smt.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"

namespace topocheck::smt {
namespace {

using claims::Outcome;
using claims::SolverLimits;
using itm::Contention;
using itm::Graph;
using itm::Itm;
using itm::Rule;
using nlohmann::json;

constexpr int kCrossCheckMaxN = 8;        // brute force: 10395 any-edge, 2520 exterior sequences at n = 8
constexpr int kStepsCrossCheckMaxN = 7;   // kSteps Theorem 5 takes 5-10 s at n = 8
constexpr int kStepsPointwiseMaxN = 6;    // Theorem 5 input by input, kSteps: 1 s (n = 7: 12 s)
constexpr int kPolygonPointwiseMaxN = 7;  // and the polygons: 2 s
const SolverLimits kLimits{itm_smt_scope::kContentionRlimit.standard, 0};
constexpr Contention kReadings[] = {Contention::kPaper, Contention::kReversed, Contention::kUndirected,
                                    Contention::kSharedEndpoint};

// Calls visit on every ITM with n nodes under `rule`, one per labelled AddNode sequence.
void for_each_itm(int n, Rule rule, const std::function<void(const Itm&)>& visit) {
  std::function<void(const Itm&)> grow = [&](const Itm& g) {
    if (g.n() == n) {
      visit(g);
      return;
    }
    const auto usable = rule == Rule::kAnyEdge ? g.graph().edges() : g.exterior_edges();
    for (const auto& [x, y] : usable) {
      Itm next = g;
      ASSERT_TRUE(next.add_node(x, y).ok());
      grow(next);
    }
  };
  grow(Itm::kernel(rule));
}

// What brute force finds, per n: does some sequence fail (the first failure's steps)?
struct BruteForce {
  std::map<int, std::optional<std::string>> thm2[2];  // by Rule
  std::map<int, std::optional<std::string>> thm5[4];  // by Contention, exterior ITMs
  std::map<int, uint64_t> sequences[2];               // by Rule
};

const BruteForce& brute_force() {
  static const BruteForce result = [] {
    BruteForce b;
    for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
      for (int n = 3; n <= kCrossCheckMaxN; ++n) {
        const int r = static_cast<int>(rule);
        b.thm2[r][n] = std::nullopt;
        if (rule == Rule::kExterior)
          for (Contention c : kReadings) b.thm5[static_cast<int>(c)][n] = std::nullopt;
        for_each_itm(n, rule, [&](const Itm& g) {
          ++b.sequences[r][n];
          auto& deadlock = b.thm2[r][n];
          if (!deadlock && itm::check_deadlock_free(g.graph())) deadlock = itm::to_string(g.steps());
          if (rule != Rule::kExterior) return;
          const auto order = itm::circular_order(g);
          ASSERT_TRUE(order.ok()) << order.error().message;
          for (Contention c : kReadings) {
            auto& contention = b.thm5[static_cast<int>(c)][n];
            if (!contention && itm::check_contention_free(g.graph(), *order, c)) contention = itm::to_string(g.steps());
          }
        });
      }
    return b;
  }();
  return result;
}

std::string reading_name(Contention c) {
  return c == Contention::kPaper ? "exterior" : "exterior-" + itm::to_string(c);
}

TEST(ItmSmt, BruteForceCountsEveryLabelledSequence) {
  // Any edge: 3 * 5 * ... * (2n - 5) sequences; exterior: 3 * 4 * ... * (n - 1).
  const BruteForce& b = brute_force();
  uint64_t any = 1, exterior = 1;
  for (int n = 3; n <= kCrossCheckMaxN; ++n) {
    if (n > 3) {
      any *= static_cast<uint64_t>(2 * n - 5);
      exterior *= static_cast<uint64_t>(n - 1);
    }
    EXPECT_EQ(b.sequences[0].at(n), any) << "n = " << n;
    EXPECT_EQ(b.sequences[1].at(n), exterior) << "n = " << n;
  }
}

// The verdicts brute force reaches, pinned so that a change in the checkers is noticed here too.
TEST(ItmSmt, BruteForceVerdictsUpToN8) {
  const BruteForce& b = brute_force();
  for (int n = 3; n <= kCrossCheckMaxN; ++n) {
    EXPECT_FALSE(b.thm2[0].at(n)) << "any-edge n = " << n << ": " << *b.thm2[0].at(n);
    EXPECT_FALSE(b.thm2[1].at(n)) << "exterior n = " << n << ": " << *b.thm2[1].at(n);
    EXPECT_FALSE(b.thm5[static_cast<int>(Contention::kPaper)].at(n)) << n;
    EXPECT_FALSE(b.thm5[static_cast<int>(Contention::kSharedEndpoint)].at(n)) << n;
    EXPECT_EQ(b.thm5[static_cast<int>(Contention::kReversed)].at(n).has_value(), n >= 6) << n;
    EXPECT_EQ(b.thm5[static_cast<int>(Contention::kUndirected)].at(n).has_value(), n >= 6) << n;
  }
}

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

// A method result for n: kHolds iff brute force finds no failure; a refutation judged again here.
void expect_agrees(const claims::MethodResult& r, const std::optional<std::string>& brute, Rule rule,
                   const std::function<Violation(const Itm&)>& judge, const std::string& what) {
  if (!brute) {
    EXPECT_EQ(r.outcome, Outcome::kHolds) << what << ": " << r.detail;
    EXPECT_EQ(r.cases, 1u) << what;
    return;
  }
  ASSERT_EQ(r.outcome, Outcome::kRefuted) << what << " (brute force: `" << *brute << "`): " << r.detail;
  ASSERT_TRUE(r.counterexample) << what;
  const claims::Counterexample& cx = *r.counterexample;
  EXPECT_EQ(cx.params.at("rule"), itm::to_string(rule)) << what;
  const Itm g = Itm::build(itm::parse_steps(cx.input.at("steps").get<std::string>()).value(), rule).value();
  EXPECT_EQ(cx.params.at("n"), g.n()) << what;
  EXPECT_EQ(std::optional<std::string>(cx.violation), judge(g)) << what;
  EXPECT_EQ(r.detail, cx.violation) << what;
  EXPECT_FALSE(cx.minimized) << what;
  EXPECT_TRUE(cx.witness.contains("edges") && cx.witness.contains("exterior")) << what;
}

TEST(ItmSmt, DeadlockFreedomIsProvedAndBruteForceAgreesUpToN8) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 3; n <= kCrossCheckMaxN; ++n)
      expect_agrees(deadlock_free_smt_method_result(n, rule, kLimits), brute_force().thm2[static_cast<int>(rule)].at(n),
                    rule, [](const Itm& g) { return itm::check_deadlock_free(g.graph()); },
                    fmt::format("{} n = {}", itm::to_string(rule), n));
}

void expect_contention_agrees(ItmEncoding encoding, int max_n) {
  for (Contention c : kReadings)
    for (int n = 3; n <= max_n; ++n) {
      const claims::MethodResult r = contention_free_smt_method_result(n, c, encoding, kLimits);
      expect_agrees(r, brute_force().thm5[static_cast<int>(c)].at(n), Rule::kExterior,
                    [c](const Itm& g) {
                      return itm::check_contention_free(g.graph(), itm::circular_order(g).value(), c);
                    },
                    fmt::format("{} {} n = {}", to_string(encoding), reading_name(c), n));
      if (r.counterexample) {
        EXPECT_EQ(r.counterexample->witness.at("paths").size(), 2u);
      }
    }
}

TEST(ItmSmt, ContentionPolygonEncodingAgreesWithBruteForceUpToN8) {
  expect_contention_agrees(ItmEncoding::kPolygon, kCrossCheckMaxN);
}

TEST(ItmSmt, ContentionStepsEncodingAgreesWithBruteForceUpToN7) {
  expect_contention_agrees(ItmEncoding::kSteps, kStepsCrossCheckMaxN);
}

// The models' own claims about themselves: the messages they name are in the reading's positions
// of the model's order, and the edge lies on shortest paths of both (not only "some violation").
TEST(ItmSmt, ContentionModelsNameAViolatingPairOfMessages) {
  for (ItmEncoding encoding : {ItmEncoding::kSteps, ItmEncoding::kPolygon})
    for (Contention c : {Contention::kReversed, Contention::kUndirected})
      for (int n = 6; n <= 7; ++n) {
        const ItmSmtResult smt = prove_contention_free(n, c, kLimits, encoding);
        ASSERT_EQ(smt.status, SmtStatus::kCounterexample) << to_string(encoding) << " n = " << n;
        const Itm g = Itm::build(smt.steps, Rule::kExterior).value();
        const std::vector<int> d = itm::distances(g.graph());
        auto dist = [&](int u, int v) { return d[static_cast<size_t>(u * n + v)]; };
        auto on = [&](int s, int t, int a, int b) { return dist(s, a) + 1 + dist(b, t) == dist(s, t); };
        const ContentionModel& m = smt.messages;
        ASSERT_TRUE(g.graph().adjacent(m.a, m.b));
        EXPECT_TRUE(on(m.w, m.x, m.a, m.b));
        if (c == Contention::kReversed) {
          EXPECT_TRUE(on(m.z, m.y, m.a, m.b));
        } else {
          EXPECT_TRUE(on(m.y, m.z, m.a, m.b) || on(m.y, m.z, m.b, m.a));
        }
        // w < x < y < z cyclically in the model's order.
        auto pos = [&](int v) {
          return static_cast<int>(std::find(smt.order.begin(), smt.order.end(), v) - smt.order.begin());
        };
        const int base = pos(m.w);
        auto rel = [&](int v) { return (pos(v) - base + n) % n; };
        EXPECT_TRUE(0 < rel(m.x) && rel(m.x) < rel(m.y) && rel(m.y) < rel(m.z)) << to_string(encoding);
      }
}

// Negative control of Theorem 2: a step may attach to a non-edge (C4s appear). Brute force over
// those sequences (any two existing nodes) and the encoding find the first cycle at the same n,
// and the model's graph has one.
TEST(ItmSmt, BrokenNonEdgeControlHasADeadlockAtTheSmallestBruteForceN) {
  std::optional<int> brute;
  for (int n = 3; n <= 6 && !brute; ++n) {
    std::function<void(Graph&)> grow = [&](Graph& g) {
      if (brute) return;
      if (g.n() == n) {
        if (itm::check_deadlock_free(g)) brute = n;
        return;
      }
      for (int y = 1; y < g.n(); ++y)
        for (int x = 0; x < y; ++x) {
          auto edges = g.edges();
          edges.emplace_back(x, g.n());
          edges.emplace_back(y, g.n());
          Graph next = Graph::from_edges(g.n() + 1, edges).value();
          grow(next);
        }
    };
    Graph kernel = itm::complete_graph(3);
    grow(kernel);
  }
  ASSERT_EQ(brute, 5);
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    std::optional<int> smt_first;
    for (int n = 3; n <= 6 && !smt_first; ++n) {
      const ItmSmtResult smt = prove_deadlock_free(n, rule, kLimits, ItmEncoding::kBrokenNonEdge);
      ASSERT_TRUE(smt.status == SmtStatus::kProved || smt.status == SmtStatus::kCounterexample) << smt.reason;
      if (smt.status != SmtStatus::kCounterexample) continue;
      smt_first = n;
      const Graph g = Graph::from_edges(n, smt.edges).value();
      EXPECT_TRUE(itm::check_deadlock_free(g)) << g.to_string();
      EXPECT_FALSE(Itm::build(smt.steps, rule).ok()) << "the control's model should use a non-edge";
      EXPECT_FALSE(smt.channels.empty());
    }
    EXPECT_EQ(smt_first, brute) << itm::to_string(rule);
  }
}

// Negative controls of Theorem 5. Crossing chords: brute force over every set of n - 3 chords of
// the n-gon (the order 0..n-1) and the encoding agree on the first n with contention. A step on
// a non-edge: satisfiable, and the model's graph and order have the contention it names.
TEST(ItmSmt, BrokenContentionControlsAreSatisfiable) {
  std::optional<int> brute, smt_first;
  for (int n = 4; n <= 7 && !(brute && smt_first); ++n) {
    std::vector<std::pair<int, int>> chords, sides;
    for (int v = 1; v < n; ++v)
      for (int u = 0; u < v; ++u) (v == u + 1 || (u == 0 && v == n - 1) ? sides : chords).emplace_back(u, v);
    std::vector<int> order(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
    for (uint32_t mask = 0; mask < (1u << chords.size()) && !brute; ++mask) {
      if (std::popcount(mask) != n - 3) continue;
      auto edges = sides;
      for (size_t i = 0; i < chords.size(); ++i)
        if ((mask >> i) & 1) edges.push_back(chords[i]);
      if (itm::check_contention_free(Graph::from_edges(n, edges).value(), order, Contention::kPaper)) brute = n;
    }
    if (!smt_first) {
      const ItmSmtResult smt =
          prove_contention_free(n, Contention::kPaper, kLimits, ItmEncoding::kBrokenCrossingChords);
      ASSERT_TRUE(smt.status == SmtStatus::kProved || smt.status == SmtStatus::kCounterexample) << smt.reason;
      if (smt.status == SmtStatus::kCounterexample) {
        smt_first = n;
        EXPECT_TRUE(itm::check_contention_free(Graph::from_edges(n, smt.edges).value(), smt.order, Contention::kPaper));
      }
    }
  }
  ASSERT_TRUE(brute);
  EXPECT_EQ(smt_first, brute);

  const ItmSmtResult smt = prove_contention_free(6, Contention::kPaper, kLimits, ItmEncoding::kBrokenNonEdge);
  ASSERT_EQ(smt.status, SmtStatus::kCounterexample) << smt.reason;
  EXPECT_FALSE(Itm::build(smt.steps, Rule::kExterior).ok());
  EXPECT_TRUE(itm::check_contention_free(Graph::from_edges(6, smt.edges).value(), smt.order, Contention::kPaper));
}

TEST(ItmSmt, ProofsReachTheStandardBudget) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const int n = itm_smt_scope::deadlock_max_n(rule).standard;
    const ItmSmtResult smt = prove_deadlock_free(n, rule, SolverLimits{itm_smt_scope::kDeadlockRlimit.standard, 0});
    EXPECT_EQ(smt.status, SmtStatus::kProved) << itm::to_string(rule) << " " << smt.reason;
    EXPECT_EQ(smt.checks, n - 2);
  }
  const int n = itm_smt_scope::kContentionMaxN.standard;
  for (Contention c : {Contention::kPaper, Contention::kSharedEndpoint}) {
    const ItmSmtResult smt = prove_contention_free(n, c, SolverLimits{itm_smt_scope::kContentionRlimit.standard, 0});
    EXPECT_EQ(smt.status, SmtStatus::kProved) << reading_name(c) << " " << smt.reason;
  }
}

TEST(ItmSmt, TinyRlimitOrTimeoutIsUnknownNeverProved) {
  const ItmSmtResult deadlock = prove_deadlock_free(10, Rule::kAnyEdge, SolverLimits{1000, 0});
  EXPECT_EQ(deadlock.status, SmtStatus::kUnknown) << to_string(deadlock.status);
  const ItmSmtResult contention = prove_contention_free(10, Contention::kPaper, SolverLimits{1000, 0});
  EXPECT_EQ(contention.status, SmtStatus::kUnknown) << to_string(contention.status);
  const claims::MethodResult r = contention_free_smt_method_result(10, Contention::kPaper, ItmEncoding::kPolygon,
                                                                   SolverLimits{1000, 0});
  EXPECT_EQ(r.outcome, Outcome::kInconclusive);
  EXPECT_NE(r.detail.find("n = 10"), std::string::npos) << r.detail;
  const ItmSmtResult timed = prove_contention_free(14, Contention::kPaper, SolverLimits{0, 1});
  EXPECT_EQ(timed.status, SmtStatus::kUnknown) << to_string(timed.status);
}

// The rlimit is deterministic and bounds the whole call (all of Theorem 2's checks together).
TEST(ItmSmt, RlimitIsDeterministicAndBoundsTheWholeProof) {
  const ItmSmtResult first = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{});
  const ItmSmtResult second = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{});
  ASSERT_EQ(first.status, SmtStatus::kProved) << first.reason;
  ASSERT_GT(first.rlimit_used, 0u);
  EXPECT_EQ(first.rlimit_used, second.rlimit_used);
  const ItmSmtResult half = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{first.rlimit_used / 2, 0});
  EXPECT_EQ(half.status, SmtStatus::kUnknown) << to_string(half.status);
  const ItmSmtResult ample = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{2 * first.rlimit_used, 0});
  EXPECT_EQ(ample.status, SmtStatus::kProved) << ample.reason;
  EXPECT_EQ(ample.rlimit_used, first.rlimit_used);
}

claims::Registry minimal_registry() {
  claims::Registry registry;
  auto add = [&](std::string id, std::vector<std::string> readings) {
    claims::Claim claim;
    claim.id = std::move(id);
    for (std::string& name : readings) {
      claims::Reading reading;
      reading.name = std::move(name);
      claim.readings.push_back(std::move(reading));
    }
    registry.add(std::move(claim));
  };
  add("itm.thm2.deadlock_free", {"any-edge", "exterior"});
  add("itm.thm5.contention_free", {"any-edge", "exterior", "exterior-reversed", "exterior-undirected",
                                   "exterior-shared-endpoint"});
  return registry;
}

const claims::Reading& reading_of(const claims::Registry& registry, std::string_view id, std::string_view name) {
  const claims::Claim* claim = registry.find(id);
  TC_CHECK(claim != nullptr, "no claim");
  const claims::Reading* reading = claim->find_reading(name);
  TC_CHECK(reading != nullptr, "no reading");
  return *reading;
}

TEST(ItmSmt, AttachAddsTheSmtMethodAndProveFunctions) {
  claims::Registry registry = minimal_registry();
  attach_itm_smt(registry);
  EXPECT_TRUE(reading_of(registry, "itm.thm5.contention_free", "any-edge").methods.empty());
  for (std::string_view name : {"any-edge", "exterior"}) {
    const claims::Reading& r = reading_of(registry, "itm.thm2.deadlock_free", name);
    ASSERT_EQ(r.methods.size(), 1u);
    EXPECT_EQ(r.methods[0].first, claims::Method::kSmt);
    ASSERT_TRUE(r.prove);
    auto proved = r.prove(json{{"n", 8}}, SolverLimits{});
    ASSERT_TRUE(proved.ok()) << proved.error().message;
    EXPECT_EQ(proved->outcome, Outcome::kHolds) << proved->detail;
  }
  auto holds = reading_of(registry, "itm.thm5.contention_free", "exterior").prove(json{{"n", 9}}, SolverLimits{});
  ASSERT_TRUE(holds.ok());
  EXPECT_EQ(holds->outcome, Outcome::kHolds) << holds->detail;
  auto refuted =
      reading_of(registry, "itm.thm5.contention_free", "exterior-reversed").prove(json{{"n", 6}}, SolverLimits{});
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->outcome, Outcome::kRefuted) << refuted->detail;

  struct Recorder : claims::Progress {
    void update(std::string_view, std::string_view message) override { messages.emplace_back(message); }
    std::vector<std::string> messages;
  } recorder;
  claims::RunContext ctx;
  ctx.budget = claims::Budget::kQuick;
  ctx.progress = &recorder;
  const int quick_n = itm_smt_scope::deadlock_max_n(Rule::kAnyEdge).quick;
  const claims::MethodResult quick = reading_of(registry, "itm.thm2.deadlock_free", "any-edge").methods[0].second(ctx);
  EXPECT_EQ(quick.outcome, Outcome::kHolds) << quick.detail;
  EXPECT_EQ(quick.cases, static_cast<uint64_t>(quick_n - 2));
  EXPECT_EQ(recorder.messages.size(), static_cast<size_t>(quick_n - 2));
  EXPECT_NE(quick.scope.find(fmt::format("n = 3..{}, every AddNode sequence (any-edge)", quick_n)), std::string::npos)
      << quick.scope;

  // A refuted reading stops at its smallest n, with the n proved before it as cases.
  const claims::MethodResult reversed =
      reading_of(registry, "itm.thm5.contention_free", "exterior-reversed").methods[0].second(ctx);
  ASSERT_EQ(reversed.outcome, Outcome::kRefuted) << reversed.detail;
  EXPECT_EQ(reversed.cases, 3u);
  ASSERT_TRUE(reversed.counterexample);
  EXPECT_TRUE(reversed.counterexample->minimized);
  EXPECT_EQ(reversed.counterexample->params, (json{{"n", 6}, {"rule", "exterior"}}));
  EXPECT_NE(reversed.scope.find("n = 3..6"), std::string::npos) << reversed.scope;
}

TEST(ItmSmt, ProveRejectsBadParams) {
  claims::Registry registry = minimal_registry();
  attach_itm_smt(registry);
  for (const auto& [id, name] : {std::pair{"itm.thm2.deadlock_free", "exterior"},
                                 std::pair{"itm.thm5.contention_free", "exterior"}}) {
    const claims::Reading& reading = reading_of(registry, id, name);
    for (const json& params : {json{{"n", 2}}, json{{"n", "x"}}, json::object(), json{{"n", kItmSmtMaxNodes + 1}},
                               json{{"n", -3}}, json{{"n", 2.5}}, json::array(), json{{"n", uint64_t{1} << 63}}}) {
      auto result = reading.prove(params, SolverLimits{});
      ASSERT_FALSE(result.ok()) << params.dump();
      EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument) << params.dump();
      EXPECT_NE(result.error().message.find("params.n"), std::string::npos) << result.error().message;
    }
  }
}

// Prints the cost table of the header and README (not run by default):
//   itm_smt_test --gtest_also_run_disabled_tests --gtest_filter=*MeasureCosts
TEST(ItmSmt, DISABLED_MeasureCosts) {
  auto row = [](const std::string& what, int n, const std::function<ItmSmtResult()>& run) {
    const auto start = std::chrono::steady_clock::now();
    const ItmSmtResult r = run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{:<40} n = {:2}  {:<14} {:7.2f} s  {:6.1f} M rlimit\n", what, n, to_string(r.status), seconds,
               static_cast<double>(r.rlimit_used) / 1e6);
  };
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 4; n <= 20; n += (n < 12 ? 4 : 2))
      row("thm2 " + itm::to_string(rule), n, [&] { return prove_deadlock_free(n, rule, SolverLimits{}); });
  for (Contention c : kReadings)
    for (int n : {8, 10, 12, 13, 14, 15, 16}) {
      if (n > 8 && (c == Contention::kReversed || c == Contention::kUndirected)) continue;
      row("thm5 polygon " + reading_name(c), n, [&] { return prove_contention_free(n, c, SolverLimits{}); });
    }
  for (Contention c : {Contention::kPaper, Contention::kSharedEndpoint})
    for (int n = 6; n <= 9; ++n)
      row("thm5 steps " + reading_name(c), n,
          [&] { return prove_contention_free(n, c, SolverLimits{}, ItmEncoding::kSteps); });
}

}  // namespace
}  // namespace topocheck::smt
