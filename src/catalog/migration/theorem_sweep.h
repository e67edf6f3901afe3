// Theorems 1 and 2 of the migration paper (000), judged plan by plan: the theorem checks (every
// property the theorems and the conclusion state of the procedure's plan), the one exhaustive
// sweep per situation and budget that judges all of them at once, the random method, and the
// readings built on them. Family-local: only catalog/migration/ includes it.
//
// Exhaustive sweeps: n = 1, 2, ... (fewest dimensions first, so the first violation is among the
// smallest), every pair (S, T) of subcubes of equal dimension (S != T), every alpha, both
// tie-breaks of HAMMING-PATH, every k in C (Case b), both picks of p and (Section 4.2) both
// readings of X, every packing of blocks (sets of pairwise disjoint subcubes of dimension >= 1
// outside S and T; 0-dimensional blocks have no links and change nothing) and every h-extension
// sequence. Packings are swept by plan class (migration/plan_classes.h): the procedure sees the
// blocks only through the outcomes of its HAMMING-PATH calls, so every achievable outcome script
// is run once, on a witness packing that produces it, and judged like any input; the plan
// checkers judge the plan only (and no-block-link the links the plan uses, all inside HAMMING-PATH
// spans or touching S or T, so decided by the script too). The completeness oracle (absence-*)
// also depends on the other block links: it is asked, for a class whose plan leaves a node
// short, on every locally minimal packing of the class (for_each_minimal_packing: a block-free
// path under some packing of the class is block-free under one of them). Order: n, (S, T),
// alpha, tie-break, k, X, p, script (lexicographic), sequence. src/migration/plan_classes_test.cc
// checks every part of this against the sweep over every packing up to n = 4. One sweep per
// situation and budget judges every theorem reading at once (cached; the sizes per budget:
// catalog/migration/scope.h).
#pragma once

#include <string>
#include <vector>

#include "claims/claim.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"

namespace topocheck::claims::migration_parts {

enum class Situation { k41, k42 };  // |C| = 0 or >= 2; |C| = 1

// The readings of one theorem check: per situation (Theorem 1: 4.1, one reading, named
// `name_prefix` or "as-printed"; Theorem 2: 4.2 with both readings of X, named
// "<name_prefix>-XD_g" / "XD_g" ...). `method` kExhaustive: the sweep plus random inputs;
// otherwise the sweep alone, reported as `method` (the BFS oracle of the absence-* checks).
std::vector<Reading> theorem_readings(Situation s, const std::string& check, const std::string& words,
                                      const std::string& name_prefix = "", Method method = Method::kExhaustive);

// Replays a joint counterexample without a solver: the stored paths (two per node u != g(u) of
// S, in the order of nodes_of(S)) are the certificate, judged by the naive checkers.
CaseFn joint_case_fn(Situation s, migration::Disjointness d);

}  // namespace topocheck::claims::migration_parts
