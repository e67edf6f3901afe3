// Budgets of the AAPC claims (paper 004, catalog/aapc/): the sizes and case counts of every method
// per budget (quick / standard / deep). Claims read them from here, never from constants in tests.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::aapc_scope {

// ---- Section 3: the schedules A_1, A_2, A_f (schedule_claims.cc) ----------------------------
// Exhaustive ranges, per algorithm in the order A_1, A_2, A_f (every fault set of the
// algorithm's size and every dividing dimension, n = 1..max), and the random range above them
// (n up to kScheduleRandomMaxN). Generation plus checking costs about 1 ms at n = 5, 3 ms at
// n = 6 and 20-40 ms at n = 7 per schedule; A_2 and A_f have C(2^n, f) fault sets times their
// dimension choices. A_f from n = kAfOrbitReducedFromN sweeps one fault set per orbit: n = 7 is
// 31 canonical fault sets and 2730 schedules per model standing for 34.0 million inputs (n = 6:
// 23 and 733). n = 8 would be 414 canonical sets and 49,059 schedules per model at 50-90 ms,
// about 3.5 CPU hours for the three models, so no budget goes there (random inputs cover n = 8,
// 9). Measured (2 shared cores, --jobs 2): `verify 'aapc.af.units'` standard 3.5 min wall.
inline const PerBudget<int> kScheduleExhaustiveMaxN[] = {{4, 7, 8}, {4, 6, 7}, {4, 7, 7}};
inline const PerBudget<int> kScheduleRandomCases{4, 20, 100};
inline constexpr int kScheduleRandomMaxN = 9;
// The worst faithful Phase-2 list order (schedule_claims.cc, readings *.at_most.every_order):
// every input of n = 1..max (per algorithm, A_1, A_2, A_f), each under seed 0 (this
// implementation) and seeds 1..kOrderSearchOrders (aapc::ListOrder). A search, not exhaustive.
inline const PerBudget<int> kOrderSearchMaxN[] = {{4, 5, 6}, {4, 5, 5}, {4, 5, 5}};
inline const PerBudget<int> kOrderSearchOrders{8, 32, 128};
// A_f from this n on sweeps one fault set per orbit of Q_n's automorphisms (schedule_claims.cc
// says why that is sound); below it every fault set, in lexicographic order.
inline constexpr int kAfOrbitReducedFromN = 6;

// The counts as algebra (count_claims.cc): every n up to this, in exact arithmetic.
inline constexpr int kCountMaxN = 60;
// The optimum 2^n - 1 of a nonfaulty Q_n (count_claims.cc): n = 1..max.
inline const PerBudget<int> kOptimumMaxN{4, 8, 10};

// ---- Section 2: Properties 1-3 and the A_f precondition (property_claims.cc) ----------------
// Largest n of the exhaustive sweeps. f <= floor(n/2): at n = 7 there are C(128, 1..3) = 349,632
// fault sets. Property 2 (f <= n) has C(64, 1..6) = 8.4e7 fault sets at n = 6 (about 30-50 s per
// reading on one core) and C(128, 1..7) = 1.2e10 at n = 7, out of reach: its sweeps reach n = 6
// in the standard budget and stop there in deep too.
inline const PerBudget<int> kPropertyExhaustiveMaxN{4, 6, 7};
inline const PerBudget<int> kProp2ExhaustiveMaxN{4, 6, 6};
// The f = n + 1 witness search of Property 2's bound stops at the first witness (about 1e7 sets
// tried at n = 7).
inline const PerBudget<int> kBoundMaxN{4, 6, 7};
// Random fault sets above the exhaustive range, up to n = kPropertyRandomMaxN (aapc::kMaxN).
inline const PerBudget<int> kPropertyRandomCases{100, 1000, 10000};
inline constexpr int kPropertyRandomMaxN = 10;

// Properties (props/aapc_props.cc)
// Cases per property (inputs n = 2..7, 1..3 faults, every port model).
inline const PerBudget<int> kPropertyCases{300, 2000, 10000};

// SMT (smt/aapc_smt*.cc): aapc.sec312.optimum's stated 2^n - 1 against Z3's exact minimum
// (smt/aapc_smt.h) for the fault-free Q_n, n = 1..max, per model; each n's search with this
// wall-clock timeout (no rlimit).
inline const PerBudget<int> kOptimumSmtMaxN{2, 3, 3};
inline constexpr unsigned kOptimumSmtTimeoutMs = 120'000;

}  // namespace topocheck::claims::aapc_scope
