// `check schedule`: a generated schedule judged valid and as long as its generator says; broken
// copies (a move lost, two data on one directed link, a move into a fault, too long for the
// bound) judged violated with the violation named; bad files refused with FILE:LINE.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "aapc/aapc.h"
#include "aapc/schedules.h"
#include "check/schedule.h"

namespace topocheck::check {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;

Result<ScheduleFile> load(const json& j) { return schedule_file_from_json(j, j.dump(1), "s.json"); }

// The paper's A_1 on Q_3 with fault 6 (its Q_3 example), all-port, as a file.
json a1_file() {
  const aapc::FaultSet faults(3, {6});
  auto schedule = aapc::a1(faults, 2, aapc::Model::kAllPort);
  EXPECT_TRUE(schedule.ok());
  json j = aapc::to_json(*schedule, faults);
  j["model"] = "all_port";
  return j;
}

TEST(CheckSchedule, AGeneratedScheduleIsValidAndWithinItsBound) {
  json j = a1_file();
  const int units = static_cast<int>(j.at("units").size());
  j["max_units"] = units;
  auto in = load(j);
  ASSERT_TRUE(in.ok()) << in.error().to_string();
  const CheckReport r = judge_schedule(*in);
  EXPECT_FALSE(r.violated());
  EXPECT_THAT(r.line("valid"), StartsWith("ok"));
  EXPECT_THAT(r.line("max_units"), StartsWith("ok"));
  EXPECT_THAT(r.line("lower_bound"), StartsWith("ok"));
}

TEST(CheckSchedule, BrokenSchedulesAreViolatedWithTheViolationNamed) {
  json lost = a1_file();
  for (auto it = lost["units"].rbegin(); it != lost["units"].rend(); ++it)
    if (!it->empty()) {
      it->erase(it->size() - 1);
      break;
    }
  EXPECT_THAT((judge_schedule(*load(lost))).line("valid"), AllOf(StartsWith("violated"), HasSubstr("deliver")));

  json twice = a1_file();  // the first move repeated with another datum on the same directed link
  json dup = twice["units"][0][0];
  dup[0] = "7_0";
  twice["units"][0].push_back(dup);
  EXPECT_THAT((judge_schedule(*load(twice))).line("valid"), StartsWith("violated"));

  json into_fault = a1_file();
  into_fault["units"][0][0][2] = 6;
  EXPECT_THAT((judge_schedule(*load(into_fault))).line("valid"), StartsWith("violated"));

  json bound = a1_file();
  bound["max_units"] = static_cast<int>(bound["units"].size()) - 1;
  EXPECT_THAT((judge_schedule(*load(bound))).line("max_units"), StartsWith("violated"));
}

TEST(CheckSchedule, BadFilesAreRefusedWithTheLineOfTheBadValue) {
  const std::string text = "{\"n\": 2, \"faults\": [],\n \"units\": [[[\"1_0\", 0, 1]],\n  [[\"1_x\", 0, 1]]]}";
  auto e = schedule_file_from_json(json::parse(text), text, "s.json");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().line, 3);
  EXPECT_THAT(e.error().message, HasSubstr("/units/1/0"));
  for (const json& bad : {json{{"n", 11}, {"faults", json::array()}, {"units", json::array()}},
                          json{{"n", 2}, {"faults", json::array()}, {"units", json::array()}, {"model", "half_port"}},
                          json{{"n", 2}, {"faults", json::array({4})}, {"units", json::array()}},
                          json{{"n", 2}, {"faults", json::array()}, {"units", json::array({json::array({1})})}},
                          json{{"n", 2}, {"faults", json::array()}},
                          json{{"n", 2}, {"faults", json::array()}, {"units", json::array()}, {"colour", 1}}}) {
    SCOPED_TRACE(bad.dump());
    auto r = load(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().file, "s.json");
  }
}

}  // namespace
}  // namespace topocheck::check
