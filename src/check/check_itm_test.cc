// `check itm`: ITMs given as steps or as a relabelled graph judged ok under both readings; the
// negative controls (C4, K4, an interior step, a graph with 2n - 3 edges that is no ITM) violated
// with the reason named; bad files refused with FILE:LINE.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check/itm.h"

namespace topocheck::check {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;

CheckReport judge(const json& j) {
  auto in = itm_file_from_json(j, j.dump(1), "i.json");
  EXPECT_TRUE(in.ok()) << in.error().to_string();
  return judge_itm(*in);
}

json graph(int n, const std::vector<std::pair<int, int>>& edges) {
  json e = json::array();
  for (auto [a, b] : edges) e.push_back({a, b});
  return {{"graph", {{"nodes", n}, {"edges", e}}}};
}

TEST(CheckItm, AnItmAsStepsOrAsARelabelledGraphIsOkUnderBothReadings) {
  for (const json& j : {json{{"steps", "3:(0,1) 4:(1,3) 5:(0,2)"}},
                        graph(6, {{5, 4}, {4, 3}, {5, 3}, {2, 5}, {2, 4}, {1, 4}, {1, 2}, {0, 5}, {0, 3}})}) {
    SCOPED_TRACE(j.dump());
    const CheckReport r = judge(j);
    EXPECT_FALSE(r.violated());
    for (const char* rule : {"any-edge", "exterior"})
      for (const char* c : {"itm", "circular_order", "contention_free", "broadcast"})
        EXPECT_THAT(r.line(std::string(c) + "[" + rule + "]"), StartsWith("ok")) << c << " " << rule;
    EXPECT_THAT(r.line("deadlock_free"), StartsWith("ok"));
  }
}

TEST(CheckItm, NonItmsAreViolatedWithTheReasonNamed) {
  const CheckReport c4 = judge(graph(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  EXPECT_THAT(c4.line("itm[any-edge]"), AllOf(StartsWith("violated"), HasSubstr("2n - 3 = 5")));
  EXPECT_THAT(c4.line("deadlock_free"), StartsWith("violated"));  // the chordless 4-cycle
  // K_{1,1,3} minus nothing: 5 nodes, 7 = 2n - 3 edges, no ITM (three triangles on one edge).
  const CheckReport k113 = judge(graph(5, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {0, 4}, {1, 4}}));
  EXPECT_THAT(k113.line("itm[exterior]"), AllOf(StartsWith("violated"), HasSubstr("no sequence")));
  const CheckReport interior = judge(json{{"steps", "3:(0,1) 4:(0,1)"}});
  EXPECT_THAT(interior.line("itm[exterior]"), AllOf(StartsWith("violated"), HasSubstr("interior")));
  EXPECT_THAT(interior.line("itm[any-edge]"), StartsWith("ok"));
  EXPECT_THAT(interior.line("circular_order[any-edge]"), StartsWith("violated"));
}

TEST(CheckItm, BadFilesAreRefusedWithTheLineOfTheBadValue) {
  const std::string text = "{\"graph\": {\"nodes\": 4,\n \"edges\": [[0, 1],\n  [1, 1]]}}";
  auto e = itm_file_from_json(json::parse(text), text, "i.json");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().line, 2);  // the loop is named by the edge list's line
  for (const json& bad : {json::object(), json{{"steps", "3:(0,1)"}, {"graph", graph(3, {})["graph"]}}, json{{"steps", 3}},
                          json{{"steps", "3:(0,x)"}}, graph(2, {}), graph(3, {{0, 3}})}) {
    SCOPED_TRACE(bad.dump());
    auto r = itm_file_from_json(bad, bad.dump(), "i.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
  }
}

}  // namespace
}  // namespace topocheck::check
