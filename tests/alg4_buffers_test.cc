// Algorithm 4 into a reused result (metacube_disjoint_paths_into, as every exhaustive sweep runs it
// through check_alg4) builds exactly what a fresh call builds: the same case number, paths, notes
// and repair counts, for every ordered pair s != t of MC(1,1), MC(1,2), MC(2,1), MC(1,3) and
// MC(2,2) under the readings `paper` and `paper-keybit-example4` and both negative controls. One
// scratch result serves every metacube, reading and pair; the pairs come in a scrambled order
// (so consecutive calls take different cases and path lengths) and notes are recorded on every
// fourth call only: a field or a path left over from an earlier call would show as a difference.
// The reading `repaired` runs the completion (about 80 us per pair in MC(2,2), twice per pair
// here): every pair of the smaller metacubes, and every 64th pair of the scrambled order in MC(2,2)
// (16 K pairs; its construction before the repair is `paper-keybit-example4`'s, checked on every
// pair above). Measured: about 10 s in Release.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/routing.h"

namespace topocheck::metacube {
namespace {

TEST(Alg4Buffers, ReusedResultEqualsAFreshCallOnEveryPairOfTheSmallMetacubes) {
  const std::vector<std::pair<int, int>> sizes{{1, 1}, {1, 2}, {2, 1}, {1, 3}, {2, 2}};
  const std::vector<std::string> readings{"paper", "paper-keybit-example4", "repaired", "broken-no-exchange",
                                          "broken-ignore-key"};
  Alg4Result scratch;  // shared by everything below
  int cases_seen[3] = {0, 0, 0};
  for (const std::string& reading : readings) {
    const Alg4Options base = options_for_reading(reading).value();
    for (const auto& [k, m] : sizes) {
      const Metacube mc = Metacube::make(k, m).value();
      const uint64_t nodes = mc.num_nodes(), pairs = nodes * nodes;
      // p -> p * stride mod pairs visits every (s, t) once (stride odd, pairs a power of two), in
      // an order that jumps between sources, targets and so between Algorithm 4's cases.
      constexpr uint64_t kStride = 0x9E3779B97F4A7C15ULL;
      const uint64_t step = base.repair && nodes > 128 ? 64 : 1;
      int failures = 0;
      for (uint64_t p = 0; p < pairs && failures < 5; p += step) {
        const uint64_t q = (p * kStride) & (pairs - 1);
        const Node s = mc.node_at(q / nodes), t = mc.node_at(q % nodes);
        if (s == t) continue;
        Alg4Options o = base;
        o.record_notes = p % (4 * step) == 0;
        const Alg4Result fresh = metacube_disjoint_paths(mc, s, t, o);
        metacube_disjoint_paths_into(mc, s, t, o, scratch);
        ++cases_seen[fresh.case_number];
        const bool same = scratch.case_number == fresh.case_number && scratch.paths == fresh.paths &&
                          scratch.notes == fresh.notes && scratch.repaired_kept == fresh.repaired_kept &&
                          scratch.repaired_augmentations == fresh.repaired_augmentations;
        if (!same) ++failures;
        EXPECT_TRUE(same) << reading << " " << mc.name() << " s = " << s << ", t = " << t
                          << (o.record_notes ? " (with notes)" : " (without notes)");
      }
    }
  }
  for (int c = 0; c < 3; ++c) EXPECT_GT(cases_seen[c], 0) << "case " << c << " never occurred";
}

// ClassCycle (fixed arrays, used by Algorithm 4) holds hamiltonian_cycle's cycle and follow_cycle's
// walks from every class.
TEST(Alg4Buffers, ClassCycleEqualsHamiltonianCycleAndFollowCycle) {
  ClassCycle cycle;
  for (int k = 0; k <= ClassCycle::kMaxClassDim; ++k)
    for (CycleOrder order : {CycleOrder::kRotate, CycleOrder::kReverse})
      for (int start = 0; start < (1 << k); ++start)
        for (int first = 0; first < std::max(k, 1); ++first) {
          const std::vector<int> expected = hamiltonian_cycle(k, start, first, order);
          cycle.assign(k, start, first, order);
          ASSERT_EQ(std::vector<int>(cycle.cycle().begin(), cycle.cycle().end()), expected);
          for (int c = 0; c < (1 << k); ++c) {
            const auto walk = cycle.walk_from(c);
            ASSERT_EQ(std::vector<int>(walk.begin(), walk.end()), follow_cycle(expected, c))
                << "k = " << k << ", start " << start << ", first dimension " << first << ", from " << c;
          }
        }
}

}  // namespace
}  // namespace topocheck::metacube
