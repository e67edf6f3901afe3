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

// The gating cross-check of the header comment.
TEST(MigrationPlanClasses, AgreeWithTheSweepOverEveryPacking) {
  std::map<std::pair<bool, std::string>, Tally> full, reduced;  // (section 4.2, check)
  uint64_t packings_inputs = 0, class_inputs = 0, minimal_packings = 0;
  for (int n = 1; n <= 4; ++n) {
    uint64_t instance = 0;
    for (int dim = 0; dim <= n; ++dim)
      for (const Subcube& S : subcubes(n, dim))
        for (const Subcube& T : subcubes(n, dim)) {
          if (S == T) continue;
          const Instance inst = *make_instance(S, T);
          const bool s42 = inst.zeta() == 1;
          const auto cs = checks(s42);
          const auto sequences = all_sequences(inst.DTmS);
          const auto grid = parameter_grid(inst);
          ++instance;
          for (size_t pi = 0; pi < grid.size(); ++pi) {
            // The classes, with their witness plans per sequence.
            struct Class {
              Blocks witness;
              std::vector<Plan> plans;  // per sequence
              std::vector<std::vector<bool>> some_packing_violates;  // [sequence][check], packing-dependent ones
              bool seen = false;
            };
            std::map<std::vector<int>, Class> classes;
            std::vector<int> last;
            for_each_plan_class(inst, grid[pi], [&](const PlanClass& c) {
              EXPECT_TRUE(classes.empty() || last < c.script) << "classes out of order";
              last = c.script;
              EXPECT_EQ(script_of(inst, grid[pi], c.witness), c.script) << S << " " << T;
              Class& cl = classes[c.script];
              cl.witness = c.witness;
              for (const auto& seq : sequences) {
                Params p = grid[pi];
                p.ext_sequence = seq;
                cl.plans.push_back(migrate(inst, c.witness, p));
                cl.some_packing_violates.emplace_back(cs.size(), false);
              }
              return false;
            });
            ASSERT_FALSE(classes.empty());
            // Every packing.
            for_each_packing(inst, [&](const Blocks& blocks) {
              for (size_t si = 0; si < sequences.size(); ++si) {
                Params p = grid[pi];
                p.ext_sequence = sequences[si];
                const auto script = script_of(inst, p, blocks);
                auto it = classes.find(script);
                EXPECT_NE(it, classes.end()) << "packing " << blocks_to_string(blocks) << " of " << S << " " << T
                                             << " has a script no class has";
                if (it == classes.end()) return true;
                it->second.seen = true;
                ++packings_inputs;
                const Plan plan = migrate(inst, blocks, p);
                const Plan& wp = it->second.plans[si];
                EXPECT_TRUE(same_plan(plan, wp)) << S << " " << T << " blocks " << blocks_to_string(blocks) << "\n"
                                                 << plan.to_text() << wp.to_text();
                for (size_t ci = 0; ci < cs.size(); ++ci) {
                  if (!cs[ci].packing_dependent && n == 4) continue;
                  const bool v = cs[ci].violated(plan);
                  if (cs[ci].packing_dependent) {
                    if (v) it->second.some_packing_violates[si][ci] = true;
                  } else {
                    EXPECT_EQ(v, cs[ci].violated(wp)) << cs[ci].name;
                  }
                  full[{s42, cs[ci].name}].add(Key{n, instance, pi, script, si}, v);
                }
              }
              return ::testing::Test::HasFailure();
            });
            if (::testing::Test::HasFailure()) return;
            // The reduced sweep, and the packing-dependent verdicts per class.
            for (auto& [script, cl] : classes) {
              EXPECT_TRUE(cl.seen) << "a class no packing produces";
              for (size_t si = 0; si < sequences.size(); ++si) {
                ++class_inputs;
                Params p = grid[pi];
                p.ext_sequence = sequences[si];
                const Plan& wp = cl.plans[si];
                const bool short_of_paths = check_plan_complete(wp).has_value();
                for (size_t ci = 0; ci < cs.size(); ++ci) {
                  bool v = false;
                  if (cs[ci].name.rfind("absence-", 0) == 0) {
                    if (short_of_paths)
                      for_each_minimal_packing(inst, p, script, [&](const Blocks& blocks) {
                        ++minimal_packings;
                        EXPECT_EQ(script_of(inst, p, blocks), script);
                        v = cs[ci].violated(migrate(inst, blocks, p));
                        return v;
                      });
                    EXPECT_EQ(v, cl.some_packing_violates[si][ci])
                        << cs[ci].name << " " << S << " " << T << " script of witness " << blocks_to_string(cl.witness);
                  } else {
                    v = cs[ci].violated(wp);
                    if (cs[ci].packing_dependent) {
                      EXPECT_EQ(v, cl.some_packing_violates[si][ci]) << cs[ci].name;
                    }
                  }
                  reduced[{s42, cs[ci].name}].add(Key{n, instance, pi, script, si}, v);
                  // n = 4: the plan checks were not run per packing (the plans are equal); the
                  // class's verdict stands for the full sweep's.
                  if (n == 4 && !cs[ci].packing_dependent) full[{s42, cs[ci].name}].add(Key{n, instance, pi, script, si}, v);
                }
              }
            }
            if (::testing::Test::HasFailure()) return;
          }
        }
  }
  // Full-sweep tallies count packings; per class they must agree on verdicts, so compare the
  // reduced tallies with the full ones deduplicated by key: same first violation, and a check is
  // violated somewhere in both or in neither.
  for (const auto& [key, r] : reduced) {
    const Tally& f = full.at(key);
    EXPECT_EQ(r.first, f.first) << (key.first ? "4.2 " : "4.1 ") << key.second << ": reduced " << key_text(r.first)
                                << ", full " << key_text(f.first);
    EXPECT_EQ(r.violating > 0, f.violating > 0) << key.second;
    std::printf("%s %-24s classes %9llu (violating %9llu)  packing inputs %10llu (violating %10llu)  first %s\n",
                key.first ? "4.2" : "4.1", key.second.c_str(), static_cast<unsigned long long>(r.inputs),
                static_cast<unsigned long long>(r.violating), static_cast<unsigned long long>(f.inputs),
                static_cast<unsigned long long>(f.violating), key_text(r.first).c_str());
  }
  std::printf("%llu packing inputs, %llu class inputs, %llu minimal packings asked\n",
              static_cast<unsigned long long>(packings_inputs), static_cast<unsigned long long>(class_inputs),
              static_cast<unsigned long long>(minimal_packings));
}

}  // namespace
}  // namespace topocheck::migration
