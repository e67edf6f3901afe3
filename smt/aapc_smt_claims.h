// The SMT method of the AAPC claims: aapc.sec312.optimum's stated 2^n - 1 against Z3's exact
// minimum (smt/aapc_smt.h) for the fault-free Q_n at small n, per model.
#pragma once

#include "claims/claim.h"

namespace topocheck::smt {

void attach_aapc_claims_smt(claims::Registry& registry);

}  // namespace topocheck::smt
