// The bit-vector model of MC(k, m) shared by the Metacube encodings (Li, Peng, Chu, "Disjoint
// Paths in Metacube"; the encoding as a whole is described in smt/metacube_smt.h): the address
// arithmetic on n-bit vectors (Space), the symbolic nodes and paths (slot lists), the splits on
// the class fields, and the entry point of Algorithm 4's encoding (metacube_alg4_smt.cc).
// Private to smt/: the metacube encodings only. Preconditions: a Metacube that Metacube::make
// accepts; the z3::context outlives every term built from it. Cost: every function builds terms
// only (no solver call); Space::is_edge is O(h) terms, popcount O(n). Implemented (splits and
// Algorithm 4) in metacube_alg4_smt.cc.
#pragma once

#include <cstdint>
#include <vector>

#include <z3++.h>

#include "metacube/disjoint.h"
#include "metacube/metacube.h"

namespace topocheck::smt::metacube_encoding {

using metacube::Metacube;

// Width of the small counters (slot counts, popcounts): paths have far fewer than 2^16 slots.
inline constexpr unsigned kCountWidth = 16;

// Address arithmetic of MC(k, m) on n-bit vectors (metacube.h's layout).
struct Space {
  Space(z3::context& context, const Metacube& metacube)
      : ctx(context), mc(metacube), k(mc.k()), m(mc.m()), h(mc.h()), n(mc.width()),
        shift(m * h) {}
  z3::context& ctx;
  const Metacube& mc;
  int k, m, h, n, shift;  // shift: position of the class field

  z3::expr val(uint64_t v) const { return ctx.bv_val(v, static_cast<unsigned>(n)); }
  z3::expr one_bit() const { return ctx.bv_val(1, 1); }
  uint64_t field_mask(int f) const { return ((uint64_t{1} << m) - 1) << (f * m); }
  uint64_t class_mask() const { return ((uint64_t{1} << k) - 1) << shift; }
  // Field M[f] of an address (m bits).
  z3::expr field(const z3::expr& u, int f) const {
    return u.extract(static_cast<unsigned>(f * m + m - 1), static_cast<unsigned>(f * m));
  }
  // An m-bit value placed at field f, zeros elsewhere (n bits).
  z3::expr place(const z3::expr& value, int f) const {
    z3::expr out = value;
    if (f > 0) out = z3::concat(out, ctx.bv_val(0, static_cast<unsigned>(f * m)));
    const int high = n - m - f * m;
    if (high > 0) out = z3::concat(ctx.bv_val(0, static_cast<unsigned>(high)), out);
    return out;
  }
  // The address with class field c and M fields `low` (m*h bits).
  z3::expr address(int c, const z3::expr& low) const {
    return k == 0 ? low : z3::concat(ctx.bv_val(static_cast<uint64_t>(c), static_cast<unsigned>(k)), low);
  }
  // Metacube::is_edge on symbolic addresses: d = u XOR v has exactly one bit set, and that bit is a
  // class bit or a bit of the field M[c_u] selected by u's class (edge_dimension).
  z3::expr is_edge(const z3::expr& u, const z3::expr& v) const {
    const z3::expr d = u ^ v;
    const z3::expr zero = val(0);
    const z3::expr one_hot = d != zero && (d & (d - val(1))) == zero;
    z3::expr field_of_u = val(field_mask(h - 1));
    if (k > 0) {
      const z3::expr cls = u.extract(static_cast<unsigned>(n - 1), static_cast<unsigned>(shift));
      for (int c = h - 2; c >= 0; --c)
        field_of_u = z3::ite(cls == ctx.bv_val(static_cast<uint64_t>(c), static_cast<unsigned>(k)),
                             val(field_mask(c)), field_of_u);
    }
    z3::expr allowed = (d & field_of_u) != zero;
    if (k > 0) allowed = allowed || (d & val(class_mask())) != zero;
    return one_hot && allowed;
  }
  // popcount of an n-bit vector as a kCountWidth-bit number.
  z3::expr popcount(const z3::expr& x) const {
    z3::expr sum = ctx.bv_val(0, kCountWidth);
    for (int b = 0; b < n; ++b)
      sum = sum + z3::zext(x.extract(static_cast<unsigned>(b), static_cast<unsigned>(b)), kCountWidth - 1);
    return sum;
  }
};

// A node computed by the construction: its class is concrete in a split, its address symbolic
// (an n-bit vector whose class field is always `cls`).
struct SymNode {
  int cls;
  z3::expr bits;
};

// One position of a symbolic path. `always` records that `present` is true by construction.
struct Slot {
  z3::expr present;
  z3::expr node;
  bool always;
};
using SymPath = std::vector<Slot>;

// A sub-problem: concrete class fields and case; for the m = 1 rules of `corrected`
// (options.lamplighter), also the lamps D where s and t differ, in the frame of s (lamp y is
// M[y XOR c_s]): those rules decide on (c_s XOR c_t, D) alone, so each value of D is a split whose
// paths are concrete moves from the symbolic s. lamps = -1: not split on D.
struct Split {
  int cs, ct, case_number;
  int64_t lamps = -1;
};

// Every split, in the order of exhaustive search's (c_s, c_t): the smallest violating pair in
// address order has the c_s of the first split (in this order) that has a violation, and lies in
// that split or a later one with the same c_s (minimize() searches them).
std::vector<Split> all_splits(const Metacube& mc);
// The splits of Algorithm 4 under `o`: all_splits(mc), each m = 1 split of `corrected` divided
// further by the value of D (2^(2^k) splits per pair of classes).
std::vector<Split> all_splits(const Metacube& mc, const metacube::Alg4Options& o);

// The splits decide() checks: all_splits(mc, o), except for the m = 1 rules of `corrected`, where
// only the splits with c_s = 0 (2^k * 2^(2^k) - 1 of them). The class translation phi_a
// (class x -> x XOR a, field M[f] -> M[f XOR a]) is an automorphism of MC(k, m), and it keeps
// every part of Theorem 2 and the commutation (it maps edges to edges, Hamming distances and the
// case of a pair to themselves, class-zero translations to class-zero translations). The m = 1
// rules build the paths in the frame of s and replay them (metacube/lamplighter.h), so the paths
// of (s, t) are phi_(c_s) of the paths of (phi_(c_s)(s), phi_(c_s)(t)), whose source has class 0:
// a split with c_s != 0 is a violation-free split's image. Both facts are tested
// (metacube_smt_test: ClassTranslation*); the evaluator keeps every split.
std::vector<Split> decision_splits(const Metacube& mc, const metacube::Alg4Options& o);

// The split's precondition on (s, t): s != t and the case's condition (metacube::alg4_case).
z3::expr split_precondition(const Space& sp, const Split& split, const z3::expr& s, const z3::expr& t);

// Algorithm 4 (with Algorithms 1 and 3 inside it) for one split, symbolically in the M fields of s
// and t: the slot lists of P_0 ... P_{k+m-1} that metacube::metacube_disjoint_paths(mc, s, t, o)
// returns for every (s, t) of the split (metacube_alg4_smt.cc). Precondition: alg4_encoding_gap(o)
// is nullopt (the `repair` option is not encoded).
std::vector<SymPath> alg4_paths(const Space& sp, const metacube::Alg4Options& o, const Split& split,
                                const z3::expr& s, const z3::expr& t);

}  // namespace topocheck::smt::metacube_encoding
