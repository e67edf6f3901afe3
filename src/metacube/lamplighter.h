// k + 1 disjoint paths in MC(k, 1), the corrected construction's rules for m = 1 (reading
// `corrected`; docs/findings/metacube.md, "The corrected construction", m = 1).
//
// With m = 1 every field M[i] is one bit: MC(k, 1) is the lamplighter graph over the k-cube. A
// node is (x, L): x its class, L the set of classes whose bit (lamp) is on. A cross edge of
// dimension d moves x to x XOR 2^d; the cube edge toggles the lamp at x. Algorithm 4's exchanges
// need a second local dimension (j', i'), which m = 1 does not have, and its per-path Hamiltonian
// cycles let paths meet; these rules replace it for m = 1.
//
// Frame: translating the lamps (L -> L XOR A) and the classes (x -> x XOR a, lamp y -> y XOR a) are
// automorphisms that keep every edge's kind and dimension, so the paths are built for s = (0, {}),
// t = (c, D) as sequences of moves and replayed from the real s: c = c_s XOR c_t and D is the set of
// lamps where s and t differ, moved by c_s.
//
// Vocabulary of the rules (each a fixed loop, no search):
//  - e_j = 2^j; P_j the standard hypercube path 0 -> c whose first dimension is j (j in c: c's
//    dimensions in cyclic order from j; otherwise j, c's dimensions ascending, j again); the k of
//    them are internally disjoint;
//  - the Gray cycle G of Q_k (G_i = i XOR i/2);
//  - a tagged lap with set W at class a (a not in D): toggle a (the tag), walk G translated to a
//    once around toggling each class of W at its first pass, back at a toggle the tag off.
//    Nodes of two tagged laps with different tags never coincide (each holds its own tag, not in D);
//  - a monotone lap with set W: walk G forward from the current class, toggling each class of W at
//    its first pass, and stop after the last.
//
// Preconditions: 1 <= k <= 6 (the lamps fit 64 bits), c < 2^k, D < 2^(2^k), (c, D) != (0, 0).
// Cost: O(k * 2^k) moves per path.
#pragma once

#include <cstdint>
#include <vector>

namespace topocheck::metacube::lamplighter {

// A path as its moves from s: 0 .. k-1 a cross edge of that dimension, kToggle the cube edge.
inline constexpr uint8_t kToggle = 255;
using Moves = std::vector<uint8_t>;

// The k + 1 paths from (0, {}) to (c, D) of MC(k, 1): P_0 ... P_{k-1} start with the cross edge of
// their index, P_k with the cube edge (as Algorithm 4 numbers them).
std::vector<Moves> paths(int k, uint32_t c, uint64_t D);

}  // namespace topocheck::metacube::lamplighter
