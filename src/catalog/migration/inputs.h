// The inputs of the migration claims (paper 000) and the sweep the lemma-style claims share.
// Family-local: only catalog/migration/ includes it.
//
//  - Input: one input of the procedure (S, T, every parameter, the blocks) and its corpus form
//    {"S", "T", "alpha", "sequence", "tie_break", "k", "pick_p", "x", "blocks"} (input_json,
//    input_from_json; errors name the field).
//  - for_each_instance: every pair (S, T) of subcubes of Q_n of equal dimension, S != T,
//    dimension by dimension.
//  - LemmaCtx: one (S, T, alpha), the input of every lemma, isomorphism and counting claim, in the
//    corpus form {"S", "T", "alpha"}; lemma_sweep runs a LemmaCheck over every (S, T, alpha) of
//    n = 1..max_n, smallest n first, and lemma_reading makes it a reading (budgets:
//    catalog/migration/scope.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"

namespace topocheck::claims::migration_parts {

inline uint64_t bit(int i) { return uint64_t{1} << i; }

struct Input {
  migration::Instance inst;
  migration::Params params;
  migration::Blocks blocks;
};

nlohmann::json input_json(const Input& in);
// input[key] as a string; "input.<key> must be a string" otherwise.
Result<std::string> get_string(const nlohmann::json& input, const char* key);
Result<Input> input_from_json(const nlohmann::json& input);

// Every pair (S, T) of subcubes of Q_n with equal dimension, S != T; `visit` returns true to stop
// (and then so does this).
bool for_each_instance(int n, const std::function<bool(const migration::Instance&)>& visit);

// One (S, T, alpha).
struct LemmaCtx {
  migration::Instance inst;
  migration::Alpha alpha;
};
// {"S", "T", "alpha"} of a stored case.
Result<LemmaCtx> lemma_ctx_of(const nlohmann::json& input);

// A lemma check on one (S, T, alpha): the first violation over all its nodes and paths.
using LemmaCheck = std::function<Violation(const LemmaCtx&)>;

// Every (S, T, alpha) of n = 1..max_n, smallest n first; `what` ends the scope ("every path of
// each kind"), `params` is added to each counterexample's params.
MethodResult lemma_sweep(const RunContext& ctx, const LemmaCheck& check, int max_n,
                         const std::string& what = "every path of each kind",
                         const nlohmann::json& params = nlohmann::json::object());
// A reading decided by lemma_sweep up to migration_scope::kLemmaMaxN and replayed by `check`.
Reading lemma_reading(std::string name, std::string description, LemmaCheck check);

// The three readings of "disjoint" in words.
std::string d_words(migration::Disjointness d);

}  // namespace topocheck::claims::migration_parts
