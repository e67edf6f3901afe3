// Throughput of the `metacube.thm2.disjoint` check (Algorithm 4 under the reading `paper`, then
// core's naive checkers: check_alg4(..., Thm2Part::kDisjoint)) in MC(2,3) and MC(3,2), against
// the Boost max-flow oracle (max_node_disjoint_paths on the materialized topology: the local
// connectivity, which must be k + m) on the same pairs, measured in the same run and reported as
// a ratio, so the number does not depend on the machine.
//
// Pairs: a fixed, deterministic sample, s = 0 and t = i * kStride mod 2^n for i = 1, 2, ...
// (kStride is odd, so the t are distinct and never 0): kCheckPairs for the check, and the first
// few of the same pairs for max-flow (kFlowPairs: one max-flow rebuilds the node-split graph of
// the whole metacube, 2^14 nodes in MC(2,3) and 2^19 in MC(3,2)). The check's verdicts do not
// matter for the throughput: Algorithm 4 as printed fails Theorem 2 on many of these pairs (a
// finding, see metacube_props), and the count is reported as the counter `violations`; max-flow
// must find k + m on every pair (the benchmark errors otherwise). The topology is materialized
// once per metacube, outside the timed loops.
// Usage: metacube_bench [--benchmark_min_time=...]; the last lines are the ratios.
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "core/graph.h"
#include "core/node.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"

namespace {

using topocheck::Node;
using topocheck::metacube::Metacube;

constexpr uint64_t kStride = 0x9E3779B97F4A7C15ULL;  // odd (2^64 / golden ratio): t spread over all fields
constexpr int kCheckPairs = 4096;

// Max-flow pairs per metacube, few enough that one iteration takes a few seconds at most (measured:
// about 30 ms per pair in MC(2,3), 1.8 s per pair and 0.9 GB peak memory in MC(3,2)).
int flow_pairs(int k, int m) { return k == 2 && m == 3 ? 32 : 2; }

// The sample of MC(k, m): (s, t) = (0, i * kStride mod 2^n), i = 1..count.
std::vector<std::pair<uint64_t, uint64_t>> sample_pairs(const Metacube& mc, int count) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const uint64_t mask = mc.num_nodes() - 1;
  for (uint64_t i = 1; static_cast<int>(out.size()) < count; ++i) out.emplace_back(0, (i * kStride) & mask);
  return out;
}

// The materialized topology of each metacube, built on first use (not inside a timed loop).
const topocheck::UndirectedGraph& graph_of(const Metacube& mc) {
  static std::map<std::string, std::unique_ptr<topocheck::UndirectedGraph>> graphs;
  auto& g = graphs[mc.name()];
  if (!g) g = std::make_unique<topocheck::UndirectedGraph>(topocheck::materialize(mc));
  return *g;
}

void BM_Thm2DisjointCheck(benchmark::State& state) {
  const Metacube mc = Metacube::make(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))).value();
  const auto options = topocheck::metacube::options_for_reading("paper").value();
  const auto pairs = sample_pairs(mc, kCheckPairs);
  int violations = 0;
  for (auto _ : state) {
    violations = 0;
    for (const auto& [s, t] : pairs)
      violations += topocheck::metacube::check_alg4(mc, mc.node_at(s), mc.node_at(t), options,
                                                    topocheck::metacube::Thm2Part::kDisjoint)
                        .has_value();
  }
  state.SetLabel(mc.name());
  state.counters["violations"] = violations;  // of kCheckPairs, in one pass over the sample
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCheckPairs);
}
BENCHMARK(BM_Thm2DisjointCheck)->Args({2, 3})->Args({3, 2})->Unit(benchmark::kMillisecond);

void BM_MaxFlowConnectivity(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), m = static_cast<int>(state.range(1));
  const Metacube mc = Metacube::make(k, m).value();
  const topocheck::UndirectedGraph& graph = graph_of(mc);
  const int count = flow_pairs(k, m);
  const auto pairs = sample_pairs(mc, count);  // the first pairs of the check's sample
  int wrong = 0;
  for (auto _ : state)
    for (const auto& [s, t] : pairs) wrong += topocheck::max_node_disjoint_paths(graph, s, t) != mc.degree();
  if (wrong) state.SkipWithError("max-flow disagrees with k + m");
  state.SetLabel(mc.name());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * count);
}
BENCHMARK(BM_MaxFlowConnectivity)->Args({2, 3})->Args({3, 2})->Unit(benchmark::kMillisecond);

// Console output as usual, and the items/s of each benchmark kept for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("items_per_second");
      if (it != r.counters.end() && !r.error_occurred) rate_[r.benchmark_name()] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> rate_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (const auto& [k, m] : {std::pair{2, 3}, std::pair{3, 2}}) {
    const std::string args = fmt::format("/{}/{}", k, m);
    const auto check = reporter.rate_.find("BM_Thm2DisjointCheck" + args);
    const auto flow = reporter.rate_.find("BM_MaxFlowConnectivity" + args);
    if (check != reporter.rate_.end() && flow != reporter.rate_.end() && flow->second > 0)
      std::printf("MC(%d,%d): thm2 check %.0f pairs/s, max-flow %.1f pairs/s, ratio %.0fx\n", k, m, check->second,
                  flow->second, check->second / flow->second);
  }
  benchmark::Shutdown();
  return 0;
}
