// Budgets of the routing-simulator claims (paper 001) per budget (quick / standard / deep).
// Claims and properties read their sizes and case counts from here, never from constants in
// tests.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::routing_scope {

// Properties (props/routing_props.cc)
// Cases per property, and the largest cube Q_n the generated simulator inputs use.
inline const PerBudget<int> kPropertyCases{100, 300, 1000};
inline const PerBudget<int> kPropertyMaxDim{6, 7, 8};

}  // namespace topocheck::claims::routing_scope
