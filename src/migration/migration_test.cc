// Unit tests of the migration construction and its checkers. The Fig. 2 values below are test
// data (the paper's printed example), never inputs of the construction.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "migration/migration_oracle.h"
#include "migration/packings.h"

namespace topocheck::migration {
namespace {

Node N(const char* s) { return *parse_node(s); }
Path P(const char* s) { return *parse_path(s); }

struct Fig2 {
  Instance inst = *parse_instance("0010**", "1*0*00");
  Alpha alpha = *parse_alpha(inst, "0:2,1:4");
};

TEST(MigrationSets, Fig2Sets) {
  Fig2 x;
  EXPECT_EQ(dims_to_string(x.inst.C), "{5, 3}");
  EXPECT_EQ(dims_to_string(x.inst.DSmT), "{1, 0}");
  EXPECT_EQ(dims_to_string(x.inst.DTmS), "{4, 2}");
  EXPECT_EQ(x.inst.I, 0u);
  EXPECT_EQ(x.inst.zeta(), 2);
  EXPECT_EQ(x.inst.beta(), 2);
}

TEST(MigrationIsomorphisms, Fig2ValuesPinTheBars) {
  Fig2 x;
  const Node u = N("001011"), v = N("001000");
  EXPECT_EQ(f(x.inst, x.alpha, u), N("100000"));
  EXPECT_EQ(g(x.inst, x.alpha, u), N("110100"));
  EXPECT_EQ(f(x.inst, x.alpha, v), N("110100"));
  EXPECT_EQ(g(x.inst, x.alpha, v), N("100000"));
  int reproducing = 0;
  for (Bars b : all_bars())
    reproducing += f(x.inst, x.alpha, u, b) == N("100000") && g(x.inst, x.alpha, u, b) == N("110100") &&
                   f(x.inst, x.alpha, v, b) == N("110100") && g(x.inst, x.alpha, v, b) == N("100000");
  EXPECT_EQ(reproducing, 1);
  const DSets du = d_sets(x.inst, x.alpha, u);
  EXPECT_EQ(dims_to_string(du.f_S), "{1, 0}");
  EXPECT_EQ(dims_to_string(du.f_T), "{}");
  EXPECT_EQ(dims_to_string(du.g_S), "{1, 0}");
  EXPECT_EQ(dims_to_string(du.g_T), "{4, 2}");
  const DSets dv = d_sets(x.inst, x.alpha, v);
  EXPECT_EQ(dims_to_string(dv.f_S), "{}");
  EXPECT_EQ(dims_to_string(dv.f_T), "{4, 2}");
  EXPECT_EQ(dv.g_S, 0u);
  EXPECT_EQ(dv.g_T, 0u);
  EXPECT_EQ(h(x.inst, f(x.inst, x.alpha, u)), g(x.inst, x.alpha, u));
}

TEST(MigrationPaths, PathKinds) {
  Fig2 x;
  const Node u = N("001011");
  const Path aggressive = P("001011:001111:011111:111111:110111:110101:110100");
  EXPECT_TRUE(is_aggressive(x.inst, x.alpha, Bars::paper(), aggressive, u));
  const Path regular = P("001011:101011:100011:100001:100000");
  EXPECT_TRUE(is_regular(x.inst, x.alpha, Bars::paper(), RegularReading::kF, regular, u));
  // A D(S) link first: not regular, not aggressive.
  EXPECT_FALSE(is_regular(x.inst, x.alpha, Bars::paper(), RegularReading::kF, P("001011:001010:101010:100010:100000"), u));
  EXPECT_FALSE(is_aggressive(x.inst, x.alpha, Bars::paper(), P("001011:001010:001110:011110:111110:110110:110100"), u));
  EXPECT_EQ(hamming_paths(N("000"), N("011")).size(), 2u);
  EXPECT_FALSE(is_hamming_path(P("000:001:000:010:011"), N("000"), N("011")));
}

TEST(MigrationHammingPath, TieBreakAndBlocks) {
  const Blocks none;
  EXPECT_EQ(*hamming_path(N("000"), N("011"), none, TieBreak::kAscending), P("000:001:011"));
  EXPECT_EQ(*hamming_path(N("000"), N("011"), none, TieBreak::kDescending), P("000:010:011"));
  const Blocks b = {*parse_subcube("0*1")};  // blocks link 001-011
  EXPECT_EQ(*hamming_path(N("000"), N("011"), b, TieBreak::kAscending), P("000:010:011"));
  const Blocks both = {*parse_subcube("0*1"), *parse_subcube("01*")};
  EXPECT_FALSE(hamming_path(N("000"), N("011"), both, TieBreak::kAscending).has_value());
}

TEST(MigrationInput, ErrorsNameTheArgument) {
  EXPECT_FALSE(parse_instance("0010**", "1*0*0").ok());
  EXPECT_FALSE(parse_instance("0010**", "1*0000").ok());
  auto inst = *parse_instance("0010**", "1*0*00");
  EXPECT_NE(parse_alpha(inst, "0:2").error().message.find("--alpha"), std::string::npos);
  EXPECT_FALSE(parse_alpha(inst, "0:2,1:2").ok());
  EXPECT_FALSE(parse_alpha(inst, "0:3,1:4").ok());
  EXPECT_NE(parse_blocks(inst, "0010*0").error().message.find("meets S"), std::string::npos);
  EXPECT_FALSE(parse_blocks(inst, "01****,0*1***").ok());  // overlapping blocks
  EXPECT_TRUE(parse_blocks(inst, "01****").ok());
  EXPECT_FALSE(parse_sequence(inst, "2").ok());
  EXPECT_TRUE(parse_sequence(inst, "4,2").ok());
  // Fields set one by one: designated initializers trip -Wmissing-field-initializers under -Werror.
  auto flag_of = [&](std::string ParamsText::*field, const char* value) {
    ParamsText t;
    t.*field = value;
    return parse_params(inst, t).error().message.substr(0, 5);
  };
  EXPECT_EQ(flag_of(&ParamsText::k, "1"), "--k: ");
  EXPECT_EQ(flag_of(&ParamsText::pick_p, "middle"), "--pic");
  EXPECT_EQ(flag_of(&ParamsText::x, "D_h"), "--x: ");
  EXPECT_EQ(flag_of(&ParamsText::bars, "f:="), "--bar");
  EXPECT_EQ(flag_of(&ParamsText::tie_break, "random"), "--tie");
  ParamsText text;
  text.alpha = "0:4,1:2";
  text.sequence = "4,2";
  text.k = "3";
  text.bars = "f:!=,g:=";
  auto p = parse_params(inst, text);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->k, 3);
  EXPECT_EQ(p->bars.reading_name(), "bars-fne-geq");
  EXPECT_EQ(Bars::paper().reading_name(), "bars-fig2");
}

// Without blocks the Fig. 2 instance shows what the disjointness readings mean: the h-extensions
// of 001001 and 001011 use link 100100-110100 in opposite directions (Lemma 3's paths z -> h(z)
// and h(z) -> z), and 001010's extension passes through g(001000) = 100000. Only the
// directed-link reading holds.
TEST(MigrationProcedure, Fig2WithoutBlocksIsComplete) {
  Fig2 x;
  Params p = default_params(x.inst);
  p.alpha = x.alpha;
  p.ext_sequence = {2, 4};
  const Plan plan = migrate(x.inst, {}, p);
  ASSERT_EQ(plan.nodes.size(), 4u);
  EXPECT_FALSE(check_plan_paths_valid(plan));
  EXPECT_FALSE(check_plan_complete(plan));
  for (Disjointness d : kAllDisjointness) EXPECT_FALSE(check_plan_pairs_disjoint(plan, d)) << to_string(d);
  EXPECT_TRUE(check_plan_all_disjoint(plan, Disjointness::kNode));
  EXPECT_TRUE(check_plan_all_disjoint(plan, Disjointness::kLink));
  EXPECT_FALSE(check_plan_all_disjoint(plan, Disjointness::kDirectedLink));
  EXPECT_FALSE(check_plan_t_links(plan));
  EXPECT_FALSE(check_plan_length(plan));
  // v = 001000 is Case b: the printed L^1, L^2 (k = 5 last / first) with k = 5.
  p.k = 5;
  const Plan plan5 = migrate(x.inst, {}, p);
  EXPECT_EQ(plan5.nodes[0].paths[0].path, P("001000:000000:100000"));
  EXPECT_EQ(plan5.nodes[0].paths[1].path, P("001000:101000:100000"));
}

// The text form's header names the instance, the parameters and the blocks ("none" without any).
TEST(MigrationProcedure, TextFormNamesTheBlocks) {
  Fig2 x;
  Params p = default_params(x.inst);
  p.alpha = x.alpha;
  const Plan plan = migrate(x.inst, {}, p);
  const std::string text = plan.to_text();
  EXPECT_EQ(text.rfind("S = 0010**  T = 1*0*00  C = {5, 3}", 0), 0u) << text;
  EXPECT_NE(text.find("  blocks none\n"), std::string::npos) << text;
  Plan blocked = plan;
  blocked.blocks = {*parse_subcube("11****", 6)};
  const std::string with = blocked.to_text();
  EXPECT_EQ(with.find("blocks none"), std::string::npos) << with;
  EXPECT_NE(with.find("  blocks 11****"), std::string::npos) << with;
}

// Negative controls: each plan checker rejects a deliberately broken plan.
TEST(MigrationCheckers, NegativeControls) {
  Fig2 x;
  Params p = default_params(x.inst);
  p.alpha = x.alpha;
  const Plan good = migrate(x.inst, {}, p);
  {
    Plan bad = good;  // a path ending at f(u) instead of g(u)
    bad.nodes[3].paths[1].path.nodes.resize(bad.nodes[3].paths[1].path.nodes.size() - 1);
    EXPECT_TRUE(check_plan_paths_valid(bad));
  }
  {
    Plan bad = good;  // a missing path
    bad.nodes[3].paths.pop_back();
    const auto v = check_plan_complete(bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_THAT(*v, testing::HasSubstr(": 1 path ("));  // one path, singular
  }
  {
    Plan bad = good;  // both paths the same
    bad.nodes[3].paths[1] = bad.nodes[3].paths[0];
    for (Disjointness d : kAllDisjointness) EXPECT_TRUE(check_plan_pairs_disjoint(bad, d));
  }
  {
    Plan bad = good;  // two nodes' paths share a node and a link: node 001001's aggressive path copied onto 001010
    bad.nodes[2].paths[0] = bad.nodes[1].paths[0];
    for (Disjointness d : kAllDisjointness) EXPECT_TRUE(check_plan_all_disjoint(bad, d)) << to_string(d);
  }
  {
    Plan bad = good;  // a block over a used link
    const Path& path = bad.nodes[3].paths[0].path;
    bad.blocks = {Subcube{(path.nodes[1].bits ^ path.nodes[2].bits), path.nodes[1].bits & ~(path.nodes[1].bits ^ path.nodes[2].bits), 6}};
    EXPECT_TRUE(check_plan_no_block_link(bad));
  }
  {
    Plan bad = good;  // a block over a path's last link
    const Path& path = bad.nodes[3].paths[0].path;
    const size_t last = path.nodes.size() - 1;
    const uint64_t dim = path.nodes[last - 1].bits ^ path.nodes[last].bits;
    bad.blocks = {Subcube{dim, path.nodes[last].bits & ~dim, 6}};
    EXPECT_THAT(check_plan_no_block_link(bad), testing::Optional(testing::HasSubstr("of block")));
  }
  {
    Plan bad = good;  // the extension marked as not an extension: T links outside it
    bad.nodes[3].paths[1].ext_begin = -1;
    EXPECT_TRUE(check_plan_t_links(bad));
  }
  {
    // A link of T (100000-110000, both in 1*0*00) in the middle of a path, its neighbours outside
    // T: found, and named by its two ends.
    Plan bad = good;
    bad.nodes[3].paths[1] = MigrationPath{bad.nodes[3].paths[1].kind, P("100001:100000:110000:110001"), -1};
    const auto v = check_plan_t_links(bad);
    ASSERT_TRUE(v.has_value());
    EXPECT_THAT(*v, testing::HasSubstr("uses link 100000-110000 of T"));
  }
  {
    Plan ok = good;  // an extension from the first link on: its links of T are allowed
    ok.nodes[3].paths[1] = MigrationPath{ok.nodes[3].paths[1].kind, P("100000:110000"), 0};
    EXPECT_EQ(check_plan_t_links(ok), std::nullopt);
  }
  {
    Plan ok = good;  // through a node of T (1*0*00) and out again: no link of T is used
    ok.nodes[3].paths[1] = MigrationPath{ok.nodes[3].paths[1].kind, P("100001:100000:100010"), -1};
    EXPECT_EQ(check_plan_t_links(ok), std::nullopt);
  }
  {
    Plan bad = good;  // a detour: too long
    Path& path = bad.nodes[3].paths[0].path;
    path.nodes.insert(path.nodes.begin() + 1, {path.nodes[0].flip(5), path.nodes[0]});
    EXPECT_TRUE(check_plan_length(bad));
  }
}

TEST(MigrationSection42, SpecificNodes) {
  // |C| = 1: S = 0**, T = 1** would be beta = 0; take S = 00*, T = 1*0 (C = {2}, beta = 1).
  auto inst = *parse_instance("00*", "1*0");
  EXPECT_EQ(inst.zeta(), 1);
  Params p = default_params(inst);
  const Plan plan = migrate(inst, {}, p);
  EXPECT_TRUE(plan.section_42);
  ASSERT_EQ(plan.bs.size(), 1u);
  EXPECT_FALSE(check_plan_paths_valid(plan)) << plan.to_text();
  // beta = 0 with |C| = 1: the second path is reported absent, and the BFS oracle decides.
  auto inst0 = *parse_instance("0*", "1*");
  const Plan plan0 = migrate(inst0, {}, default_params(inst0));
  ASSERT_EQ(plan0.nodes.size(), 2u);
  EXPECT_TRUE(plan0.nodes[0].second_absent);
  EXPECT_TRUE(check_plan_complete(plan0));
  EXPECT_FALSE(second_path_with_others_fixed(plan0, 0, Disjointness::kNode).has_value());
  EXPECT_EQ(isolated_disjoint_paths(plan0, 0), 2);
}

}  // namespace
}  // namespace topocheck::migration

namespace topocheck::migration {
namespace {

// The relevance reduction of packings.h (the sweeps now go by plan class, plan_classes.h): every packing P gives the same plan, and the
// same plan-checker verdicts, as its part that meets a HAMMING-PATH span; checked for every
// packing of every instance up to n = 4 under every alpha, sequence, tie-break, k, p and X.
TEST(MigrationPackings, RelevantPartGivesTheSamePlanAndVerdicts) {
  uint64_t packings = 0, plans = 0;
  for (int n = 1; n <= 4; ++n)
    for (int d = 0; d <= n; ++d)
      for (const Subcube& S : subcubes(n, d))
        for (const Subcube& T : subcubes(n, d)) {
          if (S == T) continue;
          const Instance inst = *make_instance(S, T);
          const auto spans = hamming_spans(inst);
          for_each_packing(inst, [&](const Blocks& blocks) -> bool {
            ++packings;
            Blocks relevant;
            for (const Subcube& b : blocks)
              if (meets_a_span(b, spans)) relevant.push_back(b);
            for (const Alpha& alpha : all_alphas(inst)) {
              Params p = default_params(inst);
              p.alpha = alpha;
              for (TieBreak tie : {TieBreak::kAscending, TieBreak::kDescending})
                for (XReading x : {XReading::kDg, XReading::kDf}) {
                  p.tie = tie;
                  p.x_reading = x;
                  p.pick_p = x == XReading::kDg ? PickP::kFirst : PickP::kLast;
                  const Plan full = migrate(inst, blocks, p), part = migrate(inst, relevant, p);
                  ++plans;
                  EXPECT_EQ(full.nodes.size(), part.nodes.size());
                  if (full.nodes.size() != part.nodes.size()) return true;
                  for (size_t i = 0; i < full.nodes.size(); ++i) {
                    if (full.nodes[i].paths.size() != part.nodes[i].paths.size()) return true;
                    EXPECT_EQ(full.nodes[i].paths.size(), part.nodes[i].paths.size()) << S << " " << T;
                    for (size_t j = 0; j < full.nodes[i].paths.size(); ++j)
                      EXPECT_EQ(full.nodes[i].paths[j].path, part.nodes[i].paths[j].path) << S << " " << T;
                    EXPECT_EQ(full.nodes[i].missing, part.nodes[i].missing);
                  }
                  EXPECT_EQ(check_plan_no_block_link(full).has_value(), check_plan_no_block_link(part).has_value());
                  if (::testing::Test::HasFailure()) return true;
                }
            }
            return false;
          });
        }
  EXPECT_GT(packings, 100000u);
  std::printf("%llu packings, %llu plans compared\n", static_cast<unsigned long long>(packings),
              static_cast<unsigned long long>(plans));
}

// Section 4.2's broadcast sequence is q's choice ("(in any sequence)"): the stored directed-link
// collision of thm2.all_disjoint (S = 000**, T = 1**00) appears with the sequence 2,3 and not
// with 3,2, nor under the policy x-last (q lists X = D_g(T|p) last, decided after p).
TEST(MigrationSequencePolicy, TheStoredCollisionDependsOnTheSequence) {
  const Instance inst = *parse_instance("000**", "1**00");
  Params p = *parse_params(inst, {"0:2,1:3", "2,3", "", "", "", "D_g", "", ""});
  const auto collides = [&](const Params& params) {
    return check_plan_all_disjoint(migrate(inst, {}, params), Disjointness::kDirectedLink).has_value();
  };
  EXPECT_TRUE(collides(p));
  p.ext_sequence = {3, 2};
  EXPECT_FALSE(collides(p));
  p.ext_sequence = {2, 3};
  p.seq_policy = SequencePolicy::kXLast;
  EXPECT_FALSE(collides(p));
  const Plan plan = migrate(inst, {}, p);
  ASSERT_FALSE(plan.bs.empty());
  EXPECT_EQ(plan.bs[0].sequence, (std::vector<int>{3, 2}));  // X = {2} last
  EXPECT_EQ(apply_sequence_policy(SequencePolicy::kXFirst, {0, 1, 2, 3}, 0b1010), (std::vector<int>{1, 3, 0, 2}));
  EXPECT_EQ(apply_sequence_policy(SequencePolicy::kXLast, {0, 1, 2, 3}, 0b1010), (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(apply_sequence_policy(SequencePolicy::kAsGiven, {3, 1}, 0b1010), (std::vector<int>{3, 1}));
}

// A disjointness claim is refuted by its own property only: a path that is not simple (validity's
// failure) but shares nothing with the other paths is no disjointness violation (negative
// control), while a shared internal node, link or directed link is.
TEST(MigrationChecks, DisjointnessIsJudgedOnItsOwnProperty) {
  const Instance inst = *parse_instance("0*", "1*");
  Plan plan = migrate(inst, {}, default_params(inst));
  // Replace the paths by hand-made ones: node 00's path revisits 10 (not simple), node 01's is apart.
  for (NodePlan& np : plan.nodes) np.paths.clear();
  plan.nodes[0].paths.push_back({PathKind::kAggressive, P("00:10:00:10"), -1});
  plan.nodes[1].paths.push_back({PathKind::kAggressive, P("01:11"), -1});
  EXPECT_TRUE(check_plan_paths_valid(plan).has_value());
  for (Disjointness d : kAllDisjointness) {
    EXPECT_FALSE(check_plan_all_disjoint(plan, d).has_value()) << to_string(d);
    EXPECT_FALSE(check_plan_pairs_disjoint(plan, d).has_value()) << to_string(d);
  }
  // Positive control: 01:00:10:11 shares node 00 (internal to it) and link 00-10, in the same direction.
  plan.nodes[1].paths[0].path = P("01:00:10:11");
  for (Disjointness d : kAllDisjointness) EXPECT_TRUE(check_plan_all_disjoint(plan, d).has_value()) << to_string(d);
}

}  // namespace
}  // namespace topocheck::migration
