// Per-budget scopes of the Metacube claims (quick / standard / deep).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "claims/claim.h"

namespace topocheck::claims::metacube_scope {

using KM = std::pair<int, int>;

// Exhaustive Theorem 2 / Algorithm 1 ranges: every ordered pair s != t, metacubes in order of
// address width, then k (so the first violation found is the smallest: width, then k, then s, t).
inline const PerBudget<std::vector<KM>> kExhaustive{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}}};
// BFS oracle (Theorem 1): every source, every target.
inline const PerBudget<std::vector<KM>> kBfs{
    {{1, 1}, {1, 2}, {2, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {1, 5}, {1, 6}}};
// Symmetry checks: every u, v (automorphism) / every s != t (commutation), every class-zero a.
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
// metacube costs at most 0.05 M rlimit units in quick, 12 M in standard (MC(2,2), commutation
// refuted and minimized), 24 M in deep (MC(2,3), the same); a standard run of every attached
// claim reading takes about 40 s.
inline const PerBudget<std::vector<KM>> kSmt{
    {{1, 1}},
    {{1, 1}, {1, 2}, {2, 1}, {2, 2}},
    {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {1, 4}, {2, 2}, {3, 1}, {2, 3}}};
inline const PerBudget<uint64_t> kSmtRlimit{5'000'000, 50'000'000, 200'000'000};

}  // namespace topocheck::claims::metacube_scope
