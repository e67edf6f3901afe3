// Section 2 of the AAPC paper in code: dividing Q_n along a set of dimensions, the subcubes and the
// partner sets (PSs) this gives, faulty and perfect PSs, adjacent PSs, corresponding nodes, and the
// search for the partition that algorithm A_f (Section 3.3.1) starts from.
//
// Paper: Masuyama & Masuyama, "A Method of Fault-Tolerant All-to-All Personalized Communication
// in Hypercubes" (papers/004_d7c0ed59f63b519b.txt), Section 2, Example 1, Properties 1-3 and the
// sentence after them (quoted from Park & Bose, IEEE TC 46(7), 1997, without proof).
//
// Notation (paper -> code):
//   dividing dimensions d_1, ..., d_k          -> `DimSet D`, a bit mask (bit j set: dimension j)
//   the 2^k subcubes Q_{n-k}                    -> `subcubes(n, D)`: nodes with equal bits ON D
//   a partner set (PS), a Q_k, 2^(n-k) of them  -> `partner_sets(n, D)`: nodes with equal bits
//                                                  OUTSIDE D; named by `ps_of(x, D) = x & ~D`,
//                                                  its smallest node
//   faulty PS / perfect PS                     -> a PS holding some / no faulty node
//   PSs adjacent to PS P                       -> P xor e_j for each j not in D (`adjacent_ps`)
//   the corresponding node of x along d        -> `corresponding_node(x, d) = x ^ (1 << d)`
//   A_f's "divided along f dimensions" + the   -> `AfPartition{dims, d}`: |dims| = f, each PS of
//   Q_{f+1}^j, j = 1..2^(n-(f+1))                  dims holds <= 1 fault, every faulty PS's
//                                                  neighbour across d is perfect; the Q_{f+1}^j
//                                                  are the cosets of span(dims + {d})
//                                                  (`af_subcubes`), the faulty ones are f, each
//                                                  with one fault
//
// Two facts the code uses (both are the definitions written as formulas):
//   x and y lie in one PS of D     <=>  (x ^ y) & ~D == 0   (they agree outside D)
//   x and y lie in one subcube of D <=> (x ^ y) & D == 0    (they agree on D)
// so two faults a, b share a PS of D iff every bit of a ^ b lies in D.
//
// Example 1 (Q_4, D = {0, 2}, mask 0b0101): the PSs are {0,1,4,5}, {2,3,6,7}, {8,9,12,13},
// {10,11,14,15} (ids 0, 2, 8, 10); the subcubes are {0,2,8,10}, {1,3,9,11}, {4,6,12,14},
// {5,7,13,15}; nodes 0 and 8 are corresponding nodes along dimension 3 (in the two Q_3s of
// dividing along {3}).
// Worked A_f example (Q_4, faults {6, 9}, Example 2's fault set): with D = {0, 2} the faulty PSs
// are 2 = {2,3,6,7} (fault 6) and 8 = {8,9,12,13} (fault 9); across d = 1 their neighbours are
// PS 0 and PS 10, both perfect, so {dims = {0,2}, d = 1} is an A_f partition with Q_3^j = {0..7}
// and {8..15}; d = 3 is valid too. find_af_partition returns the smallest mask, {dims = {0,1},
// d = 2}: PSs 4 = {4..7} and 8 = {8..11} are faulty, their neighbours across 2 are 0 and 12.
//
// Preconditions: every function takes dimension sets inside 0..n-1 and nodes below 2^n and aborts
// (TC_CHECK) otherwise; text forms are parsed at boundaries by `parse_dims`, which returns an
// error. Costs: the PS/subcube listings are O(2^n); the per-fault-set checks are O(f^2) or
// O(f * n) and build no 2^n tables; the searches try every D of size f (C(n, f) of them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aapc/aapc.h"
#include "core/status.h"

namespace topocheck::aapc {

// A set of dimensions, bit j = dimension j.
using DimSet = uint32_t;

int num_dims(DimSet dims);                 // |D|
std::string dims_to_string(DimSet dims);   // "{0,2}" ascending, "{}" when empty
std::string dims_to_list(DimSet dims);     // "0,2" (the stored-input text form), "" when empty
// "0,2" (or "{0,2}"; "" and "{}" for none): errors name `field` (a dimension out of 0..n-1, not a
// number, repeated).
Result<DimSet> parse_dims(int n, std::string_view text, std::string_view field);
// Every D with |D| = k inside 0..n-1, ascending as numbers (so {0,1} < {0,2} < {1,2} < {0,3}).
std::vector<DimSet> dim_sets_of_size(int n, int k);

// --- Partitions (Section 2) -------------------------------------------------------------------

// The PS of x: its smallest node, x with the bits of D cleared.
inline NodeId ps_of(NodeId x, DimSet dims) { return x & ~dims; }
// The subcube of x: its smallest node, x with the bits outside D cleared.
inline NodeId subcube_of(NodeId x, DimSet dims) { return x & dims; }
// The node adjacent to x across dimension d (the paper's x^(d)).
inline NodeId corresponding_node(NodeId x, int d) { return x ^ (NodeId{1} << d); }
// The PS adjacent to PS `ps` across dimension j (j must not be in D).
NodeId adjacent_ps(NodeId ps, int j, DimSet dims);

// The 2^(n-|D|) PSs, each a Q_|D|: sorted node lists ordered by smallest node.
std::vector<std::vector<NodeId>> partner_sets(int n, DimSet dims);
// The 2^|D| subcubes, each a Q_(n-|D|): sorted node lists ordered by smallest node.
std::vector<std::vector<NodeId>> subcubes(int n, DimSet dims);
// The nodes of the PS named `ps` (its smallest node), ascending.
std::vector<NodeId> ps_members(int n, NodeId ps, DimSet dims);

// --- Faults and PSs --------------------------------------------------------------------------

// The faulty PSs (ids, ascending, each once).
std::vector<NodeId> faulty_pss(const FaultSet& faults, DimSet dims);
// True iff no faulty node lies in PS `ps`.
bool is_perfect_ps(const FaultSet& faults, NodeId ps, DimSet dims);
// The first two faults (lexicographically) sharing a PS of D; nullopt iff every PS holds at most
// one faulty node (Property 1's condition).
std::optional<std::pair<NodeId, NodeId>> shared_ps_pair(const FaultSet& faults, DimSet dims);
inline bool at_most_one_fault_per_ps(const FaultSet& faults, DimSet dims) {
  return !shared_ps_pair(faults, dims).has_value();
}
// The dimensions j outside D across which PS `ps` has a perfect neighbour.
DimSet perfect_neighbour_dims(const FaultSet& faults, NodeId ps, DimSet dims);
// The dimensions d outside D across which EVERY faulty PS has a perfect neighbour (the extra
// dimension of A_f's Q_{f+1}s).
DimSet common_perfect_dims(const FaultSet& faults, DimSet dims);
// One perfect neighbour PS per faulty PS, pairwise distinct (a matching of faulty PSs into their
// adjacent perfect PSs, Kuhn's augmenting paths: exact), in the order of faulty_pss; nullopt iff
// none exists.
std::optional<std::vector<NodeId>> distinct_perfect_partners(const FaultSet& faults, DimSet dims);

// Property 2: the dimensions d such that no faulty node's neighbour across d is faulty.
DimSet separating_dimensions(const FaultSet& faults);

// --- The partition A_f starts from (Section 2's last paragraph, Section 3.3.1) ------------------

struct AfPartition {
  DimSet dims = 0;  // the f dividing dimensions D
  int d = 0;        // the extra dimension, not in D
  friend bool operator==(const AfPartition&, const AfPartition&) = default;
};
std::string to_string(const AfPartition& p);  // "D = {0,2}, d = 1"

// Why `p` is not an A_f partition for `faults` (|D| != f, d in D or out of range, two faults in
// one PS, a faulty PS whose neighbour across d is faulty), in words; nullopt if it is one.
std::optional<std::string> check_af_partition(const FaultSet& faults, const AfPartition& p);
// Every A_f partition, D ascending as masks, then d ascending. Empty when n < f + 1.
std::vector<AfPartition> all_af_partitions(const FaultSet& faults);
// The first of all_af_partitions (smallest D mask, then smallest d), or nullopt.
std::optional<AfPartition> find_af_partition(const FaultSet& faults);
// The 2^(n-(f+1)) subcubes Q_{f+1}^j: the cosets of span(D + {d}), sorted node lists ordered by
// smallest node.
std::vector<std::vector<NodeId>> af_subcubes(int n, const AfPartition& p);

}  // namespace topocheck::aapc
