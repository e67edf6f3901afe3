// The exact minimum length of an AAPC schedule in a faulty hypercube by Z3 over a time-expanded
// network (paper 004, Masuyama & Masuyama; the model of src/aapc/aapc.h, the lower bounds and the
// search of src/aapc/bounds.h).
//
// Encoding kPerDatum at a horizon of T units (solve_horizon), for the fault set F and the model:
//   data q = i_j, one for every ordered pair of distinct nonfaulty nodes (source j, destination i);
//   at[q][t][u]    "q is at node u at the boundary t" (t = 0..T; boundary t ends unit t);
//   x[q][t][u->w]  "q hops u -> w in unit t + 1" (t = 0..T-1), for directed links between
//                  nonfaulty nodes only.
//   Pruning by fault-free distance (aapc::live_distances): at[q][t][u] exists only when
//   dist(j, u) <= t and dist(u, i) <= T - t (q can be there and still arrive by T), x only between
//   two such positions and never out of i (a datum is consumed at its destination). A position
//   that is the only one possible is the constant true; none possible makes the formula false.
//   Constraints:
//     position:     exactly one at[q][t][.] per (q, t) (so at[q][0][j] and at[q][T][i]: delivery);
//     moves:        x[q][t][u->w] implies at[q][t][u] and at[q][t+1][w];
//     staying:      at[q][t][u] and no x[q][t][u->.] implies at[q][t+1][u] (where that position
//                   does not exist: at[q][t][u] implies some move out of u);
//     arriving:     at[q][t+1][w] implies at[q][t][w] or some x[q][t][.->w] (redundant, propagates);
//     links:        at most one x[.][t][u->w] per directed link and unit (all_port);
//     one_receive:  at most one x[.][t][.->w] per node w and unit (implies the link limit);
//     one_port:     also at most one x[.][t][u->.] per node u and unit.
//   With exactly one position per boundary, two moves of one datum in a unit would put it at two
//   nodes, so "at most one hop per unit" follows; every model of the formula is a valid schedule
//   and every valid schedule of T units (empty units allowed) gives a model: sat/unsat is exact.
//
// Encoding kPerDestination (the symmetry between data of one destination removed, soundly): data
//   with the same destination at the same node are interchangeable for the rest of a schedule, so
//   y[i][t][u->w] "a datum for i hops u -> w in unit t + 1" (u != i, and dist(w, i) <= T - t - 1)
//   replaces the x, and the number of data for i at u at boundary t is the pseudo-Boolean sum
//   count = 1 + sum_{tau < t} (in - out) (u's own datum). Constraints: out of u in a unit at most
//   count at its start (a datum moves once per unit); count = 0 at T and wherever
//   dist(u, i) > T - t; links and ports as above. A model is turned into data by giving each
//   class hop to a datum of that class at the node that has not moved in the unit.
//
// Counting (AapcSmtOptions::counting, on by default; implied constraints, so sat/unsat stays exact):
//   the graph on the nonfaulty nodes is bipartite (even / odd weight), so every hop changes a
//   datum's distance to its destination by exactly +1 (a detour hop) or -1, and a datum's path of
//   d + 2k hops (k detour hops) ends ceil(d/2) + k resp. floor(d/2) + k hops on the side opposite
//   to resp. of its source: the hops into side X are aapc::side_arrivals(X) + #detour hops. Per
//   side, the resources of X (the links into X for all_port; the receivers in X; for one_port also
//   the senders of the other side) carry at most one hop each per unit, whence
//     #idle (unit, resource of X) + #detour hops = |resources of X| T - side_arrivals(X)
//   (a negative right side: false; zero: every resource busy in every unit and no detours), and
//   #detour hops <= side_capacity(X) T - side_arrivals(X) (no detour variables at all when it is 0).
//   This is the arithmetic of the side and link_load bounds given to the solver; without it Z3 did
//   not prove Q_3 - {0} at 11 units unsat for one_receive or one_port within 120 s (either encoding),
//   with it the formula is false at once. The tests show unsat below the bound WITHOUT counting
//   where Z3 manages (Q_2, Q_3 all_port), so that those proofs do not rest on the bounds.
//
// No other symmetry breaking (units are not interchangeable; the automorphisms of (Q_n, F) would
// need lexicographic leaders over the whole formula).
// A model is decoded into a Schedule (the true move variables, unit by unit) and CONFIRMED with
// aapc::check_schedule; a model the checker rejects is an Error (kInternal), never a schedule.
//
// exact_min_units searches T upward from aapc::lower_bounds(...).best (or options.first_units):
// the first sat T is the minimum, as every smaller T is below a proved bound or unsat; unknown
// (Z3's rlimit or timeout) makes the answer inconclusive, never a minimum.
//
// Limits: SolverLimits::rlimit (0 = none) is ONE Z3 resource budget for all the checks of a call
// (each gets what the earlier ones left), clamped to UINT_MAX; timeout_ms (0 = none) is a
// wall-clock budget for the whole call. A z3::exception is caught here (an Error, kInternal).
// Cost: see the measured table in aapc_smt_test.cc's header comment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aapc/aapc.h"
#include "aapc/bounds.h"
#include "claims/claim.h"
#include "core/status.h"

namespace topocheck::smt {

// The largest n the encoding accepts (Q_5 at its all_port bound 16 has up to 992 data x 16 units
// x 160 links, about 2.5 million move variables before pruning; not tried).
inline constexpr int kAapcSmtMaxN = 5;

enum class AapcEncoding { kPerDatum, kPerDestination };
std::string to_string(AapcEncoding e);  // "per_datum", "per_destination"

struct AapcSmtOptions {
  // kPerDatum was faster on 13 of 15 Q_3 cases measured (0-2 faults; one tie, one slower).
  AapcEncoding encoding = AapcEncoding::kPerDatum;
  bool counting = true;  // the hop accounting constraints (see the header)
  // exact_min_units: the first T tried, at most the lower bound (-1: the lower bound). Below the
  // bound every T is unsat; starting there makes Z3 show it (with counting off, independently).
  int first_units = -1;
};

enum class HorizonAnswer { kSchedule, kNoSchedule, kUnknown };
std::string to_string(HorizonAnswer a);  // "schedule", "no_schedule", "unknown"

struct HorizonResult {
  HorizonAnswer answer = HorizonAnswer::kUnknown;
  aapc::Schedule schedule;  // kSchedule only: `units` units, confirmed by check_schedule
  std::string reason;       // kUnknown: Z3's reason ("timeout", "max. resource limit exceeded")
  uint64_t move_variables = 0;   // x variables after pruning
  uint64_t rlimit_used = 0;
  double solver_seconds = 0.0;   // wall clock of the check (not of building the formula)
};

// Is there a valid schedule of exactly `units` units (empty units allowed)? Errors
// (invalid_argument): n > kAapcSmtMaxN, units < 0. Error (kInternal): a Z3 exception, or a model
// check_schedule rejects (a bug in the encoding).
Result<HorizonResult> solve_horizon(const aapc::FaultSet& faults, aapc::Model model, int units,
                                    const claims::SolverLimits& limits, const AapcSmtOptions& options = {});

struct ExactResult {
  aapc::MinimumStatus status = aapc::MinimumStatus::kInconclusive;
  int min_units = -1;        // kMinimum only
  aapc::Schedule schedule;   // kMinimum only: an optimal schedule, confirmed by check_schedule
  int lower_bound = 0;       // lower_bounds(...).best: the first T tried
  std::string bound_name;    // the bound attaining it
  int last_unsat = -1;       // the largest T Z3 proved to have no schedule (-1: none)
  std::string reason;        // kInconclusive: at which T and why
  int checks = 0;
  uint64_t rlimit_used = 0;
  double solver_seconds = 0.0;  // sum over the checks
};

// The minimum number of units of a valid schedule, T = lower bound (or options.first_units), ...,
// t_max (see the header). kUnschedulable when two nonfaulty nodes have no fault-free path (no
// solver call), kNoneUpTo when every T <= t_max is unsat (or t_max is below the lower bound).
// Errors as solve_horizon, and invalid_argument for t_max < 0 or first_units above the bound.
Result<ExactResult> exact_min_units(const aapc::FaultSet& faults, aapc::Model model,
                                    const claims::SolverLimits& limits, int t_max,
                                    const AapcSmtOptions& options = {});

// The SMT methods of the AAPC claims (not wired yet).
void attach_aapc_smt(claims::Registry& registry);

}  // namespace topocheck::smt
