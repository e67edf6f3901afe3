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
// Preconditions: nodes are addresses of `mc`; walks start at class_of(s). Cost: O(length).
#pragma once

#include <vector>

#include "core/path.h"
#include "metacube/metacube.h"

namespace topocheck::metacube {

enum class CycleOrder { kRotate, kReverse };

std::vector<int> hamiltonian_cycle(int k, int start, int first_dim, CycleOrder order = CycleOrder::kRotate);
std::vector<int> weak_hamiltonian_path(int k, int a, int b, int first_dim = 0);

// The walk that follows the closed cycle `cycle` (as returned by hamiltonian_cycle) from `start`
// around twice (enough for any p1 along it). `start` must be on the cycle.
std::vector<int> follow_cycle(const std::vector<int>& cycle, int start);

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

}  // namespace topocheck::metacube
