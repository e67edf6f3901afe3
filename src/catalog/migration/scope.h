// Budgets of the migration claims (paper 000, Chen–Tzeng): the sizes and case counts of the
// random method (props/migration_props.cc and, later, the `random` verify method). Claims,
// properties and benchmarks read them from here, never from constants in tests.
#pragma once

#include <cstdint>

#include "claims/claim.h"

namespace topocheck::claims::migration_scope {

// Random: generated migration inputs (migration::gen::migration_input, src/migration/migration_gen.h)
// with n = 1..kRandomMaxN (the n <= 16) and dim(S) = dim(T) <= kRandomMaxDim, so that the
// 2^dim(S) nodes of S (each with up to two paths) stay cheap to plan and to check.
inline const PerBudget<int> kRandomCases{200, 2000, 20000};
inline constexpr int kRandomMaxN = 16;
inline constexpr int kRandomMaxDim = 8;
// Blocks per generated input (dense inputs pack blocks until this many or no free node is found).
inline constexpr int kRandomMaxBlocks = 48;

// HAMMING-PATH against the brute force over every Hamming path (migration::hamming_paths lists
// d! of them for d = H(a, b)): pairs at Hamming distance up to this (7! = 5040 paths).
inline constexpr int kHammingBruteMaxDistance = 7;

// SMT (smt/migration_smt*.cc): the largest n of the isomorphism proofs (migration.iso.*: every
// property for n = 1..max, one Z3 check per n and property with kIsoSmtRlimit) and of the joint
// completeness sweep (migration.conclusion.tells_absence_jointly: every input of n = 1..max, a
// decision with kJointSmtRlimit where the procedure leaves a node short), per budget.
inline const PerBudget<int> kIsoSmtMaxN{4, 5, 7};
inline const PerBudget<int> kJointSmtMaxN{2, 3, 3};
inline constexpr uint64_t kIsoSmtRlimit = 50'000'000;
inline constexpr uint64_t kJointSmtRlimit = 20'000'000;

}  // namespace topocheck::claims::migration_scope
