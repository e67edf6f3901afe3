// Z3 encodings for the migration family (Chen and Tzeng, paper 000): (1) the isomorphisms f, g, h
// of Section 2.2 and Section 3 at a FIXED n for ALL subcube pairs and ALL alpha, and (2) an exact
// completeness oracle for the procedure's "the second path is absent".
//
// (1) Isomorphisms. The formulas are written here from the paper (migration.h's notation), NOT by
// calling migration::f / g / h; the tests compare them with those functions input by input.
//   Symbols (bit-vectors of width n): DS = D(S) and DT = D(T) as masks, Sv and Tv the fixed bits
//   of S and T (zero on DS resp. DT), u and v two nodes; alpha as Booleans a_j_i ("alpha(j) = i")
//   constrained to be a bijection D(S)-D(T) -> D(T)-D(S) (a_j_i only for j in D(S)-D(T) and
//   i in D(T)-D(S); every such j has exactly one i and every such i exactly one j, so
//   |D(S)| = |D(T)| follows). Bit by bit, with c = "u[j] = T[j]" for j = alpha^-1(i):
//     f(u)[i] = u[i]                      i in I(S,T) (both '*', or both fixed and equal)
//               T[i]                      i in C(S,T) (both fixed, different) or D(S)-D(T)
//               u[i] XOR c                i in D(T)-D(S), when Bars says f complements on "="
//               u[i] XOR not c            i in D(T)-D(S), when f complements on "!="
//     g(u): the same with g's bar;  h(v) = v XOR (D(T)-D(S)).
//   S and T may share nodes only when C(S,T) is empty; as sharing a node is exactly "C empty",
//   every pair of equal dimension is admitted (make_instance agrees).
//   The properties (IsoProperty), each as a violation to be refuted (unsat = proved), u, v in S:
//     maps into:  f(u) (resp. g(u)) is not in T, i.e. (f(u) AND NOT DT) != Tv;
//     injective:  u != v and f(u) = f(v);
//     adjacency:  (u ~ v) != (f(u) ~ f(v)), where a ~ b iff a XOR b has exactly one bit set
//                 (both directions of "u ~ v iff f(u) ~ f(v)" at once);
//     g = h o f:  g(u) != h(f(u)).
//   With maps-into and injective, f and g are bijections S -> T (|S| = |T|).
// Encodings (IsoEncoding): kSymbolic, one query per (n, bars, property) with everything above
// symbolic, so that unsat covers every pair (S, T) of equal dimension and every alpha at once;
// kPerMasks, the masks (DS, DT) and alpha enumerated outside Z3 (one query each, Sv, Tv, u, v
// symbolic), a second, independent decomposition of the same claim. prove_isomorphism_instance
// fixes S, T and alpha too (only u, v symbolic), for input-by-input comparison in the tests.
// The negative control GEncoding::kBrokenNoComplement lets g copy u[i] on D(T)-D(S) (the bar
// dropped altogether): g is then not injective, not an isomorphism and not h o f as soon as
// |D(S)-D(T)| >= 1, while it still maps S into T.
// What to expect (all four Bars readings): f and g map into T, are injective and preserve
// adjacency; g = h o f holds exactly when f and g complement in opposite cases (the paper's
// f:=,g:!= and also f:!=,g:=) and is refuted for f:=,g:= and f:!=,g:!=.
// A model is a CANDIDATE counterexample (IsoModel): judge_isomorphism_model rebuilds the
// instance with make_instance and re-evaluates the property with migration::f / g / h.
//
// (2) Completeness (the paper's conclusion: the procedure "identifies two migration paths from
// each participating node, if they exist, or otherwise tells the absence"). Given a Plan:
//   kOthersFixed: every path the plan chose is kept; each node u of S with u != g(u) and fewer
//     than two paths gets the missing ones (1 or 2) as new paths u -> g(u). Do they exist
//     simultaneously, block-free (no hop is a block link), each disjoint from every plan path and
//     from every other new path under the reading?
//   kJointly: everything re-chosen: do two block-free paths u -> g(u) exist for every node u of S
//     with u != g(u), all pairwise disjoint under the reading?
// Encoding: one commodity per new path, Booleans x_c_a_b for every directed link a -> b of Q_n
// (block links and, under the link readings, links a fixed path uses: false). Per commodity and
// node: at most one link in, at most one out; the source has one out and none in, the sink one in
// and none out, every other node "some in" iff "some out". Such a flow is a simple path from the
// source to the sink plus node-disjoint stray cycles; dropping the cycles keeps every constraint
// below, so existence is exact. Disjointness, between any two paths (new or fixed), as
// migration_checks.h's readings (core/checks.h definitions):
//   node:          a node internal to a new path (flow in, not an endpoint) occurs in no other
//                  path at all: per node, "some commodity passes through" implies "at most one
//                  path (new or fixed) contains the node"; a node internal to a fixed path is in
//                  no new path (nor an endpoint of one);
//   link:          per undirected link, at most one use in either direction by all new paths,
//                  none if a fixed path uses it;
//   directed link: per directed link, likewise.
// Fixed paths are not judged against each other (that is the plan's own check). A model is
// decoded by walking each commodity from its source and the paths are re-checked with the naive
// checkers (core/checks.h validity, endpoints, simplicity; migration::is_block_link;
// migration::check_disjoint pair by pair against every other path) before kExists is reported;
// a model that fails them is kError (the solver is never the judge). Unsat is kAbsent; Z3's
// unknown, rlimit or timeout is kInconclusive, never an answer.
// Node reading note: check_internally_node_disjoint lets two copies of the single link u -> g(u)
// be "disjoint" (neither has an internal node), so under kNode a node adjacent to g(u) always has
// two paths unless the link is a block link; the encoding follows the checker exactly.
//
// Limits: SolverLimits::rlimit (0 = none) is ONE Z3 resource budget for all the checks of a call
// (each gets what the earlier ones left), clamped to UINT_MAX; timeout_ms (0 = none) is a
// wall-clock safety net for the whole call. A z3::exception is caught here (kError / an Error).
// Measured cost (Z3 4.8.12, a shared 2-core machine, migration_smt_test):
//   isomorphisms, kSymbolic: one check per (n, bars, property); n = 5: 0.02-0.06 s, n = 7:
//     0.03-0.31 s and 35 k-485 k rlimit units. kPerMasks: n = 7 is 6512 checks, 18-77 s and
//     27 M-114 M rlimit units per property. prove_isomorphism_instance: about 6 ms (a context each).
//   completeness, n <= 3: about 6 ms a decision (2952 compared with brute force in 17 s); Fig. 2
//     (n = 6, 8 paths jointly, the stored blocks): 0.1-0.4 s, 0.3 M-0.8 M rlimit units;
//     S = 00****, T = 11**** jointly (n = 6, 32 paths): node reading 0.6 s / 1.4 M units, the
//     link reading gave no answer within 8 minutes: pass an rlimit (kInconclusive) at that size.
//
// Files: migration_iso_smt.cc (1), migration_completion_smt.cc (2), migration_smt.cc (the SMT
// methods and attach; budgets in the SMT section of catalog/migration/scope.h); both encodings
// check through smt/shared_limits_checker.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claims/claim.h"
#include "core/path.h"
#include "core/status.h"
#include "core/subcube.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "smt/smt_common.h"

namespace topocheck::smt {

// The largest n prove_isomorphism_property accepts (kPerMasks enumerates C(2n, n) mask pairs).
inline constexpr int kMigrationSmtMaxN = 12;

enum class IsoProperty {
  kFMapsInto,    // f(S) is inside T
  kGMapsInto,    // g(S) is inside T
  kFInjective,   // f is one-to-one on S
  kGInjective,   // g is one-to-one on S
  kFAdjacency,   // u ~ v iff f(u) ~ f(v), for u, v in S
  kGAdjacency,   // u ~ v iff g(u) ~ g(v)
  kGIsHOfF,      // g(u) = h(f(u)) (the text after equation 2)
};
inline constexpr IsoProperty kAllIsoProperties[] = {
    IsoProperty::kFMapsInto,  IsoProperty::kGMapsInto,  IsoProperty::kFInjective, IsoProperty::kGInjective,
    IsoProperty::kFAdjacency, IsoProperty::kGAdjacency, IsoProperty::kGIsHOfF};
// "f-maps-into", "g-maps-into", "f-injective", "g-injective", "f-adjacency", "g-adjacency",
// "g-is-h-of-f".
std::string to_string(IsoProperty property);

enum class IsoEncoding { kSymbolic, kPerMasks };
std::string to_string(IsoEncoding encoding);  // "symbolic", "per-masks"
enum class GEncoding { kFaithful, kBrokenNoComplement };
std::string to_string(GEncoding encoding);  // "faithful", "broken-no-complement"

// A model of a violation: S, T, alpha as pairs (j, alpha(j)) ascending, and the nodes (v only
// for injective and adjacency).
struct IsoModel {
  Subcube S, T;
  std::vector<std::pair<int, int>> alpha;
  Node u, v;
};

struct IsoSmtResult {
  SmtStatus status = SmtStatus::kError;
  std::optional<IsoModel> model;  // kCounterexample only: as the solver gave it, NOT yet judged
  std::string reason;             // Z3's reason for unknown, the exception text for error
  uint64_t rlimit_used = 0;       // Z3 rlimit units spent by all the checks of the call
  int checks = 0;                 // solver checks run (kPerMasks: one per (DS, DT, alpha))
};

// The property for every pair (S, T) of equal dimension in Q_n and every alpha, under `bars`.
// Preconditions (TC_CHECK): 1 <= n <= kMigrationSmtMaxN.
IsoSmtResult prove_isomorphism_property(int n, migration::Bars bars, IsoProperty property,
                                        const claims::SolverLimits& limits,
                                        IsoEncoding encoding = IsoEncoding::kSymbolic,
                                        GEncoding g_encoding = GEncoding::kFaithful);
// The property for one instance and alpha (u, v symbolic), as the same formulas.
IsoSmtResult prove_isomorphism_instance(const migration::Instance& inst, const migration::Alpha& alpha,
                                        migration::Bars bars, IsoProperty property,
                                        const claims::SolverLimits& limits,
                                        GEncoding g_encoding = GEncoding::kFaithful);

// Re-evaluates the property on a model with migration::f / g / h (never the encoding): the
// violation in words, or nullopt when the model does NOT violate the property. An error when the
// model is not an instance (make_instance / parse_alpha reject it, or u, v not in S).
Result<Violation> judge_isomorphism_model(migration::Bars bars, IsoProperty property, const IsoModel& model);

// prove_isomorphism_property (kSymbolic, faithful g) for one n as a method result, the model
// judged: proved -> kHolds (cases = 1, scope "n = N, every (S, T) of equal dimension and every
// alpha (Z3 proof, bars f:=,g:!=)"); a model judge_isomorphism_model confirms -> kRefuted with
// Counterexample {params {"n", "bars", "property"}, input {"S", "T", "alpha", "u", "v"}, violation,
// witness {"f_u", "g_u", "h_f_u"(, "f_v", "g_v")}}; a model it rejects -> kError ("SMT model
// disagrees with migration::f/g/h: ..."); unknown -> kInconclusive. An Error (invalid_argument)
// for n outside 1..kMigrationSmtMaxN.
Result<claims::MethodResult> prove_isomorphisms(int n, migration::Bars bars, IsoProperty which,
                                                const claims::SolverLimits& limits);

// ---------------------------------------------------------------------------------------------
// (2) Completeness oracle.

enum class CompletionMode { kOthersFixed, kJointly };
std::string to_string(CompletionMode mode);  // "others-fixed", "jointly"

enum class Existence { kExists, kAbsent, kInconclusive, kError };
std::string to_string(Existence e);  // "exists", "absent", "inconclusive", "error"

struct SourcedPath {
  Node u;     // the node of S the path migrates
  Path path;  // u -> g(u)
};

struct CompletionResult {
  Existence answer = Existence::kError;
  // kExists: the paths found, re-checked. kOthersFixed: only the new (missing) paths; kJointly:
  // two per node u != g(u), in the order of nodes_of(S). Empty otherwise.
  std::vector<SourcedPath> paths;
  int commodities = 0;       // paths asked for (0: nothing missing, no solver call, kExists)
  std::string reason;        // kInconclusive: Z3's reason; kError: what failed
  uint64_t rlimit_used = 0;  // Z3 rlimit units
};

// Decides the question of `mode` for the plan's instance, alpha, bars and blocks (g recomputed
// with migration::g). Preconditions: plan.params.alpha a bijection of plan.inst, blocks valid
// (as for migrate; TC_CHECK); n <= 10 (the formula has a Boolean per commodity and directed link).
CompletionResult decide_completion(const migration::Plan& plan, CompletionMode mode, migration::Disjointness reading,
                                   const claims::SolverLimits& limits);

// The naive re-check decide_completion applies before kExists, exposed for tests and oracles:
// every new path is a valid simple path of Q_n from its u to g(u) with no block link, and is
// disjoint (reading) from each other new path and from each of `fixed`.
Violation check_completion(const migration::Instance& inst, const migration::Alpha& alpha, migration::Bars bars,
                           const migration::Blocks& blocks, migration::Disjointness reading,
                           const std::vector<SourcedPath>& fixed, const std::vector<SourcedPath>& found);

// The SMT methods of the migration claims: the isomorphism proofs on migration.iso.f, .g and
// .g_is_h_of_f (every reading; n = 1..4 quick, 5 standard, 7 deep), and the joint completeness
// question on migration.conclusion.tells_absence_jointly (n <= 2 quick, 3 standard and deep);
// the sizes and rlimits are catalog/migration/scope.h's kIsoSmtMaxN, kJointSmtMaxN and rlimits.
void attach_migration_smt(claims::Registry& registry);

}  // namespace topocheck::smt
