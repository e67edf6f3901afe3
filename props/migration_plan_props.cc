// Properties of the migration plans (Chen and Tzeng, paper 000): the second file of the
// migration_props binary (props/migration_props.cc: the inputs, the generator, f and g,
// HAMMING-PATH), on the same random inputs and budget:
//  - every plan: every path valid from u to g(u), no block link, T's links only in extensions,
//    length <= zeta + 2 beta (Theorems 1, 2; Section 5);
//  - Theorem 1 (|C| != 1) and Theorem 2 (|C| = 1, under its proviso): both paths exist, and the
//    disjointness claims under each reading (node, link, directed link): the two paths of a node,
//    and all paths of all nodes. These are claims under test, NOT assumptions: a failure is a
//    finding, printed with RapidCheck's shrunk counterexample;
//  - NEGATIVE CONTROLS, properties EXPECTED TO FAIL: the plan built with f and g swapped (the
//    opposite bars) judged as the paper's; extensions along a different sequence per node; paths
//    planned with the blocks ignored. The checkers must reject each (on inputs where the
//    unbroken plan passes the same check).
//
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick) selects the number of cases,
// claims::migration_scope::kRandomCases. Seed and RC_PARAMS: see props_harness.h.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "claims/claim.h"
#include "core/checks.h"
#include "core/node.h"
#include "core/path.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_gen.h"
#include "migration_props.h"
#include "props_harness.h"

namespace topocheck::migration {
namespace {

using migration_props::Cases;
using migration_props::Inputs;
using migration_props::Scope;

// Which inputs a claim is about.
enum class Situation { kAll, kTheorem1, kTheorem2 };

bool InSituation(Situation s, const MigrationInput& in, const Plan& plan) {
  const int zeta = std::popcount(plan.inst.C);
  (void)in;
  switch (s) {
    case Situation::kAll: return true;
    case Situation::kTheorem1: return zeta != 1;
    case Situation::kTheorem2: return zeta == 1 && proviso_holds(plan);
  }
  return false;
}

std::string ScopeOf(Situation s) {
  switch (s) {
    case Situation::kAll: return "every input";
    case Situation::kTheorem1: return "inputs with |C(S,T)| != 1 (Theorem 1)";
    case Situation::kTheorem2: return "inputs with |C(S,T)| = 1 and Theorem 2's proviso";
  }
  return "?";
}

// A claim about the plan of each input in the situation (others are discarded: RC_PRE). `x`, when
// given, is the reading of Section 4.2's X under test (the generated x_reading is replaced by it:
// a reading gets its own verdict, it is not one more open choice).
void CheckPlanClaim(const std::string& id, Situation situation, const std::function<Violation(const Plan&)>& check,
                    std::optional<XReading> x = std::nullopt) {
  const claims::Budget budget = props::BudgetFromEnvironment();
  const rc::Gen<MigrationInput> inputs = !x ? Inputs() : rc::gen::map(Inputs(), [x](MigrationInput in) {
    in.x_reading = *x;
    return in;
  });
  props::CheckClaim(id, budget, Cases(), Scope(ScopeOf(situation)), [situation, check, inputs] {
    const MigrationInput in = *inputs.as("input");
    const Plan plan = in.plan();
    RC_PRE(InSituation(situation, in, plan));
    RC_CLASSIFY(plan.inst.zeta() == 0, "zeta = 0");
    RC_CLASSIFY(plan.inst.zeta() == 1, "zeta = 1");
    RC_CLASSIFY(plan.inst.zeta() >= 2, "zeta >= 2");
    RC_CLASSIFY(in.blocks.empty(), "no blocks");
    RC_CLASSIFY(std::any_of(plan.nodes.begin(), plan.nodes.end(), [](const NodePlan& np) { return np.hamming_failed; }),
                "HAMMING-PATH failed somewhere");
    if (auto v = check(plan)) RC_FAIL(*v);
  });
}

// ---------------------------------------------------------------------------------------------
// Every plan (Theorems 1 and 2, Section 5): paths valid, no block link, T only in extensions,
// length bound.

TEST(MigrationPlan, EveryPathIsAValidSimplePathFromUToGOfU) {
  CheckPlanClaim("migration.plan.paths_valid", Situation::kAll, check_plan_paths_valid);
}
TEST(MigrationPlan, NoPathUsesABlockLink) {
  CheckPlanClaim("migration.plan.no_block_link", Situation::kAll, check_plan_no_block_link);
}
TEST(MigrationPlan, LinksOfTAreUsedOnlyByExtensions) {
  CheckPlanClaim("migration.plan.t_links", Situation::kAll, check_plan_t_links);
}
TEST(MigrationPlan, EveryPathIsAtMostZetaPlusTwoBetaLong) {
  CheckPlanClaim("migration.sec5.length_bound", Situation::kAll, check_plan_length);
}

// ---------------------------------------------------------------------------------------------
// Theorems 1 and 2: two paths per node, and the disjointness readings.

TEST(MigrationTheorem1, EveryNodeHasTwoPaths) {
  CheckPlanClaim("migration.thm1.complete", Situation::kTheorem1, check_plan_complete);
}
// Theorem 2 under each reading of Section 4.2's X (printed "D_i(T|p)" both times).
std::string XName(XReading x) { return x == XReading::kDg ? "x=D_g" : "x=D_f"; }

TEST(MigrationTheorem2, EveryNodeHasTwoPathsUnderTheProviso) {
  for (const XReading x : {XReading::kDg, XReading::kDf})
    CheckPlanClaim(fmt::format("migration.thm2.complete[{}]", XName(x)), Situation::kTheorem2, check_plan_complete, x);
}

// A reading the ledger records as refuted (corpus/ledger.json; the exhaustive and random methods
// of `topocheck verify` give the minimal case): RapidCheck must find a counterexample too. Ten
// times the budget's cases, since some need beta >= 2 and n >= 5 (Theorem 2, directed links).
void ExpectRefuted(const std::string& id, Situation situation, const std::function<Violation(const Plan&)>& check,
                   std::optional<XReading> x = std::nullopt) {
  const auto f = props::Falsify<MigrationInput>(id, 10 * Cases(), Inputs(), [&](const MigrationInput& given) -> Violation {
    MigrationInput in = given;
    if (x) in.x_reading = *x;
    const Plan plan = in.plan();
    if (!InSituation(situation, in, plan)) return std::nullopt;
    return check(plan);
  });
  ASSERT_TRUE(f.falsified) << id << ": the ledger says refuted, but RapidCheck found no counterexample: " << f.message;
  ASSERT_TRUE(f.smallest.has_value());
  std::cout << id << " refuted as the ledger records, shrunk to " << *f.smallest << ": " << f.violation << std::endl;
}

// Which readings the ledger records as refuted (the others must hold).
bool LedgerRefuted(const std::string& theorem, const std::string& what, Disjointness d, std::optional<XReading> x) {
  if (theorem == "thm1") return what == "all_disjoint" && d != Disjointness::kDirectedLink;
  if (what == "all_disjoint") return true;
  return x == XReading::kDf;  // pair_disjoint: X = D_f repeats q's single link
}

void CheckDisjointness(const std::string& theorem, Situation situation, Disjointness d) {
  auto one = [&](const std::string& what, std::optional<XReading> x) {
    const std::string id = x ? fmt::format("migration.{}.{}[{},{}]", theorem, what, to_string(d), XName(*x))
                             : fmt::format("migration.{}.{}[{}]", theorem, what, to_string(d));
    const std::function<Violation(const Plan&)> check = [d, what](const Plan& plan) {
      return what == "pair_disjoint" ? check_plan_pairs_disjoint(plan, d) : check_plan_all_disjoint(plan, d);
    };
    if (LedgerRefuted(theorem, what, d, x)) ExpectRefuted(id, situation, check, x);
    else CheckPlanClaim(id, situation, check, x);
  };
  for (const std::string what : {"pair_disjoint", "all_disjoint"}) {
    if (situation == Situation::kTheorem2)
      for (const XReading x : {XReading::kDg, XReading::kDf}) one(what, x);
    else
      one(what, std::nullopt);
  }
}

TEST(MigrationTheorem1, PathsAreDisjointNode) { CheckDisjointness("thm1", Situation::kTheorem1, Disjointness::kNode); }
TEST(MigrationTheorem1, PathsAreDisjointLink) { CheckDisjointness("thm1", Situation::kTheorem1, Disjointness::kLink); }
TEST(MigrationTheorem1, PathsAreDisjointDirectedLink) {
  CheckDisjointness("thm1", Situation::kTheorem1, Disjointness::kDirectedLink);
}
TEST(MigrationTheorem2, PathsAreDisjointNode) { CheckDisjointness("thm2", Situation::kTheorem2, Disjointness::kNode); }
TEST(MigrationTheorem2, PathsAreDisjointLink) { CheckDisjointness("thm2", Situation::kTheorem2, Disjointness::kLink); }
TEST(MigrationTheorem2, PathsAreDisjointDirectedLink) {
  CheckDisjointness("thm2", Situation::kTheorem2, Disjointness::kDirectedLink);
}

// ---------------------------------------------------------------------------------------------
// Negative controls: deliberately broken constructions the checkers must reject. Each violation is
// reported only where the unbroken plan passes the same check, so the check sees the breakage
// itself and not the paper's own failures.

using Falsification = props::Falsification<MigrationInput>;

void ExpectFalsified(const std::string& id, const std::function<Violation(const MigrationInput&)>& violation) {
  const Falsification f = props::Falsify<MigrationInput>(id, Cases(), Inputs(), violation);
  ASSERT_TRUE(f.falsified) << id << ": the broken construction was not caught: " << f.message;
  ASSERT_TRUE(f.smallest.has_value());
  std::cout << id << " falsified as expected, shrunk to " << *f.smallest << ": " << f.violation << std::endl;
}

// f and g swapped (the opposite bars: g's rule for f and f's for g), judged as the paper's plan.
TEST(MigrationNegativeControl, SwappedFAndGIsCaughtByThePathCheck) {
  ExpectFalsified("migration.control.swapped_f_g.paths_valid", [](const MigrationInput& in) -> Violation {
    if (check_plan_paths_valid(in.plan())) return std::nullopt;
    Params swapped = in.params();
    swapped.bars = Bars{!Bars::paper().f_complements_on_equal, !Bars::paper().g_complements_on_equal};
    Plan broken = migrate(in.instance(), in.blocks, swapped);
    broken.params = in.params();  // judged with the paper's g
    return check_plan_paths_valid(broken);
  });
}

// The opposite bars judged as a construction of their own (their g): the disjointness claims must
// fail where the paper's bars pass (the negative control for the complement rule).
TEST(MigrationNegativeControl, SwappedFAndGIsCaughtByTheDisjointnessCheck) {
  ExpectFalsified("migration.control.swapped_f_g.disjoint[directed-link]", [](const MigrationInput& in) -> Violation {
    const Plan plan = in.plan();
    if (check_plan_pairs_disjoint(plan, Disjointness::kDirectedLink) ||
        check_plan_all_disjoint(plan, Disjointness::kDirectedLink))
      return std::nullopt;
    Params swapped = in.params();
    swapped.bars = Bars{!Bars::paper().f_complements_on_equal, !Bars::paper().g_complements_on_equal};
    const Plan broken = migrate(in.instance(), in.blocks, swapped);
    if (auto v = check_plan_paths_valid(broken)) return "the swapped plan is not even valid: " + *v;
    if (auto v = check_plan_pairs_disjoint(broken, Disjointness::kDirectedLink)) return v;
    return check_plan_all_disjoint(broken, Disjointness::kDirectedLink);
  });
}

// Each node's h-extension along the sequence rotated by the node's position in S (Lemma 3 needs
// one fixed sequence for all).
Plan WithPerNodeSequences(const Plan& plan, const std::vector<int>& sequence) {
  Plan broken = plan;
  if (sequence.size() < 2) return broken;
  for (size_t index = 0; index < broken.nodes.size(); ++index)
    for (MigrationPath& mp : broken.nodes[index].paths) {
      if (mp.kind != PathKind::kRegularExtended || mp.ext_begin < 0) continue;
      std::vector<int> rotated = sequence;
      std::rotate(rotated.begin(), rotated.begin() + static_cast<std::ptrdiff_t>(index % sequence.size()), rotated.end());
      const Node start = mp.path.nodes[static_cast<size_t>(mp.ext_begin)];
      const Path extension = path_along(start, rotated);
      mp.path.nodes.resize(static_cast<size_t>(mp.ext_begin));
      mp.path.nodes.insert(mp.path.nodes.end(), extension.nodes.begin(), extension.nodes.end());
    }
  return broken;
}

TEST(MigrationNegativeControl, PerNodeExtensionSequencesAreCaughtByTheDisjointnessCheck) {
  ExpectFalsified("migration.control.per_node_sequence.all_disjoint[directed-link]", [](const MigrationInput& in) -> Violation {
    const Plan plan = in.plan();
    if (check_plan_all_disjoint(plan, Disjointness::kDirectedLink)) return std::nullopt;
    const std::vector<int> sequence = in.ext_sequence.empty() ? dims_of(plan.inst.DTmS) : in.ext_sequence;
    const Plan broken = WithPerNodeSequences(plan, sequence);
    if (auto v = check_plan_paths_valid(broken)) return "the broken plan is not even valid: " + *v;
    return check_plan_all_disjoint(broken, Disjointness::kDirectedLink);
  });
}

// Every path planned as if there were no blocks, judged with the blocks.
TEST(MigrationNegativeControl, IgnoringTheBlocksIsCaughtByTheBlockLinkCheck) {
  ExpectFalsified("migration.control.blocks_ignored.no_block_link", [](const MigrationInput& in) -> Violation {
    if (check_plan_no_block_link(in.plan())) return std::nullopt;
    Plan broken = migrate(in.instance(), {}, in.params());
    broken.blocks = in.blocks;
    return check_plan_no_block_link(broken);
  });
}

}  // namespace
}  // namespace topocheck::migration
