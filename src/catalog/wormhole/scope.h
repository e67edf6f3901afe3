// Budgets of the wormhole claims (paper 002 under wormhole switching, catalog/wormhole/): the ITM
// sizes, traffic seeds and case counts of every method per budget (quick / standard / deep).
// Claims read them from here, never from constants in tests. The simulation set-up every run
// shares (worm length, buffers, load, cycle limits) is part of the readings' wording and lives
// with the runs, in catalog/wormhole/simulation.h.
#pragma once

#include "claims/claim.h"

namespace topocheck::claims::wormhole_scope {

// wormhole.thm2.deadlock_free: every ITM up to isomorphism with n = 3..max (exhaustive, and the
// channel dependency oracle on the same ITMs); random AddNode sequences of up to kRandomMaxNodes
// nodes. Each ITM runs the traffic of seeds 1..kTrafficSeeds (every adversarial pattern and
// uniform traffic per seed; also the selection seeds of the broadcast below).
inline const PerBudget<int> kSweepMaxN{7, 10, 12};
inline const PerBudget<int> kTrafficSeeds{1, 2, 4};
inline const PerBudget<int> kRandomCases{10, 100, 500};
inline constexpr int kRandomMaxNodes = 64;

// wormhole.broadcast.contention_free: every ITM with n = 3..max, every source; random sequences.
inline const PerBudget<int> kBroadcastMaxN{8, 12, 14};
inline const PerBudget<int> kBroadcastRandomCases{5, 50, 200};
inline constexpr int kBroadcastRandomMaxNodes = 64;

// wormhole.thm2.non_itm_deadlock_free (negative controls): traffic seeds 1..max per control
// graph until a deadlock.
inline const PerBudget<int> kControlSeeds{64, 256, 1024};

// wormhole.updown.shortest_paths: every ITM with n = 3..max; random sequences; the oracle (the
// two routing functions compared at every reachable state) stops at n = kUpDownOracleMaxN.
inline const PerBudget<int> kUpDownMaxN{9, 13, 14};
inline const PerBudget<int> kUpDownRandomCases{20, 200, 1000};
inline constexpr int kUpDownRandomMaxNodes = 100;
inline constexpr int kUpDownOracleMaxN = 10;

// Properties (props/wormhole_props.cc)
// Cases per property on ITMs and for the negative controls. Shortest-path routing deadlocks in
// about 2% of its control runs (20 of the fixed sample of 1000 that props/wormhole_props.cc
// measures), about 1% of the control runs of either family, so the control-graph properties take
// ten times the cases: the quick budget judges a handful of witnesses (5 to 10 measured), deep
// about 80.
inline const PerBudget<int> kPropertyCases{100, 300, 1000};
inline const PerBudget<int> kPropertyControlCases{1000, 3000, 10000};

}  // namespace topocheck::claims::wormhole_scope
