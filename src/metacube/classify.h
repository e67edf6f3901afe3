// Which printed step of Algorithm 4 produces each of its failures: the classification behind the
// `corrected` reading (docs/findings/metacube.md, "The corrected construction").
//
// For every pair of a sweep (s with every M field zero, as the exhaustive sweeps take it, every
// t != s) Algorithm 4 runs under the given options with its steps recorded, and core's checkers
// judge the paths (check_thm2_valid, check_thm2_disjoint, check_thm2_length). A pair they reject is
// then described, not judged again: for validity, the node a path repeats and the steps that
// wrote its two visits; for disjointness, the first node two paths share (other than s and t) and
// the step of each path that wrote it; for length, the longest path's last step. Failures are
// grouped by (case, kind, the two paths' roles, the two steps); each group keeps its count and its
// first pair in sweep order (the smallest s, then the smallest t).
//
// Roles: "global" for P_i with i < k (first hop a cross-edge), "local" for i >= k.
// Cost: one construction and the three checks per pair; MC(2,2) (4,092 pairs with s's M fields
// zero) takes well under a second, MC(3,1) (16,376) about a second.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metacube/disjoint.h"
#include "metacube/metacube.h"

namespace topocheck::metacube {

struct FailureClass {
  int case_number = 0;
  std::string kind;  // "repeat" (thm2.valid), "shared" (thm2.disjoint) or "length" (thm2.length)
  std::string role_a, role_b;  // roles of the two paths (for "repeat" and "length" the same path)
  std::string step_a, step_b;  // the steps that wrote the node (first visit / second visit)
  uint64_t count = 0;
  // The first pair in sweep order, its paths' indices and the node (for "length": the path's length).
  Node s, t;
  int path_a = 0, path_b = 0;
  std::string node;
};

struct Classification {
  uint64_t pairs = 0;       // pairs swept
  uint64_t failing = 0;     // pairs with at least one failure (each counted once)
  std::vector<FailureClass> classes;  // by count, largest first; ties by (case, kind, steps)
};

// Every pair of mc with s's M fields zero. options.record_steps is forced on and options.repair
// must be off (TC_CHECK): the repair's completion has no printed steps.
Classification classify_alg4(const Metacube& mc, const Alg4Options& options);

// How close one construction keeps to another (the corrected one to the printed one), over the
// same pairs: paths P_i equal node for node, pairs whose paths are all equal, and the difference
// of the longest path (a's minus b's; the path lengths as walks, whatever their validity).
struct Closeness {
  uint64_t pairs = 0;
  uint64_t paths = 0, identical_paths = 0;
  uint64_t identical_pairs = 0;
  int64_t longest_difference_sum = 0;
  int longest_difference_min = 0, longest_difference_max = 0;
};
Closeness compare_alg4(const Metacube& mc, const Alg4Options& a, const Alg4Options& b);

}  // namespace topocheck::metacube
