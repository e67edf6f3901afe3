// Throughput of the ITM checkers (paper 002) in ITMs checked per second, against the explicit-path
// oracle (itm_oracle.h) on the same ITMs in the same run, reported as ratios, so the numbers do
// not depend on the machine:
//  - BM_Thm2Naive / BM_Thm2Oracle: Theorem 2, check_deadlock_free(graph) against ShortestPathLists
//    + oracle_deadlock_violation, on any-edge ITMs;
//  - BM_Thm5Naive / BM_Thm5Oracle: Theorem 5 (reading kPaper), check_contention_free(graph, order)
//    against ShortestPathLists + oracle_contention, on exterior ITMs in their circular order
//    (computed outside the timed loop, as the ITMs are built: the sweeps get both from the
//    enumeration).
// The argument is n. At n = 14 both run; at n = 16 (Theorem 2) and n = 18 (Theorem 5) the naive
// checker alone, for the projections of the whole exhaustive sweeps printed at the end: the
// 4,115,060 any-edge ITM classes of 16 nodes and the 983,244 exterior classes of 18 nodes
// (enumerate.h), checked on 2 cores at the measured rate (one core per thread, no other overhead;
// the enumeration's own cost, 1-2 us per candidate, is not included). The target: each sweep
// under 10 minutes on 2 cores, i.e. 3,429 ITMs/s per core (Theorem 2, n = 16) and 820 (Theorem 5,
// n = 18).
//
// ITMs: a fixed, deterministic set of kItms random labelled sequences per (rule, n) (seeded
// std::mt19937_64, each step's edge uniform among the usable ones: every edge under any-edge, the
// exterior ones under exterior), not isomorphism classes; every one must pass (the benchmark
// errors otherwise).
// Measured (a shared 2-core AMD EPYC VM under load, Release, --benchmark_min_time=2; CPU-time rates,
// ITMs/s per core): n = 14: Theorem 2 40 K (oracle 5.9 K: 6.7x), Theorem 5 16.5 K (oracle 760: 22x);
// Theorem 2 at n = 16 30 K (4.1 M ITMs: 1.2 min on 2 cores, 8.7x the target rate), Theorem 5 at
// n = 18 6.0 K (983 K ITMs: 1.4 min, 7.3x the target rate). Where the time goes (perf): Theorem 2,
// about half in core's find_dependency_cycle (a Boost adjacency_list built per call, Tarjan) and
// a third in distances() (a Boost graph and one Boost BFS per source); malloc and free are about
// half of all samples; Theorem 5, about 60% in the O(n^4) loop over message pairs (integer
// divisions for the cyclic positions, the lambda per pair), 30% building the n^2 channel bitsets,
// 9% distances().
// Usage: itm_bench [--benchmark_min_time=...]; the last lines are the ratios and projections.
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/ratio_reporter.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/itm_oracle.h"

namespace {

using topocheck::itm::Contention;
using topocheck::itm::Graph;
using topocheck::itm::Itm;
using topocheck::itm::Rule;

constexpr int kItms = 256;
constexpr uint64_t kAnyEdgeClassesAt16 = 4'115'060;
constexpr uint64_t kExteriorClassesAt18 = 983'244;
constexpr double kCores = 2;
constexpr double kTargetSeconds = 600;

struct Sample {
  std::vector<Graph> graphs;
  std::vector<std::vector<int>> orders;  // circular orders (exterior only)
};

// kItms random ITMs of n nodes under `rule` (seed fixed by rule and n).
const Sample& sample(Rule rule, int n) {
  static std::map<std::pair<Rule, int>, Sample> cache;
  Sample& s = cache[{rule, n}];
  if (!s.graphs.empty()) return s;
  std::mt19937_64 rng(static_cast<uint64_t>(n) * 2 + (rule == Rule::kExterior));
  for (int k = 0; k < kItms; ++k) {
    Itm itm = Itm::kernel(rule);
    while (itm.n() < n) {
      const auto usable = rule == Rule::kAnyEdge ? itm.graph().edges() : itm.exterior_edges();
      const auto [x, y] = usable[static_cast<size_t>(rng() % usable.size())];
      (void)itm.add_node(x, y).value();
    }
    s.graphs.push_back(itm.graph());
    if (rule == Rule::kExterior) s.orders.push_back(topocheck::itm::circular_order(itm).value());
  }
  return s;
}

void BM_Thm2Naive(benchmark::State& state) {
  const Sample& s = sample(Rule::kAnyEdge, static_cast<int>(state.range(0)));
  int violations = 0;
  for (auto _ : state) {
    violations = 0;
    for (const Graph& g : s.graphs) violations += topocheck::itm::check_deadlock_free(g).has_value();
  }
  if (violations) state.SkipWithError("Theorem 2 fails on a sample ITM");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kItms);
}
BENCHMARK(BM_Thm2Naive)->Arg(14)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_Thm2Oracle(benchmark::State& state) {
  const Sample& s = sample(Rule::kAnyEdge, static_cast<int>(state.range(0)));
  int violations = 0;
  for (auto _ : state) {
    violations = 0;
    for (const Graph& g : s.graphs)
      violations += topocheck::itm::oracle_deadlock_violation(topocheck::itm::ShortestPathLists(g)).has_value();
  }
  if (violations) state.SkipWithError("the oracle finds Theorem 2 failing on a sample ITM");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kItms);
}
BENCHMARK(BM_Thm2Oracle)->Arg(14)->Unit(benchmark::kMillisecond);

void BM_Thm5Naive(benchmark::State& state) {
  const Sample& s = sample(Rule::kExterior, static_cast<int>(state.range(0)));
  int violations = 0;
  for (auto _ : state) {
    violations = 0;
    for (size_t k = 0; k < s.graphs.size(); ++k)
      violations += topocheck::itm::check_contention_free(s.graphs[k], s.orders[k], Contention::kPaper).has_value();
  }
  if (violations) state.SkipWithError("Theorem 5 fails on a sample ITM");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kItms);
}
BENCHMARK(BM_Thm5Naive)->Arg(14)->Arg(18)->Unit(benchmark::kMillisecond);

void BM_Thm5Oracle(benchmark::State& state) {
  const Sample& s = sample(Rule::kExterior, static_cast<int>(state.range(0)));
  int violations = 0;
  for (auto _ : state) {
    violations = 0;
    for (size_t k = 0; k < s.graphs.size(); ++k)
      violations += topocheck::itm::oracle_contention(topocheck::itm::ShortestPathLists(s.graphs[k]), s.orders[k],
                                                      Contention::kPaper)
                        .has_value();
  }
  if (violations) state.SkipWithError("the oracle finds Theorem 5 failing on a sample ITM");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kItms);
}
BENCHMARK(BM_Thm5Oracle)->Arg(14)->Unit(benchmark::kMillisecond);

using topocheck::bench::RatioReporter;

// "Theorem 2, 4115060 any-edge ITMs of 16 nodes: 1234 ITMs/s per core, 27.8 min on 2 cores (target
// 10 min: 3429 ITMs/s per core, 36% of it)".
void PrintProjection(const char* what, uint64_t count, double rate) {
  if (rate <= 0) return;
  const double minutes = static_cast<double>(count) / (rate * kCores) / 60;
  const double needed = static_cast<double>(count) / (kCores * kTargetSeconds);
  std::printf(
      "%s: %llu ITMs at %.0f ITMs/s per core = %.1f min on %.0f cores (target %.0f min: %.0f ITMs/s per core, "
      "%.0f%% of it)\n",
      what, static_cast<unsigned long long>(count), rate, minutes, kCores, kTargetSeconds / 60, needed,
      100 * rate / needed);
}

}  // namespace

int main(int argc, char** argv) {
  RatioReporter reporter;
  if (!topocheck::bench::run_benchmarks(&argc, argv, reporter)) return 2;
  const double thm2 = reporter.rate("BM_Thm2Naive/14"), thm2_oracle = reporter.rate("BM_Thm2Oracle/14");
  const double thm5 = reporter.rate("BM_Thm5Naive/14"), thm5_oracle = reporter.rate("BM_Thm5Oracle/14");
  std::printf("n = 14, ITMs/s per core: Theorem 2 naive %.0f, oracle %.0f", thm2, thm2_oracle);
  if (thm2_oracle > 0) std::printf(" (naive %.1fx the oracle)", thm2 / thm2_oracle);
  std::printf("; Theorem 5 naive %.0f, oracle %.0f", thm5, thm5_oracle);
  if (thm5_oracle > 0) std::printf(" (naive %.1fx the oracle)", thm5 / thm5_oracle);
  std::printf("\n");
  PrintProjection("Theorem 2, every any-edge ITM of 16 nodes", kAnyEdgeClassesAt16, reporter.rate("BM_Thm2Naive/16"));
  PrintProjection("Theorem 5, every exterior ITM of 18 nodes", kExteriorClassesAt18, reporter.rate("BM_Thm5Naive/18"));
  benchmark::Shutdown();
  return 0;
}
