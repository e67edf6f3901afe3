#include "routing/study.h"

#include <cmath>
#include <string>
#include <vector>

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

// ---- a finding over several studies: the 95% t interval decides (negative controls) ---------

Finding with_figure(double value, double lo, double hi) {
  Finding f;
  f.name = "synthetic";
  f.figures = {{"figure", value, lo, hi}};
  f.reproduced = value >= lo && value <= hi;
  return f;
}

StudiesVerdict over(const std::vector<double>& values, double lo, double hi) {
  std::vector<Finding> per;
  for (double v : values) per.push_back(with_figure(v, lo, hi));
  return decide_over_studies(per).verdict;
}

TEST(StatisticsTest, MeanIntervalIsTheStudentT) {
  // mean 2, sd 1 (values 1, 2, 3): half-width t_{0.975,2} / sqrt(3) = 4.303 / 1.732.
  const MeanInterval m = mean_ci95({1, 2, 3});
  EXPECT_DOUBLE_EQ(m.mean, 2);
  EXPECT_DOUBLE_EQ(m.sd, 1);
  EXPECT_NEAR(m.half, 4.303 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(locate(m, -1, 10), IntervalSide::kInside);  // [-0.48, 4.48]
  EXPECT_EQ(locate(m, 5, 10), IntervalSide::kOutside);
  EXPECT_EQ(locate(m, 2, 10), IntervalSide::kStraddles);
  EXPECT_EQ(locate(m, -kNoBound, -1), IntervalSide::kOutside);
}

TEST(StudiesVerdictTest, ClearlyViolatingSeedsAreRefuted) {
  // factor_two's region [1.6, 2.4]; per-seed figures all near 1.25 (the layered workload's).
  EXPECT_EQ(over({1.21, 1.26, 1.30, 1.24, 1.27}, 1.6, 2.4), StudiesVerdict::kNotReproduced);
  // min gain >= -1 with every seed near -5.
  EXPECT_EQ(over({-5.1, -4.8, -5.3, -4.9, -5.0}, -1, kNoBound), StudiesVerdict::kNotReproduced);
}

TEST(StudiesVerdictTest, StraddlingSeedsAreInconclusive) {
  // One seed at 1.59 among 1.69..1.95: the point verdict "refuted" was noise.
  EXPECT_EQ(over({1.69, 1.95, 1.80, 1.59, 1.75}, 1.6, 2.4), StudiesVerdict::kInconclusive);
  // Gains around -1 on both sides.
  EXPECT_EQ(over({-0.5, -1.2, -1.9, -1.3, -0.2}, -1, kNoBound), StudiesVerdict::kInconclusive);
}

TEST(StudiesVerdictTest, ClearlyInsideIsReproduced) {
  EXPECT_EQ(over({1.9, 2.0, 2.1, 1.95, 2.05}, 1.6, 2.4), StudiesVerdict::kReproduced);
  // A constant figure has a zero-width interval.
  EXPECT_EQ(over({0, 0, 0, 0, 0}, -kNoBound, 3), StudiesVerdict::kReproduced);
}

TEST(StudiesVerdictTest, OneFigureOutsideRefutesWhateverTheOthers) {
  std::vector<Finding> per;
  for (double v : {10.0, 11.0, 12.0}) {
    Finding f;
    f.name = "two";
    f.figures = {{"inside", 0.5, 0, 1}, {"outside", v, -kNoBound, 3}};
    per.push_back(f);
  }
  const FindingOverStudies d = decide_over_studies(per);
  EXPECT_EQ(d.verdict, StudiesVerdict::kNotReproduced);
  EXPECT_THAT(d.detail, HasSubstr("outside"));
  EXPECT_EQ(d.figures.at(0).side, IntervalSide::kInside);
}

TEST(StudiesVerdictTest, EveryFindingNamesItsFigures) {
  const StudyResult s = synthetic(100, 60, 0.05);
  for (const Finding& f : evaluate_findings(s)) {
    ASSERT_FALSE(f.figures.empty()) << f.name;
    bool all_in = true;
    for (const FindingFigure& fig : f.figures) all_in = all_in && fig.value >= fig.lo && fig.value <= fig.hi;
    // The point verdict and the figures agree (up to the strict/inclusive end).
    EXPECT_EQ(all_in, f.reproduced) << f.name;
  }
}

}  // namespace
}  // namespace topocheck::routing
