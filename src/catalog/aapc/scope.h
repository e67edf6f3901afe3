// Budgets of the AAPC claims (paper 004): the sizes per budget (quick / standard / deep) that the
// claims' methods read from here, never from constants in tests.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::aapc_scope {

// SMT (smt/aapc_smt*.cc): aapc.sec312.optimum's stated 2^n - 1 against Z3's exact minimum
// (smt/aapc_smt.h) for the fault-free Q_n, n = 1..max, per model; each n's search with this
// wall-clock timeout (no rlimit).
inline const PerBudget<int> kOptimumSmtMaxN{2, 3, 3};
inline constexpr unsigned kOptimumSmtTimeoutMs = 120'000;

}  // namespace topocheck::claims::aapc_scope
