// What the two files of the migration_props binary (props/migration_props.cc,
// props/migration_plan_props.cc) share: the budget's case count, the random inputs and the scope
// line each property prints, all from claims::migration_scope (catalog/migration/scope.h).
#pragma once

#include <string>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "catalog/migration/scope.h"
#include "migration/migration_gen.h"
#include "props_harness.h"

namespace topocheck::migration::migration_props {

// Cases per property at the budget TOPOCHECK_BUDGET names: kRandomCases.
inline int Cases() { return claims::migration_scope::kRandomCases.at(props::BudgetFromEnvironment()); }

// The inputs every property draws: n = 1..kRandomMaxN, dim(S) <= kRandomMaxDim, up to
// kRandomMaxBlocks blocks.
inline rc::Gen<MigrationInput> Inputs() {
  namespace scope = claims::migration_scope;
  return gen::migration_input(scope::kRandomMaxN, scope::kRandomMaxDim, scope::kRandomMaxBlocks);
}

// "<which>, n = 1..16, dim(S) <= 8, up to 48 blocks": the inputs line of props::PrintScope.
inline std::string Scope(const std::string& which) {
  namespace scope = claims::migration_scope;
  return fmt::format("{}, n = 1..{}, dim(S) <= {}, up to {} blocks", which, scope::kRandomMaxN, scope::kRandomMaxDim,
                     scope::kRandomMaxBlocks);
}

}  // namespace topocheck::migration::migration_props
