// Properties of the hypercube claims (papers/003, Section 3, Algorithms 2/3; e-cube routing),
// one per claim and named as the claim: hypercube.alg2.disjoint, hypercube.alg2.lengths,
// hypercube.ecube.shortest; a metamorphic relation (XOR translation by any a is an automorphism
// of Q_n and maps the paths of (x, y) to the paths of (x^a, y^a) node by node); NEGATIVE
// CONTROLS (the deliberately broken p3 schedules must be falsified, and shrunk to their smallest
// counterexamples); and the contract of the cube_pair generator that the `random` verify method
// relies on.
//
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick) selects the number of cases,
// claims::hypercube_scope::kRandomCases.at(budget), and n = 1..kRandomMaxN, the same scope as
// `topocheck verify --budget ...` uses for the `random` method.
//
// Seed and RC_PARAMS: see props_harness.h.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "claims/claim.h"
#include "catalog/hypercube/scope.h"
#include "core/checks.h"
#include "core/core_gen.h"
#include "core/node.h"
#include "core/path.h"
#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"
#include "hypercube/hypercube_gen.h"
#include "props_harness.h"

namespace topocheck::hypercube {
namespace {

namespace scope = claims::hypercube_scope;

struct RandomScope {
  claims::Budget budget;
  int cases;
  int max_n;
};

RandomScope ScopeFromEnvironment() {
  const claims::Budget budget = props::BudgetFromEnvironment();
  return {budget, scope::kRandomCases.at(budget), scope::kRandomMaxN};
}

// A claim property at the budget's scope (props::CheckClaim).
template <class Testable>
void CheckClaim(const std::string& claim_id, Testable&& property) {
  const RandomScope s = ScopeFromEnvironment();
  props::CheckClaim(claim_id, s.budget, s.cases, "n = 1.." + std::to_string(s.max_n),
                    std::forward<Testable>(property));
}

Hypercube Cube(int n) { return Hypercube::make(n).value(); }

// The distance class of a case, to show in the distribution that the generator covers them.
const char* DistanceTag(const CubePair& c) {
  const int d = hamming(c.x, c.y);
  if (d == 0) return "d = 0";
  if (d == c.n) return "d = n";
  if (d <= 3) return "1 <= d <= 3 < n";
  return "3 < d < n";
}

// ---------------------------------------------------------------------------------------------
// The claims

TEST(HypercubeClaims, Alg2Disjoint) {
  const int max_n = ScopeFromEnvironment().max_n;
  CheckClaim("hypercube.alg2.disjoint", [max_n] {
    const CubePair c = *gen::cube_pair(max_n).as("input");
    RC_TAG(DistanceTag(c));
    if (auto v = check_alg2_disjoint(Cube(c.n), c.x, c.y)) RC_FAIL(*v);
  });
}

TEST(HypercubeClaims, Alg2Lengths) {
  const int max_n = ScopeFromEnvironment().max_n;
  CheckClaim("hypercube.alg2.lengths", [max_n] {
    const CubePair c = *gen::cube_pair(max_n).as("input");
    if (auto v = check_alg2_lengths(Cube(c.n), c.x, c.y)) RC_FAIL(*v);
  });
}

TEST(HypercubeClaims, EcubeShortest) {
  const int max_n = ScopeFromEnvironment().max_n;
  CheckClaim("hypercube.ecube.shortest", [max_n] {
    const CubePair c = *gen::cube_pair(max_n).as("input");
    if (auto v = check_ecube_shortest(Cube(c.n), c.x, c.y)) RC_FAIL(*v);
  });
}

// ---------------------------------------------------------------------------------------------
// Metamorphic relations: u -> u XOR a is an automorphism of Q_n. Algorithm 3 depends on x and y
// only through u = x XOR y and the path index, and e-cube routing only through the differing
// bits, so translating the input translates every path node by node.

Path Translated(const Path& path, Node a) {
  Path out;
  for (const Node& u : path.nodes) out.nodes.push_back(Node{u.bits ^ a.bits, u.width});
  return out;
}

TEST(HypercubeMetamorphic, Alg2PathsCommuteWithXorTranslation) {
  const int max_n = ScopeFromEnvironment().max_n;
  CheckClaim("hypercube.alg2.xor_translation", [max_n] {
    const CubePair c = *gen::cube_pair(max_n).as("input");
    const Node a = *topocheck::gen::node(c.n).as("translation a");
    const Node xa{c.x.bits ^ a.bits, c.n}, ya{c.y.bits ^ a.bits, c.n};
    const std::vector<Path> paths = cube_disjoint_paths(c.n, c.x, c.y);
    const std::vector<Path> moved = cube_disjoint_paths(c.n, xa, ya);
    std::vector<Path> expected;
    for (const Path& p : paths) expected.push_back(Translated(p, a));
    RC_ASSERT(moved == expected);
  });
}

TEST(HypercubeMetamorphic, EcubeRouteCommutesWithXorTranslation) {
  const int max_n = ScopeFromEnvironment().max_n;
  CheckClaim("hypercube.ecube.xor_translation", [max_n] {
    const CubePair c = *gen::cube_pair(max_n).as("input");
    const Node a = *topocheck::gen::node(c.n).as("translation a");
    const Node xa{c.x.bits ^ a.bits, c.n}, ya{c.y.bits ^ a.bits, c.n};
    RC_ASSERT(ecube_route(xa, ya) == Translated(ecube_route(c.x, c.y), a));
  });
}

// ---------------------------------------------------------------------------------------------
// Negative controls: the same property with a deliberately broken p3 schedule must be falsified
// within the same budget, and shrinking must bring the counterexample down to the smallest one.

using Falsification = props::Falsification<CubePair>;

Falsification FalsifyAlg2Disjoint(P3Variant variant) {
  const RandomScope s = ScopeFromEnvironment();
  const Falsification out = props::Falsify<CubePair>(
      "hypercube.alg2.disjoint[" + to_string(variant) + "]", s.cases, gen::cube_pair(s.max_n),
      [variant](const CubePair& c) { return check_alg2_disjoint(Cube(c.n), c.x, c.y, variant); });
  if (out.smallest)
    std::cout << "negative control " << to_string(variant) << " falsified as expected: "
              << *out.smallest << ": " << out.violation << std::endl;
  return out;
}

// Deliberate twin of props/hypercube_props.cc:BrokenMissingFlipIsFalsifiedAndShrunkToQOne: each broken
// variant states its own smallest failure and violation.
TEST(HypercubeNegativeControls, BrokenAscendingOrderIsFalsifiedAndShrunkToQTwo) {
  const Falsification f = FalsifyAlg2Disjoint(P3Variant::kBrokenAscendingOrder);
  ASSERT_TRUE(f.falsified) << f.message;
  ASSERT_TRUE(f.smallest.has_value());
  // The smallest failure: n = 2, x = 00, y = 10, where P_0 = 00:01:00:10 turns back to x.
  EXPECT_EQ(*f.smallest, (CubePair{2, Node{0b00, 2}, Node{0b10, 2}})) << f.message;
  EXPECT_EQ(f.violation, "path 0: node 00 occurs twice, at positions 0 and 2");
}

// Deliberate twin of props/hypercube_props.cc:BrokenAscendingOrderIsFalsifiedAndShrunkToQTwo: each broken
// variant states its own smallest failure and violation.
TEST(HypercubeNegativeControls, BrokenMissingFlipIsFalsifiedAndShrunkToQOne) {
  const Falsification f = FalsifyAlg2Disjoint(P3Variant::kBrokenMissingFlip);
  ASSERT_TRUE(f.falsified) << f.message;
  ASSERT_TRUE(f.smallest.has_value());
  // The smallest failure: n = 1, x = y = 0, where P_0 = 0:1 never comes back.
  EXPECT_EQ(*f.smallest, (CubePair{1, Node{0, 1}, Node{0, 1}})) << f.message;
  EXPECT_EQ(f.violation, "path 0: the path ends at 1, not at 0");
}

// ---------------------------------------------------------------------------------------------
// The cube_pair generator (also driven by hand by the `random` verify method).

TEST(CubePairGenerator, PrintsAsTheClaimsInput) {
  std::ostringstream out;
  rc::show(CubePair{3, Node{0b000, 3}, Node{0b011, 3}}, out);
  EXPECT_EQ(out.str(), "n=3 x=000 y=011");
}

TEST(CubePairGenerator, IsDeterministicGivenTheRandomAndSize) {
  props::ExpectDeterministic(gen::cube_pair(scope::kRandomMaxN));
}

// |x| + |y| and whether x != 0: with n, the measure every shrink lowers.
bool Smaller(const CubePair& a, const CubePair& b) {
  const auto key = [](const CubePair& c) {
    return std::tuple{c.n, hamming(c.x, Node{0, c.n}) + hamming(c.y, Node{0, c.n}), c.x.bits != 0};
  };
  return key(a) < key(b);
}

bool WellFormed(const CubePair& c, int max_n) {
  const uint64_t mask = topocheck::gen::bits::low_mask(c.n);
  return c.n >= 1 && c.n <= max_n && c.x.width == c.n && c.y.width == c.n &&
         (c.x.bits & ~mask) == 0 && (c.y.bits & ~mask) == 0;
}

TEST(CubePairGenerator, ValuesAndEveryShrinkAreWellFormedAndShrinksAreSmaller) {
  const auto generator = gen::cube_pair(scope::kRandomMaxN);
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const rc::Shrinkable<CubePair> value = generator(rc::Random(seed), static_cast<int>(seed % 101));
    const CubePair c = value.value();
    ASSERT_TRUE(WellFormed(c, scope::kRandomMaxN)) << c;
    auto shrinks = value.shrinks();
    while (auto next = shrinks.next()) {
      ASSERT_TRUE(WellFormed(next->value(), scope::kRandomMaxN)) << c << " -> " << next->value();
      ASSERT_TRUE(Smaller(next->value(), c)) << c << " -> " << next->value();
    }
  }
}

TEST(CubePairGenerator, ShrinksToTheSmallestCubeWhenEveryCaseFails) {
  rc::Shrinkable<CubePair> value = gen::cube_pair(40)(rc::Random(5), 100);
  while (auto next = value.shrinks().next()) value = *next;
  EXPECT_EQ(value.value(), (CubePair{1, Node{0, 1}, Node{0, 1}}));
}

TEST(CubePairGenerator, RemovingADimensionKeepsTheOtherBitsInOrder) {
  // x = 1011 without dimension 1 is 101; without dimension 3 (truncation) is 011.
  EXPECT_EQ(topocheck::gen::bits::remove_dimension(0b1011, 1), 0b101u);
  EXPECT_EQ(topocheck::gen::bits::remove_dimension(0b1011, 3), 0b011u);
  EXPECT_EQ(topocheck::gen::bits::remove_dimension(0b1011, 0), 0b101u);
}

TEST(CubePairGenerator, CoversEqualPairsSmallDistancesAndTheWholeRangeOfN) {
  // A fixed sample (seeds 0..1999, the `random` method's size schedule k % 100), so this test is
  // deterministic; the thresholds are well below the designed shares.
  const auto generator = gen::cube_pair(scope::kRandomMaxN);
  int equal = 0, small_distance = 0, complement = 0, small_n = 0, n_max = 0;
  const int total = 2000;
  for (int k = 0; k < total; ++k) {
    const CubePair c = generator(rc::Random(static_cast<uint64_t>(k)), k % 100).value();
    const int d = hamming(c.x, c.y);
    equal += d == 0;
    small_distance += d >= 1 && d <= 3;
    complement += d == c.n && c.n > 3;
    small_n += c.n <= 6;
    n_max += c.n == scope::kRandomMaxN;
  }
  EXPECT_GT(equal, total / 6);           // designed: 1/4
  EXPECT_GT(small_distance, total / 4);  // designed: at least 3/8
  EXPECT_GT(complement, total / 50);     // designed: about 1/16
  EXPECT_GT(small_n, total / 4);         // designed: at least 1/4
  EXPECT_GT(n_max, total / 10);          // designed: about 1/8 (n = limit = max_n, sizes >= 50)
}

}  // namespace
}  // namespace topocheck::hypercube
