// The catalogue: every claim of the five papers, registered family by family.
//
// One folder per family (src/catalog/<family>/): claims.cc declares the family's claims through
// Claim::make (statement, location, readings, methods), scope.h holds every budget table of the
// family (sizes, case counts, solver limits: the only place a budget number lives), and inputs or
// oracles the methods share sit beside them. A claim id `<family>.<where>.<what>` is found in
// src/catalog/<family>/claims.cc by its id string.
//
// register_catalog adds every claim with the methods of the catalogue (example, exhaustive,
// random, oracle); the SMT methods are attached on top by full_registry() (registry/full_registry.h),
// which is what the CLI, the tests, the properties and the benchmarks use.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims {

void register_catalog(Registry& registry);

// One per family folder, in the order register_catalog calls them.
void register_hypercube_claims(Registry& registry);        // hypercube/claims.cc (paper 003, Algs 2-3)
void register_metacube_claims(Registry& registry);         // metacube/claims.cc (paper 003)
void register_metacube_oracle_claims(Registry& registry);  // metacube/oracle_claims.cc: thm2.optimality
void register_itm_claims(Registry& registry);              // itm/claims.cc (paper 002)
void register_itm_thm3_claims(Registry& registry);         // itm/thm3_claims.cc: itm.thm3.*
void register_migration_claims(Registry& registry);        // migration/claims.cc (paper 000)
void register_aapc_claims(Registry& registry);             // aapc/claims.cc (paper 004): schedules, bounds
void register_aapc_property_claims(Registry& registry);    // aapc/property_claims.cc: prop1..3, Section 2
void register_routing_claims(Registry& registry);          // routing/claims.cc (paper 001)
void register_wormhole_claims(Registry& registry);         // wormhole/claims.cc (paper 002, wormhole switching)

}  // namespace topocheck::claims
