// Budgets of the routing claims (paper 001, catalog/routing/claims.cc): the cubes, case counts and
// search limits of every method per budget (quick / standard / deep), and the study protocol of
// the Section 4 findings, which is the same in every budget. Claims read them from here, never
// from constants in tests.
#pragma once

#include <cstdint>

#include "claims/claim.h"
#include "routing/deadlock.h"

namespace topocheck::claims::routing_scope {

// The simulator's contract (random method): generated inputs per claim, on Q_1..Q_max.
inline const PerBudget<int> kRandomCases{100, 300, 1000};
inline const PerBudget<int> kRandomMaxDim{6, 7, 8};

// Finite buffers (routing.sec1.finite_buffers_deadlock_free): the deadlock search runs on
// Q_2..Q_kDeadlockMaxN at B = 1..kDeadlockMaxB (quick: Q_2..Q_3 at B = 1; otherwise Q_2..Q_4 at
// B = 1, 2), each search within the budget's limits (routing/deadlock.h: quick 24 messages and
// 10^6 search nodes, otherwise 128 messages and 10^8).
inline const PerBudget<int> kDeadlockMaxN{3, 4, 4};
inline const PerBudget<int> kDeadlockMaxB{1, 2, 2};
inline PerBudget<routing::DeadlockSearchLimits> deadlock_limits() {
  return {routing::quick_deadlock_limits(), routing::standard_deadlock_limits(), routing::standard_deadlock_limits()};
}
// Its oracle: the e-cube channel dependency graph of Q_1..Q_max (Dally-Seitz).
inline const PerBudget<int> kEcubeDependencyMaxN{6, 8, 8};

// The Section 4 findings' protocol (fixed in every budget, so that the ledger can pin it): Q_8,
// each built-in workload with workload seeds 1..kWorkloadSeeds, 44 cases x kStudyReps
// repetitions with simulator seeds kStudySeed.. (routing/study.h). Each finding is judged by the
// 95% Student t interval of its figures over the kWorkloadSeeds instances. With 5 instances three
// readings straddled their thresholds (factor_two[gauss], uni_gain[gauss, reduce_broadcast]);
// 20 decide every reading. Measured cost (2 cores shared with other jobs): all 12 readings take
// 8 s with 5 instances and 35 s with 20 (60 studies of 440 runs on Q_8).
inline constexpr int kStudyDim = 8;
inline constexpr int kStudyReps = 10;
inline constexpr uint64_t kStudySeed = 1;
inline constexpr uint64_t kWorkloadSeeds = 20;

// Properties (props/routing_props.cc)
// Cases per property, and the largest cube Q_n the generated simulator inputs use.
inline const PerBudget<int> kPropertyCases{100, 300, 1000};
inline const PerBudget<int> kPropertyMaxDim{6, 7, 8};

}  // namespace topocheck::claims::routing_scope
