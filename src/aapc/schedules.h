// Schedule generators for Section 3 of Masuyama & Masuyama (papers/004_d7c0ed59f63b519b.txt):
// a greedy store-and-forward list scheduler, the inner AAPC of a fault-free subcube, and the
// paper's algorithms A_1 (one fault), A_2 (two faults) and A_f (f faults) as explicit schedules.
// Every schedule is judged by `check_schedule` (aapc.h), never by this file.
//
// Notation (paper -> code):
//   Q_n divided along d; Q_{n-1} (no fault), Q^f_{n-1}  -> `a1(faults, d, model)`: H = the half
//                                                          without the fault, F = the half with it
//   "neighboring node" across d, p(x)                    -> `x ^ (1u << d)`
//   Q^1_{n-1}, Q^2_{n-1} (halves along d) of A_2         -> `a2(faults, d, d1, d2, model)`; d1, d2
//                                                          divide the halves in their A_1 runs
//   n_1, n_2 (nodes whose d-neighbour is faulty)         -> `a2_special_nodes(faults, d)`
//   the f dividing dimensions of A_f, the Q^j_{f+1}      -> `af(faults, D, d, model)`: D a mask of f
//                                                          dimensions, Q^j_{f+1} = the cosets of
//                                                          span(D + {d}); d divides each of them
//   a time unit                                          -> one entry of `Schedule::units`
//   step k of A_1                                        -> `Step` "step k"
//   phase p step k of A_2 / A_f                          -> `Step` "phase p step k"
//
// The model is aapc.h's (store-and-forward, unit data, one datum per directed link per unit, at
// most one hop per datum per unit, faulty nodes inert; all_port / one_receive / one_port). Each
// generator takes the model and places every hop greedily so that the schedule is valid under it.
//
// Example: `a1(FaultSet(3, {6}), 2, Model::kAllPort)` is the paper's Q_3 example: the link 0-4
// carries 0_4, 1_4, 2_4, 3_4 in "step 1", 4_0..4_3, 5_4, 7_4 in "step 4", 4_5, 4_7 in "step 5".
//
// READINGS (the text leaves these open; each is a parameter, the default is marked):
//   * Steps are sequential: step k starts in the unit after the last move of step k - 1 (over all
//     subcubes that run the step simultaneously). "Simultaneously" parts share the step.
//   * A_1 Step 5 and A_2/A_f Phase 2 Step 2 ("in the order of when they arrive"): the routes up to
//     the hand-over node are placed first; the remaining hops are placed in the order of arrival
//     there (ties: placement order), each as early as the model allows.
//   * The inner AAPC ("an optimal AAPC algorithm", never named): `InnerMethod`, default
//     kTimetable, an exact timetable per model (below). kEcubeAscending / kEcubeRotated are plain
//     greedy e-cube variants, kept for comparison.
//   * Routes where the text only says "distribute" or "exchange" (Phase 2 of A_2 and A_f): every
//     datum takes, among its candidate routes, the one that arrives first under the current
//     occupancy (ties: the first candidate). Step 1 ("distribute to all nonfaulty nodes"): the
//     fault-free rotations of its ascending dimension list (shortest paths), or a breadth-first
//     fault-free shortest path when every rotation touches a fault (this happens: for faults at
//     distance 2 across d both shortest paths n_1 -> n_2 are blocked; the path has length 4).
//     Step 2: the fault-free rotations of the outer dimensions to the corresponding node, then
//     inside the destination subcube (below). Step 1's data are placed longest first.
//   * Which data are in A_f Phase 2 Step 1 (`Step1Scope`): default kBlockedData: the data whose
//     straight routes (across the outer dimensions to the corresponding node in the destination's
//     Q_{f+1}, every rotation of the ascending outer dimensions) all touch a fault; for A_2
//     these are exactly the data of n_1, n_2 to the other half. kWholeSources: every
//     inter-subcube datum of a source that is the corresponding node of some fault (the literal
//     "data whose sources are nodes corresponding of faulty nodes").
//   * Routes inside a faulty destination subcube in Phase 2 Step 2 (`FaultyInnerRoutes`): default
//     kShortestFaultFree (the fault-free rotations of the ascending dimension list; one fault
//     blocks at most one of the k internally disjoint rotations of a distance-k pair, so one
//     exists; e-cube ascending in a nonfaulty subcube); kViaNonfaultyHalf: A_1's routes (F -> H
//     across the dividing dimension, inside H, back across it).
//   * A_f Phase 2 Step 2 (`Rounds`): default kSequential: one round per outer offset r
//     (2^(n-f-1) - 1 rounds, r ascending; round r moves the data from every Q^j to Q^(j xor r)),
//     a round starts after the previous one ends; steps "phase 2 step 2 round k". kPipelined:
//     all rounds in one step "phase 2 step 2", placed round by round.
//   * The list order (`ListOrder`, a policy value; default seed 0 = this implementation's order,
//     the one every line above describes). The text fixes which data each step moves and, for
//     Step 2 and A_1 Step 5, that hops into the destination go "in the order of when the data is
//     exchanged and arrived"; it leaves open the order in which a list scheduler takes the data
//     of Phase 2 Step 1 ("distribute"), of each round of Phase 2 Step 2 ("exchange"), the order
//     among data that arrive in the same unit (Phase 2 Step 2 and A_1 Step 5), and which of the
//     candidate routes above a datum takes. A seed s != 0 draws all of these from a fixed
//     pseudo-random stream (splitmix64 of s, our own Fisher-Yates, so a seed means the same
//     schedule on every platform): Step 1's and each round's lists are permuted, same-unit
//     arrivals are permuted before the stable sort by arrival, and each datum takes a uniformly
//     drawn candidate route instead of the first-arriving one. Everything else is unchanged:
//     the steps, their data, the candidate routes, sequential steps, every hop as early as the
//     model allows. Seeds never look at the fault set: no input is special-cased. The bound
//     claims are checked both for seed 0 and for the worst seed found (catalog/aapc/scope.h).
//   * Phase 1 of A_2/A_f: A_1's five steps run in every faulty subcube with shared step
//     boundaries; the inner AAPC of nonfaulty subcubes (A_f) starts with phase 1; should it end
//     after A_1's Step 5, "phase 1 step 5" is extended to it.
//   * The frame of A_2 and A_f (`Frame`). The text describes both up to the symmetry of Q_n (it
//     speaks of faults, halves, PSs and corresponding nodes, never of node numbers), but a list
//     scheduler must order its data, and ordering by node id lets the labels decide ties: A_2 on
//     Q_3 with faults {0,3} and with its translate {4,7} (d = 0) take 15 and 16 units
//     (equivariance_test.cc). Default kCanonical: with g the automorphism that maps F to its
//     canonical form K (symmetry.h; g = identity when F is canonical), the schedule is
//     g^-1(A(K, g(parameters))), where g(parameters) maps every dimension by g's permutation, and
//     for A_2 swaps d1 and d2 when g exchanges the halves of d. The result is a schedule for F
//     dividing along the caller's dimensions, with the units and checker verdict of (K,
//     g(parameters)); as the parameters run over all of F's choices, g(parameters) run over all
//     of K's, so the inputs of a whole orbit have exactly the outcomes of K's inputs. That is what
//     lets the claims sweep one fault set per orbit (catalog/aapc/claims.cc; symmetry_test checks it
//     exhaustively for n <= 5). Not per input: the generator on K does not respect K's own
//     symmetries (every dimension permutation fixes K = {0}, but which dimensions are D and d
//     matters), so two labellings of one (F, D, d) can differ by a unit (symmetry_test pins
//     this). kAbsolute: in the labels given (the behaviour before the frame existed).
//     A_1 has no frame: its counts and busy links already commute with every translation
//     (equivariance_test), and Example 1 is stated in the paper's labels.
//
// The inner AAPC timetable (kTimetable). Data from a to b in a subcube of dimension m belong to
// phase t = a xor b (as local m-bit offsets); all data of one phase can move in lockstep, which
// uses every directed link of a dimension at most once per unit and every node's send and
// receive port once per unit.
//   all_port: the bipartite graph phases x dimensions (phase t adjacent to the dimensions of t) has
//     maximum degree 2^(m-1); König's edge colouring with 2^(m-1) colours gives each
//     (phase, dimension) a unit; a phase crosses its dimensions in colour order. 2^(m-1) units:
//     the link-load lower bound (m 2^(m-1) hops per node over m links).
//   one_receive, one_port: phases one after the other, dimensions ascending: m 2^(m-1) units, the
//     port lower bound (N m 2^(m-1) hops, N receives per unit).
//   The timetable units are hints (a hop never goes earlier); traffic placed before (A_1's
//   crossings, other steps) can delay hops, which then go greedily.
//
// MEASURED (schedules_test.cc, MeasuredTable, prints the full per-step table; units).
// Inner AAPC on the fault-free Q_m (also the expectations of InnerAapc):
//   m                     1   2   3   4   5    6    7     8
//   paper "optimal" 2^m-1 1   3   7  15  31   63  127   255
//   all_port timetable    1   2   4   8  16   32   64   128  (= 2^(m-1), the link-load bound)
//   one_receive/one_port  1   4  12  32  80  192  448  1024  (= m 2^(m-1), the port bound)
// A_1 (fault {2^n - 2}, d = n - 1), A_2 ({1,6} d = 2 for n = 3, Example 2's {6,9} d = 3 for
// n >= 4, d1 = d2 = 1; P2S1 = its Phase 2 Step 1, the paper's n), A_f (the first f of {6, 9, 17},
// the first valid (D, d); sequential rounds, pipelined in brackets; the default canonical frame,
// within a few units of the absolute frame's numbers); paper counts in parentheses:
//   all_port:
//    n  innerQ_n  A_1 (paper)  A_1 steps 1..5       A_2 (paper) P2S1  A_f f=1     f=2      f=3      (pipelined f=1,2,3)
//    3       4     16 ( 18)  4 2 2 4 4               12 ( 22)    3    13 ( 16)      -          -      (13)
//    4       8     32 ( 38)  8 4 4 8 8               27 ( 43)    4    23 ( 32)   27 ( 36)      -      (19,27)
//    5      16     64 ( 78)  16 8 8 16 16            52 ( 84)    5    45 ( 64)   46 ( 72)      -      (30,38)
//    6      32    128 (158)  32 16 16 32 32         103 (165)    8    95 (128)   86 (144)   94 (152)  (50,58,77)
//    7      64    256 (318)  64 32 32 64 64         203 (326)   12   202 (256)  176 (288)  178 (304)  (85,95,127)
//    8     128    512 (638)  128 64 64 128 128      403 (647)   20   430 (512)  367 (576)  352 (608)  (160,166,193)
//   one_receive:
//    3      12     25 ( 18)  8 4 4 4 5               16 ( 22)    4    17 ( 16)      -          -      (17)
//    4      32     65 ( 38)  20 12 12 8 13           49 ( 43)    6    40 ( 32)   49 ( 36)      -      (40,49)
//    5      80    161 ( 78)  48 32 32 16 33         118 ( 84)    8    93 ( 64)  100 ( 72)      -      (93,99)
//    6     192    385 (158)  112 80 80 32 81        281 (165)   11   219 (128)  218 (144)  243 (152)  (215,217,238)
//    7     448    897 (318)  256 192 192 64 193     652 (326)   15   511 (256)  489 (288)  507 (304)  (486,485,505)
//    8    1024   2049 (638)  576 448 448 128 449   1492 (647)   23  1172 (512) 1114 (576) 1106 (608)  (1095,1077,1095)
//   one_port:
//    3      12     25 ( 18)  8 4 4 4 5               19 ( 22)    5    19 ( 16)      -          -      (19)
//    4      32     69 ( 38)  20 12 12 8 17           52 ( 43)    8    42 ( 32)   52 ( 36)      -      (41,52)
//    5      80    173 ( 78)  48 32 32 16 45         133 ( 84)   16    97 ( 64)  106 ( 72)      -      (95,103)
//    6     192    413 (158)  112 80 80 32 109       320 (165)   32   227 (128)  226 (144)  284 (152)  (220,221,279)
//    7     448    957 (318)  256 192 192 64 253     743 (326)   64   530 (256)  508 (288)  561 (304)  (505,495,552)
//    8    1024   2173 (638)  576 448 448 128 573   1688 (647)  128  1225 (512) 1156 (576) 1176 (608)  (1143,1110,1151)
// Under all_port A_1's steps are 2^(n-1), 2^(n-2), 2^(n-2), 2^(n-1), 2^(n-1) (the paper: 2^(n-1),
// 2^(n-1)-1, 2^(n-1)-1, 2^(n-1), 2^(n-1)) and every measured total is at most the paper's count;
// A_f's sequential rounds grow with the outer distance |r| (the exchange needs |r| hops before it
// reaches the destination subcube), which the paper's (5*2^f-2) per round does not see. Under
// one_receive and one_port the totals exceed the paper's from n = 3 (A_1, A_f) or n = 4 (A_2):
// the paper's inner count 2^m - 1 lies between the all_port optimum 2^(m-1) and the one-port
// optimum m 2^(m-1), so no model of this family makes its per-step counts exact.
// A_2's Phase 2 Step 1 is not n for n >= 6 under any model: n_1 alone sends 2^(n-1) - 1 data
// over at most n - 1 usable links and each needs one more hop, >= ceil((2^(n-1)-1)/(n-1)) + 1.
// Below that it exceeds n in this implementation too (all_port, every fault pair and d: max 5 / 6
// / 8 / 10 at n = 3 / 4 / 5 / 6, above n on 24/36, 96/224, 560/1200, 5952/5952 inputs; faults at
// distance 2 across d block both shortest paths n_1 -> n_2): aapc.a2.units [all_port.steps_at_most].
// The Phase-2 list order (ListOrder) changes these numbers; the table is seed 0.
//
// Cost: the scheduler keeps one bit per (resource, unit); a hop costs O(units / 64) word
// operations at worst; Phase 2 also times every candidate route. Measured (2 shared cores):
// n = 8 A_1 about 20 ms, A_2 and A_f 50-150 ms; n = 10 A_1 0.5 s, A_2 and A_f 1.5-2 s, about
// 130 MB (5.7 million moves for A_1).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aapc/aapc.h"
#include "core/status.h"

namespace topocheck::aapc {

// Greedy store-and-forward list scheduler over Q_n. Unit indices are 0-based (index u is
// `Schedule::units[u]`, the paper's time unit u + 1). Schedules built by several `place` calls
// are valid under the model by construction of the occupancy; check_schedule still judges them.
class ListScheduler {
 public:
  ListScheduler(const FaultSet& faults, Model model);

  // Places `datum` along `route` (route[0] is where the datum is; consecutive nodes adjacent; no
  // faulty node; the datum's destination at most as the last node; aborts otherwise). Hop k goes in the earliest unit u with
  //   u >= release (k = 0), u >= (unit of hop k-1) + 1 (k > 0), u >= not_before[k] (if given),
  // in which the directed link is free and the model's port limits hold (one_receive: the receiver
  // receives nothing else in u; one_port: also the sender sends nothing else). Returns the
  // arrival: (unit of the last hop) + 1, the first unit in which the datum may move on; `release`
  // for a one-node route.
  int place(Datum datum, std::span<const NodeId> route, int release, std::span<const int> not_before = {});
  // The arrival `place` would return, without placing anything.
  int probe(std::span<const NodeId> route, int release, std::span<const int> not_before = {}) const;

  const FaultSet& faults() const { return faults_; }
  Model model() const { return model_; }
  int end() const { return static_cast<int>(units_.size()); }  // units with a move so far
  // The accumulated schedule (units [0, end())) with the given steps; moves the moves out, so the
  // scheduler is empty afterwards.
  Schedule take_schedule(std::vector<Step> steps);

 private:
  // The unit of every hop of `route` under the current occupancy (see place). A datum's own hops
  // are in distinct units, so timing all of them first and occupying afterwards is the same.
  void time_hops(std::span<const NodeId> route, int release, std::span<const int> not_before,
                 std::vector<int>& units) const;
  uint32_t link_of(NodeId from, NodeId to) const;
  uint32_t receiver_of(NodeId to) const;
  uint32_t sender_of(NodeId from) const;
  void occupy(uint32_t resource, int unit);
  int earliest_free(int unit, uint32_t link, uint32_t receiver, uint32_t sender) const;

  FaultSet faults_;
  Model model_;
  std::vector<std::vector<uint64_t>> busy_;  // per resource: links (from * n + dim), then
                                             // receivers (N*n + x), then senders (N*n + N + x)
  std::vector<std::vector<Move>> units_;
  mutable std::vector<int> scratch_;  // hop units of the route being timed
};

// A datum that is at node `at` and must reach node `to` (not necessarily its destination).
struct Transfer {
  Datum datum;
  NodeId at = 0;
  NodeId to = 0;
};

enum class InnerMethod {
  kTimetable,       // default: the per-model optimal timetable above
  kEcubeAscending,  // dimensions ascending; placed by phase, longest phases first; pure greedy
  kEcubeRotated,    // dimensions ascending, rotated to start at (local source) mod m; as above
};
std::string to_string(InnerMethod method);  // "timetable", "ecube_ascending", "ecube_rotated"

enum class Step1Scope {
  kBlockedData,   // default: the data all of whose straight routes touch a fault
  kWholeSources,  // every inter-subcube datum of a corresponding node of a fault
};
std::string to_string(Step1Scope scope);  // "blocked_data", "whole_sources"

enum class FaultyInnerRoutes {
  kShortestFaultFree,  // default
  kViaNonfaultyHalf,   // A_1's routes through the nonfaulty half
};
std::string to_string(FaultyInnerRoutes routes);  // "shortest_fault_free", "via_nonfaulty_half"

enum class Rounds {
  kSequential,  // default
  kPipelined,
};
std::string to_string(Rounds rounds);  // "sequential", "pipelined"

enum class Frame {
  kCanonical,  // default: A_2 and A_f run in the canonical frame of the fault set (symmetry.h)
  kAbsolute,   // in the labels given (node-id order breaks the list scheduler's ties)
};
std::string to_string(Frame frame);             // "canonical", "absolute"
Result<Frame> parse_frame(std::string_view text);  // errors name --frame

// The Phase-2 list order (and A_1 Step 5's ties), see READINGS above. seed 0: this
// implementation's order; any other seed: a pseudo-random faithful order (deterministic per seed).
struct ListOrder {
  uint64_t seed = 0;
  bool is_default() const { return seed == 0; }
};

struct ScheduleOptions {
  InnerMethod inner = InnerMethod::kTimetable;
  Step1Scope step1 = Step1Scope::kBlockedData;
  FaultyInnerRoutes faulty_inner = FaultyInnerRoutes::kShortestFaultFree;
  Rounds rounds = Rounds::kSequential;
  Frame frame = Frame::kCanonical;
  ListOrder order;
};

// The inner AAPC on `scheduler`: moves every transfer (at, to inside the fault-free subcube
// base + span(mask); at != to) along a shortest path inside it, starting no earlier than
// `release`. Returns the arrival unit of each transfer (in input order). Aborts on a transfer
// outside the subcube or a faulty node in it.
std::vector<int> place_inner_aapc(ListScheduler& scheduler, uint32_t mask, std::span<const Transfer> data,
                                  int release, InnerMethod method = InnerMethod::kTimetable);

// Every datum of the subcube base + span(mask) (distinct source and destination in it), as
// transfers from source to destination.
std::vector<Transfer> subcube_data(NodeId base, uint32_t mask);

// AAPC of the fault-free Q_m (one step "aapc"). Errors: m outside 1..kMaxN.
Result<Schedule> inner_aapc(int m, Model model, InnerMethod method = InnerMethod::kTimetable);

// A_1 (Section 3.1.1): exactly one fault phi, Q_n divided along d. Steps "step 1".."step 5".
// Errors name the parameter: faults (not exactly one), n (< 2), d (not a dimension).
Result<Schedule> a1(const FaultSet& faults, int d, Model model, const ScheduleOptions& options = {});

// (n_1, n_2) of A_2: Q^1 is the half with bit d = 0, Q^2 the other; n_1 is the node of Q^1 whose
// d-neighbour is the fault of Q^2, n_2 the node of Q^2 whose d-neighbour is the fault of Q^1.
// Errors as a2 (faults, n, d).
Result<std::pair<NodeId, NodeId>> a2_special_nodes(const FaultSet& faults, int d);

// A_2 (Section 3.2.1): two faults in different halves along d; d1 divides Q^1 (bit d = 0) for its
// A_1, d2 divides Q^2. Steps "phase 1 step 1".."phase 1 step 5", "phase 2 step 1",
// "phase 2 step 2". Errors name the parameter: faults (not two), n (< 3), d (not a dimension; the
// faults are not in different halves; the faults are d-neighbours, so n_1, n_2 would be faulty),
// d1/d2 (not a dimension, or equal to d).
Result<Schedule> a2(const FaultSet& faults, int d, int d1, int d2, Model model,
                    const ScheduleOptions& options = {});

// A_f (Section 3.3.1): f = |faults| faults; D a mask of f dimensions, d not in D; every coset of
// span(D + {d}) holds at most one fault. Steps "phase 1 step 1".."phase 1 step 5" (one step "phase 1"
// when f = 0), "phase 2 step 1", "phase 2 step 2 round k" (kSequential) or "phase 2 step 2"
// (kPipelined). Errors name the parameter: D (not f dimensions of Q_n, or a coset with two
// faults), d (not a dimension, or in D).
Result<Schedule> af(const FaultSet& faults, uint32_t D, int d, Model model, const ScheduleOptions& options = {});

}  // namespace topocheck::aapc
