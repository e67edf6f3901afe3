// The `example` method, shared by every family: every corpus case of kind "example" for a claim
// reading (under corpus/<family>/examples/) is recomputed with `compute` and diffed cell by cell;
// the diffs must be exactly the recorded errata. Refuted (with the unexplained diffs in words)
// otherwise; an error if no example case exists for the reading.
#pragma once

#include <string>

#include "claims/claim.h"

namespace topocheck::claims {

MethodFn example_method(std::string claim_id, std::string reading, ExampleFn compute);

}  // namespace topocheck::claims
