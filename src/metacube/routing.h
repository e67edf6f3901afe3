// Metacube routing pieces (Section 2, Algorithm 1; Section 3, Algorithm 3 inside MC(k, m)).
//
// Class walks: a class walk is a list of classes (k-bit numbers) that starts at the source's
// class; consecutive classes differ in one bit.
//  - hamiltonian_cycle(k, start, first_dim, order): the closed walk start ... start (2^k + 1
//    classes) of a Gray code whose step t (t = 1 .. 2^k) flips dimension pi(ctz(t)) (the last step
//    flips pi(k-1)), with pi(d) = (first_dim + d) % k for kRotate and (first_dim - d) mod k for
//    kReverse. Its first step flips first_dim. For k = 2, start 00, first_dim 0 this is
//    (00 : 01 : 11 : 10 : 00), Example 1's cycle; first_dim 1 gives (00 : 10 : 11 : 01 : 00)
//    ("next(s) = 10"). For k = 1 the "cycle" is (0 : 1 : 0).
//  - weak_hamiltonian_path(k, a, b, first_dim): Lemma 1 (cited from [7], not printed; this is our
//    construction): a == b: the Hamiltonian cycle above (kRotate); H(a, b) odd: a Hamiltonian path
//    a -> b built recursively (split on the lowest differing dimension d, Hamiltonian path in a's
//    half to a neighbour c of a, cross d, Hamiltonian path in b's half to b); H(a, b) even: a
//    Hamiltonian path to b's lowest-dimension neighbour, then b (extended-Hamiltonian). Length
//    2^k - 1 or 2^k; every class is visited.
//
// p1 (Algorithm 1) along a class walk: at class u, route inside the cluster to M_t[u] by
// ascending routing (lowest differing bit first); stop when the node is t; otherwise cross to the
// next class of the walk. If the walk runs out before t is reached the returned path stops there
// (it does not end at t): the construction never hides that, the checkers report it.
//
// Allocation-free forms (Algorithm 4's construction runs once per pair in every exhaustive sweep):
// the append_* functions append a piece to the current path of a PathBlock (core/sweep/path_block.h:
// address bits, no allocation once grown) with append()'s rule (the piece's first node is dropped
// when it equals the path's last node), so append(p, p1_walk(...)) and append_p1_walk(block, ...)
// leave the same nodes; the value-returning functions are those appends to an empty path. ClassCycle holds one cycle and every walk follow_cycle makes along it,
// in fixed arrays (k <= 5, as in every MC(k, m)).
//
// Preconditions: nodes are addresses of `mc`; walks start at class_of(s). Cost: O(length).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "core/path.h"
#include "core/sweep/path_block.h"
#include "metacube/metacube.h"

namespace topocheck::metacube {

enum class CycleOrder { kRotate, kReverse };

std::vector<int> hamiltonian_cycle(int k, int start, int first_dim, CycleOrder order = CycleOrder::kRotate);
// The same cycle written to out[0 .. 2^k] (out.size() must be at least 2^k + 1).
void hamiltonian_cycle_into(std::span<int> out, int k, int start, int first_dim, CycleOrder order);
std::vector<int> weak_hamiltonian_path(int k, int a, int b, int first_dim = 0);

// The walk that follows the closed cycle `cycle` (as returned by hamiltonian_cycle) from `start`
// around twice (enough for any p1 along it). `start` must be on the cycle.
std::vector<int> follow_cycle(const std::vector<int>& cycle, int start);

// hamiltonian_cycle(k, start, first_dim, order) and, for every class c, follow_cycle(that cycle, c),
// computed once by assign() (O(2^k)) into fixed arrays; k <= kMaxClassDim (TC_CHECK).
class ClassCycle {
 public:
  static constexpr int kMaxClassDim = 5;
  void assign(int k, int start, int first_dim, CycleOrder order);
  std::span<const int> cycle() const { return {twice_.data(), cycle_size_}; }
  // = follow_cycle(cycle(), c); c must be a class of the k-cube.
  std::span<const int> walk_from(int c) const {
    return {twice_.data() + position_[static_cast<size_t>(c)], walk_size_};
  }

 private:
  static constexpr size_t kMaxLen = size_t{1} << kMaxClassDim;  // classes on the cycle
  // twice_[q] = cycle[q mod len] for q < 3 len: the walk from position p is twice_[p .. p + 2 len].
  // Left uninitialized until assign() (an Algorithm 4 run keeps k of these on its stack).
  std::array<int, 3 * kMaxLen + 1> twice_;
  std::array<int, kMaxLen> position_;  // position of each class on the cycle
  size_t cycle_size_ = 0, walk_size_ = 0;
};

// Algorithm 1 along `walk`; the path includes s.
Path p1_walk(const Metacube& mc, Node s, Node t, const std::vector<int>& walk);
// Algorithm 1 with the weak-Hamiltonian class path from c_s to c_t (first_dim: next(s) for a cycle).
Path p1(const Metacube& mc, Node s, Node t, int first_dim = 0);

// Algorithm 3 in a cluster: from u to v (same cluster), flipping the differing bits of M[c] in the
// order (i+1) % n, ..., i with n = `n` (the printed first argument); bits >= m are skipped and
// bits of M[c] not in 0..n-1 are never flipped (then the path stops short of v).
Path p3_cluster(const Metacube& mc, int n, int i, Node u, Node v);
// Algorithm 3 on the class field: from u to v (differing in the class field only), flipping class
// bits in the order (i+1) % k, ..., i.
Path p3_class(const Metacube& mc, int i, Node u, Node v);

// Appends `tail` to `path`, dropping tail's first node when it equals path's last node.
void append(Path& path, const Path& tail);
// The same for the one-node tail (u): appends u unless it is path's last node.
inline void append(Path& path, Node u) {
  if (path.nodes.empty() || path.nodes.back() != u) path.nodes.push_back(u);
}

// The same for the current path of a block (Algorithm 4 builds its paths in a PathBlock): appends
// u's bits unless they are the last node's.
inline void append(PathBlock& path, uint64_t u) {
  if (path.current_empty() || path.back() != u) path.push(u);
}
// append(path, p1_walk(mc, s, t, walk)), append(path, p3_cluster(...)), append(path, p3_class(...))
// on the current path of a block, without building the piece; p1_walk, p3_cluster and p3_class
// are these appends to an empty path.
void append_p1_walk(PathBlock& path, const Metacube& mc, Node s, Node t, std::span<const int> walk);
// The same along `cycle` (a Hamiltonian cycle of mc's class cube) from s's class:
// append_p1_walk(path, mc, s, t, cycle.walk_from(class_of(s))), without checking every class of
// the walk (ClassCycle::assign made them).
void append_p1_walk(PathBlock& path, const Metacube& mc, Node s, Node t, const ClassCycle& cycle);
void append_p3_cluster(PathBlock& path, const Metacube& mc, int n, int i, Node u, Node v);
void append_p3_class(PathBlock& path, const Metacube& mc, int i, Node u, Node v);

}  // namespace topocheck::metacube
