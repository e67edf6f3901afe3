#include "aapc/bounds.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace topocheck::aapc {
namespace {

// The bound called `name` in the report (aborts the test when absent).
int bound_of(const LowerBounds& b, const std::string& name) {
  for (const LowerBound& x : b.bounds)
    if (x.name == name) return x.units;
  ADD_FAILURE() << "no bound named " << name;
  return -1;
}

int popcount(NodeId x) { return std::popcount(x); }

TEST(AapcDistances, HammingDistancesSurviveOneFaultInQ3) {
  const FaultSet f(3, {7});
  const std::vector<int> d = live_distances(f);
  for (NodeId a = 0; a < 8; ++a)
    for (NodeId b = 0; b < 8; ++b) {
      const bool live = a != 7 && b != 7;
      EXPECT_EQ(d[a * 8 + b], live ? popcount(a ^ b) : -1) << a << " " << b;
    }
}

TEST(AapcDistances, TwoAntipodalFaultsCutQ2) {
  const std::vector<int> d = live_distances(FaultSet(2, {0, 3}));
  EXPECT_EQ(d[1 * 4 + 2], -1);
  EXPECT_EQ(d[1 * 4 + 1], 0);
}

TEST(AapcDistances, TwoFaultsLengthenAPathInQ3) {
  // 1 and 2 have the common neighbours 0 and 3; both faulty: 1-5-7-6-2 (or via 4) is the shortest.
  const std::vector<int> d = live_distances(FaultSet(3, {0, 3}));
  EXPECT_EQ(d[1 * 8 + 2], 4);
}

TEST(AapcBounds, HandComputedFaultFreeQ1Q2Q3) {
  for (Model m : kModels) EXPECT_EQ(lower_bounds(FaultSet(1, {}), m).best, 1) << to_string(m);

  const LowerBounds q2_all = lower_bounds(FaultSet(2, {}), Model::kAllPort);
  EXPECT_EQ(bound_of(q2_all, "distance"), 2);
  EXPECT_EQ(bound_of(q2_all, "receive"), 2);   // ceil(3 / 2)
  EXPECT_EQ(bound_of(q2_all, "link_load"), 2);  // 16 hops / 8 links
  EXPECT_EQ(bound_of(q2_all, "cut_d0_0to1"), 2);  // 4 data / 2 links
  EXPECT_EQ(q2_all.best, 2);
  const LowerBounds q2_one = lower_bounds(FaultSet(2, {}), Model::kOnePort);
  EXPECT_EQ(bound_of(q2_one, "send"), 3);
  EXPECT_EQ(bound_of(q2_one, "link_load"), 4);  // 16 hops / (2 * matching 2)
  EXPECT_EQ(q2_one.best, 4);
  EXPECT_EQ(lower_bounds(FaultSet(2, {}), Model::kOneReceive).best, 4);

  const LowerBounds q3_all = lower_bounds(FaultSet(3, {}), Model::kAllPort);
  EXPECT_EQ(bound_of(q3_all, "distance"), 3);
  EXPECT_EQ(bound_of(q3_all, "receive"), 3);    // ceil(7 / 3)
  EXPECT_EQ(bound_of(q3_all, "send"), 3);
  EXPECT_EQ(bound_of(q3_all, "link_load"), 4);  // 96 / 24
  EXPECT_EQ(bound_of(q3_all, "side_even"), 4);  // 48 / 12
  EXPECT_EQ(bound_of(q3_all, "cut_d2_1to0"), 4);  // 16 / 4
  EXPECT_EQ(q3_all.best, 4);
  EXPECT_EQ(q3_all.attained_by, "link_load");
  const LowerBounds q3_recv = lower_bounds(FaultSet(3, {}), Model::kOneReceive);
  EXPECT_EQ(bound_of(q3_recv, "receive"), 7);
  EXPECT_EQ(bound_of(q3_recv, "send"), 3);
  EXPECT_EQ(bound_of(q3_recv, "link_load"), 12);  // 96 / 8
  EXPECT_EQ(q3_recv.best, 12);
  EXPECT_EQ(lower_bounds(FaultSet(3, {}), Model::kOnePort).best, 12);
}

TEST(AapcBounds, HandComputedWithFaults) {
  // Q_3 - {7} (the header's example).
  const LowerBounds b = lower_bounds(FaultSet(3, {7}), Model::kAllPort);
  EXPECT_TRUE(b.schedulable);
  EXPECT_EQ(bound_of(b, "distance"), 3);
  EXPECT_EQ(bound_of(b, "receive"), 3);  // node 3: 6 data over 2 links
  EXPECT_EQ(bound_of(b, "link_load"), 4);  // 72 / 18
  EXPECT_EQ(bound_of(b, "cut_d0_0to1"), 4);  // 12 data over 3 links
  EXPECT_EQ(b.best, 4);

  // Q_3 - {0}: 3 even and 4 odd nonfaulty nodes. The even side needs 36 arrivals: 12 units
  // (one_receive: 3 receivers; one_port: a maximum matching has 3 links), where link_load gives
  // ceil(72 / 7) = 11 for one_receive.
  EXPECT_EQ(side_arrivals(FaultSet(3, {0}), 0), 36u);
  EXPECT_EQ(side_capacity(FaultSet(3, {0}), Model::kOnePort, 0), 3u);
  EXPECT_EQ(hop_capacity(FaultSet(3, {0}), Model::kOnePort), 6u);
  const LowerBounds r = lower_bounds(FaultSet(3, {0}), Model::kOneReceive);
  EXPECT_EQ(bound_of(r, "link_load"), 11);
  EXPECT_EQ(bound_of(r, "side_even"), 12);
  EXPECT_EQ(r.best, 12);
  EXPECT_EQ(r.attained_by, "side_even");
  EXPECT_EQ(bound_of(lower_bounds(FaultSet(3, {0}), Model::kOnePort), "link_load"), 12);

  // Q_2 - {3} is the path 1 - 0 - 2: node 0 receives its 2 data and forwards 2.
  const FaultSet path(2, {3});
  EXPECT_EQ(lower_bounds(path, Model::kAllPort).best, 2);
  EXPECT_EQ(bound_of(lower_bounds(path, Model::kOneReceive), "side_even"), 4);
  EXPECT_EQ(bound_of(lower_bounds(path, Model::kOneReceive), "link_load"), 3);
  EXPECT_EQ(lower_bounds(path, Model::kOnePort).best, 4);

  // Q_3 - {0, 3}: nodes 1 and 2 keep one nonfaulty neighbour each: receive = ceil(5 / 1) = 5.
  const LowerBounds two = lower_bounds(FaultSet(3, {0, 3}), Model::kAllPort);
  EXPECT_EQ(two.best, 5);
  EXPECT_EQ(two.attained_by, "receive");
  EXPECT_EQ(bound_of(two, "distance"), 4);
}

TEST(AapcBounds, DisconnectedAndTrivialFaultSets) {
  const LowerBounds cut = lower_bounds(FaultSet(2, {0, 3}), Model::kAllPort);
  EXPECT_FALSE(cut.schedulable);
  ASSERT_EQ(cut.bounds.size(), 1u);
  EXPECT_EQ(cut.bounds[0].name, "connectivity");
  const LowerBounds lone = lower_bounds(FaultSet(2, {0, 1, 2}), Model::kOnePort);
  EXPECT_TRUE(lone.schedulable);
  EXPECT_EQ(lone.best, 0);
}

TEST(AapcBounds, FormulasNameTheirNumbers) {
  const LowerBounds b = lower_bounds(FaultSet(3, {7}), Model::kAllPort);
  for (const LowerBound& x : b.bounds) {
    EXPECT_THAT(x.formula, ::testing::StartsWith(x.name)) << x.formula;
    EXPECT_THAT(x.formula, ::testing::HasSubstr("= " + std::to_string(x.units))) << x.formula;
  }
}

TEST(AapcBounds, ClosedFormMatchesTheCalculatorUpToQ10) {
  for (int n = 1; n <= kMaxN; ++n)
    for (Model m : kModels)
      EXPECT_EQ(fault_free_lower_bound(n, m), lower_bounds(FaultSet(n, {}), m).best) << n << " " << to_string(m);
  EXPECT_EQ(fault_free_lower_bound(4, Model::kAllPort), 8);
  EXPECT_EQ(fault_free_lower_bound(4, Model::kOnePort), 32);
}

// ---------------------------------------------------------------------------------------------
// The exact search.

TEST(AapcExactSearch, EveryFaultSetOfQ1AndQ2) {
  for (int n = 1; n <= 2; ++n)
    for (const FaultSet& f : all_fault_sets(n))
      for (Model m : kModels) {
        SCOPED_TRACE(f.to_string() + " " + to_string(m));
        const LowerBounds b = lower_bounds(f, m);
        const ExactSearchResult r = exact_min_by_search(f, m, 16);
        if (!b.schedulable) {
          EXPECT_EQ(r.status, MinimumStatus::kUnschedulable);
          continue;
        }
        ASSERT_EQ(r.status, MinimumStatus::kMinimum);
        EXPECT_GE(r.min_units, b.best);
        EXPECT_EQ(r.schedule.num_units(), r.min_units);
        const ScheduleCheck c = check_schedule(r.schedule, f, m);
        EXPECT_TRUE(c.ok) << c.violation;
      }
}

TEST(AapcExactSearch, Q3FaultFreeAndOneFaultMeetTheBound) {
  std::vector<FaultSet> sets{FaultSet(3, {})};
  for (NodeId x = 0; x < 8; ++x) sets.emplace_back(3, std::vector<NodeId>{x});
  for (const FaultSet& f : sets)
    for (Model m : kModels) {
      SCOPED_TRACE(f.to_string() + " " + to_string(m));
      SearchLimits limits;
      limits.max_seconds = 20;
      const ExactSearchResult r = exact_min_by_search(f, m, 16, limits);
      ASSERT_EQ(r.status, MinimumStatus::kMinimum);
      EXPECT_EQ(r.min_units, lower_bounds(f, m).best);
      EXPECT_TRUE(check_schedule(r.schedule, f, m).ok);
    }
}

// Negative control of the bounds: below the best bound, the search WITHOUT the counting bounds
// (only distances and final delivery) finds nothing, on every fault set of Q_1 and Q_2.
TEST(AapcExactSearch, NoScheduleBelowTheBoundWithoutUsingTheBounds) {
  for (int n = 1; n <= 2; ++n)
    for (const FaultSet& f : all_fault_sets(n))
      for (Model m : kModels) {
        const LowerBounds b = lower_bounds(f, m);
        if (!b.schedulable || b.best == 0) continue;
        SCOPED_TRACE(f.to_string() + " " + to_string(m));
        SearchLimits raw;
        raw.prune_with_bounds = false;
        EXPECT_EQ(search_schedule(f, m, b.best - 1, raw).answer, Feasibility::kInfeasible);
        EXPECT_EQ(search_schedule(f, m, b.best, raw).answer, Feasibility::kFeasible);
      }
}

// Hand-built schedules shorter than the bound are rejected by the checker.
TEST(AapcExactSearch, HandBuiltShortSchedulesAreRejected) {
  const FaultSet q2(2, {});
  // One unit for Q_2 all_port (bound 2): the 8 distance-1 data arrive, the 4 others cannot.
  Schedule one;
  one.n = 2;
  one.units.resize(1);
  for (NodeId s = 0; s < 4; ++s)
    for (int j = 0; j < 2; ++j) one.units[0].push_back(Move{Datum{s, s ^ (1u << j)}, s, s ^ (1u << j)});
  const ScheduleCheck c1 = check_schedule(one, q2, Model::kAllPort);
  EXPECT_FALSE(c1.ok);
  EXPECT_THAT(c1.violation, ::testing::HasSubstr("not delivered"));
  // Taking 3_0 across in the same unit is the "moves twice" violation.
  Schedule twice;
  twice.n = 2;
  twice.units = {{Move{Datum{0, 3}, 0, 1}, Move{Datum{0, 3}, 1, 3}}};
  EXPECT_THAT(check_schedule(twice, q2, Model::kAllPort).violation, ::testing::HasSubstr("moves twice"));

  // The all_port optimum of Q_3 (4 units) is no one_receive or one_port schedule (bound 12).
  const FaultSet q3(3, {});
  const ExactSearchResult all = exact_min_by_search(q3, Model::kAllPort, 8);
  ASSERT_EQ(all.min_units, 4);
  EXPECT_TRUE(check_schedule(all.schedule, q3, Model::kAllPort).ok);
  EXPECT_THAT(check_schedule(all.schedule, q3, Model::kOneReceive).violation, ::testing::HasSubstr("receives"));
  EXPECT_FALSE(check_schedule(all.schedule, q3, Model::kOnePort).ok);
}

TEST(AapcExactSearch, LimitsMakeItInconclusive) {
  SearchLimits tiny;
  tiny.max_nodes = 10;
  const ExactSearchResult r = exact_min_by_search(FaultSet(3, {}), Model::kOnePort, 16, tiny);
  EXPECT_EQ(r.status, MinimumStatus::kInconclusive);
  EXPECT_EQ(r.min_units, -1);
  EXPECT_EQ(exact_min_by_search(FaultSet(3, {}), Model::kAllPort, 3).status, MinimumStatus::kNoneUpTo);
}

}  // namespace
}  // namespace topocheck::aapc

namespace topocheck::aapc {
namespace {

// The greedy upper bound: never below the lower bound (a schedule shorter than a proved bound
// would be a bug in one of them), judged by check_schedule, and equal to the exact minimum where
// that is known.
TEST(AapcGreedy, NeverBeatsTheLowerBoundOnAnyFaultSetOfQ3) {
  for (const FaultSet& f : all_fault_sets(3)) {
    for (Model m : kModels) {
      const GreedyResult g = greedy_schedule(f, m, 20, 1);
      const LowerBounds lb = lower_bounds(f, m);
      if (!g.found) continue;  // unschedulable fault sets
      SCOPED_TRACE(f.to_string() + " " + to_string(m));
      EXPECT_GE(g.units, lb.best);
      EXPECT_TRUE(check_schedule(g.schedule, f, m).ok);
    }
  }
}

TEST(AapcGreedy, FindsOptimalOnePortSchedulesOfQ4) {
  // A schedule as short as the lower bound is optimal: Q_4 one_port with faults {6,9} needs 33
  // units and {0,1} 28 (neither the exact search nor Z3 settles these within a minute).
  for (const auto& [faults, units] : std::vector<std::pair<std::vector<NodeId>, int>>{{{}, 32}, {{6, 9}, 33}, {{0, 1}, 28}}) {
    const FaultSet f(4, faults);
    SCOPED_TRACE(f.to_string());
    const int bound = lower_bounds(f, Model::kOnePort).best;
    ASSERT_EQ(bound, units);
    const GreedyResult g = greedy_schedule(f, Model::kOnePort, 20000, 1, bound);
    ASSERT_TRUE(g.found);
    EXPECT_EQ(g.units, bound) << "after " << g.trials_run << " trials";
    EXPECT_TRUE(check_schedule(g.schedule, f, Model::kOnePort).ok);
  }
}

TEST(AapcGreedy, ReportsNothingForAnUnschedulableFaultSet) {
  const FaultSet cut(2, {0, 3});  // 1 and 2 have no fault-free path
  EXPECT_FALSE(greedy_schedule(cut, Model::kAllPort, 5, 1).found);
}

}  // namespace
}  // namespace topocheck::aapc
