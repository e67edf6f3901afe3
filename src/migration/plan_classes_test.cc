// The plan-class reduction of the exhaustive sweeps (plan_classes.h) against the sweep over every
// block packing, for every (S, T) of equal dimension up to n = 4 (both situations), every entry
// of parameter_grid and every sequence:
//  - completeness: the script of every packing is an enumerated class, and the classes are
//    exactly the scripts of packings (so the counts agree), in strictly increasing order;
//  - witnesses: each class's witness packing produces its script;
//  - plans: every packing gives the same plan (paths, kinds, extensions, reasons, Section 4.2's
//    B data) as the witness of its class, and the same no-block-link verdict;
//  - the oracle (absence-*): some packing of a class makes the BFS find a path iff some packing
//    of for_each_minimal_packing does;
//  - the sweep: for every theorem check, the verdict, the number of inputs and of violating
//    inputs, and the first violation in the sweep's order (n, (S, T), parameters, script,
//    sequence) agree between both sweeps. Up to n = 3 every check is run on every packing; at
//    n = 4 the plan checks are run once per class (the plans were shown equal packing by
//    packing, and they judge the plan only) and the packing-dependent ones on every packing.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_oracle.h"
#include "migration/packings.h"
#include "migration/plan_classes.h"

namespace topocheck::migration {
namespace {

bool same_plan(const Plan& a, const Plan& b) {
  if (a.nodes.size() != b.nodes.size() || a.bs.size() != b.bs.size() || a.section_42 != b.section_42) return false;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const NodePlan &x = a.nodes[i], &y = b.nodes[i];
    if (x.u != y.u || x.target != y.target || x.node_case != y.node_case || x.missing != y.missing ||
        x.hamming_failed != y.hamming_failed || x.second_absent != y.second_absent || x.paths.size() != y.paths.size())
      return false;
    for (size_t j = 0; j < x.paths.size(); ++j)
      if (x.paths[j].kind != y.paths[j].kind || x.paths[j].path != y.paths[j].path ||
          x.paths[j].ext_begin != y.paths[j].ext_begin)
        return false;
  }
  for (size_t i = 0; i < a.bs.size(); ++i)
    if (a.bs[i].cube != b.bs[i].cube || a.bs[i].q != b.bs[i].q || a.bs[i].sequence != b.bs[i].sequence ||
        a.bs[i].p != b.bs[i].p)
      return false;
  return true;
}

// The claims' absence check (catalog/migration/claims.cc): a node short of paths for which the BFS oracle
// finds a further path.
bool absence_wrong(const Plan& plan, Disjointness d) {
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const NodePlan& np = plan.nodes[i];
    if (np.u == np.target || np.paths.size() >= 2) continue;
    if (second_path_with_others_fixed(plan, i, d)) return true;
  }
  return false;
}

struct Check {
  std::string name;
  std::function<bool(const Plan&)> violated;
  bool packing_dependent = false;  // judged on the packing's own blocks
};

std::vector<Check> checks(bool section_42) {
  std::vector<Check> out = {
      {"valid", [](const Plan& p) { return check_plan_paths_valid(p).has_value(); }},
      {"complete", [](const Plan& p) { return check_plan_complete(p).has_value(); }},
      {"hamming-succeeds",
       [](const Plan& p) {
         for (const NodePlan& np : p.nodes)
           if (np.hamming_failed) return true;
         return false;
       }},
      {"t-links", [](const Plan& p) { return check_plan_t_links(p).has_value(); }},
      {"length", [](const Plan& p) { return check_plan_length(p).has_value(); }},
      {"no-block-link", [](const Plan& p) { return check_plan_no_block_link(p).has_value(); }, true},
  };
  if (section_42)
    out.push_back({"complete-under-proviso",
                   [](const Plan& p) { return proviso_holds(p) && check_plan_complete(p).has_value(); }});
  for (Disjointness d : kAllDisjointness) {
    out.push_back({"pairs-" + to_string(d), [d](const Plan& p) { return check_plan_pairs_disjoint(p, d).has_value(); }});
    out.push_back({"all-" + to_string(d), [d](const Plan& p) { return check_plan_all_disjoint(p, d).has_value(); }});
    out.push_back({"absence-" + to_string(d), [d](const Plan& p) { return absence_wrong(p, d); }, true});
  }
  return out;
}

// A position in the sweep's order.
struct Key {
  int n = 0;
  uint64_t instance = 0;
  size_t params = 0;
  std::vector<int> script;
  size_t sequence = 0;
  auto operator<=>(const Key&) const = default;
};

struct Tally {
  uint64_t inputs = 0, violating = 0;
  std::optional<Key> first;
  void add(const Key& k, bool violated) {
    ++inputs;
    if (!violated) return;
    ++violating;
    if (!first || k < *first) first = k;
  }
};

std::string key_text(const std::optional<Key>& k) {
  if (!k) return "none";
  std::string s;
  for (int o : k->script) s += std::to_string(o) + ",";
  return fmt::format("n={} instance={} params={} script={} sequence={}", k->n, k->instance, k->params, s, k->sequence);
}

// The classes of one instance and parameter entry, by script, with their witness plans.
struct Class {
  Blocks witness;
  std::vector<Plan> plans;  // per sequence
  std::vector<std::vector<bool>> some_packing_violates;  // [sequence][check], packing-dependent ones
  bool seen = false;
};
using Classes = std::map<std::vector<int>, Class>;

// One (instance, parameter entry) of the sweep, as every step below reads it.
struct Entry {
  int n = 0;
  uint64_t instance = 0;  // the instance's number among those of n, from 1
  size_t pi = 0;          // the entry's index in parameter_grid
  const Instance& inst;
  const Params& params;
  bool s42 = false;
  const std::vector<Check>& checks;
  const std::vector<std::vector<int>>& sequences;

  Params with_sequence(size_t si) const {
    Params p = params;
    p.ext_sequence = sequences[si];
    return p;
  }
  Key key(const std::vector<int>& script, size_t si) const { return Key{n, instance, pi, script, si}; }
};

// Both sweeps' tallies, by (section 4.2, check).
struct Sweep {
  std::map<std::pair<bool, std::string>, Tally> full, reduced;
  uint64_t packings_inputs = 0, class_inputs = 0, minimal_packings = 0;
};

// The enumerated classes, checked in strictly increasing order and against their witnesses'
// scripts, each with its witness's plan per sequence.
Classes enumerate_classes(const Entry& e) {
  Classes classes;
  std::vector<int> last;
  for_each_plan_class(e.inst, e.params, [&](const PlanClass& c) {
    EXPECT_TRUE(classes.empty() || last < c.script) << "classes out of order";
    last = c.script;
    EXPECT_EQ(script_of(e.inst, e.params, c.witness), c.script) << e.inst.S << " " << e.inst.T;
    Class& cl = classes[c.script];
    cl.witness = c.witness;
    for (size_t si = 0; si < e.sequences.size(); ++si) {
      cl.plans.push_back(migrate(e.inst, c.witness, e.with_sequence(si)));
      cl.some_packing_violates.emplace_back(e.checks.size(), false);
    }
    return false;
  });
  return classes;
}

// The full sweep: every packing and sequence has its class's script and witness plan; the checks
// are tallied per packing (at n = 4 only the packing-dependent ones) and the packing-dependent
// verdicts collected per class. Stops at the first failure.
void sweep_every_packing(const Entry& e, Classes& classes, Sweep& sweep) {
  for_each_packing(e.inst, [&](const Blocks& blocks) {
    for (size_t si = 0; si < e.sequences.size(); ++si) {
      const Params p = e.with_sequence(si);
      const auto script = script_of(e.inst, p, blocks);
      auto it = classes.find(script);
      EXPECT_NE(it, classes.end()) << "packing " << blocks_to_string(blocks) << " of " << e.inst.S << " " << e.inst.T
                                   << " has a script no class has";
      if (it == classes.end()) return true;
      it->second.seen = true;
      ++sweep.packings_inputs;
      const Plan plan = migrate(e.inst, blocks, p);
      const Plan& wp = it->second.plans[si];
      EXPECT_TRUE(same_plan(plan, wp)) << e.inst.S << " " << e.inst.T << " blocks " << blocks_to_string(blocks)
                                       << "\n"
                                       << plan.to_text() << wp.to_text();
      for (size_t ci = 0; ci < e.checks.size(); ++ci) {
        const Check& check = e.checks[ci];
        if (!check.packing_dependent && e.n == 4) continue;
        const bool v = check.violated(plan);
        if (check.packing_dependent) {
          if (v) it->second.some_packing_violates[si][ci] = true;
        } else {
          EXPECT_EQ(v, check.violated(wp)) << check.name;
        }
        sweep.full[{e.s42, check.name}].add(e.key(script, si), v);
      }
    }
    return ::testing::Test::HasFailure();
  });
}

// An absence check of a class whose witness plan is short of paths: some minimal packing of its
// script makes the oracle find a further path.
bool absence_violated_by_minimal_packings(const Entry& e, const Check& check, const Params& p,
                                          const std::vector<int>& script, Sweep& sweep) {
  bool v = false;
  for_each_minimal_packing(e.inst, p, script, [&](const Blocks& blocks) {
    ++sweep.minimal_packings;
    EXPECT_EQ(script_of(e.inst, p, blocks), script);
    v = check.violated(migrate(e.inst, blocks, p));
    return v;
  });
  return v;
}

// The reduced sweep: each check once per class and sequence (the absence checks on minimal
// packings), agreeing with the packing-dependent verdicts of the full sweep. At n = 4 the plan
// checks were not run per packing (the plans are equal), so the class's verdict stands for the
// full sweep's too.
void sweep_classes(const Entry& e, const Classes& classes, Sweep& sweep) {
  for (const auto& [script, cl] : classes) {
    EXPECT_TRUE(cl.seen) << "a class no packing produces";
    for (size_t si = 0; si < e.sequences.size(); ++si) {
      ++sweep.class_inputs;
      const Params p = e.with_sequence(si);
      const Plan& wp = cl.plans[si];
      const bool short_of_paths = check_plan_complete(wp).has_value();
      for (size_t ci = 0; ci < e.checks.size(); ++ci) {
        const Check& check = e.checks[ci];
        bool v = false;
        if (check.name.rfind("absence-", 0) == 0) {
          if (short_of_paths) v = absence_violated_by_minimal_packings(e, check, p, script, sweep);
          EXPECT_EQ(v, cl.some_packing_violates[si][ci])
              << check.name << " " << e.inst.S << " " << e.inst.T << " script of witness "
              << blocks_to_string(cl.witness);
        } else {
          v = check.violated(wp);
          if (check.packing_dependent) {
            EXPECT_EQ(v, cl.some_packing_violates[si][ci]) << check.name;
          }
        }
        sweep.reduced[{e.s42, check.name}].add(e.key(script, si), v);
        if (e.n == 4 && !check.packing_dependent) sweep.full[{e.s42, check.name}].add(e.key(script, si), v);
      }
    }
  }
}

// Full-sweep tallies count packings; per class they must agree on verdicts, so compare the
// reduced tallies with the full ones deduplicated by key: same first violation, and a check is
// violated somewhere in both or in neither. Prints both tallies per check.
void compare_tallies(const Sweep& sweep) {
  for (const auto& [key, r] : sweep.reduced) {
    const Tally& f = sweep.full.at(key);
    EXPECT_EQ(r.first, f.first) << (key.first ? "4.2 " : "4.1 ") << key.second << ": reduced " << key_text(r.first)
                                << ", full " << key_text(f.first);
    EXPECT_EQ(r.violating > 0, f.violating > 0) << key.second;
    std::printf("%s %-24s classes %9llu (violating %9llu)  packing inputs %10llu (violating %10llu)  first %s\n",
                key.first ? "4.2" : "4.1", key.second.c_str(), static_cast<unsigned long long>(r.inputs),
                static_cast<unsigned long long>(r.violating), static_cast<unsigned long long>(f.inputs),
                static_cast<unsigned long long>(f.violating), key_text(r.first).c_str());
  }
  std::printf("%llu packing inputs, %llu class inputs, %llu minimal packings asked\n",
              static_cast<unsigned long long>(sweep.packings_inputs),
              static_cast<unsigned long long>(sweep.class_inputs),
              static_cast<unsigned long long>(sweep.minimal_packings));
}

TEST(MigrationPlanClasses, HammingPathsInOrderMatchTheTieBreak) {
  const Node a = *parse_node("0000"), b = *parse_node("0111");
  const auto asc = hamming_paths_in_order(a, b, TieBreak::kAscending);
  const auto desc = hamming_paths_in_order(a, b, TieBreak::kDescending);
  ASSERT_EQ(asc.size(), 6u);
  EXPECT_EQ(asc, hamming_paths(a, b));
  EXPECT_EQ(asc.front(), *hamming_path(a, b, {}, TieBreak::kAscending));
  EXPECT_EQ(desc.front(), *hamming_path(a, b, {}, TieBreak::kDescending));
  EXPECT_EQ(hop_dimensions(desc[1]), (std::vector<int>{2, 0, 1}));
}

// The gating cross-check of the header comment, in kShards slices (one ctest entry each, so that
// they run in parallel; the count is set in CMakeLists.txt beside the entries): slice k takes the
// instances whose number is k modulo kShards. Each slice compares its own tallies (the first
// violating input and whether any violates, full sweep against classes), which together imply the
// comparison over every instance.
constexpr uint64_t kShards = TC_PLAN_CLASS_SLICES;
class MigrationPlanClassesSlice : public ::testing::TestWithParam<uint64_t> {};

TEST_P(MigrationPlanClassesSlice, AgreeWithTheSweepOverEveryPacking) {
  const uint64_t slice = GetParam();
  Sweep sweep;
  for (int n = 1; n <= 4; ++n) {
    uint64_t instance = 0;
    for (int dim = 0; dim <= n; ++dim)
      for (const Subcube& S : subcubes(n, dim))
        for (const Subcube& T : subcubes(n, dim)) {
          if (S == T) continue;
          ++instance;
          if (instance % kShards != slice) continue;
          const Instance inst = *make_instance(S, T);
          const bool s42 = inst.zeta() == 1;
          const auto cs = checks(s42);
          const auto sequences = all_sequences(inst.DTmS);
          const auto grid = parameter_grid(inst);
          for (size_t pi = 0; pi < grid.size(); ++pi) {
            const Entry e{n, instance, pi, inst, grid[pi], s42, cs, sequences};
            Classes classes = enumerate_classes(e);
            ASSERT_FALSE(classes.empty());
            sweep_every_packing(e, classes, sweep);
            if (::testing::Test::HasFailure()) return;
            sweep_classes(e, classes, sweep);
            if (::testing::Test::HasFailure()) return;
          }
        }
  }
  compare_tallies(sweep);
}

INSTANTIATE_TEST_SUITE_P(Slices, MigrationPlanClassesSlice, ::testing::Range<uint64_t>(0, kShards));

}  // namespace
}  // namespace topocheck::migration
