// The parts of the migration claims (paper 000, Chen and Tzeng, "On-Line Task Migration in
// Hypercubes Through Double Disjoint Paths"), one per paper section and file, in the order
// register_migration_claims (catalog/migration/claims.cc) adds them. Family-local: only
// catalog/migration/ includes it. Budgets: catalog/migration/scope.h; the inputs and the lemma
// sweep: catalog/migration/inputs.h; the theorem sweep: catalog/migration/theorem_sweep.h.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::migration_parts {

inline constexpr const char* kPaper = "000_545b7be81ce3b031.txt";

void add_example_claims(Registry& registry);      // example_claims.cc: migration.fig2.paths
void add_isomorphism_claims(Registry& registry);  // lemma_claims.cc: migration.iso.*
void add_lemma_claims(Registry& registry);        // lemma_claims.cc: migration.lemma1..6.*
void add_theorem_claims(Registry& registry);      // theorem_claims.cc: migration.thm1.*, migration.thm2.*
void add_conclusion_claims(Registry& registry);   // theorem_claims.cc: migration.conclusion.*
void add_hamming_claims(Registry& registry);      // procedure_claims.cc: migration.hamming.any_pair
void add_counting_claims(Registry& registry);     // procedure_claims.cc: migration.sec42.specific_nodes
void add_latency_claims(Registry& registry);      // procedure_claims.cc: migration.sec5.*

}  // namespace topocheck::claims::migration_parts
