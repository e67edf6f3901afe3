// Simulated message hops per second of the routing simulator (paper 001) on Q_8, against two
// baselines measured in the same run: replaying the same hops with no contention, ordering or
// priorities (a lower bound on any simulator's cost per hop), and the naive trace checker. Then
// the target: the full 44 x 10 study on 256 nodes on one core (target: under 30 s).
#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/ratio_reporter.h"
#include "network/network.h"
#include "routing/simulator.h"
#include "routing/study.h"
#include "routing/trace_check.h"
#include "routing/workload.h"

namespace {

using namespace topocheck::routing;

const Network& q8() {
  static const Network net = *Network::hypercube(8);
  return net;
}
const Workload& gauss() {
  static const Workload w = *builtin_workload("gauss", 256, 1);
  return w;
}

SimConfig config(Routing r, LinkKind k, bool trace) {
  SimConfig c;
  c.routing = r;
  c.links = k;
  c.scheme = 'E';
  c.seed = 7;
  c.record_trace = trace;
  return c;
}

// Arg 0: static/dynamic, arg 1: bi/uni.
void BM_Simulate(benchmark::State& state) {
  const SimConfig c = config(state.range(0) ? Routing::kDynamic : Routing::kStatic,
                             state.range(1) ? LinkKind::kUnidirectional : LinkKind::kBidirectional, false);
  uint64_t hops = 0;
  for (auto _ : state) {
    auto r = simulate(q8(), gauss(), c);
    hops += r->hops;
    benchmark::DoNotOptimize(r->running_time);
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
}
BENCHMARK(BM_Simulate)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1})->Unit(benchmark::kMillisecond);

// Baseline: every hop of a recorded dynamic run re-applied to message positions (no queues, no
// links, no ordering): the cost of moving a message, and nothing else.
void BM_ReplayBaseline(benchmark::State& state) {
  auto run = simulate(q8(), gauss(), config(Routing::kDynamic, LinkKind::kBidirectional, true));
  const Trace& t = *run->trace;
  std::vector<NodeId> at(t.messages.size());
  uint64_t hops = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < at.size(); ++i) at[i] = t.messages[i].src;
    for (const Hop& h : t.hops) at[h.message] = h.to;
    hops += t.hops.size();
    benchmark::DoNotOptimize(at.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
}
BENCHMARK(BM_ReplayBaseline)->Unit(benchmark::kMicrosecond);

void BM_TraceCheck(benchmark::State& state) {
  const SimConfig c = config(Routing::kDynamic, LinkKind::kBidirectional, true);
  auto run = simulate(q8(), gauss(), c);
  uint64_t hops = 0;
  for (auto _ : state) {
    auto v = check_trace(q8(), gauss(), c, *run);
    benchmark::DoNotOptimize(v);
    hops += run->hops;
  }
  state.SetItemsProcessed(static_cast<int64_t>(hops));
}
BENCHMARK(BM_TraceCheck)->Unit(benchmark::kMillisecond);

// The whole study (44 cases x 10 runs, one thread) on each built-in workload; items = runs.
void BM_Study(benchmark::State& state) {
  const Workload w = *builtin_workload(builtin_workload_names()[state.range(0)], 256, 1);
  StudyConfig sc;
  sc.reps = 10;
  for (auto _ : state) {
    auto s = run_study(q8(), w, sc);
    benchmark::DoNotOptimize(s->hops);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 440);
  state.SetLabel(w.name);
}
BENCHMARK(BM_Study)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
  topocheck::bench::RatioReporter reporter;
  if (!topocheck::bench::run_benchmarks(&argc, argv, reporter)) return 2;
  const double base = reporter.rate("BM_ReplayBaseline");
  const double check = reporter.rate("BM_TraceCheck");
  const char* names[4] = {"static/bi", "dynamic/bi", "static/uni", "dynamic/uni"};
  const char* args[4] = {"0/0", "1/0", "0/1", "1/1"};
  for (int i = 0; i < 4; ++i) {
    const double sim = reporter.rate(std::string("BM_Simulate/") + args[i]);
    std::printf("Q_8 gauss %-11s: %.2f M hops/s", names[i], sim / 1e6);
    if (base > 0) std::printf(" (%.3fx the contention-free replay baseline)", sim / base);
    if (check > 0) std::printf(" (%.2fx the naive trace checker)", sim / check);
    std::printf("\n");
  }
  for (int w = 0; w < 3; ++w) {
    const double runs = reporter.rate("BM_Study/" + std::to_string(w) + "/iterations:1");
    if (runs > 0)
      std::printf("study (44 x 10 runs, one core) on %s: %.2f s (target under 30 s: %s)\n",
                  topocheck::routing::builtin_workload_names()[w].c_str(), 440 / runs, 440 / runs < 30 ? "met" : "NOT met");
  }
  benchmark::Shutdown();
  return 0;
}
