// Algorithm 4, MetacubeDisjointPaths(k, m, s, t) (Li, Peng, Chu, Section 3): k + m paths from s
// to t in MC(k, m), s != t.
//
// Cases: case 0 (C_s = C_t, same cluster), case 1 (c_s = c_t, different clusters), case 2
// (c_s != c_t). Notation as in metacube.h and routing.h: s^(i) = neighbor(s, i); HC_i is a
// Hamiltonian cycle of the class cube containing the directed edge (c_s : c_s^(i)); l is "the
// bit position so that (u : u^(l)) is a one-step path in HC_i".
//
// Every choice the text leaves open is a field of Alg4Options; the defaults reproduce Tables 2-5:
//  - hc_order: HC_i = hamiltonian_cycle(k, c_s, i, hc_order) (a Gray cycle whose first step flips
//    dimension i). For the global paths (i < k) l is HC_i's SECOND step (the first leaves s);
//  - local_hc: the local paths (i >= k) follow HC_{local_hc} and l is its FIRST step (Table 3's
//    P_2, P_3 and Table 5's P_3 go 00 -> 01 -> 11 -> 10 -> 00: local_hc = 0);
//  - exchange: j' in case 1 and i' in case 2 ("for some j'"): the lowest local dimension other
//    than j (kLowestOther) or the next one cyclically (kNextCyclic);
//  - default_key: the key-bit position x when no bit is of type 1 (printed: "otherwise x = 0");
//  - key_compare: the key bit of P_i is the rightmost 0 of M_s[c_s^(i)] XOR M_t[c_t^(i)] as the
//    rule prints it (kRule), or of M_s[c_s^(i)] XOR M_t[c_s^(i)] as Example 4 words it ("since
//    M_s[2] = M_t[2] = 00", kExample4) - the two agree in case 1 and differ in case 2;
//  - case0_p3_n: the n of the in-cluster p3 of case 0's global paths. Printed "p3(k, i, ...)";
//    Section 3 defines in-cluster paths as p3(m, i, M_u[c_u], M_v[c_v]). 0 means m.
//  - case0_hop: the cube-edge of case 0's global path P_i after s^(i). Printed s^(i,k) (dimension k
//    for every i); Table 2's P_1 takes dimension k + 1 after s^(1) (corpus table2.json): kTable takes
//    dimension k + (i mod m), kPrinted takes k.
//  - local_class_path: case 2's local tail (w_i -> t^(i)), printed p3(k, 0, w_i, t^(i)), which
//    flips class bit 1 first; Table 5's P_2 and P_3 flip bit 0 first (00 -> 01 -> 11). kAscending
//    (lowest bit first, = p3(k, k-1, ...)) reproduces the table, kPrintedP3Zero is the text.
// Meanings pinned by the tables (kept as options so a test can show the other meaning fails):
//  - empty_when_equal: case 2, local: when s^(i) = w_i the segment (s^(i) -> w_i) is empty
//    (Table 5's P_2 = s : s^(2) : ... class path ... : t); taken literally the if-branch makes a
//    detour through s^(i,i') and returns to s^(i);
//  - case2_pj_ends_at_t: case 2, c_s^(j) = c_t: the printed P_j = (s : (s^(j) -> t^(j))) stops at
//    t^(j); Table 4's P_0 ends with t.
// Repairs (reading `repaired`; off in `paper`): see repaired_options() and README.
// Negative controls (DELIBERATELY BROKEN, every method must reject them):
//  - broken_no_exchange: the j/j' exchange of case 1 and the i' detour of case 2 removed;
//  - broken_ignore_key: the key-bit hop s^(i) -> s^(i,y) of the global paths removed.
//
// Preconditions: s, t addresses of mc, s != t (TC_CHECK). Cost: O((k+m) * (2^k + n)) per pair.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/path.h"
#include "core/sweep/path_block.h"
#include "metacube/metacube.h"
#include "metacube/routing.h"

namespace topocheck::metacube {

enum class KeyCompare { kRule, kExample4 };
enum class ExchangeChoice { kLowestOther, kNextCyclic };
enum class Case0Hop { kTable, kPrinted };
enum class LocalClassPath { kAscending, kPrintedP3Zero };

struct Alg4Options {
  CycleOrder hc_order = CycleOrder::kRotate;
  int local_hc = 0;
  ExchangeChoice exchange = ExchangeChoice::kLowestOther;
  int default_key = 0;
  KeyCompare key_compare = KeyCompare::kRule;
  int case0_p3_n = 0;
  Case0Hop case0_hop = Case0Hop::kTable;
  LocalClassPath local_class_path = LocalClassPath::kAscending;
  bool empty_when_equal = true;
  bool case2_pj_ends_at_t = true;
  // Repairs.
  bool repair = false;
  // Corrections (reading `corrected`; each a local change to one printed step, see
  // docs/findings/metacube.md):
  //  - fix_pj: case 2, P_j with c_s^(j) = c_t: built like the other global paths with w_j = t (key
  //    hop, hop l, p1 to t; the edge itself when s^(j) = t; the cluster route when s^(j) is in t's
  //    cluster), and the local path whose cube edge it takes into t enters t through t^(j);
  //  - case1_cluster: case 1, P_i when s and t differ only in M[c_s^(i)]: the cluster route
  //    s^(i) -> t^(i) (as case 2 prints for that situation) instead of a walk that changes nothing;
  //  - local_in_cluster: case 2, a local path's target in s's own cluster is reached inside that
  //    cluster by the local path whose first hop that route takes (generalizes the printed
  //    "w_i = s^(j)" exchange, a route of one hop);
  //  - w_is_s: case 2 with H_k(s, t) >= 2, a local path whose w is s itself swaps ends with P_{d0},
  //    d0 the first dimension of the class tail.
  //  - lamplighter: m = 1 (k >= 1), the rules of lamplighter.h instead of the printed cases (whose
  //    exchanges need a second local dimension).
  bool fix_pj = false;
  bool case1_cluster = false;
  bool local_in_cluster = false;
  bool w_is_s = false;
  bool lamplighter = false;
  // Not a reading choice: whether Alg4Result::notes is filled (show / construct want it; the
  // checks do not, and formatting notes dominated the construction's time).
  bool record_notes = true;
  // Not a reading choice either: whether Alg4Result::steps is filled (which printed step of the
  // algorithm wrote each node: the classification of its counterexamples wants it).
  bool record_steps = false;
  // Negative controls.
  bool broken_no_exchange = false;
  bool broken_ignore_key = false;

  friend bool operator==(const Alg4Options&, const Alg4Options&) = default;
};

// The named readings: "paper", "paper-keybit-example4", "repaired", "corrected"; and the negative controls
// "broken-no-exchange", "broken-ignore-key" (not readings of the paper; used by tests only).
std::optional<Alg4Options> options_for_reading(const std::string& reading);
std::vector<std::string> reading_names();  // the two readings of the paper, then our two constructions

// Every combination of the open choices (hc_order x local_hc x exchange x default_key), with the
// other fields taken from `base`. Used to check the theorem under every enumerable choice.
std::vector<Alg4Options> all_choices(const Metacube& mc, const Alg4Options& base);
std::string describe(const Alg4Options& o);

// A step of the printed algorithm: the nodes of path `path` from index `from` on (up to the next
// step of the same path) were written by step `what` ("s^(i)", "key y", "hop l", "p1 -> w_i", ...).
struct Alg4Step {
  int path = 0;
  int from = 0;
  const char* what = "";
};

struct Alg4Result {
  int case_number = 0;      // 0, 1 or 2
  std::vector<Path> paths;  // P_0 ... P_{k+m-1}, each s ... t (as constructed; checkers judge)
  std::vector<std::string> notes;  // key bits, j/j', swaps: for show/construct output
  std::vector<Alg4Step> steps;     // with options.record_steps (not under repair), in path order
  // Reading `repaired` only: Algorithm 4's paths kept as the initial flow, and augmenting paths
  // added by the completion (completion.h). 0 augmentations: the paper's paths, loop-erased.
  int repaired_kept = 0;
  int repaired_augmentations = 0;
};

Alg4Result metacube_disjoint_paths(const Metacube& mc, Node s, Node t, const Alg4Options& options = {});
// The step that wrote node `index` of path `path` (result.steps must be recorded).
const char* alg4_step_of(const Alg4Result& result, int path, int index);
// The same construction written into `out`, every field overwritten, reusing the capacity of
// out.paths and of each path's node list from earlier calls: once the buffers have grown it does
// not allocate (except under options.repair, and for notes when options.record_notes). The
// exhaustive sweeps call it per pair with one scratch result per thread (check_alg4).
void metacube_disjoint_paths_into(const Metacube& mc, Node s, Node t, const Alg4Options& options, Alg4Result& out);

// Algorithm 4 without the repair (options.repair must be false) into `out` (emptied first), path
// P_i as the block's path i; no notes. The exhaustive sweeps' form (check_alg4): the same paths as
// metacube_disjoint_paths, 8 bytes per node, and no allocation once the block has grown.
void metacube_disjoint_paths_block(const Metacube& mc, Node s, Node t, const Alg4Options& options, PathBlock& out);

// Which case Algorithm 4 takes for (s, t).
int alg4_case(const Metacube& mc, Node s, Node t);

}  // namespace topocheck::metacube
