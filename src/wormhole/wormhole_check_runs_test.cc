// The naive judge of wormhole runs (wormhole_check.h) on real runs of the simulator: every valid
// run passes, every defect of wormhole.h is rejected by the rule it breaks. Hand-made traces are
// judged in wormhole_check_test.cc (the same binary).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_check.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::routing {
namespace {

struct NamedNetwork {
  std::string title;
  Network net;
};
const std::vector<NamedNetwork>& networks() {
  static const std::vector<NamedNetwork> all = [] {
    std::vector<NamedNetwork> out;
    auto itm_net = [&](int n, itm::Rule rule, uint64_t seed) {
      const std::string title = fmt::format("ITM({}, {}, seed {})", itm::to_string(rule), n, seed);
      auto built = itm::Itm::build(random_itm(n, rule, seed), rule);
      out.push_back({title, *network_of(built->graph(), title)});
    };
    itm_net(10, itm::Rule::kAnyEdge, 1);
    itm_net(16, itm::Rule::kExterior, 2);
    itm_net(24, itm::Rule::kAnyEdge, 3);
    for (std::string_view name : kControlNames) out.push_back({control_title(name), *network_of(*control_graph(name), control_title(name))});
    out.push_back({"Q_3", *Network::hypercube(3)});
    return out;
  }();
  return all;
}

const RoutingSpec kSpecs[] = {
    {RoutingFamily::kShortestPath, Adaptivity::kDeterministic, 0},
    {RoutingFamily::kShortestPath, Adaptivity::kAdaptive, 0},
    {RoutingFamily::kUpDown, Adaptivity::kDeterministic, 0},
    {RoutingFamily::kUpDown, Adaptivity::kAdaptive, 1},
};

WormConfig real_config(uint32_t buffer, uint64_t seed, Selection selection = Selection::kRandomFree) {
  WormConfig c;
  c.buffer = buffer;
  c.seed = seed;
  c.selection = selection;
  c.max_cycles = 20000;
  c.record_trace = true;
  return c;
}

TEST(WormholeCheckOnRuns, EveryRunOfTheSimulatorIsValid) {
  int runs = 0, deadlocked = 0;
  uint64_t crossings = 0;
  for (const NamedNetwork& nn : networks())
    for (const RoutingSpec& spec : kSpecs) {
      const auto routing = make_routing(nn.net, spec);
      ASSERT_TRUE(routing.ok()) << routing.error().message;
      for (uint32_t buffer = 1; buffer <= 4; ++buffer)
        for (uint32_t length : {1u, 2u, 3u, 5u, 8u}) {
          const uint64_t seed = 1000 * buffer + length;
          const Selection selection = length % 2 ? Selection::kRandomFree : Selection::kFirstFree;
          const auto messages = uniform_traffic(nn.net.num_nodes(), 0.35, length, 120, seed);
          const WormConfig config = real_config(buffer, seed, selection);
          const auto run = simulate_wormhole(nn.net, **routing, messages, config);
          ASSERT_TRUE(run.ok()) << nn.title << " " << (*routing)->name() << ": " << run.error().message;
          ++runs;
          deadlocked += run->deadlock.has_value();
          crossings += run->flit_crossings;
          const auto v = check_wormhole_trace(nn.net, **routing, messages, config, *run);
          EXPECT_FALSE(v) << nn.title << ", " << (*routing)->name() << ", B = " << buffer << ", L = " << length
                          << ", seed " << seed << ": " << to_string(v->rule) << ": " << v->message;
        }
    }
  EXPECT_GT(crossings, 100000u);
  std::printf("%d runs, %d stopped at a deadlock, %llu flit crossings judged\n", runs, deadlocked,
              static_cast<unsigned long long>(crossings));
}

TEST(WormholeCheckOnRuns, AdversarialBurstsAndDeadlocksAreValidRuns) {
  for (const NamedNetwork& nn : networks())
    for (const RoutingSpec& spec : kSpecs) {
      const auto routing = make_routing(nn.net, spec);
      ASSERT_TRUE(routing.ok());
      for (Pattern pattern : kPatterns)
        for (uint32_t buffer : {1u, 3u}) {
          const auto messages = adversarial_traffic(nn.net, pattern, 6, 7);
          const WormConfig config = real_config(buffer, 11);
          const auto run = simulate_wormhole(nn.net, **routing, messages, config);
          ASSERT_TRUE(run.ok()) << run.error().message;
          const auto v = check_wormhole_trace(nn.net, **routing, messages, config, *run);
          EXPECT_FALSE(v) << nn.title << ", " << (*routing)->name() << ", " << to_string(pattern) << ", B = " << buffer
                          << ": " << to_string(v->rule) << ": " << v->message;
        }
    }
}

// A run stopped by a deadlock: the statistics over "the whole run" count only the worms created
// before it stopped (here 104 of 359; counting all 359 makes `offered` 1.25 flits per node and
// cycle at a load of 0.35).
TEST(WormholeCheckOnRuns, TheStatisticsOfARunStoppedByADeadlockCountOnlyWormsCreatedInTheRun) {
  const Network net = *network_of(*control_graph("grid3x3"), "grid 3x3");
  const auto routing = make_routing(net, kSpecs[1]);
  ASSERT_TRUE(routing.ok());
  const auto messages = uniform_traffic(9, 0.35, 1, 120, 3001);
  const WormConfig config = real_config(3, 3001);
  const auto run = simulate_wormhole(net, **routing, messages, config);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(run->deadlock);
  const auto v = check_wormhole_trace(net, **routing, messages, config, *run);
  EXPECT_FALSE(v) << to_string(v->rule) << ": " << v->message;
  EXPECT_LE(run->offered, 0.35 * 2);
}

// Every deliberately broken simulator of wormhole.h is rejected, by the rule it breaks, on a
// workload where it bites: uniform traffic near saturation on a random 16-node ITM (every third
// worm is dropped, every channel contended). Runs the defect cannot finish (kInternal: a stall
// the detector cannot explain) are skipped; most must finish and every finished one must fail.
// kTeleport bites only with B = 1: with B >= 2 a buffer never empties while flits of its worm
// wait behind it, so no flit finds two free buffers in a row (measured: no double hop in any run
// with B >= 2).
struct DefectCase {
  WormDefect defect;
  WormRule rule;
  uint32_t buffer;
};
class WormholeCheckDefects : public testing::TestWithParam<DefectCase> {};

TEST_P(WormholeCheckDefects, AreRejectedByTheRuleTheyBreak) {
  const DefectCase dc = GetParam();
  const NamedNetwork& nn = networks()[1];
  int judged = 0;
  for (const RoutingSpec& spec : kSpecs) {
    const auto routing = make_routing(nn.net, spec);
    ASSERT_TRUE(routing.ok());
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const auto messages = uniform_traffic(nn.net.num_nodes(), 0.6, 4, 150, seed);
      WormConfig config = real_config(dc.buffer, seed);
      config.defect = dc.defect;
      const auto run = simulate_wormhole(nn.net, **routing, messages, config);
      if (!run.ok()) continue;
      ++judged;
      const auto v = check_wormhole_trace(nn.net, **routing, messages, config, *run);
      ASSERT_TRUE(v) << to_string(dc.defect) << " passes on " << nn.title << ", " << (*routing)->name() << ", seed " << seed;
      EXPECT_EQ(to_string(v->rule), to_string(dc.rule)) << to_string(dc.defect) << ": " << v->message;
    }
  }
  EXPECT_GE(judged, 10) << to_string(dc.defect) << ": too few runs finished";
}

INSTANTIATE_TEST_SUITE_P(
    EveryDefect, WormholeCheckDefects,
    testing::Values(DefectCase{WormDefect::kSharedChannel, WormRule::kExclusive, 2},
                    DefectCase{WormDefect::kBufferOverflow, WormRule::kBuffer, 2},
                    DefectCase{WormDefect::kTeleport, WormRule::kOneHop, 1},
                    DefectCase{WormDefect::kEarlyRelease, WormRule::kExclusive, 2},
                    DefectCase{WormDefect::kIgnoreRouting, WormRule::kRouting, 2},
                    DefectCase{WormDefect::kDropTail, WormRule::kDelivery, 2}),
    [](const testing::TestParamInfo<DefectCase>& info) { return to_string(info.param.defect); });

}  // namespace
}  // namespace topocheck::routing
