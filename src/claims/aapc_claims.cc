// TODO(issue 6): stub, to be written.
#include "claims/claim.h"

namespace topocheck::claims {
void register_aapc_claims(Registry&) {}
}  // namespace topocheck::claims
