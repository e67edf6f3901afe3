// The Metacube SMT decisions against exhaustive search: the solver's answer equals exhaustive
// search's, and its (minimized) counterexample is exactly the first one exhaustive search finds,
// confirmed by the checkers; the negative controls are refuted; commutation with class-zero
// translations and the automorphism are proved where exhaustive search finds them, and refuted
// under `paper` in MC(2,2) with the minimal pair. Suites MetacubeSmt, MetacubeSmtMC22,
// MetacubeSmtDeep (see metacube_smt_test.cc).
#include "smt/metacube_smt.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "smt/metacube_smt_test_support.h"

namespace topocheck::smt {
namespace {

using namespace metacube_smt_test;
using claims::Outcome;

// ---------------------------------------------------------------------------------------------
// Verdicts against exhaustive search.

// The first (s, t) in address order violating each part, as exhaustive search finds it.
std::array<std::optional<std::pair<Node, Node>>, 4> exhaustive_first(const Metacube& mc, const Alg4Options& o,
                                                                     std::array<int, 4>* counts = nullptr) {
  std::array<std::optional<std::pair<Node, Node>>, 4> first;
  if (counts) counts->fill(0);
  for (uint64_t a = 0; a < mc.num_nodes(); ++a)
    for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
      if (a == b) continue;
      const Node s = mc.node_at(a), t = mc.node_at(b);
      const auto paths = metacube::metacube_disjoint_paths(mc, s, t, quiet(o)).paths;
      const std::array<Violation, 4> v = {
          metacube::check_thm2_valid(mc, s, t, paths), metacube::check_thm2_disjoint(mc, s, t, paths),
          metacube::check_thm2_length(mc, s, t, paths), metacube::check_thm2_case_bound(mc, s, t, paths)};
      for (size_t p = 0; p < 4; ++p)
        if (v[p]) {
          if (!first[p]) first[p] = std::pair{s, t};
          if (counts) ++(*counts)[p];
        }
    }
  return first;
}

// prove_alg4 agrees with exhaustive search on every part: proved iff no pair violates, and
// otherwise its minimized counterexample is exhaustive search's first, which check_alg4 confirms.
void expect_verdicts_match(int k, int m, const std::string& reading) {
  const Metacube mc = Metacube::make(k, m).value();
  const Alg4Options o = options(reading);
  const auto first = exhaustive_first(mc, o);
  for (size_t p = 0; p < kParts.size(); ++p) {
    const std::string label = reading + " " + mc.name() + " " + kPartNames[p];
    const MetacubeSmtResult smt = prove_alg4(k, m, o, kParts[p], kLimits);
    if (!first[p]) {
      EXPECT_EQ(smt.status, SmtStatus::kProved) << label << ": " << to_string(smt.status) << " " << smt.reason;
      continue;
    }
    ASSERT_EQ(smt.status, SmtStatus::kCounterexample) << label << ": " << to_string(smt.status) << " " << smt.reason;
    ASSERT_TRUE(smt.s && smt.t) << label;
    EXPECT_TRUE(metacube::check_alg4(mc, *smt.s, *smt.t, o, kParts[p])) << label << ": the model s = " << *smt.s
                                                                       << ", t = " << *smt.t << " is not confirmed";
    EXPECT_TRUE(smt.minimized) << label;
    EXPECT_EQ(*smt.s, first[p]->first) << label;
    EXPECT_EQ(*smt.t, first[p]->second) << label;
  }
}

TEST(MetacubeSmt, VerdictsEqualExhaustiveSearchOnSmallMetacubes) {
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{1, 2}, KM{2, 1}}) expect_verdicts_match(k, m, reading);
}

TEST(MetacubeSmtMC22, VerdictsEqualExhaustiveSearch) {
  for (const char* reading : kReadings) expect_verdicts_match(2, 2, reading);
  // The corrected construction: every part proved for every s != t of MC(2,2) (unsat), as
  // exhaustive search finds it.
  expect_verdicts_match(2, 2, "corrected");
}

TEST(MetacubeSmtDeep, NegativeControlVerdictsEqualExhaustiveSearchOnMC22) {
  for (const char* reading : {"broken-no-exchange", "broken-ignore-key"}) expect_verdicts_match(2, 2, reading);
}

TEST(MetacubeSmtDeep, VerdictsEqualExhaustiveSearchOnMC13AndMC31) {
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{1, 3}, KM{3, 1}}) expect_verdicts_match(k, m, reading);
}

// The negative controls break what the readings keep: they must be refuted, with the checker's
// confirmation, on parts and sizes where exhaustive search counts failing pairs.
TEST(MetacubeSmt, NegativeControlsAreRefutedWithConfirmedCounterexamples) {
  // broken-no-exchange equals `paper` when m = 1 (there is no j' to exchange with): MC(1,2) only.
  const std::vector<std::tuple<std::string, int, int>> cases = {
      {"broken-no-exchange", 1, 2}, {"broken-ignore-key", 1, 2}, {"broken-ignore-key", 2, 1}};
  for (const auto& [control, k, m] : cases) {
    const Metacube mc = Metacube::make(k, m).value();
    std::array<int, 4> broken{}, paper{};
    exhaustive_first(mc, options(control), &broken);
    exhaustive_first(mc, options("paper"), &paper);
    // The control fails on more pairs than the reading it breaks (disjointness).
    EXPECT_GT(broken[1], paper[1]) << control << " " << mc.name();
    RecordProperty(control + "_" + mc.name() + "_disjoint_failing_pairs", broken[1]);
    RecordProperty("paper_" + mc.name() + "_disjoint_failing_pairs", paper[1]);
    const claims::MethodResult r = alg4_smt_method_result(k, m, control, Thm2Part::kDisjoint, kLimits);
    ASSERT_EQ(r.outcome, Outcome::kRefuted) << control << " " << mc.name() << ": " << r.detail;
    ASSERT_TRUE(r.counterexample);
    const Node s = mc.parse_fields(r.counterexample->input.at("s").get<std::string>()).value();
    const Node t = mc.parse_fields(r.counterexample->input.at("t").get<std::string>()).value();
    EXPECT_EQ(std::optional<std::string>(r.counterexample->violation),
              metacube::check_alg4(mc, s, t, options(control), Thm2Part::kDisjoint));
  }
}

// ---------------------------------------------------------------------------------------------
// Symmetry.

TEST(MetacubeSmt, CommutationIsProvedWhereExhaustiveSearchFindsItHolds) {
  // MC(1,1), MC(1,2), MC(2,1): EncodedCommutationIsTheConstructionsOnEverySmallInput checked
  // every s, t, a concretely (no failure); the solver must prove it.
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{1, 1}, KM{1, 2}, KM{2, 1}}) {
      if (k == 2 && std::string_view(reading).starts_with("broken")) continue;  // time: MC(1,*) covers them
      const MetacubeSmtResult smt = prove_alg4_commutes(k, m, options(reading), kLimits);
      EXPECT_EQ(smt.status, SmtStatus::kProved) << reading << " MC(" << k << "," << m << "): " << to_string(smt.status)
                                                << " " << smt.reason;
    }
}

// Under `paper`, case 2's key bit compares M_s[c_s^(i)] with M_t[c_t^(i)], fields of different
// index, and a translation changes them differently: commutation fails in MC(2,2).
// The claim's per-pair check (catalog/metacube/claims.cc): translate (s, t) by a_s, the M part of s.
Node source_translation(const Metacube& mc, Node s) {
  return Node{s.bits & ((uint64_t{1} << (mc.m() * mc.h())) - 1), mc.width()};
}

TEST(MetacubeSmtMC22, CommutationFailsUnderPaperWithAConfirmedMinimalModel) {
  const Metacube mc = Metacube::make(2, 2).value();
  const Alg4Options o = options("paper");
  const claims::MethodResult r = alg4_commutes_smt_method_result(2, 2, "paper", kLimits);
  ASSERT_EQ(r.outcome, Outcome::kRefuted) << r.detail;
  ASSERT_TRUE(r.counterexample);
  const auto& cx = *r.counterexample;
  const Node s = parse_node(cx.input.at("s").get<std::string>(), 10).value();
  const Node t = parse_node(cx.input.at("t").get<std::string>(), 10).value();
  const Node a = parse_node(cx.witness.at("a").get<std::string>(), 10).value();
  EXPECT_EQ(a, source_translation(mc, s));
  EXPECT_FALSE(commutes_at(mc, o, s, t, a)) << "s = " << s << ", t = " << t << ", a = " << a;
  EXPECT_TRUE(cx.minimized);
  // Minimized: it is the first pair in address order that fails the claim's per-pair check, as
  // exhaustive search finds it.
  std::optional<std::pair<Node, Node>> first;
  for (uint64_t x = 0; x < mc.num_nodes() && !first; ++x)
    for (uint64_t y = 0; y < mc.num_nodes() && !first; ++y) {
      const Node u = mc.node_at(x), v = mc.node_at(y);
      if (x != y && !commutes_at(mc, o, u, v, source_translation(mc, u))) first = std::pair{u, v};
    }
  ASSERT_TRUE(first);
  EXPECT_EQ(s, first->first);
  EXPECT_EQ(t, first->second);
}

TEST(MetacubeSmtDeep, CommutationIsProvedUnderKeybitExample4InMC22) {
  const MetacubeSmtResult smt = prove_alg4_commutes(2, 2, options("paper-keybit-example4"), kLimits);
  EXPECT_EQ(smt.status, SmtStatus::kProved) << to_string(smt.status) << " " << smt.reason;
}

TEST(MetacubeSmt, AutomorphismIsProvedAndExhaustiveSearchAgrees) {
  for (auto [k, m] : claims::metacube_scope::kSmt.deep) {
    const MetacubeSmtResult smt = prove_automorphism(k, m, kLimits);
    EXPECT_EQ(smt.status, SmtStatus::kProved) << k << " " << m << ": " << smt.reason;
  }
  for (auto [k, m] : {KM{1, 1}, KM{1, 2}, KM{2, 1}}) {
    const Metacube mc = Metacube::make(k, m).value();
    for (uint64_t x = 0; x < mc.num_nodes(); ++x)
      for (uint64_t y = 0; y < mc.num_nodes(); ++y)
        for (Node a : class_zero_addresses(mc))
          ASSERT_EQ(mc.is_edge(mc.node_at(x), mc.node_at(y)),
                    mc.is_edge(metacube::translate(mc.node_at(x), a), metacube::translate(mc.node_at(y), a)));
  }
}

}  // namespace
}  // namespace topocheck::smt
