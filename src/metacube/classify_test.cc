#include "metacube/classify.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "metacube/metacube_checks.h"

namespace topocheck::metacube {
namespace {

// The failing pairs counted independently: every pair the three checks of Theorem 2 reject.
uint64_t failing_pairs(const Metacube& mc, const Alg4Options& o) {
  uint64_t failing = 0;
  const uint64_t fields = uint64_t{1} << (mc.m() << mc.k());
  for (uint64_t sb = 0; sb < mc.num_nodes(); sb += fields)
    for (uint64_t tb = 0; tb < mc.num_nodes(); ++tb) {
      if (tb == sb) continue;
      const Node s = mc.node_at(sb), t = mc.node_at(tb);
      if (check_alg4(mc, s, t, o, Thm2Part::kValid) || check_alg4(mc, s, t, o, Thm2Part::kDisjoint) ||
          check_alg4(mc, s, t, o, Thm2Part::kLength))
        ++failing;
    }
  return failing;
}

TEST(ClassifyAlg4, CountsEveryFailingPairOnceAndEveryFailureInAClass) {
  for (auto [k, m] : {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}}) {
    const Metacube mc = *Metacube::make(k, m);
    const Alg4Options o = *options_for_reading("paper");
    const Classification c = classify_alg4(mc, o);
    EXPECT_EQ(c.pairs, (mc.num_nodes() >> (m << k)) * (mc.num_nodes() - 1)) << mc.name();
    EXPECT_EQ(c.failing, failing_pairs(mc, o)) << mc.name();
    uint64_t in_classes = 0;
    for (const FailureClass& f : c.classes) {
      in_classes += f.count;
      EXPECT_GT(f.count, 0u);
      // Each class's example is a pair the checks reject.
      const bool rejected = check_alg4(mc, f.s, f.t, o, Thm2Part::kValid) ||
                            check_alg4(mc, f.s, f.t, o, Thm2Part::kDisjoint) ||
                            check_alg4(mc, f.s, f.t, o, Thm2Part::kLength);
      EXPECT_TRUE(rejected) << mc.name() << " " << f.s << " " << f.t;
    }
    // A pair can fail validity or disjointness and, besides, length: at least one class per pair.
    EXPECT_GE(in_classes, c.failing) << mc.name();
  }
}

TEST(ClassifyAlg4, NamesTheRepeatOfTheSmallestValidityCounterexample) {
  // docs/findings/metacube.md: MC(1,1), s = 000, t = 010 (case 1): P_0 = 000:100:110:010:110:010
  // visits 110 twice, the second time on its way back after the hop l.
  const Metacube mc = *Metacube::make(1, 1);
  const Classification c = classify_alg4(mc, *options_for_reading("paper"));
  bool found = false;
  for (const FailureClass& f : c.classes)
    if (f.s.to_string() == "000" && f.t.to_string() == "010") {
      found = true;
      EXPECT_EQ(f.kind, "repeat");
      EXPECT_EQ(f.case_number, 1);
      EXPECT_EQ(f.path_a, 0);
      EXPECT_EQ(f.node, "110");
      EXPECT_EQ(f.role_a, "global");
    }
  EXPECT_TRUE(found);
}

TEST(ClassifyAlg4, FindsNothingWhereTheChecksFindNothing) {
  // The corrected construction holds on every pair of MC(1,2) (metacube_test), so no class.
  const Metacube mc = *Metacube::make(1, 2);
  const Classification c = classify_alg4(mc, *options_for_reading("corrected"));
  EXPECT_EQ(c.failing, 0u);
  EXPECT_TRUE(c.classes.empty());
  // Negative control: the broken construction fails, and every failure is classified.
  const Classification b = classify_alg4(mc, *options_for_reading("broken-no-exchange"));
  EXPECT_GT(b.failing, 0u);
  EXPECT_FALSE(b.classes.empty());
}

TEST(CompareAlg4, AReadingIsIdenticalToItselfAndTheCorrectionsChangeSomePaths) {
  const Metacube mc = *Metacube::make(1, 2);
  const Alg4Options paper = *options_for_reading("paper-keybit-example4");
  const Closeness same = compare_alg4(mc, paper, paper);
  EXPECT_EQ(same.pairs, 62u);
  EXPECT_EQ(same.paths, 62u * 3);
  EXPECT_EQ(same.identical_paths, same.paths);
  EXPECT_EQ(same.identical_pairs, same.pairs);
  EXPECT_EQ(same.longest_difference_min, 0);
  EXPECT_EQ(same.longest_difference_max, 0);
  // The corrected construction keeps some paths and changes others; where it changes the longest
  // path of a failing pair it is no longer (MC(1,2): the printed walks that come back are cut).
  const Closeness d = compare_alg4(mc, *options_for_reading("corrected"), paper);
  EXPECT_GT(d.identical_paths, 0u);
  EXPECT_LT(d.identical_paths, d.paths);
  EXPECT_LT(d.identical_pairs, d.pairs);
  EXPECT_LE(d.longest_difference_max, 0);
}

}  // namespace
}  // namespace topocheck::metacube
