// Z3 proofs of the hypercube claims for EVERY dimension a 64-bit address holds: n is itself a
// variable, 1 <= n <= 63, and so are x, y (constrained to n bits: their bits n..63 are zero) and
// the path indices. One unsat answer covers every n in 1..63 at once, where smt/hypercube_smt.h
// proves one fixed n per query.
//
// What is encoded (quantifier-free bit-vectors of width 64; positions and path indices are
// variables too, except the e-cube hop count, a sum unrolled to 63 steps each guarded by
// "step <= n"):
//   Algorithm 2 (hypercube.alg2.disjoint, .lengths): path i (symbolic, i < n) is x, then
//   v(i, j) = x' XOR (u AND R(i, j)) for j = 0..n, where x' = x XOR 2^i, u = x' XOR y and R(i, j)
//   the dimensions flipped after j steps of Algorithm 3: {(i+1) mod n, ..., (i+j) mod n}, the
//   low j bits rotated left by (i+1) mod n within n bits (the variant's schedule:
//   kBrokenAscendingOrder has the low j bits unrotated, kBrokenMissingFlip stops at j = n - 1).
//   The nodes of path i are x and the v(i, j); positions where no bit flips repeat a node and are
//   not listed.
//     disjoint: some v(i, j) that is neither x nor the path's last node v(i, n) (an internal node)
//               equals x or some v(i', j') of another path i' != i;
//     endpoint: v(i, n) != y;
//     simple:   v(i, j) = x for some j < n (x listed twice on an open path), or two listed
//               positions j < j' of path i holding the same node (a flip between them: u AND
//               (R(i, j') minus R(i, j)) != 0);
//     valid:    a listed hop v(i, j-1) -> v(i, j) that does not differ in exactly one bit.
//     lengths:  |Z_i| (the flips of path i, steps j = 1..n with bit (i+j) mod n of u set) differs
//               from d - 1 where bit i of x XOR y is set, d + 1 where it is not (d = H(x, y)).
//   The e-cube route (hypercube.ecube.shortest) from x to y visits x XOR (d AND (2^t - 1)) for
//   t = 0..n, d = x XOR y (each step t fixes bit t - 1 where x and y differ): a violation is a hop
//   that is not one bit, an end other than y, or a hop count other than popcount(d). The broken
//   variant kBrokenFirstHop flips dimension 0 first when x and y agree there (a detour).
// Decision: one query per property group and range of n (prove_for_sizes halves a range Z3 cannot
// decide within the limits); unsat proves the group for every n of the range. A model is decoded
// into (n, x, y) and judged by hypercube_checks.h at that n (the solver is never the judge): a model
// the checker accepts is an error of the encoding, reported as such.
// Limits: SolverLimits::rlimit per query (0 = none), timeout_ms a wall-clock net per query; Z3's
// unknown is kUnknown with its reason, never kProved.
// Measured (Z3 4.8.12): the e-cube groups for every n at once in about 1.4 s; Algorithm 2's
// groups for n = 1..16 in about 5 s; at n = 63 alone disjointness takes 4.4 s and the lengths
// 27 s, while the whole range 1..63 in one query does not finish in 30 s for those two groups.
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

inline constexpr int kSymbolicMaxN = 63;  // every n in 1..63: the addresses fit 64 bits with room

enum class SymbolicClaim { kAlg2Disjoint, kAlg2Lengths, kEcubeShortest };
std::string to_string(SymbolicClaim claim);  // "hypercube.alg2.disjoint", ...

struct SymbolicGroup {
  std::string name;  // "disjoint", "endpoint", ...
  SmtStatus status = SmtStatus::kError;  // kProved: every size asked for; kUnknown: some inconclusive
  std::vector<std::pair<int, int>> proved, inconclusive;  // ranges of n, ascending
  std::string reason;  // Z3's reason for the last unknown
  uint64_t rlimit_used = 0;
  double seconds = 0;
};

struct SymbolicResult {
  SmtStatus status = SmtStatus::kError;  // kProved only when every group is unsat
  std::vector<SymbolicGroup> groups;
  // Set iff status == kCounterexample: the model, at its own n, and the checker's words on it.
  int n = 0;
  std::optional<Node> x, y;
  std::string violation;
  std::string reason;  // for kError / kUnknown: which group and why
};

// Proves `claim` for every n in lo..hi (1 <= lo <= hi <= kSymbolicMaxN), or returns a model
// confirmed by the claim's checker at its n. Each group is first asked for the whole range in one
// query; with `split`, a range Z3 cannot decide within `limits` (per query) is halved, down to
// single sizes, and the group reports which ranges are proved and which stayed inconclusive (the
// result is then kUnknown, its reason naming them). p3 applies to the Algorithm 2 claims,
// ecube_broken_first_hop to the e-cube one.
SymbolicResult prove_for_sizes(SymbolicClaim claim, int lo, int hi, const claims::SolverLimits& limits,
                               hypercube::P3Variant p3 = hypercube::P3Variant::kAsPrinted,
                               bool ecube_broken_first_hop = false, bool split = true);
// prove_for_sizes over every n in 1..kSymbolicMaxN.
SymbolicResult prove_for_every_n(SymbolicClaim claim, const claims::SolverLimits& limits,
                                 hypercube::P3Variant p3 = hypercube::P3Variant::kAsPrinted,
                                 bool ecube_broken_first_hop = false);

// "1..31, 33..63" ("none" when empty).
std::string ranges_text(const std::vector<std::pair<int, int>>& ranges);

// The encoding's nodes of path i of Algorithm 2 (x first, then the listed v(i, j)) evaluated by Z3
// at concrete (n, x, y, i); for tests, against hypercube::cube_disjoint_paths.
std::vector<uint64_t> alg2_encoded_path(int n, uint64_t x, uint64_t y, int i, hypercube::P3Variant p3);

}  // namespace topocheck::smt
