// Throughput of the exhaustive `hypercube.alg2.disjoint` check (construction + core's naive
// checkers) at n = 10, against a Boost max-flow verification of the same pairs (the oracle that
// would decide "n disjoint paths exist" independently), measured in the same run and reported
// as a ratio, so the number does not depend on the machine.
//
// Pairs: a fixed, deterministic sample of distinct (x, y) in Q_10 (the same for both), so that
// the max-flow side finishes in seconds; the per-pair cost does not depend on which pairs.
// Usage: hypercube_bench [--benchmark_min_time=...]; the last line is the ratio.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/ratio_reporter.h"
#include "core/graph.h"
#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"

namespace {

using topocheck::Node;
using topocheck::hypercube::Hypercube;

constexpr int kN = 10;
constexpr int kPairs = 512;

const std::vector<std::pair<uint64_t, uint64_t>>& sample_pairs() {
  static const std::vector<std::pair<uint64_t, uint64_t>> pairs = [] {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    uint64_t state = 0x2545F4914F6CDD1DULL;  // xorshift64: deterministic sample
    while (out.size() < kPairs) {
      state ^= state << 13; state ^= state >> 7; state ^= state << 17;
      const uint64_t x = state & ((1u << kN) - 1), y = (state >> 20) & ((1u << kN) - 1);
      if (x != y) out.emplace_back(x, y);
    }
    return out;
  }();
  return pairs;
}

void BM_Alg2DisjointCheck(benchmark::State& state) {
  const Hypercube cube = Hypercube::make(kN).value();
  int violations = 0;
  for (auto _ : state)
    for (const auto& [x, y] : sample_pairs())
      violations += topocheck::hypercube::check_alg2_disjoint(cube, Node{x, kN}, Node{y, kN}).has_value();
  if (violations) state.SkipWithError("a violation in the benchmark sample");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kPairs);
}
BENCHMARK(BM_Alg2DisjointCheck)->Unit(benchmark::kMillisecond);

void BM_MaxFlowVerification(benchmark::State& state) {
  const Hypercube cube = Hypercube::make(kN).value();
  const topocheck::UndirectedGraph graph = topocheck::materialize(cube);
  int wrong = 0;
  for (auto _ : state)
    for (const auto& [x, y] : sample_pairs()) wrong += topocheck::max_node_disjoint_paths(graph, x, y) != kN;
  if (wrong) state.SkipWithError("max-flow disagrees with n");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kPairs);
}
BENCHMARK(BM_MaxFlowVerification)->Unit(benchmark::kMillisecond);

using topocheck::bench::RatioReporter;

}  // namespace

int main(int argc, char** argv) {
  RatioReporter reporter;
  if (!topocheck::bench::run_benchmarks(&argc, argv, reporter)) return 2;
  const double check = reporter.rate("BM_Alg2DisjointCheck"), flow = reporter.rate("BM_MaxFlowVerification");
  if (check > 0 && flow > 0)
    std::printf("n = %d: alg2 check %.0f pairs/s, max-flow %.0f pairs/s, ratio %.1fx\n", kN, check, flow, check / flow);
  benchmark::Shutdown();
  return 0;
}
