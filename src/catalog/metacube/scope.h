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
inline const std::vector<std::string> kTranslationInvariantReadings{"paper-keybit-example4", "repaired", "corrected"};
// The metacubes whose every pair `repaired` sweeps (Theorem 2's parts, and
// metacube.symmetry.alg4_commutes[repaired], which licenses its reduced sweeps): the rest of
// kExhaustive is swept with the sources reduced to zero M fields. Its completion is a search:
// measured (Release, one core) 35 us per pair on average in MC(2,2) (15% of the pairs need it)
// and 0.3-0.9 ms in MC(3,1) (79%), so every pair of MC(3,1) (4.2 M) is about an hour per claim.
// What licenses the reduction in MC(2,2) and MC(3,1), where commutation is not checked pair by
// pair for `repaired`: `repaired` is paper-keybit-example4's construction (whose commutation is
// checked for every pair of kExhaustive and by SMT), then loop erasure (node by node: commutes
// with any relabelling), then the completion, which reads addresses only through neighbour(u, d),
// equality and the distance bound, all three preserved by a class-zero translation (it never
// compares addresses); the every-pair commutation check over this range tests that argument.
inline const PerBudget<std::vector<KM>> kRepairedEveryPair{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}}};
inline const PerBudget<std::vector<KM>>& every_pair_range(const std::string& reading) {
  return reading == "repaired" ? kRepairedEveryPair : kExhaustive;
}
// Random (Theorem 2's parts, every reading): (k, m, s, t) from metacube::gen::metacube_pair,
// k = 1..random_max_k(reading) and up to kRandomMaxBits address bits, random_cases(reading, budget)
// cases per reading (case j at RapidCheck size j % 100: small metacubes first, every width from
// size 50 on).
// A failure is shrunk by the generator (k and m first, then the Hamming weight of s XOR t), then
// looked for exhaustively in the metacubes of kRandomBelow up to the shrunk one in sweep order
// (width, then k; its own metacube included), so that a failure in the smallest metacubes is
// reported as the first one there (the exhaustive method's, which the corpus holds).
inline const PerBudget<int> kRandomCases{300, 3000, 30000};
inline const int kRandomMaxBits = 63;
inline const std::vector<KM> kRandomBelow{{1, 1}, {1, 2}, {2, 1}};
// `repaired` is sampled with k <= 3: for k >= 4 its completion (augmenting-path search) can take
// seconds per pair (measured: MC(4,2) up to 20 s, one pair in 200 at the search limit). Its own
// case counts, since one pair costs 10-40 ms against about 10 us for the printed readings.
// Measured (Release, a loaded 2-core machine, per reading): the printed readings < 0.01 s
// (quick), 0.04 s (standard); `repaired` 0.01 s (quick: 20 cases, sizes below 20 only), 0.8 to
// 8 s (standard; 22 s for its five claims), deep about ten times standard.
inline const int kRepairedRandomMaxK = 3;
inline const PerBudget<int> kRepairedRandomCases{20, 200, 2000};
// The properties of props/metacube_props.cc: cases per property, over the same generator.
inline const PerBudget<int> kPropertyCases{300, 2000, 20000};
inline int random_max_k(const std::string& reading) { return reading == "repaired" ? kRepairedRandomMaxK : 5; }
inline int random_cases(const std::string& reading, Budget budget) {
  return (reading == "repaired" ? kRepairedRandomCases : kRandomCases).at(budget);
}
// BFS oracle (Theorem 1): every source, every target.
inline const PerBudget<std::vector<KM>> kBfs{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {1, 5}, {1, 6}}};
// metacube.thm2.optimality (catalog/metacube/oracle_claims.cc): the metacubes per budget; every
// source with zero M fields (2^k of them; the class-zero XOR is an
// automorphism, metacube.symmetry.automorphism, and the `repaired` construction commutes with it,
// metacube.symmetry.alg4_commutes) x every target. Measured (Release, one core of a shared 2-core
// machine): quick 0.1 s; standard (adds MC(1,3), MC(2,2)) 5.5 s; deep (adds MC(1,4), MC(3,1),
// MC(1,5): 26,166 pairs) 108 s, of which MC(3,1) 62 s and MC(1,5) 40 s.
inline const PerBudget<std::vector<KM>> kOptimality{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {2, 2}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {2, 2}, {1, 4}, {3, 1}, {1, 5}}};
// DFS steps of the exact search per pair before the pair is left undecided (inconclusive).
inline const PerBudget<long> kOptimalityMaxSteps{2'000'000, 5'000'000, 20'000'000};
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

// SMT (smt/metacube_smt*.cc): Theorem 2's parts, commutation with class-zero translations and the
// automorphism, each decided for every s != t of each metacube (bit-vector proofs per class
// split), in this order, each metacube with the rlimit below. Measured (smt/metacube_smt.h): one
// metacube costs at most 0.05 M rlimit units in quick; 31 M in standard and deep (MC(2,2),
// `paper`'s commutation refuted and minimized; the method stops there), 17 M otherwise (reading
// `corrected`: up to 55 M, MC(2,3) disjoint; its m = 1 metacubes, one check per split on D, MC(3,1)
// 48 M); a standard run of every attached claim reading takes about 45 s.
inline const PerBudget<std::vector<KM>> kSmt{
    {{1, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {2, 2}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {2, 3}}};
inline const PerBudget<uint64_t> kSmtRlimit{5'000'000, 100'000'000, 200'000'000};

}  // namespace topocheck::claims::metacube_scope
