// Per-budget scopes of the Metacube claims (quick / standard / deep).
#pragma once

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

}  // namespace topocheck::claims::metacube_scope
