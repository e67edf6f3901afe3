// The naive judge of wormhole runs (wormhole_check.h) on hand-made traces on C4 (as Q_2): one
// valid and one broken per rule. Real runs of the simulator are judged in
// wormhole_check_runs_test.cc (the same binary).
#include "wormhole/wormhole_check.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "network/network.h"
#include "wormhole/wormhole.h"

namespace topocheck::routing {
namespace {

constexpr uint32_t kNo = 0xffffffffu;  // "this flit does not move further / is not ejected"

// C4 = Q_2: node u's port p leads to u ^ (1 << p), channel 2u + p. 0-1, 0-2, 1-3, 2-3.
const Network& c4() {
  static const Network net = *Network::hypercube(2);
  return net;
}
uint32_t ch(const Network& net, NodeId u, NodeId v) {
  const int p = net.port_to(u, v);
  EXPECT_GE(p, 0) << u << "->" << v << " is not a link";
  return net.link(u, p, LinkKind::kUnidirectional);
}
std::vector<uint32_t> channels(const Network& net, const std::vector<NodeId>& nodes) {
  std::vector<uint32_t> out;
  for (size_t i = 1; i < nodes.size(); ++i) out.push_back(ch(net, nodes[i - 1], nodes[i]));
  return out;
}

// A routing function for hand-made traces, so that they do not depend on wormhole_routing.cc:
// shortest-path adaptive or deterministic (from Network::distance), or anything at all (a broken
// routing, so that only the judge's own family checks can object). The name picks the family the
// judge recomputes ("sp-..." or "updown-...(root R)").
class TestRouting : public WormholeRouting {
 public:
  enum Kind { kAdaptive, kDeterministic, kAnything };
  TestRouting(const Network& net, std::string name, Kind kind) : net_(net), name_(std::move(name)), kind_(kind) {}
  std::string name() const override { return name_; }
  void allowed(NodeId at, uint32_t, NodeId dst, std::vector<uint32_t>& out) const override {
    out.clear();
    if (at == dst) return;
    for (int p = 0; p < net_.degree(at); ++p) {
      const NodeId v = net_.neighbor(at, p);
      if (kind_ != kAnything && net_.distance(v, dst) + 1 != net_.distance(at, dst)) continue;
      out.push_back(net_.link(at, p, LinkKind::kUnidirectional));
      if (kind_ == kDeterministic) return;
    }
  }

 private:
  const Network& net_;
  std::string name_;
  Kind kind_;
};

// A hand-made run: per worm its path, per flit the cycle of each hop and of its ejection; run()
// turns it into a trace and a result with consistent counts.
struct Plan {
  std::vector<WormMessage> messages;
  std::vector<std::vector<uint32_t>> paths;
  std::vector<std::vector<std::vector<uint32_t>>> cross;  // [worm][flit][hop] (kNo: stops before)
  std::vector<std::vector<uint32_t>> eject;               // [worm][flit] (kNo: never)
  WormConfig config;
  uint32_t cycles = 0;  // 0: one after the last event

  // A worm that never stalls from cycle `start`: flit k crosses hop j in start + k + j and is
  // ejected in the cycle after its last hop.
  void add(NodeId src, NodeId dst, uint32_t length, uint32_t created, std::vector<uint32_t> path, uint32_t start) {
    messages.push_back({src, dst, length, created});
    std::vector<std::vector<uint32_t>> c(length);
    std::vector<uint32_t> e(length);
    for (uint32_t k = 0; k < length; ++k) {
      for (uint32_t j = 0; j < path.size(); ++j) c[k].push_back(start + k + j);
      e[k] = start + k + static_cast<uint32_t>(path.size());
    }
    paths.push_back(std::move(path));
    cross.push_back(std::move(c));
    eject.push_back(std::move(e));
  }

  struct Run {
    WormConfig config;
    WormResult result;
  };
  Run run() const {
    Run r{config, {}};
    WormTrace t;
    for (uint32_t w = 0; w < messages.size(); ++w)
      for (uint32_t k = 0; k < messages[w].length; ++k) {
        for (uint32_t j = 0; j < cross[w][k].size() && cross[w][k][j] != kNo; ++j)
          t.crossings.push_back({cross[w][k][j], w, k, paths[w][j]});
        if (eject[w][k] != kNo) t.ejections.push_back({eject[w][k], w, k});
      }
    std::stable_sort(t.crossings.begin(), t.crossings.end(), [](auto& a, auto& b) { return a.cycle < b.cycle; });
    std::stable_sort(t.ejections.begin(), t.ejections.end(), [](auto& a, auto& b) { return a.cycle < b.cycle; });
    uint32_t last = 0;
    for (auto& x : t.crossings) last = std::max(last, x.cycle);
    for (auto& e : t.ejections) last = std::max(last, e.cycle);
    WormResult& res = r.result;
    res.cycles = cycles ? cycles : last + 1;
    res.flit_crossings = t.crossings.size();
    res.delivered_at.assign(messages.size(), 0);
    for (uint32_t w = 0; w < messages.size(); ++w)
      if (eject[w].back() != kNo) {
        res.delivered_at[w] = eject[w].back();
        ++res.delivered_worms;
      }
    res.completed = res.delivered_worms == messages.size();
    if (!res.completed) r.config.max_cycles = res.cycles;
    // Statistics over the whole run (warmup = measure = 0), on C4's 4 nodes.
    uint64_t offered = 0, latency = 0;
    for (uint32_t w = 0; w < messages.size(); ++w) {
      if (messages[w].created >= res.cycles) continue;
      ++res.window_worms;
      offered += messages[w].length;
      if (res.delivered_at[w] == 0) continue;
      ++res.window_delivered;
      latency += res.delivered_at[w] - messages[w].created + 1;
    }
    res.offered = static_cast<double>(offered) / (4.0 * res.cycles);
    res.accepted = static_cast<double>(t.ejections.size()) / (4.0 * res.cycles);
    res.mean_latency = res.window_delivered ? static_cast<double>(latency) / static_cast<double>(res.window_delivered) : 0;
    r.config.record_trace = true;
    res.trace = std::move(t);
    return r;
  }
};

// The base run on C4, B = 1, every worm created at 0 (valid):
//   worm 0: 0 -> 3, 2 flits, over 0->1->3 from cycle 0 (ejections 2, 3);
//   worm 1: 1 -> 3, 1 flit, over 1->3 from cycle 4 (worm 0's tail frees 1->3 in cycle 3);
//   worm 2: 0 -> 2, 1 flit, over 0->2 from cycle 2 (worm 0's tail left node 0 in cycle 1).
Plan base() {
  const Network& n = c4();
  Plan p;
  p.config.buffer = 1;
  p.add(0, 3, 2, 0, channels(n, {0, 1, 3}), 0);
  p.add(1, 3, 1, 0, channels(n, {1, 3}), 4);
  p.add(0, 2, 1, 0, channels(n, {0, 2}), 2);
  return p;
}

const TestRouting& sp_adaptive() {
  static const TestRouting r(c4(), "sp-adaptive", TestRouting::kAdaptive);
  return r;
}

std::optional<WormViolation> judge(const Plan::Run& run, const std::vector<WormMessage>& messages) {
  return check_wormhole_trace(c4(), sp_adaptive(), messages, run.config, run.result);
}
std::optional<WormViolation> judge(const Plan& plan, const WormholeRouting& routing = sp_adaptive()) {
  const Plan::Run run = plan.run();
  return check_wormhole_trace(c4(), routing, plan.messages, run.config, run.result);
}

// The rule of the first violation, or "valid"; with the message on failure.
std::string verdict(const std::optional<WormViolation>& v) { return v ? to_string(v->rule) : "valid"; }
#define EXPECT_RULE(expr, expected)                                                   \
  do {                                                                                \
    const auto v_ = (expr);                                                           \
    EXPECT_EQ(verdict(v_), to_string(expected)) << (v_ ? v_->message : "no violation"); \
  } while (0)
#define EXPECT_VALID(expr)                                          \
  do {                                                              \
    const auto v_ = (expr);                                         \
    EXPECT_FALSE(v_) << to_string(v_->rule) << ": " << v_->message; \
  } while (0)

TEST(WormholeCheckByHand, TheBaseRunIsValidUnderEveryRoutingThatAllowsIt) {
  const Network& n = c4();
  EXPECT_VALID(judge(base()));
  EXPECT_VALID(judge(base(), TestRouting(n, "sp-deterministic", TestRouting::kDeterministic)));
  // up*/down* from root 0: levels 0, 1, 1, 2; every hop of the base run goes down.
  EXPECT_VALID(judge(base(), TestRouting(n, "updown-adaptive(root 0)", TestRouting::kAnything)));
  EXPECT_VALID(judge(base(), TestRouting(n, "something-else", TestRouting::kAnything)));
  Plan b2 = base();
  b2.config.buffer = 4;
  EXPECT_VALID(judge(b2));
}

TEST(WormholeCheckByHand, TheTextFormNamesTheRule) {
  const Plan::Run run = base().run();
  EXPECT_EQ(check_wormhole_trace_text(c4(), sp_adaptive(), base().messages, run.config, run.result), std::nullopt);
  Plan p = base();
  p.cross[1][0][0] = 3;
  p.eject[1][0] = 4;
  const Plan::Run bad = p.run();
  const auto text = check_wormhole_trace_text(c4(), sp_adaptive(), p.messages, bad.config, bad.result);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->rfind("exclusive: cycle 3: the header of worm 1 reserves 1->3, which worm 0 holds", 0), 0u) << *text;
}

TEST(WormholeCheckByHand, AMalformedTraceIsRejected) {
  Plan::Run run = base().run();
  run.result.trace.reset();
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  run = base().run();
  run.result.trace->crossings[0].worm = 9;
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  run = base().run();
  run.result.trace->crossings[0].flit = 2;
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  run = base().run();
  run.result.trace->crossings[0].channel = 8;
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  run = base().run();
  std::swap(run.result.trace->crossings.front(), run.result.trace->crossings.back());
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  run = base().run();
  run.result.delivered_at.pop_back();
  EXPECT_RULE(judge(run, base().messages), WormRule::kTrace);

  // The ejections are checked as the crossings are: each by its own message.
  const auto trace_message = [](const Plan::Run& r) {
    const auto v = judge(r, base().messages);
    return v && v->rule == WormRule::kTrace ? v->message : std::string("no trace violation");
  };
  run = base().run();
  run.result.trace->ejections[0].worm = 9;
  EXPECT_NE(trace_message(run).find("an ejection of worm 9, which does not exist"), std::string::npos) << trace_message(run);
  run = base().run();
  run.result.trace->ejections[0].flit = 5;
  EXPECT_NE(trace_message(run).find("the trace ejects flit 5"), std::string::npos) << trace_message(run);
  run = base().run();
  ASSERT_LT(run.result.trace->ejections.front().cycle, run.result.trace->ejections.back().cycle);
  std::swap(run.result.trace->ejections.front(), run.result.trace->ejections.back());
  EXPECT_NE(trace_message(run).find("the ejections are not in cycle order"), std::string::npos) << trace_message(run);

  std::vector<WormMessage> same_ends = base().messages;
  same_ends[1].dst = same_ends[1].src;
  EXPECT_RULE(judge(base().run(), same_ends), WormRule::kTrace);
  // Every message is validated, the first too.
  std::vector<WormMessage> first_bad = base().messages;
  first_bad[0].dst = first_bad[0].src;
  const auto v0 = judge(base().run(), first_bad);
  ASSERT_TRUE(v0.has_value());
  EXPECT_EQ(v0->message, "message 0 (0 -> 0, 2 flits) is not a valid message on 4 nodes");
}

// The same three worms as base(), numbered so that a one-flit worm comes before a two-flit one:
// each worm's flits are counted apart from the others'.
TEST(WormholeCheckByHand, WormsOfGrowingLengthAreCountedApart) {
  const Network& n = c4();
  Plan p;
  p.config.buffer = 1;
  p.add(1, 3, 1, 0, channels(n, {1, 3}), 4);
  p.add(0, 3, 2, 0, channels(n, {0, 1, 3}), 0);
  p.add(0, 2, 1, 0, channels(n, {0, 2}), 2);
  EXPECT_VALID(judge(p));
}

TEST(WormholeCheckByHand, AHeaderWalksFromItsSourceAlongLinksAndStopsAtItsDestination) {
  const Network& n = c4();
  Plan p = base();
  p.paths[1] = channels(n, {2, 3});  // worm 1 starts at node 1
  EXPECT_RULE(judge(p), WormRule::kWalk);

  p = base();
  p.paths[0] = {ch(n, 0, 1), ch(n, 2, 3)};  // not contiguous
  EXPECT_RULE(judge(p), WormRule::kWalk);

  p = base();
  p.add(1, 3, 1, 0, channels(n, {1, 3, 2}), 6);  // goes on past its destination
  EXPECT_RULE(judge(p), WormRule::kWalk);

  p = base();
  p.messages[0].created = 1;  // moves before it exists
  EXPECT_RULE(judge(p), WormRule::kWalk);
}

TEST(WormholeCheckByHand, EveryFlitFollowsItsHeaderOneChannelPerCycle) {
  // Flit 1 of worm 0 strays from the header's second channel.
  Plan::Run run = base().run();
  for (FlitCrossing& x : run.result.trace->crossings)
    if (x.worm == 0 && x.flit == 1 && x.channel == ch(c4(), 1, 3)) x.channel = ch(c4(), 1, 0);
  EXPECT_RULE(judge(run, base().messages), WormRule::kWalk);

  // Flit 1 crosses further than the header.
  Plan p = base();
  p.cross[0][0][1] = kNo;
  p.eject[0] = {kNo, kNo};
  EXPECT_RULE(judge(p), WormRule::kWalk);

  // Flit 1 enters with the header, in the same cycle.
  p = base();
  p.cross[0][1] = {0, 2};
  EXPECT_RULE(judge(p), WormRule::kFlitOrder);

  // Flit 1 overtakes flit 0 on the second channel.
  p = base();
  p.cross[0][0] = {0, 3};
  p.eject[0] = {4, 5};
  p.cross[1][0] = {6};
  p.eject[1] = {7};
  EXPECT_RULE(judge(p), WormRule::kFlitOrder);

  // The header crosses both channels in cycle 0 (kTeleport): named with the channel it crossed first.
  p = base();
  p.cross[0][0] = {0, 0};
  p.eject[0] = {1, 3};
  EXPECT_RULE(judge(p), WormRule::kOneHop);
  const auto v = judge(p);
  ASSERT_TRUE(v.has_value());
  EXPECT_NE(v->message.find("crosses 1->3 in the same cycle as 0->1 (one channel per cycle)"), std::string::npos)
      << v->message;
}

TEST(WormholeCheckByHand, TheHeaderTakesOnlyChannelsTheRoutingAllows) {
  const Network& n = c4();
  // 0 -> 3 over 0->2->3: shortest, but sp-deterministic allows only 0->1 first.
  Plan p = base();
  p.paths[0] = channels(n, {0, 2, 3});
  p.cross[2][0] = {4};
  p.eject[2] = {5};
  EXPECT_VALID(judge(p));
  EXPECT_RULE(judge(p, TestRouting(n, "sp-deterministic", TestRouting::kDeterministic)), WormRule::kRouting);

  // 1 -> 3 the long way round: sp-adaptive refuses it; a routing that allows anything but calls
  // itself shortest-path is caught by the judge's own BFS.
  p = base();
  p.paths[1] = channels(n, {1, 0, 2, 3});
  p.cross[1][0] = {4, 5, 6};
  p.eject[1] = {7};
  EXPECT_RULE(judge(p), WormRule::kRouting);
  EXPECT_RULE(judge(p, TestRouting(n, "sp-anything", TestRouting::kAnything)), WormRule::kMinimal);
  EXPECT_VALID(judge(p, TestRouting(n, "anything", TestRouting::kAnything)));
  // 0 -> 2 over 0->1->3->2 alone: the first step leads away from the destination, named with
  // the distances of the node it leaves and of the node it enters.
  Plan away;
  away.config.buffer = 1;
  away.add(0, 2, 1, 0, channels(n, {0, 1, 3, 2}), 0);
  const auto v = judge(away, TestRouting(n, "sp-anything", TestRouting::kAnything));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->message,
            "cycle 0: the header of worm 0 takes 0->1, from distance 1 to distance 2 from its destination 2 (not a "
            "shortest path)");
}

TEST(WormholeCheckByHand, UpDownRoutesNeverGoUpAfterDownAndAreShortestLegalRoutes) {
  const Network& n = c4();
  // Root 0: levels 0, 1, 1, 2. 1 -> 2 over 1->3->2 goes down, then up.
  Plan p = base();
  p.add(1, 2, 1, 0, channels(n, {1, 3, 2}), 6);
  EXPECT_RULE(judge(p, TestRouting(n, "updown-anything(root 0)", TestRouting::kAnything)), WormRule::kUpDown);
  // Root 3: levels 2, 1, 1, 0. 1->3 is up, 3->2 down: legal and shortest.
  EXPECT_VALID(judge(p, TestRouting(n, "updown-anything(root 3)", TestRouting::kAnything)));
  // Root 0: 3 -> 1 over 3->2->0->1 (up, up, down) is legal but 3->1 (up) is shorter.
  p = base();
  p.add(3, 1, 1, 0, channels(n, {3, 2, 0, 1}), 6);
  EXPECT_RULE(judge(p, TestRouting(n, "updown-anything(root 0)", TestRouting::kAnything)), WormRule::kMinimal);
  EXPECT_RULE(judge(p, TestRouting(n, "updown-anything(root 9)", TestRouting::kAnything)), WormRule::kTrace);
}

TEST(WormholeCheckByHand, FlitsAreEjectedAtTheirDestinationInOrderOnceAndPromptly) {
  Plan p = base();
  p.eject[1] = {4};  // in the cycle it arrived
  EXPECT_RULE(judge(p), WormRule::kEjection);

  p = base();
  p.eject[1] = {6};  // a cycle late: ejection never blocks
  EXPECT_RULE(judge(p), WormRule::kEjection);

  p = base();
  p.eject[0] = {kNo, 3};  // the tail before the header
  EXPECT_RULE(judge(p), WormRule::kEjection);

  p = base();
  p.cross[0][1] = {1, kNo};  // ejected at node 1, its destination is 3
  p.eject[0] = {2, 2};
  EXPECT_RULE(judge(p), WormRule::kEjection);

  Plan::Run run = base().run();
  run.result.trace->ejections.push_back({9, 1, 0});  // twice
  run.result.cycles = 10;
  EXPECT_RULE(judge(run, base().messages), WormRule::kEjection);
}

TEST(WormholeCheckByHand, NoFlitIsLostAndDeliveredAtIsTheTailsEjection) {
  // kDropTail: worm 0's tail reaches node 3 in cycle 2 and is never ejected; the run goes on.
  Plan p = base();
  p.eject[0] = {2, kNo};
  EXPECT_RULE(judge(p), WormRule::kDelivery);
  // ... but a run that stops before the flit is due has lost nothing.
  p = base();
  p.eject[1] = {kNo};
  p.cycles = 5;
  EXPECT_VALID(judge(p));

  Plan::Run run = base().run();
  run.result.delivered_at[1] = 6;
  EXPECT_RULE(judge(run, base().messages), WormRule::kDelivery);

  p = base();
  p.eject[1] = {kNo};
  p.cycles = 5;
  run = p.run();
  run.result.delivered_at[1] = 5;
  EXPECT_RULE(judge(run, base().messages), WormRule::kDelivery);
}

TEST(WormholeCheckByHand, AChannelFreedInCycleTIsReservableFromCycleTPlusOne) {
  Plan p = base();
  p.cross[1][0] = {3};  // worm 0's tail leaves 1->3 (is ejected) in cycle 3
  p.eject[1] = {4};
  EXPECT_RULE(judge(p), WormRule::kExclusive);

  // kEarlyRelease: worm 1 takes 1->3 when worm 0's header leaves it, with flit 1 still coming.
  p = base();
  p.cross[1][0] = {2};
  p.eject[1] = {3};
  EXPECT_RULE(judge(p), WormRule::kExclusive);

  // A worm that never releases a channel keeps it for the rest of the run.
  p = base();
  p.cross[0][1] = {1, kNo};
  p.eject[0] = {2, kNo};
  p.cycles = 6;
  EXPECT_RULE(judge(p), WormRule::kExclusive);
}

TEST(WormholeCheckByHand, ASourceInjectsOneFlitPerCycleInQueueOrder) {
  const Network& n = c4();
  Plan p = base();
  p.cross[2][0] = {1};  // with worm 0's tail
  p.eject[2] = {2};
  EXPECT_RULE(judge(p), WormRule::kInjection);

  // Worm 1 overtakes worm 0 in node 0's queue (same created cycle, worm 0 first by index).
  Plan q;
  q.config.buffer = 1;
  q.add(0, 1, 1, 0, channels(n, {0, 1}), 1);
  q.add(0, 2, 1, 0, channels(n, {0, 2}), 0);
  EXPECT_RULE(judge(q), WormRule::kQueueOrder);
  // ... which is right when worm 1 was created first.
  q.messages[0].created = 1;
  EXPECT_VALID(judge(q));
  // A worm behind one that never leaves never leaves either.
  q = Plan();
  q.config.buffer = 1;
  q.add(0, 1, 2, 0, channels(n, {0, 1}), 0);
  q.add(0, 2, 1, 0, channels(n, {0, 2}), 3);
  q.cross[0][1] = {kNo};
  q.eject[0] = {1, kNo};
  EXPECT_RULE(judge(q), WormRule::kQueueOrder);
}

TEST(WormholeCheckByHand, ABufferHoldsAtMostBFlitsAtTheEndOfEachCycle) {
  // Worm 0's header waits in 0->1 for a cycle while flit 1 enters behind it (kBufferOverflow
  // with B = 1; fine with B = 2).
  Plan p = base();
  p.cross[0] = {{0, 2}, {1, 3}};
  p.eject[0] = {3, 4};
  p.cross[1][0] = {5};
  p.eject[1] = {6};
  EXPECT_RULE(judge(p), WormRule::kBuffer);
  p.config.buffer = 2;
  EXPECT_VALID(judge(p));
}

TEST(WormholeCheckByHand, TheResultsCountsAgreeWithTheTrace) {
  auto with = [](auto change) {
    Plan::Run run = base().run();
    change(run);
    return judge(run, base().messages);
  };
  EXPECT_RULE(with([](Plan::Run& r) { ++r.result.flit_crossings; }), WormRule::kCounts);
  EXPECT_RULE(with([](Plan::Run& r) { --r.result.delivered_worms; }), WormRule::kCounts);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.completed = false; }), WormRule::kCounts);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.cycles = 5; }), WormRule::kCounts);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.cycles = 7; }), WormRule::kCounts);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.deadlock = WormDeadlock{}; }), WormRule::kCounts);
  // Incomplete and no deadlock: it must have run out of cycles.
  Plan p = base();
  p.eject[1] = {kNo};
  p.cycles = 5;
  Plan::Run run = p.run();
  run.config.max_cycles = 100;
  EXPECT_RULE(judge(run, p.messages), WormRule::kCounts);
  run.result.deadlock = WormDeadlock{};
  EXPECT_VALID(judge(run, p.messages));
}

TEST(WormholeCheckByHand, TheWindowStatisticsAreRecomputedFromTheTrace) {
  auto with = [](auto change) {
    Plan::Run run = base().run();
    change(run);
    return judge(run, base().messages);
  };
  EXPECT_RULE(with([](Plan::Run& r) { ++r.result.window_worms; }), WormRule::kStatistics);
  EXPECT_RULE(with([](Plan::Run& r) { --r.result.window_delivered; }), WormRule::kStatistics);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.offered *= 1.01; }), WormRule::kStatistics);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.accepted = 0; }), WormRule::kStatistics);
  EXPECT_RULE(with([](Plan::Run& r) { r.result.mean_latency += 1; }), WormRule::kStatistics);
  // The base run: latencies 4, 6, 4; 4 flits ejected in 6 cycles on 4 nodes.
  const Plan::Run run = base().run();
  EXPECT_DOUBLE_EQ(run.result.mean_latency, 14.0 / 3);
  EXPECT_DOUBLE_EQ(run.result.accepted, 4.0 / 24);
  // Window [1, 4): no worm is created in it; flits ejected in cycles 2, 3, 3: 3 / (4 x 3).
  EXPECT_RULE(with([](Plan::Run& r) { r.config.warmup = 1; r.config.measure = 3; }), WormRule::kStatistics);
  EXPECT_VALID(with([](Plan::Run& r) {
    r.config.warmup = 1;
    r.config.measure = 3;
    r.result.window_worms = r.result.window_delivered = 0;
    r.result.offered = r.result.mean_latency = 0;
    r.result.accepted = 0.25;
  }));
  // measure = 0 with a warmup: wormhole.h leaves the window open; not checked.
  EXPECT_VALID(with([](Plan::Run& r) { r.config.warmup = 2; r.result.accepted = 7; }));
}

}  // namespace
}  // namespace topocheck::routing
