// Per-budget scopes of the Metacube claims (quick / standard / deep).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "claims/claim.h"

namespace topocheck::claims::metacube_scope {

using KM = std::pair<int, int>;

// Exhaustive Theorem 2 / Algorithm 1 ranges: every ordered pair s != t, metacubes in order of
// address width, then k (so the first violation found is the smallest: width, then k, then s, t).
// Also the range of metacube.symmetry.alg4_commutes, which every reduced sweep below rests on.
inline const PerBudget<std::vector<KM>> kExhaustive{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}}};
// Theorem 2's exhaustive sweep continues, for the readings in kTranslationInvariantReadings only,
// over these metacubes with the sources reduced to those with zero M fields (2^k sources x every
// target): XOR with a class-zero address is an automorphism (metacube.symmetry.automorphism) and
// such a reading's Algorithm 4 commutes with it (metacube.symmetry.alg4_commutes), so the pair
// (s, t) and its translate (s with its M fields cleared, t XOR the same) pass or fail together.
// Every other reading sweeps kExhaustive only (every pair of these would be 2^26 to 2^38 pairs).
inline const PerBudget<std::vector<KM>> kExhaustiveReduced{
    {},
    {},
    {{1, 5}, {1, 6}, {2, 3}, {1, 7}, {1, 8}, {2, 4}, {3, 2}}};
// As kExhaustiveReduced, but swept only in a sharded run (verify --shard i/N, merged with
// `topocheck merge`): MC(3,3), the paper's 2^27-node headline, is 2^30 reduced pairs.
inline const PerBudget<std::vector<KM>> kExhaustiveSharded{{}, {}, {{3, 3}}};
// The readings of Algorithm 4 that may use the reduced sweeps: declared invariant under class-zero
// translations. A reading belongs here only if metacube.symmetry.alg4_commutes is expected to hold
// for it in the ledger at every budget (claims_test checks that; the sweep itself refuses, with
// an error verdict, to reduce when the ledger does not expect it).
inline const std::vector<std::string> kTranslationInvariantReadings{"repaired"};
// BFS oracle (Theorem 1): every source, every target.
inline const PerBudget<std::vector<KM>> kBfs{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {1, 5}, {1, 6}}};
// Automorphism check: every u, v and every class-zero a.
inline const PerBudget<std::vector<KM>> kSymmetry{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {2, 2}}};
// Max-flow connectivity oracle: sources with zero M fields (class-zero symmetry), every target.
inline const PerBudget<std::vector<KM>> kOracle{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {1, 5}}};

// SMT (smt/metacube_smt.h): Theorem 2's parts, commutation with class-zero translations and the
// automorphism, each decided for every s != t of each metacube (bit-vector proofs per class
// split), in this order, each metacube with the rlimit below. Measured (smt/metacube_smt.h): one
// metacube costs at most 0.05 M rlimit units in quick; 31 M in standard and deep (MC(2,2),
// `paper`'s commutation refuted and minimized; the method stops there), 17 M otherwise; a
// standard run of every attached claim reading takes about 45 s.
inline const PerBudget<std::vector<KM>> kSmt{
    {{1, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {2, 2}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {2, 3}}};
inline const PerBudget<uint64_t> kSmtRlimit{5'000'000, 100'000'000, 200'000'000};

}  // namespace topocheck::claims::metacube_scope
