// Throughput of the migration procedure (paper 000, Chen–Tzeng), against baselines measured in the
// same run and reported as ratios, so the numbers do not depend on the machine:
//  - BM_Migrate / BM_BfsBaseline (argument n = 8, 12, 16): plans per second. BM_Migrate runs
//    migrate() (both paths of every node of S, Section 4) on kInputs random inputs of n
//    dimensions with blocks; the baseline plans the same inputs the plain way, one breadth-first
//    search per node u of S over Q_n (block links removed) until g(u) is reached: one shortest
//    block-free path per node, no disjointness at all;
//  - BM_HammingPath / BM_HammingBrute (argument d = 4, 6, 7): pairs per second. HAMMING-PATH
//    (hamming_path, ascending tie-break) against the brute force over every Hamming path
//    (hamming_paths: d! of them, the first with no block link), on kPairs pairs (a in S, b = a
//    with d dimensions flipped where S and T differ or are free) of inputs with n = 12.
// Inputs: migration::gen::migration_input_of_n(n, kMaxDim) at fixed seeds (deterministic), those
// without blocks skipped. Every plan must pass check_plan_paths_valid and the two HAMMING-PATH
// variants must agree on every pair (the benchmark errors otherwise).
// Measured (a shared 2-core VM under load, Release, --benchmark_min_time=0.3; items/s): migrate
// 48 K plans/s at n = 8 (BFS baseline 21 K: 2.3x), 20 K at n = 12 (1.0 K: 20x), 17 K at n = 16
// (60: 288x; about 25 nodes of S per plan); HAMMING-PATH 1.2-1.5 M pairs/s at d = 4, 6, 7 against
// the brute force's 212 K, 7.9 K, 1.7 K (7x, 182x, 734x). The last lines printed are the ratios.
// Usage: migration_bench [--benchmark_min_time=...].
#include <bit>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include "bench/ratio_reporter.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_gen.h"

namespace {

using topocheck::Node;
using topocheck::Path;
using topocheck::migration::Blocks;
using topocheck::migration::Instance;
using topocheck::migration::MigrationInput;
using topocheck::migration::Params;

constexpr int kInputs = 64;
constexpr int kPairs = 256;
constexpr int kMaxDim = 6;
constexpr int kPairsN = 12;

struct Prepared {
  Instance inst;
  Params params;
  Blocks blocks;
  std::vector<Node> nodes;    // S
  std::vector<Node> targets;  // g(u)
};

// kInputs inputs of n dimensions with at least one block (seeds 0, 1, ...).
const std::vector<Prepared>& inputs(int n) {
  static std::map<int, std::vector<Prepared>> cache;
  std::vector<Prepared>& out = cache[n];
  if (!out.empty()) return out;
  const auto generator = topocheck::migration::gen::migration_input_of_n(n, kMaxDim);
  for (uint64_t seed = 0; static_cast<int>(out.size()) < kInputs; ++seed) {
    const MigrationInput in = generator(rc::Random(seed), 100).value();
    if (in.blocks.empty()) continue;
    Prepared p{in.instance(), in.params(), in.blocks, topocheck::migration::nodes_of(in.S), {}};
    for (const Node& u : p.nodes) p.targets.push_back(topocheck::migration::g(p.inst, p.params.alpha, u));
    out.push_back(std::move(p));
  }
  return out;
}

void BM_Migrate(benchmark::State& state) {
  const auto& sample = inputs(static_cast<int>(state.range(0)));
  size_t paths = 0;
  for (const Prepared& p : sample)
    if (topocheck::migration::check_plan_paths_valid(topocheck::migration::migrate(p.inst, p.blocks, p.params))) {
      state.SkipWithError("a plan fails check_plan_paths_valid");
      return;
    }
  for (auto _ : state) {
    for (const Prepared& p : sample) {
      const auto plan = topocheck::migration::migrate(p.inst, p.blocks, p.params);
      paths += plan.nodes.size();
      benchmark::DoNotOptimize(plan.nodes.data());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kInputs);
  state.counters["nodes/plan"] = static_cast<double>(paths) / static_cast<double>(state.iterations() * kInputs);
}
BENCHMARK(BM_Migrate)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);

// One BFS from `from` over Q_n without block links, stopped when `to` is reached; the distance
// (-1: unreachable). `dist` and `queue` are scratch of 2^n entries.
int bfs(int n, const Blocks& blocks, Node from, Node to, std::vector<int>& dist, std::vector<uint64_t>& queue) {
  std::fill(dist.begin(), dist.end(), -1);
  size_t head = 0, tail = 0;
  queue[tail++] = from.bits;
  dist[from.bits] = 0;
  while (head < tail) {
    const uint64_t x = queue[head++];
    if (x == to.bits) return dist[x];
    for (int i = 0; i < n; ++i) {
      const uint64_t y = x ^ (uint64_t{1} << i);
      if (dist[y] >= 0 || topocheck::migration::is_block_link(blocks, Node{x, n}, Node{y, n})) continue;
      dist[y] = dist[x] + 1;
      queue[tail++] = y;
    }
  }
  return -1;
}

void BM_BfsBaseline(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto& sample = inputs(n);
  std::vector<int> dist(size_t{1} << n);
  std::vector<uint64_t> queue(size_t{1} << n);
  for (auto _ : state) {
    int64_t total = 0;
    for (const Prepared& p : sample)
      for (size_t k = 0; k < p.nodes.size(); ++k) total += bfs(n, p.blocks, p.nodes[k], p.targets[k], dist, queue);
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kInputs);
}
BENCHMARK(BM_BfsBaseline)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);

struct Pair {
  const Blocks* blocks;
  Node a, b;
};

// kPairs pairs at distance d from inputs of kPairsN dimensions (those with fewer than d movable
// dimensions skipped); deterministic.
const std::vector<Pair>& pairs(int d) {
  static std::map<int, std::vector<Pair>> cache;
  std::vector<Pair>& out = cache[d];
  if (!out.empty()) return out;
  static std::deque<MigrationInput> owners;  // stable storage for the blocks
  const auto generator = topocheck::migration::gen::migration_input_of_n(kPairsN, kMaxDim);
  for (uint64_t seed = 0; static_cast<int>(out.size()) < kPairs; ++seed) {
    const MigrationInput in = generator(rc::Random(seed), 100).value();
    const auto r = topocheck::migration::gen::roles_of(in.S, in.T);
    const std::vector<int> movable = topocheck::migration::dims_of(((uint64_t{1} << kPairsN) - 1) & ~r.i_fixed);
    if (in.blocks.empty() || static_cast<int>(movable.size()) < d) continue;
    owners.push_back(in);
    const MigrationInput& kept = owners.back();
    rc::Random random(seed ^ 0x9E3779B97F4A7C15ULL);
    const std::vector<Node> nodes = topocheck::migration::nodes_of(kept.S);
    const Node a = nodes[random.next() % nodes.size()];
    uint64_t flip = 0;
    while (std::popcount(flip) < d) flip |= uint64_t{1} << movable[random.next() % movable.size()];
    out.push_back(Pair{&kept.blocks, a, Node{a.bits ^ flip, kPairsN}});
  }
  return out;
}

std::optional<Path> brute(const Pair& p) {
  for (Path& path : topocheck::migration::hamming_paths(p.a, p.b)) {
    bool free = true;
    for (size_t k = 0; k + 1 < path.nodes.size() && free; ++k)
      free = !topocheck::migration::is_block_link(*p.blocks, path.nodes[k], path.nodes[k + 1]);
    if (free) return std::move(path);
  }
  return std::nullopt;
}

void BM_HammingPath(benchmark::State& state) {
  const auto& sample = pairs(static_cast<int>(state.range(0)));
  int found = 0;
  for (const Pair& p : sample)
    if (topocheck::migration::hamming_path(p.a, p.b, *p.blocks, topocheck::migration::TieBreak::kAscending) != brute(p)) {
      state.SkipWithError("HAMMING-PATH and the brute force disagree");
      return;
    }
  for (auto _ : state) {
    found = 0;
    for (const Pair& p : sample)
      found += topocheck::migration::hamming_path(p.a, p.b, *p.blocks, topocheck::migration::TieBreak::kAscending)
                   .has_value();
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kPairs);
  state.counters["found"] = found;
}
BENCHMARK(BM_HammingPath)->Arg(4)->Arg(6)->Arg(7)->Unit(benchmark::kMicrosecond);

void BM_HammingBrute(benchmark::State& state) {
  const auto& sample = pairs(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    int found = 0;
    for (const Pair& p : sample) found += brute(p).has_value();
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kPairs);
}
BENCHMARK(BM_HammingBrute)->Arg(4)->Arg(6)->Arg(7)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  topocheck::bench::RatioReporter reporter;
  if (!topocheck::bench::run_benchmarks(&argc, argv, reporter)) return 2;
  for (const int n : {8, 12, 16}) {
    const double plans = reporter.rate("BM_Migrate/" + std::to_string(n));
    const double bfs = reporter.rate("BM_BfsBaseline/" + std::to_string(n));
    std::printf("n = %d: migrate %.0f plans/s, per-node BFS baseline %.0f plans/s", n, plans, bfs);
    if (bfs > 0) std::printf(" (migrate %.2fx the baseline)", plans / bfs);
    std::printf("\n");
  }
  for (const int d : {4, 6, 7}) {
    const double fast = reporter.rate("BM_HammingPath/" + std::to_string(d));
    const double slow = reporter.rate("BM_HammingBrute/" + std::to_string(d));
    std::printf("d = %d (n = %d): HAMMING-PATH %.0f pairs/s, brute force %.0f pairs/s", d, kPairsN, fast, slow);
    if (slow > 0) std::printf(" (HAMMING-PATH %.1fx the brute force)", fast / slow);
    std::printf("\n");
  }
  benchmark::Shutdown();
  return 0;
}
