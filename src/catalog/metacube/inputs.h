// The stored inputs of the Metacube claims, parsed and named: {"k": 1, "m": 1} as params and
// {"s": "010", "t": "101"} (addresses as metacube::Metacube::parse_fields reads them: class
// field first, then M[h-1] ... M[0]) as input, the shape of every Metacube corpus case and of the
// counterexamples the exhaustive and random methods report. Shared by the Metacube claims
// (catalog/metacube/*_claims.cc, pair_methods.cc).
//
// Untrusted input: every function returns an invalid-argument error naming the field
// ("params.k must be an integer", "input.s: ...") and never throws.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "catalog/metacube/scope.h"
#include "core/node.h"
#include "core/status.h"
#include "metacube/metacube.h"

namespace topocheck::claims {

// MC(params.k, params.m).
Result<metacube::Metacube> parse_mc(const nlohmann::json& params);
// The address input[key] of `mc`.
Result<Node> parse_mc_node(const metacube::Metacube& mc, const nlohmann::json& input, const char* key);

// Two distinct addresses input.s, input.t of `mc`.
struct McPairInput {
  metacube::Metacube mc;
  Node s, t;
};
Result<McPairInput> parse_mc_pair_nodes(const metacube::Metacube& mc, const nlohmann::json& input);
// parse_mc, then parse_mc_pair_nodes.
Result<McPairInput> parse_mc_pair(const nlohmann::json& params, const nlohmann::json& input);

// A counterexample in the stored shape: params {k, m}, input {s, t}.
Counterexample mc_pair_counterexample(const metacube::Metacube& mc, Node s, Node t, std::string violation,
                                      nlohmann::json witness);

// "MC(1,1), MC(1,2), MC(2,1)".
std::string km_list(const std::vector<metacube_scope::KM>& list);

}  // namespace topocheck::claims
