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
//
// Algorithm 4's output is also pinned to a recorded fingerprint (a hash of every case number,
// path, node and note) over a fixed sample of pairs and options, so that a faster construction
// must build exactly what the construction built when the fingerprint was recorded.
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

// A repaired call that augmented, then a call without the repair into the same result: the repair
// counts are reset, not left over (the scrambled sweep above may end its repaired pairs on one
// with no augmentation, which would hide a stale count).
TEST(Alg4Buffers, RepairCountsAreResetByACallWithoutTheRepair) {
  const Metacube mc = Metacube::make(2, 2).value();
  const Alg4Options repaired = options_for_reading("repaired").value();
  const Alg4Options paper = options_for_reading("paper").value();
  Alg4Result scratch;
  bool augmented = false;
  for (uint64_t a = 0; a < mc.num_nodes() && !augmented; ++a)
    for (uint64_t b = 0; b < mc.num_nodes() && !augmented; ++b) {
      if (a == b) continue;
      metacube_disjoint_paths_into(mc, mc.node_at(a), mc.node_at(b), repaired, scratch);
      augmented = scratch.repaired_augmentations > 0;
    }
  ASSERT_TRUE(augmented) << "no pair of MC(2,2) needs an augmenting path";
  metacube_disjoint_paths_into(mc, mc.node_at(0), mc.node_at(1), paper, scratch);
  EXPECT_EQ(scratch.repaired_augmentations, 0);
  EXPECT_EQ(scratch.repaired_kept, 0);
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

// FNV-1a over 64-bit words.
struct Fingerprint {
  uint64_t h = 14695981039346656037ULL;
  void add(uint64_t x) {
    for (int b = 0; b < 8; ++b) {
      h ^= (x >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
  void add(const std::string& text) {
    add(text.size());
    for (char c : text) add(static_cast<unsigned char>(c));
  }
  void add(const Alg4Result& r) {
    add(static_cast<uint64_t>(r.case_number));
    add(r.paths.size());
    for (const Path& p : r.paths) {
      add(p.nodes.size());
      for (const Node& u : p.nodes) {
        add(u.bits);
        add(static_cast<uint64_t>(u.width));
      }
    }
    add(r.notes.size());
    for (const std::string& note : r.notes) add(note);
  }
};

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The options of the sample: the readings without repair, both negative controls, every open
// choice (all_choices) and each pinned meaning taken the other way.
std::vector<Alg4Options> sample_options(const Metacube& mc) {
  std::vector<Alg4Options> out;
  for (const char* reading : {"paper", "paper-keybit-example4", "broken-no-exchange", "broken-ignore-key"})
    out.push_back(options_for_reading(reading).value());
  for (const Alg4Options& o : all_choices(mc, options_for_reading("paper").value())) out.push_back(o);
  Alg4Options o = options_for_reading("paper").value();
  o.case0_hop = Case0Hop::kPrinted;
  out.push_back(o);
  o = options_for_reading("paper").value();
  o.local_class_path = LocalClassPath::kPrintedP3Zero;
  out.push_back(o);
  o = options_for_reading("paper").value();
  o.empty_when_equal = false;
  out.push_back(o);
  o = options_for_reading("paper").value();
  o.case2_pj_ends_at_t = false;
  out.push_back(o);
  o = options_for_reading("paper").value();
  o.case0_p3_n = 1;
  out.push_back(o);
  o = options_for_reading("paper").value();
  o.case0_p3_n = mc.m() + 1;
  out.push_back(o);
  return out;
}

// The fingerprint of Algorithm 4 on the sample of MC(k, m): every ordered pair when there are at
// most 2^20, else `samples` triples of pairs from a seeded generator (t uniform; t in s's cluster,
// case 0; t in s's class, another field changed, case 1). Every pair runs under `paper` and one
// more option set (cycling through sample_options); notes are recorded on every third run.
uint64_t sample_fingerprint(int k, int m, int samples) {
  const Metacube mc = Metacube::make(k, m).value();
  const std::vector<Alg4Options> options = sample_options(mc);
  const Alg4Options paper = options_for_reading("paper").value();
  Fingerprint f;
  Alg4Result r;
  uint64_t run = 0;
  auto one = [&](Node s, Node t) {
    if (s == t) return;
    for (Alg4Options o : {paper, options[run % options.size()]}) {
      o.record_notes = run % 3 == 0;
      metacube_disjoint_paths_into(mc, s, t, o, r);
      f.add(r);
      ++run;
    }
  };
  const uint64_t nodes = mc.num_nodes();
  if (mc.width() <= 10) {
    for (uint64_t a = 0; a < nodes; ++a)
      for (uint64_t b = 0; b < nodes; ++b) one(mc.node_at(a), mc.node_at(b));
    return f.h;
  }
  uint64_t state = static_cast<uint64_t>(k * 100 + m);
  const uint64_t field_mask = (uint64_t{1} << m) - 1;
  for (int i = 0; i < samples; ++i) {
    const Node s = mc.node_at(splitmix64(state) & (nodes - 1));
    one(s, mc.node_at(splitmix64(state) & (nodes - 1)));
    const int cs = mc.class_of(s);
    one(s, mc.with_field(s, cs, splitmix64(state) & field_mask));
    const int f2 = static_cast<int>(splitmix64(state) % static_cast<uint64_t>(mc.h()));
    one(s, mc.with_field(mc.with_field(s, f2, splitmix64(state) & field_mask), cs, splitmix64(state) & field_mask));
  }
  return f.h;
}

TEST(Alg4Buffers, OutputEqualsTheRecordedFingerprintOnASample) {
  struct Expected {
    int k, m, samples;
    uint64_t fingerprint;
  };
  // Recorded with the construction of commit 904b29c (before the per-thread cycle cache and the
  // address-level walks of Algorithm 1).
  const std::vector<Expected> expected{
      {1, 1, 0, 18408045320126881398ULL},
      {1, 2, 0, 16935626872282175388ULL},
      {2, 1, 0, 9898704580351407528ULL},
      {1, 3, 0, 4090155137975877463ULL},
      {2, 2, 0, 14308759555837393329ULL},
      {2, 3, 20000, 8499301326678822176ULL},
      {3, 1, 20000, 15244039942442021987ULL},
      {3, 2, 20000, 17557670921829682952ULL},
      {3, 3, 20000, 11700032815236856105ULL},
      {1, 5, 20000, 8483205779931550283ULL},
      {4, 1, 20000, 1539364778481774586ULL},
      {4, 2, 5000, 9102193816240826001ULL},
      {5, 1, 5000, 2616511586487406313ULL}};
  for (const Expected& e : expected)
    EXPECT_EQ(sample_fingerprint(e.k, e.m, e.samples), e.fingerprint) << "MC(" << e.k << "," << e.m << ")";
}

}  // namespace
}  // namespace topocheck::metacube
