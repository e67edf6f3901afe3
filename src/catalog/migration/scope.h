// Budgets of the migration claims (paper 000, Chen–Tzeng): the sizes and case counts of the
// exhaustive sweeps and of the random method (catalog/migration/, props/migration_props.cc).
// Claims, properties and benchmarks read them from here, never from constants in tests.
#pragma once

#include <cstdint>

#include "claims/claim.h"

namespace topocheck::claims::migration_scope {

// Largest n of each exhaustive sweep (catalog/migration/*_claims.cc).
// Theorem sweeps: n <= 3 quick, 5 standard and deep (every packing, by plan class). At n = 5 the
// sweep over every packing would be 4.5e13 inputs for Section 4.1 and 2.8e13 for 4.2 (2.2e12 and
// 2.2e10 over the packings of blocks that meet a HAMMING-PATH span alone; counted, not swept),
// against 4.2 M and 12.3 M inputs by plan class (about 5 and 7 CPU minutes); n = 6 is out of
// reach. The random method covers n <= 16 in every budget.
inline const PerBudget<int> kTheoremMaxN{3, 5, 5};
// The lemmas and Section 4.2's counting (every (S, T, alpha)), the isomorphisms (every node).
inline const PerBudget<int> kLemmaMaxN{4, 4, 5};
inline const PerBudget<int> kIsoMaxN{4, 6, 8};
// HAMMING-PATH on any pair, every packing outside S = 0...0 and T = 1...1: n = 5 has about 1e9
// packings of the 30 nodes outside S and T, so every budget stops at 4.
inline const PerBudget<int> kHammingAnyPairMaxN{3, 4, 4};

// Random: generated migration inputs (migration::gen::migration_input, src/migration/migration_gen.h)
// with n = 1..kRandomMaxN (the n <= 16) and dim(S) = dim(T) <= kRandomMaxDim, so that the
// 2^dim(S) nodes of S (each with up to two paths) stay cheap to plan and to check.
inline const PerBudget<int> kRandomCases{200, 2000, 20000};
inline constexpr int kRandomMaxN = 16;
inline constexpr int kRandomMaxDim = 8;
// Section 4.2 "for some sequence" readings: the most assignments of a broadcast sequence to each B
// (beta!^(2^gamma)) tried per input; the exhaustive sweeps (n <= 5) need at most 2, random inputs
// with more are reported undecided unless a policy (x-last, x-first) already works.
inline constexpr uint64_t kSomeSequenceMaxAssignments = 5040;
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
