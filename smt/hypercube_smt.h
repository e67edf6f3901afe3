// Z3 encoding of claim hypercube.alg2.disjoint (Li, Peng, Chu, "Disjoint Paths in Metacube",
// Section 3, Algorithms 2 and 3): for a FIXED n, for ALL x, y in Q_n (x = y included), the n paths
// P_i = x : p3(n, i, x^(i), y) of CubeDisjointPaths(n, x, y) pass hypercube::check_alg2_disjoint.
//
// What is encoded (quantifier-free bit-vectors of width n; x and y are the only variables):
//   For each path i = 0..n-1 (concrete), with b_j = p3_dimension(variant, n, i, j) (steps with
//   b_j < 0 are absent):
//     v_0 = x XOR 2^i                  (x^(i): the first hop)
//     u   = v_0 XOR y                  (the paper's u, as Algorithm 2 sets it, per path)
//     on_j = bit b_j of u is set       (Algorithm 3's test (u & 2^b) != 0)
//     v_j = v_{j-1} XOR (u AND 2^b_j)  (v^(b) when on_j, else v unchanged)
//   The node list of P_i is x, v_0, then v_j for the steps with on_j, in order. Position 0 (x) and
//   position 1 (v_0) are always present; "last" is v_j for the final step with on_j, or v_0 when no
//   step is taken; v_final (the value after all steps) equals the last node.
//   The violation V(x, y) is the DISJUNCTION of the following, which is exactly the negation of
//   what check_alg2_disjoint accepts (core/checks.h definitions):
//     valid:    some present hop (v_{j-1} -> v_j) does not differ in exactly one bit (the hop
//               x -> v_0 and every node's width are valid by construction and not asserted);
//     endpoint: v_final != y (the first node is x by construction);
//     simple:   two present positions p < q of one path hold the same node, except q = last when
//               the path is closed (x = v_final), as check_simple's exemption of a closed endpoint;
//     disjoint: for paths i != i', a present position p of P_i that is neither first nor last
//               (internal) holds the same node as some present position q of P_{i'} (any
//               position, endpoints included), as check_internally_node_disjoint.
//   Decision: V is split into groups, one per path (valid, endpoint, simple of P_i) and one per
//   pair i < i' (disjoint), and each group is a separate QF_BV check; V is unsatisfiable iff every
//   group is, so "all unsat" proves the claim for every x, y at this n, and the first satisfiable
//   group's model (x, y) satisfies V. That model is a candidate counterexample that callers must
//   confirm with check_alg2_disjoint (the solver is never the judge). Size: n(n+1)/2 checks, each
//   O(n^2) node equalities of width n. Groups are checked path by path, one Z3 context per path.
//
// Limits: SolverLimits::rlimit (0 = none) is Z3's deterministic resource limit, ONE budget for all
// the checks of this n (each check gets what the earlier ones left), clamped to UINT_MAX (Z3 takes
// an unsigned); timeout_ms (0 = none) is a wall-clock safety net for the whole call. `unknown`,
// rlimit or timeout expiry give kUnknown with Z3's reason, never kProved. A z3::exception is
// caught here and returned as kError with its message.
// Example: prove_alg2_disjoint(8, P3Variant::kAsPrinted, {50'000'000, 0}).status is kProved;
// with P3Variant::kBrokenMissingFlip and n = 1 it is kCounterexample (e.g. y = x: P_0 = x : x^(0)
// does not end at y), which check_alg2_disjoint confirms.
// Measured cost (Z3 4.8.12, as printed): n = 10 uses 1.9 M rlimit units in 0.8 s, n = 20 26 M in
// 8.5 s, n = 28 100 M in 37 s (see catalog/hypercube/scope.h for the budgets).
// Preconditions: 1 <= n <= 63 (TC_CHECK aborts otherwise; attach_hypercube_smt's prove function
// validates user params first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "claims/claim.h"
#include "core/node.h"
#include "hypercube/hypercube.h"
#include "smt/smt_common.h"

namespace topocheck::smt {


struct Alg2SmtResult {
  SmtStatus status = SmtStatus::kError;
  std::optional<Node> x, y;  // set iff status == kCounterexample (width n): the solver's model
  std::string reason;        // Z3's reason for unknown, the exception text for error
  uint64_t rlimit_used = 0;  // Z3 rlimit units spent by all the checks of this n
};

// Decides the encoding above for one n. A kCounterexample is NOT yet a refutation: confirm it with
// hypercube::check_alg2_disjoint.
Alg2SmtResult prove_alg2_disjoint(int n, hypercube::P3Variant variant,
                                  const claims::SolverLimits& limits);

// prove_alg2_disjoint for one n as a method result, the model confirmed by the judge:
//  - proved: kHolds, cases = 1;
//  - a model that check_alg2_disjoint confirms: kRefuted, detail = the checker's words, and a
//    Counterexample {params {"n": n}, input {"x", "y"} as node strings, violation = the checker's
//    words, witness {"paths": the n paths}, minimized = false (the method sets it, having proved
//    every smaller n first)};
//  - a model the checker accepts: kError ("SMT model disagrees with the checker");
//  - unknown (rlimit, timeout): kInconclusive, detail naming n; a Z3 error: kError.
// The claim's method and prove function use kAsPrinted; tests use the broken variants.
claims::MethodResult alg2_smt_method_result(int n, hypercube::P3Variant variant,
                                            const claims::SolverLimits& limits);

// The encoded violation predicate evaluated at every concrete x, y of width n: element
// x * 2^n + y is true iff V (the disjunction of the groups the solver checks) holds there. Exists so tests can check,
// pointwise, that the encoding decides exactly check_alg2_disjoint's predicate. Precondition
// 1 <= n <= 8 (4^n evaluations; TC_CHECK). nullopt on a Z3 error.
std::optional<std::vector<bool>> alg2_encoding_violations(int n, hypercube::P3Variant variant);

// Adds Method::kSmt and the prove function to claim "hypercube.alg2.disjoint", reading "literal"
// (aborts if the registry lacks them).
//  - method: for n = 1..hypercube_scope::kSmtMaxN.at(budget), each with rlimit
//    kSmtRlimit.at(budget), smallest n first; a model confirmed by check_alg2_disjoint is kRefuted
//    (minimized in n), an unconfirmed model is kError, unknown is kInconclusive naming n;
//    otherwise kHolds with cases = the number of n proved.
//  - prove: params {"n": integer 1..63} (otherwise an invalid_argument Error naming params.n);
//    limits.rlimit 0 means kSmtRlimit.standard. Returns the same MethodResult for that one n.
void attach_hypercube_smt(claims::Registry& registry);

}  // namespace topocheck::smt
