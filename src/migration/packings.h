// Block packings for the exhaustive sweeps of the migration claims.
//
// A packing is a set of pairwise disjoint subcubes of dimension >= 1 outside S and T (blocks of
// dimension 0 have no links and change nothing). for_each_packing visits every packing of an
// instance (n <= 6), the empty one first; with only_hamming_relevant, only packings of blocks that
// meet a link some HAMMING-PATH call of the procedure can use (hamming_spans: the subcube spanned
// by the two ends of each call, for every alpha, k, p and reading of X). Every packing P gives
// the same plan as its relevant part {B in P : B meets a span} (the procedure sees blocks only
// through HAMMING-PATH, and a Hamming path from a to b stays in their span), and the same
// verdicts of the plan checkers (a plan's links lie in the spans, in T, or are Section 4.2's link
// k); migration_test checks this for every packing of every instance up to n = 4. The theorem
// sweeps no longer enumerate packings: they go by plan class (plan_classes.h), which reaches n = 5.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "core/subcube.h"
#include "migration/migration.h"

namespace topocheck::migration {

// Every subcube of Q_n with d '*'s, ascending by (free mask, values).
std::vector<Subcube> subcubes(int n, int d);
// The spans (fixed values, free mask) of every HAMMING-PATH call the procedure can make.
std::vector<std::pair<uint64_t, uint64_t>> hamming_spans(const Instance& inst);
// The subcube contains a link of some span.
bool meets_a_span(const Subcube& c, const std::vector<std::pair<uint64_t, uint64_t>>& spans);
// `visit` returns true to stop; returns true when it stopped.
bool for_each_packing(const Instance& inst, const std::function<bool(const Blocks&)>& visit,
                      bool only_hamming_relevant = false);

}  // namespace topocheck::migration
