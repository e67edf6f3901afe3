#include "aapc/partition.h"

#include <algorithm>
#include <bit>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace topocheck::aapc {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Sets = std::vector<std::vector<NodeId>>;

constexpr DimSet kDims02 = 0b0101;  // Example 1's dividing dimensions, 0-th and 2-nd

TEST(AapcPartition, ExampleOnePartnerSetsAreAsPrinted) {
  EXPECT_EQ(partner_sets(4, kDims02), (Sets{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}}));
  // The subcubes (the bits of D fixed) are the other four Q_2s.
  EXPECT_EQ(subcubes(4, kDims02), (Sets{{0, 2, 8, 10}, {1, 3, 9, 11}, {4, 6, 12, 14}, {5, 7, 13, 15}}));
  EXPECT_EQ(ps_of(13, kDims02), 8u);
  EXPECT_EQ(subcube_of(13, kDims02), 5u);
  EXPECT_THAT(ps_members(4, 10, kDims02), ElementsAre(10, 11, 14, 15));
}

TEST(AapcPartition, ExampleOneNodesZeroAndEightCorrespondAlongDimensionThree) {
  EXPECT_EQ(corresponding_node(0, 3), 8u);
  const Sets halves = subcubes(4, 0b1000);
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(halves[0].size(), 8u);  // two Q_3s
  EXPECT_TRUE(std::ranges::find(halves[0], 0u) != halves[0].end());
  EXPECT_TRUE(std::ranges::find(halves[1], 8u) != halves[1].end());
}

TEST(AapcPartition, CountsAreTwoToTheKSubcubesAndTwoToTheNMinusKPartnerSets) {
  for (int n = 1; n <= 8; ++n)
    for (DimSet dims = 0; dims < (DimSet{1} << n); ++dims) {
      const int k = num_dims(dims);
      const Sets ps = partner_sets(n, dims), sc = subcubes(n, dims);
      ASSERT_EQ(ps.size(), size_t{1} << (n - k));
      ASSERT_EQ(sc.size(), size_t{1} << k);
      std::set<NodeId> seen;
      for (const auto& p : ps) {
        ASSERT_EQ(p.size(), size_t{1} << k);
        ASSERT_TRUE(std::ranges::is_sorted(p));
        for (NodeId x : p) {
          ASSERT_EQ(ps_of(x, dims), p.front());
          seen.insert(x);
        }
      }
      ASSERT_EQ(seen.size(), size_t{1} << n);  // a partition of the nodes
      for (const auto& s : sc) {
        ASSERT_EQ(s.size(), size_t{1} << (n - k));
        for (NodeId x : s) ASSERT_EQ(subcube_of(x, dims), s.front());
      }
      // Every PS meets every subcube in exactly one node.
      for (const auto& p : ps)
        for (const auto& s : sc) {
          int common = 0;
          for (NodeId x : p) common += std::ranges::count(s, x) > 0;
          ASSERT_EQ(common, 1);
        }
    }
}

TEST(AapcPartition, DimensionTextRoundTripsAndErrorsNameTheField) {
  EXPECT_EQ(dims_to_string(kDims02), "{0,2}");
  EXPECT_EQ(dims_to_list(kDims02), "0,2");
  EXPECT_EQ(dims_to_string(0), "{}");
  EXPECT_EQ(parse_dims(4, "0,2", "input.D").value(), kDims02);
  EXPECT_EQ(parse_dims(4, "{0,2}", "input.D").value(), kDims02);
  EXPECT_EQ(parse_dims(4, "", "input.D").value(), 0u);
  EXPECT_EQ(parse_dims(4, "{}", "input.D").value(), 0u);  // the empty set as dims_to_string prints it
  EXPECT_EQ(parse_dims(4, dims_to_string(0), "input.D").value(), 0u);
  EXPECT_EQ(dims_to_list(DimSet{1} << 31), "31");  // the highest dimension a DimSet holds
  // Braces are stripped only as a pair: "1}" and "{1" are malformed, not "".
  for (const char* bad : {"0,4", "0,0", "x", "0,", "-1", "1}", "{1"}) {
    auto r = parse_dims(4, bad, "input.D");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("input.D"), std::string::npos) << r.error().message;
  }
  EXPECT_THAT(dim_sets_of_size(4, 2), ElementsAre(0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100));
  EXPECT_THAT(dim_sets_of_size(3, 4), IsEmpty());
}

TEST(AapcPartition, FaultyAndPerfectPartnerSets) {
  const FaultSet faults(4, {6, 9});
  EXPECT_THAT(faulty_pss(faults, kDims02), ElementsAre(2, 8));
  EXPECT_TRUE(is_perfect_ps(faults, 0, kDims02));
  EXPECT_FALSE(is_perfect_ps(faults, 2, kDims02));
  EXPECT_EQ(adjacent_ps(2, 1, kDims02), 0u);
  EXPECT_EQ(adjacent_ps(2, 3, kDims02), 10u);
  // PS 2's neighbours: 0 (across 1) and 10 (across 3), both perfect; PS 8's: 10 and 0.
  EXPECT_EQ(perfect_neighbour_dims(faults, 2, kDims02), 0b1010u);
  EXPECT_EQ(common_perfect_dims(faults, kDims02), 0b1010u);
  EXPECT_TRUE(at_most_one_fault_per_ps(faults, kDims02));
  auto partners = distinct_perfect_partners(faults, kDims02);
  ASSERT_TRUE(partners.has_value());
  ASSERT_EQ(partners->size(), 2u);
  EXPECT_NE((*partners)[0], (*partners)[1]);
}

// Negative control for "every PS holds at most one faulty node": faults 0 and 5 agree outside
// {0, 2}, so they share PS 0.
TEST(AapcPartition, TwoFaultsInOnePartnerSetAreRejected) {
  const FaultSet faults(4, {0, 5});
  auto pair = shared_ps_pair(faults, kDims02);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(*pair, (std::pair<NodeId, NodeId>{0, 5}));
  EXPECT_FALSE(at_most_one_fault_per_ps(faults, kDims02));
  EXPECT_TRUE(at_most_one_fault_per_ps(faults, 0b0011));  // 0 ^ 5 = 0b0101 is not inside {0,1}
}

// Negative control for the perfect-neighbour checks: in Q_3 with faults {0, 2, 4} and D = {0},
// PS 0 = {0,1} has the neighbours PS 2 and PS 4, both faulty.
TEST(AapcPartition, FaultyPartnerSetWithoutAPerfectNeighbourIsSeen) {
  const FaultSet faults(3, {0, 2, 4});
  EXPECT_EQ(perfect_neighbour_dims(faults, 0, 0b001), 0u);
  EXPECT_EQ(common_perfect_dims(faults, 0b001), 0u);
  EXPECT_FALSE(distinct_perfect_partners(faults, 0b001).has_value());
}

// Negative control for the matching: every faulty PS has a perfect neighbour, yet no choice of
// pairwise distinct ones exists. Q_3 with D = {} (each PS one node) and faults {0, 1, 2, 5, 6}: the
// perfect neighbours are 1: {3}, 2: {3}, 0: {4}, 5: {4, 7}, 6: {4, 7} (Hall's condition fails
// for {1, 2}).
TEST(AapcPartition, DistinctPerfectPartnersNeedHallsCondition) {
  const FaultSet faults(3, {0, 1, 2, 5, 6});
  for (NodeId x : faults.faulty()) EXPECT_NE(perfect_neighbour_dims(faults, x, 0), 0u) << x;
  EXPECT_EQ(perfect_neighbour_dims(faults, 1, 0), 0b010u);
  EXPECT_EQ(perfect_neighbour_dims(faults, 2, 0), 0b001u);
  EXPECT_FALSE(distinct_perfect_partners(faults, 0).has_value());
  // Without 1 a matching exists again: 0 -> 1, 2 -> 3, 5 -> 4, 6 -> 7 (or another one).
  EXPECT_TRUE(distinct_perfect_partners(FaultSet(3, {0, 2, 5, 6}), 0).has_value());
  // Faults 1 and 2 alone: perfect neighbours {0, 3, 5} and {0, 3, 6} -> matched.
  auto two = distinct_perfect_partners(FaultSet(3, {1, 2}), 0);
  ASSERT_TRUE(two.has_value());
  EXPECT_NE((*two)[0], (*two)[1]);
}

TEST(AapcPartition, SeparatingDimensionsOfPropertyTwo) {
  EXPECT_EQ(separating_dimensions(FaultSet(4, {6, 9})), 0b1111u);
  // Negative control: in Q_2 with faults {0, 1}, dimension 0 joins two faults.
  EXPECT_EQ(separating_dimensions(FaultSet(2, {0, 1})), 0b10u);
  // f = n + 1: the star {0, 1, 2} of Q_2 leaves no dimension.
  EXPECT_EQ(separating_dimensions(FaultSet(2, {0, 1, 2})), 0u);
}

TEST(AapcPartition, ExampleTwoPartitionIsAnAfPartition) {
  const FaultSet faults(4, {6, 9});
  // Example 2: Q_4 divided along 0 and 2; the Q_3s {0..7} and {8..15} take d = 1.
  EXPECT_EQ(check_af_partition(faults, AfPartition{kDims02, 1}), std::nullopt);
  EXPECT_EQ(check_af_partition(faults, AfPartition{kDims02, 3}), std::nullopt);
  EXPECT_EQ(af_subcubes(4, AfPartition{kDims02, 1}),
            (Sets{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}));
  EXPECT_EQ(af_subcubes(4, AfPartition{kDims02, 3}),
            (Sets{{0, 1, 4, 5, 8, 9, 12, 13}, {2, 3, 6, 7, 10, 11, 14, 15}}));
  const auto all = all_af_partitions(faults);
  EXPECT_NE(std::ranges::find(all, AfPartition{kDims02, 1}), all.end());
  EXPECT_NE(std::ranges::find(all, AfPartition{kDims02, 3}), all.end());
  // The search returns the smallest mask: D = {0, 1}, d = 2.
  auto found = find_af_partition(faults);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, (AfPartition{0b0011, 2}));
  EXPECT_EQ(all.front(), *found);
  EXPECT_EQ(to_string(*found), "D = {0,1}, d = 2");
  // Every partition found passes the check and has f faulty Q_{f+1}s with one fault each.
  for (const AfPartition& p : all) {
    EXPECT_EQ(check_af_partition(faults, p), std::nullopt) << to_string(p);
    int faulty_cubes = 0;
    for (const auto& cube : af_subcubes(4, p)) {
      const auto in = std::ranges::count_if(cube, [&](NodeId x) { return faults.is_faulty(x); });
      EXPECT_LE(in, 1) << to_string(p);
      faulty_cubes += in > 0;
    }
    EXPECT_EQ(faulty_cubes, 2) << to_string(p);
  }
}

// Negative controls for check_af_partition: each way to fail is reported in words.
TEST(AapcPartition, InvalidAfPartitionsAreRejected) {
  const FaultSet faults(4, {6, 9});
  EXPECT_NE(check_af_partition(faults, AfPartition{0b0001, 1}), std::nullopt);  // |D| = 1 != f
  EXPECT_NE(check_af_partition(faults, AfPartition{kDims02, 2}), std::nullopt);  // d in D
  EXPECT_NE(check_af_partition(faults, AfPartition{kDims02, 4}), std::nullopt);  // d out of range
  // A dimension of D outside the cube, named with the cube's range.
  auto outside = check_af_partition(faults, AfPartition{0b10001, 1});
  ASSERT_TRUE(outside.has_value());
  EXPECT_NE(outside->find("is not inside 0..3"), std::string::npos) << *outside;
  // Faults 0 and 5 share PS 0 of {0, 2}.
  auto shared = check_af_partition(FaultSet(4, {0, 5}), AfPartition{kDims02, 1});
  ASSERT_TRUE(shared.has_value());
  EXPECT_NE(shared->find("share"), std::string::npos) << *shared;
  // Faults 0 and 2 with D = {0, 2}: PSs 0 and 2 are neighbours across 1.
  auto clash = check_af_partition(FaultSet(4, {0, 2}), AfPartition{0b1001, 1});
  ASSERT_TRUE(clash.has_value());
  EXPECT_NE(clash->find("neighbour"), std::string::npos) << *clash;
  // Q_2 with faults {0, 1, 2}: no partition (n < f + 1).
  EXPECT_FALSE(find_af_partition(FaultSet(2, {0, 1, 2})).has_value());
  EXPECT_THAT(all_af_partitions(FaultSet(2, {0, 1, 2})), IsEmpty());
}

// Section 2's promise for every fault set in reach: with 1 <= f <= floor(n/2) an A_f partition
// exists (the claim aapc.sec2.af_precondition sweeps further), and find agrees with all.
TEST(AapcPartition, AfPartitionExistsForEveryFaultSetOfQ4) {
  for (NodeId a = 0; a < 16; ++a) {
    ASSERT_TRUE(find_af_partition(FaultSet(4, {a})).has_value()) << a;
    for (NodeId b = a + 1; b < 16; ++b) {
      const FaultSet faults(4, {a, b});
      auto found = find_af_partition(faults);
      ASSERT_TRUE(found.has_value()) << faults.to_string();
      ASSERT_EQ(check_af_partition(faults, *found), std::nullopt);
      ASSERT_EQ(all_af_partitions(faults).front(), *found);
    }
  }
}

// Kuhn's matching against trying every assignment, and all_af_partitions against checking every
// (D, d), on every fault set of Q_3 and Q_4 with up to 4 faults (beyond floor(n/2), so that both
// answers occur).
bool brute_force_matching(const FaultSet& faults, DimSet dims) {
  const std::vector<NodeId> faulty = faulty_pss(faults, dims);
  std::vector<NodeId> used;
  auto place = [&](auto&& self, size_t i) -> bool {
    if (i == faulty.size()) return true;
    for (int j = 0; j < faults.n(); ++j) {
      if ((dims >> j) & 1u) continue;
      const NodeId p = adjacent_ps(faulty[i], j, dims);
      if (!is_perfect_ps(faults, p, dims) || std::ranges::find(used, p) != used.end()) continue;
      used.push_back(p);
      if (self(self, i + 1)) return true;
      used.pop_back();
    }
    return false;
  };
  return place(place, 0);
}

TEST(AapcPartition, SearchesAgreeWithBruteForce) {
  int matched = 0, unmatched = 0, with_af = 0, without_af = 0;
  for (int n = 3; n <= 4; ++n) {
    const NodeId size = NodeId{1} << n;
    for (uint32_t mask = 1; mask < (uint32_t{1} << size); ++mask) {
      if (std::popcount(mask) > 4) continue;
      std::vector<NodeId> nodes;
      for (NodeId x = 0; x < size; ++x)
        if ((mask >> x) & 1u) nodes.push_back(x);
      const FaultSet faults(n, nodes);
      for (DimSet dims = 0; dims < (DimSet{1} << n); ++dims) {
        const bool brute = brute_force_matching(faults, dims);
        auto partners = distinct_perfect_partners(faults, dims);
        ASSERT_EQ(partners.has_value(), brute) << faults.to_string() << " D = " << dims_to_string(dims);
        (brute ? matched : unmatched)++;
        if (partners) {
          const auto faulty = faulty_pss(faults, dims);
          for (size_t i = 0; i < faulty.size(); ++i) {
            ASSERT_EQ(std::popcount((*partners)[i] ^ faulty[i]), 1);  // adjacent
            ASSERT_TRUE(is_perfect_ps(faults, (*partners)[i], dims));
          }
          std::set<NodeId> distinct(partners->begin(), partners->end());
          ASSERT_EQ(distinct.size(), partners->size());
        }
      }
      std::vector<AfPartition> expected;
      for (DimSet dims = 0; dims < (DimSet{1} << n); ++dims)
        for (int d = 0; d < n; ++d)
          if (!check_af_partition(faults, AfPartition{dims, d})) expected.push_back(AfPartition{dims, d});
      std::ranges::sort(expected, [](const AfPartition& a, const AfPartition& b) {
        return a.dims != b.dims ? a.dims < b.dims : a.d < b.d;
      });
      ASSERT_EQ(all_af_partitions(faults), expected) << faults.to_string();
      (expected.empty() ? without_af : with_af)++;
    }
  }
  EXPECT_GT(unmatched, 0);  // the comparison saw both answers
  EXPECT_GT(matched, 0);
  EXPECT_GT(without_af, 0);
  EXPECT_GT(with_af, 0);
}

}  // namespace
}  // namespace topocheck::aapc
