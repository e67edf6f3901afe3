// The lost block layout of Fig. 2 (Chen and Tzeng, paper 000, Section 4.1), found with Z3.
//
// The example (S = 0010**, T = 1*0*00, alpha(0) = 2, alpha(1) = 4, h-extension sequence 2, 4)
// prints the two HAMMING-PATH results of u = 001011, u's regular-extended path, and the two
// aggressive paths L^1, L^2 of v = 001000, but the figure that held the blocks is lost: the text
// says only that "all the remaining nodes in H6 are block nodes". This file searches for a
// partition of the remaining nodes (every node of Q_6 outside S and T) into subcubes under which
// migration::migrate outputs exactly the printed paths, for a given tie-break and link k.
//
// The printed data is read from the corpus case (corpus/migration/examples/fig2.json), never
// written here: smt/ and src/ hold no paper output.
//
// Encoding (propositional, Booleans and cardinality constraints):
//  - one Boolean b_c per candidate block c: every subcube of Q_n with no node in S or T;
//  - cover: for every remaining node r, exactly one chosen c contains r (atleast/atmost 1);
//  - block link (a, b) := OR of b_c over the candidates containing both a and b (false when none,
//    e.g. when a or b lies in S or T: blocks avoid them);
//  - for every HAMMING-PATH call (a, b) the procedure makes for u and v (computed from
//    migration::f, g, d_sets and params.k as migrate does, not read off the printed paths), with
//    P* the printed path's segment from a to b: P* has no block link, and every Hamming path from
//    a to b that comes before P* in the tie-break's order has at least one. migration::hamming_path
//    returns the first block-free path of that order (depth first, dimensions in priority order);
//    the ascending order is migration::hamming_paths' lexicographic order, and the descending one
//    is its exact reverse (every sequence is a permutation of the same set, so the first differing
//    position decides both orders, with opposite signs);
//  - optionally (require_all_nodes) every call of every other node of S has a block-free Hamming
//    path, so the procedure succeeds everywhere, as the figure shows ("all the migration paths
//    between S and T are given in the figure");
//  - optionally minimize the number of chosen blocks (z3::optimize).
// A model is only a candidate: it is decoded into migration::Blocks, validated (validate_blocks and
// a naive exact-cover check), and migrate is run with them; only when migrate reproduces every
// printed path is it reported found. A model migrate disagrees with is recorded in `rejected` and
// excluded, and the search goes on (up to max_models).
// Unsat: no partition reproduces the printed paths under this tie-break and k.
//
// Found (Z3 4.8.12): a partition exists for each tie-break and each k in C = {5, 3}, 6 blocks at
// the fewest (ascending: **0*1*,1*1***,**0*01,011***,0*0*00,0011**; descending:
// 01****,1*1***,00*1**,1*0*1*,0000**,1*0*01); one for all four at once needs 7
// (01****,1*1***,*00*1*,000*0*,0011**,1*0*01,110*1*, stored in the corpus case). Under each the
// other nodes of S get both paths too.
//
// Cost at n = 6: 457 candidate blocks (of the 729 subcubes of Q_6) for Fig. 2's S and T; each
// search, minimization included, takes well under a second (migration_fig2_test prints them).
// Errors: a z3::exception is caught here and returned as kError with its message. A printed path
// that does not contain a call's two ends as a Hamming segment makes fig2_calls fail; the search
// then reports kNone (no layout can make HAMMING-PATH return it) with the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "migration/migration.h"

namespace topocheck::smt {

// The Fig. 2 example as printed: the corpus case's input (S, T, alpha, ext_sequence, u, v and,
// optionally, blocks) and the printed paths from its expected output.
struct Fig2Example {
  migration::Instance inst;
  migration::Alpha alpha;
  std::vector<int> ext_sequence;
  Node u, v;
  Path u_to_w;        // HAMMING-PATH(u, w) as printed
  Path gu_to_w;       // HAMMING-PATH(g(u), w) as printed
  Path u_second;      // u -> x -> f(u) -> h(f(u)) = g(u) as printed
  Path v_l1, v_l2;    // L^1 and L^2
  std::optional<migration::Blocks> blocks;  // input.blocks when the case stores one
};
// Errors name the field ("input.S", "expected.u.L^1", ...).
Result<Fig2Example> fig2_from_json(const nlohmann::json& input, const nlohmann::json& expected);

// The example's parameters: its alpha and sequence, Bars::paper(), the given tie-break and k.
migration::Params fig2_params(const Fig2Example& ex, migration::TieBreak tie, int k);

// The HAMMING-PATH calls Section 4.1 makes for node s (as migrate makes them): Case a
// (D_f(S|s) != {}): (s, w), (g(s), w), (s, x), (f(s), x) with w = s XOR D_g(T|s) and x = s XOR
// (D_f(T|s) u C) (or D_g, by params.x_set); Case b: (s, g(s)^(k)), (g(s), s^(k)); none when
// s = g(s). Precondition: |C(S,T)| != 1 (Section 4.2 is not covered), aborts otherwise.
std::vector<std::pair<Node, Node>> hamming_calls(const migration::Instance& inst, const migration::Params& params,
                                                 Node s);

// One call of u or v with the result the paper prints for it: the segment from `from` to `to`
// of the first printed path of that node holding both.
struct Fig2Call {
  Node from, to;
  Path printed;
};
// Errors when a call's ends are not both on one printed path of the node, or the segment between
// them is not a Hamming path from `from` to `to`.
Result<std::vector<Fig2Call>> fig2_calls(const Fig2Example& ex, const migration::Params& params);

// Runs migrate with `blocks` and compares the plans of u and v with the printed paths: u's
// aggressive path is u_to_w followed by gu_to_w reversed, its regular-extended path u_second
// (with the extension starting at f(u)); v's two paths are {L^1, L^2}. Returns the differences
// in words; empty: reproduced exactly.
std::vector<std::string> fig2_differences(const Fig2Example& ex, const migration::Blocks& blocks,
                                          const migration::Params& params);

// Theorem 1 (and Section 5's length bound) on a plan with the checkers of migration_checks.h:
// valid paths, two paths per node, each pair disjoint and all paths pairwise disjoint (every
// disjointness reading), no block link, no link of T outside an extension, length <= zeta + 2
// beta. Returns the violations, each prefixed by the check's name; empty: all hold.
std::vector<std::string> theorem1_violations(const migration::Plan& plan);

enum class Fig2Outcome { kFound, kNone, kUnknown, kError };
std::string to_string(Fig2Outcome outcome);  // "found", "none", "unknown", "error"

struct Fig2SearchOptions {
  migration::TieBreak tie = migration::TieBreak::kAscending;
  int k = -1;                      // the link k of Case b (-1: smallest of C, as migrate)
  // Instead of `tie` and `k`: one partition that reproduces the printed paths under every
  // tie-break and every k in C(S,T) at once (the constraints of each combination conjoined, and
  // every combination confirmed by migrate).
  bool every_tie_and_k = false;
  bool require_all_nodes = false;  // every call of every node of S has a block-free path
  bool minimize = false;           // fewest blocks (z3::optimize)
  claims::SolverLimits limits;     // timeout_ms applies to each check; rlimit to the plain solver
  int max_models = 16;             // candidates migrate may reject before giving up (kError)
};

struct Fig2SearchResult {
  Fig2Outcome outcome = Fig2Outcome::kError;
  migration::Blocks blocks;           // kFound: the partition, confirmed by migrate
  bool minimal = false;               // kFound with minimize: no partition has fewer blocks
  int candidates = 0;                 // candidate blocks (Boolean variables)
  int calls = 0;                      // HAMMING-PATH calls constrained (u and v, per combination)
  int models = 0;                     // models decoded, the confirmed one included
  std::vector<std::string> rejected;  // models migrate did not confirm, and why
  std::string reason;                 // kNone / kUnknown / kError: why
  double seconds = 0;
};

Fig2SearchResult search_fig2_blocks(const Fig2Example& ex, const Fig2SearchOptions& options);

}  // namespace topocheck::smt
