// The explicit-path oracle (itm_oracle.h) against the naive checkers (itm_checks.h), on every
// labelled ITM up to 7 nodes under both rules, a deterministic sample of those with 8 and 9 nodes,
// and the negative-control graphs (cycles, complete and complete bipartite graphs, grids, seeded
// random graphs). On each graph:
//  - Theorem 2: the oracle's dependency set equals shortest_path_dependencies' (as node triples,
//    no pair listed twice), and the two deadlock verdicts agree;
//  - Theorem 5: for every Contention reading and every order tried (the circular order when the
//    graph is an ITM that has one, the identity, random permutations), check_contention_free and
//    oracle_contention agree on the verdict and on the first violating pair of messages, and the
//    naive witness paths are listed shortest paths that share an edge as the reading says;
//  - broadcast: check_broadcast and oracle_broadcast agree on the broadcast from every source in
//    each of those orders.
// Contention and broadcast are compared on connected graphs only: check_contention_free's
// definition (d(w, a) + 1 + d(b, x) = d(w, x)) is met by -1 + 1 + -1 = -1 when nothing is
// reachable, and its witness walk (shortest_path) does not terminate on an unreachable target.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/itm_oracle.h"

namespace topocheck::itm {
namespace {

constexpr Contention kReadings[] = {Contention::kPaper, Contention::kReversed, Contention::kUndirected,
                                    Contention::kSharedEndpoint};

// A portable uniform pick (std::uniform_int_distribution differs between standard libraries).
int Below(std::mt19937_64& rng, int count) { return static_cast<int>(rng() % static_cast<uint64_t>(count)); }

std::vector<int> RandomPermutation(std::mt19937_64& rng, int n) {
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(Below(rng, i + 1))]);
  return order;
}

bool Connected(const ShortestPathLists& lists) {
  for (int x = 0; x < lists.n(); ++x)
    if (lists.hops(0, x) < 0) return false;
  return true;
}

bool Listed(const ShortestPathLists& lists, const std::vector<int>& path) {
  if (path.empty()) return false;
  const auto& list = lists.paths(path.front(), path.back());
  return std::find(list.begin(), list.end(), path) != list.end();
}

// The two paths share an edge as `reading` defines sharing.
bool Share(const std::vector<int>& p, const std::vector<int>& q, Contention reading) {
  for (size_t i = 0; i + 1 < p.size(); ++i)
    for (size_t j = 0; j + 1 < q.size(); ++j) {
      if (p[i] == q[j] && p[i + 1] == q[j + 1]) return true;
      if (reading == Contention::kUndirected && p[i] == q[j + 1] && p[i + 1] == q[j]) return true;
    }
  return false;
}

// What the comparison covered, for the test's own assertions.
struct Tally {
  int graphs = 0, contention_calls = 0, contention_violations = 0, broadcasts = 0, broadcast_violations = 0;
  // In the circular order only: violations per reading (kReadings' order) and of the broadcast.
  std::array<int, 4> circular_contention_violations{};
  int circular_broadcast_violations = 0;
};

void CompareContention(const Graph& g, const ShortestPathLists& lists, const std::vector<int>& order, bool circular,
                       const std::string& what, Tally& tally) {
  for (size_t r = 0; r < std::size(kReadings); ++r) {
    const Contention reading = kReadings[r];
    ContentionWitness witness;
    const Violation naive = check_contention_free(g, order, reading, &witness);
    const auto oracle = oracle_contention(lists, order, reading);
    ++tally.contention_calls;
    const std::string where = what + " reading " + to_string(reading);
    ASSERT_EQ(naive.has_value(), oracle.has_value())
        << where << "\n naive: " << naive.value_or("holds") << "\n oracle: " << (oracle ? to_string(*oracle) : "holds");
    if (!naive) continue;
    ++tally.contention_violations;
    if (circular) ++tally.circular_contention_violations[r];
    // The same first pair of messages, and a naive witness the oracle accepts.
    ASSERT_FALSE(witness.first.empty() || witness.second.empty()) << where;
    EXPECT_EQ(witness.first.front(), oracle->w)
        << where << "\n naive: " << *naive << "\n oracle: " << to_string(*oracle);
    EXPECT_EQ(witness.first.back(), oracle->x) << where << "\n naive: " << *naive;
    EXPECT_EQ(witness.second.front(), oracle->second_from) << where << "\n naive: " << *naive;
    EXPECT_EQ(witness.second.back(), oracle->second_to) << where << "\n naive: " << *naive;
    EXPECT_TRUE(Listed(lists, witness.first)) << where << ": the naive witness is no shortest path\n " << *naive;
    EXPECT_TRUE(Listed(lists, witness.second)) << where << ": the naive witness is no shortest path\n " << *naive;
    EXPECT_TRUE(Share(witness.first, witness.second, reading)) << where << "\n " << *naive;
    EXPECT_TRUE(Share(oracle->first, oracle->second, reading)) << where << "\n " << to_string(*oracle);
  }
}

void CompareBroadcast(const Graph& g, const ShortestPathLists& lists, const std::vector<int>& order, bool circular,
                      const std::string& what, Tally& tally) {
  for (const int source : order) {
    std::vector<int> list = order;
    std::rotate(list.begin(), std::find(list.begin(), list.end(), source), list.end());
    const Rounds rounds = broadcast_from(order, source);
    const Violation naive = check_broadcast(g, list, rounds);
    const Violation oracle = oracle_broadcast(lists, list, rounds);
    ++tally.broadcasts;
    tally.broadcast_violations += naive.has_value();
    if (circular) tally.circular_broadcast_violations += naive.has_value();
    ASSERT_EQ(naive.has_value(), oracle.has_value())
        << what << " broadcast from " << source << "\n naive: " << naive.value_or("holds")
        << "\n oracle: " << oracle.value_or("holds");
  }
}

// Every comparison of the header comment on one graph. `circular` is the ITM's circular order
// when there is one; `permutations` random orders are tried as well.
void CompareAll(const Graph& g, const std::vector<int>* circular, const std::string& what, std::mt19937_64& rng,
                int permutations, Tally& tally) {
  ++tally.graphs;
  const ShortestPathLists lists(g);
  // Theorem 2: the dependency sets and the verdicts.
  const Channels channels = channels_of(g);
  const auto naive_pairs = shortest_path_dependencies(g, channels);
  std::set<std::array<int, 3>> naive;
  for (const auto& [first, second] : naive_pairs) {
    const auto [a, b] = channels.ends[first];
    const auto [b2, c] = channels.ends[second];
    ASSERT_EQ(b, b2) << what << ": a dependency of channels that do not meet";
    naive.insert({a, b, c});
  }
  ASSERT_EQ(naive.size(), naive_pairs.size()) << what << ": shortest_path_dependencies lists a pair twice";
  ASSERT_EQ(naive, oracle_dependencies(lists)) << what;
  const Violation deadlock = check_deadlock_free(g);
  const Violation oracle_deadlock = oracle_deadlock_violation(lists);
  ASSERT_EQ(deadlock.has_value(), oracle_deadlock.has_value())
      << what << "\n naive: " << deadlock.value_or("holds") << "\n oracle: " << oracle_deadlock.value_or("holds");
  if (!Connected(lists)) return;
  // Theorem 5 and the broadcast, in every order tried.
  std::vector<std::pair<std::string, std::vector<int>>> orders;  // the circular order first, if any
  if (circular) orders.emplace_back("circular order", *circular);
  std::vector<int> identity(static_cast<size_t>(g.n()));
  std::iota(identity.begin(), identity.end(), 0);
  orders.emplace_back("identity order", identity);
  for (int k = 0; k < permutations; ++k) orders.emplace_back("random order", RandomPermutation(rng, g.n()));
  for (size_t o = 0; o < orders.size(); ++o) {
    const auto& [name, order] = orders[o];
    const bool is_circular = circular != nullptr && o == 0;
    std::string where = what + ", " + name + " (";
    for (size_t i = 0; i < order.size(); ++i) {
      if (i) where += ' ';
      where += std::to_string(order[i]);
    }
    where += ")";
    CompareContention(g, lists, order, is_circular, where, tally);
    CompareBroadcast(g, lists, order, is_circular, where, tally);
  }
}

// Calls visit(itm, index) for every labelled AddNode sequence of `n` nodes under `rule` (each step's
// edge taken once, as (x, y) with x < y, in the order of Graph::edges()), index counting from 0.
void ForEachSequence(Rule rule, int n, const std::function<void(const Itm&, uint64_t)>& visit) {
  uint64_t index = 0;
  std::function<void(const Itm&)> extend = [&](const Itm& itm) {
    if (itm.n() == n) {
      visit(itm, index++);
      return;
    }
    const auto usable = rule == Rule::kAnyEdge ? itm.graph().edges() : itm.exterior_edges();
    for (const auto& [x, y] : usable) {
      Itm next = itm;
      ASSERT_TRUE(next.add_node(x, y).ok());
      extend(next);
    }
  };
  extend(Itm::kernel(rule));
}

// The number of labelled sequences: prod over k = 3 .. n-1 of the usable edges of a k-node ITM,
// 2k - 3 (every edge) or k (the exterior ones).
uint64_t SequenceCount(Rule rule, int n) {
  uint64_t count = 1;
  for (int k = 3; k < n; ++k) count *= static_cast<uint64_t>(rule == Rule::kAnyEdge ? 2 * k - 3 : k);
  return count;
}

// "circular order: violations paper 0, reversed 3, ...; broadcasts 0".
void PrintCircular(const Tally& t) {
  std::printf("  in the circular order, graphs violating:");
  for (size_t r = 0; r < std::size(kReadings); ++r)
    std::printf(" %s %d,", to_string(kReadings[r]).c_str(), t.circular_contention_violations[r]);
  std::printf(" broadcasts violating %d\n", t.circular_broadcast_violations);
}

// Every sequence (stride 1) or every stride-th, as ITMs, against the oracle.
Tally CompareSequences(Rule rule, int n, uint64_t stride, int permutations) {
  Tally tally;
  std::mt19937_64 rng(1000 * static_cast<uint64_t>(n) + (rule == Rule::kAnyEdge ? 1 : 2));
  uint64_t visited = 0;
  ForEachSequence(rule, n, [&](const Itm& itm, uint64_t index) {
    ++visited;
    if (index % stride != 0 || ::testing::Test::HasFatalFailure()) return;
    const auto order = circular_order(itm);
    if (rule == Rule::kExterior) {
      EXPECT_TRUE(order.ok()) << to_string(itm.steps());  // Lemma 4
    }
    const std::string what = to_string(rule) + " \"" + to_string(itm.steps()) + "\"";
    CompareAll(itm.graph(), order.ok() ? &*order : nullptr, what, rng, permutations, tally);
  });
  EXPECT_EQ(visited, SequenceCount(rule, n));
  return tally;
}

// ---------------------------------------------------------------------------------------------
// The oracle on its own

TEST(ItmOracle, ListsEveryShortestPathOfSmallGraphs) {
  const ShortestPathLists c6(cycle_graph(6));
  EXPECT_EQ(c6.paths(0, 3), (std::vector<NodePath>{{0, 1, 2, 3}, {0, 5, 4, 3}}));
  EXPECT_EQ(c6.paths(0, 2), (std::vector<NodePath>{{0, 1, 2}}));
  EXPECT_EQ(c6.hops(0, 3), 3);
  EXPECT_EQ(c6.paths(4, 4), (std::vector<NodePath>{{4}}));
  EXPECT_EQ(oracle_dependencies(c6).size(), 12u);
  EXPECT_EQ(oracle_deadlock_violation(c6),
            "the listed shortest paths' channel dependencies have a cycle of 6 channels: 0->1, 1->2, 2->3, 3->4, 4->5, "
            "5->0 (back to the first)");
  // 3x3 grid corner to corner: C(4, 2) = 6 monotone paths of 4 hops.
  const ShortestPathLists grid(grid_graph(3, 3));
  EXPECT_EQ(grid.paths(0, 8).size(), 6u);
  EXPECT_EQ(grid.hops(0, 8), 4);
  // K_{2,3}: the two nodes of the small side are joined through each of the three others.
  const ShortestPathLists k23(complete_bipartite(2, 3));
  EXPECT_EQ(k23.paths(0, 1), (std::vector<NodePath>{{0, 2, 1}, {0, 3, 1}, {0, 4, 1}}));
  // Unreachable: two disjoint edges.
  const ShortestPathLists split(*Graph::from_edges(4, {{0, 1}, {2, 3}}));
  EXPECT_TRUE(split.paths(0, 2).empty());
  EXPECT_EQ(split.hops(0, 2), -1);
  EXPECT_EQ(split.total_paths(), 4u);
}

TEST(ItmOracle, FindsTheNegativeControlsViolations) {
  for (const Graph& g : {cycle_graph(4), complete_bipartite(2, 3), grid_graph(3, 3)})
    EXPECT_TRUE(oracle_deadlock_violation(ShortestPathLists(g)).has_value()) << g.to_string();
  EXPECT_FALSE(oracle_deadlock_violation(ShortestPathLists(complete_graph(5))));
  // C6 in a scrambled order: 0->3 and 1->4 can both run 1->2.
  const ShortestPathLists c6(cycle_graph(6));
  EXPECT_FALSE(oracle_contention(c6, {0, 1, 2, 3, 4, 5}, Contention::kPaper));
  const auto conflict = oracle_contention(c6, {0, 3, 1, 4, 2, 5}, Contention::kPaper);
  ASSERT_TRUE(conflict.has_value());
  EXPECT_EQ(to_string(*conflict), "0->3 and 1->4 share 1->2: (0:1:2:3) (1:2:3:4)");
  // Broken broadcast schedules (as in itm_test): a sender without the message, two messages of a
  // round crossing on C6.
  EXPECT_TRUE(oracle_broadcast(c6, {0, 1, 2, 3, 4, 5}, Rounds{{{1, 2}}}).has_value());
  EXPECT_TRUE(oracle_broadcast(c6, {0, 1, 2, 3, 4, 5}, Rounds{{{0, 3}}, {{0, 2}, {3, 1}}, {{0, 1}, {2, 4}, {3, 5}}})
                  .has_value());
  EXPECT_FALSE(oracle_broadcast(c6, {0, 1, 2, 3, 4, 5}, recursive_broadcast({0, 1, 2, 3, 4, 5})));
}

// ---------------------------------------------------------------------------------------------
// The oracle against the naive checkers

TEST(ItmOracleAgreement, EveryLabelledItmUpToSevenNodes) {
  for (const Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 3; n <= 7; ++n) {
      const Tally t = CompareSequences(rule, n, 1, 2);
      ASSERT_FALSE(HasFatalFailure()) << to_string(rule) << " n = " << n;
      EXPECT_EQ(static_cast<uint64_t>(t.graphs), SequenceCount(rule, n));
      std::printf("%s n=%d: %d ITMs, %d contention comparisons (%d violations), %d broadcasts (%d violations)\n",
                  to_string(rule).c_str(), n, t.graphs, t.contention_calls, t.contention_violations, t.broadcasts,
                  t.broadcast_violations);
      PrintCircular(t);
      // Theorem 5 (kPaper) and the broadcast in the circular order hold on every exterior ITM,
      // by the oracle as well.
      if (rule == Rule::kExterior) {
        EXPECT_EQ(t.circular_contention_violations[0], 0);
        EXPECT_EQ(t.circular_broadcast_violations, 0);
      }
    }
  EXPECT_EQ(SequenceCount(Rule::kAnyEdge, 7), 945u);
  EXPECT_EQ(SequenceCount(Rule::kExterior, 7), 360u);
}

TEST(ItmOracleAgreement, SampleOfLabelledItmsWithEightAndNineNodes) {
  // Every stride-th sequence, about 1,500 per rule and size (stride 1 would be 10,395 / 135,135
  // any-edge and 2,520 / 20,160 exterior sequences).
  struct Sample {
    Rule rule;
    int n;
    uint64_t stride;
  };
  for (const Sample& s : {Sample{Rule::kAnyEdge, 8, 7}, Sample{Rule::kAnyEdge, 9, 90}, Sample{Rule::kExterior, 8, 2},
                          Sample{Rule::kExterior, 9, 13}}) {
    const Tally t = CompareSequences(s.rule, s.n, s.stride, 1);
    ASSERT_FALSE(HasFatalFailure()) << to_string(s.rule) << " n = " << s.n;
    EXPECT_GE(t.graphs, 1200);
    std::printf(
        "%s n=%d: %d ITMs (every %llu-th), %d contention comparisons (%d violations), %d broadcasts (%d "
        "violations)\n",
        to_string(s.rule).c_str(), s.n, t.graphs, static_cast<unsigned long long>(s.stride), t.contention_calls,
        t.contention_violations, t.broadcasts, t.broadcast_violations);
    PrintCircular(t);
    if (s.rule == Rule::kExterior) {
      EXPECT_EQ(t.circular_contention_violations[0], 0);
      EXPECT_EQ(t.circular_broadcast_violations, 0);
    }
  }
}

TEST(ItmOracleAgreement, NegativeControlGraphs) {
  std::mt19937_64 rng(7);
  Tally tally;
  std::vector<std::pair<std::string, Graph>> graphs;
  for (int n = 3; n <= 9; ++n) graphs.emplace_back(fmt::format("C{}", n), cycle_graph(n));
  for (int n = 2; n <= 9; ++n) graphs.emplace_back(fmt::format("K{}", n), complete_graph(n));
  graphs.emplace_back("K_{2,3}", complete_bipartite(2, 3));
  graphs.emplace_back("K_{3,3}", complete_bipartite(3, 3));
  graphs.emplace_back("K_{2,5}", complete_bipartite(2, 5));
  graphs.emplace_back("2x3 grid", grid_graph(2, 3));
  graphs.emplace_back("2x4 grid", grid_graph(2, 4));
  graphs.emplace_back("3x3 grid", grid_graph(3, 3));
  for (const auto& [name, g] : graphs) {
    CompareAll(g, nullptr, name, rng, 3, tally);
    ASSERT_FALSE(HasFatalFailure()) << name;
  }
  EXPECT_GT(tally.contention_violations, 0);  // the controls do violate
  EXPECT_GT(tally.broadcast_violations, 0);
}

TEST(ItmOracleAgreement, SeededRandomGraphs) {
  // 600 graphs of 4..9 nodes, each edge present with odds 1/4, 2/5, 3/5 or 4/5; the sparse ones are
  // often disconnected (Theorem 2's comparison only). Then 600 connected ones: a random spanning
  // tree plus edges at those odds.
  std::mt19937_64 rng(20240601);
  Tally tally;
  int disconnected = 0;
  for (int k = 0; k < 1200; ++k) {
    const int n = 4 + Below(rng, 6);
    const int percent = std::array{25, 40, 60, 80}[static_cast<size_t>(Below(rng, 4))];
    Graph g(n);
    if (k >= 600)
      for (int v = 1; v < n; ++v) g.add_edge(Below(rng, v), v);
    for (int u = 0; u < n; ++u)
      for (int v = u + 1; v < n; ++v)
        if (!g.adjacent(u, v) && Below(rng, 100) < percent) g.add_edge(u, v);
    disconnected += !Connected(ShortestPathLists(g));
    CompareAll(g, nullptr, fmt::format("random graph {}: {}", k, g.to_string()), rng, 2, tally);
    ASSERT_FALSE(HasFatalFailure());
  }
  EXPECT_GT(disconnected, 20);
  EXPECT_GT(tally.contention_violations, 100);
  std::printf(
      "random graphs: %d (%d disconnected), %d contention comparisons (%d violations), %d broadcasts (%d "
      "violations)\n",
      tally.graphs, disconnected, tally.contention_calls, tally.contention_violations, tally.broadcasts,
      tally.broadcast_violations);
}

}  // namespace
}  // namespace topocheck::itm
