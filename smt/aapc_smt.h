// TODO(issue 6): stub, to be written.
#pragma once
#include "claims/claim.h"

namespace topocheck::smt {
void attach_aapc_smt(claims::Registry& registry);
}  // namespace topocheck::smt
