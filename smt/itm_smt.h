// Z3 encodings of two ITM claims (Liu et al., "Incremental Triangular Mesh", paper 002) for ALL
// ITMs with a FIXED number of nodes n, each a propositional problem (Booleans and cardinality
// constraints, Z3's QF_FD solver):
//  - itm.thm2.deadlock_free (Theorem 2), readings any-edge and exterior;
//  - itm.thm5.contention_free (Theorem 5), readings exterior (Contention::kPaper),
//    exterior-reversed, exterior-undirected, exterior-shared-endpoint (the any-edge readings fail
//    as soon as the exterior edges are not one cycle: no circular order; not encoded).
// Unsat proves the claim for every ITM on n nodes; a model is a CANDIDATE counterexample that the
// *_method_result functions decode into AddNode steps, rebuild with Itm::build and judge with the
// naive checkers of itm/itm_checks.h (the solver is never the judge).
//
// The symbolic ITM (encoding kSteps). Step i adds node v = 3 + i at a pair chosen by Bools
// step<v>_<x>_<y>, x < y < v, exactly one per step. adj(x, y) (x < y): true for the kernel
// (y < 3), otherwise "node y's step chose a pair containing x". Constraints: a step's pair is an
// edge (adjacency among existing nodes never changes later, so adj(x, y) is the graph "at that
// time"); under kExterior it is also still exterior, i.e. no earlier step chose it (the paper's
// marking: an edge is exterior from the step that creates it until a step uses it). The final
// marking is exterior(x, y) = adj(x, y) and no step chose (x, y).
//
// Theorem 2 (check_deadlock_free's definition). Channels are the directed edges; (a->b, b->c) is a
// dependency iff a != c and d(a, c) = 2, which, a and c sharing the neighbour b, is "a and c are
// not adjacent": no distances are needed. The violation is a set S of channels (Bools
// cycle_<a>_<b>) that is nonempty and in which every member has a dependency successor AND a
// dependency predecessor in S: such a finite S contains a cycle, and every cycle (as a set) is
// such an S, so this is exactly "the dependency graph has a cycle". Decided as n - 2 checks,
// top = 2..n-1: "S touches node top and no larger node". A cycle whose largest node is m is a
// model of check top = m (dependencies among nodes <= m are fixed once node m exists), so all
// unsat proves the claim. The split is what makes it fast: in check `top` the node top has only
// two neighbours <= top, its corresponding edge's ends, which are adjacent, so no dependency
// passes through it (its channels have no successor or no predecessor in S): a contradiction
// by propagation, where the unsplit problem took the SAT solver 2 s to 45 s at n = 12, varying
// with unrelated changes to the formula.
//
// Theorem 5 (check_contention_free's definitions, kExterior ITMs only). Shared by both
// encodings below, with positions 0..n-1 of the circular order:
//   distances: d_<u>_<v>_le<k> <=> d(u, v) <= k, defined by BFS layers (u = v, or k >= 1 and some
//     neighbour w of u has d(w, v) <= k - 1; exact), for k <= n / 2, and d(u, v) <= n / 2 is
//     asserted: the exterior edges contain a Hamiltonian cycle, so this removes no model;
//   messages: w is the node at position 0 (the claim's "w < x < y < z cyclically" is invariant
//     under rotation, so the order may start at w); one-hot positions 0 < x < y < z < n, or for
//     kSharedEndpoint 0 < x <= y < z <= n (z = n: z is w) without x = y and z = n, exactly the
//     tuples check_contention_free loops over; a one-hot directed edge a -> b;
//   a -> b on a shortest s -> t path: d(s, a) + 1 + d(b, t) <= d(s, t) (equality by the triangle
//     inequality), written in the order encoding as d(s, a) >= i and d(b, t) >= j imply
//     d(s, t) >= i + j + 1, for all i, j;
//   violation: a -> b on shortest w -> x and y -> z paths (kPaper, kSharedEndpoint); w -> x and
//     z -> y (kReversed); w -> x, and y -> z through a -> b or b -> a (kUndirected).
// Both rest on one induction over the steps of an exterior ITM (Lemma 4 and a little more):
// the exterior edges form one Hamiltonian cycle, and the interior edges are chords of it that do
// not cross. (Step v at exterior edge (x, y) puts v between x and y on the cycle; (x, y) becomes
// a chord joining two nodes that only v separates, so it crosses nothing, and inserting v changes
// no other chord's crossings.) The tests check it for every exterior ITM with n <= 8.
// kSteps: the symbolic ITM under kExterior with the circular order as a permutation pos<k>_<v>
//   (node v at position k), consecutive positions (cyclically) joined by exterior edges, in
//   circular_order's direction (node 0's successor is smaller than its predecessor): by the
//   induction, exactly circular_order's cycle, rotated to start at w.
//   Symmetry breaking (sound: each rule keeps at least one sequence of every class below, and the
//   claims do not change within a class: a relabelling maps the marking along, hence the exterior
//   cycle, and circular_order's start and direction do not matter: the readings are invariant
//   under rotation, and reversing the order maps the pair w->x, y->z to x->w, z->y, a pair of
//   the same reading sharing the reversed edge):
//     - the first step is (0, 1): permuting the kernel's labels maps sequences to sequences;
//     - two consecutive steps that commute (step i + 1 does not use node v = 3 + i) come in
//       increasing pair order (strictly under kExterior): exchanging them (and the labels v,
//       v + 1 in later steps) gives a valid sequence of an isomorphic ITM whose pair sequence is
//       lexicographically smaller, so repeated exchanges end in a sequence that satisfies the
//       constraint.
//   (Theorem 2 uses no symmetry breaking: with the split it is faster without.)
// kPolygon: a triangulated n-gon in circular-order coordinates: node p is position p, the sides
//   (p, p+1 mod n) are the exterior edges, and Bools chord_<i>_<j> choose exactly n - 3 pairwise
//   non-crossing chords; w is node 0 (rotating the polygon maps triangulations to
//   triangulations). By the induction, an exterior ITM with each node renamed by its position in
//   circular_order is such a triangulation, with circular_order as 0, 1, ..., n-1, so unsat
//   proves the claim for every exterior ITM on n nodes. A model is decoded into an ITM by peeling
//   ears outwards from the triangle on side (0, 1) (every triangulation is an exterior ITM) and
//   judged like any other. Much faster than kSteps (no labellings, no permutation: n = 12 in
//   0.5 s instead of hours); kSteps and brute force cross-check it in the tests.
// Negative controls (tests): kBrokenNonEdge is kSteps without "a step's pair is an edge" (C4s
// appear: Theorem 2 fails at n = 5); kBrokenCrossingChords is kPolygon without "no two chords
// cross". Their models are judged on the model's own graph (result.edges) and order.
//
// Limits: SolverLimits::rlimit (0 = none) is Z3's deterministic resource limit, ONE budget for all
// the checks of a call (each gets what the earlier ones left), clamped to UINT_MAX; timeout_ms
// (0 = none) is a wall-clock safety net for the whole call. Unknown, rlimit or timeout give
// kUnknown with Z3's reason, never kProved. A z3::exception is caught here and returned as kError.
//
// Measured cost (Z3 4.8.12, a shared 2-core machine; seconds / millions of rlimit units for one
// n, the whole call; re-measure with itm_smt_test --gtest_also_run_disabled_tests
// --gtest_filter=*MeasureCosts):
//                                n = 8       10          12          14          16          20
//   Thm 2 any-edge               0.05/0.2    0.1/0.5     0.2/1.1     0.4/2.2     0.6/4.2     2.0/13
//   Thm 2 exterior               0.05/0.2    0.1/0.5     0.2/1.4     0.4/2.8     0.8/5.3     2.3/18
//   Thm 5 kPolygon exterior      0.02/0.1    0.09/0.7    0.5/2.8     5.0/16      56/157
//   Thm 5 kPolygon shared-endp.  0.03/0.2    0.14/1.0    0.6/4.3     9.5/20      70/187
//   Thm 5 kSteps exterior        4.4/9.5     (n = 9: 39 s / 52 M; n = 10: 288 s / 432 M)
//   Thm 5 kSteps shared-endp.    6.7/14      (n = 9: 47 s / 67 M)
//   Thm 5 reversed, undirected: refuted at n = 6 (0.02 s), the smallest n, as brute force finds.
// Preconditions (TC_CHECK aborts): 3 <= n <= kItmSmtMaxNodes; the encodings each function lists.
//
// Files: itm_symbolic.h with itm_symbolic_smt.cc (the formula, the symbolic ITM and polygon, the
// shared checker, the input enumeration); itm_deadlock_smt.cc (Theorem 2); itm_contention_smt.cc
// (Theorem 5); itm_smt.cc (method results, the sweep over n, attach). Budgets per reading: the
// SMT section of catalog/itm/scope.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "claims/claim.h"
#include "core/status.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "smt/smt_common.h"

namespace topocheck::smt {

// The largest n the encodings accept (the formulas grow as n^4; far beyond any budget).
inline constexpr int kItmSmtMaxNodes = 32;

enum class ItmEncoding {
  kSteps,                 // symbolic AddNode steps (Theorem 5: and a symbolic circular order)
  kPolygon,               // Theorem 5 only: triangulated n-gon in circular-order coordinates
  kBrokenNonEdge,         // negative control of kSteps: a step may use a non-edge
  kBrokenCrossingChords,  // negative control of kPolygon (Theorem 5): chords may cross
};
std::string to_string(ItmEncoding encoding);  // "steps", "polygon", "broken-non-edge", ...

// Theorem 5: the model's messages w -> x, y -> z (as positioned: kReversed's second message is
// z -> y) and the shared directed edge a -> b, in the labels of ItmSmtResult::steps.
struct ContentionModel {
  int w = -1, x = -1, y = -1, z = -1, a = -1, b = -1;
  friend bool operator==(const ContentionModel&, const ContentionModel&) = default;
};

struct ItmSmtResult {
  SmtStatus status = SmtStatus::kError;
  // kCounterexample only, as the solver gave it (NOT yet judged):
  itm::Steps steps;  // the AddNode steps (kPolygon: built from the triangulation; empty when
                     // the model is not one, which only the broken control produces)
  std::vector<std::pair<int, int>> edges;     // the model's graph, (u, v) with u < v, sorted
  std::vector<int> order;                     // Theorem 5: the model's circular order, from node 0
  ContentionModel messages;                   // Theorem 5
  std::vector<std::pair<int, int>> channels;  // Theorem 2: the set S
  std::string reason;        // Z3's reason for unknown, the exception text for error
  uint64_t rlimit_used = 0;  // Z3 rlimit units spent by all the checks of the call
  int checks = 0;            // solver checks run
};

// Theorem 2 for every ITM on n nodes under `rule`. Encodings: kSteps, kBrokenNonEdge.
ItmSmtResult prove_deadlock_free(int n, itm::Rule rule, const claims::SolverLimits& limits,
                                 ItmEncoding encoding = ItmEncoding::kSteps);
// Theorem 5 under `contention` for every exterior ITM on n nodes. Every encoding.
ItmSmtResult prove_contention_free(int n, itm::Contention contention, const claims::SolverLimits& limits,
                                   ItmEncoding encoding = ItmEncoding::kPolygon);

// The decisions for one n as method results, every model judged:
//  - proved: kHolds, cases = 1;
//  - a model whose steps Itm::build accepts and the checker rejects (Theorem 5: with the model's
//    order equal to circular_order up to rotation, and for kPolygon reflection): kRefuted, detail
//    = the checker's words, Counterexample {params {"n", "rule"}, input {"steps"} (the claims'
//    case form, replayable by their check_case), violation, witness {"edges", "exterior",
//    "order"} (Theorem 5: and "paths"), minimized = false};
//  - any other model: kError ("SMT model disagrees with the checker: ...");
//  - unknown (rlimit, timeout): kInconclusive naming n; a Z3 error: kError.
claims::MethodResult deadlock_free_smt_method_result(int n, itm::Rule rule, const claims::SolverLimits& limits);
// Encodings kSteps and kPolygon.
claims::MethodResult contention_free_smt_method_result(int n, itm::Contention contention, ItmEncoding encoding,
                                                       const claims::SolverLimits& limits);

// The encodings' inputs, enumerated, for tests: every input on which the formula is satisfiable
// (a model, its input decoded and blocked, until unsat), so that a test can compare the formulas
// with the definitions input by input. Small n only (symbolic ITMs n <= 9, polygons n <= 10);
// a Z3 error or unknown is kInternal. No symmetry breaking unless asked for.
//  - symbolic_itm_models: the step sequences the symbolic ITM admits (kSteps, kBrokenNonEdge),
//    optionally with Theorem 5's symmetry breaking;
//  - polygon_models: the chord sets (i, j), i < j, the polygon admits (kPolygon,
//    kBrokenCrossingChords);
//  - *_violating_models: the inputs on which the violation is satisfiable (Theorem 2: a
//    nonempty S, without the split). kSteps for Theorem 5 leaves the rotation of the order free
//    (exact input by input); the polygons fix w at position 0, so their sets are exact up to
//    rotation (each set of chords is there with all its rotations).
Result<std::vector<itm::Steps>> symbolic_itm_models(int n, itm::Rule rule, ItmEncoding encoding,
                                                    bool symmetry_breaking);
Result<std::vector<std::vector<std::pair<int, int>>>> polygon_models(int n, ItmEncoding encoding);
Result<std::vector<itm::Steps>> deadlock_violating_models(int n, itm::Rule rule, ItmEncoding encoding);
Result<std::vector<itm::Steps>> contention_violating_models(int n, itm::Contention contention, ItmEncoding encoding);
Result<std::vector<std::vector<std::pair<int, int>>>> polygon_violating_models(int n, itm::Contention contention,
                                                                              ItmEncoding encoding);

// Adds Method::kSmt and a prove function to itm.thm2.deadlock_free (readings any-edge, exterior)
// and itm.thm5.contention_free (readings exterior, exterior-reversed, exterior-undirected,
// exterior-shared-endpoint; encoding kPolygon); aborts if the registry lacks one of them.
//  - method: n = 3..max at the budget, in order, each with the budget's rlimit (the SMT section
//    of catalog/itm/scope.h: smt_deadlock_max_n, kSmtContentionMaxN and their rlimits); the
//    first result that is not kHolds is returned (a refutation is then minimal in n:
//    minimized = true); otherwise kHolds with cases = the number of n proved. Scope text e.g.
//    "n = 3..12, every AddNode sequence (any-edge) (Z3 proof per n, rlimit 20000000)".
//  - prove: params {"n": integer 3..kItmSmtMaxNodes} (otherwise an invalid_argument Error naming
//    params.n); limits.rlimit 0 means the standard budget's rlimit.
void attach_itm_smt(claims::Registry& registry);

}  // namespace topocheck::smt
