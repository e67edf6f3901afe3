// Properties of the Incremental Triangular Mesh (paper 002) on random AddNode sequences from
// itm::gen::itm_sequence (src/itm/itm_gen.h), under both rules (readings `any-edge`, `exterior`):
//  - the generator's contract: every sequence and every shrink builds, shrinks are smaller, the
//    value and its shrinks are functions of (rc::Random, size), and the shapes it promises appear;
//  - the text form: parse_steps(to_string(steps)) gives the steps back;
//  - Theorem 2 (itm.thm2.deadlock_free) under both rules, up to kPropertyDeadlockMaxNodes = 300;
//  - Lemma 4 (itm.lemma4.counts, itm.lemma4.cycle) under `exterior`, up to 300 nodes, and
//    Theorem 5 (itm.thm5.contention_free, reading `exterior`: the paper's independence, the
//    circular order) up to kPropertyContentionMaxNodes = 40 (the check costs O(n^4));
//  - the explicit-path oracle (itm_oracle.h) agrees with the naive checkers on random ITMs of up to
//    12 nodes (the exhaustive comparison up to 9 nodes is src/itm/itm_oracle_test.cc);
//  - SHRINKING WORKS: a deliberately false property ("no ITM has a node of degree >= 5") shrinks to
//    a sequence of exactly 6 nodes, the true minimum (a node of degree 5 has 5 neighbours), and
//    the negative control "Lemma 4 holds under any-edge" shrinks to `any-edge "3:(0,1) 4:(0,1)"`,
//    its smallest counterexample; Theorem 5 with the second message reversed (a reading that
//    fails) shrinks to 6 nodes, the smallest size where it fails.
//
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick) selects the number of cases,
// claims::itm_scope::kPropertyCases.at(budget), and the sizes above from the same section of
// catalog/itm/scope.h. Seed and RC_PARAMS: see props_harness.h.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "catalog/itm/scope.h"
#include "claims/claim.h"
#include "core/checks.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/itm_gen.h"
#include "itm/itm_oracle.h"
#include "props_harness.h"

namespace topocheck::itm {
namespace {

namespace scope = claims::itm_scope;

int Cases() { return scope::kPropertyCases.at(props::BudgetFromEnvironment()); }

std::string Inputs(Rule rule, int max_nodes) {
  return fmt::format("AddNode sequences under {} with up to {} nodes", to_string(rule), max_nodes);
}

// A claim property at the budget's scope (props::CheckClaim) over the sequences of `rule`.
void CheckClaim(const std::string& id, Rule rule, int max_nodes, const std::function<Violation(const Itm&)>& check) {
  const claims::Budget budget = props::BudgetFromEnvironment();
  props::CheckClaim(id, budget, scope::kPropertyCases.at(budget), Inputs(rule, max_nodes), [rule, max_nodes, check] {
    const ItmSequence s = *gen::itm_sequence(rule, max_nodes).as("input");
    RC_CLASSIFY(s.n() <= 10, "n <= 10");
    RC_CLASSIFY(s.n() > 10 && s.n() <= max_nodes / 2, "n <= max / 2");
    RC_CLASSIFY(s.n() > max_nodes / 2, "n > max / 2");
    if (auto v = check(s.build())) RC_FAIL(*v);
  });
}

// The largest node degree of the ITM.
int MaxDegree(const Itm& itm) {
  int out = 0;
  for (int u = 0; u < itm.n(); ++u) out = std::max(out, static_cast<int>(itm.graph().neighbors(u).size()));
  return out;
}

// The largest hop distance (naive distances()).
int Diameter(const Graph& g) {
  const std::vector<int> d = distances(g);
  return *std::max_element(d.begin(), d.end());
}

// ---------------------------------------------------------------------------------------------
// The generator

// The measure every shrink lowers: (n, the steps' edges as (max, min) pairs), lexicographically.
auto Measure(const ItmSequence& s) {
  std::vector<std::pair<int, int>> edges;
  for (const Step& step : s.steps) edges.emplace_back(std::max(step.x, step.y), std::min(step.x, step.y));
  return std::tuple{s.n(), edges};
}

TEST(ItmSequenceGenerator, EverySequenceAndEveryShrinkBuildsAndShrinksAreSmaller) {
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (const int max_nodes : {3, 4, 12, 60}) {
      const auto generator = gen::itm_sequence(rule, max_nodes);
      for (uint64_t seed = 0; seed < 150; ++seed) {
        const rc::Shrinkable<ItmSequence> value = generator(rc::Random(seed), static_cast<int>(seed % 101));
        const ItmSequence s = value.value();
        ASSERT_EQ(s.rule, rule);
        ASSERT_LE(s.n(), max_nodes) << s;
        ASSERT_TRUE(Itm::build(s.steps, rule).ok()) << s;
        for (const Step& step : s.steps) ASSERT_LT(step.x, step.y) << s;
        auto shrinks = value.shrinks();
        while (auto next = shrinks.next()) {
          const ItmSequence t = next->value();
          const auto built = Itm::build(t.steps, rule);
          ASSERT_TRUE(built.ok()) << s << " -> " << t << ": " << built.error().message;
          ASSERT_LT(Measure(t), Measure(s)) << s << " -> " << t;
        }
      }
    }
}

TEST(ItmSequenceGenerator, SequencesOfThreeHundredNodesBuild) {
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (uint64_t seed = 0; seed < 8; ++seed) {
      const ItmSequence s = gen::itm_sequence(rule, scope::kPropertyDeadlockMaxNodes)(rc::Random(seed), 100).value();
      const auto built = Itm::build(s.steps, rule);
      ASSERT_TRUE(built.ok()) << built.error().message;
      EXPECT_EQ(built->n(), s.n());
      EXPECT_EQ(built->graph().num_edges(), 2 * s.n() - 3);
    }
}

TEST(ItmSequenceGenerator, IsDeterministicGivenTheRandomAndSize) {
  props::ExpectDeterministic(gen::itm_sequence(Rule::kAnyEdge, scope::kPropertyDeadlockMaxNodes));
  props::ExpectDeterministic(gen::itm_sequence(Rule::kExterior, scope::kPropertyDeadlockMaxNodes));
}

TEST(ItmSequenceGenerator, PrintsAsTheRuleAndTheStepsTextForm) {
  std::ostringstream out;
  rc::show(ItmSequence{Rule::kExterior, *parse_steps("3:(0,1) 4:(1,3)")}, out);
  EXPECT_EQ(out.str(), "exterior \"3:(0,1) 4:(1,3)\"");
}

TEST(ItmSequenceGenerator, ReachesTheLargestSizeAndLargeDiameters) {
  // A fixed sample (seeds 0..399, sizes seed % 100, as the `random` method's schedule), so this is
  // deterministic; thresholds well below the designed shares.
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const auto generator = gen::itm_sequence(rule, 100);
    int kernel = 0, at_max = 0, long_ones = 0, large = 0;  // at_max: n >= 90
    for (uint64_t seed = 0; seed < 400; ++seed) {
      const int size = static_cast<int>(seed % 100);
      const ItmSequence s = generator(rc::Random(seed), size).value();
      kernel += s.n() == 3;
      at_max += s.n() >= 90;
      if (s.n() >= 40) {
        ++large;
        long_ones += Diameter(s.build().graph()) >= s.n() / 4;  // strips: the local shape
      }
    }
    EXPECT_GT(kernel, 0) << to_string(rule);
    EXPECT_GT(at_max, 4) << to_string(rule);  // designed: about 1 in 4 of sizes 90..99 (40 seeds)
    EXPECT_GT(long_ones, large / 10) << to_string(rule) << ": " << long_ones << " of " << large;
  }
}

RC_GTEST_PROP(ItmText, ParseOfToStringIsTheIdentity, (const ItmSequence& s)) {
  const auto parsed = parse_steps(to_string(s.steps));
  if (!parsed.ok()) RC_FAIL(parsed.error().message);
  RC_ASSERT(*parsed == s.steps);
}

// ---------------------------------------------------------------------------------------------
// The claims

TEST(ItmTheorem2, ShortestPathRoutingIsDeadlockFreeAnyEdge) {
  CheckClaim("itm.thm2.deadlock_free[any-edge]", Rule::kAnyEdge, scope::kPropertyDeadlockMaxNodes,
             [](const Itm& itm) { return check_deadlock_free(itm.graph()); });
}
TEST(ItmTheorem2, ShortestPathRoutingIsDeadlockFreeExterior) {
  CheckClaim("itm.thm2.deadlock_free[exterior]", Rule::kExterior, scope::kPropertyDeadlockMaxNodes,
             [](const Itm& itm) { return check_deadlock_free(itm.graph()); });
}

TEST(ItmLemma4, CountsOfExteriorAndInteriorEdgesAndFacetsExterior) {
  CheckClaim("itm.lemma4.counts[exterior]", Rule::kExterior, scope::kPropertyDeadlockMaxNodes,
             [](const Itm& itm) { return check_lemma4_counts(itm); });
}
TEST(ItmLemma4, ExteriorEdgesFormOneCycleThroughEveryNodeExterior) {
  CheckClaim("itm.lemma4.cycle[exterior]", Rule::kExterior, scope::kPropertyDeadlockMaxNodes,
             [](const Itm& itm) { return check_lemma4_cycle(itm); });
}

TEST(ItmTheorem5, IndependentMessagesShareNoDirectedEdgeInTheCircularOrderExterior) {
  CheckClaim("itm.thm5.contention_free[exterior]", Rule::kExterior, scope::kPropertyContentionMaxNodes,
             [](const Itm& itm) -> Violation {
               auto order = circular_order(itm);
               if (!order.ok()) return "no circular order: " + order.error().message;
               return check_contention_free(itm.graph(), *order, Contention::kPaper);
             });
}

// The oracle against the naive checkers beyond the exhaustive test's 9 nodes: the dependency
// sets, the deadlock verdicts and, in the circular order (when there is one), the first violating
// pair of messages of every reading.
void CheckOracleAgrees(Rule rule) {
  const std::string id = "itm.oracle.agrees[" + to_string(rule) + "]";
  const props::PropertyOutcome outcome = props::RunProperty(id, Cases(), [rule] {
    const ItmSequence s = *gen::itm_sequence(rule, scope::kPropertyOracleMaxNodes).as("input");
    const Itm itm = s.build();
    const Graph& g = itm.graph();
    const ShortestPathLists lists(g);
    const Channels channels = channels_of(g);
    std::set<std::array<int, 3>> naive;
    for (const auto& [first, second] : shortest_path_dependencies(g, channels))
      naive.insert({channels.ends[first].first, channels.ends[first].second, channels.ends[second].second});
    RC_ASSERT(naive == oracle_dependencies(lists));
    RC_ASSERT(check_deadlock_free(g).has_value() == oracle_deadlock_violation(lists).has_value());
    const auto order = circular_order(itm);
    if (!order.ok()) return;
    for (const Contention c :
         {Contention::kPaper, Contention::kReversed, Contention::kUndirected, Contention::kSharedEndpoint}) {
      ContentionWitness witness;
      const Violation v = check_contention_free(g, *order, c, &witness);
      const auto conflict = oracle_contention(lists, *order, c);
      RC_ASSERT(v.has_value() == conflict.has_value());
      if (!v) continue;
      RC_TAG(to_string(c) + " violated");
      RC_ASSERT(witness.first.front() == conflict->w);
      RC_ASSERT(witness.first.back() == conflict->x);
      RC_ASSERT(witness.second.front() == conflict->second_from);
      RC_ASSERT(witness.second.back() == conflict->second_to);
    }
  });
  EXPECT_TRUE(outcome.succeeded) << outcome.message;
}

TEST(ItmOracle, AgreesWithTheNaiveCheckersOnRandomItmsAnyEdge) { CheckOracleAgrees(Rule::kAnyEdge); }
TEST(ItmOracle, AgreesWithTheNaiveCheckersOnRandomItmsExterior) { CheckOracleAgrees(Rule::kExterior); }

// ---------------------------------------------------------------------------------------------
// Shrinking, shown on properties EXPECTED TO FAIL.

using Falsification = props::Falsification<ItmSequence>;

Violation DegreeBelowFive(const ItmSequence& s) {
  const int degree = MaxDegree(s.build());
  if (degree < 5) return std::nullopt;
  return fmt::format("a node of degree {}", degree);
}

// Every shrink candidate of `s` passes `violation`: `s` is a local minimum of the shrinking.
void ExpectLocalMinimum(const ItmSequence& s, const std::function<Violation(const ItmSequence&)>& violation) {
  const rc::Shrinkable<ItmSequence> value =
      rc::shrinkable::shrinkRecur(ItmSequence(s), &gen::itm_sequence_shrinks);
  auto shrinks = value.shrinks();
  while (auto next = shrinks.next()) EXPECT_FALSE(violation(next->value())) << s << " -> " << next->value();
}

// Why 6 is the minimum: a node of degree >= 5 has 5 distinct neighbours, so n >= 6; and 6 nodes
// suffice under both rules (any-edge: three nodes on (0,1); exterior: the fan 3:(0,1) 4:(0,3)
// 5:(0,4) around node 0).
// Where shrinking ends (measured from 400 seeds at sizes 0..100, every one that fails): under
// any-edge always at the three nodes on (0,1); under exterior at one of two fans around node 0,
// each a local minimum (lowering step 4's edge to (0,2) in the second would use up step 5's edge).
const std::set<std::string> kDegreeFiveEnds[2] = {{"3:(0,1) 4:(0,1) 5:(0,1)"},
                                                  {"3:(0,1) 4:(0,2) 5:(0,3)", "3:(0,1) 4:(0,3) 5:(0,2)"}};
const std::set<std::string>& DegreeFiveEnds(Rule rule) { return kDegreeFiveEnds[rule == Rule::kAnyEdge ? 0 : 1]; }

TEST(ItmShrinking, DegreeAtLeastFiveShrinksToSixNodes) {
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const std::string id = "itm.shrink_demo.max_degree_below_5[" + to_string(rule) + "]";
    props::PrintScope(id, props::BudgetFromEnvironment(), Cases(), Inputs(rule, scope::kPropertyDeadlockMaxNodes));
    const Falsification f =
        props::Falsify<ItmSequence>(id, Cases(), gen::itm_sequence(rule, scope::kPropertyDeadlockMaxNodes),
                                    DegreeBelowFive);
    ASSERT_TRUE(f.falsified) << f.message;
    ASSERT_TRUE(f.smallest.has_value()) << f.message;
    std::cout << id << " falsified as expected, shrunk to " << *f.smallest << ": " << f.violation << std::endl;
    EXPECT_EQ(f.smallest->n(), 6) << f.message;
    EXPECT_EQ(MaxDegree(f.smallest->build()), 5) << f.message;
    EXPECT_EQ(DegreeFiveEnds(rule).count(to_string(f.smallest->steps)), 1u) << f.message;
    ExpectLocalMinimum(*f.smallest, DegreeBelowFive);
  }
  // The two sequences of the comment above are the witnesses that 6 nodes suffice.
  EXPECT_TRUE(DegreeBelowFive(ItmSequence{Rule::kAnyEdge, *parse_steps("3:(0,1) 4:(0,1) 5:(0,1)")}));
  EXPECT_TRUE(DegreeBelowFive(ItmSequence{Rule::kExterior, *parse_steps("3:(0,1) 4:(0,3) 5:(0,4)")}));
}

// Greedy shrinking from many starting points (seeds 0..29 at size 100: up to 300 nodes),
// taking the first failing candidate each time, as RapidCheck does: it never stops above 6 nodes.
TEST(ItmShrinking, DegreeAtLeastFiveShrinksToSixNodesFromEverySeed) {
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    std::set<std::string> ends;
    for (uint64_t seed = 0; seed < 30; ++seed) {
      rc::Shrinkable<ItmSequence> value =
          gen::itm_sequence(rule, scope::kPropertyDeadlockMaxNodes)(rc::Random(seed), 100);
      if (!DegreeBelowFive(value.value())) continue;
      for (bool moved = true; moved;) {
        moved = false;
        auto shrinks = value.shrinks();
        while (auto next = shrinks.next())
          if (DegreeBelowFive(next->value())) {
            value = *next;
            moved = true;
            break;
          }
      }
      EXPECT_EQ(value.value().n(), 6) << "seed " << seed << ": " << value.value();
      EXPECT_EQ(DegreeFiveEnds(rule).count(to_string(value.value().steps)), 1u)
          << "seed " << seed << ": " << value.value();
      ends.insert(to_string(value.value().steps));
    }
    std::cout << to_string(rule) << ": degree >= 5 shrinks to";
    for (const std::string& e : ends) std::cout << " \"" << e << "\"";
    std::cout << std::endl;
  }
}

// The negative control: Lemma 4 is about the exterior rule; under any-edge a node added at an
// interior edge breaks it. The smallest such ITM adds node 4 at (0,1) after node 3 made it interior
// (with 4 nodes every edge used is still exterior), and shrinking finds exactly that one.
TEST(ItmShrinking, LemmaFourUnderAnyEdgeShrinksToTheDoubleEar) {
  const std::string id = "itm.lemma4.cycle[any-edge]";
  props::PrintScope(id, props::BudgetFromEnvironment(), Cases(),
                    Inputs(Rule::kAnyEdge, scope::kPropertyDeadlockMaxNodes));
  const Falsification f =
      props::Falsify<ItmSequence>(id, Cases(), gen::itm_sequence(Rule::kAnyEdge, scope::kPropertyDeadlockMaxNodes),
                                  [](const ItmSequence& s) { return check_lemma4_cycle(s.build()); });
  ASSERT_TRUE(f.falsified) << f.message;
  ASSERT_TRUE(f.smallest.has_value()) << f.message;
  std::cout << id << " falsified as expected, shrunk to " << *f.smallest << ": " << f.violation << std::endl;
  EXPECT_EQ(*f.smallest, (ItmSequence{Rule::kAnyEdge, *parse_steps("3:(0,1) 4:(0,1)")})) << f.message;
}

// A reading that fails: with the second message reversed (w->x and z->y), Theorem 5 is false.
// src/itm/itm_oracle_test.cc measures every labelled exterior ITM: none of 5 nodes or fewer fails,
// 24 of the 60 with 6 nodes do; shrinking reaches 6 nodes.
TEST(ItmShrinking, TheoremFiveReversedShrinksToSixNodes) {
  const std::string id = "itm.thm5.contention_free[exterior-reversed]";
  props::PrintScope(id, props::BudgetFromEnvironment(), Cases(),
                    Inputs(Rule::kExterior, scope::kPropertyContentionMaxNodes));
  const Falsification f = props::Falsify<ItmSequence>(
      id, Cases(), gen::itm_sequence(Rule::kExterior, scope::kPropertyContentionMaxNodes),
      [](const ItmSequence& s) -> Violation {
        const Itm itm = s.build();
        return check_contention_free(itm.graph(), *circular_order(itm), Contention::kReversed);
      });
  ASSERT_TRUE(f.falsified) << f.message;
  ASSERT_TRUE(f.smallest.has_value()) << f.message;
  std::cout << id << " falsified as expected, shrunk to " << *f.smallest << ": " << f.violation << std::endl;
  EXPECT_EQ(f.smallest->n(), 6) << f.message;
}

}  // namespace
}  // namespace topocheck::itm
