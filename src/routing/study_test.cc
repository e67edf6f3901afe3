#include "routing/study.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace topocheck::routing {
namespace {

using ::testing::HasSubstr;

// A study with hand-set means: static = `st`, dynamic = `dy` per scheme, uni = bi * (1 - gain).
StudyResult synthetic(double st, double dy, double gain, char best = 'E', double best_mean = 0) {
  StudyResult s;
  s.network = "Q_8";
  s.workload = "synthetic";
  s.config.reps = 10;
  // Deliberate twin of src/routing/study.cc:run_study: the expected 44 cases, built independently
  // of the study in its order.
  for (LinkKind k : {LinkKind::kBidirectional, LinkKind::kUnidirectional})
    for (Routing r : {Routing::kStatic, Routing::kDynamic})
      for (char sc : kSchemes) {
        CaseStats c;
        c.routing = r;
        c.links = k;
        c.scheme = sc;
        c.mean = r == Routing::kStatic ? st : dy;
        if (sc == best && best_mean > 0 && r == Routing::kDynamic) c.mean = best_mean;
        if (k == LinkKind::kUnidirectional) c.mean *= 1 - gain;
        s.cases.push_back(c);
      }
  return s;
}

TEST(RoutingStudy, TQuantilesAreStudentsTable) {
  EXPECT_DOUBLE_EQ(t975(1), 12.706);
  EXPECT_DOUBLE_EQ(t975(9), 2.262);
  EXPECT_DOUBLE_EQ(t975(30), 2.042);
  EXPECT_DOUBLE_EQ(t975(31), 1.96);
}

// Each finding's evaluation can fail: negative controls on hand-made studies.
TEST(RoutingStudy, DynamicFasterFailsWhenDynamicIsNotFaster) {
  EXPECT_TRUE(evaluate_finding("dynamic_faster", synthetic(200, 100, 0.05)).reproduced);
  EXPECT_FALSE(evaluate_finding("dynamic_faster", synthetic(100, 100, 0.05)).reproduced);
  EXPECT_FALSE(evaluate_finding("dynamic_faster", synthetic(100, 120, 0.05)).reproduced);
}

TEST(RoutingStudy, FactorTwoNeedsTheBestRatioWithinTwentyPerCentOfTwo) {
  EXPECT_TRUE(evaluate_finding("factor_two", synthetic(200, 100, 0.05)).reproduced);
  EXPECT_TRUE(evaluate_finding("factor_two", synthetic(160, 100, 0.05)).reproduced);
  EXPECT_FALSE(evaluate_finding("factor_two", synthetic(159, 100, 0.05)).reproduced);
  EXPECT_FALSE(evaluate_finding("factor_two", synthetic(300, 100, 0.05)).reproduced);
}

TEST(RoutingStudy, SchemeEBestNeedsEFastestAndAAndCClose) {
  // All equal: E ties with the fastest, A and C equal E.
  EXPECT_TRUE(evaluate_finding("scheme_e_best", synthetic(200, 100, 0.05)).reproduced);
  // E clearly fastest, A and C 25% behind: "almost as good" fails.
  EXPECT_FALSE(evaluate_finding("scheme_e_best", synthetic(200, 100, 0.05, 'E', 80)).reproduced);
  // C fastest by 20%: E is not best.
  const Finding f = evaluate_finding("scheme_e_best", synthetic(200, 100, 0.05, 'C', 80));
  EXPECT_FALSE(f.reproduced);
  EXPECT_THAT(f.detail, HasSubstr("fastest case dynamic/uni/C"));
}

TEST(RoutingStudy, UniGainFailsOnALargeGainOrAWorseUniLink) {
  EXPECT_TRUE(evaluate_finding("uni_gain", synthetic(200, 100, 0.05)).reproduced);
  EXPECT_FALSE(evaluate_finding("uni_gain", synthetic(200, 100, 0.20)).reproduced);   // all above 15%
  EXPECT_FALSE(evaluate_finding("uni_gain", synthetic(200, 100, 0.08)).reproduced);   // median 8% >= 7.5%
  EXPECT_FALSE(evaluate_finding("uni_gain", synthetic(200, 100, -0.02)).reproduced);  // uni 2% slower
}

TEST(RoutingStudy, ASmallStudyIsDeterministicAndJudgedRunByRun) {
  auto net = Network::hypercube(4);
  auto w = builtin_workload("gauss", 16, 2);
  ASSERT_TRUE(w.ok());
  StudyConfig sc;
  sc.reps = 3;
  sc.check_traces = true;  // every run judged by the trace checker
  sc.jobs = 2;
  auto a = run_study(*net, *w, sc);
  ASSERT_TRUE(a.ok()) << a.error().message;
  sc.jobs = 1;
  auto b = run_study(*net, *w, sc);
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(a->cases.size(), 44u);
  for (size_t i = 0; i < 44; ++i) EXPECT_EQ(a->cases[i].times, b->cases[i].times) << a->cases[i].label();
  EXPECT_EQ(a->cases[0].label(), "static/bi/A");
  EXPECT_EQ(a->cases[43].label(), "dynamic/uni/K");
  const nlohmann::json j = to_json(*a);
  EXPECT_EQ(j.at("cases").size(), 44u);
  EXPECT_EQ(j.at("findings").size(), 4u);
}

TEST(RoutingStudy, FiguresAreCompleteSvgWithOneBarPairPerScheme) {
  auto net = Network::hypercube(3);
  auto w = builtin_workload("layered", 8, 1);
  StudyConfig sc;
  sc.reps = 2;
  auto s = run_study(*net, *w, sc);
  ASSERT_TRUE(s.ok());
  for (int fig = 3; fig <= 5; ++fig) {
    const std::string svg = figure_svg(*s, fig);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_THAT(svg, HasSubstr("</svg>"));
    size_t bars = 0;
    for (size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++bars;
    EXPECT_EQ(bars, 22u + 2u) << fig;  // 11 schemes x 2 bars, plus 2 legend swatches
    EXPECT_THAT(svg, HasSubstr("Figure " + std::to_string(fig)));
  }
}

TEST(RoutingStudy, RejectsBadRepetitionsAndJobs) {
  auto net = Network::hypercube(3);
  auto w = builtin_workload("gauss", 8, 1);
  StudyConfig sc;
  sc.reps = 1;
  EXPECT_THAT(run_study(*net, *w, sc).error().message, HasSubstr("--reps"));
  sc.reps = 2;
  sc.jobs = 0;
  EXPECT_THAT(run_study(*net, *w, sc).error().message, HasSubstr("--jobs"));
}

}  // namespace
}  // namespace topocheck::routing
