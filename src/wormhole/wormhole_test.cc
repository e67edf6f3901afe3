// The wormhole simulator's contract on hand-computed runs (wormhole.h): a lone worm's latency,
// pipelining with one-flit buffers, a channel held until the tail passes, the C4 deadlock of
// four clockwise worms and its witness, the witness checker's negative controls, determinism
// and input errors. Routing functions here are test-local (a ring's clockwise routing, a path's
// only routing), so that this file tests the simulator alone.
#include "wormhole/wormhole.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "itm/itm.h"
#include "wormhole/wormhole_graphs.h"

namespace topocheck::routing {
namespace {

// On C_n (itm::cycle_graph: node i adjacent to i +- 1 mod n): always the clockwise channel
// i -> i + 1.
class Clockwise : public WormholeRouting {
 public:
  explicit Clockwise(const Network& net) : net_(net), ch_(net) {}
  std::string name() const override { return "clockwise"; }
  void allowed(NodeId at, uint32_t, NodeId dst, std::vector<uint32_t>& out) const override {
    out.clear();
    if (at == dst) return;
    const NodeId next = (at + 1) % net_.num_nodes();
    out.push_back(ch_.of(at, net_.port_to(at, next)));
  }

 private:
  const Network& net_;
  ChannelTable ch_;
};

Network ring(int n) {
  auto net = network_of(itm::cycle_graph(n), fmt::format("C{}", n));
  EXPECT_TRUE(net.ok());
  return *std::move(net);
}

TEST(Wormhole, LoneWormTakesHopsPlusLengthCycles) {
  const Network net = ring(8);
  const Clockwise r(net);
  for (uint32_t buffer : {1u, 2u, 5u})
    for (uint32_t length : {1u, 2u, 7u}) {
      const std::vector<WormMessage> msgs = {{0, 3, length, 4}};
      WormConfig cfg;
      cfg.buffer = buffer;
      auto res = simulate_wormhole(net, r, msgs, cfg);
      ASSERT_TRUE(res.ok()) << res.error().to_string();
      EXPECT_TRUE(res->completed);
      // Created at 4: the header crosses hop k at cycle 4 + k, the tail ejected at 4 + 3 + L - 1.
      EXPECT_EQ(res->delivered_at[0], 4 + 3 + length - 1) << "B " << buffer << " L " << length;
      EXPECT_EQ(res->flit_crossings, 3u * length);
      EXPECT_DOUBLE_EQ(res->mean_latency, 3.0 + length);
    }
}

// Deliberate twin of src/wormhole/wormhole_test.cc:BlockedWormCompressesIntoBuffers: the same ring set-up,
// each test stating its own scenario's expected timing.
TEST(Wormhole, ChannelHeldUntilTheTailPasses) {
  // Two worms from 0 to 2 on C8: the second may start only when the first's tail has left the
  // source (one injecting worm per node), and then follows it flit by flit.
  const Network net = ring(8);
  const Clockwise r(net);
  const std::vector<WormMessage> msgs = {{0, 2, 4, 0}, {0, 2, 4, 0}};
  WormConfig cfg;
  cfg.buffer = 1;
  cfg.record_trace = true;
  auto res = simulate_wormhole(net, r, msgs, cfg);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->delivered_at[0], 2u + 3u);
  // Worm 1's header crosses 0->1 once worm 0's tail has left 0->1's buffer (cycle 4), so at 5.
  for (const FlitCrossing& c : res->trace->crossings)
    if (c.worm == 1 && c.flit == 0) {
      EXPECT_EQ(c.cycle, 5u);
      break;
    }
  EXPECT_EQ(res->delivered_at[1], 5u + 5u);
}

// Deliberate twin of src/wormhole/wormhole_test.cc:ChannelHeldUntilTheTailPasses: the same ring set-up,
// each test stating its own scenario's expected timing.
TEST(Wormhole, BlockedWormCompressesIntoBuffers) {
  // Worm 0 (0 -> 3, 6 flits) is blocked at node 2 behind worm 1, which holds 2->3 while its long
  // body streams through; with B = 3, worm 0's flits pile up behind its header.
  const Network net = ring(8);
  const Clockwise r(net);
  const std::vector<WormMessage> msgs = {{0, 3, 6, 1}, {2, 4, 20, 0}};
  WormConfig cfg;
  cfg.buffer = 3;
  auto res = simulate_wormhole(net, r, msgs, cfg);
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->completed);
  EXPECT_GT(res->delivered_at[0], res->delivered_at[1] - 10);
  EXPECT_FALSE(res->deadlock);
}

TEST(Wormhole, FourClockwiseWormsOnC4Deadlock) {
  const Network net = ring(4);
  const Clockwise r(net);
  for (uint32_t length : {1u, 3u}) {
    const std::vector<WormMessage> msgs = {{0, 2, length, 0}, {1, 3, length, 0}, {2, 0, length, 0}, {3, 1, length, 0}};
    WormConfig cfg;
    cfg.detect_every = 1000;  // found by the stall rule
    auto res = simulate_wormhole(net, r, msgs, cfg);
    ASSERT_TRUE(res.ok()) << res.error().to_string();
    ASSERT_TRUE(res->deadlock);
    EXPECT_FALSE(res->completed);
    const WormDeadlock& w = *res->deadlock;
    EXPECT_EQ(w.stuck.size(), 4u);
    EXPECT_EQ(w.cycle_worms.size(), 4u);
    EXPECT_EQ(check_worm_deadlock(net, r, msgs, w), std::nullopt);
    // The waiting cycle goes counter-clockwise through the worms: worm i waits on i+1 -> i+2,
    // held by worm i + 1.
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ((w.cycle_worms[i] + 1) % 4, w.cycle_worms[(i + 1) % 4]);
    // With stop_on_deadlock = false the deadlock is an error.
    cfg.stop_on_deadlock = false;
    EXPECT_FALSE(simulate_wormhole(net, r, msgs, cfg).ok());
  }
}

TEST(Wormhole, ThreeWormsOnC4DoNotDeadlock) {
  const Network net = ring(4);
  const Clockwise r(net);
  const std::vector<WormMessage> msgs = {{0, 2, 5, 0}, {1, 3, 5, 0}, {2, 0, 5, 0}};
  auto res = simulate_wormhole(net, r, msgs, WormConfig{});
  ASSERT_TRUE(res.ok());
  EXPECT_TRUE(res->completed);
  EXPECT_FALSE(res->deadlock);
}

TEST(WormholeWitness, BrokenWitnessesAreRejected) {
  const Network net = ring(4);
  const Clockwise r(net);
  const std::vector<WormMessage> msgs = {{0, 2, 2, 0}, {1, 3, 2, 0}, {2, 0, 2, 0}, {3, 1, 2, 0}};
  auto res = simulate_wormhole(net, r, msgs, WormConfig{});
  ASSERT_TRUE(res.ok() && res->deadlock);
  const WormDeadlock good = *res->deadlock;
  ASSERT_EQ(check_worm_deadlock(net, r, msgs, good), std::nullopt);
  {
    WormDeadlock w = good;  // one worm fewer: its channel is then held by nobody stuck
    w.stuck.pop_back();
    EXPECT_NE(check_worm_deadlock(net, r, msgs, w), std::nullopt);
  }
  {
    WormDeadlock w = good;  // the cycle reversed: each waits on a channel the previous holds
    std::reverse(w.cycle_worms.begin(), w.cycle_worms.end());
    EXPECT_NE(check_worm_deadlock(net, r, msgs, w), std::nullopt);
  }
  {
    WormDeadlock w = good;  // a worm claimed to be at its destination
    w.stuck[0].at = msgs[w.stuck[0].worm].dst;
    EXPECT_NE(check_worm_deadlock(net, r, msgs, w), std::nullopt);
  }
  {
    WormDeadlock w = good;  // two worms holding one channel
    w.stuck[1].held = w.stuck[0].held;
    EXPECT_NE(check_worm_deadlock(net, r, msgs, w), std::nullopt);
  }
  {
    // Three of the four worms: they do not deadlock, and a witness made of them fails.
    const std::vector<WormMessage> three(msgs.begin(), msgs.begin() + 3);
    EXPECT_NE(check_worm_deadlock(net, r, three, good), std::nullopt);
  }
}

TEST(Wormhole, DeterministicPerSeed) {
  const Network net = ring(6);
  const Clockwise r(net);
  std::vector<WormMessage> msgs;
  for (uint32_t i = 0; i < 60; ++i) msgs.push_back({i % 6, (i * 7 + 1) % 6 == i % 6 ? (i + 1) % 6 : (i * 7 + 1) % 6, 1 + i % 4, i / 3});
  WormConfig cfg;
  cfg.record_trace = true;
  auto a = simulate_wormhole(net, r, msgs, cfg);
  auto b = simulate_wormhole(net, r, msgs, cfg);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->delivered_at, b->delivered_at);
  EXPECT_EQ(a->trace->crossings.size(), b->trace->crossings.size());
}

TEST(Wormhole, InputErrorsNameTheMessage) {
  const Network net = ring(4);
  const Clockwise r(net);
  auto bad = [&](std::vector<WormMessage> msgs, WormConfig cfg = {}) {
    auto res = simulate_wormhole(net, r, msgs, cfg);
    EXPECT_FALSE(res.ok());
    return res.ok() ? std::string() : res.error().message;
  };
  EXPECT_NE(bad({{0, 1, 1, 0}, {0, 9, 1, 0}}).find("message 1"), std::string::npos);
  EXPECT_NE(bad({{2, 2, 1, 0}}).find("message 0"), std::string::npos);
  EXPECT_NE(bad({{0, 1, 0, 0}}).find("length"), std::string::npos);
  WormConfig cfg;
  cfg.buffer = 0;
  EXPECT_NE(bad({{0, 1, 1, 0}}, cfg).find("buffer"), std::string::npos);
}

}  // namespace
}  // namespace topocheck::routing
