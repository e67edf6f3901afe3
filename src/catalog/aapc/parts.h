// The parts of the AAPC claims (paper 004), one per paper section and file, in the order
// register_aapc_claims (catalog/aapc/claims.cc) adds them. Family-local: only catalog/aapc/
// includes it. Budgets: catalog/aapc/scope.h; the Section 2 method kit: catalog/aapc/fault_sets.h.
#pragma once

#include <string>

#include "aapc/aapc.h"
#include "claims/claim.h"

namespace topocheck::claims::aapc_parts {

inline constexpr const char* kPaper = "004_d7c0ed59f63b519b.txt";

// A communication model in words, as the readings state it.
std::string model_words(aapc::Model m);

// Section 3.
void add_count_claims(Registry& registry);     // count_claims.cc: aapc.af.identity, aapc.af.consistent_with_*
void add_schedule_claims(Registry& registry);  // schedule_claims.cc: aapc.{a1,a2,af}.{delivers,units}, a2.defined
void add_example_claims(Registry& registry);   // example_claims.cc: aapc.q3.*, aapc.example2.faults
void add_optimum_claims(Registry& registry);   // count_claims.cc: aapc.sec312.optimum
// Section 2.
void add_property1_claims(Registry& registry);  // property_claims.cc: aapc.prop1.*
void add_property2_claims(Registry& registry);  // property_claims.cc: aapc.prop2.dimension, aapc.prop2.bound_tight
void add_property3_claims(Registry& registry);  // property_claims.cc: aapc.prop3.perfect_partner
void add_af_precondition_claims(Registry& registry);  // property_claims.cc: aapc.sec2.af_precondition
void add_example1_claims(Registry& registry);         // example_claims.cc: aapc.example1.partner_sets

}  // namespace topocheck::claims::aapc_parts
