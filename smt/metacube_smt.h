// Z3 encodings of the Metacube claims (Li, Peng, Chu, "Disjoint Paths in Metacube", Section 3,
// Algorithm 4 with Algorithms 1 and 3 inside it, Theorem 2; Section 2, the edge definition):
//  - prove_alg4: for a FIXED MC(k, m), for ALL s != t, the k + m paths of
//    metacube::metacube_disjoint_paths(mc, s, t, options) pass one part of Theorem 2 as
//    metacube::check_alg4 judges it (valid, disjoint, length, case_bound);
//  - prove_alg4_commutes: for all s != t and every a whose class field is 0, the paths of
//    (s^a, t^a) are those of (s, t) with every node XORed with a (claim
//    metacube.symmetry.alg4_commutes). Decided as the claim checks it, per pair with one
//    translation, a_s = the M part of s (s^a_s is s's class field alone): over all pairs that is
//    equivalent to every a (catalog/metacube/claims.cc gives the argument: translations compose and
//    a_(s^a) = a_s ^ a), and a counterexample is then a pair the claim's check_case replays;
//  - prove_automorphism: for all u, v and every class-zero a, (u, v) is an edge iff (u^a, v^a) is
//    (claim metacube.symmetry.automorphism).
//
// What is encoded (quantifier-free bit-vectors; the M fields of s and t, m*2^k bits each, and of a
// are the only variables):
//   Splits. The class fields are split CONCRETELY: one sub-problem per (c_s, c_t), and for
//   c_s = c_t one per case (0: same cluster, 1: not), with the case's condition as a
//   precondition (and s != t). Within a split the Hamiltonian cycles HC_i, the bit l, every class
//   walk, the class of every node the construction computes, and which case applies are concrete,
//   so the encoding follows metacube/disjoint.cc line by line with C++ control flow; only
//   decisions on M-field data become formulas. Splitting on the classes rather than encoding them
//   keeps every walk of Algorithm 1 a fixed list of steps; its cost is h^2 + h sub-problems.
//   Under `corrected` with m = 1 each pair of classes is split further by D, the lamps where s
//   and t differ (2^h values): the rules of metacube/lamplighter.h decide on (c_s XOR c_t, D)
//   alone, so each sub-problem's paths are concrete moves from the symbolic s, one check each;
//   decide() checks only the splits with c_s = 0 (decision_splits in metacube_symbolic.h: the
//   class translation is an automorphism the m = 1 rules commute with), 2^k * 2^(2^k) - 1 of them.
//   Paths. A path is a fixed list of slots (present: Bool, node: n-bit vector); the node list is
//   the present slots in order. Algorithm 1 (p1_walk) along a concrete walk: per walk position,
//   one slot per bit of the current class's field (present iff that bit still differs from the
//   target and the walk is not done) and one cross-edge slot (present iff not done); "done" is
//   "the node equals the target", sticky, as p1_walk stops as soon as it reaches t. After every
//   class of the walk has been visited and the walk stands in the target's class, the node IS the
//   target (each field was set to the target's when its class was visited, and later steps only
//   flip fields of the current class), so no slots follow: a sound truncation, not an
//   approximation. Algorithm 3 (p3_cluster, p3_class): one slot per step, present iff the bit
//   differs. append() drops the tail's first node iff it equals the path's last present node.
//   Data-dependent choices are ite over whole slot lists (padded with absent slots): case 1's j/j'
//   exchange (for each concrete j, "M_s[c_s] XOR M_t[c_t] = 2^(j-k)"), case 2's "M_s[f] = M_t[f]
//   for all f != c_s^(i)", the i' detour, "s^(i) = w_i", and the w_i = s^(j) exchange of targets,
//   whose assignment loop is replayed in order with symbolic target values (so even overlapping
//   matches would be encoded as the loop resolves them). The key bit y = k + x is symbolic: x is
//   the lowest zero of the XOR (~d & (d + 1) isolates it; all ones gives 0, then default_key).
//   Violations, exactly the negation of what the core checkers accept (core/checks.h):
//     valid:      a present slot that is not an edge of MC(k,m) from the previous present node
//                 (d = u XOR v has one bit set, and it is a class bit or a bit of M[c_u]); the
//                 first node is not s or the last is not t; two present slots hold the same
//                 node, except the last of a closed path (check_simple's exemption);
//     disjoint:   valid's violation, or a present slot of P_i that is neither P_i's first nor its
//                 last present slot holds a node of a present slot of P_j (j != i);
//     length:     (number of present slots - 1) > H(s,t) + 2^k + m + 5, H a symbolic popcount;
//     case_bound: the same against the case's bound (case 0 H+6, case 1 H+2^k+4, case 2
//                 H+2^k+4+max|Z_i|; the case and d = H_k(s,t) are concrete in a split);
//     commutes:   a = a_s; for some i, P_i(s^a, t^a) differs from P_i(s, t) XOR a as a NODE LIST: the
//                 present counts differ, or two present slots with the same index (number of
//                 present slots before them) hold nodes that differ after XOR with a. A slot-by-
//                 slot difference is not list inequality (the same list can sit in different
//                 slots: its models need not be counterexamples), but it is implied by it and
//                 linear instead of quadratic in the slots, so each group first checks it: unsat
//                 proves the group (MC(2,2) keybit: 2.4 M rlimit units instead of 100 M), sat falls back
//                 to the exact list comparison.
//   Decision: per split, the violation is split into groups (per path; per pair of paths for
//   disjoint), each a separate QF_BV check, with one Z3 context per split. All unsat proves the
//   claim for every s != t of this MC(k, m). The first satisfiable group's model is then
//   MINIMIZED by the solver (bit by bit, most significant first, over the disjunction of all
//   groups of the remaining splits of the same c_s) to the smallest violating (s, t) in the order
//   of exhaustive search (s's address, then t's): that is exactly the pair an exhaustive run finds
//   first, so the two methods report the same corpus case. If the budget runs out during
//   minimization the last model is kept with minimized = false. A model is a CANDIDATE: callers
//   confirm it with the concrete construction and check_alg4 (the solver is never the judge); the
//   *_method_result functions do, and a model the checker accepts is kError.
//
// Readings: every field of metacube::Alg4Options is encoded except `repair` (reading `repaired`:
// loop erasure, then completion by augmenting paths). alg4_encoding_gap() names what is not
// encoded (also any field added to Alg4Options after this encoding) and every prove_* call
// returns kError for it; attach_metacube_smt serves "paper" and "paper-keybit-example4" only. To
// encode a new alternative path definition, add it to the Encoder in metacube_alg4_smt.cc next to the
// concrete code it mirrors (case0/case1/case2 and their helpers; a whole-path post-processing
// goes at the end of Encoder::paths()), list its option in alg4_encoding_gap(), and run
// metacube_smt_test: the pointwise tests compare the encoding with metacube_disjoint_paths node
// for node for every Alg4Options they are given.
//
// Limits: SolverLimits::rlimit (0 = none) is Z3's deterministic resource limit, ONE budget for all
// the checks of one call (each check gets what the earlier ones left), clamped to UINT_MAX;
// timeout_ms (0 = none) is a wall-clock safety net for the whole call. `unknown`, rlimit or
// timeout expiry give kUnknown with Z3's reason, never kProved. A z3::exception is caught here and
// returned as kError with its message.
//
// Measured cost (Z3 4.8.12, a shared 2-core machine under load; rlimit units in millions and
// seconds per call, reading `paper`; `paper-keybit-example4` costs the same except where noted;
// cx = counterexample found and minimized, all others proofs):
//              valid (cx)    disjoint (cx)  length       case_bound   commutes           automorph.
//   MC(1,1)    0.0 / 0.2     0.0 / 0.1      0.0 / 0.2    0.0 / 0.2    0.0 / 0.1          0 / 0.01
//   MC(1,2)    0.2 / 0.2     0.3 / 0.3      0.1 / 0.3    0.1 / 0.3    0.3 / 0.3          0 / 0.01
//   MC(2,1)    0.2 / 0.3     0.2 / 0.3      0.3 / 1.0    0.3 / 0.9    0.5 / 1.1          0 / 0.01
//   MC(1,3)    0.5 / 0.9     0.9 / 1.2      0.3 / 0.6    0.4 / 0.6    1.0 / 0.9          0 / 0.01
//   MC(1,4)    1.5 / 1.3     3.7 / 3.3      0.5 / 0.8    1.0 / 0.8    2.5 / 1.5          0 / 0.01
//   MC(2,2)    1.1 / 1.4     1.7 / 1.8      1.8 / 2.1    2.3 / 2.7    cx 31 / 22         0 / 0.02
//                                                                     (keybit: 2.4 / 2.3)
//   MC(3,1)    1.1 / 2.1     1.9 / 3.1      6.4 / 9.0    6.6 / 7.6    8.1 / 8.9          0 / 0.02
//   MC(2,3)    17 / 11       6.8 / 21       7.0 / 14     11 / 19      cx 619 / 251       0 / 0.05
//                                                                     (keybit: 8.9 / 2.4)
// Reading `corrected` (proofs, except case_bound: refuted at MC(2,1) and MC(3,1), cx 0.0 / 0.0 and 0.2 / 0.3):
//              valid         disjoint       length       commutes
//   MC(2,1)    0.3 / 0.5     0.4 / 0.6      0.1 / 0.4    0.1 / 0.4      (m = 1: 63 D splits, one check each)
//   MC(2,2)    10 / 2.4      16 / 4.4       2.0 / 0.7    2.7 / 0.9
//   MC(3,1)    27 / 30       48 / 44        4.9 / 18     7.8 / 20       (2,047 D splits)
//   MC(2,3)    35 / 6.4      55 / 18        6.9 / 3.4    7.2 / 2.9
// Of a counterexample's cost, nearly all is the minimization (the first model of MC(2,2) valid
// costs 0.04 M, of commutes 0.4 M; proving that no smaller pair fails is the expensive part). Re-measure with metacube_smt_test --gtest_also_run_disabled_tests
// --gtest_filter=*MeasureCosts. The rlimits per budget are in catalog/metacube/scope.h.
// Preconditions: Metacube::make(k, m) succeeds (TC_CHECK aborts otherwise; attach_metacube_smt's
// prove functions validate user params first).
//
// Files: metacube_symbolic.h (Space, slots, splits) with metacube_alg4_smt.cc (Algorithm 4 with
// Algorithms 1 and 3: the Encoder); metacube_decision.h with metacube_decision_smt.cc (violations,
// groups, the budget, decide and minimize); metacube_eval_smt.cc (Alg4EncodingEvaluator);
// metacube_smt.cc (alg4_encoding_gap, the prove_* functions, method results, attach).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "claims/claim.h"
#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "metacube/disjoint.h"
#include "metacube/metacube_checks.h"
#include "smt/smt_common.h"

namespace topocheck::smt {

struct MetacubeSmtResult {
  SmtStatus status = SmtStatus::kError;
  // kCounterexample: the solver's (s, t) (prove_automorphism: (u, v)), width m*2^k + k.
  std::optional<Node> s, t;
  // kCounterexample of prove_alg4_commutes (a_s, the M part of s) / prove_automorphism (the
  // model's a): the class-zero translation.
  std::optional<Node> a;
  bool minimized = false;    // (s, t) is the smallest violating pair in exhaustive order
  std::string reason;        // Z3's reason for unknown, the exception text for error
  uint64_t rlimit_used = 0;  // Z3 rlimit units spent by all the checks of the call
  uint64_t checks = 0;       // solver checks run (minimization included)
};

// nullopt if every field of `options` is encoded; otherwise which one is not, in words.
std::optional<std::string> alg4_encoding_gap(const metacube::Alg4Options& options);

// Decides one Theorem 2 part (kValid, kDisjoint, kLength, kCaseBound; kFaultTolerance is not
// encoded: kError) for MC(k, m) under `options`. A kCounterexample is NOT yet a refutation:
// confirm it with metacube::check_alg4.
MetacubeSmtResult prove_alg4(int k, int m, const metacube::Alg4Options& options,
                             metacube::Thm2Part part, const claims::SolverLimits& limits);
// Decides the commutation of Algorithm 4 with class-zero translations for MC(k, m). Confirm a
// kCounterexample by running the construction on (s, t) and (s^a, t^a).
MetacubeSmtResult prove_alg4_commutes(int k, int m, const metacube::Alg4Options& options,
                                      const claims::SolverLimits& limits);
// Decides "XOR with a class-zero a is an automorphism" for MC(k, m) (one check, symbolic u, v, a).
MetacubeSmtResult prove_automorphism(int k, int m, const claims::SolverLimits& limits);

// The decisions above for one MC(k, m) as method results, every model confirmed by the judge:
//  - proved: kHolds, cases = 1;
//  - a confirmed model: kRefuted, detail = the judge's words, Counterexample {params {"k", "m"},
//    input {"s", "t"} as address strings (as the claims' exhaustive method stores them), the
//    judge's violation, witness {"case", "paths", "notes"} of (s, t) (commutation: also "a"),
//    minimized = the solver's minimization succeeded};
//  - a model the judge accepts: kError ("SMT model disagrees with the checker");
//  - unknown (rlimit, timeout): kInconclusive, detail naming MC(k,m); a Z3 error or an
//    unknown reading: kError.
// `reading` is any name metacube::options_for_reading knows (negative controls included).
claims::MethodResult alg4_smt_method_result(int k, int m, const std::string& reading,
                                            metacube::Thm2Part part,
                                            const claims::SolverLimits& limits);
claims::MethodResult alg4_commutes_smt_method_result(int k, int m, const std::string& reading,
                                                     const claims::SolverLimits& limits);
claims::MethodResult automorphism_smt_method_result(int k, int m,
                                                    const claims::SolverLimits& limits);

// The encoding evaluated at concrete inputs, for tests: the very formulas the solver is given
// (each part's violation under the split's precondition, the paths' slots) with the variables
// set to the inputs' M fields. Exists so a test can check, pointwise, that the encoding IS the
// construction and the checkers' predicates. Formulas are built once per split and cached.
// Engines: kZ3 is Z3's model evaluation (about 1-2 ms a pair on MC(2,1)); kCompiled runs the same
// term DAG compiled to uint64 operations (about 100 times faster), and tests check the two agree.
// Errors (kInternal) on a Z3 error, an operator the compiled engine does not know, or a
// formula that does not evaluate to a constant. Preconditions: s != t, addresses of MC(k, m)
// (TC_CHECK).
class Alg4EncodingEvaluator {
 public:
  enum class Engine { kCompiled, kZ3 };
  Alg4EncodingEvaluator(int k, int m, const metacube::Alg4Options& options, Engine engine = Engine::kCompiled);
  ~Alg4EncodingEvaluator();
  Alg4EncodingEvaluator(const Alg4EncodingEvaluator&) = delete;
  Alg4EncodingEvaluator& operator=(const Alg4EncodingEvaluator&) = delete;

  struct Value {
    int case_number = 0;          // the split whose precondition holds
    std::vector<Path> paths;      // the present slots of each path, in order
    // The encoded violation of each part, indexed by Thm2Part (kValid .. kCaseBound).
    std::array<bool, 4> violation{};
  };
  Result<Value> at(Node s, Node t);
  // The encoded commutation violation for this one a (class field 0; any a, not only a_s: the
  // decision's encoding with the translation left free).
  Result<bool> commutation_violation(Node s, Node t, Node a);
  // The encoded edge predicate (the one the valid part and prove_automorphism use).
  Result<bool> is_edge(Node u, Node v);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Adds Method::kSmt and a prove function to metacube.thm2.{valid,disjoint,length,case_bound}
// (readings "paper", "paper-keybit-example4"), metacube.symmetry.alg4_commutes (same readings)
// and metacube.symmetry.automorphism ("literal"); aborts if the registry lacks them.
//  - method: for each MC(k,m) of claims::metacube_scope::kSmt.at(budget), in order, with rlimit
//    kSmtRlimit.at(budget) each; the first refutation (confirmed) is kRefuted, an unconfirmed
//    model kError, unknown kInconclusive naming MC(k,m); otherwise kHolds, cases = the number of
//    metacubes proved.
//  - prove: params {"k": integer 0..5, "m": integer 1..63} with m*2^k + k <= 63 (otherwise an
//    invalid_argument Error naming params.k or params.m); limits.rlimit 0 means
//    kSmtRlimit.standard. Returns the MethodResult for that one metacube.
void attach_metacube_smt(claims::Registry& registry);

}  // namespace topocheck::smt
