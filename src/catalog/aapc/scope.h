// Budgets of the AAPC claims (paper 004, Masuyama and Masuyama) per budget (quick / standard /
// deep). Claims and properties read their sizes and case counts from here, never from constants
// in tests.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::aapc_scope {

// Properties (props/aapc_props.cc)
// Cases per property (inputs n = 2..7, 1..3 faults, every port model).
inline const PerBudget<int> kPropertyCases{300, 2000, 10000};

}  // namespace topocheck::claims::aapc_scope
