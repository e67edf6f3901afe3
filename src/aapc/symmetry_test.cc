// Automorphisms of Q_n, canonical fault sets, and the canonical frame of A_2 and A_f
// (symmetry.h, schedules.h Frame): the facts the orbit-reduced A_f sweep of catalog/aapc/claims.cc
// stands on, each checked exhaustively on small cubes against brute force:
//   - canonical_form is constant on orbits and differs between orbits (every automorphism, n <= 4);
//   - canonical_frame maps a fault set onto its canonical form; orbit_size counts the orbit;
//   - for_each_canonical_fault_set visits one set per orbit (orbit sizes add up to C(2^n, f));
//   - transform keeps a valid schedule valid for the image fault set, and a broken one broken;
//   - the sweep lemma: for every fault set F, the (units, verdict) multiset of A_f over F's A_f
//     partitions equals the one over the partitions of its canonical form (n <= 5), and A_2's
//     units and verdict are those of its canonical image with the mapped dimensions;
//   - per input, A_2 and A_f give the outcome of their canonical image with mapped dimensions;
//   - what the frame does not give (per-input invariance under K's own symmetries), pinned, and
//     the absolute frame breaking even the orbit outcomes (negative control).
#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "aapc/schedules.h"
#include "aapc/testing/subsets.h"
#include "aapc/symmetry.h"

namespace topocheck::aapc {
namespace {

// Every automorphism of Q_n (2^n n!).
std::vector<Automorphism> all_automorphisms(int n) {
  std::vector<Automorphism> out;
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  do {
    for (NodeId t = 0; t < (NodeId{1} << n); ++t) {
      Automorphism g;
      g.n = n;
      g.t = t;
      for (int i = 0; i < n; ++i) g.sigma[i] = perm[i];
      out.push_back(g);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

std::vector<NodeId> image(const std::vector<NodeId>& set, const Automorphism& g) {
  std::vector<NodeId> out;
  for (NodeId x : set) out.push_back(g.apply(x));
  std::sort(out.begin(), out.end());
  return out;
}

Automorphism random_automorphism(int n, std::mt19937& rng) {
  Automorphism g = Automorphism::identity(n);
  std::shuffle(g.sigma.begin(), g.sigma.begin() + n, rng);
  g.t = std::uniform_int_distribution<NodeId>(0, (NodeId{1} << n) - 1)(rng);
  return g;
}

TEST(AapcSymmetry, AutomorphismsMapLinksToLinksAndInvert) {
  std::mt19937 rng(7);
  for (int n = 1; n <= 8; ++n)
    for (int k = 0; k < 20; ++k) {
      const Automorphism g = random_automorphism(n, rng);
      const Automorphism h = g.inverse();
      for (NodeId x = 0; x < (NodeId{1} << n); ++x) {
        EXPECT_EQ(h.apply(g.apply(x)), x);
        EXPECT_EQ(g.unapply(g.apply(x)), x);
        for (int i = 0; i < n; ++i) EXPECT_EQ(g.apply(x ^ (NodeId{1} << i)), g.apply(x) ^ (NodeId{1} << g.dim(i)));
      }
      EXPECT_EQ(g.dims((uint32_t{1} << n) - 1), (uint32_t{1} << n) - 1);
    }
  EXPECT_TRUE(Automorphism::identity(5).is_identity());
}

// Brute force: the orbits of f-subsets under every automorphism, against canonical_form,
// canonical_frame and orbit_size.
TEST(AapcSymmetry, CanonicalFormSeparatesExactlyTheOrbits) {
  for (int n = 1; n <= 4; ++n) {
    const std::vector<Automorphism> group = all_automorphisms(n);
    for (int f = 1; f <= std::min(4, 1 << n); ++f) {
      std::map<std::vector<NodeId>, int> orbit_of;  // set -> orbit id (brute force)
      std::vector<size_t> orbit_sizes;
      for (const auto& set : all_subsets(n, f)) {
        if (orbit_of.count(set)) continue;
        std::set<std::vector<NodeId>> orbit;
        for (const Automorphism& g : group) orbit.insert(image(set, g));
        for (const auto& member : orbit) orbit_of[member] = static_cast<int>(orbit_sizes.size());
        orbit_sizes.push_back(orbit.size());
      }
      std::map<int, std::vector<NodeId>> form_of_orbit;
      std::set<std::vector<NodeId>> forms;
      for (const auto& [set, id] : orbit_of) {
        const FaultSet faults(n, set);
        const std::vector<NodeId> form = canonical_form(faults);
        EXPECT_EQ(orbit_of.at(form), id) << "n = " << n << ", F = " << faults.to_string() << ": form outside the orbit";
        auto [it, fresh] = form_of_orbit.emplace(id, form);
        EXPECT_EQ(it->second, form) << "n = " << n << ", F = " << faults.to_string() << ": two forms in one orbit";
        if (fresh) {
          EXPECT_TRUE(forms.insert(form).second) << "one form for two orbits";
        }
        const Automorphism g = canonical_frame(faults);
        EXPECT_EQ(image(set, g), form) << "n = " << n << ", F = " << faults.to_string();
        EXPECT_EQ(g.is_identity(), form == set);
        EXPECT_EQ(is_canonical(faults), form == set);
        EXPECT_EQ(orbit_size(faults), orbit_sizes[id]) << "n = " << n << ", F = " << faults.to_string();
      }
      // for_each_canonical_fault_set: exactly the forms, ascending.
      std::vector<std::vector<NodeId>> visited;
      for_each_canonical_fault_set(n, f, [&](const std::vector<NodeId>& s) {
        visited.push_back(s);
        return true;
      });
      EXPECT_EQ(visited, std::vector<std::vector<NodeId>>(forms.begin(), forms.end())) << "n = " << n << ", f = " << f;
    }
  }
}

uint64_t binomial(uint64_t a, uint64_t b) {
  uint64_t r = 1;
  for (uint64_t i = 1; i <= b; ++i) r = r * (a - b + i) / i;
  return r;
}

// Above brute force: the orbits visited add up to every fault set. Pinned counts of canonical
// sets (the A_f sweep's sizes): n = 7: 1, 7, 23 for f = 1, 2, 3.
TEST(AapcSymmetry, CanonicalSetsCoverEveryFaultSet) {
  for (int n = 5; n <= 7; ++n)
    for (int f = 1; f <= 3; ++f) {
      uint64_t total = 0, sets = 0;
      for_each_canonical_fault_set(n, f, [&](const std::vector<NodeId>& s) {
        ++sets;
        total += orbit_size(FaultSet(n, s));
        return true;
      });
      EXPECT_EQ(total, binomial(uint64_t{1} << n, f)) << "n = " << n << ", f = " << f;
      if (n == 7) {
        EXPECT_EQ(sets, (std::vector<uint64_t>{1, 7, 23})[f - 1]);
      }
    }
  // The docstring's example: {6, 9} in Q_4 is {0, 15} by x -> x xor 6.
  const Automorphism g = canonical_frame(FaultSet(4, {6, 9}));
  EXPECT_EQ(canonical_form(FaultSet(4, {6, 9})), (std::vector<NodeId>{0, 15}));
  EXPECT_EQ(g.t, 6u);
}

// transform: the image of a valid schedule is valid for the image fault set; judged against the
// original fault set, or with one move dropped, it is rejected (negative controls).
TEST(AapcSymmetry, TransformKeepsValidityAndTheChecksStillBite) {
  std::mt19937 rng(11);
  for (int n = 3; n <= 5; ++n) {
    const FaultSet faults(n, {1});
    const Result<Schedule> s = a1(faults, 0, Model::kOnePort);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(check_schedule(*s, faults, Model::kOnePort).ok);
    for (int k = 0; k < 5; ++k) {
      Automorphism g = random_automorphism(n, rng);
      if (g.apply(1) == 1) g.t ^= 2;  // the fault must move, for the first control
      const FaultSet moved(n, image(faults.faulty(), g));
      const Schedule t = transform(*s, g);
      const ScheduleCheck c = check_schedule(t, moved, Model::kOnePort);
      EXPECT_TRUE(c.ok) << c.violation;
      EXPECT_EQ(c.units, s->num_units());
      EXPECT_FALSE(check_schedule(t, faults, Model::kOnePort).ok) << "judged against the original faults";
      Schedule dropped = t;
      for (auto& unit : dropped.units)
        if (!unit.empty()) {
          unit.pop_back();
          break;
        }
      EXPECT_FALSE(check_schedule(dropped, moved, Model::kOnePort).ok) << "a dropped move";
    }
  }
}

struct Outcome {
  int units = -1;
  bool ok = false;
  friend auto operator<=>(const Outcome&, const Outcome&) = default;
};

Outcome outcome(const Result<Schedule>& s, const FaultSet& faults, Model model) {
  if (!s.ok()) return Outcome{};
  return Outcome{s->num_units(), check_schedule(*s, faults, model).ok};
}

std::vector<Outcome> af_outcomes(const FaultSet& faults, Model model) {
  std::vector<Outcome> out;
  for (const AfPartition& p : all_af_partitions(faults)) out.push_back(outcome(af(faults, p.dims, p.d, model), faults, model));
  std::sort(out.begin(), out.end());
  return out;
}

// The lemma the reduced sweep needs, exhaustively: every fault set F of Q_n (1 <= f <= n/2) has,
// over its A_f partitions, the outcome multiset of its canonical form. n <= 4 every model, n = 5
// all_port (about 10 s).
TEST(AapcSymmetry, AfOutcomesOverPartitionsAreThoseOfTheCanonicalForm) {
  for (int n = 2; n <= 5; ++n)
    for (Model model : kModels) {
      if (n == 5 && model != Model::kAllPort) continue;
      std::map<std::vector<NodeId>, std::vector<Outcome>> of_form;
      uint64_t sets = 0;
      for (int f = 1; f <= n / 2; ++f)
        for (const auto& set : all_subsets(n, f)) {
          const FaultSet faults(n, set);
          const std::vector<NodeId> form = canonical_form(faults);
          auto it = of_form.find(form);
          if (it == of_form.end()) it = of_form.emplace(form, af_outcomes(FaultSet(n, form), model)).first;
          const std::vector<Outcome> mine = af_outcomes(faults, model);
          ++sets;
          ASSERT_EQ(mine, it->second) << "n = " << n << ", F = " << faults.to_string() << ", model " << to_string(model);
          for (const Outcome& o : mine) EXPECT_TRUE(o.ok && o.units > 0) << faults.to_string();
        }
      EXPECT_GT(sets, 0u);
    }
}

// A_2: every fault pair and every (d, d1, d2) it admits, n <= 4 (n = 5 all_port, d1 = d2): the
// outcome is that of the canonical image, with d, d1, d2 mapped (d1, d2 swapped when the
// frame exchanges the halves of d).
TEST(AapcSymmetry, A2OutcomeIsThatOfItsCanonicalImage) {
  for (int n = 3; n <= 5; ++n)
    for (Model model : kModels) {
      if (n == 5 && model != Model::kAllPort) continue;
      for (const auto& set : all_subsets(n, 2)) {
        const FaultSet faults(n, set);
        const Automorphism g = canonical_frame(faults);
        const FaultSet K(n, canonical_form(faults));
        for (int d = 0; d < n; ++d)
          for (int d1 = 0; d1 < n; ++d1)
            for (int d2 = 0; d2 < n; ++d2) {
              if (n == 5 && d1 != d2) continue;
              const Result<Schedule> mine = a2(faults, d, d1, d2, model);
              const bool swapped = (g.t >> d) & 1u;
              const Result<Schedule> theirs =
                  a2(K, g.dim(d), g.dim(swapped ? d2 : d1), g.dim(swapped ? d1 : d2), model);
              ASSERT_EQ(mine.ok(), theirs.ok()) << faults.to_string() << " d " << d << " d1 " << d1 << " d2 " << d2;
              if (!mine.ok()) continue;
              const Outcome a = outcome(mine, faults, model), b = outcome(theirs, K, model);
              ASSERT_EQ(a, b) << "n = " << n << ", F = " << faults.to_string() << ", d " << d << ", d1 " << d1
                              << ", d2 " << d2 << ", " << to_string(model);
              EXPECT_TRUE(a.ok);
            }
      }
    }
}

// Per input, A_f: the outcome of (F, D, d) is that of (K, g(D), g(d)) with g = canonical_frame(F),
// n <= 4 every model (the A_f counterpart of the A_2 test above).
TEST(AapcSymmetry, AfOutcomeIsThatOfItsCanonicalImage) {
  for (int n = 2; n <= 4; ++n)
    for (Model model : kModels)
      for (int f = 1; f <= n / 2; ++f)
        for (const auto& set : all_subsets(n, f)) {
          const FaultSet faults(n, set);
          const Automorphism g = canonical_frame(faults);
          const FaultSet K(n, canonical_form(faults));
          for (const AfPartition& p : all_af_partitions(faults)) {
            const Outcome a = outcome(af(faults, p.dims, p.d, model), faults, model);
            const Outcome b = outcome(af(K, g.dims(p.dims), g.dim(p.d), model), K, model);
            ASSERT_EQ(a, b) << "n = " << n << ", F = " << faults.to_string() << ", D = " << dims_to_string(p.dims)
                            << ", d = " << p.d << ", " << to_string(model);
          }
        }
}

// What the frame does NOT give, pinned so the doc stays true: per input, invariance under the
// automorphisms that fix K. For K = {0} every dimension permutation does, and the generator on
// {0} depends on which dimensions are D and d. Sampled: some automorphism h and partition with
// units(af(F, D, d)) != units(af(h(F), h(D), h(d))), while the multisets over all partitions agree.
// The absolute frame breaks even the multisets (negative control, equivariance_test's pinned A_2
// pair {0,3} vs {4,7}: 15 vs 16 units; in the canonical frame both are the same schedule's image).
TEST(AapcSymmetry, CanonicalFrameKeepsOrbitOutcomesNotPerInputOnes) {
  std::mt19937 rng(5);
  int per_input_differences = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 4 + trial % 2;
    const Model model = Model::kAllPort;
    std::vector<NodeId> set;
    std::uniform_int_distribution<NodeId> node(0, (NodeId{1} << n) - 1);
    const int f = 1 + trial % 2;
    while (static_cast<int>(set.size()) < f) {
      const NodeId x = node(rng);
      if (std::find(set.begin(), set.end(), x) == set.end()) set.push_back(x);
    }
    std::sort(set.begin(), set.end());
    const FaultSet faults(n, set);
    const Automorphism h = random_automorphism(n, rng);
    const FaultSet moved(n, image(set, h));
    EXPECT_EQ(af_outcomes(faults, model), af_outcomes(moved, model)) << faults.to_string() << " vs " << moved.to_string();
    for (const AfPartition& p : all_af_partitions(faults)) {
      const Outcome a = outcome(af(faults, p.dims, p.d, model), faults, model);
      const Outcome b = outcome(af(moved, h.dims(p.dims), h.dim(p.d), model), moved, model);
      per_input_differences += a != b;
    }
  }
  EXPECT_GT(per_input_differences, 0);
  ScheduleOptions absolute;
  absolute.frame = Frame::kAbsolute;
  const auto units = [&](const FaultSet& F, const ScheduleOptions& o) {
    const Result<Schedule> s = a2(F, 0, 1, 1, Model::kAllPort, o);
    return s.ok() ? s->num_units() : -1;
  };
  EXPECT_NE(units(FaultSet(3, {0, 3}), absolute), units(FaultSet(3, {4, 7}), absolute));
  EXPECT_EQ(units(FaultSet(3, {0, 3}), {}), units(FaultSet(3, {4, 7}), {}));
}

}  // namespace
}  // namespace topocheck::aapc
