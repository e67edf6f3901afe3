// Properties of task migration through double disjoint paths (Chen and Tzeng, paper 000), on random
// inputs from migration::gen::migration_input (src/migration/migration_gen.h): n = 1..16, dim(S) =
// dim(T) <= 8, alpha, the procedure's open choices and up to 48 blocks
// (catalog/migration/scope.h). One test binary, migration_props, in two files. This one:
//  - the generator's contract: every value and every shrink is valid (make_instance, parse_alpha,
//    validate_blocks accept it), shrinks are smaller, the value and its shrinks are functions of
//    (rc::Random, size), it prints as the CLI's flags, and all of Section 4's situations occur;
//  - f and g (Bars::paper()) are isomorphisms from S onto T, agree with the printed definitions,
//    g = h o f, and H(u, f(u)) = zeta + beta (Section 2.2);
//  - HAMMING-PATH: whatever it returns is a Hamming path with no block link, and it returns none
//    only when none of the d! Hamming paths (migration::hamming_paths, brute force) is block-free;
//    and it returns the first block-free one in its tie-break's order (the header's contract).
// props/migration_plan_props.cc: the plans (every path valid, Theorems 1 and 2, the disjointness
// readings) and the negative controls.
//
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick) selects the number of cases,
// claims::migration_scope::kRandomCases. Seed and RC_PARAMS: see props_harness.h.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "catalog/migration/scope.h"
#include "claims/claim.h"
#include "core/checks.h"
#include "core/core_gen.h"
#include "core/node.h"
#include "core/path.h"
#include "migration/migration.h"
#include "migration/migration_gen.h"
#include "migration_props.h"
#include "props_harness.h"

namespace topocheck::migration {
namespace {

namespace scope = claims::migration_scope;
using migration_props::Cases;
using migration_props::Inputs;
using migration_props::Scope;

uint64_t Bit(int i) { return uint64_t{1} << i; }

// ---------------------------------------------------------------------------------------------
// Naive definitions the properties judge by (independent of migration.cc).

// Both ends in one block.
bool BlockLink(const Blocks& blocks, Node a, Node b) {
  return std::any_of(blocks.begin(), blocks.end(), [&](const Subcube& c) { return c.contains(a) && c.contains(b); });
}

// The dimension of each hop (-1: not a hypercube edge).
std::vector<int> HopDims(const Path& p) {
  std::vector<int> out;
  for (size_t k = 0; k + 1 < p.nodes.size(); ++k) {
    const uint64_t x = p.nodes[k].bits ^ p.nodes[k + 1].bits;
    out.push_back(std::popcount(x) == 1 ? std::countr_zero(x) : -1);
  }
  return out;
}

// A shortest path from a to b: valid hops, each dimension of a XOR b crossed once.
Violation NotHamming(const Path& p, Node a, Node b) {
  if (p.empty() || p.front() != a || p.back() != b) return fmt::format("{} does not run from {} to {}", p, a, b);
  uint64_t crossed = 0;
  for (int d : HopDims(p)) {
    if (d < 0) return fmt::format("{} has a hop that is not a link", p);
    if (crossed & Bit(d)) return fmt::format("{} crosses dimension {} twice", p, d);
    crossed |= Bit(d);
  }
  if (crossed != (a.bits ^ b.bits)) return fmt::format("{} is not a Hamming path from {} to {}", p, a, b);
  return std::nullopt;
}

std::optional<std::pair<Node, Node>> FirstBlockLink(const Blocks& blocks, const Path& p) {
  for (size_t k = 0; k + 1 < p.nodes.size(); ++k)
    if (BlockLink(blocks, p.nodes[k], p.nodes[k + 1])) return std::pair{p.nodes[k], p.nodes[k + 1]};
  return std::nullopt;
}

// The printed definitions of f and g (Section 2.2 and equation 1) with the bars of
// Bars::paper(): on D(T)-D(S), f complements u[i] when u[a^-1(i)] = T[a^-1(i)], g when they differ.
Node ByDefinition(const MigrationInput& in, Node u, bool is_f) {
  const auto r = gen::roles_of(in.S, in.T);
  uint64_t out = 0;
  for (int i = 0; i < in.n; ++i) {
    bool value;
    if (r.i_fixed & Bit(i) || r.i_free & Bit(i)) {
      value = u.bit(i);
    } else if (r.C & Bit(i) || r.DSmT & Bit(i)) {
      value = (in.T.values >> i) & 1u;
    } else {  // D(T)-D(S)
      int j = -1;
      for (const auto& [from, to] : in.alpha.map)
        if (to == i) j = from;
      const bool equal = u.bit(j) == (((in.T.values >> j) & 1u) != 0);
      const bool complement = is_f ? equal : !equal;
      value = complement ? !u.bit(i) : u.bit(i);
    }
    if (value) out |= Bit(i);
  }
  return Node{out, in.n};
}

// ---------------------------------------------------------------------------------------------
// The generator

Violation InvalidInput(const MigrationInput& in) {
  auto inst = make_instance(in.S, in.T);
  if (!inst.ok()) return "make_instance: " + inst.error().message;
  if (inst->n != in.n) return "n differs";
  auto alpha = parse_alpha(*inst, in.alpha.to_string());
  if (!alpha.ok()) return "parse_alpha: " + alpha.error().message;
  if (!(*alpha == in.alpha)) return "parse_alpha(to_string(alpha)) differs: " + alpha->to_string();
  if (auto e = validate_blocks(*inst, in.blocks)) return "validate_blocks: " + e->message;
  auto blocks = parse_blocks(*inst, blocks_to_string(in.blocks));
  if (!blocks.ok()) return "parse_blocks: " + blocks.error().message;
  if (*blocks != in.blocks) return "parse_blocks(blocks_to_string(blocks)) differs";
  std::vector<int> sequence = in.ext_sequence;
  std::sort(sequence.begin(), sequence.end());
  if (sequence != dims_of(inst->DTmS)) return "ext_sequence is not a permutation of D(T)-D(S)";
  if (inst->C == 0 ? in.k != -1 : (in.k < 0 || !(inst->C & Bit(in.k)))) return "k is not in C(S,T)";
  return std::nullopt;
}

TEST(MigrationInputGenerator, EveryInputAndEveryShrinkIsValidAndShrinksAreSmaller) {
  for (const int max_n : {1, 2, 5, 16})
    for (uint64_t seed = 0; seed < 150; ++seed) {
      const auto generator = gen::migration_input(max_n, scope::kRandomMaxDim);
      rc::Shrinkable<MigrationInput> value = generator(rc::Random(seed), static_cast<int>(seed % 101));
      ASSERT_LE(value.value().n, max_n);
      ASSERT_LE(std::popcount(value.value().S.free_mask), scope::kRandomMaxDim);
      // The first level of shrinks, and one path down the tree (the first shrink each time).
      for (int depth = 0; depth < 60; ++depth) {
        const MigrationInput in = value.value();
        ASSERT_EQ(InvalidInput(in), std::nullopt) << in;
        auto shrinks = value.shrinks();
        std::optional<rc::Shrinkable<MigrationInput>> first;
        while (auto next = shrinks.next()) {
          const MigrationInput s = next->value();
          ASSERT_EQ(InvalidInput(s), std::nullopt) << in << "\n -> " << s;
          ASSERT_LT(gen::shrink_measure(s), gen::shrink_measure(in)) << in << "\n -> " << s;
          if (!first) first = *next;
        }
        if (!first) break;
        value = *first;
      }
    }
}

TEST(MigrationInputGenerator, IsDeterministicGivenTheRandomAndSize) {
  props::ExpectDeterministic(gen::migration_input(scope::kRandomMaxN, scope::kRandomMaxDim));
}

TEST(MigrationInputGenerator, PrintsAsTheCliFlags) {
  MigrationInput in;
  in.n = 6;
  in.S = *parse_subcube("0010**", 6);
  in.T = *parse_subcube("1*0*00", 6);
  const Instance inst = in.instance();
  in.alpha = *parse_alpha(inst, "0:2,1:4");
  in.blocks = *parse_blocks(inst, "01****,1*1***");
  in.ext_sequence = {2, 4};
  in.k = 3;
  std::ostringstream out;
  rc::show(in, out);
  EXPECT_EQ(out.str(), "--n 6 --S 0010** --T 1*0*00 --alpha 0:2,1:4 --blocks 01****,1*1*** --tie-break ascending "
                       "--sequence 2,4 --k 3 --pick-p first --x D_g");
}

TEST(MigrationInputGenerator, CoversEverySituationOfSectionFour) {
  // A fixed sample (seeds 0..599 at sizes seed % 100, the `random` method's schedule).
  const auto generator = gen::migration_input(scope::kRandomMaxN, scope::kRandomMaxDim);
  int zeta0 = 0, zeta1 = 0, zeta2 = 0, beta2 = 0, n16 = 0, dense = 0, failed = 0, case_b = 0, specific = 0;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    const MigrationInput in = generator(rc::Random(seed), static_cast<int>(seed % 100)).value();
    const Plan plan = in.plan();
    zeta0 += plan.inst.zeta() == 0;
    zeta1 += plan.inst.zeta() == 1;
    zeta2 += plan.inst.zeta() >= 2;
    beta2 += plan.inst.beta() >= 2;
    n16 += in.n == scope::kRandomMaxN;
    dense += in.blocks.size() >= 10;
    for (const NodePlan& np : plan.nodes) {
      failed += np.hamming_failed;
      case_b += np.node_case == NodeCase::kCaseB;
      specific += np.node_case == NodeCase::kSpecific;
    }
  }
  std::cout << fmt::format("zeta 0: {}, 1: {}, >= 2: {}; beta >= 2: {}; n = 16: {}; >= 10 blocks: {}; nodes with a "
                           "failed HAMMING-PATH: {}, in Case b: {}, specific: {}",
                           zeta0, zeta1, zeta2, beta2, n16, dense, failed, case_b, specific)
            << std::endl;
  EXPECT_GT(zeta0, 100);
  EXPECT_GT(zeta1, 100);
  EXPECT_GT(zeta2, 100);
  EXPECT_GT(beta2, 100);
  EXPECT_GT(n16, 50);
  EXPECT_GT(dense, 50);
  EXPECT_GT(case_b, 0);
  EXPECT_GT(specific, 0);
}

// ---------------------------------------------------------------------------------------------
// The isomorphisms

TEST(MigrationIsomorphisms, FAndGMapSOntoTPreservingAdjacencyAndGIsHOfF) {
  const claims::Budget budget = props::BudgetFromEnvironment();
  props::CheckClaim("migration.iso.f_g", budget, Cases(), Scope("every input"), [] {
    const MigrationInput in = *Inputs().as("input");
    const Instance inst = in.instance();
    const std::vector<Node> nodes = nodes_of(in.S);
    for (const bool is_f : {true, false}) {
      const char* name = is_f ? "f" : "g";
      std::set<uint64_t> images;
      for (const Node& u : nodes) {
        const Node image = is_f ? f(inst, in.alpha, u) : g(inst, in.alpha, u);
        if (image != ByDefinition(in, u, is_f))
          RC_FAIL(fmt::format("{}({}) = {}, the definition gives {}", name, u, image, ByDefinition(in, u, is_f)));
        if (!in.T.contains(image)) RC_FAIL(fmt::format("{}({}) = {} is not in T", name, u, image));
        images.insert(image.bits);
        for (int i = 0; i < in.n; ++i) {
          if (!(in.S.free_mask & Bit(i))) continue;
          const Node w = u.flip(i);
          const Node other = is_f ? f(inst, in.alpha, w) : g(inst, in.alpha, w);
          if (hamming(image, other) != 1)
            RC_FAIL(fmt::format("{} and {} are adjacent, their images {} and {} are not", u, w, image, other));
        }
      }
      if (images.size() != nodes.size()) RC_FAIL(fmt::format("{} is not injective on S", name));
    }
    for (const Node& u : nodes) {
      const Node fu = f(inst, in.alpha, u);
      if (g(inst, in.alpha, u) != h(inst, fu))
        RC_FAIL(fmt::format("g({}) = {} but h(f({})) = {}", u, g(inst, in.alpha, u), u, h(inst, fu)));
      if (hamming(u, fu) != inst.zeta() + inst.beta())
        RC_FAIL(fmt::format("H({}, f = {}) = {}, not zeta + beta = {}", u, fu, hamming(u, fu), inst.zeta() + inst.beta()));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// HAMMING-PATH against the brute force over every Hamming path

// One query, of four kinds (even odds): a node a of S and b = g(a) (when H(a, g(a)) is at most
// kHammingBruteMaxDistance; otherwise as the next kind); a of S and b = a with up to
// kHammingBruteMaxDistance dimensions flipped among those where S and T differ or are free (where
// every migration path runs); a anywhere in that span (in a block, too) and b as before; a and b
// in one block (b = a with up to kHammingBruteMaxDistance of the block's '*' flipped; as the
// previous kind when there are no blocks). A Hamming path from a node of S never starts with a
// block link, so the last two kinds are where HAMMING-PATH can find none (a and b in one block, or
// walled in).
struct Query {
  Node a, b;
};

uint64_t FlipSome(uint64_t allowed, int n) {
  const std::vector<int> dims = dims_of(allowed != 0 ? allowed : topocheck::gen::bits::low_mask(n));
  const std::vector<size_t> picks =
      *rc::gen::container<std::vector<size_t>>(rc::gen::inRange<size_t>(0, dims.size())).as("dimensions to flip");
  uint64_t flip = 0;
  for (size_t p : picks)
    if (std::popcount(flip) < scope::kHammingBruteMaxDistance) flip |= Bit(dims[p]);
  return flip;
}

Query DrawQuery(const MigrationInput& in) {
  const auto r = gen::roles_of(in.S, in.T);
  const uint64_t movable = topocheck::gen::bits::low_mask(in.n) & ~r.i_fixed;
  int kind = *rc::gen::inRange(0, 4).as("query kind (0: b = g(a), 1: a in S, 2: a in the span, 3: in a block)");
  if (kind == 3 && in.blocks.empty()) kind = 2;
  if (kind == 3) {
    const Subcube& block = in.blocks[*rc::gen::inRange<size_t>(0, in.blocks.size()).as("block")];
    const uint64_t free_bits = *rc::gen::arbitrary<uint64_t>().as("a's bits in the block");
    const Node a{block.values | (free_bits & block.free_mask), in.n};
    if (block.free_mask == 0) return {a, a};
    uint64_t flip = FlipSome(block.free_mask, in.n);
    if (flip == 0) flip = Bit(std::countr_zero(block.free_mask));  // a != b: no path at all
    return {a, Node{a.bits ^ flip, in.n}};
  }
  Node a;
  if (kind < 2) {
    const std::vector<Node> nodes = nodes_of(in.S);
    a = nodes[static_cast<size_t>(*rc::gen::inRange<size_t>(0, nodes.size()).as("index of a in S"))];
  } else {
    const uint64_t free_bits = *rc::gen::arbitrary<uint64_t>().as("a's bits in the span");
    a = Node{(in.S.values & r.i_fixed) | (free_bits & movable), in.n};
  }
  if (kind == 0) {
    const Node ga = g(in.instance(), in.alpha, a);
    if (hamming(a, ga) <= scope::kHammingBruteMaxDistance) return {a, ga};
  }
  return {a, Node{a.bits ^ FlipSome(movable, in.n), in.n}};
}

// The Hamming paths from a to b with no block link, in the order of `tie` (ascending: the
// lexicographic order of dimension sequences; descending: the same with dimensions compared
// largest first).
std::vector<Path> BlockFreeInOrder(const Blocks& blocks, Node a, Node b, TieBreak tie) {
  std::vector<Path> out;
  for (const Path& p : hamming_paths(a, b))
    if (!FirstBlockLink(blocks, p)) out.push_back(p);
  std::stable_sort(out.begin(), out.end(), [tie](const Path& x, const Path& y) {
    std::vector<int> dx = HopDims(x), dy = HopDims(y);
    if (tie == TieBreak::kDescending) {
      for (int& d : dx) d = -d;
      for (int& d : dy) d = -d;
    }
    return dx < dy;
  });
  return out;
}

TEST(MigrationHammingPath, FindsABlockFreeHammingPathExactlyWhenOneExists) {
  const claims::Budget budget = props::BudgetFromEnvironment();
  props::CheckClaim("migration.hamming_path.sound_complete", budget, Cases(),
                    Scope(fmt::format("a in S, H(a, b) <= {}", scope::kHammingBruteMaxDistance)), [] {
                      const MigrationInput in = *Inputs().as("input");
                      const Query q = DrawQuery(in);
                      // Brute force: every Hamming path, naive block-link test.
                      bool exists = false;
                      for (const Path& p : hamming_paths(q.a, q.b)) {
                        if (auto v = NotHamming(p, q.a, q.b)) RC_FAIL("hamming_paths listed a non-Hamming path: " + *v);
                        if (!FirstBlockLink(in.blocks, p)) exists = true;
                      }
                      RC_CLASSIFY(exists, "a block-free path exists");
                      RC_CLASSIFY(!exists, "no block-free path");
                      RC_CLASSIFY(hamming(q.a, q.b) >= 4, "H(a, b) >= 4");
                      for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending}) {
                        const auto found = hamming_path(q.a, q.b, in.blocks, tie);
                        if (found) {
                          if (auto v = NotHamming(*found, q.a, q.b)) RC_FAIL(to_string(tie) + ": " + *v);
                          if (auto link = FirstBlockLink(in.blocks, *found))
                            RC_FAIL(fmt::format("{}: {} uses the block link {}-{}", to_string(tie), *found, link->first,
                                                link->second));
                        } else if (exists) {
                          RC_FAIL(fmt::format("{}: HAMMING-PATH {} -> {} found none, brute force found {}", to_string(tie),
                                              q.a, q.b, BlockFreeInOrder(in.blocks, q.a, q.b, tie).front()));
                        }
                      }
                    });
}

TEST(MigrationHammingPath, ReturnsTheFirstBlockFreePathInItsTieBreakOrder) {
  const claims::Budget budget = props::BudgetFromEnvironment();
  props::CheckClaim("migration.hamming_path.tie_break_order", budget, Cases(),
                    Scope(fmt::format("a in S, H(a, b) <= {}", scope::kHammingBruteMaxDistance)), [] {
                      const MigrationInput in = *Inputs().as("input");
                      const Query q = DrawQuery(in);
                      for (const TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending}) {
                        const auto found = hamming_path(q.a, q.b, in.blocks, tie);
                        const std::vector<Path> expected = BlockFreeInOrder(in.blocks, q.a, q.b, tie);
                        if (!found || expected.empty()) continue;  // the other property's business
                        if (*found != expected.front())
                          RC_FAIL(fmt::format("{}: HAMMING-PATH gave {}, the first block-free in order is {}",
                                              to_string(tie), *found, expected.front()));
                      }
                    });
}

}  // namespace
}  // namespace topocheck::migration
