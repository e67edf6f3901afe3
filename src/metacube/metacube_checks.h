// One-input checks of the Metacube claims (Theorem 2, split into its parts): run Algorithm 4,
// judge the paths with core's naive checkers. Shared by every method (examples, exhaustive,
// random, SMT model confirmation, corpus replay, benchmarks).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/checks.h"
#include "metacube/disjoint.h"

namespace topocheck::metacube {

// metacube.thm2.valid: k + m paths, each valid in MC(k, m), from s to t, and simple.
Violation check_thm2_valid(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// metacube.thm2.disjoint: valid (as above) and internally node-disjoint.
Violation check_thm2_disjoint(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// metacube.thm2.length: every path is no longer than H(s, t) + 2^k + m + 5.
Violation check_thm2_length(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// The proof's per-case bound: case 0: H + 6; case 1: H + 2^k + 4; case 2: H + 2^k + 4 + max|Z_i|
// with Z_i the class paths c_s^(i) -> c_t of Algorithm 2 in the k-cube (max|Z_i| = d + 1 if
// d < k, else d - 1, d = H_k(s, t)).
int case_bound(const Metacube& mc, Node s, Node t);
Violation check_thm2_case_bound(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// Fault tolerance (Section 4 / abstract): for every set F of at most k+m-1 nodes other than s and t,
// some constructed path avoids F. Equivalent (hitting set) to: the paths cannot all be hit by k+m-1
// nodes; checked as "no k+m-1 internal nodes meet every path", by exact search over the paths'
// internal nodes (small). Requires valid paths.
Violation check_fault_tolerance(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);

// Run Algorithm 4 with `options` and apply one of the checks above.
enum class Thm2Part { kValid, kDisjoint, kLength, kCaseBound, kFaultTolerance };
Violation check_alg4(const Metacube& mc, Node s, Node t, const Alg4Options& options, Thm2Part part);

// A claim's judgement of one input: whether its premise applied (the objects it speaks of exist)
// and, if it did, the violation of the claim's own property. Converts from a Violation (premise
// applies).
struct Judgement {
  Violation violation;
  bool applicable = true;
  std::string why_not;  // when !applicable: why the premise did not apply
  Judgement() = default;
  Judgement(Violation v) : violation(std::move(v)) {}  // NOLINT(google-explicit-constructor)
  Judgement(std::nullopt_t) {}                          // NOLINT(google-explicit-constructor)
  static Judgement not_applicable(std::string why) {
    Judgement j;
    j.applicable = false;
    j.why_not = std::move(why);
    return j;
  }
};

// The premise of the disjointness and fault-tolerance claims judged as walks: every path is a
// walk of MC(k, m) (each hop an edge) from s to t. A walk that repeats a node (thm2.valid's
// failure) still passes through a definite set of nodes.
Violation check_walks(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// metacube.thm2.disjoint by its own property, on what stays meaningful when a path is not simple:
// two routes whose node sets, less s and t, meet. A walk's route is the walk up to its first
// arrival at t (a message along it has arrived; a walk that overshoots t and comes back is
// thm2.valid's failure, not this claim's). Each route is reduced to s, its distinct nodes other
// than s and t in order of first visit, t, and the reduced routes are judged by core's
// check_internally_node_disjoint (positions in its message are in the reduced routes).
// Applicable when there are k+m paths and each is a walk from s to t (check_walks); otherwise not
// applicable.
Judgement judge_thm2_shared_node(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// Fault tolerance by its own property: a set of at most k+m-1 nodes other than s and t that meets
// every constructed route (each walk up to its first arrival at t: its node set). Applicable when each path is a walk from s to
// t (check_walks); the exact hitting-set search of check_fault_tolerance.
Judgement judge_fault_cut(const Metacube& mc, Node s, Node t, const std::vector<Path>& paths);
// Run Algorithm 4 and judge part `part` by its own property: kDisjoint by judge_thm2_shared_node,
// kFaultTolerance by judge_fault_cut, the others as check_alg4 (always applicable).
Judgement judge_alg4(const Metacube& mc, Node s, Node t, const Alg4Options& options, Thm2Part part);

// Translation by a class-zero address a (class field 0): u -> u XOR a.
Node translate(Node u, Node a);

}  // namespace topocheck::metacube
