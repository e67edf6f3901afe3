// The parts of the wormhole claims (paper 002 under wormhole switching), one per file, in the
// order register_wormhole_claims (catalog/wormhole/claims.cc) adds them. Family-local: only
// catalog/wormhole/ includes it. Budgets: catalog/wormhole/scope.h; the shared runs:
// catalog/wormhole/simulation.h.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::wormhole_parts {

inline constexpr const char* kPaper = "002_5e7910d99423ef9d.txt";

void add_deadlock_claim(Registry& registry);    // thm2_claims.cc: wormhole.thm2.deadlock_free
void add_control_claim(Registry& registry);     // thm2_claims.cc: wormhole.thm2.non_itm_deadlock_free
void add_broadcast_claim(Registry& registry);   // broadcast_claims.cc: wormhole.broadcast.contention_free
void add_throughput_claim(Registry& registry);  // abstract_claims.cc: wormhole.abstract.throughput_vs_updown
void add_updown_claim(Registry& registry);      // abstract_claims.cc: wormhole.updown.shortest_paths

}  // namespace topocheck::claims::wormhole_parts
