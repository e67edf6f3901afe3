#include "smt/aapc_smt.h"

namespace topocheck::smt {
void attach_aapc_smt(claims::Registry&) {}
}  // namespace topocheck::smt
