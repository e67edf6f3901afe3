// RapidCheck generator of Metacube inputs (k, m, s, t): the input of every Theorem 2 claim.
//
// `McPair{k, m, s, t}` prints as "MC(1,2) s=00000 t=00101" (the addresses as the paper prints
// them, most significant first: class field, then M[h-1] ... M[0]; see metacube.h).
//
// `gen::metacube_pair(max_bits, max_k = 5)`: k in 1..max_k, m >= 1 with width n = m*2^k + k <= max_bits, and
// two DISTINCT addresses s, t of MC(k, m) (Algorithm 4 requires s != t). The largest width grows
// with the generation size as cube_pair's n does: n <= limit = 3 + min(max_bits - 3,
// ceil((max_bits - 3) * size / 50)), so size 0 gives MC(1,1) and every size from 50 on the whole
// range. (k, m) is, one case in four each: a small metacube (n <= 12: MC(1,1..5), MC(2,1..2),
// MC(3,1)), uniform among those within the limit; k uniform and m the largest that fits; k
// uniform and m uniform (twice as often). The difference s XOR t is chosen so that Algorithm 4's
// three cases are all covered (a uniform t would almost never share s's cluster), one in four
// each:
//   case 0: t differs from s in M[c_s] only (one bit, or a random nonzero mask);
//   case 1: same class, t differs in some other field M[f], f != c_s (one bit or a random mask),
//           and M[c_s] equal, one bit apart (the j/j' exchange) or random;
//   case 2: the class fields differ (one bit or a random mask), the M fields equal, a bit or two
//           apart, or random;
//   t uniform (distinct from s).
// s itself is all zeros 1/8, all ones 1/8, uniform otherwise.
//
// Shrinking (each candidate is again shrinkable; the first failing one is taken):
//   1. a smaller metacube: MC(1,1), MC(k, m/2), then each class dimension removed (k-1, m; the
//      top one first), then each bit of the M fields removed (k, m-1; the top one first). s and t
//      are PROJECTED by one map (`project`): the kept class bits, and of the fields those whose
//      index agrees with c_s on the removed class bits, each cut to the kept field bits. If s and
//      t project to the same address, t is moved one bit away so that Algorithm 4 takes the same
//      case as before where the smaller metacube allows (a class bit for case 2, a bit of another
//      field for case 1, a bit of M[c_s] for case 0);
//   2. a lower Hamming weight of s XOR t: one differing bit of t set to s's value, most
//      significant first (never the last one: s != t is kept);
//   3. s moved toward 0 by a class-zero translation a (u -> u XOR a, an automorphism of MC(k,m),
//      see metacube.symmetry.automorphism), t moved by the same a: first a = the M part of s
//      (s becomes its class field alone), then a = one M bit of s, most significant first;
//   4. clearing a bit set in both s and t (keeps s XOR t; a class bit too, which is not an
//      automorphism but a plain candidate), then a bit set in s only (lowers s XOR t), most
//      significant first.
// Every step lowers (k, m, H(s,t), |s| + |t|, |M part of s|) lexicographically (step 3 keeps
// |s| + |t| or lowers it, since |t XOR a| <= |t| + |a|), so shrinking terminates. For a property
// invariant under class-zero translations a fully shrunk value has s equal to its class field.
// When every candidate fails, shrinking ends in MC(1,1) with H(s,t) = 1, e.g. "s=000 t=001"
// (case 0), "t=010" (case 1), "t=100" (case 2), or the same with s = 100. (Algorithm 4 under the
// key-bit rule as printed is NOT invariant in case 2; see props/metacube_props.cc.)
// Shrinking is greedy: it can stop in a local minimum (a failure that needs a field that every
// projection drops), so a shrunk counterexample is small, not necessarily the smallest.
//
// Deterministic: the value and its whole shrink tree are functions of (rc::Random, size) only.
// Preconditions: 3 <= max_bits <= 63 (MC(1,1) has 3 address bits); violations abort (TC_CHECK).
// Cost: O(n) to generate; one shrink step lists O(n) candidates of O(n) each.
#pragma once

#include <bit>
#include <cstdint>
#include <ostream>
#include <tuple>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/core_gen.h"
#include "core/node.h"
#include "core/status.h"
#include "metacube/metacube.h"

namespace topocheck::metacube {

// One input of a Theorem 2 claim: MC(k, m) and two distinct nodes of it.
struct McPair {
  int k = 1;
  int m = 1;
  Node s{0, 3};
  Node t{1, 3};

  int width() const { return m * (1 << k) + k; }
  Metacube metacube() const { return Metacube::make(k, m).value(); }

  friend bool operator==(const McPair&, const McPair&) = default;
};

// "MC(1,2) s=00000 t=00101".
inline void showValue(const McPair& value, std::ostream& os) {
  os << "MC(" << value.k << "," << value.m << ") s=" << value.s << " t=" << value.t;
}
inline std::ostream& operator<<(std::ostream& os, const McPair& value) {
  showValue(value, os);
  return os;
}

namespace gen {
namespace internal {

using topocheck::gen::bits::low_mask;
using topocheck::gen::draw::pick_below;

inline constexpr int kMaxClassDimension = 5;  // Metacube::make's range of k
inline constexpr int kSmallWidth = 12;        // "small": MC(1,1..5), MC(2,1..2), MC(3,1)

inline int metacube_width(int k, int m) { return m * (1 << k) + k; }

// The largest m with m*2^k + k <= max_bits (0 if none).
inline int max_m(int k, int max_bits) { return max_bits < k ? 0 : (max_bits - k) >> k; }

// Address bits of class c and fields M[0..h-1] (field i at bits i*m .. i*m+m-1, class above).
inline uint64_t field_of(uint64_t bits, int m, int i) { return (bits >> (i * m)) & low_mask(m); }
inline int class_of(uint64_t bits, int k, int m) { return static_cast<int>(bits >> (m * (1 << k))); }

}  // namespace internal

// The shrinking's projection of p (step 1 of the header comment) to the smaller metacube
// MC(popcount(class_keep), popcount(bit_keep)) that keeps the class dimensions set in
// `class_keep` and the field bits set in `bit_keep`: class bit j' is the j'-th kept class bit;
// field i' is the old field i = deposit(i', class_keep) | (c_s & ~class_keep) (the fields whose
// index agrees with c_s on the removed class bits), cut to the kept bits. One map for both nodes.
// If s and t meet, t is moved one bit away, keeping Algorithm 4's case where the smaller metacube
// allows: a class bit for case 2, a bit of M[c_s' ^ 1] for case 1, a bit of M[c_s'] for case 0.
// Example: MC(2,1) s=100100 t=100101 (case 1) with class dimension 1 removed (class_keep 01,
// bit_keep 1) gives MC(1,1) s=001 t=011 (case 1). Preconditions: p a well-formed McPair,
// class_keep a nonempty subset of the low p.k bits, bit_keep a nonempty subset of the low p.m
// bits (unchecked). Cost: O(2^k * (k + m)).
inline McPair project(const McPair& p, uint64_t class_keep, uint64_t bit_keep) {
  using internal::class_of, internal::field_of, internal::metacube_width;
  using topocheck::gen::bits::deposit_bits, topocheck::gen::bits::extract_bits;
  const int k2 = std::popcount(class_keep), m2 = std::popcount(bit_keep);
  const int h2 = 1 << k2, n2 = metacube_width(k2, m2);
  const uint64_t cs = static_cast<uint64_t>(class_of(p.s.bits, p.k, p.m));
  const auto map = [&](uint64_t bits) {
    uint64_t out = extract_bits(static_cast<uint64_t>(class_of(bits, p.k, p.m)), class_keep) << (m2 * h2);
    for (int i2 = 0; i2 < h2; ++i2) {
      const int i = static_cast<int>(deposit_bits(static_cast<uint64_t>(i2), class_keep) | (cs & ~class_keep));
      out |= extract_bits(field_of(bits, p.m, i), bit_keep) << (i2 * m2);
    }
    return out;
  };
  const uint64_t s2 = map(p.s.bits);
  uint64_t t2 = map(p.t.bits);
  if (s2 == t2) {
    const int cs2 = class_of(s2, k2, m2);
    const int ct = class_of(p.t.bits, p.k, p.m);
    bool other_fields_differ = false;  // Algorithm 4's case 1: same class, another cluster
    for (int i = 0; i < (1 << p.k); ++i)
      if (i != static_cast<int>(cs) && field_of(p.s.bits, p.m, i) != field_of(p.t.bits, p.m, i))
        other_fields_differ = true;
    if (ct != static_cast<int>(cs)) t2 ^= uint64_t{1} << (m2 * h2);              // case 2: class bit 0
    else if (other_fields_differ) t2 ^= uint64_t{1} << ((cs2 ^ 1) * m2);        // case 1: M[c_s ^ 1]
    else t2 ^= uint64_t{1} << (cs2 * m2);                                       // case 0: M[c_s]
  }
  return McPair{k2, m2, Node{s2, n2}, Node{t2, n2}};
}

namespace internal {

inline std::vector<McPair> metacube_pair_shrinks(const McPair& p) {
  std::vector<McPair> out;
  const int n = p.width(), k = p.k, m = p.m;
  const uint64_t all_classes = low_mask(k), all_bits = low_mask(m);
  // 1. Smaller metacubes.
  if (k > 1 || m > 1) out.push_back(project(p, 1, 1));
  if (m / 2 > 1) out.push_back(project(p, all_classes, low_mask(m / 2)));
  if (k > 1)
    for (int j = k - 1; j >= 0; --j) out.push_back(project(p, all_classes & ~(uint64_t{1} << j), all_bits));
  if (m > 1)
    for (int b = m - 1; b >= 0; --b) out.push_back(project(p, all_classes, all_bits & ~(uint64_t{1} << b)));
  // 2. t toward s, one differing bit at a time, keeping s != t.
  const uint64_t diff = p.s.bits ^ p.t.bits;
  if (std::popcount(diff) > 1)
    for (int b = n - 1; b >= 0; --b)
      if ((diff >> b) & 1) out.push_back(McPair{k, m, p.s, p.t.flip(b)});
  // 3. Class-zero translations of both toward s = its class field (x -> x XOR a).
  const uint64_t s_fields = p.s.bits & low_mask(m * (1 << k));
  const auto translated = [&](uint64_t a) {
    return McPair{k, m, Node{p.s.bits ^ a, n}, Node{p.t.bits ^ a, n}};
  };
  if (s_fields != 0) out.push_back(translated(s_fields));
  if (std::popcount(s_fields) > 1)
    for (int b = n - 1; b >= 0; --b)
      if ((s_fields >> b) & 1) out.push_back(translated(uint64_t{1} << b));
  // 4. Clear a bit of both (XOR kept), then a bit of s alone where t has 0 (XOR lowered).
  const uint64_t both = p.s.bits & p.t.bits, s_only = p.s.bits & ~p.t.bits;
  for (int b = n - 1; b >= 0; --b)
    if ((both >> b) & 1) out.push_back(McPair{k, m, p.s.flip(b), p.t.flip(b)});
  if (std::popcount(diff) > 1)
    for (int b = n - 1; b >= 0; --b)
      if ((s_only >> b) & 1) out.push_back(McPair{k, m, p.s.flip(b), p.t});
  return out;
}

// A nonzero subset of the low `width` bits: one bit half of the time, else a random mask.
inline uint64_t pick_nonzero(rc::Random& random, int width) {
  if (pick_below(random, 2) == 0) return uint64_t{1} << pick_below(random, width);
  const uint64_t mask = random.next() & low_mask(width);
  return mask != 0 ? mask : uint64_t{1} << pick_below(random, width);
}

// s XOR t for the chosen case (see the header comment); never zero.
inline uint64_t pick_difference(rc::Random& random, int k, int m, uint64_t s) {
  const int h = 1 << k, n = metacube_width(k, m), cs = class_of(s, k, m);
  const int kind = pick_below(random, 4);
  if (kind == 0) return pick_nonzero(random, m) << (cs * m);  // case 0: M[c_s] only
  if (kind == 1) {                                            // case 1: another field differs
    const int f = (cs + 1 + pick_below(random, h - 1)) % h;
    uint64_t diff = pick_nonzero(random, m) << (f * m);
    const int own = pick_below(random, 3);  // M[c_s]: equal, one bit apart, random
    if (own == 1) diff |= uint64_t{1} << (cs * m + pick_below(random, m));
    if (own == 2) diff |= (random.next() & low_mask(m)) << (cs * m);
    return diff;
  }
  if (kind == 2) {  // case 2: the classes differ
    uint64_t diff = pick_nonzero(random, k) << (m * h);
    const int fields = pick_below(random, 3);  // M fields: equal, a bit or two apart, random
    if (fields == 1)
      for (int q = 1 + pick_below(random, 2); q > 0; --q) diff |= uint64_t{1} << pick_below(random, m * h);
    if (fields == 2) diff |= random.next() & low_mask(m * h);
    return diff;
  }
  const uint64_t diff = random.next() & low_mask(n);  // t uniform
  return diff != 0 ? diff : uint64_t{1} << pick_below(random, n);
}

}  // namespace internal

inline rc::Gen<McPair> metacube_pair(int max_bits, int max_k = internal::kMaxClassDimension) {
  TC_CHECK(max_bits >= 3 && max_bits <= kMaxWidth, "gen::metacube_pair: max_bits out of range 3..63");
  TC_CHECK(max_k >= 1 && max_k <= internal::kMaxClassDimension, "gen::metacube_pair: max_k out of range 1..5");
  return rc::Gen<McPair>([max_bits, max_k](const rc::Random& random, int size) {
    rc::Random r(random);
    // scale_to_size(2 * (max_bits - 3), size) = ceil((max_bits - 3) * size / 50), capped.
    const int grown = topocheck::gen::draw::scale_to_size(2 * (max_bits - 3), size);
    const int limit = 3 + (grown < max_bits - 3 ? grown : max_bits - 3);
    const int kind = internal::pick_below(r, 4);
    int k = 1, m = 1;
    if (kind == 0) {  // a small metacube, uniform among those within the limit
      const int small = limit < internal::kSmallWidth ? limit : internal::kSmallWidth;
      std::vector<std::pair<int, int>> choices;
      for (int kk = 1; kk <= max_k; ++kk)
        for (int mm = 1; mm <= internal::max_m(kk, small); ++mm) choices.emplace_back(kk, mm);
      std::tie(k, m) = choices[static_cast<size_t>(internal::pick_below(r, static_cast<int>(choices.size())))];
    } else {  // k uniform among those that fit; m the largest (kind 1) or uniform
      int k_max = 1;
      while (k_max < max_k && internal::max_m(k_max + 1, limit) >= 1) ++k_max;
      k = 1 + internal::pick_below(r, k_max);
      const int m_max = internal::max_m(k, limit);
      m = kind == 1 ? m_max : 1 + internal::pick_below(r, m_max);
    }
    const int n = internal::metacube_width(k, m);
    const uint64_t s = topocheck::gen::draw::pick_bits(r, n);
    const uint64_t t = s ^ internal::pick_difference(r, k, m, s);
    return rc::shrinkable::shrinkRecur(McPair{k, m, Node{s, n}, Node{t, n}}, [](const McPair& p) {
      return rc::seq::fromContainer(internal::metacube_pair_shrinks(p));
    });
  });
}

}  // namespace gen
}  // namespace topocheck::metacube

namespace rc {

// Any MC(k, m) with k >= 1 the library supports (m*2^k + k <= 63), s != t.
template <>
struct Arbitrary<topocheck::metacube::McPair> {
  static Gen<topocheck::metacube::McPair> arbitrary() {
    return topocheck::metacube::gen::metacube_pair(topocheck::kMaxWidth);
  }
};

}  // namespace rc
