// RapidCheck generator of hypercube inputs (n, x, y): the input of every hypercube claim.
//
// `CubePair{n, x, y}` prints as "n=3 x=000 y=011" (the papers' bit strings, bit n-1 first).
//
// `gen::cube_pair(max_n)`: n in 1..max_n, x and y nodes of width n. The largest n grows with
// the generation size, twice as fast as rc::gen::inRange's range: n <= limit = 1 +
// min(max_n - 1, ceil((max_n - 1) * size / 50)), so size 0 gives n = 1 and every size from 50 on
// the whole 1..max_n (a `k % 100` size schedule spends half its cases there). n is drawn from
// the small end 1..min(limit, 6), where most bugs live, one case in four; is the limit itself
// (n = max_n from size 50 on) one case in four; and uniform in 1..limit otherwise. The
// distance d = H(x, y) is chosen, not left to chance (uniform y would make d close to n/2):
//   1/4  y = x (d = 0; Table 1 lists it, Algorithm 4 needs it);
//   3/8  d in 1..min(n, 3): a few distinct random dimensions;
//   1/8  d = n or n - 1 (y the complement of x, or one bit short of it);
//   1/4  y uniform.
// x itself is all zeros 1/8, all ones 1/8, uniform otherwise.
//
// Shrinking (each candidate is again shrinkable; the first failing one is taken):
//   1. a smaller cube: x and y truncated to their low 1 and n/2 bits, then each dimension k
//      removed from x and y (k = n-1 first, which is truncation to the low n-1 bits);
//   2. x translated to 0...0: (0, x XOR y) keeps the distance and every XOR-invariant property;
//   3. clearing a bit set in both x and y (keeps x XOR y), then a bit of x, then a bit of y,
//      most significant first.
// Every step lowers (n, |x| + |y|, x != 0) lexicographically, so shrinking terminates; the
// smallest value is n=1 x=0 y=0.
//
// Deterministic: the value and its whole shrink tree are functions of (rc::Random, size) only,
// so gen(rc::Random(seed), size) reproduces a case, and `.shrinks()` can be walked by hand (the
// `random` verify method does that).
// Preconditions: 1 <= max_n <= kMaxDimension; violations abort (TC_CHECK).
// Cost: O(n) to generate; one shrink step lists O(n) candidates of O(1) each.
#pragma once

#include <bit>
#include <cstdint>
#include <ostream>
#include <vector>

#include <rapidcheck.h>

#include "core/core_gen.h"
#include "core/node.h"
#include "core/status.h"
#include "hypercube/hypercube.h"

namespace topocheck::hypercube {

// One input of a hypercube claim: the cube Q_n and two of its nodes (x = y allowed).
struct CubePair {
  int n = 1;
  Node x{0, 1};
  Node y{0, 1};

  friend bool operator==(const CubePair&, const CubePair&) = default;
};

// "n=3 x=000 y=011".
inline void showValue(const CubePair& value, std::ostream& os) {
  os << "n=" << value.n << " x=" << value.x << " y=" << value.y;
}
inline std::ostream& operator<<(std::ostream& os, const CubePair& value) {
  showValue(value, os);
  return os;
}

namespace gen {
namespace internal {

using topocheck::gen::bits::low_mask;
using topocheck::gen::bits::remove_dimension;
using topocheck::gen::draw::pick_below;

inline CubePair without_dimension(const CubePair& c, int k) {
  return CubePair{c.n - 1, Node{remove_dimension(c.x.bits, k), c.n - 1},
                  Node{remove_dimension(c.y.bits, k), c.n - 1}};
}

inline CubePair truncated(const CubePair& c, int n) {
  return CubePair{n, Node{c.x.bits & low_mask(n), n}, Node{c.y.bits & low_mask(n), n}};
}

inline std::vector<CubePair> cube_pair_shrinks(const CubePair& c) {
  std::vector<CubePair> out;
  const int n = c.n;
  if (n > 1) out.push_back(truncated(c, 1));
  if (n / 2 > 1) out.push_back(truncated(c, n / 2));
  if (n > 1)
    for (int k = n - 1; k >= 0; --k) out.push_back(without_dimension(c, k));
  if (c.x.bits != 0) out.push_back(CubePair{n, Node{0, n}, Node{c.x.bits ^ c.y.bits, n}});
  for (int b = n - 1; b >= 0; --b) {
    const uint64_t bit = uint64_t{1} << b;
    if ((c.x.bits & bit) && (c.y.bits & bit))
      out.push_back(CubePair{n, Node{c.x.bits & ~bit, n}, Node{c.y.bits & ~bit, n}});
  }
  for (int b = n - 1; b >= 0; --b) {
    const uint64_t bit = uint64_t{1} << b;
    if (c.x.bits & bit) out.push_back(CubePair{n, Node{c.x.bits & ~bit, n}, c.y});
  }
  for (int b = n - 1; b >= 0; --b) {
    const uint64_t bit = uint64_t{1} << b;
    if (c.y.bits & bit) out.push_back(CubePair{n, c.x, Node{c.y.bits & ~bit, n}});
  }
  return out;
}

// x XOR y for the chosen distance kind (see the header comment).
inline uint64_t pick_difference(rc::Random& random, int n) {
  const int kind = pick_below(random, 8);
  if (kind < 2) return 0;  // y = x
  if (kind < 5) {          // d in 1..min(n, 3), distinct dimensions
    const int d = 1 + pick_below(random, n < 3 ? n : 3);
    uint64_t delta = 0;
    while (std::popcount(delta) < d) delta |= uint64_t{1} << pick_below(random, n);
    return delta;
  }
  if (kind == 5) {  // the complement, or one bit short of it
    const uint64_t all = low_mask(n);
    return pick_below(random, 2) == 0 ? all : all & ~(uint64_t{1} << pick_below(random, n));
  }
  return random.next() & low_mask(n);  // y uniform
}

}  // namespace internal

inline rc::Gen<CubePair> cube_pair(int max_n) {
  TC_CHECK(max_n >= 1 && max_n <= kMaxDimension, "gen::cube_pair: max_n out of range 1..63");
  return rc::Gen<CubePair>([max_n](const rc::Random& random, int size) {
    rc::Random r(random);
    // scale_to_size(2 * (max_n - 1), size) = ceil((max_n - 1) * size / 50), capped at max_n - 1.
    const int grown = topocheck::gen::draw::scale_to_size(2 * (max_n - 1), size);
    const int limit = 1 + (grown < max_n - 1 ? grown : max_n - 1);
    const int small = limit < 6 ? limit : 6;
    const int kind = internal::pick_below(r, 4);
    const int n = kind == 0   ? 1 + internal::pick_below(r, small)
                  : kind == 1 ? limit
                              : 1 + internal::pick_below(r, limit);
    const uint64_t x = topocheck::gen::draw::pick_bits(r, n);
    const uint64_t y = x ^ internal::pick_difference(r, n);
    return rc::shrinkable::shrinkRecur(CubePair{n, Node{x, n}, Node{y, n}}, [](const CubePair& c) {
      return rc::seq::fromContainer(internal::cube_pair_shrinks(c));
    });
  });
}

}  // namespace gen
}  // namespace topocheck::hypercube

namespace rc {

// Any Q_n the library supports (n = 1..63).
template <>
struct Arbitrary<topocheck::hypercube::CubePair> {
  static Gen<topocheck::hypercube::CubePair> arbitrary() {
    return topocheck::hypercube::gen::cube_pair(topocheck::hypercube::kMaxDimension);
  }
};

}  // namespace rc
