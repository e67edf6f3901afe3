// The parts of the Metacube claims (Li, Peng, Chu, "Disjoint Paths in Metacube", paper 003), one
// per paper section and file, in the order register_metacube_claims (catalog/metacube/claims.cc)
// adds them. Family-local: only catalog/metacube/ includes it. Budgets: catalog/metacube/scope.h;
// the pair-by-pair methods: catalog/metacube/pair_methods.h; the stored inputs:
// catalog/metacube/inputs.h.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::metacube_parts {

inline constexpr const char* kPaper = "003_870397c57c58895c.txt";

void add_example_claims(Registry& registry);       // section2_claims.cc: metacube.examples
void add_thm1_claims(Registry& registry);          // section2_claims.cc: metacube.thm1.*
void add_alg1_claims(Registry& registry);          // section2_claims.cc: metacube.alg1.route
void add_thm2_claims(Registry& registry);          // thm2_claims.cc: metacube.thm2.* (but optimality)
void add_thm2_proof_claims(Registry& registry);    // thm2_claims.cc: metacube.thm2.proof.*
void add_symmetry_claims(Registry& registry);      // thm2_claims.cc: metacube.symmetry.*
void add_connectivity_claims(Registry& registry);  // oracle_claims.cc: metacube.connectivity
void add_optimality_claims(Registry& registry);    // oracle_claims.cc: metacube.thm2.optimality

}  // namespace topocheck::claims::metacube_parts
