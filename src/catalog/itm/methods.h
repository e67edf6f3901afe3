// Methods over ITMs shared by the claims of papers/002 (catalog/itm/claims.cc, catalog/wormhole/claims.cc): a
// claim reading is an ItmCheck (one ITM in, a violation or nullopt out), swept exhaustively over
// every ITM up to isomorphism, over random AddNode sequences with shrinking, and replayed from a
// corpus case.
//
//  - exhaustive_itms: every ITM of `rule` with 3..max_n nodes up to isomorphism (itm/enumerate.h),
//    fewest nodes first; levels of itm_scope::kParallelFromN nodes or more on every core, a
//    violation found there looked up again sequentially so that the stored counterexample is the
//    enumeration's first, whatever the threads did.
//  - random_itms: `cases` random AddNode sequences (itm/itm_gen.h, up to max_nodes nodes,
//    shrinking that drops and renumbers nodes), then an exhaustive look below the shrunk size
//    (up to itm_scope::kRandomFallbackMaxN nodes) for a smaller counterexample.
//  - itm_case_fn: replays a case {params: {rule, n}, input: {steps}} through the check.
// Counterexamples: params {n, rule}, input {steps}, witness = base_witness (edges, exterior
// edges, circular order when it exists) plus what the check adds.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "itm/itm.h"

namespace topocheck::claims {

// A check of one ITM; `witness` (may be null) receives what show and replay display.
using ItmCheck = std::function<Violation(const itm::Itm&, nlohmann::json* witness)>;
// The claim's premise beyond "is an ITM" (e.g. Theorem 5's circular order from Lemma 4's
// exterior cycle): an ITM on which it fails is counted among the cases but not the applicable
// ones, and the check is not asked (the claim says nothing there). Null: every ITM applies.
using ItmPremise = std::function<bool(const itm::Itm&)>;

nlohmann::json edges_json(const itm::Graph& g);
nlohmann::json base_witness(const itm::Itm& itm);
Counterexample itm_counterexample(const itm::Itm& itm, std::string violation, nlohmann::json witness);
std::optional<Counterexample> run_check(const ItmCheck& check, const itm::Itm& itm);

// With a premise, MethodResult::applicable counts the ITMs it holds on (replay: a case whose ITM
// misses the premise shows no violation, its witness saying so).
MethodResult exhaustive_itms(const RunContext& ctx, itm::Rule rule, int max_n, const ItmCheck& check,
                             const ItmPremise& premise = nullptr);
MethodResult random_itms(const RunContext& ctx, itm::Rule rule, int max_nodes, const ItmCheck& check, int cases,
                         const ItmPremise& premise = nullptr);
CaseFn itm_case_fn(itm::Rule rule, ItmCheck check, ItmPremise premise = nullptr);

}  // namespace topocheck::claims
