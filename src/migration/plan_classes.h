// The plans the procedure of Section 4 can produce for one (S, T) and one choice of parameters,
// over every block packing, enumerated without enumerating packings (issue 5: the exhaustive
// sweeps at n = 5, where one (S, T) has up to 1.2e9 packings).
//
// Why this is exhaustive. The procedure sees the blocks only through its HAMMING-PATH calls
// (migrate_with), and HAMMING-PATH(a, b) under a packing P returns the first Hamming path from a
// to b, in the tie-break's lexicographic order of dimension sequences, none of whose links is a
// block link of P (its depth-first search marks a node dead only when no block-free monotone path
// leaves it, which does not depend on how the node was reached), or none. So the plan of P is a
// function of its script: the outcome of each call, in the order the procedure makes them (which
// call comes next is a function of the earlier outcomes). Outcome i of call (a, b) (the i-th
// Hamming path pi_i, or i = d! for none) happens under P exactly when
//   (free)  no link of pi_i is a block link of P, and
//   (hit)   every pi_j, j < i, has a link that is a block link of P.
// A script is achievable when some packing meets the constraints of all its calls. The scripts
// are enumerated depth first, call by call in the procedure's order and outcomes in order, and a
// prefix is extended only while it is achievable; so every achievable script is visited exactly
// once (distinct scripts give distinct outcomes of some call), in lexicographic order, and every
// packing's script is among them.
//
// Achievability is decided exactly by a search for a witness packing: blocks are the subcubes of
// dimension >= 1 outside S and T with no (free) link inside; while some (hit) path has no block
// link, branch over every such block disjoint from those chosen that contains a link of that
// path. A packing meeting the constraints contains, for each unmet path, a block of that kind,
// so the search finds one (failed states (nodes used, links blocked) are remembered: their
// future does not depend on how they were reached). The witness is a packing of its own, so the
// sweeps run the real procedure on it (migrate) and judge that plan.
//
// Which packings of a class to hand the completeness oracle: see for_each_minimal_packing.
//
// Preconditions: n <= 6 (links are bits of a 384-bit set); params valid for the instance.
// Cost: one migrate_with per node of the script tree plus a witness search per extension (the
// parent's witness is tried first, and suffices for the first outcome of most calls).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "migration/migration.h"

namespace topocheck::migration {

inline constexpr int kPlanClassesMaxN = 6;

// The Hamming paths from a to b in the tie-break's order (ascending: hamming_paths' order).
std::vector<Path> hamming_paths_in_order(Node a, Node b, TieBreak tie);

struct PlanClass {
  std::vector<int> script;  // outcome index of each call, in call order (d! = none)
  Blocks witness;           // a packing whose calls have exactly these outcomes
};

// The outcome script of a packing (what migrate(inst, blocks, params) sees).
std::vector<int> script_of(const Instance& inst, const Params& params, const Blocks& blocks);

// Every achievable script of (inst, params), in lexicographic order, each once. The extension
// sequence (params.ext_sequence, per_b_sequence) changes no call: the classes are the same for
// every sequence. `visit` returns true to stop; returns true when it stopped.
bool for_each_plan_class(const Instance& inst, const Params& params,
                         const std::function<bool(const PlanClass&)>& visit);

// Every packing of the class of `script` that is locally minimal (no block can be dropped or
// replaced by a smaller subcube without changing the script), and possibly a few more, each
// once. For a question monotone in the block links (a block-free path exists: the BFS and Z3
// oracles of the conclusion), it holds for some packing of the class iff it holds for one of
// these: shrinking a block of any packing of the class only unblocks links, keeps every (free)
// constraint, and can be repeated until every block is needed for some (hit) constraint; and a
// packing whose every block is needed is found by the branching above (each branch picks a block
// of it for the first unmet path, and a sub-packing meeting every constraint is the whole).
// `visit` returns true to stop.
bool for_each_minimal_packing(const Instance& inst, const Params& params, const std::vector<int>& script,
                              const std::function<bool(const Blocks&)>& visit);

// The parameter grid of the exhaustive sweeps, without the extension sequence (which changes no
// HAMMING-PATH call): every alpha (outermost), both tie-breaks, every k in C when |C| >= 2 (else
// the default -1), and, when |C| = 1 (Section 4.2), both picks of p and both readings of X
// (pick innermost). Each entry has ext_sequence empty; all_sequences lists the sequences.
std::vector<Params> parameter_grid(const Instance& inst);
// Every order of the dimensions of `mask`, lexicographically (ascending first).
std::vector<std::vector<int>> all_sequences(uint64_t mask);

}  // namespace topocheck::migration
