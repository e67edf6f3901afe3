#include "aapc/aapc.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace topocheck::aapc {
namespace {

// Q_1 = {0, 1}: the two data swap in one unit.
Schedule q1_swap() {
  Schedule s;
  s.n = 1;
  s.units = {{Move{{0, 1}, 0, 1}, Move{{1, 0}, 1, 0}}};
  s.steps = {{"swap", 0, 1}};
  return s;
}

// Q_2 without faults in 2 units (the all-port optimum 2^(n-1)): in unit 1 node x sends its
// antipodal datum across dimension 0 and its dimension-1 datum across dimension 1; in unit 2 the
// antipodal datum goes on across dimension 1 from x^1 and x sends its dimension-0 datum.
Schedule q2_ecube() {
  Schedule s;
  s.n = 2;
  s.units.resize(2);
  for (NodeId x = 0; x < 4; ++x) {
    s.units[0].push_back(Move{{x, x ^ 3u}, x, x ^ 1u});
    s.units[0].push_back(Move{{x, x ^ 2u}, x, x ^ 2u});
    s.units[1].push_back(Move{{x, x ^ 3u}, x ^ 1u, x ^ 3u});
    s.units[1].push_back(Move{{x, x ^ 1u}, x, x ^ 1u});
  }
  return s;
}

TEST(AapcChecker, AcceptsAValidSchedule) {
  auto r = check_schedule(q1_swap(), FaultSet(1, {}), Model::kOnePort);
  EXPECT_TRUE(r.ok) << r.violation;
  EXPECT_EQ(r.units, 1);
  EXPECT_EQ(r.data, 2u);
  EXPECT_EQ(r.delivered, 2u);
}

TEST(AapcChecker, AcceptsTheQ2EcubeScheduleUnderAllPortOnly) {
  const Schedule s = q2_ecube();
  auto r = check_schedule(s, FaultSet(2, {}), Model::kAllPort);
  EXPECT_TRUE(r.ok) << r.violation;
  EXPECT_EQ(r.data, 12u);
  // Under one_receive the same moves put two data on one node in one unit.
  EXPECT_FALSE(check_schedule(s, FaultSet(2, {}), Model::kOneReceive).ok);
}

// Negative control: one link carries two data in one unit.
TEST(AapcChecker, RejectsAnOverloadedLink) {
  // Q_2: data 2_0 and 1_0 both leave 0 on the link 0->1 in unit 1.
  Schedule t;
  t.n = 2;
  t.units = {{Move{{0, 3}, 0, 1}, Move{{0, 1}, 0, 1}}};
  auto r = check_schedule(t, FaultSet(2, {}), Model::kAllPort);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.violation.find("already carries"), std::string::npos) << r.violation;
}

// Negative control: a move through a faulty node.
TEST(AapcChecker, RejectsAMoveThroughAFaultyNode) {
  Schedule s;
  s.n = 2;
  s.units = {{Move{{0, 3}, 0, 1}}, {Move{{0, 3}, 1, 3}}};
  auto r = check_schedule(s, FaultSet(2, {1}), Model::kAllPort);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.violation.find("faulty node 1"), std::string::npos) << r.violation;
}

// Negative control: a datum dropped.
TEST(AapcChecker, RejectsADroppedDatum) {
  Schedule s = q1_swap();
  s.units[0].pop_back();
  auto r = check_schedule(s, FaultSet(1, {}), Model::kAllPort);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.violation.find("not delivered"), std::string::npos) << r.violation;
  EXPECT_EQ(r.delivered, 1u);
}

// The violation check_schedule reports (all-port) for a schedule of Q_2 with these units.
std::string q2_violation(std::vector<std::vector<Move>> units, const FaultSet& faults = FaultSet(2, {})) {
  Schedule s;
  s.n = 2;
  s.units = std::move(units);
  return check_schedule(s, faults, Model::kAllPort).violation;
}

TEST(AapcChecker, RejectsTeleportsDoubleHopsAndMovesAfterDelivery) {
  EXPECT_NE(q2_violation({{Move{{0, 3}, 0, 3}}}).find("not a link"), std::string::npos);
  EXPECT_NE(q2_violation({{Move{{0, 3}, 1, 3}}}).find("is at node 0"), std::string::npos);  // wrong start
  EXPECT_NE(q2_violation({{Move{{0, 3}, 0, 1}, Move{{0, 3}, 1, 3}}}).find("twice"), std::string::npos);
  EXPECT_NE(q2_violation({{Move{{0, 1}, 0, 1}}, {Move{{0, 1}, 1, 0}}}).find("already delivered"), std::string::npos);
  // A datum from a faulty source.
  EXPECT_NE(q2_violation({{Move{{1, 0}, 1, 0}}}, FaultSet(2, {1})).find("no such datum"), std::string::npos);
}

// Out-of-range node numbers are named as such: a datum with only its source (or destination)
// outside Q_n, and a move from (or to) node N = 2^n, which differs from node 0 in one bit, so
// only the range test sees it.
TEST(AapcChecker, RejectsNodesOutsideTheCube) {
  EXPECT_NE(q2_violation({{Move{{4, 1}, 0, 1}}}).find("no such datum"), std::string::npos);
  EXPECT_NE(q2_violation({{Move{{1, 4}, 1, 0}}}).find("no such datum"), std::string::npos);
  EXPECT_NE(q2_violation({{Move{{0, 1}, 4, 0}}}).find("not a link of Q_2"), std::string::npos);
  EXPECT_NE(q2_violation({{Move{{0, 1}, 0, 4}}}).find("not a link of Q_2"), std::string::npos);
}

// Every fault set but "every node faulty", the fault-free one first.
TEST(AapcFaults, AllFaultSetsListsEveryProperSubset) {
  const std::vector<FaultSet> one = all_fault_sets(1);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one[0].to_string(), "{}");
  EXPECT_EQ(one[1].to_string(), "{0}");
  EXPECT_EQ(one[2].to_string(), "{1}");
  const std::vector<FaultSet> two = all_fault_sets(2);
  ASSERT_EQ(two.size(), 15u);
  std::set<std::string> distinct;
  for (const FaultSet& f : two) distinct.insert(f.to_string());
  EXPECT_EQ(distinct.size(), 15u);
  EXPECT_EQ(two.back().to_string(), "{1,2,3}");
}

TEST(AapcChecker, OnePortLimitsSends) {
  Schedule s;
  s.n = 2;
  s.units = {{Move{{0, 1}, 0, 1}, Move{{0, 2}, 0, 2}}};
  EXPECT_TRUE(check_schedule(s, FaultSet(2, {3}), Model::kOneReceive).violation.find("not delivered") !=
              std::string::npos);
  EXPECT_NE(check_schedule(s, FaultSet(2, {3}), Model::kOnePort).violation.find("sends"), std::string::npos);
}

TEST(AapcForms, JsonNumbersAreIntegersInRangeNeverWrappedOrConverted) {
  const FaultSet none(2, {});
  const nlohmann::json good = to_json(q2_ecube(), none);
  auto with = [&](const nlohmann::json::json_pointer& at, nlohmann::json value) {
    nlohmann::json j = good;
    j[at] = std::move(value);
    return schedule_from_json(j);
  };
  using ptr = nlohmann::json::json_pointer;
  // n = 2^32 + 2 once wrapped to 2 and was accepted; 1e300 was converted with undefined behaviour.
  for (const nlohmann::json& n : {nlohmann::json(4294967298ULL), nlohmann::json(1e300), nlohmann::json(2.0),
                                  nlohmann::json(-1), nlohmann::json("2"), nlohmann::json(11)}) {
    auto r = with(ptr("/n"), n);
    ASSERT_FALSE(r.ok()) << n.dump();
    EXPECT_EQ(r.error().message.rfind("n: ", 0), 0u) << r.error().message;
  }
  EXPECT_FALSE(with(ptr("/faults"), nlohmann::json::array({1e30})).ok());
  auto twice = with(ptr("/faults"), nlohmann::json::array({1, 1}));  // each in range, one listed twice
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message.rfind("n/faults: ", 0), 0u) << twice.error().message;
  EXPECT_FALSE(with(ptr("/faults"), nlohmann::json::array({4294967297ULL})).ok());
  auto from = with(ptr("/units/0/0/1"), nlohmann::json(4294967296ULL));
  ASSERT_FALSE(from.ok());
  EXPECT_NE(from.error().message.find("units[0][0] from"), std::string::npos) << from.error().message;
  EXPECT_FALSE(with(ptr("/units/0/0/2"), nlohmann::json(-1e300)).ok());
  nlohmann::json steps = good;
  steps["steps"] = nlohmann::json::array({{{"name", "all"}, {"begin", 0}, {"end", 1e300}}});
  EXPECT_FALSE(schedule_from_json(steps).ok());
  EXPECT_TRUE(with(ptr("/n"), nlohmann::json(2)).ok());
}

TEST(AapcForms, JsonRoundTripAndErrorsNameTheField) {
  const Schedule s = q2_ecube();
  const FaultSet none(2, {});
  auto back = schedule_from_json(to_json(s, none));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->schedule.units, s.units);
  nlohmann::json bad = to_json(s, none);
  bad["units"][1][0] = nlohmann::json::array({"3-0", 1, 3});
  auto err = schedule_from_json(bad);
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message.find("units[1][0]"), std::string::npos) << err.error().message;
  EXPECT_FALSE(parse_faults(3, "6,6").ok());
  EXPECT_FALSE(parse_faults(3, "8").ok());
  EXPECT_FALSE(parse_faults(11, "").ok());
  EXPECT_NE(parse_faults(3, "x").error().message.find("--faults"), std::string::npos);
  EXPECT_EQ(parse_faults(3, "1,x").error().message, "--faults: 'x' is not a node number");
  EXPECT_EQ(parse_faults(3, "8").error().message, "--faults: node 8 is not in Q_3 (0..7)");
  EXPECT_EQ(parse_faults(1, "0")->to_string(), "{0}");  // Q_1 is a cube too
  // A step whose end is before its begin.
  nlohmann::json reversed = to_json(s, none);
  reversed["steps"] = nlohmann::json::array({{{"name", "x"}, {"begin", 1}, {"end", 0}}});
  auto rev = schedule_from_json(reversed);
  ASSERT_FALSE(rev.ok());
  EXPECT_NE(rev.error().message.find("steps[0]: range [1, 0) outside the units"), std::string::npos) << rev.error().message;
  // The schedule's JSON has exactly its four fields, "units" an array even with no unit.
  for (const Schedule& sched : {s, Schedule{}}) {
    const nlohmann::json j = to_json(sched, none);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"faults", "n", "steps", "units"}));
    EXPECT_TRUE(j["units"].is_array());
    EXPECT_EQ(j["units"].size(), sched.units.size());
  }
  EXPECT_EQ(parse_faults(4, "9,6")->to_string(), "{6,9}");
  EXPECT_EQ(parse_datum("4_5")->source, 5u);
  EXPECT_NE(link_use_csv(s).find("unit,step,from,to,datum"), std::string::npos);
  // Text: every move of a unit, in order.
  EXPECT_EQ(to_text(q1_swap()), "unit 1 [swap]: 1_0 0->1, 0_1 1->0\n");
}

// The SVG grid: 90 + 8 per unit + 10 wide, 30 + 8 per directed link + 10 high, a row label per
// directed link while n <= 5.
TEST(AapcForms, LinkUseSvgSizesTheGridAndLabelsTheLinks) {
  const std::string svg = link_use_svg(q2_ecube());
  EXPECT_NE(svg.find("width=\"116\""), std::string::npos) << svg.substr(0, 200);
  EXPECT_NE(svg.find("height=\"104\""), std::string::npos) << svg.substr(0, 200);
  EXPECT_NE(svg.find(">0->1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">3->1</text>"), std::string::npos);
  // Each move is a 7 x 7 square of the 8-pixel grid (a gap of one between neighbours).
  size_t rects = 0;
  for (size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) {
    const std::string tag = svg.substr(at, svg.find('>', at) - at);
    if (tag.find("fill=\"#36c\"") == std::string::npos) continue;
    ++rects;
    EXPECT_NE(tag.find("width=\"7\" height=\"7\""), std::string::npos) << tag;
  }
  EXPECT_GT(rects, 0u);
}

}  // namespace
}  // namespace topocheck::aapc
