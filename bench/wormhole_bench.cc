// Simulated flit crossings ("flit-cycles": one flit over one channel in one cycle) per second of
// the wormhole simulator (issue 8) on a 64-node random ITM (random_itm(64, any-edge, seed 1)),
// uniform traffic near saturation (0.15 flits per node per cycle offered, 8-flit worms, B = 2:
// about 0.14 accepted, the plateau is ~0.16), for sp-adaptive and updown-adaptive routing. The
// ratios printed at the end are against baselines measured in the same run on the same trace:
//  - the naive judge (wormhole_check.h) checking that run's trace, per flit crossing;
//  - a contention-free replay: every crossing of the trace re-applied to per-flit positions, no
//    reservation, buffers, arbitration or routing (a lower bound on any simulator's cost per
//    crossing).
// On ITMs up*/down* from a kernel node (root 0 here) allows exactly the shortest-path channels
// (claim wormhole.updown.shortest_paths), so the two routings simulate the same run; their rates
// differ only by the cost of allowed().
// Cost of one iteration: one run of 2000 creation cycles (~62,000 crossings).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/ratio_reporter.h"
#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_check.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"
#include "wormhole/wormhole_traffic.h"

namespace {

using namespace topocheck;
using namespace topocheck::routing;

constexpr double kLoad = 0.15;
constexpr uint32_t kLength = 8, kCycles = 2000;

const Network& itm64() {
  static const Network net = [] {
    auto itm = itm::Itm::build(random_itm(64, itm::Rule::kAnyEdge, 1), itm::Rule::kAnyEdge);
    return std::move(network_of(itm->graph(), "ITM(any-edge, 64, seed 1)")).value();
  }();
  return net;
}
const std::vector<WormMessage>& traffic() {
  static const std::vector<WormMessage> m = uniform_traffic(64, kLoad, kLength, kCycles, 1);
  return m;
}
const RoutingSpec kSpecs[2] = {{RoutingFamily::kShortestPath, Adaptivity::kAdaptive, 0},
                               {RoutingFamily::kUpDown, Adaptivity::kAdaptive, 0}};
const WormholeRouting& routing_of(int64_t i) {
  static const std::unique_ptr<WormholeRouting> r[2] = {std::move(make_routing(itm64(), kSpecs[0])).value(),
                                                        std::move(make_routing(itm64(), kSpecs[1])).value()};
  return *r[i];
}
WormConfig config(bool trace) {
  WormConfig c;
  c.buffer = 2;
  c.seed = 1;
  c.max_cycles = 1000000;
  c.record_trace = trace;
  return c;
}
// The traced run of routing i, shared by the baselines.
const WormResult& traced(int64_t i) {
  static const WormResult r[2] = {*simulate_wormhole(itm64(), routing_of(0), traffic(), config(true)),
                                  *simulate_wormhole(itm64(), routing_of(1), traffic(), config(true))};
  return r[i];
}

// Arg: 0 sp-adaptive, 1 updown-adaptive; arg 2: trace recorded (1) or not (0).
void BM_Simulate(benchmark::State& state) {
  const WormConfig c = config(state.range(1) != 0);
  uint64_t crossings = 0;
  for (auto _ : state) {
    auto r = simulate_wormhole(itm64(), routing_of(state.range(0)), traffic(), c);
    if (!r.ok() || !r->completed) {
      state.SkipWithError("the run failed or did not complete");
      return;
    }
    crossings += r->flit_crossings;
    benchmark::DoNotOptimize(r->cycles);
  }
  state.SetItemsProcessed(static_cast<int64_t>(crossings));
  state.counters["flit_crossings_per_s"] = benchmark::Counter(static_cast<double>(crossings), benchmark::Counter::kIsRate);
  state.SetLabel(routing_of(state.range(0)).name());
}
BENCHMARK(BM_Simulate)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Unit(benchmark::kMillisecond);

// Baseline 1: the naive judge on the traced run; items = crossings judged.
void BM_Judge(benchmark::State& state) {
  const WormResult& run = traced(state.range(0));
  const WormConfig c = config(true);
  for (auto _ : state) {
    auto v = check_wormhole_trace(itm64(), routing_of(state.range(0)), traffic(), c, run);
    if (v) {
      state.SkipWithError(("the judge rejects the run: " + v->message).c_str());
      return;
    }
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * run.flit_crossings));
  state.counters["flit_crossings_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * run.flit_crossings), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Judge)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Baseline 2: the crossings of the sp-adaptive trace re-applied to per-flit positions.
void BM_ReplayBaseline(benchmark::State& state) {
  const WormTrace& t = *traced(0).trace;
  std::vector<size_t> base(traffic().size() + 1, 0);
  for (size_t w = 0; w < traffic().size(); ++w) base[w + 1] = base[w] + traffic()[w].length;
  std::vector<uint32_t> at(base.back());
  for (auto _ : state) {
    std::fill(at.begin(), at.end(), kInjection);
    for (const FlitCrossing& x : t.crossings) at[base[x.worm] + x.flit] = x.channel;
    benchmark::DoNotOptimize(at.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * t.crossings.size()));
}
BENCHMARK(BM_ReplayBaseline)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  topocheck::bench::RatioReporter reporter;
  if (!topocheck::bench::run_benchmarks(&argc, argv, reporter)) return 2;
  const double replay = reporter.rate("BM_ReplayBaseline");
  for (int i = 0; i < 2; ++i) {
    const std::string name = routing_of(i).name();
    const double sim = reporter.rate("BM_Simulate/" + std::to_string(i) + "/0");
    const double judge = reporter.rate("BM_Judge/" + std::to_string(i));
    if (sim <= 0) continue;
    std::printf("ITM(any-edge, 64) uniform %.2f, L = %u, %-24s: %.2f M flit crossings/s", kLoad, kLength, name.c_str(),
                sim / 1e6);
    if (judge > 0) std::printf(" (%.2fx the naive judge)", sim / judge);
    if (replay > 0) std::printf(" (%.4fx the contention-free replay)", sim / replay);
    std::printf("\n");
  }
  const double traced_sim = reporter.rate("BM_Simulate/0/1"), plain = reporter.rate("BM_Simulate/0/0");
  if (traced_sim > 0 && plain > 0) std::printf("recording the trace costs %.0f%% of the rate\n", 100 * (1 - traced_sim / plain));
  benchmark::Shutdown();
  return 0;
}
