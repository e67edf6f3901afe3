#include "routing/deadlock.h"

#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/graph.h"
#include "hypercube/hypercube.h"

namespace topocheck::routing {
namespace {

Network Q(int n) {
  auto net = Network::hypercube(n);
  TC_CHECK(net.ok(), "Q_n");
  return std::move(net).value();
}

DeadlockModel Model(Routing routing, BufferModel buffers, int capacity) {
  DeadlockModel m;
  m.routing = routing;
  m.buffers = buffers;
  m.capacity = capacity;
  return m;
}

DeadlockSearchLimits Limits(DeadlockSearchMethod method, int max_messages, uint64_t max_states = 10'000'000,
                            bool symmetry = true) {
  DeadlockSearchLimits limits;
  limits.method = method;
  limits.max_messages = max_messages;
  limits.max_states = max_states;
  limits.translation_symmetry = symmetry;
  return limits;
}

constexpr auto kConfigurations = DeadlockSearchMethod::kConfigurations;
constexpr auto kStateSpace = DeadlockSearchMethod::kStateSpace;

const std::vector<DeadlockModel>& FourModels(int capacity) {
  static std::vector<DeadlockModel> models[3];
  auto& out = models[capacity];
  if (out.empty())
    for (Routing r : {Routing::kStatic, Routing::kDynamic})
      for (BufferModel b : {BufferModel::kPerNode, BufferModel::kPerLink}) out.push_back(Model(r, b, capacity));
  return out;
}

size_t Size(const DeadlockSearchResult& r) { return r.witness ? r.witness->messages.size() : 0; }
size_t Moves(const DeadlockSearchResult& r) { return r.witness ? r.witness->moves.size() : 0; }

// The witnesses the negative controls start from (each checked by the tests that find them).
DeadlockWitness StaticPerNodeWitness() {
  auto r = search_deadlock(Q(3), Model(Routing::kStatic, BufferModel::kPerNode, 1), quick_deadlock_limits());
  TC_CHECK(r.witness.has_value(), "the static per_node deadlock");
  return *r.witness;
}

// ---------------------------------------------------------------------------------------------

// Deliberate twin of src/routing/deadlock_test.cc:DynamicRoutingWithLinkBuffersDeadlocksOnlyWhenAWholeThreeCubeIsFull:
// the same witness checks, each stating its own model's expected deadlock.
TEST(DeadlockSearch, PerNodeStaticRoutingDeadlocksWithTwoMessagesOnAdjacentNodes) {
  const Network net = Q(3);
  const auto r = search_deadlock(net, Model(Routing::kStatic, BufferModel::kPerNode, 1), quick_deadlock_limits());
  ASSERT_EQ(r.verdict, DeadlockVerdict::kFound) << r.scope;
  const DeadlockWitness& w = *r.witness;
  EXPECT_EQ(w.messages.size(), 2u);
  EXPECT_EQ(w.moves.size(), 2u);
  EXPECT_EQ(check_deadlock_witness(net, w), std::nullopt);
  ASSERT_EQ(w.wait_cycle.size(), 2u);
  // Both sit one hop from their sources, on adjacent nodes, and e-cube sends each into the other.
  const MessageLocation& a = w.final[0];
  const MessageLocation& b = w.final[1];
  ASSERT_EQ(a.where, Where::kBuffered);
  ASSERT_EQ(b.where, Where::kBuffered);
  EXPECT_EQ(std::popcount(a.node ^ b.node), 1);
  auto ecube_next = [&](uint32_t m, NodeId at) {
    const NodeId diff = at ^ w.messages[m].destination;
    return at ^ (diff & (~diff + 1));
  };
  EXPECT_EQ(ecube_next(0, a.node), b.node);
  EXPECT_EQ(ecube_next(1, b.node), a.node);
  EXPECT_EQ(to_string(w),
            "Q_3, static routing, per_node buffers, B = 1: deadlock of 2 messages after 2 moves\n"
            "messages: m0 001->110, m1 011->100\n"
            "moves: m0 001->000, m1 011->010\n"
            "final: m0 at 000 (from 001), m1 at 010 (from 011)\n"
            "wait cycle: m0 001->110 at 000 waits for m1 (in 010's pool); "
            "m1 011->100 at 010 waits for m0 (in 000's pool)");
}

TEST(DeadlockSearch, PlainStateSearchFindsTheSameTwoMessageDeadlockAndCountsItsOrbit) {
  // By hand: e-cube takes m0 s -> s^001 -> s^011 and m1 s^010 -> s^011 -> s^001 (destinations the
  // antipodes), so {(s, s^111), (s^010, s^101)} deadlocks for each s: 4 multisets (s and s^010
  // give the same one), one orbit under translation. Nothing else of 2 messages does.
  const Network net = Q(3);
  const auto r = search_deadlock(net, Model(Routing::kStatic, BufferModel::kPerNode, 1), Limits(kStateSpace, 3));
  ASSERT_EQ(r.verdict, DeadlockVerdict::kFound) << r.scope;
  EXPECT_EQ(Size(r), 2u);
  EXPECT_EQ(Moves(r), 2u);
  EXPECT_EQ(r.deadlocking_sets, 4u);
  EXPECT_EQ(check_deadlock_witness(net, *r.witness), std::nullopt);
  const auto& m = r.witness->messages;
  EXPECT_EQ(m[0].source ^ m[0].destination, 7u);
  EXPECT_EQ(m[1].source ^ m[1].destination, 7u);
  EXPECT_EQ(m[0].source ^ m[1].source, 2u);
}

TEST(DeadlockSearch, PerNodeDynamicRoutingNeedsAFullFaceOfFourMessages) {
  // Dynamic routing leaves a message at distance 2 two ways on; both neighbours must be full, and
  // a hypercube has no triangle, so the fewest full nodes is a 4-cycle: a 2-dimensional face,
  // each message bound for its antipode in the face, having entered along the third dimension.
  for (int n : {3, 4}) {
    const Network net = Q(n);
    const auto r = search_deadlock(net, Model(Routing::kDynamic, BufferModel::kPerNode, 1), quick_deadlock_limits());
    ASSERT_EQ(r.verdict, DeadlockVerdict::kFound) << r.scope;
    EXPECT_EQ(Size(r), 4u);
    EXPECT_EQ(Moves(r), 4u);
    EXPECT_EQ(check_deadlock_witness(net, *r.witness), std::nullopt);
    std::set<NodeId> nodes;
    for (const MessageLocation& loc : r.witness->final) nodes.insert(loc.node);
    ASSERT_EQ(nodes.size(), 4u);
    NodeId spread = 0;
    for (NodeId u : nodes) spread |= u ^ *nodes.begin();
    EXPECT_EQ(std::popcount(spread), 2) << "the four nodes span a 2-dimensional face";
  }
  // The plain search agrees below four (finding the four itself takes it ~4 s and 10^7 states).
  const auto plain = search_deadlock(Q(3), Model(Routing::kDynamic, BufferModel::kPerNode, 1), Limits(kStateSpace, 3));
  EXPECT_EQ(plain.verdict, DeadlockVerdict::kNoneUpToLimit) << plain.scope;
  EXPECT_EQ(plain.messages_searched, 3);
}

TEST(DeadlockSearch, StaticRoutingWithLinkBuffersNeverDeadlocksAndTheChannelDependencyGraphAgrees) {
  for (int n = 1; n <= 4; ++n) {
    const Network net = Q(n);
    const auto cube = hypercube::Hypercube::make(n);
    ASSERT_TRUE(cube.ok());
    const ChannelIndex channels(*cube);
    const auto deps = route_dependencies(*cube, channels, [](Node s, Node t) { return hypercube::ecube_route(s, t).nodes; });
    EXPECT_EQ(find_dependency_cycle(channels.size(), deps), std::nullopt) << "Dally-Seitz: e-cube's CDG is acyclic";
    for (int capacity : {1, 2}) {
      // B messages on each of the n 2^n links: the configuration search then covers every count.
      const int all = capacity * n * (1 << n);
      const auto r = search_deadlock(net, Model(Routing::kStatic, BufferModel::kPerLink, capacity),
                                     Limits(kConfigurations, all));
      EXPECT_EQ(r.verdict, DeadlockVerdict::kNoneUpToLimit) << r.scope;
      EXPECT_TRUE(r.every_message_count) << r.scope;
      EXPECT_EQ(r.messages_searched, all);
    }
  }
  const auto plain = search_deadlock(Q(3), Model(Routing::kStatic, BufferModel::kPerLink, 1), Limits(kStateSpace, 3));
  EXPECT_EQ(plain.verdict, DeadlockVerdict::kNoneUpToLimit) << plain.scope;
}

TEST(DeadlockSearch, DynamicRoutingWithLinkBuffersDeadlocksOnlyWhenAWholeThreeCubeIsFull) {
  // The CDG of minimal adaptive routing has cycles (Q_2 on), so it cannot settle the question;
  // the search does: no deadlock at all on Q_2, and on Q_3 only with every one of the 24 links
  // full (a message arriving along dimension a at distance 2 needs both other dimensions' links).
  const auto q2 = search_deadlock(Q(2), Model(Routing::kDynamic, BufferModel::kPerLink, 1), Limits(kConfigurations, 8));
  EXPECT_EQ(q2.verdict, DeadlockVerdict::kNoneUpToLimit) << q2.scope;
  EXPECT_TRUE(q2.every_message_count);

  // Deliberate twin of src/routing/deadlock_test.cc:PerNodeStaticRoutingDeadlocksWithTwoMessagesOnAdjacentNodes:
  // the same witness checks, each stating its own model's expected deadlock.
  const Network net = Q(3);
  const auto r = search_deadlock(net, Model(Routing::kDynamic, BufferModel::kPerLink, 1), quick_deadlock_limits());
  ASSERT_EQ(r.verdict, DeadlockVerdict::kFound) << r.scope;
  const DeadlockWitness& w = *r.witness;
  EXPECT_EQ(w.messages.size(), 24u);
  EXPECT_EQ(w.moves.size(), 24u);
  EXPECT_EQ(check_deadlock_witness(net, w), std::nullopt);
  std::set<std::pair<NodeId, NodeId>> links;
  for (const MessageLocation& loc : w.final) {
    EXPECT_EQ(loc.where, Where::kBuffered);
    links.insert({loc.from, loc.node});
  }
  EXPECT_EQ(links.size(), 24u) << "one message on every directed link";

  // The wait cycle, read as links, is a cycle of the minimal-adaptive CDG.
  const auto cube = hypercube::Hypercube::make(3);
  ASSERT_TRUE(cube.ok());
  const ChannelIndex channels(*cube);
  const auto deps = all_shortest_path_dependencies(*cube, channels);
  EXPECT_TRUE(find_dependency_cycle(channels.size(), deps).has_value());
  const std::set<std::pair<uint64_t, uint64_t>> dep_set(deps.begin(), deps.end());
  auto channel = [&](uint32_t m) {
    return channels.id(Node{w.final[m].from, 3}, Node{w.final[m].node, 3});
  };
  for (size_t k = 0; k < w.wait_cycle.size(); ++k) {
    const uint32_t a = w.wait_cycle[k], b = w.wait_cycle[(k + 1) % w.wait_cycle.size()];
    EXPECT_TRUE(dep_set.count({channel(a), channel(b)})) << "m" << a << " -> m" << b;
  }
}

struct TableRow {
  int n;
  Routing routing;
  BufferModel buffers;
  int capacity;
  size_t messages;  // 0: none for any number of messages
};

TEST(DeadlockSearch, SmallestDeadlocksMatchTheMeasuredTable) {
  // Measured with standard_deadlock_limits (all 16 rows in well under a second); the moves always
  // equal the messages (fact (b) of deadlock.h).
  const std::vector<TableRow> table = {
      {3, Routing::kStatic, BufferModel::kPerNode, 1, 2},   {3, Routing::kStatic, BufferModel::kPerLink, 1, 0},
      {3, Routing::kDynamic, BufferModel::kPerNode, 1, 4},  {3, Routing::kDynamic, BufferModel::kPerLink, 1, 24},
      {3, Routing::kStatic, BufferModel::kPerNode, 2, 4},   {3, Routing::kStatic, BufferModel::kPerLink, 2, 0},
      {3, Routing::kDynamic, BufferModel::kPerNode, 2, 8},  {3, Routing::kDynamic, BufferModel::kPerLink, 2, 48},
      {4, Routing::kStatic, BufferModel::kPerNode, 1, 2},   {4, Routing::kStatic, BufferModel::kPerLink, 1, 0},
      {4, Routing::kDynamic, BufferModel::kPerNode, 1, 4},  {4, Routing::kDynamic, BufferModel::kPerLink, 1, 24},
      {4, Routing::kStatic, BufferModel::kPerNode, 2, 4},   {4, Routing::kStatic, BufferModel::kPerLink, 2, 0},
      {4, Routing::kDynamic, BufferModel::kPerNode, 2, 8},  {4, Routing::kDynamic, BufferModel::kPerLink, 2, 48},
  };
  for (const TableRow& row : table) {
    const Network net = Q(row.n);
    DeadlockSearchLimits limits = standard_deadlock_limits();
    if (row.messages == 0) limits.max_messages = row.capacity * row.n * (1 << row.n);  // covers every count
    const auto r = search_deadlock(net, Model(row.routing, row.buffers, row.capacity), limits);
    SCOPED_TRACE(r.scope);
    if (row.messages == 0) {
      EXPECT_EQ(r.verdict, DeadlockVerdict::kNoneUpToLimit);
      EXPECT_TRUE(r.every_message_count);
      continue;
    }
    ASSERT_EQ(r.verdict, DeadlockVerdict::kFound);
    EXPECT_EQ(Size(r), row.messages);
    EXPECT_EQ(Moves(r), row.messages);
    EXPECT_EQ(check_deadlock_witness(net, *r.witness), std::nullopt);
  }
}

TEST(DeadlockSearch, QuickBudgetSettlesEveryQ3CaseAtOneSlot) {
  for (const DeadlockModel& model : FourModels(1)) {
    const auto r = search_deadlock(Q(3), model, quick_deadlock_limits());
    EXPECT_NE(r.verdict, DeadlockVerdict::kInconclusive) << r.scope;
    EXPECT_LT(r.states_explored, 10'000u) << r.scope;
  }
}

TEST(DeadlockSearch, ConfigurationSearchAgreesWithThePlainStateSearch) {
  for (int n : {2, 3, 4}) {
    const int m = n == 4 ? 2 : 3;
    for (int capacity : {1, 2})
      for (const DeadlockModel& model : FourModels(capacity)) {
        const auto fast = search_deadlock(Q(n), model, Limits(kConfigurations, m));
        const auto plain = search_deadlock(Q(n), model, Limits(kStateSpace, m));
        SCOPED_TRACE(fast.scope + "\n" + plain.scope);
        EXPECT_EQ(fast.verdict, plain.verdict);
        EXPECT_EQ(fast.messages_searched, plain.messages_searched);
        EXPECT_EQ(Size(fast), Size(plain));
        EXPECT_EQ(Moves(fast), Moves(plain));
      }
  }
}

TEST(DeadlockSymmetry, TranslationReducedStateSearchAgreesWithTheUnreducedOne) {
  for (int n : {2, 3}) {
    const int m = n == 2 ? 3 : 2;
    for (int capacity : {1, 2})
      for (const DeadlockModel& model : FourModels(capacity)) {
        const auto reduced = search_deadlock(Q(n), model, Limits(kStateSpace, m, 10'000'000, true));
        const auto full = search_deadlock(Q(n), model, Limits(kStateSpace, m, 10'000'000, false));
        SCOPED_TRACE(reduced.scope + "\n" + full.scope);
        EXPECT_EQ(reduced.verdict, full.verdict);
        EXPECT_EQ(reduced.messages_searched, full.messages_searched);
        EXPECT_EQ(Size(reduced), Size(full));
        EXPECT_EQ(Moves(reduced), Moves(full));
        EXPECT_EQ(reduced.deadlocking_sets, full.deadlocking_sets) << "orbit sizes add up";
        EXPECT_LT(reduced.message_sets, full.message_sets);
      }
  }
}

TEST(DeadlockSymmetry, TranslationReducedConfigurationSearchAgreesWithTheUnreducedOne) {
  for (int n : {2, 3}) {
    for (int capacity : {1, 2})
      for (const DeadlockModel& model : FourModels(capacity)) {
        const int all = capacity * n * (1 << n);
        const auto reduced = search_deadlock(Q(n), model, Limits(kConfigurations, all, 10'000'000, true));
        const auto full = search_deadlock(Q(n), model, Limits(kConfigurations, all, 10'000'000, false));
        SCOPED_TRACE(reduced.scope + "\n" + full.scope);
        EXPECT_EQ(reduced.verdict, full.verdict);
        EXPECT_EQ(reduced.messages_searched, full.messages_searched);
        EXPECT_EQ(Size(reduced), Size(full));
        EXPECT_EQ(reduced.every_message_count, full.every_message_count);
      }
  }
}

TEST(DeadlockSearch, ExhaustedStateBudgetIsInconclusiveNotNone) {
  for (DeadlockSearchMethod method : {kConfigurations, kStateSpace}) {
    const auto r = search_deadlock(Q(3), Model(Routing::kDynamic, BufferModel::kPerNode, 1), Limits(method, 4, 3));
    EXPECT_EQ(r.verdict, DeadlockVerdict::kInconclusive) << r.scope;
    EXPECT_FALSE(r.witness.has_value());
    EXPECT_NE(r.scope.find("inconclusive"), std::string::npos) << r.scope;
  }
}

TEST(DeadlockSearch, ProgressReportsEachCompletedMessageCount) {
  std::vector<int> counts;
  const auto r = search_deadlock(Q(3), Model(Routing::kDynamic, BufferModel::kPerNode, 1), Limits(kStateSpace, 3),
                                 [&](int m, uint64_t) { counts.push_back(m); });
  EXPECT_EQ(r.verdict, DeadlockVerdict::kNoneUpToLimit);
  EXPECT_EQ(counts, (std::vector<int>{1, 2, 3}));
}

// ---------------------------------------------------------------------------------------------
// The checker's negative controls.

TEST(DeadlockWitnessChecker, RejectsAMoveTheRoutingDoesNotAllow) {
  DeadlockWitness w = StaticPerNodeWitness();  // m0 001->110 moves 001->000 (e-cube: bit 0)
  w.moves[0].to = 0b011;                        // bit 1 first: productive, but not e-cube
  w.final[0].node = 0b011;
  const auto problem = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("move 0: static routing does not take m0"), std::string::npos) << *problem;
  // Under dynamic routing the same hop is legal (and then the state is no deadlock).
  w.model.routing = Routing::kDynamic;
  const auto dynamic = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(dynamic.has_value());
  EXPECT_EQ(dynamic->rfind("not deadlocked: m0 can move", 0), 0u) << *dynamic;
}

TEST(DeadlockWitnessChecker, RejectsAMoveIntoAFullBuffer) {
  DeadlockWitness w;
  w.n = 3;
  w.model = Model(Routing::kStatic, BufferModel::kPerNode, 1);
  w.messages = {{0b000, 0b011}, {0b000, 0b011}};
  w.moves = {{0, 0b000, 0b001}, {1, 0b000, 0b001}};
  w.final = {{Where::kBuffered, 0b001, 0b000}, {Where::kBuffered, 0b001, 0b000}};
  w.wait_cycle = {0, 1};
  auto problem = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("move 1: m1 000->001 into a full buffer"), std::string::npos) << *problem;
  // Two slots take both (and then nothing is deadlocked: 001 -> 011 delivers).
  w.model.capacity = 2;
  problem = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("not deadlocked"), std::string::npos) << *problem;
}

TEST(DeadlockWitnessChecker, RejectsAStateThatIsNotDeadlocked) {
  DeadlockWitness w = StaticPerNodeWitness();
  w.moves.pop_back();  // m1 stays injected, so m0 can move on into m1's node
  w.final[1] = {Where::kInjected, w.messages[1].source, w.messages[1].source};
  const auto problem = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(problem.has_value());
  // The move named is m0's own: from where m0 is, to its e-cube next hop.
  const NodeId at = w.final[0].node, to = at ^ ((at ^ w.messages[0].destination) & (~(at ^ w.messages[0].destination) + 1));
  EXPECT_EQ(*problem, fmt::format("not deadlocked: m0 can move {:03b}->{:03b}", at, to));
}

TEST(DeadlockWitnessChecker, RejectsAWitnessWithoutMessages) {
  DeadlockWitness w = StaticPerNodeWitness();
  w.messages.clear();
  w.moves.clear();
  w.final.clear();
  w.wait_cycle.clear();
  EXPECT_EQ(check_deadlock_witness(Q(3), w), "no messages");
}

// A third message, delivered in one hop, does not block the deadlock; listed in the wait cycle it
// is named as delivered.
TEST(DeadlockWitnessChecker, RejectsADeliveredMessageInTheWaitCycle) {
  DeadlockWitness w = StaticPerNodeWitness();
  ASSERT_EQ(w.messages.size(), 2u);
  DeadlockMessage extra = w.messages[0];
  extra.source = 0b111;
  extra.destination = 0b110;  // e-cube: bit 0 first, one hop
  w.messages.push_back(extra);
  w.moves.push_back(Move{2, 0b111, 0b110});
  w.final.push_back(MessageLocation{Where::kDelivered, 0b110, 0b110});
  ASSERT_EQ(check_deadlock_witness(Q(3), w), std::nullopt) << "the delivered message changes nothing";
  w.wait_cycle = {2, 0, 1};
  EXPECT_EQ(check_deadlock_witness(Q(3), w), "wait cycle: m2 is delivered");
  w.wait_cycle = {0, 2, 1};
  EXPECT_TRUE(check_deadlock_witness(Q(3), w).has_value());
}

// to_string prints a wait-cycle entry that names no message as a bare pair, also when the final
// locations list more entries than there are messages.
TEST(DeadlockWitnessChecker, ToStringPrintsAnOutOfRangeCycleEntryBare) {
  DeadlockWitness w = StaticPerNodeWitness();
  w.final.push_back(w.final[0]);  // three final locations, two messages
  w.wait_cycle = {2, 0};
  const std::string text = to_string(w);
  EXPECT_NE(text.find("wait cycle: m2 -> m0"), std::string::npos) << text;
}

TEST(DeadlockWitnessChecker, RejectsAFakeWaitCycle) {
  const DeadlockWitness good = StaticPerNodeWitness();
  DeadlockWitness w = good;
  w.wait_cycle = {0};
  auto problem = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("m0 does not wait for m0"), std::string::npos) << *problem;
  w.wait_cycle = {0, 1, 0};
  ASSERT_TRUE(check_deadlock_witness(Q(3), w).has_value());
  w.wait_cycle = {};
  ASSERT_TRUE(check_deadlock_witness(Q(3), w).has_value());

  // Dynamic per_node face: the diagonal messages do not wait on each other.
  const auto face = search_deadlock(Q(3), Model(Routing::kDynamic, BufferModel::kPerNode, 1), quick_deadlock_limits());
  ASSERT_TRUE(face.witness.has_value());
  DeadlockWitness f = *face.witness;
  uint32_t diagonal = 0;
  for (uint32_t m = 1; m < 4; ++m)
    if (std::popcount(f.final[m].node ^ f.final[0].node) == 2) diagonal = m;
  ASSERT_NE(diagonal, 0u);
  f.wait_cycle = {0, diagonal};
  problem = check_deadlock_witness(Q(3), f);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("does not wait"), std::string::npos) << *problem;

  // Per link: a message waits only for the occupant of the link it needs, not for a message that
  // reached the same node over another link.
  const auto links = search_deadlock(Q(3), Model(Routing::kDynamic, BufferModel::kPerLink, 1), quick_deadlock_limits());
  ASSERT_TRUE(links.witness.has_value());
  DeadlockWitness l = *links.witness;
  const NodeId here = l.final[0].node;
  const NodeId dest = l.messages[0].destination;
  std::optional<uint32_t> other;
  for (uint32_t m = 1; m < l.messages.size() && !other; ++m)
    if (std::popcount(l.final[m].node ^ here) == 1 && ((l.final[m].node ^ here) & (here ^ dest)) != 0 &&
        l.final[m].from != here)
      other = m;
  ASSERT_TRUE(other.has_value());
  l.wait_cycle = {0, *other};
  problem = check_deadlock_witness(Q(3), l);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find(fmt::format("m0 does not wait for m{}", *other)), std::string::npos) << *problem;
}

TEST(DeadlockWitnessChecker, RejectsAFinalPlacementTheMovesDoNotProduceAndBadMoves) {
  const DeadlockWitness good = StaticPerNodeWitness();
  DeadlockWitness w = good;
  w.final[0].from = w.final[0].node;
  EXPECT_TRUE(check_deadlock_witness(Q(3), w).has_value());
  // A wrong final location of m1 is named by m1's own stated location: two different wrong ones
  // give two different messages.
  w = good;
  w.final[1] = {Where::kDelivered, 0b111, 0b111};
  const auto delivered = check_deadlock_witness(Q(3), w);
  w.final[1] = {Where::kInjected, 0b101, 0b101};
  const auto injected = check_deadlock_witness(Q(3), w);
  ASSERT_TRUE(delivered.has_value() && injected.has_value());
  EXPECT_EQ(delivered->rfind("m1: final location ", 0), 0u) << *delivered;
  EXPECT_NE(*delivered, *injected);
  // ... and by where the moves really leave m1 (its own location, at 010 from 011).
  EXPECT_EQ(*delivered, "m1: final location delivered at 111 but the moves leave it at 010 (from 011)");
  EXPECT_EQ(*injected, "m1: final location injected at 101 but the moves leave it at 010 (from 011)");
  w = good;
  w.moves[1].from = w.moves[1].to;  // not where m1 is
  EXPECT_TRUE(check_deadlock_witness(Q(3), w).has_value());
  w = good;
  w.moves.push_back({7, 0, 1});  // no such message
  EXPECT_TRUE(check_deadlock_witness(Q(3), w).has_value());
  w = good;
  w.messages[0].destination = w.messages[0].source;
  EXPECT_TRUE(check_deadlock_witness(Q(3), w).has_value());
  EXPECT_TRUE(check_deadlock_witness(Q(4), good).has_value()) << "the witness is for Q_3";
  EXPECT_EQ(check_deadlock_witness(Q(3), good), std::nullopt);
}

TEST(DeadlockWitnessChecker, RejectsNodesOutsideTheCubeAndNoBufferSlots) {
  DeadlockWitness w = StaticPerNodeWitness();
  w.messages[1].destination = 8;
  EXPECT_EQ(check_deadlock_witness(Q(3), w), "m1: a node outside Q_3");
  w = StaticPerNodeWitness();
  w.model.capacity = 0;
  EXPECT_EQ(check_deadlock_witness(Q(3), w), "capacity 0 is below 1");
}

// Every message is asked whether it can move, the last one too: a third message, injected away
// from the two that block each other, can be delivered.
TEST(DeadlockWitnessChecker, TheLastMessageCanMoveToo) {
  DeadlockWitness w = StaticPerNodeWitness();
  ASSERT_EQ(w.messages.size(), 2u);
  ASSERT_EQ(check_deadlock_witness(Q(3), w), std::nullopt);
  w.messages.push_back({0b111, 0b101});
  w.final.push_back({Where::kInjected, 0b111, 0b111});
  EXPECT_EQ(check_deadlock_witness(Q(3), w), "not deadlocked: m2 at 111 can be delivered to 101");
}

// The text form of a wait cycle that names messages the witness lacks: the pairs, ';'-separated.
TEST(DeadlockWitnessText, AWaitCycleOfUnknownMessagesIsPrintedAsPairs) {
  DeadlockWitness w = StaticPerNodeWitness();
  w.wait_cycle = {0, 5};
  const std::string text = to_string(w);
  EXPECT_EQ(text.substr(text.rfind("\nwait cycle:")), "\nwait cycle: m0 -> m5; m5 -> m0") << text;
}

// ---------------------------------------------------------------------------------------------

TEST(DeadlockWitnessJson, RoundTripsAndNamesTheBadField) {
  for (const DeadlockModel& model : FourModels(1)) {
    const auto r = search_deadlock(Q(3), model, quick_deadlock_limits());
    if (!r.witness) continue;
    const nlohmann::json j = to_json(*r.witness);
    auto back = witness_from_json(nlohmann::json::parse(j.dump()), "case.json");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(*back, *r.witness);
    EXPECT_EQ(check_deadlock_witness(Q(3), *back), std::nullopt);
  }
  const nlohmann::json good = to_json(StaticPerNodeWitness());
  EXPECT_EQ(good.at("messages").at(0).at("source"), "001");
  auto expect_error = [&](nlohmann::json j, const std::string& fragment) {
    const auto back = witness_from_json(j, "case.json");
    ASSERT_FALSE(back.ok()) << fragment;
    EXPECT_NE(back.error().to_string().find(fragment), std::string::npos) << back.error().to_string();
    EXPECT_NE(back.error().to_string().find("case.json"), std::string::npos) << back.error().to_string();
  };
  nlohmann::json j = good;
  j.at("moves").at(0).erase("to");
  expect_error(j, "/moves/0: missing field 'to'");
  j = good;
  j.at("messages").at(1).at("destination") = "10";
  expect_error(j, "/messages/1/destination");
  j = good;
  j.at("messages").at(1).at("destination") = "01x";
  expect_error(j, "/messages/1/destination");
  j = good;
  j.at("format") = "topocheck-workload";
  expect_error(j, "/format");
  j = good;
  j.at("wait_cycle") = {0, 5};
  expect_error(j, "/wait_cycle/1");
  j = good;
  j.at("moves").at(1).at("message") = 2;
  expect_error(j, "/moves/1/message: 2 is not an integer in 0..1");
  j = good;
  j.at("buffers") = 5;
  expect_error(j, "/buffers: 5 is not a string");
  j = good;
  j.at("buffers") = "per_port";
  expect_error(j, "/buffers");
  j = good;
  j.at("final").erase(1);
  expect_error(j, "/final: 1 entries for 2 messages");
  j = good;
  j.at("final").at(0).at("where") = "lost";
  expect_error(j, "/final/0/where");
  j = good;
  j.at("messages").at(1).at("destination") = j.at("messages").at(1).at("source");
  expect_error(j, "/messages/1: source equals destination");
  j = good;
  j.at("n") = 9;
  expect_error(j, "/n");
}

TEST(DeadlockWords, BufferModelsAndVerdictsParseAndPrint) {
  for (BufferModel b : {BufferModel::kPerNode, BufferModel::kPerLink}) EXPECT_EQ(parse_buffer_model(to_string(b)), b);
  EXPECT_EQ(parse_buffer_model("per_port"), std::nullopt);
  EXPECT_EQ(to_string(Model(Routing::kDynamic, BufferModel::kPerLink, 2)), "dynamic routing, per_link buffers, B = 2");
  EXPECT_EQ(to_string(DeadlockVerdict::kNoneUpToLimit), "none");
  EXPECT_EQ(to_string(Where::kDelivered), "delivered");
}

}  // namespace
}  // namespace topocheck::routing
