// The SMT encodings of the Metacube claims, cross-checked against the concrete construction and
// the naive checkers:
//  - pointwise: the encoding evaluated at every concrete input IS the construction (node for
//    node) and the checkers' predicates, for the readings and the negative controls, under every
//    enumerable choice of Algorithm 4's open options;
//  - by verdict: the solver's answer equals exhaustive search, and its (minimized) counterexample
//    is exactly the first one exhaustive search finds, confirmed by the checkers.
// Suites (one ctest entry each, smt/CMakeLists.txt): MetacubeSmt (small metacubes, under a
// minute), MetacubeSmtMC22 (the MC(2,2) cross-checks, under a minute), MetacubeSmtDeep (label
// `deep`: every pair of MC(2,2), MC(1,3) and MC(3,1), the long proofs).
#include "smt/metacube_smt.h"

#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "registry/full_registry.h"
#include "catalog/metacube/scope.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"

namespace topocheck::smt {
namespace {

using claims::Outcome;
using claims::SolverLimits;
using metacube::Alg4Options;
using metacube::Metacube;
using metacube::Thm2Part;
using nlohmann::json;
using Engine = Alg4EncodingEvaluator::Engine;
using KM = std::pair<int, int>;

constexpr std::array<Thm2Part, 4> kParts = {Thm2Part::kValid, Thm2Part::kDisjoint, Thm2Part::kLength,
                                            Thm2Part::kCaseBound};
constexpr std::array<const char*, 4> kPartNames = {"valid", "disjoint", "length", "case_bound"};
// The readings the SMT method serves, and the negative controls.
constexpr std::array<const char*, 2> kReadings = {"paper", "paper-keybit-example4"};
constexpr std::array<const char*, 4> kAllOptions = {"paper", "paper-keybit-example4", "broken-no-exchange",
                                                    "broken-ignore-key"};
const SolverLimits kLimits{claims::metacube_scope::kSmtRlimit.deep, 0};

Alg4Options options(const std::string& reading) { return *metacube::options_for_reading(reading); }

// The same paths without the notes (formatting them dominates the construction's time).
Alg4Options quiet(Alg4Options o) {
  o.record_notes = false;
  return o;
}

std::string where(const Metacube& mc, const std::string& label, Node s, Node t) {
  return label + " " + mc.name() + " s = " + s.to_string() + ", t = " + t.to_string();
}

// ---------------------------------------------------------------------------------------------
// Pointwise.

// The encoding at (s, t) against the construction and check_alg4 of every part. Returns false
// (after reporting) on a mismatch.
bool agrees_at(const Metacube& mc, Alg4EncodingEvaluator& eval, const Alg4Options& o, const std::string& label,
               Node s, Node t) {
  const auto value = eval.at(s, t);
  if (!value.ok()) {
    ADD_FAILURE() << where(mc, label, s, t) << ": " << value.error().message;
    return false;
  }
  const auto r = metacube::metacube_disjoint_paths(mc, s, t, quiet(o));
  std::array<Violation, 4> checked;
  for (size_t p = 0; p < kParts.size(); ++p) checked[p] = metacube::check_alg4(mc, s, t, o, kParts[p]);
  bool ok = value->case_number == r.case_number;
  EXPECT_EQ(value->case_number, r.case_number) << where(mc, label, s, t);
  if (value->paths != r.paths) {
    ok = false;
    ADD_FAILURE() << where(mc, label, s, t) << " (case " << r.case_number << "): the encoded paths differ";
    for (size_t i = 0; i < std::max(r.paths.size(), value->paths.size()); ++i) {
      const std::string enc = i < value->paths.size() ? value->paths[i].to_string() : "(none)";
      const std::string con = i < r.paths.size() ? r.paths[i].to_string() : "(none)";
      if (enc != con) ADD_FAILURE() << "  P_" << i << " encoded   " << enc << "\n  P_" << i << " construct " << con;
    }
  }
  for (size_t p = 0; p < kParts.size(); ++p) {
    const Violation& v = checked[p];
    if (value->violation[p] != v.has_value()) {
      ok = false;
      ADD_FAILURE() << where(mc, label, s, t) << " part " << kPartNames[p] << ": encoded violation "
                    << value->violation[p] << ", checker " << (v ? *v : "none");
    }
  }
  return ok;
}

// Every s != t of MC(k, m) (stops after a few mismatches).
void expect_pointwise(int k, int m, const Alg4Options& o, const std::string& label) {
  const Metacube mc = Metacube::make(k, m).value();
  Alg4EncodingEvaluator eval(k, m, o);
  int mismatches = 0;
  for (uint64_t a = 0; a < mc.num_nodes() && mismatches < 3; ++a)
    for (uint64_t b = 0; b < mc.num_nodes() && mismatches < 3; ++b)
      if (a != b && !agrees_at(mc, eval, o, label, mc.node_at(a), mc.node_at(b))) ++mismatches;
}

TEST(MetacubeSmt, EncodingIsTheConstructionOnEveryPairOfSmallMetacubes) {
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{0, 1}, KM{0, 3}, KM{1, 1}, KM{1, 2}, KM{2, 1}})
      expect_pointwise(k, m, options(reading), reading);
}

TEST(MetacubeSmtDeep, EncodingIsTheConstructionOnEveryPairOfMC13) {
  for (const char* reading : kAllOptions) expect_pointwise(1, 3, options(reading), reading);
}

// The encoding is generic over Alg4Options: every enumerable choice (HC order, local cycle, j'/i',
// default key bit) and every textual alternative the tables ruled out.
std::vector<std::pair<std::string, Alg4Options>> option_variants() {
  std::vector<std::pair<std::string, Alg4Options>> variants;
  for (const char* reading : kAllOptions) variants.push_back({reading, options(reading)});
  Alg4Options o = options("paper");
  o.case0_hop = metacube::Case0Hop::kPrinted;
  variants.push_back({"case0_hop=printed", o});
  o = options("paper");
  o.case0_p3_n = 1;  // printed p3(k, ...), with k = 1 (in MC(1,m) fewer bits than m: paths stop short)
  variants.push_back({"case0_p3_n=1", o});
  o = options("paper");
  o.local_class_path = metacube::LocalClassPath::kPrintedP3Zero;
  variants.push_back({"local_class_path=p3(k,0)", o});
  o = options("paper");
  o.empty_when_equal = false;
  variants.push_back({"literal_detour", o});
  o = options("paper");
  o.case2_pj_ends_at_t = false;
  variants.push_back({"pj_stops_at_tj", o});
  return variants;
}

void expect_pointwise_under_every_choice(int k, int m) {
  const Metacube mc = Metacube::make(k, m).value();
  for (const auto& [label, base] : option_variants())
    for (const Alg4Options& choice : metacube::all_choices(mc, base))
      expect_pointwise(k, m, choice, label + " " + metacube::describe(choice));
}

TEST(MetacubeSmt, EncodingIsTheConstructionUnderEveryChoiceOfTheOptions) {
  for (auto [k, m] : {KM{1, 2}, KM{2, 1}}) expect_pointwise_under_every_choice(k, m);
}

// MC(1,3) is the smallest metacube with two choices of j' (kNextCyclic differs from kLowestOther).
TEST(MetacubeSmtDeep, EncodingIsTheConstructionUnderEveryChoiceOfTheOptionsInMC13) {
  expect_pointwise_under_every_choice(1, 3);
}

// MC(2,2) has 1047552 pairs: the standard test takes, per split, the structured pairs that reach
// every branch of Algorithm 4 (t differing from s in 0, 1 or 2 bits of each field, or fields
// swapped) plus random ones; the deep test takes every pair.
std::vector<std::pair<Node, Node>> sampled_pairs(const Metacube& mc, int random_per_split) {
  std::vector<std::pair<Node, Node>> out;
  std::mt19937_64 rng(20240531);
  const int low_bits = mc.m() * mc.h();
  const uint64_t low_mask = (uint64_t{1} << low_bits) - 1;
  for (int cs = 0; cs < mc.h(); ++cs)
    for (int ct = 0; ct < mc.h(); ++ct) {
      auto add = [&](uint64_t sm, uint64_t tm) {
        const Node s{(static_cast<uint64_t>(cs) << low_bits) | (sm & low_mask), mc.width()};
        const Node t{(static_cast<uint64_t>(ct) << low_bits) | (tm & low_mask), mc.width()};
        if (s != t) out.push_back({s, t});
      };
      for (uint64_t sm : {uint64_t{0}, low_mask, uint64_t{0b10110100} & low_mask, rng() & low_mask}) {
        add(sm, sm);
        for (int a = 0; a < low_bits; ++a) {
          add(sm, sm ^ (uint64_t{1} << a));
          for (int b = a + 1; b < low_bits; ++b) add(sm, sm ^ (uint64_t{1} << a) ^ (uint64_t{1} << b));
        }
      }
      for (int r = 0; r < random_per_split; ++r) add(rng(), rng());
    }
  return out;
}

TEST(MetacubeSmtMC22, EncodingIsTheConstructionOnSampledPairs) {
  const Metacube mc = Metacube::make(2, 2).value();
  const auto pairs = sampled_pairs(mc, 100);
  for (const char* reading : kAllOptions) {
    Alg4EncodingEvaluator eval(2, 2, options(reading));
    int mismatches = 0;
    for (const auto& [s, t] : pairs)
      if (!agrees_at(mc, eval, options(reading), reading, s, t) && ++mismatches >= 3) break;
  }
}

TEST(MetacubeSmtDeep, EncodingIsTheConstructionOnEveryPairOfMC22) {
  for (const char* reading : kAllOptions) expect_pointwise(2, 2, options(reading), reading);
}

// The compiled engine is an interpreter of Z3 terms; Z3's own evaluator must give the same values.
void expect_engines_agree(int k, int m, const std::string& reading, uint64_t stride) {
  {
    {
      const Metacube mc = Metacube::make(k, m).value();
      Alg4EncodingEvaluator compiled(k, m, options(reading), Engine::kCompiled);
      Alg4EncodingEvaluator z3(k, m, options(reading), Engine::kZ3);
      uint64_t index = 0;
      for (uint64_t a = 0; a < mc.num_nodes(); ++a)
        for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
          if (a == b || index++ % stride != 0) continue;
          const Node s = mc.node_at(a), t = mc.node_at(b);
          const auto x = compiled.at(s, t), y = z3.at(s, t);
          ASSERT_TRUE(x.ok() && y.ok()) << where(mc, reading, s, t);
          ASSERT_EQ(x->paths, y->paths) << where(mc, reading, s, t);
          ASSERT_EQ(x->violation, y->violation) << where(mc, reading, s, t);
          ASSERT_EQ(x->case_number, y->case_number) << where(mc, reading, s, t);
          if (index % 5 == 0) {
            const Node a0{(b * 0x9E3779B97F4A7C15ULL) & ((uint64_t{1} << (mc.m() * mc.h())) - 1), mc.width()};
            const auto cx = compiled.commutation_violation(s, t, a0), cy = z3.commutation_violation(s, t, a0);
            ASSERT_TRUE(cx.ok() && cy.ok()) << where(mc, reading, s, t);
            ASSERT_EQ(*cx, *cy) << where(mc, reading, s, t) << " a = " << a0;
            const auto ex = compiled.is_edge(s, t), ey = z3.is_edge(s, t);
            ASSERT_TRUE(ex.ok() && ey.ok());
            ASSERT_EQ(*ex, *ey) << where(mc, reading, s, t);
          }
        }
    }
  }
}

TEST(MetacubeSmt, CompiledEvaluationEqualsZ3Evaluation) {
  // Every pair of MC(1,1), every 3rd of MC(1,2), every 31st of MC(2,1) (Z3's evaluator takes
  // 1-2 ms a pair); all of them in the deep suite.
  for (const char* reading : kAllOptions) {
    expect_engines_agree(1, 1, reading, 1);
    expect_engines_agree(1, 2, reading, 3);
    expect_engines_agree(2, 1, reading, 31);
  }
}

TEST(MetacubeSmtDeep, CompiledEvaluationEqualsZ3EvaluationOnEveryPair) {
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{1, 2}, KM{2, 1}}) expect_engines_agree(k, m, reading, 1);
}

TEST(MetacubeSmtMC22, CompiledEvaluationEqualsZ3Evaluation) {
  for (const char* reading : kAllOptions) expect_engines_agree(2, 2, reading, 30011);
}

TEST(MetacubeSmt, EncodedEdgeIsMetacubeIsEdge) {
  for (auto [k, m] : {KM{0, 2}, KM{1, 1}, KM{1, 2}, KM{2, 1}, KM{1, 3}}) {
    const Metacube mc = Metacube::make(k, m).value();
    Alg4EncodingEvaluator eval(k, m, options("paper"));
    int edges = 0;
    for (uint64_t a = 0; a < mc.num_nodes(); ++a)
      for (uint64_t b = 0; b < mc.num_nodes(); ++b) {
        const Node u = mc.node_at(a), v = mc.node_at(b);
        const auto e = eval.is_edge(u, v);
        ASSERT_TRUE(e.ok()) << e.error().message;
        ASSERT_EQ(*e, mc.is_edge(u, v)) << mc.name() << " u = " << u << ", v = " << v;
        edges += *e;
      }
    EXPECT_EQ(static_cast<uint64_t>(edges), mc.num_nodes() * static_cast<uint64_t>(mc.degree())) << mc.name();
  }
}

// The concrete commutation judge for one a (as metacube.symmetry.alg4_commutes checks it), given
// the paths of (s, t).
bool commutes_at(const Metacube& mc, const Alg4Options& o, const std::vector<Path>& base, Node s, Node t, Node a) {
  const auto moved =
      metacube::metacube_disjoint_paths(mc, metacube::translate(s, a), metacube::translate(t, a), quiet(o)).paths;
  for (size_t i = 0; i < base.size(); ++i) {
    Path expect = base[i];
    for (Node& x : expect.nodes) x = metacube::translate(x, a);
    if (!(moved[i] == expect)) return false;
  }
  return true;
}

bool commutes_at(const Metacube& mc, const Alg4Options& o, Node s, Node t, Node a) {
  return commutes_at(mc, o, metacube::metacube_disjoint_paths(mc, s, t, quiet(o)).paths, s, t, a);
}

std::vector<Node> class_zero_addresses(const Metacube& mc) {
  std::vector<Node> out;
  for (uint64_t a = 0; a < (uint64_t{1} << (mc.m() * mc.h())); ++a) out.push_back(Node{a, mc.width()});
  return out;
}

TEST(MetacubeSmt, EncodedCommutationIsTheConstructionsOnEverySmallInput) {
  for (const char* reading : kAllOptions)
    for (auto [k, m] : {KM{1, 1}, KM{1, 2}, KM{2, 1}}) {
      if (k == 2 && std::string_view(reading).starts_with("broken")) continue;  // time: MC(1,*) covers them
      const Metacube mc = Metacube::make(k, m).value();
      const Alg4Options o = options(reading);
      Alg4EncodingEvaluator eval(k, m, o);
      int failing = 0;
      for (uint64_t x = 0; x < mc.num_nodes(); ++x)
        for (uint64_t y = 0; y < mc.num_nodes(); ++y) {
          if (x == y) continue;
          const Node s = mc.node_at(x), t = mc.node_at(y);
          const auto base = metacube::metacube_disjoint_paths(mc, s, t, quiet(o)).paths;
          for (Node a : class_zero_addresses(mc)) {
            // MC(2,1) (16 translations): the ones flipping one field, and all four (time).
            if (k == 2 && std::popcount(a.bits) != 1 && std::popcount(a.bits) != 4) continue;
            const auto v = eval.commutation_violation(s, t, a);
            ASSERT_TRUE(v.ok()) << v.error().message;
            const bool concrete = !commutes_at(mc, o, base, s, t, a);
            ASSERT_EQ(*v, concrete) << where(mc, reading, s, t) << ", a = " << a;
            failing += concrete;
          }
        }
      // Commutation holds in these metacubes under every option set tested here.
      EXPECT_EQ(failing, 0) << reading << " " << mc.name();
    }
  // Where it fails (MC(2,2), `paper`, see below), the encoding says so too.
  const Metacube mc = Metacube::make(2, 2).value();
  Alg4EncodingEvaluator eval(2, 2, options("paper"));
  const Node s = parse_node("1000000001", 10).value(), t = parse_node("1100000101", 10).value();
  const Node a = parse_node("0000000001", 10).value();
  EXPECT_FALSE(commutes_at(mc, options("paper"), s, t, a));
  EXPECT_TRUE(*eval.commutation_violation(s, t, a));
}

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

// ---------------------------------------------------------------------------------------------
// Method results, registration, limits.

TEST(MetacubeSmt, PaperIsRefutedInMC11WithTheStoredCounterexample) {
  // corpus/metacube/thm2.valid/paper-*.json: MC(1,1), s = 000, t = 010, found by exhaustive search.
  for (Thm2Part part : {Thm2Part::kValid, Thm2Part::kDisjoint}) {
    const claims::MethodResult r = alg4_smt_method_result(1, 1, "paper", part, kLimits);
    ASSERT_EQ(r.outcome, Outcome::kRefuted) << r.detail;
    EXPECT_EQ(r.method, claims::Method::kSmt);
    ASSERT_TRUE(r.counterexample);
    const auto& cx = *r.counterexample;
    EXPECT_EQ(cx.params, (json{{"k", 1}, {"m", 1}}));
    EXPECT_EQ(cx.input, (json{{"s", "000"}, {"t", "010"}}));
    EXPECT_TRUE(cx.minimized);
    const Metacube mc = Metacube::make(1, 1).value();
    const Node s = parse_node("000", 3).value(), t = parse_node("010", 3).value();
    EXPECT_EQ(std::optional<std::string>(cx.violation), metacube::check_alg4(mc, s, t, options("paper"), part));
    EXPECT_EQ(cx.witness.at("paths"), paths_to_json(metacube::metacube_disjoint_paths(mc, s, t, options("paper")).paths));
  }
  const claims::MethodResult holds = alg4_smt_method_result(1, 1, "paper", Thm2Part::kLength, kLimits);
  EXPECT_EQ(holds.outcome, Outcome::kHolds) << holds.detail;
  EXPECT_EQ(holds.cases, 1u);
}

TEST(MetacubeSmt, RepairedAndFaultToleranceAreNotEncodedAndSayWhy) {
  for (const char* reading : kAllOptions) EXPECT_FALSE(alg4_encoding_gap(options(reading))) << reading;
  Alg4Options quiet = options("paper");
  quiet.record_notes = false;  // notes only: encoded paths are the same
  EXPECT_FALSE(alg4_encoding_gap(quiet));
  const Alg4Options repaired = options("repaired");
  ASSERT_TRUE(alg4_encoding_gap(repaired));
  const MetacubeSmtResult r = prove_alg4(1, 1, repaired, Thm2Part::kValid, kLimits);
  EXPECT_EQ(r.status, SmtStatus::kError);
  EXPECT_NE(r.reason.find("repair"), std::string::npos) << r.reason;
  EXPECT_EQ(prove_alg4_commutes(1, 1, repaired, kLimits).status, SmtStatus::kError);
  EXPECT_EQ(prove_alg4(1, 1, options("paper"), Thm2Part::kFaultTolerance, kLimits).status, SmtStatus::kError);
  EXPECT_EQ(alg4_smt_method_result(1, 1, "repaired", Thm2Part::kValid, kLimits).outcome, Outcome::kError);
  EXPECT_EQ(alg4_smt_method_result(1, 1, "no-such-reading", Thm2Part::kValid, kLimits).outcome, Outcome::kError);
}

constexpr std::array<const char*, 4> kThm2Ids = {"metacube.thm2.valid", "metacube.thm2.disjoint",
                                                 "metacube.thm2.length", "metacube.thm2.case_bound"};

const claims::Reading& reading_of(const claims::Registry& registry, const std::string& id, const std::string& name) {
  const claims::Claim* claim = registry.find(id);
  TC_CHECK(claim != nullptr, "no claim " + id);
  const claims::Reading* reading = claim->find_reading(name);
  TC_CHECK(reading != nullptr, "no reading " + name);
  return *reading;
}

const claims::MethodFn* smt_method(const claims::Reading& reading) {
  for (const auto& [method, fn] : reading.methods)
    if (method == claims::Method::kSmt) return &fn;
  return nullptr;
}

TEST(MetacubeSmt, AttachAddsSmtMethodsAndProveFunctionsToTheRealClaims) {
  claims::Registry registry = full_registry();
  attach_metacube_smt(registry);
  claims::RunContext ctx;
  ctx.budget = claims::Budget::kQuick;
  for (const char* reading : kReadings) {
    for (size_t p = 0; p < kThm2Ids.size(); ++p) {
      const claims::Reading& r = reading_of(registry, kThm2Ids[p], reading);
      const claims::MethodFn* fn = smt_method(r);
      ASSERT_NE(fn, nullptr) << kThm2Ids[p] << " " << reading;
      ASSERT_TRUE(r.prove);
      const claims::MethodResult quick = (*fn)(ctx);
      // Quick is MC(1,1): validity and disjointness fail there, the bounds hold.
      EXPECT_EQ(quick.outcome, p < 2 ? Outcome::kRefuted : Outcome::kHolds) << kThm2Ids[p] << " " << quick.detail;
      if (p < 2) {
        ASSERT_TRUE(quick.counterexample);
        EXPECT_TRUE(quick.counterexample->minimized);
        EXPECT_EQ(quick.cases, 0u);
      } else {
        EXPECT_EQ(quick.cases, 1u);
      }
      auto proved = r.prove(json{{"k", 1}, {"m", 2}}, SolverLimits{});
      ASSERT_TRUE(proved.ok()) << proved.error().message;
      EXPECT_EQ(proved->method, claims::Method::kSmt);
      EXPECT_EQ(proved->outcome, p < 2 ? Outcome::kRefuted : Outcome::kHolds) << proved->detail;
    }
    const claims::Reading& commutes = reading_of(registry, "metacube.symmetry.alg4_commutes", reading);
    ASSERT_NE(smt_method(commutes), nullptr);
    EXPECT_EQ((*smt_method(commutes))(ctx).outcome, Outcome::kHolds);
    ASSERT_TRUE(commutes.prove);
    auto c12 = commutes.prove(json{{"k", 1}, {"m", 1}}, SolverLimits{});
    ASSERT_TRUE(c12.ok());
    EXPECT_EQ(c12->outcome, Outcome::kHolds) << c12->detail;
  }
  const claims::Reading& automorphism = reading_of(registry, "metacube.symmetry.automorphism", "literal");
  ASSERT_NE(smt_method(automorphism), nullptr);
  EXPECT_EQ((*smt_method(automorphism))(ctx).outcome, Outcome::kHolds);
  auto a = automorphism.prove(json{{"k", 3}, {"m", 7}}, SolverLimits{});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->outcome, Outcome::kHolds) << a->detail;
  // `repaired` has no SMT method (not encoded).
  EXPECT_EQ(smt_method(reading_of(registry, "metacube.thm2.valid", "repaired")), nullptr);
}

TEST(MetacubeSmt, ProveRejectsBadParamsNamingThem) {
  claims::Registry registry = full_registry();
  attach_metacube_smt(registry);
  const claims::Reading& r = reading_of(registry, "metacube.thm2.length", "paper");
  for (const auto& [params, name] :
       std::vector<std::pair<json, std::string>>{{json{{"m", 1}}, "params.k"},
                                                 {json{{"k", "1"}, {"m", 1}}, "params.k"},
                                                 {json{{"k", -1}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 6}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 1.5}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 1}}, "params.m"},
                                                 {json{{"k", 1}, {"m", 0}}, "params.m"},
                                                 {json{{"k", 1}, {"m", 64}}, "params.m"},
                                                 {json{{"k", 1}, {"m", uint64_t{1} << 63}}, "params.m"},
                                                 {json{{"k", 5}, {"m", 2}}, "params.m"},
                                                 {json::array(), "params"}}) {
    auto result = r.prove(params, SolverLimits{});
    ASSERT_FALSE(result.ok()) << params.dump();
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument) << params.dump();
    EXPECT_NE(result.error().message.find(name), std::string::npos) << params.dump() << ": " << result.error().message;
  }
}

TEST(MetacubeSmt, TinyRlimitOrTimeoutIsUnknownNeverProved) {
  const MetacubeSmtResult tiny = prove_alg4(2, 1, options("paper"), Thm2Part::kLength, SolverLimits{1, 0});
  EXPECT_EQ(tiny.status, SmtStatus::kUnknown) << to_string(tiny.status);
  EXPECT_FALSE(tiny.s);
  const MetacubeSmtResult timed = prove_alg4_commutes(2, 2, options("paper-keybit-example4"), SolverLimits{0, 1});
  EXPECT_EQ(timed.status, SmtStatus::kUnknown) << to_string(timed.status);
  EXPECT_EQ(prove_automorphism(2, 2, SolverLimits{1, 0}).status, SmtStatus::kUnknown);

  const claims::MethodResult r = alg4_smt_method_result(2, 1, "paper", Thm2Part::kLength, SolverLimits{1, 0});
  EXPECT_EQ(r.outcome, Outcome::kInconclusive);
  EXPECT_NE(r.detail.find("MC(2,1)"), std::string::npos) << r.detail;
}

// The rlimit is deterministic and bounds the whole call (every split and group together).
TEST(MetacubeSmt, RlimitIsDeterministicAndBoundsTheWholeProof) {
  const Alg4Options o = options("paper");
  const MetacubeSmtResult first = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{});
  const MetacubeSmtResult second = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{});
  ASSERT_EQ(first.status, SmtStatus::kProved) << first.reason;
  ASSERT_GT(first.rlimit_used, 0u);
  EXPECT_EQ(first.rlimit_used, second.rlimit_used);
  const MetacubeSmtResult half = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{first.rlimit_used / 2, 0});
  EXPECT_EQ(half.status, SmtStatus::kUnknown) << to_string(half.status);
  const MetacubeSmtResult ample = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{2 * first.rlimit_used, 0});
  EXPECT_EQ(ample.status, SmtStatus::kProved) << ample.reason;
  EXPECT_EQ(ample.rlimit_used, first.rlimit_used);
}

// Not a check: prints what each decision costs (rlimit units, seconds) for the metacubes of the
// deep SMT scope, to keep smt/metacube_smt.h's table and catalog/metacube/scope.h's budgets measured. Run
// with --gtest_also_run_disabled_tests --gtest_filter=*MeasureCosts (TC_SMT_SIZES="k,m;k,m" to
// choose the metacubes).
TEST(MetacubeSmtCosts, DISABLED_MeasureCosts) {
  std::vector<KM> sizes = claims::metacube_scope::kSmt.deep;
  if (const char* env = std::getenv("TC_SMT_SIZES")) {
    sizes.clear();
    int k = 0, m = 0, used = 0;
    for (const char* p = env; std::sscanf(p, "%d,%d%n", &k, &m, &used) == 2; p += used + (p[used] == ';')) {
      sizes.push_back({k, m});
      if (p[used] != ';') break;
    }
  }
  const SolverLimits unlimited{};
  for (auto [k, m] : sizes)
    for (const char* reading : kReadings) {
      const Alg4Options o = options(reading);
      for (int p = 0; p < 6; ++p) {
        if (p == 5 && std::string_view(reading) != "paper") continue;
        const auto start = std::chrono::steady_clock::now();
        const MetacubeSmtResult r = p < 4    ? prove_alg4(k, m, o, kParts[static_cast<size_t>(p)], unlimited)
                                    : p == 4 ? prove_alg4_commutes(k, m, o, unlimited)
                                             : prove_automorphism(k, m, unlimited);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("MC(%d,%d) %-22s %-11s %-14s rlimit %8.1f M  checks %4llu  %7.2f s  %s %s %s\n", k, m, reading,
                    p < 4 ? kPartNames[static_cast<size_t>(p)] : p == 4 ? "commutes" : "automorph.",
                    to_string(r.status).c_str(), static_cast<double>(r.rlimit_used) / 1e6,
                    static_cast<unsigned long long>(r.checks), seconds, r.s ? r.s->to_string().c_str() : "",
                    r.t ? r.t->to_string().c_str() : "", r.minimized ? "(minimized)" : "");
        std::fflush(stdout);
      }
    }
}

}  // namespace
}  // namespace topocheck::smt
