// RapidCheck generator of migration inputs (paper 000, Chen–Tzeng): the input of every random
// migration claim.
//
// `MigrationInput` = (n, S, T, alpha, the procedure's open choices, blocks). It prints in the CLI's
// text forms (`construct migration`), e.g.
//   --n 6 --S 0010** --T 1*0*00 --alpha 0:2,1:4 --blocks 01****,1*1*** --tie-break ascending
//   --sequence 2,4 --k 3 --pick-p first --x D_g   (the flags of `topocheck construct migration`)
// (one line; --alpha, --blocks, --sequence and --k are left out when empty / -1; the x reading is
// quoted, its text form has '(' and '|').
// Every generated or shrunk value is valid: make_instance(S, T) succeeds, parse_alpha(instance,
// alpha.to_string()) gives alpha back, validate_blocks(instance, blocks) succeeds, ext_sequence is a
// permutation of D(T)-D(S), and k is in C(S,T) (k = -1 exactly when C is empty). The bars are the
// paper's (Bars::paper()); Params::per_b_sequence is empty and x_set is RegularReading::kF.
//
// `gen::migration_input(max_n, max_dim)`: n <= limit = 1 + ceil((max_n - 1) * size / 50) (so size 0
// gives n = 1 and every size from 50 on the whole 1..max_n); n = limit one case in four, uniform in
// 1..limit otherwise. The roles of the n dimensions (I fixed, I free = D(S) n D(T), C, D(S)-D(T),
// D(T)-D(S)) are drawn first: zeta = |C| is 0, 1 or >= 2 with equal odds where n allows (Section
// 4.1 and Section 4.2 equally often), dim(S) = dim(T) <= max_dim (1..max_dim seven times in eight),
// beta = |D(S)-D(T)| >= 1 seven times in eight where dim(S) and n allow; the dimensions get their
// roles by a random permutation, S's fixed bits are random and T's follow from the roles. alpha,
// the extension sequence and k are uniform; tie-break, pick_p and x_reading even odds.
// Blocks, in one of four densities (even odds): none; 1..3; 1..8; dense (up to kMaxBlocks, until
// 16 draws in a row find no free node). Each block grows from a free seed node (in the span of S and
// T, where every migration path runs, three times in four; anywhere otherwise) by freeing
// dimensions in a random order, up to a random dimension, while it stays disjoint from S, T and the
// other blocks.
//
// Shrinking (each candidate is again shrinkable; RapidCheck takes the first that still fails):
//   1. smaller n: all fixed dimensions of I(S,T) removed at once, then, top dimension first, one
//      dimension removed: a fixed I dimension (blocks restricted to S's value there), a free one of
//      I (S, T and blocks restricted to 0 there), a C dimension (k moves to the smallest remaining
//      one), or a pair j, alpha(j) of D(S)-D(T) and D(T)-D(S) (alpha and the sequence lose it).
//      Blocks are restricted or projected accordingly, and a block that then meets S, T or an
//      earlier block is dropped;
//   2. fewer blocks: none, the first half, then each one dropped (the last first);
//   3. simpler S and T, n kept: a free dimension of I fixed to 0 in both; a pair j, alpha(j) fixed
//      (S[j] := T[j], T[alpha(j)] := S[alpha(j)]); a C dimension made an I one (T[j] := S[j]); a fixed
//      1 of S, then of T, made 0 (a C dimension swaps S[j] and T[j]). Blocks that then meet S or T
//      are dropped (the first two keep all: S and T only lose nodes);
//   4. smaller blocks: a '*' of a block fixed to 0 (a subset: still disjoint);
//   5. the procedure's choices made default: alpha the identity, the sequence ascending, k the
//      smallest of C, tie-break ascending, pick_p first, x_reading D_g.
// Every candidate lowers (n, #blocks, dim(S), zeta, |S's ones|, |T's ones|, the blocks' total
// dimension, the number of non-default choices) lexicographically (`gen::shrink_measure`), so
// shrinking terminates.
//
// Deterministic: the value and its whole shrink tree are functions of (rc::Random, size) only.
// Preconditions: 1 <= max_n <= kMaxN, 0 <= max_dim; violations abort (TC_CHECK).
// Cost: O(n + blocks^2 * n) to generate (at most kMaxBlocks blocks); a shrink step lists O(n + blocks)
// candidates of O(blocks^2 + n) each.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/core_gen.h"
#include "core/node.h"
#include "core/status.h"
#include "core/subcube.h"
#include "migration/migration.h"

namespace topocheck::migration {

// One input of a random migration claim.
struct MigrationInput {
  int n = 1;
  Subcube S{0, 0, 1};
  Subcube T{0, 0, 1};
  Alpha alpha;                    // (j, alpha(j)), j ascending
  TieBreak tie = TieBreak::kAscending;
  std::vector<int> ext_sequence;  // a permutation of D(T)-D(S)
  int k = -1;                     // in C(S,T); -1 when C is empty
  PickP pick_p = PickP::kFirst;
  XReading x_reading = XReading::kDg;
  Blocks blocks;

  // The instance; aborts if S, T are invalid (generated and shrunk ones never are).
  Instance instance() const {
    auto inst = make_instance(S, T);
    TC_CHECK(inst.ok(), "MigrationInput::instance: invalid S, T");
    return *std::move(inst);
  }
  Params params() const {
    Params p;
    p.alpha = alpha;
    p.bars = Bars::paper();
    p.tie = tie;
    p.ext_sequence = ext_sequence;
    p.k = k;
    p.pick_p = pick_p;
    p.x_reading = x_reading;
    return p;
  }
  Plan plan() const { return migrate(instance(), blocks, params()); }

  friend bool operator==(const MigrationInput&, const MigrationInput&) = default;
};

inline std::string sequence_to_string(const std::vector<int>& dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(dims[i]);
  }
  return out;
}

// The CLI's flags (see the header comment).
inline void showValue(const MigrationInput& value, std::ostream& os) {
  os << "--n " << value.n << " --S " << value.S.to_string() << " --T " << value.T.to_string();
  if (!value.alpha.map.empty()) os << " --alpha " << value.alpha.to_string();
  if (!value.blocks.empty()) os << " --blocks " << blocks_to_string(value.blocks);
  os << " --tie-break " << to_string(value.tie);
  if (!value.ext_sequence.empty()) os << " --sequence " << sequence_to_string(value.ext_sequence);
  if (value.k >= 0) os << " --k " << value.k;
  os << " --pick-p " << to_string(value.pick_p) << " --x " << (value.x_reading == XReading::kDg ? "D_g" : "D_f");
}
inline std::ostream& operator<<(std::ostream& os, const MigrationInput& value) {
  showValue(value, os);
  return os;
}

namespace gen {

// The most blocks a generated input has.
inline constexpr int kMaxBlocks = 48;

// The roles of the dimensions of S and T: migration.h's four sets, I(S,T) split by '*'. As masks
// (bit d = dimension d), a partition of the low S.width bits:
//   i_fixed: I(S,T) fixed in both (S[d] = T[d] in {0, 1});   i_free: D(S) n D(T) (both '*');
//   C: C(S,T) (fixed in both, complementary);   DSmT: D(S)-D(T);   DTmS: D(T)-D(S).
// Unlike make_instance it judges nothing: any two subcubes of one width get their roles.
// Precondition: S.width == T.width (unchecked). Cost: O(1).
struct Roles {
  uint64_t i_fixed = 0, i_free = 0, C = 0, DSmT = 0, DTmS = 0;
};
inline Roles roles_of(const Subcube& S, const Subcube& T) {
  using topocheck::gen::bits::low_mask;
  const uint64_t all = low_mask(S.width);
  const uint64_t both_fixed = all & ~S.free_mask & ~T.free_mask;
  Roles r;
  r.i_free = S.free_mask & T.free_mask;
  r.DSmT = S.free_mask & ~T.free_mask;
  r.DTmS = T.free_mask & ~S.free_mask;
  r.C = both_fixed & (S.values ^ T.values);
  r.i_fixed = both_fixed & ~r.C;
  return r;
}

namespace internal {

using topocheck::gen::bits::low_mask;
using topocheck::gen::draw::pick_below;

inline uint64_t bit(int i) { return uint64_t{1} << i; }

// Two subcubes are disjoint iff some dimension is fixed in both, to different values.
inline bool disjoint(const Subcube& a, const Subcube& b) {
  return ((a.values ^ b.values) & ~a.free_mask & ~b.free_mask) != 0;
}

// `bits` without the dimensions in `removed`, the others moved down (dimension d becomes
// d - |removed below d|).
inline uint64_t compress(uint64_t bits, uint64_t removed) {
  uint64_t out = 0;
  int to = 0;
  for (int d = 0; d < 64; ++d) {
    if (removed & bit(d)) continue;
    if (bits & bit(d)) out |= bit(to);
    ++to;
  }
  return out;
}
inline int renumber(int d, uint64_t removed) { return d - std::popcount(removed & low_mask(d)); }
inline Subcube compress(const Subcube& c, uint64_t removed) {
  return Subcube{compress(c.free_mask, removed), compress(c.values, removed), c.width - std::popcount(removed)};
}

inline int smallest(uint64_t mask) { return mask == 0 ? -1 : std::countr_zero(mask); }

inline std::vector<int> dims(uint64_t mask) {
  std::vector<int> out;
  for (int d = 0; d < 64; ++d)
    if (mask & bit(d)) out.push_back(d);
  return out;
}

// The blocks kept, in order, that are disjoint from S, T and the blocks kept before them.
inline Blocks keep_valid(const Subcube& S, const Subcube& T, const Blocks& blocks) {
  Blocks out;
  for (const Subcube& b : blocks) {
    if (!disjoint(b, S) || !disjoint(b, T)) continue;
    if (std::all_of(out.begin(), out.end(), [&](const Subcube& o) { return disjoint(o, b); })) out.push_back(b);
  }
  return out;
}

// The identity alpha of migration.h: the j-th smallest of D(S)-D(T) to the j-th smallest of
// D(T)-D(S).
inline Alpha identity_of(const Roles& r) {
  Alpha a;
  const auto from = dims(r.DSmT), to = dims(r.DTmS);
  for (size_t i = 0; i < from.size(); ++i) a.map.emplace_back(from[i], to[i]);
  return a;
}

// The generator's own validity check (the library's make_instance / parse_alpha /
// validate_blocks are the judges in the tests; this one keeps shrinking honest).
inline bool valid(const MigrationInput& in) {
  if (in.n < 1 || in.n > kMaxN || in.S.width != in.n || in.T.width != in.n) return false;
  if (std::popcount(in.S.free_mask) != std::popcount(in.T.free_mask)) return false;
  const Roles r = roles_of(in.S, in.T);
  if (in.alpha.map.size() != static_cast<size_t>(std::popcount(r.DSmT))) return false;
  uint64_t domain = 0, image = 0;
  for (const auto& [j, a] : in.alpha.map) {
    if (j < 0 || a < 0 || j >= in.n || a >= in.n) return false;
    domain |= bit(j);
    image |= bit(a);
  }
  if (domain != r.DSmT || image != r.DTmS) return false;
  for (size_t i = 1; i < in.alpha.map.size(); ++i)
    if (in.alpha.map[i - 1].first >= in.alpha.map[i].first) return false;
  uint64_t seq = 0;
  for (int d : in.ext_sequence) {
    if (d < 0 || d >= in.n || (seq & bit(d))) return false;
    seq |= bit(d);
  }
  if (seq != r.DTmS) return false;
  if (r.C == 0 ? in.k != -1 : (in.k < 0 || in.k >= in.n || !(r.C & bit(in.k)))) return false;
  for (size_t i = 0; i < in.blocks.size(); ++i) {
    const Subcube& b = in.blocks[i];
    if (b.width != in.n || (b.values & b.free_mask) != 0 || (b.values >> in.n) != 0 || (b.free_mask >> in.n) != 0)
      return false;
    if (!disjoint(b, in.S) || !disjoint(b, in.T)) return false;
    for (size_t j = 0; j < i; ++j)
      if (!disjoint(b, in.blocks[j])) return false;
  }
  return true;
}

// How far from the defaults the procedure's choices are (0: all default).
inline int non_default_choices(const MigrationInput& in) {
  const Roles r = roles_of(in.S, in.T);
  return (in.alpha != identity_of(r)) + (in.ext_sequence != dims(r.DTmS)) + (in.k != smallest(r.C)) +
         (in.tie != TieBreak::kAscending) + (in.pick_p != PickP::kFirst) + (in.x_reading != XReading::kDg);
}

}  // namespace internal

// The measure every shrink of migration_input lowers, compared lexicographically (operator< of
// the tuple): (n, #blocks, dim(S), zeta, |S's ones|, |T's ones|, the blocks' total dimension, the
// number of the procedure's choices that are not the default of shrinking's step 5). Shrinking
// terminates because every candidate is smaller in it. Precondition: `in` valid (as generated or
// shrunk). Cost: O(n + blocks).
inline auto shrink_measure(const MigrationInput& in) {
  using internal::non_default_choices;
  int block_dims = 0;
  for (const Subcube& b : in.blocks) block_dims += std::popcount(b.free_mask);
  return std::tuple{in.n,
                    static_cast<int>(in.blocks.size()),
                    std::popcount(in.S.free_mask),
                    std::popcount(roles_of(in.S, in.T).C),
                    std::popcount(in.S.values),
                    std::popcount(in.T.values),
                    block_dims,
                    non_default_choices(in)};
}

namespace internal {

// `in` without the dimensions `removed` (a set of I dimensions, one C dimension, or a pair j,
// alpha(j)). Blocks are first restricted to S's value (0 where S is free) on the removed I
// dimensions, then compressed; those that meet S, T or an earlier block are dropped.
inline MigrationInput without_dims(const MigrationInput& in, uint64_t removed) {
  const Roles r = roles_of(in.S, in.T);
  const uint64_t restricted = removed & (r.i_fixed | r.i_free);
  const uint64_t restrict_values = in.S.values & restricted;  // 0 on free I dimensions
  MigrationInput out;
  out.n = in.n - std::popcount(removed);
  out.S = compress(in.S, removed);
  out.T = compress(in.T, removed);
  // S and T restricted on free I dimensions: compressing the '*' away is exactly that.
  for (const auto& [j, a] : in.alpha.map)
    if (!(removed & bit(j))) out.alpha.map.emplace_back(renumber(j, removed), renumber(a, removed));
  for (int d : in.ext_sequence)
    if (!(removed & bit(d))) out.ext_sequence.push_back(renumber(d, removed));
  const Roles after = roles_of(out.S, out.T);
  out.k = in.k >= 0 && !(removed & bit(in.k)) ? renumber(in.k, removed) : smallest(after.C);
  out.tie = in.tie;
  out.pick_p = in.pick_p;
  out.x_reading = in.x_reading;
  Blocks projected;
  for (const Subcube& b : in.blocks) {
    if (((b.values ^ restrict_values) & restricted & ~b.free_mask) != 0) continue;  // misses the restriction
    projected.push_back(compress(b, removed));
  }
  out.blocks = keep_valid(out.S, out.T, projected);
  return out;
}

// `in` with S and T replaced (same n and roles apart from the change), blocks that meet the new S
// or T dropped, alpha / sequence / k adjusted to the new roles.
inline MigrationInput with_cubes(const MigrationInput& in, const Subcube& S, const Subcube& T) {
  MigrationInput out = in;
  out.S = S;
  out.T = T;
  const Roles r = roles_of(S, T);
  out.alpha.map.clear();
  for (const auto& [j, a] : in.alpha.map)
    if ((r.DSmT & bit(j)) && (r.DTmS & bit(a))) out.alpha.map.emplace_back(j, a);
  out.ext_sequence.clear();
  for (int d : in.ext_sequence)
    if (r.DTmS & bit(d)) out.ext_sequence.push_back(d);
  if (!(in.k >= 0 && (r.C & bit(in.k)))) out.k = smallest(r.C);
  out.blocks = keep_valid(S, T, in.blocks);
  return out;
}

inline rc::Seq<MigrationInput> migration_input_shrinks(const MigrationInput& in) {
  const Roles r = roles_of(in.S, in.T);
  std::vector<MigrationInput> out;
  // 1. Smaller n.
  if (std::popcount(r.i_fixed) >= 2 && in.n - std::popcount(r.i_fixed) >= 1) out.push_back(without_dims(in, r.i_fixed));
  for (int j = in.n - 1; j >= 0; --j) {
    if (r.DTmS & bit(j)) continue;  // removed with its alpha^-1 below
    uint64_t removed = bit(j);
    if (r.DSmT & bit(j)) removed |= bit(in.alpha.at(j));
    if (in.n - std::popcount(removed) < 1) continue;
    out.push_back(without_dims(in, removed));
  }
  // 2. Fewer blocks.
  const size_t count = in.blocks.size();
  if (count >= 1) {
    MigrationInput c = in;
    c.blocks.clear();
    out.push_back(std::move(c));
  }
  if (count >= 3) {
    MigrationInput c = in;
    c.blocks.resize(count / 2);
    out.push_back(std::move(c));
  }
  if (count >= 2)
    for (size_t i = count; i-- > 0;) {
      MigrationInput c = in;
      c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(std::move(c));
    }
  // 3. Simpler S and T.
  for (int j = in.n - 1; j >= 0; --j)
    if (r.i_free & bit(j))
      out.push_back(with_cubes(in, Subcube{in.S.free_mask & ~bit(j), in.S.values, in.n},
                               Subcube{in.T.free_mask & ~bit(j), in.T.values, in.n}));
  for (const auto& [j, a] : in.alpha.map)
    out.push_back(with_cubes(in, Subcube{in.S.free_mask & ~bit(j), in.S.values | (in.T.values & bit(j)), in.n},
                             Subcube{in.T.free_mask & ~bit(a), in.T.values | (in.S.values & bit(a)), in.n}));
  for (int j = in.n - 1; j >= 0; --j)
    if (r.C & bit(j))
      out.push_back(with_cubes(in, in.S, Subcube{in.T.free_mask, (in.T.values & ~bit(j)) | (in.S.values & bit(j)), in.n}));
  for (int j = in.n - 1; j >= 0; --j) {
    if (!(in.S.values & bit(j))) continue;
    Subcube S = in.S, T = in.T;
    S.values &= ~bit(j);
    if (r.i_fixed & bit(j)) T.values &= ~bit(j);
    if (r.C & bit(j)) T.values |= bit(j);
    out.push_back(with_cubes(in, S, T));
  }
  for (int j = in.n - 1; j >= 0; --j) {
    if (!(in.T.values & bit(j)) || !(r.DSmT & bit(j))) continue;  // T's own ones: D(S)-D(T) only
    Subcube T = in.T;
    T.values &= ~bit(j);
    out.push_back(with_cubes(in, in.S, T));
  }
  // 4. Smaller blocks.
  for (size_t i = 0; i < count; ++i)
    for (int d = in.n - 1; d >= 0; --d)
      if (in.blocks[i].free_mask & bit(d)) {
        MigrationInput c = in;
        c.blocks[i].free_mask &= ~bit(d);
        out.push_back(std::move(c));
      }
  // 5. Default choices.
  auto push_if_changed = [&](MigrationInput c) {
    if (!(c == in)) out.push_back(std::move(c));
  };
  {
    MigrationInput c = in;
    c.alpha = identity_of(r);
    push_if_changed(std::move(c));
  }
  {
    MigrationInput c = in;
    c.ext_sequence = dims(r.DTmS);
    push_if_changed(std::move(c));
  }
  {
    MigrationInput c = in;
    c.k = smallest(r.C);
    push_if_changed(std::move(c));
  }
  {
    MigrationInput c = in;
    c.tie = TieBreak::kAscending;
    push_if_changed(std::move(c));
  }
  {
    MigrationInput c = in;
    c.pick_p = PickP::kFirst;
    push_if_changed(std::move(c));
  }
  {
    MigrationInput c = in;
    c.x_reading = XReading::kDg;
    push_if_changed(std::move(c));
  }
  return rc::seq::fromContainer(std::move(out));
}

inline void shuffle(rc::Random& random, std::vector<int>& v) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<size_t>(pick_below(random, static_cast<int>(i)))]);
}

// A node of `cube` chosen uniformly.
inline Node node_in(rc::Random& random, const Subcube& cube) {
  return Node{cube.values | (random.next() & cube.free_mask), cube.width};
}

// Blocks for S, T in one of the four densities of the header comment.
inline Blocks pick_blocks(rc::Random& random, const Subcube& S, const Subcube& T, int max_blocks) {
  const int n = S.width;
  const Roles r = roles_of(S, T);
  const Subcube span{low_mask(n) & ~r.i_fixed, S.values & r.i_fixed, n};
  const int density = pick_below(random, 4);
  const int wanted = density == 0 ? 0
                     : density == 1 ? 1 + pick_below(random, 3)
                     : density == 2 ? 1 + pick_below(random, 8)
                                    : max_blocks;
  Blocks blocks;
  int misses = 0;
  while (static_cast<int>(blocks.size()) < std::min(wanted, max_blocks) && misses < 16) {
    const Node v = pick_below(random, 4) < 3 ? node_in(random, span) : Node{random.next() & low_mask(n), n};
    const Subcube seed{0, v.bits, n};
    if (!disjoint(seed, S) || !disjoint(seed, T) ||
        !std::all_of(blocks.begin(), blocks.end(), [&](const Subcube& b) { return disjoint(seed, b); })) {
      ++misses;
      continue;
    }
    misses = 0;
    Subcube b = seed;
    std::vector<int> order(static_cast<size_t>(n));
    for (int d = 0; d < n; ++d) order[static_cast<size_t>(d)] = d;
    shuffle(random, order);
    const int target = pick_below(random, n + 1);
    for (int d : order) {
      if (std::popcount(b.free_mask) >= target) break;
      const Subcube grown{b.free_mask | bit(d), b.values & ~bit(d), n};
      if (disjoint(grown, S) && disjoint(grown, T) &&
          std::all_of(blocks.begin(), blocks.end(), [&](const Subcube& o) { return disjoint(grown, o); }))
        b = grown;
    }
    blocks.push_back(b);
  }
  return blocks;
}

// A value of exactly n dimensions (see the header comment).
inline MigrationInput generate(rc::Random& random, int n, int max_dim, int max_blocks) {
  const int zeta_kind = pick_below(random, 3);
  const int zeta = zeta_kind == 0 ? 0 : zeta_kind == 1 ? std::min(1, n) : std::min(n, 2 + pick_below(random, 3));
  const int rest = n - zeta;
  const int top = std::min(max_dim, rest);
  const int d = top == 0 ? 0 : pick_below(random, 8) == 0 ? pick_below(random, top + 1) : 1 + pick_below(random, top);
  const int top_beta = std::min(d, rest - d);
  const int beta = top_beta == 0 ? 0 : pick_below(random, 8) == 0 ? pick_below(random, top_beta + 1) : 1 + pick_below(random, top_beta);
  const int gamma = d - beta;
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  shuffle(random, order);
  Roles r;
  size_t at = 0;
  auto take = [&](uint64_t& mask, int count) {
    for (int i = 0; i < count; ++i) mask |= bit(order[at++]);
  };
  take(r.C, zeta);
  take(r.i_free, gamma);
  take(r.DSmT, beta);
  take(r.DTmS, beta);
  while (at < order.size()) r.i_fixed |= bit(order[at++]);
  const uint64_t s_bits = topocheck::gen::draw::pick_bits(random, n);
  const uint64_t t_bits = random.next() & low_mask(n);
  MigrationInput in;
  in.n = n;
  in.S = Subcube{r.i_free | r.DSmT, s_bits & (r.i_fixed | r.C | r.DTmS), n};
  in.T = Subcube{r.i_free | r.DTmS, (s_bits & r.i_fixed) | (~s_bits & r.C) | (t_bits & r.DSmT), n};
  std::vector<int> images = dims(r.DTmS);
  shuffle(random, images);
  const std::vector<int> domain = dims(r.DSmT);
  for (size_t i = 0; i < domain.size(); ++i) in.alpha.map.emplace_back(domain[i], images[i]);
  in.ext_sequence = dims(r.DTmS);
  shuffle(random, in.ext_sequence);
  const std::vector<int> c_dims = dims(r.C);
  in.k = c_dims.empty() ? -1 : c_dims[static_cast<size_t>(pick_below(random, static_cast<int>(c_dims.size())))];
  in.tie = pick_below(random, 2) == 0 ? TieBreak::kAscending : TieBreak::kDescending;
  in.pick_p = pick_below(random, 2) == 0 ? PickP::kFirst : PickP::kLast;
  in.x_reading = pick_below(random, 2) == 0 ? XReading::kDg : XReading::kDf;
  in.blocks = pick_blocks(random, in.S, in.T, max_blocks);
  TC_CHECK(valid(in), "gen::migration_input: generated an invalid input");
  return in;
}

}  // namespace internal

// Inputs of exactly n dimensions (for benchmarks and sweeps at a fixed size); shrinks as
// migration_input's do (so n may drop).
inline rc::Gen<MigrationInput> migration_input_of_n(int n, int max_dim, int max_blocks = kMaxBlocks) {
  TC_CHECK(n >= 1 && n <= kMaxN && max_dim >= 0, "gen::migration_input_of_n: n outside 1..kMaxN or max_dim < 0");
  return rc::Gen<MigrationInput>([n, max_dim, max_blocks](const rc::Random& random, int /*size*/) {
    rc::Random r(random);
    return rc::shrinkable::shrinkRecur(internal::generate(r, n, max_dim, max_blocks),
                                       &internal::migration_input_shrinks);
  });
}

inline rc::Gen<MigrationInput> migration_input(int max_n, int max_dim, int max_blocks = kMaxBlocks) {
  TC_CHECK(max_n >= 1 && max_n <= kMaxN && max_dim >= 0, "gen::migration_input: max_n outside 1..kMaxN or max_dim < 0");
  return rc::Gen<MigrationInput>([max_n, max_dim, max_blocks](const rc::Random& random, int size) {
    rc::Random r(random);
    const int grown = topocheck::gen::draw::scale_to_size(2 * (max_n - 1), size);
    const int limit = 1 + std::min(grown, max_n - 1);
    const int n = internal::pick_below(r, 4) == 0 ? limit : 1 + internal::pick_below(r, limit);
    return rc::shrinkable::shrinkRecur(internal::generate(r, n, max_dim, max_blocks),
                                       &internal::migration_input_shrinks);
  });
}

}  // namespace gen
}  // namespace topocheck::migration

namespace rc {

// n = 1..16, dim(S) <= 8 (the random scope; catalog/migration/scope.h holds the same numbers
// for the claims).
template <>
struct Arbitrary<topocheck::migration::MigrationInput> {
  static Gen<topocheck::migration::MigrationInput> arbitrary() {
    return topocheck::migration::gen::migration_input(16, 8);
  }
};

}  // namespace rc
