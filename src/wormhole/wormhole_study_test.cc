#include "wormhole/wormhole_study.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "network/rng.h"
#include "network/statistics.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::routing {
namespace {

using Pairs = std::set<std::pair<NodeId, NodeId>>;

Pairs pairs_of(const std::vector<WormMessage>& ms) {
  Pairs out;
  for (const WormMessage& m : ms) out.emplace(m.src, m.dst);
  return out;
}

Network net_of(const itm::Graph& g, const std::string& name) {
  auto net = network_of(g, name);
  EXPECT_TRUE(net.ok()) << (net.ok() ? "" : net.error().message);
  return std::move(net).value();
}

// ---------------------------------------------------------------------------------------------
// Traffic generators.

TEST(UniformTraffic, IsAFunctionOfItsSeed) {
  const auto a = uniform_traffic(12, 0.3, 4, 500, 7);
  const auto b = uniform_traffic(12, 0.3, 4, 500, 7);
  const auto c = uniform_traffic(12, 0.3, 4, 500, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(UniformTraffic, WormsAreWellFormedAndListedByCreatedThenSource) {
  const uint32_t n = 9, cycles = 400, length = 3;
  const auto ms = uniform_traffic(n, 0.5, length, cycles, 3);
  ASSERT_FALSE(ms.empty());
  for (size_t i = 0; i < ms.size(); ++i) {
    EXPECT_LT(ms[i].src, n);
    EXPECT_LT(ms[i].dst, n);
    EXPECT_NE(ms[i].src, ms[i].dst);
    EXPECT_EQ(ms[i].length, length);
    EXPECT_LT(ms[i].created, cycles);
    if (i > 0) {
      EXPECT_LT(std::make_pair(ms[i - 1].created, ms[i - 1].src), std::make_pair(ms[i].created, ms[i].src));
    }
  }
}

TEST(UniformTraffic, OffersTheLoadAndSpreadsDestinationsEvenly) {
  const uint32_t n = 16, cycles = 5000, length = 4;
  const double load = 0.4;  // 0.1 worms per node and cycle: 8000 expected
  const auto ms = uniform_traffic(n, load, length, cycles, 11);
  const double rate = static_cast<double>(ms.size()) * length / (n * cycles);
  EXPECT_NEAR(rate, load, 0.03 * load);  // sd of the worm count is about 1.1%
  std::vector<int> to(n, 0), from(n, 0);
  for (const WormMessage& m : ms) ++to[m.dst], ++from[m.src];
  const double expected = static_cast<double>(ms.size()) / n;  // 500
  for (uint32_t v = 0; v < n; ++v) {
    EXPECT_NEAR(to[v], expected, 0.2 * expected) << "destination " << v;  // 4.5 sd
    EXPECT_NEAR(from[v], expected, 0.2 * expected) << "source " << v;
  }
}

TEST(UniformTraffic, DrawsOneUnitPerNodeAndCycleThenTheDestination) {
  // Load 1 with one-flit worms: every node creates a worm every cycle, so the stream is a unit()
  // then a below(N - 1) per node and cycle, the destination skipping over the source.
  const uint32_t n = 3, cycles = 20;
  const auto ms = uniform_traffic(n, 1.0, 1, cycles, 42);
  ASSERT_EQ(ms.size(), n * cycles);
  Rng rng(42);
  size_t i = 0;
  for (uint32_t t = 0; t < cycles; ++t)
    for (NodeId s = 0; s < n; ++s, ++i) {
      (void)rng.unit();
      NodeId d = static_cast<NodeId>(rng.below(n - 1));
      if (d >= s) ++d;
      EXPECT_EQ(ms[i], (WormMessage{s, d, 1, t})) << "worm " << i;
    }
}

TEST(AdversarialTraffic, DistanceTwoOnC4IsTheFourOppositePairs) {
  const Network c4 = net_of(itm::cycle_graph(4), "C4");
  const auto ms = adversarial_traffic(c4, Pattern::kDistanceTwo, 5, 1);
  EXPECT_EQ(ms.size(), 4u);
  EXPECT_EQ(pairs_of(ms), (Pairs{{0, 2}, {1, 3}, {2, 0}, {3, 1}}));
  for (const WormMessage& m : ms) {
    EXPECT_EQ(m.length, 5u);
    EXPECT_EQ(m.created, 0u);
  }
}

TEST(AdversarialTraffic, FarthestOnTheGridGoesToTheOppositeCorners) {
  // grid 3x3, node r * 3 + c: a corner's farthest node is the opposite corner (distance 4); the
  // centre's are the four corners (2); an edge midpoint's the two far corners (3).
  const Network grid = net_of(itm::grid_graph(3, 3), "grid 3x3");
  const Pairs got = pairs_of(adversarial_traffic(grid, Pattern::kFarthest, 2, 9));
  Pairs from0, from4, from1;
  for (const auto& [a, c] : got) {
    if (a == 0) from0.emplace(a, c);
    if (a == 4) from4.emplace(a, c);
    if (a == 1) from1.emplace(a, c);
  }
  EXPECT_EQ(from0, (Pairs{{0, 8}}));
  EXPECT_EQ(from4, (Pairs{{4, 0}, {4, 2}, {4, 6}, {4, 8}}));
  EXPECT_EQ(from1, (Pairs{{1, 6}, {1, 8}}));
  // On C4 every node's eccentricity is 2: the same set as distance-two.
  const Network c4 = net_of(itm::cycle_graph(4), "C4");
  EXPECT_EQ(pairs_of(adversarial_traffic(c4, Pattern::kFarthest, 1, 1)), (Pairs{{0, 2}, {1, 3}, {2, 0}, {3, 1}}));
}

TEST(AdversarialTraffic, HotspotSendsEveryOtherNodeToTheSeedsNode) {
  const Network grid = net_of(itm::grid_graph(3, 3), "grid 3x3");
  for (uint64_t seed : {1, 2, 3, 4}) {
    const NodeId h = static_cast<NodeId>(Rng(seed).below(9));
    Pairs expected;
    for (NodeId a = 0; a < 9; ++a)
      if (a != h) expected.emplace(a, h);
    const auto ms = adversarial_traffic(grid, Pattern::kHotspot, 3, seed);
    EXPECT_EQ(ms.size(), 8u);
    EXPECT_EQ(pairs_of(ms), expected) << "seed " << seed;
  }
}

TEST(AdversarialTraffic, AllToAllIsEveryOrderedPairOnceInASeededOrder) {
  const Network c4 = net_of(itm::cycle_graph(4), "C4");
  const auto a = adversarial_traffic(c4, Pattern::kAllToAll, 2, 5);
  EXPECT_EQ(a.size(), 12u);
  EXPECT_EQ(pairs_of(a).size(), 12u);
  EXPECT_EQ(a, adversarial_traffic(c4, Pattern::kAllToAll, 2, 5));
  // The shuffle depends on the seed (12! orders: two seeds agreeing would be a broken shuffle).
  EXPECT_NE(a, adversarial_traffic(c4, Pattern::kAllToAll, 2, 6));
  EXPECT_EQ(pairs_of(a), pairs_of(adversarial_traffic(c4, Pattern::kAllToAll, 2, 6)));
}

TEST(AdversarialTraffic, PatternNamesRoundTrip) {
  for (Pattern p : kPatterns) EXPECT_EQ(parse_pattern(to_string(p)), p);
  EXPECT_EQ(to_string(Pattern::kDistanceTwo), "distance-two");
  EXPECT_EQ(to_string(Pattern::kAllToAll), "all-to-all");
  EXPECT_EQ(parse_pattern("uniform"), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// Verdict and summaries on made-up curves: the check can come out both ways.

WormCurve made_curve(int size, uint64_t seed, RoutingFamily f, Adaptivity a, std::vector<double> accepted) {
  WormCurve c;
  c.size = size;
  c.seed = seed;
  c.routing = RoutingSpec{f, a, 0};
  for (size_t i = 0; i < accepted.size(); ++i) {
    WormPoint p;
    p.k = static_cast<int>(i) + 1;
    p.load = 0.1 * p.k;
    p.offered = p.load;
    p.accepted = accepted[i];
    p.mean_latency = 10.0 * p.k;
    p.window_worms = p.window_delivered = 100;
    c.points.push_back(p);
  }
  c.saturation = saturation_throughput(c.points);
  return c;
}

constexpr auto kSp = RoutingFamily::kShortestPath;
constexpr auto kUd = RoutingFamily::kUpDown;
constexpr auto kAd = Adaptivity::kAdaptive;
constexpr auto kDet = Adaptivity::kDeterministic;

TEST(WormholeVerdict, ReproducedWhenShortestPathWinsOnEveryInstance) {
  const std::vector<WormCurve> curves = {
      made_curve(16, 1, kSp, kAd, {0.1, 0.2, 0.3, 0.25}), made_curve(16, 1, kUd, kAd, {0.1, 0.2, 0.15}),
      made_curve(16, 2, kSp, kAd, {0.1, 0.18}),           made_curve(16, 2, kUd, kAd, {0.1, 0.12, 0.09}),
  };
  const WormVerdict v = evaluate_throughput_claim(curves, kAd);
  EXPECT_TRUE(v.reproduced) << v.detail;
  EXPECT_EQ(v.better, 2);
  ASSERT_EQ(v.instances.size(), 2u);
  EXPECT_FALSE(v.first_failure.has_value());
  EXPECT_DOUBLE_EQ(v.instances[0].sp, 0.3);
  EXPECT_DOUBLE_EQ(v.instances[0].updown, 0.2);
  EXPECT_DOUBLE_EQ(v.instances[0].ratio, 1.5);
  EXPECT_DOUBLE_EQ(v.instances[1].ratio, 1.5);
  EXPECT_DOUBLE_EQ(v.min_ratio, 1.5);
  // No deterministic curves: that pairing has no instance and is not reproduced.
  const WormVerdict d = evaluate_throughput_claim(curves, kDet);
  EXPECT_FALSE(d.reproduced);
  EXPECT_TRUE(d.instances.empty());
}

TEST(WormholeVerdict, NotReproducedWhenOneInstanceFailsAndNamesTheFirst) {
  const std::vector<WormCurve> curves = {
      made_curve(16, 1, kSp, kDet, {0.3}), made_curve(16, 1, kUd, kDet, {0.2}),
      made_curve(32, 1, kSp, kDet, {0.2}), made_curve(32, 1, kUd, kDet, {0.25}),  // fails
      made_curve(32, 2, kSp, kDet, {0.2}), made_curve(32, 2, kUd, kDet, {0.2}),   // a tie fails too
  };
  const WormVerdict v = evaluate_throughput_claim(curves, kDet);
  EXPECT_FALSE(v.reproduced);
  ASSERT_TRUE(v.first_failure.has_value());
  EXPECT_EQ(*v.first_failure, 1u);
  EXPECT_EQ(v.instances[1].size, 32);
  EXPECT_FALSE(v.instances[1].sp_better);
  EXPECT_FALSE(v.instances[2].sp_better);
  EXPECT_DOUBLE_EQ(v.instances[1].ratio, 0.8);
  EXPECT_DOUBLE_EQ(v.min_ratio, 0.8);
  EXPECT_DOUBLE_EQ(v.max_ratio, 1.5);
  EXPECT_EQ(v.better, 1);
  EXPECT_EQ(v.equal, 1);
  EXPECT_EQ(v.worse, 1);
  EXPECT_THAT(v.detail, testing::HasSubstr("first failure ITM 32 seed 1"));
}

TEST(WormholeVerdictDeathTest, AnInstanceWithoutItsUpDownCurveAborts) {
  const std::vector<WormCurve> curves = {made_curve(16, 1, kSp, kAd, {0.3}), made_curve(16, 2, kUd, kAd, {0.2})};
  EXPECT_DEATH((void)evaluate_throughput_claim(curves, kAd), "expected exactly one");
}

TEST(WormholeSummary, AveragesPointByPointOverTheSeedsThatReachedTheLoad) {
  const std::vector<WormCurve> curves = {
      made_curve(16, 1, kSp, kAd, {0.1, 0.2, 0.3}),
      made_curve(16, 2, kSp, kAd, {0.1, 0.1}),
      made_curve(16, 3, kSp, kAd, {0.1, 0.3, 0.3, 0.2}),
      made_curve(32, 1, kSp, kAd, {0.5}),          // another size
      made_curve(16, 1, kUd, kAd, {0.9}),          // another family
  };
  const WormSummary s = summarize_curves(curves, 16, RoutingSpec{kSp, kAd, 0}, 0.1);
  ASSERT_EQ(s.curve.size(), 4u);
  EXPECT_EQ(s.curve[0].n, 3);
  EXPECT_DOUBLE_EQ(s.curve[0].accepted, 0.1);
  EXPECT_NEAR(s.curve[0].accepted_ci95, 0, 1e-12);
  EXPECT_EQ(s.curve[1].n, 3);
  EXPECT_DOUBLE_EQ(s.curve[1].accepted, 0.2);
  // sd 0.1 over three values: t_{0.975,2} * 0.1 / sqrt 3.
  EXPECT_NEAR(s.curve[1].accepted_ci95, 4.303 * 0.1 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(s.curve[2].n, 2);
  EXPECT_EQ(s.curve[3].n, 1);
  EXPECT_DOUBLE_EQ(s.curve[3].load, 0.4);
  EXPECT_THAT(s.saturation, testing::ElementsAre(0.3, 0.1, 0.3));
  EXPECT_NEAR(s.saturation_mean, 0.7 / 3, 1e-12);
  EXPECT_GT(s.saturation_ci95, 0);
}

TEST(WormholeStudy, DerivedSeedsDependOnEveryCoordinate) {
  const uint64_t s = derive_seed(1, 16, 3, 0);
  EXPECT_EQ(s, derive_seed(1, 16, 3, 0));
  EXPECT_NE(s, derive_seed(2, 16, 3, 0));
  EXPECT_NE(s, derive_seed(1, 32, 3, 0));
  EXPECT_NE(s, derive_seed(1, 16, 4, 0));
  EXPECT_NE(s, derive_seed(1, 16, 3, 1));
}

TEST(WormholeStudy, RejectsBadConfigurations) {
  auto bad = [](auto edit) {
    WormStudyConfig c = WormStudyConfig::quick();
    edit(c);
    auto r = run_wormhole_study(c);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.sizes = {}; }), testing::HasSubstr("size"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.sizes = {2}; }), testing::HasSubstr("outside"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.seeds = {}; }), testing::HasSubstr("seed"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.length = 0; }), testing::HasSubstr("length"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.buffer = 0; }), testing::HasSubstr("buffer"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.measure = 0; }), testing::HasSubstr("window"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.load_step = 0; }), testing::HasSubstr("load step"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.jobs = 0; }), testing::HasSubstr("jobs"));
  EXPECT_THAT(bad([](WormStudyConfig& c) { c.updown_root = 16; }), testing::HasSubstr("root"));
}

// ---------------------------------------------------------------------------------------------
// The study on a tiny configuration.

WormStudyConfig tiny(int jobs) {
  WormStudyConfig c;
  c.sizes = {6, 9};
  c.seeds = {1, 2};
  c.length = 4;
  c.warmup = 100;
  c.measure = 300;
  c.drain = 600;
  c.load_step = 0.1;
  c.jobs = jobs;
  return c;
}

nlohmann::json without_seconds(nlohmann::json j) {
  j.erase("seconds");
  return j;
}

TEST(WormholeStudy, TinyStudyRunsAndFollowsTheSweepRule) {
  auto r = run_wormhole_study(tiny(1));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const WormStudyResult& s = *r;
  EXPECT_EQ(s.instances.size(), 4u);
  ASSERT_EQ(s.curves.size(), 16u);  // 4 instances x 2 pairings x 2 families
  EXPECT_EQ(s.summaries.size(), 8u);
  ASSERT_EQ(s.verdicts.size(), 2u);
  EXPECT_EQ(s.verdicts[0].pairing, Adaptivity::kAdaptive);
  EXPECT_EQ(s.verdicts[0].instances.size(), 4u);
  for (const WormInstance& i : s.instances) {
    // The root is the center: no node has a smaller eccentricity, no smaller node an equal one.
    auto steps = itm::parse_steps(i.steps);
    ASSERT_TRUE(steps.ok());
    auto itm = itm::Itm::build(*steps, itm::Rule::kAnyEdge);
    ASSERT_TRUE(itm.ok());
    const Network net = net_of(itm->graph(), i.name);
    for (NodeId u = 0; u < net.num_nodes(); ++u) {
      int e = 0;
      for (NodeId v = 0; v < net.num_nodes(); ++v) e = std::max(e, net.distance(u, v));
      EXPECT_TRUE(e > i.root_eccentricity || (e == i.root_eccentricity && u >= i.root)) << i.name << " node " << u;
    }
  }
  for (const WormCurve& c : s.curves) {
    ASSERT_FALSE(c.points.empty());
    int run = 0;
    for (size_t p = 0; p < c.points.size(); ++p) {
      const WormPoint& pt = c.points[p];
      EXPECT_EQ(pt.k, static_cast<int>(p) + 1);
      EXPECT_NEAR(pt.load, 0.1 * pt.k, 1e-12);
      EXPECT_GE(pt.window_worms, pt.window_delivered);
      run = pt.accepted < 0.9 * pt.offered ? run + 1 : 0;
      // The sweep stops at the second saturated run in a row, not before, not after.
      if (p + 1 < c.points.size()) {
        EXPECT_LT(run, 2) << c.label() << " " << c.size << " point " << p;
      }
    }
    EXPECT_EQ(c.saturated, run >= 2);
    if (!c.saturated) {
      EXPECT_EQ(c.points.back().k, 10);
    }
    EXPECT_DOUBLE_EQ(c.saturation, saturation_throughput(c.points));
    // At the lowest load the network is far from saturation: it accepts what was offered.
    EXPECT_NEAR(c.points[0].accepted, c.points[0].offered, 0.25 * c.points[0].offered + 0.01);
  }
}

TEST(WormholeStudy, ResultIsDeterministicAndIndependentOfJobs) {
  auto one = run_wormhole_study(tiny(1));
  auto again = run_wormhole_study(tiny(1));
  auto three = run_wormhole_study(tiny(3));
  ASSERT_TRUE(one.ok() && again.ok() && three.ok());
  EXPECT_EQ(without_seconds(to_json(*one)), without_seconds(to_json(*again)));
  EXPECT_EQ(without_seconds(to_json(*one)), without_seconds(to_json(*three)));
  EXPECT_FALSE(to_json(*three).at("config").contains("jobs"));
}

TEST(WormholeStudy, ProgressReportsEveryCurve) {
  WormStudyConfig c = tiny(2);
  c.sizes = {6};
  c.pairings = {Adaptivity::kDeterministic};
  std::vector<std::string> lines;
  auto r = run_wormhole_study(c, [&](const std::string& line) { lines.push_back(line); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(lines.size(), 4u);  // 2 seeds x 2 families
  EXPECT_EQ(r->verdicts.size(), 1u);
  EXPECT_EQ(r->verdicts[0].pairing, Adaptivity::kDeterministic);
}

// A minimal well-formedness check: every tag closes in order, attributes are quoted.
std::optional<std::string> xml_problem(const std::string& s) {
  std::vector<std::string> open;
  size_t i = 0;
  while ((i = s.find('<', i)) != std::string::npos) {
    const size_t end = s.find('>', i);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    std::string tag = s.substr(i + 1, end - i - 1);
    i = end + 1;
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return "unbalanced quotes in <" + tag + ">";
    if (tag.front() == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find(' ')));
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  return std::nullopt;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

TEST(WormholeStudyForms, SvgPlotsAreWellFormedWithALinePerRouting) {
  auto r = run_wormhole_study(tiny(2));
  ASSERT_TRUE(r.ok());
  for (int size : {6, 9})
    for (WormMetric m : {WormMetric::kThroughput, WormMetric::kLatency}) {
      const std::string svg = wormhole_study_svg(*r, size, m);
      EXPECT_EQ(svg.rfind("<svg", 0), 0u);
      EXPECT_EQ(xml_problem(svg), std::nullopt) << svg;
      EXPECT_EQ(count(svg, "<polyline"), 4u);
      for (const char* label : {"sp-adaptive", "updown-adaptive", "sp-deterministic", "updown-deterministic"})
        EXPECT_THAT(svg, testing::HasSubstr(label));
      EXPECT_THAT(svg, testing::HasSubstr("offered load (flits/node/cycle)"));
      EXPECT_THAT(svg, testing::HasSubstr(m == WormMetric::kThroughput ? "accepted throughput" : "mean latency"));
    }
  EXPECT_EQ(svg_file_name(16, WormMetric::kThroughput), "throughput_16.svg");
  EXPECT_EQ(svg_file_name(64, WormMetric::kLatency), "latency_64.svg");
}

TEST(WormholeStudyForms, TableAndJsonCarryTheVerdicts) {
  auto r = run_wormhole_study(tiny(2));
  ASSERT_TRUE(r.ok());
  const std::string table = wormhole_study_table(*r);
  EXPECT_THAT(table, testing::HasSubstr("Saturation throughput"));
  EXPECT_THAT(table, testing::HasSubstr("adaptive: "));
  EXPECT_THAT(table, testing::HasSubstr("ITM(any-edge, 9, seed 2)"));
  const nlohmann::json j = to_json(*r);
  EXPECT_EQ(j.at("curves").size(), 16u);
  EXPECT_EQ(j.at("verdicts").size(), 2u);
  const std::string verdict = j.at("verdicts").at(0).at("verdict").get<std::string>();
  EXPECT_EQ(verdict, r->verdicts[0].reproduced ? "reproduced" : "not reproduced");
  EXPECT_EQ(j.at("config").at("updown_root"), "center");
}

}  // namespace
}  // namespace topocheck::routing
