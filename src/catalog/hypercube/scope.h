// The scope of every hypercube claim per budget (quick / standard / deep). Claims, properties
// and SMT methods read their sizes and case counts from here, never from constants in tests.
#pragma once

#include <cstdint>

#include "claims/claim.h"

namespace topocheck::claims::hypercube_scope {

// Exhaustive: every x, y (x = y included) for n = 1..max.
inline const PerBudget<int> kAlg2ExhaustiveMaxN{8, 10, 14};
inline const PerBudget<int> kEcubeExhaustiveMaxN{8, 10, 12};
// Deadlock freedom: the channel dependency graph of e-cube routing for n = 1..max.
inline const PerBudget<int> kDeadlockMaxN{6, 8, 10};
// Max-flow oracle: every pair x != y for n = 1..max.
inline const PerBudget<int> kOracleMaxN{6, 8, 9};
// Random: generated (n, x, y) with n = 1..kRandomMaxN (63: the whole supported range); a shrunk
// find is looked for again exhaustively below its n, up to n = kRandomFallbackMaxN.
inline const PerBudget<int> kRandomCases{300, 2000, 20000};
inline const int kRandomFallbackMaxN = 10;
inline const int kRandomMaxN = 63;
// SMT (smt/hypercube_smt.cc): prove hypercube.alg2.disjoint for every n = 1..max, each with
// this Z3 rlimit. Measured
// (Z3 4.8.12, 2 cores): n = 1..10 in 2.7 s, 1..20 in 46 s, 1..28 in about 225 s; one n uses
// 1.9 M (n = 10), 26 M (n = 20), 100 M (n = 28) rlimit units, so each rlimit has 2x headroom.
inline const PerBudget<int> kSmtMaxN{10, 20, 28};
inline const PerBudget<uint64_t> kSmtRlimit{5'000'000, 50'000'000, 200'000'000};

}  // namespace topocheck::claims::hypercube_scope
