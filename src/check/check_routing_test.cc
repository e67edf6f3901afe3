// `check routing`: shortest-path tables judged on a tree (deadlock-free) and on C4 (the cycle of
// channels found), broken tables (a missing row, a loop, a longer hop, a forbidden shortest hop)
// violated with the pair named, bad files refused with FILE:LINE.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <queue>

#include "check/routing.h"

namespace topocheck::check {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;

// Every shortest-path hop of every pair (fully adaptive minimal routing), as a routing file.
json sp_adaptive(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int>> adj(n);
  for (auto [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  json table = json::array();
  for (int d = 0; d < n; ++d) {
    std::vector<int> dist(n, -1);
    std::queue<int> q;
    dist[d] = 0;
    q.push(d);
    while (!q.empty()) {
      const int u = q.front();
      q.pop();
      for (int v : adj[u])
        if (dist[v] < 0) dist[v] = dist[u] + 1, q.push(v);
    }
    for (int u = 0; u < n; ++u) {
      if (u == d) continue;
      json next = json::array();
      for (int v : adj[u])
        if (dist[v] == dist[u] - 1) next.push_back(v);
      table.push_back({{"node", u}, {"dest", d}, {"next", next}});
    }
  }
  json e = json::array();
  for (auto [a, b] : edges) e.push_back({a, b});
  return {{"graph", {{"nodes", n}, {"edges", e}}}, {"table", table}};
}

CheckReport judge(const json& j) {
  auto in = routing_file_from_json(j, j.dump(1), "r.json");
  EXPECT_TRUE(in.ok()) << in.error().to_string();
  return judge_routing(*in);
}

const std::vector<std::pair<int, int>> kPath = {{0, 1}, {1, 2}, {2, 3}};
const std::vector<std::pair<int, int>> kC4 = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};

TEST(CheckRouting, ShortestPathRoutingOnATreeIsOkOnEveryCheck) {
  const CheckReport r = judge(sp_adaptive(4, kPath));
  EXPECT_FALSE(r.violated());
  for (const char* c : {"complete", "arrives", "deadlock_free", "minimal", "every_shortest_path"})
    EXPECT_THAT(r.line(c), StartsWith("ok")) << c;
}

TEST(CheckRouting, AdaptiveShortestPathRoutingOnC4DeadlocksWithTheCycleNamed) {
  const CheckReport r = judge(sp_adaptive(4, kC4));
  EXPECT_THAT(r.line("deadlock_free"), AllOf(StartsWith("violated"), HasSubstr("=>")));
  EXPECT_THAT(r.line("minimal"), StartsWith("ok"));
}

TEST(CheckRouting, BrokenTablesAreViolatedWithThePairNamed) {
  json missing = sp_adaptive(4, kPath);
  missing["table"].erase(0);
  EXPECT_THAT((judge(missing)).line("complete"), AllOf(StartsWith("violated"), HasSubstr("no next hop")));
  EXPECT_THAT((judge(missing)).line("arrives"), StartsWith("not applicable"));

  json loop = sp_adaptive(4, kC4);  // at 1 bound for 3 also go back to 0; at 0 bound for 3 go to 1
  for (auto& row : loop["table"]) {
    if (row["node"] == 1 && row["dest"] == 3) row["next"] = {0};
    if (row["node"] == 0 && row["dest"] == 3) row["next"] = {1};
  }
  const CheckReport lr = judge(loop);
  EXPECT_THAT(lr.line("arrives"), AllOf(StartsWith("violated"), HasSubstr("bound for 3")));
  EXPECT_THAT(lr.line("minimal"), StartsWith("violated"));
  EXPECT_THAT(lr.line("every_shortest_path"), StartsWith("violated"));

  json one_way = sp_adaptive(4, kC4);  // deterministic: drop all but the first hop
  for (auto& row : one_way["table"])
    if (row["next"].size() > 1) row["next"] = {row["next"][0]};
  EXPECT_THAT((judge(one_way)).line("every_shortest_path"), AllOf(StartsWith("violated"), HasSubstr("is not allowed")));
}

TEST(CheckRouting, BadFilesAreRefusedWithTheLineOfTheBadValue) {
  const std::string text = "{\"graph\": {\"nodes\": 3, \"edges\": [[0, 1], [1, 2]]},\n \"table\": [\n  {\"node\": 0, \"dest\": 2, \"next\": [2]}]}";
  auto e = routing_file_from_json(json::parse(text), text, "r.json");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().line, 3);
  EXPECT_THAT(e.error().message, AllOf(HasSubstr("/table/0/next/0"), HasSubstr("not a neighbour")));
  json twice = sp_adaptive(4, kPath);
  twice["table"].push_back(twice["table"][0]);
  json self = sp_adaptive(4, kPath);
  self["table"][0]["dest"] = self["table"][0]["node"];
  for (const json& bad : {json{{"graph", {{"nodes", 1}, {"edges", json::array()}}}, {"table", json::array()}},
                          json{{"graph", {{"nodes", 3}, {"edges", {{0, 0}}}}}, {"table", json::array()}},
                          json{{"graph", {{"nodes", 3}, {"edges", {{0, 1}, {1, 0}}}}}, {"table", json::array()}},
                          json{{"graph", {{"nodes", 3}, {"edges", json::array()}}}}, twice, self}) {
    SCOPED_TRACE(bad.dump());
    auto r = routing_file_from_json(bad, bad.dump(), "r.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
  }
}

}  // namespace
}  // namespace topocheck::check
