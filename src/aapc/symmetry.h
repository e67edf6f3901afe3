// Automorphisms of Q_n and the canonical frame of a fault set: the symmetry behind the
// orbit-reduced sweeps of the A_2 and A_f schedules (schedules.h, `Frame`).
//
// Every automorphism of Q_n is g(x) = sigma(x xor t): a translation by t, then a permutation sigma
// of the dimensions (bit i of x xor t becomes bit sigma(i)). g maps links to links (the link of
// dimension i at x to the link of dimension sigma(i) at g(x)), so it maps a valid schedule for the
// fault set F, moved node by node and datum by datum, to a valid schedule for g(F) under every
// port model (aapc.h: each rule is about links, nodes and data, which g maps one to one), with the
// same time units and steps.
//
// The canonical form of a fault set F (f >= 1 faults): for every pivot p in F and every order of
// the other f - 1 nodes of F xor p (the rows), give each dimension i the key made of its bits in
// the rows (first row = most significant bit), and move the dimensions to positions 0, 1, ... by
// descending key (ties: ascending i). The result contains 0 (the pivot) and the moved rows; the
// canonical form is the least of these sets (as ascending lists). Two fault sets have the same
// canonical form iff an automorphism maps one onto the other: the candidates of g(F) are the
// candidates of F (pivot g(p), the same row orders; g's sigma only permutes the keys, which are
// sorted away), and each candidate is an image of F. Cost: f! * n log n per fault set.
//
// Example: Q_4, F = {6, 9}: pivot 6 gives the row 6 ^ 9 = 15, every dimension has key 1, so the
// candidate is {0, 15}; pivot 9 gives the same. canonical_form = {0, 15}, and canonical_frame(F)
// is x -> x xor 6 (sigma the identity).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "aapc/aapc.h"

namespace topocheck::aapc {

struct Automorphism {
  int n = 0;
  NodeId t = 0;                      // translation, applied first
  std::array<int, kMaxN> sigma{};    // dimension i goes to sigma[i] (a permutation of 0..n-1)

  static Automorphism identity(int n);
  bool is_identity() const;
  NodeId apply(NodeId x) const;      // sigma(x xor t)
  NodeId unapply(NodeId y) const;    // the inverse: sigma^-1(y) xor t
  int dim(int i) const { return sigma[i]; }
  uint32_t dims(uint32_t mask) const;  // the image of a dimension mask
  Automorphism inverse() const;
};

// The canonical form of the fault set (ascending; F itself when F is empty).
std::vector<NodeId> canonical_form(const FaultSet& faults);
// An automorphism g with g(F) = canonical_form(F): the identity when F is already canonical
// (or empty), so that the canonical representative of an orbit is generated in its own labels.
Automorphism canonical_frame(const FaultSet& faults);
bool is_canonical(const FaultSet& faults);

// The image of a schedule under g (every node of every move and every datum's source and
// destination; units and steps unchanged). g(schedule) is valid for g(F) iff schedule is for F.
Schedule transform(const Schedule& schedule, const Automorphism& g);

// Calls visit(faults) for the canonical fault sets of Q_n with exactly f faults (one per orbit of
// Q_n's automorphism group), ascending as lists; stops when visit returns false. Enumerates the
// C(2^n - 1, f - 1) sets that contain node 0 (every canonical set does) and keeps the canonical
// ones. f = 0 visits the empty set.
void for_each_canonical_fault_set(int n, int f, const std::function<bool(const std::vector<NodeId>&)>& visit);
// The size of the orbit of a fault set (how many fault sets of Q_n are its images): |Aut(Q_n)| =
// 2^n n! over the size of its stabilizer {g : g(F) = F}. Counted on the canonical form K (which
// contains 0): g(K) = K needs t in K (0 must come from some node), and for t and a bijection pi of
// the nonzero rows of K xor t onto those of K, the sigma mapping each row to its image are the
// maps of every dimension onto one with the same column (pi order), prod over columns of m!.
uint64_t orbit_size(const FaultSet& faults);

}  // namespace topocheck::aapc
