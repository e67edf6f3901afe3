// The catalogue: every claim of the five papers, registered family by family.
//
// One folder per family (src/catalog/<family>/), each in one shape:
//  - claims.cc: register_<family>_claims, the family's claims through Claim::make (id, paper,
//    location, statement, readings with their methods). A family whose claims pass ~600 lines
//    splits them by paper section into <part>_claims.cc files; claims.cc then lists the parts in
//    registration order and parts.h declares them (add_<part>_claims).
//  - scope.h: every budget table of the family (sizes, case counts, solver limits per budget,
//    namespace claims::<family>_scope): the only place a budget number lives.
//  - the inputs, method kits and oracles the family's claims share, beside them (inputs.h,
//    pair_methods.h, theorem_sweep.h, ...), family-local unless another folder names them.
// A claim id `<family>.<where>.<what>` is found in src/catalog/<family>/*claims.cc by its id
// string.
//
// register_catalog adds every claim with the methods of the catalogue (example, exhaustive,
// random, oracle); the SMT methods are attached on top by full_registry() (registry/full_registry.h),
// which is what the CLI, the tests, the properties and the benchmarks use. Methods never open a
// file: what they need from the ledger or the corpus they ask the RunContext for.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims {

void register_catalog(Registry& registry);

// One per family folder, in the order register_catalog calls them.
void register_hypercube_claims(Registry& registry);  // hypercube/ (paper 003, Algs 2-3; paper 001, e-cube)
void register_metacube_claims(Registry& registry);   // metacube/ (paper 003)
void register_itm_claims(Registry& registry);        // itm/ (paper 002)
void register_migration_claims(Registry& registry);  // migration/ (paper 000)
void register_aapc_claims(Registry& registry);       // aapc/ (paper 004): Section 3, then Section 2
void register_routing_claims(Registry& registry);    // routing/ (paper 001)
void register_wormhole_claims(Registry& registry);   // wormhole/ (paper 002, wormhole switching)

}  // namespace topocheck::claims
