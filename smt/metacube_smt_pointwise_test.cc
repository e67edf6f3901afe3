// The SMT encoding of the Metacube claims evaluated pointwise (Alg4EncodingEvaluator): at every
// concrete input it IS the construction (node for node) and the checkers' predicates, for the
// readings and the negative controls, under every enumerable choice of Algorithm 4's open
// options; the compiled engine equals Z3's evaluator; the encoded edge and commutation are the
// metacube's. Suites MetacubeSmt, MetacubeSmtMC22, MetacubeSmtDeep (see metacube_smt_test.cc).
#include "smt/metacube_smt.h"

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "smt/metacube_smt_test_support.h"

namespace topocheck::smt {
namespace {

using namespace metacube_smt_test;

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

}  // namespace
}  // namespace topocheck::smt
