// The parts of the ITM claims (paper 002) beyond catalog/itm/claims.cc, which adds them after its
// own (register_itm_claims). Family-local: only catalog/itm/ includes it. Budgets:
// catalog/itm/scope.h; the methods over ITMs that the wormhole claims share: catalog/itm/methods.h.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::itm_parts {

inline constexpr const char* kPaper = "002_5e7910d99423ef9d.txt";

// thm3_claims.cc: itm.thm3.if, itm.thm3.only_if (Theorem 3, over every graph up to isomorphism).
void add_thm3_claims(Registry& registry);

}  // namespace topocheck::claims::itm_parts
