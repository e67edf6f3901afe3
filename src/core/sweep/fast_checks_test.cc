// core's fast verdicts (checks.h: path_valid_ok, ..., disjoint_paths_ok) agree with the worded
// checkers they stand for, on random path sets: true exactly when the worded form returns
// std::nullopt. Also: the Theorem 2 checks of metacube_checks, which decide with the fast verdicts
// and word with the worded forms, give the same verdicts as the worded forms alone.
//
// Inputs: a small metacube (MC(0,m) = Q_m, MC(1,1), MC(1,2), MC(2,1): few addresses, so paths
// collide often), s and t, and a path set drawn from one of three sources: Algorithm 2's n
// disjoint paths (in MC(0,n)) or Algorithm 4's paths (readings `paper` and `repaired`), which pass
// or fail on their own; random walks (mostly along edges, sometimes jumping, repeating a node or
// leaving the topology); and either of these broken by a few mutations (a node replaced, repeated,
// dropped, widened; an internal node copied from another path, or set to s or t; paths swapped,
// truncated, reversed, repeated). The test requires both verdicts to occur often, so that it cannot pass vacuously.
//
// The verdicts that ask the topology (path_valid_ok, paths_valid_simple_ok, disjoint_paths_ok) are
// templates over its type; both forms are checked: with the Metacube type and through Topology&.
//
// RapidCheck's configuration applies (RC_PARAMS="max_success=N seed=S"); kCases cases by default.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "core/checks.h"
#include "core/sweep/fast_checks.h"
#include "core/node.h"
#include "core/path.h"
#include "core/sweep/path_block.h"
#include "core/testing/property_harness.h"
#include "hypercube/hypercube.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"
#include "metacube/routing.h"

namespace topocheck {
namespace {

using metacube::Metacube;

struct PathSet {
  int k = 0, m = 1;
  Node s, t;
  std::vector<Path> paths;
  std::string source;  // how it was made, for failure messages
};

void showValue(const PathSet& v, std::ostream& os) {
  os << "MC(" << v.k << "," << v.m << ") s = " << v.s << ", t = " << v.t << " (" << v.source << ")\n";
  for (size_t i = 0; i < v.paths.size(); ++i) os << "  P_" << i << " = " << v.paths[i] << "\n";
}

Node any_node(const Metacube& mc) {
  return mc.node_at(*rc::gen::inRange<uint64_t>(0, mc.num_nodes()));
}

// A walk from `from`: mostly edges, sometimes a jump, a repeat or a node outside the topology.
Path random_walk(const Metacube& mc, Node from, int hops) {
  Path p{{from}};
  for (int h = 0; h < hops; ++h) {
    const Node last = p.nodes.back();
    const int kind = *rc::gen::inRange(0, 20);
    if (!mc.contains(last)) p.nodes.push_back(any_node(mc));
    else if (kind < 15) p.nodes.push_back(mc.neighbor(last, *rc::gen::inRange(0, mc.degree())));
    else if (kind < 17) p.nodes.push_back(any_node(mc));
    else if (kind < 19) p.nodes.push_back(last);  // with h = 0: [s, s], closed
    else p.nodes.push_back(Node{last.bits, last.width + 1});  // not an address of mc
  }
  return p;
}

void mutate(const Metacube& mc, PathSet& set) {
  if (set.paths.empty()) return;
  Path& p = set.paths[*rc::gen::inRange<size_t>(0, set.paths.size())];
  auto pos = [&]() { return *rc::gen::inRange<size_t>(0, std::max<size_t>(p.nodes.size(), 1)); };
  switch (*rc::gen::inRange(0, 10)) {
    case 0:
      if (!p.nodes.empty()) p.nodes[pos()] = any_node(mc);
      break;
    case 1:
      if (!p.nodes.empty()) {
        const size_t q = pos();
        p.nodes.insert(p.nodes.begin() + static_cast<std::ptrdiff_t>(q), p.nodes[q]);
      }
      break;
    case 2:
      if (!p.nodes.empty()) p.nodes.erase(p.nodes.begin() + static_cast<std::ptrdiff_t>(pos()));
      break;
    case 3:
      if (!p.nodes.empty()) {
        Node& u = p.nodes[pos()];
        u = Node{u.bits, u.width == 1 ? 2 : u.width - 1};
      }
      break;
    case 8:  // s or t inside the path
      if (p.nodes.size() >= 3)
        p.nodes[*rc::gen::inRange<size_t>(1, p.nodes.size() - 1)] = *rc::gen::inRange(0, 2) ? set.s : set.t;
      break;
    case 4: {  // an internal node of another path copied into this one
      const Path& q = set.paths[*rc::gen::inRange<size_t>(0, set.paths.size())];
      if (q.nodes.size() >= 3 && p.nodes.size() >= 3)
        p.nodes[*rc::gen::inRange<size_t>(1, p.nodes.size() - 1)] = q.nodes[*rc::gen::inRange<size_t>(1, q.nodes.size() - 1)];
      break;
    }
    case 5:
      std::swap(p, set.paths[*rc::gen::inRange<size_t>(0, set.paths.size())]);
      break;
    case 6:
      p.nodes.resize(pos());
      break;
    case 7:
      std::reverse(p.nodes.begin(), p.nodes.end());
      break;
    default:
      set.paths.push_back(set.paths.front());  // the same path twice
  }
}

rc::Gen<PathSet> path_sets() {
  return rc::gen::exec([] {
    static const std::vector<std::pair<int, int>> kSizes{{0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {2, 1}};
    const auto [k, m] = *rc::gen::elementOf(kSizes);
    const Metacube mc = Metacube::make(k, m).value();
    PathSet set;
    set.k = k;
    set.m = m;
    set.s = any_node(mc);
    set.t = *rc::gen::inRange(0, 6) == 0 ? set.s : any_node(mc);
    const int source = *rc::gen::inRange(0, 3);
    if (source == 0 && set.s != set.t) {
      if (k == 0) {
        set.paths = hypercube::cube_disjoint_paths(m, set.s, set.t);
        set.source = "Algorithm 2";
      } else {
        const char* reading = *rc::gen::inRange(0, 2) == 0 ? "paper" : "repaired";
        set.paths = metacube::metacube_disjoint_paths(mc, set.s, set.t, *metacube::options_for_reading(reading)).paths;
        set.source = std::string("Algorithm 4, ") + reading;
      }
    } else {
      const int count = *rc::gen::inRange(0, 5);
      for (int i = 0; i < count; ++i) {
        Path p = random_walk(mc, set.s, *rc::gen::inRange(0, 6));
        const int end = *rc::gen::inRange(0, 4);
        if (end == 0) p.nodes.push_back(set.t);  // a jump, unless adjacent
        else if (end < 3 && mc.contains(p.nodes.back()) && p.nodes.back() != set.t)
          metacube::append(p, metacube::p1(mc, p.nodes.back(), set.t));  // along edges to t
        set.paths.push_back(std::move(p));
      }
      set.source = "random walks";
    }
    const int mutations = *rc::gen::inRange(0, 3) == 0 ? *rc::gen::inRange(1, 4) : 0;
    for (int i = 0; i < mutations; ++i) mutate(mc, set);
    if (mutations) set.source += ", mutated";
    return set;
  });
}

// How often each verdict occurred, per property, so that the test can insist on both.
struct Tally {
  int pass = 0, fail = 0;
  void add(bool ok) { ok ? ++pass : ++fail; }
};

// kCases cases unless RC_PARAMS sets max_success: measured, some wrong fast verdicts (an
// internal t not rejected, a closed two-node path) show up only after a few hundred cases.
constexpr int kCases = 5000;

template <class Testable>
bool check_property(const std::string& name, Testable&& property) {
  std::optional<int> cases;  // nullopt: RapidCheck's max_success from RC_PARAMS
  if (std::getenv("RC_PARAMS") == nullptr || std::string(std::getenv("RC_PARAMS")).find("max_success") == std::string::npos)
    cases = kCases;
  const test_support::PropertyOutcome outcome =
      test_support::RunProperty(name, cases, std::forward<Testable>(property));
  std::cerr << outcome.message << "\n";
  return outcome.succeeded;
}

TEST(FastVerdicts, AgreeWithTheWordedCheckersOnRandomPathSetsValidAndBroken) {
  Tally valid, endpoints, simple, disjoint, length, valid_simple, both, in_block, block_both;
  const bool ok = check_property("fast verdicts agree with the worded checkers", [&] {
    const PathSet set = *path_sets().as("path set");
    const Metacube mc = Metacube::make(set.k, set.m).value();
    const std::span<const Path> paths(set.paths);
    for (const Path& p : set.paths) {
      RC_ASSERT(path_valid_ok(mc, p) == !check_path_valid(mc, p).has_value());
      RC_ASSERT(endpoints_ok(p, set.s, set.t) == !check_endpoints(p, set.s, set.t).has_value());
      RC_ASSERT(simple_ok(p) == !check_simple(p).has_value());
      valid.add(path_valid_ok(mc, p));
      endpoints.add(endpoints_ok(p, set.s, set.t));
      simple.add(simple_ok(p));
    }
    const int bound = *rc::gen::inRange(0, 8);
    RC_ASSERT(max_length_ok(paths, bound) == !check_max_length(set.paths, bound).has_value());
    length.add(max_length_ok(paths, bound));
    RC_ASSERT(internally_node_disjoint_ok(paths) == !check_internally_node_disjoint(set.paths).has_value());
    disjoint.add(internally_node_disjoint_ok(paths));
    const bool worded_valid_simple = !check_paths_valid_simple(mc, set.paths, set.s, set.t).has_value();
    RC_ASSERT(paths_valid_simple_ok(mc, paths, set.s, set.t) == worded_valid_simple);
    valid_simple.add(worded_valid_simple);
    const bool worded_both = worded_valid_simple && !check_internally_node_disjoint(set.paths).has_value();
    RC_ASSERT(disjoint_paths_ok(mc, paths, set.s, set.t) == worded_both);
    both.add(worded_both);
    // The verdicts that ask the topology are templates: above they ran on the Metacube type
    // (inlined); through `const Topology&` (virtual calls) they must say the same.
    const Topology& topo = mc;
    for (const Path& p : set.paths) RC_ASSERT(path_valid_ok(topo, p) == path_valid_ok(mc, p));
    RC_ASSERT(paths_valid_simple_ok(topo, paths, set.s, set.t) == worded_valid_simple);
    RC_ASSERT(disjoint_paths_ok(topo, paths, set.s, set.t) == worded_both);
    // The same verdicts on a PathBlock, whenever the set fits one (every node of one width).
    const auto block = PathBlock::from_paths(paths);
    in_block.add(block.has_value());
    if (!block) return;
    RC_ASSERT(block->to_paths() == set.paths);
    for (size_t i = 0; i < block->size(); ++i) {
      const Path& p = set.paths[i];
      RC_ASSERT(path_valid_ok(mc, block->path(i), block->width()) == path_valid_ok(mc, p));
      RC_ASSERT(path_valid_ok(topo, block->path(i), block->width()) == path_valid_ok(mc, p));
      RC_ASSERT(endpoints_ok(block->path(i), block->width(), set.s, set.t) == endpoints_ok(p, set.s, set.t));
      RC_ASSERT(simple_ok(block->path(i), block->width()) == simple_ok(p));
    }
    RC_ASSERT(max_length_ok(*block, bound) == max_length_ok(paths, bound));
    RC_ASSERT(paths_valid_simple_ok(mc, *block, set.s, set.t) == worded_valid_simple);
    RC_ASSERT(disjoint_paths_ok(mc, *block, set.s, set.t) == worded_both);
    RC_ASSERT(disjoint_paths_ok(topo, *block, set.s, set.t) == worded_both);
    block_both.add(worded_both);
  });
  EXPECT_TRUE(ok);
  // Neither verdict may be rare.
  for (const auto& [name, tally] : {std::pair{"path_valid_ok", valid}, std::pair{"endpoints_ok", endpoints},
                                    std::pair{"simple_ok", simple}, std::pair{"internally_node_disjoint_ok", disjoint},
                                    std::pair{"max_length_ok", length}, std::pair{"paths_valid_simple_ok", valid_simple},
                                    std::pair{"disjoint_paths_ok", both},
                                    std::pair{"disjoint_paths_ok on a block", block_both}}) {
    const int total = tally.pass + tally.fail;
    EXPECT_GE(tally.pass * 10, total) << name << ": " << tally.pass << " of " << total << " hold";
    EXPECT_GE(tally.fail * 10, total) << name << ": " << tally.fail << " of " << total << " fail";
  }
  // Most sets fit a block (a node of another width is one of the mutations).
  EXPECT_GE(in_block.pass * 2, in_block.pass + in_block.fail) << in_block.pass << " sets fit a block";
}

// The Theorem 2 checks decide with the fast verdicts; their verdicts equal the worded forms'.
TEST(FastVerdicts, TheoremTwoChecksGiveTheWordedVerdicts) {
  EXPECT_TRUE(check_property("Theorem 2 checks give the worded verdicts", [] {
    const PathSet set = *path_sets().as("path set");
    const Metacube mc = Metacube::make(set.k, set.m).value();
    Violation worded;
    if (static_cast<int>(set.paths.size()) != mc.degree()) worded = "count";
    if (!worded) worded = check_paths_valid_simple(mc, set.paths, set.s, set.t);
    RC_ASSERT(metacube::check_thm2_valid(mc, set.s, set.t, set.paths).has_value() == worded.has_value());
    if (!worded) worded = check_internally_node_disjoint(set.paths);
    RC_ASSERT(metacube::check_thm2_disjoint(mc, set.s, set.t, set.paths).has_value() == worded.has_value());
  }));
}

// check_alg4 judges Algorithm 4's paths built in a PathBlock (readings without the repair) with
// the fast verdicts on the block, and words a violation from the paths: for every part of Theorem 2
// it says what the checks on metacube_disjoint_paths' paths say, word for word, on random pairs of
// small and sweep-size metacubes under readings that pass and fail and both negative controls.
TEST(FastVerdicts, CheckAlg4OnABlockSaysWhatTheChecksOnPathsSay) {
  EXPECT_TRUE(check_property("check_alg4 on a block = the checks on paths", [] {
    const auto [k, m] = *rc::gen::element(std::pair{1, 1}, std::pair{1, 2}, std::pair{2, 1}, std::pair{2, 2},
                                          std::pair{2, 3}, std::pair{3, 2});
    const Metacube mc = Metacube::make(k, m).value();
    const Node s = any_node(mc), t = any_node(mc);
    RC_PRE(s != t);
    const std::string reading =
        *rc::gen::element<std::string>("paper", "paper-keybit-example4", "broken-no-exchange", "broken-ignore-key");
    const metacube::Alg4Options o = *metacube::options_for_reading(reading);
    const std::vector<Path> paths = metacube::metacube_disjoint_paths(mc, s, t, o).paths;
    RC_ASSERT(metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kValid) == metacube::check_thm2_valid(mc, s, t, paths));
    RC_ASSERT(metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kDisjoint) ==
              metacube::check_thm2_disjoint(mc, s, t, paths));
    RC_ASSERT(metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kLength) ==
              metacube::check_thm2_length(mc, s, t, paths));
    RC_ASSERT(metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kCaseBound) ==
              metacube::check_thm2_case_bound(mc, s, t, paths));
    RC_ASSERT(metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kFaultTolerance) ==
              metacube::check_fault_tolerance(mc, s, t, paths));
    RC_TAG(metacube::check_thm2_disjoint(mc, s, t, paths).has_value() ? "disjoint fails" : "disjoint holds");
  }));
}

// A verdict never depends on an earlier call: the scratch table is reused (and grows) between
// calls, so a large input then a small one, and the same input twice, give the same answers.
// An empty path has length 0, as Path::length says: over a bound of -1, within 0.
TEST(FastVerdicts, AnEmptyPathHasLengthZero) {
  PathBlock block;
  block.clear(3);
  block.start_path();
  EXPECT_FALSE(max_length_ok(block, -1));
  EXPECT_TRUE(max_length_ok(block, 0));
  EXPECT_TRUE(check_max_length(std::vector<Path>{Path{}}, -1).has_value());
  EXPECT_FALSE(check_max_length(std::vector<Path>{Path{}}, 0).has_value());
}

TEST(FastVerdicts, ReusingTheScratchTableChangesNothing) {
  const Metacube mc = Metacube::make(2, 3).value();
  const Node s = mc.node_at(0), t = mc.node_at(12345);
  const auto paths = metacube::metacube_disjoint_paths(mc, s, t, *metacube::options_for_reading("paper")).paths;
  const bool first = disjoint_paths_ok(mc, paths, s, t);
  std::vector<Path> big(1, Path{});
  for (uint64_t u = 0; u < 5000; ++u) big[0].nodes.push_back(mc.node_at(u));
  EXPECT_TRUE(simple_ok(big[0]));
  EXPECT_TRUE(internally_node_disjoint_ok(big));
  EXPECT_EQ(disjoint_paths_ok(mc, paths, s, t), first);
  EXPECT_EQ(first, !check_paths_valid_simple(mc, paths, s, t) && !check_internally_node_disjoint(paths));
}

// The scratch tables are emptied by moving to a new 32-bit generation; when the count wraps, every
// slot must read as empty again. Around the wrap, on a disjoint path set and on one with a shared
// node, the fast verdicts must keep saying what the worded ones say.
TEST(FastVerdicts, AWrapOfTheScratchGenerationChangesNothing) {
  const Metacube mc = Metacube::make(2, 3).value();
  const Node s = mc.node_at(0), t = mc.node_at(12345);
  const auto paths = metacube::metacube_disjoint_paths(mc, s, t, *metacube::options_for_reading("paper")).paths;
  std::vector<Path> shared = paths;
  shared.push_back(paths[0]);  // every internal node of P_0 twice
  const bool disjoint = !check_internally_node_disjoint(paths).has_value();
  ASSERT_TRUE(check_internally_node_disjoint(shared).has_value());
  // Once, so that both tables exist at this size.
  internally_node_disjoint_ok(paths);
  internal_nodes_distinct_ok(paths, s, t);
  detail::set_scratch_generation_for_test(UINT32_MAX - 2);
  for (int call = 0; call < 6; ++call) {  // the third call wraps
    EXPECT_EQ(internally_node_disjoint_ok(paths), disjoint) << "call " << call;
    EXPECT_EQ(internal_nodes_distinct_ok(paths, s, t), disjoint) << "call " << call;
    EXPECT_FALSE(internally_node_disjoint_ok(shared)) << "call " << call;
    EXPECT_FALSE(internal_nodes_distinct_ok(shared, s, t)) << "call " << call;
    EXPECT_TRUE(simple_ok(paths[0])) << "call " << call;
  }
}

// disjoint_paths_ok on a block of a small topology marks nodes with 16-bit stamps; when the stamp
// wraps (every 65,535 calls) the array is cleared and the next stamp must not read as seen.
// 70,000 calls cross the wrap; each must agree with the worded verdict, on a passing set and on
// a set with a shared node.
TEST(FastVerdicts, AWrapOfTheNodeStampsChangesNothing) {
  const Metacube mc = Metacube::make(2, 2).value();
  const Node s = mc.node_at(0), t = mc.node_at(0b1100111001);
  const auto paths = metacube::metacube_disjoint_paths(mc, s, t, *metacube::options_for_reading("corrected")).paths;
  std::vector<Path> shared = paths;
  shared[1] = shared[0];
  const auto good = PathBlock::from_paths(paths), bad = PathBlock::from_paths(shared);
  ASSERT_TRUE(good && bad);
  const bool expected = !check_paths_valid_simple(mc, paths, s, t) && !check_internally_node_disjoint(paths);
  ASSERT_TRUE(expected) << "the pair's paths should be a passing set";
  // Each loop alone crosses a wrap (alternating the two sets could put every wrap on the same one).
  int wrong_good = 0, wrong_bad = 0;
  for (int call = 0; call < 70000; ++call) wrong_good += disjoint_paths_ok(mc, *good, s, t) != expected;
  for (int call = 0; call < 70000; ++call) wrong_bad += disjoint_paths_ok(mc, *bad, s, t);
  EXPECT_EQ(wrong_good, 0);
  EXPECT_EQ(wrong_bad, 0);
}

// Above 2^20 nodes disjoint_paths_ok on a block falls back to the hash set of
// internal_nodes_distinct_ok: on MC(3,3) (2^27 nodes) it must agree with the worded verdicts.
TEST(FastVerdicts, BlockVerdictsAboveTheStampedSize) {
  const Metacube mc = Metacube::make(3, 3).value();
  ASSERT_GT(mc.num_nodes(), detail::kMaxStampedNodes);
  const Node s = mc.node_at(0), t = mc.node_at(0x5A5A5A5ull);
  const auto paths = metacube::metacube_disjoint_paths(mc, s, t, *metacube::options_for_reading("corrected")).paths;
  const bool worded = !check_paths_valid_simple(mc, paths, s, t) && !check_internally_node_disjoint(paths);
  std::vector<Path> shared = paths;
  shared[2] = shared[1];  // every internal node of P_1 twice
  std::vector<Path> through_t = paths;
  through_t[0].nodes.insert(through_t[0].nodes.begin() + 1, t);  // t as an internal node (not an edge either)
  const auto good = PathBlock::from_paths(paths), bad = PathBlock::from_paths(shared);
  ASSERT_TRUE(good && bad);
  EXPECT_EQ(disjoint_paths_ok(mc, *good, s, t), worded);
  EXPECT_EQ(internal_nodes_distinct_ok(*good, s, t), !check_internally_node_disjoint(paths).has_value());
  EXPECT_FALSE(disjoint_paths_ok(mc, *bad, s, t));
  EXPECT_FALSE(internal_nodes_distinct_ok(*bad, s, t));
  const auto tb = PathBlock::from_paths(through_t);
  ASSERT_TRUE(tb);
  EXPECT_FALSE(internal_nodes_distinct_ok(*tb, s, t));
}

// Negative controls at the sizes the sweeps run (MC(2,3), MC(3,2), MC(3,3)), where the fast
// verdicts' tables and the branch-free hop check see long paths: Algorithm 4's paths of pairs that
// pass, each broken on purpose in one way that one of the definitions forbids. Every broken set
// must be rejected by the fast verdict that checks that definition, by disjoint_paths_ok and by
// check_thm2_disjoint, and the fast verdicts must agree with the worded forms on it. Which hop or
// node is broken is chosen from a seeded generator, over many pairs.
TEST(FastVerdicts, EveryDeliberateBreakOfAPassingPathSetIsRejectedAtSweepSizes) {
  enum Break { kNonEdgeHop, kOutsideNode, kWrongWidth, kWrongStart, kWrongEnd, kRepeatedNode, kSharedInternal,
               kInternalIsS, kInternalIsT, kBreaks };
  const char* names[] = {"non-edge hop", "node outside", "wrong width", "wrong start", "wrong end", "repeated node",
                         "internal node shared", "internal node = s", "internal node = t"};
  int rejected[kBreaks] = {}, rejected_in_block[kBreaks] = {};
  uint64_t state = 12345;
  const auto next = [&state] {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (const auto& [k, m] : {std::pair{2, 3}, std::pair{3, 2}, std::pair{3, 3}}) {
    const Metacube mc = Metacube::make(k, m).value();
    const auto paper = *metacube::options_for_reading("paper");
    int pairs = 0;
    while (pairs < 300) {
      const Node s = mc.node_at(next() & (mc.num_nodes() - 1)), t = mc.node_at(next() & (mc.num_nodes() - 1));
      if (s == t) continue;
      const std::vector<Path> good = metacube::metacube_disjoint_paths(mc, s, t, paper).paths;
      if (metacube::check_thm2_disjoint(mc, s, t, good)) continue;  // the paper's paths fail: not a control
      ASSERT_TRUE(disjoint_paths_ok(mc, good, s, t));
      ++pairs;
      for (int b = 0; b < kBreaks; ++b) {
        std::vector<Path> paths = good;
        Path& p = paths[next() % paths.size()];
        const size_t last = p.nodes.size() - 1;
        const size_t any = next() % p.nodes.size();
        const size_t inner = last >= 2 ? 1 + next() % (last - 1) : 0;  // an internal position, if any
        bool applicable = true;
        switch (b) {
          case kNonEdgeHop: {  // an internal node moved two steps away: at least one of its hops is no edge
            applicable = inner > 0;
            if (applicable) {
              Node& u = p.nodes[inner];
              u = mc.neighbor(mc.neighbor(u, 0), mc.degree() - 1);
            }
            break;
          }
          case kOutsideNode: p.nodes[any].bits |= uint64_t{1} << mc.width(); break;
          case kWrongWidth: p.nodes[any].width += 1; break;
          case kWrongStart: p.nodes.insert(p.nodes.begin(), mc.neighbor(s, 0)); break;
          case kWrongEnd: p.nodes.push_back(mc.neighbor(t, 0)); break;
          case kRepeatedNode: p.nodes.insert(p.nodes.begin() + static_cast<std::ptrdiff_t>(any) + 1, p.nodes[any]); break;
          case kSharedInternal: {
            const Path& q = paths[(&p - paths.data() + 1) % paths.size()];
            applicable = inner > 0 && q.nodes.size() >= 3;
            if (applicable) p.nodes[inner] = q.nodes[1 + next() % (q.nodes.size() - 2)];
            break;
          }
          case kInternalIsS:
          case kInternalIsT:
            applicable = inner > 0;
            if (applicable) p.nodes[inner] = b == kInternalIsS ? s : t;
            break;
        }
        if (!applicable) continue;
        const bool worded = !check_paths_valid_simple(mc, paths, s, t) && !check_internally_node_disjoint(paths);
        ASSERT_FALSE(worded) << names[b] << " not rejected by the worded checks, " << mc.name();
        ASSERT_FALSE(disjoint_paths_ok(mc, paths, s, t)) << names[b] << ", " << mc.name() << " s = " << s << " t = " << t;
        ASSERT_TRUE(metacube::check_thm2_disjoint(mc, s, t, paths).has_value()) << names[b];
        // The fast verdict of the definition broken says so; every fast verdict agrees with its
        // worded form.
        bool valid = true, ends = true, simple = true;
        for (const Path& q : paths) {
          ASSERT_EQ(path_valid_ok(mc, q), !check_path_valid(mc, q).has_value()) << names[b];
          ASSERT_EQ(endpoints_ok(q, s, t), !check_endpoints(q, s, t).has_value()) << names[b];
          ASSERT_EQ(simple_ok(q), !check_simple(q).has_value()) << names[b];
          valid = valid && path_valid_ok(mc, q);
          ends = ends && endpoints_ok(q, s, t);
          simple = simple && simple_ok(q);
        }
        const bool disjoint = internally_node_disjoint_ok(paths);
        ASSERT_EQ(disjoint, !check_internally_node_disjoint(paths).has_value()) << names[b];
        ASSERT_EQ(paths_valid_simple_ok(mc, paths, s, t), !check_paths_valid_simple(mc, paths, s, t).has_value());
        // As a PathBlock (every break but a wrong width fits one), as check_alg4 judges a sweep's
        // paths: rejected as well.
        if (const auto block = PathBlock::from_paths(paths)) {
          ASSERT_NE(b, kWrongWidth);
          ASSERT_FALSE(disjoint_paths_ok(mc, *block, s, t)) << names[b] << " (block), " << mc.name();
          ASSERT_EQ(paths_valid_simple_ok(mc, *block, s, t), paths_valid_simple_ok(mc, paths, s, t)) << names[b];
          ++rejected_in_block[b];
        }
        switch (b) {
          case kNonEdgeHop: case kOutsideNode: case kWrongWidth: ASSERT_FALSE(valid) << names[b]; break;
          case kWrongStart: case kWrongEnd: ASSERT_FALSE(ends) << names[b]; break;
          case kRepeatedNode: ASSERT_FALSE(simple && valid) << names[b]; break;  // [u, u] is also no edge
          default: ASSERT_FALSE(disjoint && simple) << names[b];
        }
        ++rejected[b];
      }
    }
  }
  for (int b = 0; b < kBreaks; ++b) {
    EXPECT_GT(rejected[b], 100) << names[b] << " was rarely applied";
    if (b != kWrongWidth) {
      EXPECT_EQ(rejected_in_block[b], rejected[b]) << names[b];
    }
  }
}

}  // namespace
}  // namespace topocheck
