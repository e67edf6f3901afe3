// Lower bounds on the length (time units) of every valid AAPC schedule in a faulty hypercube, and
// the exact minimum by exhaustive search for tiny cubes. The model is aapc.h's (store-and-forward,
// unit data, one datum per directed link per unit, one hop per datum per unit, faulty nodes inert,
// port models all_port / one_receive / one_port); the judge of every schedule is check_schedule.
//
// Paper: Masuyama & Masuyama (papers/004_d7c0ed59f63b519b.txt), Section 3.1.2: "an optimal AAPC
// algorithm for a nonfaulty Q_n requires 2^n - 1 time units". The paper states no model; these
// bounds and the exact minima (here and in smt/aapc_smt.h) say under which model that count can hold.
//
// Notation: F the faulty nodes, V - F the nonfaulty ("live") nodes, L = |V - F|, D = L (L - 1)
// data; dist(a, b) the fault-free distance (shortest path inside the subgraph induced on V - F,
// -1 when there is none); deg(v) the number of nonfaulty neighbours of v.
//
// The bounds (each sound for every valid schedule; a schedule shorter than any of them is invalid):
//   distance       max dist(a, b) over nonfaulty a != b: a datum hops at most once per unit.
//   receive        max over v of ceil((L - 1 + sep(v)) / in(v)): v receives L - 1 data, each with
//                  a last hop into v, and every one of the sep(v) data v separates (source and
//                  destination in different components of the fault-free graph without v) enters
//                  v at least once; in(v) = deg(v) (all_port: one datum per incoming link) or 1
//                  (one_receive, one_port: at most one datum received per unit).
//   send           max over v of ceil((L - 1 + sep(v)) / out(v)): v's own L - 1 data and the
//                  sep(v) data it separates each leave v at least once; out(v) = deg(v) (all_port,
//                  one_receive) or 1 (one_port).
//   link_load      ceil(sum of dist over the D data / C): every datum makes at least dist hops and a
//                  unit carries at most C = hop_capacity hops: the directed links between nonfaulty
//                  nodes (all_port), the nonfaulty nodes with a nonfaulty neighbour (one_receive:
//                  each hop of a unit ends at a different node), twice the size of a maximum
//                  matching of the fault-free graph (one_port: a unit's hops into each side of the
//                  bipartition pair distinct senders with distinct receivers).
//   side_even, side_odd  the hops ending on one side of the bipartition (even / odd weight):
//                  at least side_arrivals(X) (shortest paths; a detour adds one per side), at most
//                  side_capacity(X) per unit: ceil(side_arrivals / side_capacity). With faults the
//                  sides differ in size: Q_3 with faults {0} has 3 even and 4 odd nonfaulty nodes,
//                  and one_receive and one_port need 12 units, not link_load's ceil(72 / 7) = 11.
//   cut_d<j>_<a>to<b>  for each dimension j and direction (a, b) in {(0, 1), (1, 0)}: the
//                  nonfaulty nodes with bit j = a (side A) and = b (side B); every one of the
//                  |A| |B| data from A to B crosses a dimension-j link from A to B at least once,
//                  and a unit carries at most one datum per such link (every model):
//                  ceil(|A| |B| / #{x in A : x ^ 2^j in B}).
// When two nonfaulty nodes have no fault-free path no schedule exists (`schedulable` false).
// Fault-free Q_n in closed form (fault_free_lower_bound, proved in its comment, checked against
// lower_bounds in bounds_test for n = 1..10): all_port 2^(n-1), one_receive and one_port n 2^(n-1).
//
// Example: Q_3 with faults {7}, all_port: L = 7, D = 42; the Hamming distances survive (no pair
// loses all its shortest paths), sum 72 over 18 directed links: link_load = 4 = the best bound; the
// cut along dimension 0 (even -> odd) has 12 data over 3 links: 4 as well; receive at node 3 (two
// nonfaulty neighbours): ceil(6 / 2) = 3; distance 3.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "aapc/aapc.h"

namespace topocheck::aapc {

// Fault-free distances: element a * N + b is dist(a, b) (N = 2^n), -1 when a or b is faulty or no
// fault-free path joins them; dist(a, a) = 0 for nonfaulty a. BFS from every nonfaulty node over
// the implicit cube, O(N^2 n).
std::vector<int> live_distances(const FaultSet& faults);

struct LowerBound {
  std::string name;     // "distance", "receive", "send", "link_load", "cut_d2_0to1", ...
  std::string formula;  // the formula in words with this case's numbers
  int units = 0;
};

struct LowerBounds {
  bool schedulable = true;         // false: two nonfaulty nodes have no fault-free path
  std::vector<LowerBound> bounds;  // every bound above, in the order of the header
  int best = 0;                    // the largest bound (0 when fewer than two nodes are nonfaulty)
  std::string attained_by;         // name of the first bound equal to `best`
};

// The side of a node: the parity of its weight (0 even, 1 odd). Every link joins the two sides.
inline int side_of(NodeId x) { return std::popcount(x) & 1; }

// Hops into `side` one unit can carry at most: all_port, the links between nonfaulty nodes (each
// has one direction into the side); one_receive, the nonfaulty nodes of the side with a nonfaulty
// neighbour (one datum each); one_port, the size M of a maximum matching of the fault-free graph
// (the hops of a unit into the side pair distinct senders of the other side with distinct
// receivers). Cost O(N^2 n).
uint64_t side_capacity(const FaultSet& faults, Model model, int side);
// Hops one unit can carry at most: the sum over both sides (the C of link_load).
uint64_t hop_capacity(const FaultSet& faults, Model model);
// The hops of shortest paths that end on `side`, summed over all data: ceil(d/2) for a datum whose
// source is on the other side, floor(d/2) for one on this side (d = dist(source, destination)).
// A datum's path of d + 2k hops (k detour hops, each moving away from the destination) ends
// ceil(d/2) + k resp. floor(d/2) + k hops on the side. TC_CHECK: every pair has a fault-free path.
uint64_t side_arrivals(const FaultSet& faults, int side);

// The bounds above for one fault set and model. When !schedulable, `bounds` holds only the
// "connectivity" entry naming a pair without a fault-free path, and best = 0. Cost O(N^2 n).
LowerBounds lower_bounds(const FaultSet& faults, Model model);

// The best bound of lower_bounds for the fault-free Q_n (1 <= n <= kMaxN, TC_CHECK), closed form.
int fault_free_lower_bound(int n, Model model);

// ---------------------------------------------------------------------------------------------
// Exact minimum by search (no solver), for tiny cubes.
//
// Method: iterative deepening on the number of units T from the best lower bound; for each T a
// depth-first search over time units, each unit's move set built slot by slot (all_port: one slot
// per directed link; one_receive and one_port: one slot per receiving node, holding the links into
// it; a slot carries at most one datum). Data with the same destination at the same node are
// interchangeable (the rest of a schedule depends only on where each datum is and where it goes),
// so the search state is the matrix count[position][destination] and a slot chooses a link and a
// destination class, not a datum; concrete data are assigned when the found schedule is replayed.
// Values are tried progress moves first (a datum at distance exactly k first, then the nearest to
// its destination), then "none", then detours. Pruning, each a necessary condition for finishing
// within the k units left (`prune_with_bounds`): the bounds above restricted to what is still
// undelivered (link load and sides, also within a unit: each slot left lowers them by at most one;
// cuts; receive and send with deadlines: a datum at distance d leaves its node within the first
// k - d + 1 units and arrives within the last k - d + 1; the data a node separates pass through
// it). Always used: a datum never moves to distance > k - 1 and never stays at distance k.
// States proved hopeless are remembered (a transposition table keyed by the state up to the
// automorphisms of Q_n that map F onto itself, for n <= 3). The search runs on the image of F
// with the smallest mask under the automorphisms of Q_n (so its work does not depend on the
// labelling) and maps the schedule back; a found schedule is confirmed by check_schedule
// (TC_CHECK: a rejected one is a bug here).
// Without `prune_with_bounds` only the distance rules and the final delivery are used, so the
// search does not rely on the counting bounds (the negative control of the bounds on Q_1 and Q_2).
// Cost: every Q_3 fault set (up to automorphism) and model took under 1.5 s (bounds_test runs
// Q_3 with at most one fault); Q_4 see aapc_smt_test.cc.

struct SearchLimits {
  // Per call of search_schedule; for exact_min_by_search, over all the T it tries. 0 = none.
  uint64_t max_nodes = 0;    // search nodes (slot decisions)
  double max_seconds = 0.0;  // wall clock
  bool prune_with_bounds = true;
};

enum class Feasibility { kFeasible, kInfeasible, kInconclusive };
std::string to_string(Feasibility f);  // "feasible", "infeasible", "inconclusive"

struct HorizonSearch {
  Feasibility answer = Feasibility::kInconclusive;
  Schedule schedule;  // kFeasible: a valid schedule of exactly `units` units (empty units kept)
  uint64_t nodes = 0;
  double seconds = 0.0;
};

// Is there a valid schedule of `units` units? Preconditions (TC_CHECK): n <= 4, units >= 0.
HorizonSearch search_schedule(const FaultSet& faults, Model model, int units, const SearchLimits& limits = {});

enum class MinimumStatus {
  kMinimum,        // min_units is the minimum and schedule an optimal schedule
  kUnschedulable,  // two nonfaulty nodes have no fault-free path
  kNoneUpTo,       // no schedule of at most t_max units
  kInconclusive,   // a limit was reached first
};
std::string to_string(MinimumStatus s);  // "minimum", "unschedulable", "none_up_to_t_max", "inconclusive"

struct ExactSearchResult {
  MinimumStatus status = MinimumStatus::kInconclusive;
  int min_units = -1;   // kMinimum only
  Schedule schedule;    // kMinimum only: confirmed by check_schedule
  int lower_bound = 0;  // lower_bounds(...).best, where the deepening starts
  int last_infeasible = -1;  // the largest T proved infeasible by the search itself (-1: none)
  uint64_t nodes = 0;
  double seconds = 0.0;
};

// The minimum number of units, searching T = lower bound, ..., t_max: the first feasible T (every
// smaller one is below a proved bound or infeasible). The limits cover the whole call.
// Preconditions (TC_CHECK): n <= 4, t_max >= 0.
ExactSearchResult exact_min_by_search(const FaultSet& faults, Model model, int t_max, const SearchLimits& limits = {});

// ---------------------------------------------------------------------------------------------
// An upper bound by construction: a randomized greedy, unit by unit, for any cube size.
//
// Every unit moves data one hop closer (fault-free distance) to their destinations. one_port:
// the unit's moves are a maximum-weight assignment of senders to receivers (each node sends at
// most one datum and receives at most one; Hungarian method on the N x N matrix of node pairs, an
// edge u -> v weighted by 1000 + 10 * the largest remaining distance of a datum at u that v brings
// closer, plus noise), and each chosen edge carries that datum. all_port and one_receive: the data
// in order of remaining distance (longest first, noise breaking ties) each take the first free
// productive link (one_receive: whose head has not received yet this unit). Trial 0 has no noise;
// trial k > 0 draws its noise scale and values from a seeded xoshiro-style stream (portable).
// Every schedule is judged by check_schedule; the shortest valid one is kept. `stop_at` (> 0): stop
// as soon as a schedule of at most that many units is found (the lower bound: then it is optimal).
// Cost per trial: O(units * (data * n + N^3)) for one_port, O(units * data * n) otherwise.
// Found this way (one_port, Q_4): {6,9} 33 = the lower bound (trial 17), {0,1} 28 = the bound,
// {14} 33 against a bound of 32.
struct GreedyResult {
  bool found = false;  // some trial gave a valid schedule
  int units = 0;       // the shortest valid schedule's length
  int trial = -1;      // the trial that found it
  int trials_run = 0;
  Schedule schedule;
};
GreedyResult greedy_schedule(const FaultSet& faults, Model model, int trials, uint64_t seed, int stop_at = 0);

}  // namespace topocheck::aapc
