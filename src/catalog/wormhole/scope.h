// Budgets of the wormhole-simulator claims (issue 8) per budget (quick / standard / deep).
// Claims and properties read their sizes and case counts from here, never from constants in
// tests.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::wormhole_scope {

// Properties (props/wormhole_props.cc)
// Cases per property on ITMs and for the negative controls. Shortest-path routing deadlocks in
// about 2% of its control runs (20 of the fixed sample of 1000 that props/wormhole_props.cc
// measures), about 1% of the control runs of either family, so the control-graph properties take
// ten times the cases: the quick budget judges a handful of witnesses (5 to 10 measured), deep
// about 80.
inline const PerBudget<int> kPropertyCases{100, 300, 1000};
inline const PerBudget<int> kPropertyControlCases{1000, 3000, 10000};

}  // namespace topocheck::claims::wormhole_scope
