// full_registry(): every claim of the catalogue (src/catalog) with every method, the SMT ones
// (smt/) included. The one registry the CLI, the tests, the properties and the benchmarks use.
//
// It sits above smt/ so that the catalogue and the engine do not depend on Z3: each
// smt/<family>_smt.cc attaches its methods (and `prove` functions) to claim readings the
// catalogue declared, through Registry::attach. Cost: building it allocates the claims' closures
// only; nothing runs.
#pragma once

#include "claims/claim.h"

namespace topocheck {

claims::Registry full_registry();

}  // namespace topocheck
