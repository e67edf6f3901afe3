// The methods of the Metacube claims judged pair by pair (catalog/metacube/*_claims.cc): a claim
// reading is a PairCheck (MC(k,m), s, t in; a violation or nullopt out) with a PairWitness for
// show and replay, swept exhaustively over every ordered pair s != t of a list of metacubes
// (or, reduced, only the sources with zero M fields), sampled at random over metacubes of up to
// 63 address bits, and replayed from a stored case {params: {k, m}, input: {s, t}}.
// Family-local: only catalog/metacube/ includes it. The ranges per budget:
// catalog/metacube/scope.h.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/metacube/scope.h"
#include "claims/claim.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"

namespace topocheck::claims::metacube_parts {

using metacube_scope::KM;

// A check's judgement of one pair: the violation, and whether the claim's premise applied to it
// (metacube::Judgement; a Violation converts to an applicable judgement). The sweeps count the
// applicable pairs (MethodResult::applicable) and skip the others.
using PairVerdict = metacube::Judgement;
using PairCheck = std::function<PairVerdict(const metacube::Metacube&, Node, Node)>;
using PairWitness = std::function<nlohmann::json(const metacube::Metacube&, Node, Node)>;

// One metacube of an exhaustive sweep: every source, or (`reduced`) only the sources with zero M
// fields (the class-zero translation symmetry; see thm2_claims.cc).
struct SweepPart {
  KM km;
  bool reduced = false;
};

// The parts in sweep order: address width, then k (so the first violation found is the
// smallest: width, then k, then s, then t).
std::vector<SweepPart> sweep_parts(const std::vector<KM>& every_pair, const std::vector<KM>& reduced);
// "MC(1,1), MC(1,2): every s != t; MC(1,5): s with zero M fields (...), every t != s".
std::string sweep_scope(const std::vector<SweepPart>& parts);

// Every pair of the sweep in order: per part, sources ascending (all addresses, or the 2^k
// addresses with zero M fields: class c is c << (n - k)), and for each source every target t != s
// ascending. With ctx.shard, only the shard's contiguous range of the whole sequence (the slots
// t = s counted, so that the split does not depend on the check). Stops at the first violation.
MethodResult exhaustive_mc_sweep(const RunContext& ctx, const std::vector<SweepPart>& parts, const PairCheck& check,
                                 const PairWitness& witness);
// Every ordered pair s != t of the metacubes in `list`.
MethodResult exhaustive_mc_pairs(const RunContext& ctx, const std::vector<KM>& list, const PairCheck& check,
                                 const PairWitness& witness);
// Random pairs (k, m, s, t) of gen::metacube_pair with k <= max_k and up to
// metacube_scope::kRandomMaxBits address bits, `cases` of them (see run_random: seeded, shrunk).
// After shrinking, the metacubes of metacube_scope::kRandomBelow up to the shrunk one (width,
// then k; its own included) are swept exhaustively for an earlier failure. The counterexample has
// the exhaustive method's shape (params k, m; input s, t), so the corpus stores and replays it
// alike. `note` ends the scope.
MethodResult random_mc_pairs(const RunContext& ctx, int max_k, int cases, const std::string& note,
                             const PairCheck& check, const PairWitness& witness);

// A reading judged pair by pair: replayed with `check`, decided by every ordered pair s != t of
// the metacubes `range` lists at the budget (`range` must outlive the reading: a scope table).
Reading pair_reading(std::string name, std::string description, PairCheck check, PairWitness witness,
                     const PerBudget<std::vector<KM>>& range = metacube_scope::kExhaustive);

// Algorithm 4's paths under options `o`, as a witness: {"case", "paths", "notes"}.
nlohmann::json alg4_witness(const metacube::Alg4Options& o, const metacube::Metacube& mc, Node s, Node t);

}  // namespace topocheck::claims::metacube_parts
