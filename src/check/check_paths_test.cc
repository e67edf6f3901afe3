// `check paths`: correct files judged ok, each kind of broken file judged violated with the
// violation named (negative controls of every check), bad files refused with FILE:LINE.
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "check/paths.h"
#include "core/core_gen.h"
#include "core/graph.h"
#include "core/json_lines.h"
#include "hypercube/hypercube.h"
#include "metacube/metacube.h"

namespace topocheck::check {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

Result<PathsInput> load(const std::string& text) { return paths_from_json(json::parse(text), text, "f.json"); }

CheckReport judge(const std::string& text) {
  auto in = load(text);
  EXPECT_TRUE(in.ok()) << in.error().to_string();
  return judge_paths(*in);
}

// Q_3, 000 -> 111: the three rotations of the ascending dimension list.
const char* kGood = R"({"topology": "hypercube:3", "s": "000", "t": "111",
  "paths": [["000", "001", "011", "111"], ["000", "010", "110", "111"], ["000", "100", "101", "111"]],
  "max_length": 3, "fault_tolerance": true})";

TEST(CheckPaths, ACorrectPathSystemIsOkOnEveryCheck) {
  const CheckReport r = judge(kGood);
  EXPECT_FALSE(r.violated());
  for (const char* c : {"valid", "simple", "disjoint", "max_length", "fault_tolerance", "optimum"})
    EXPECT_THAT(r.line(c), ::testing::StartsWith("ok")) << c;
  EXPECT_EQ(r.to_json().at("verdict"), "ok");
}

TEST(CheckPaths, EachBrokenFileIsViolatedWithItsViolationNamed) {
  // A shared internal node (011 on paths 0 and 1).
  CheckReport r = judge(R"({"topology": "hypercube:3", "s": "000", "t": "111",
    "paths": [["000", "001", "011", "111"], ["000", "010", "011", "111"]]})");
  EXPECT_THAT(r.line("disjoint"), AllOf(::testing::StartsWith("violated"), HasSubstr("011")));
  // A hop that is no link.
  r = judge(R"({"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000", "011", "111"]]})");
  EXPECT_THAT(r.line("valid"), ::testing::StartsWith("violated"));
  EXPECT_THAT(r.line("disjoint"), ::testing::StartsWith("not applicable"));
  // A repeated node.
  r = judge(R"({"topology": "hypercube:2", "s": "00", "t": "11", "paths": [["00", "01", "00", "10", "11"]]})");
  EXPECT_THAT(r.line("simple"), ::testing::StartsWith("violated"));
  // Too long.
  r = judge(R"({"topology": "hypercube:3", "s": "000", "t": "011", "max_length": 2,
    "paths": [["000", "001", "011"], ["000", "100", "110", "010", "011"]]})");
  EXPECT_THAT(r.line("max_length"), ::testing::StartsWith("violated"));
  // Fewer paths than max-flow allows.
  r = judge(R"({"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000", "001", "011", "111"]]})");
  EXPECT_THAT(r.line("optimum"), AllOf(::testing::StartsWith("violated"), HasSubstr("3 internally")));
  // Link-disjoint but sharing a node: one fault (the shared node) cuts both paths.
  r = judge(R"({"topology": {"nodes": 5, "edges": [[0, 1], [1, 2], [0, 3], [3, 1], [1, 4], [4, 2]]},
    "s": 0, "t": 2, "disjoint": "link", "fault_tolerance": true, "paths": [[0, 1, 2], [0, 3, 1, 4, 2]]})");
  EXPECT_THAT(r.line("disjoint"), ::testing::StartsWith("ok"));
  EXPECT_THAT(r.line("fault_tolerance"), AllOf(::testing::StartsWith("violated"), HasSubstr("1 faulty node")));
  // Directed links: the same link in one direction twice.
  r = judge(R"({"topology": "hypercube:2", "s": "00", "t": "11", "disjoint": "directed-link",
    "paths": [["00", "01", "11"], ["00", "01", "11"]]})");
  EXPECT_THAT(r.line("disjoint"), ::testing::StartsWith("violated"));
}

TEST(CheckPaths, MetacubeNodesInFieldedFormAndExplicitGraphs) {
  // MC(1,1): Algorithm 4's P_1 for 000 -> 011, with s written fielded.
  auto mc = metacube::Metacube::make(1, 1);
  ASSERT_TRUE(mc.ok());
  const std::string s_fields = mc->format_fields(Node{0, 3});
  CheckReport r = judge(R"x({"topology": "metacube:1,1", "s": ")x" + s_fields + R"x(", "t": "011",
    "paths": [["000", "001", "101", "111", "011"]]})x");
  EXPECT_THAT(r.line("valid"), ::testing::StartsWith("ok"));
  EXPECT_THAT(r.line("optimum"), ::testing::StartsWith("violated"));  // MC(1,1) has k + m = 2 disjoint paths
  r = judge(R"({"topology": {"nodes": 4, "edges": [[0, 1], [1, 2], [2, 3], [3, 0]]}, "s": 0, "t": 2,
    "paths": [[0, 1, 2], [0, 3, 2]]})");
  EXPECT_FALSE(r.violated());
}

TEST(CheckPaths, BadFilesAreRefusedWithTheLineOfTheBadValue) {
  auto e = load("{\"topology\": \"hypercube:3\",\n \"s\": \"000\",\n \"t\": \"111\",\n \"paths\": [[\"000\",\n  \"0010\"]]}");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().line, 5);
  EXPECT_EQ(e.error().file, "f.json");
  EXPECT_THAT(e.error().message, HasSubstr("/paths/0/1"));
  for (const char* bad : {R"({"topology": "hypercube:64", "s": "0", "t": "1", "paths": [["0"]]})",
                          R"({"topology": "torus:3", "s": "0", "t": "1", "paths": [["0"]]})",
                          R"({"topology": "hypercube:2", "s": "00", "t": "00", "paths": [["00"]]})",
                          R"({"topology": "hypercube:2", "s": "00", "t": "11", "paths": []})",
                          R"({"topology": "hypercube:2", "s": "00", "t": "11", "paths": [["00"]], "disjoint": "edge"})",
                          R"({"topology": "hypercube:2", "s": "00", "t": "11", "paths": [["00"]], "colour": 1})",
                          R"({"topology": {"nodes": 3, "edges": [[0, 3]]}, "s": 0, "t": 1, "paths": [[0]]})",
                          R"({"topology": "hypercube:2", "s": "00", "t": "11", "paths": [["00"]], "max_length": -1})",
                          R"([1, 2])"}) {
    SCOPED_TRACE(bad);
    auto r = load(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kParse);
    EXPECT_EQ(r.error().line, 1);
  }
}

// ---- Tables (JSON Lines, streamed) ----------------------------------------------------------------

Result<PathsTableReport> table(const std::string& text) {
  std::istringstream in(text);
  return judge_paths_table(in, "t.jsonl");
}

const char* kSettings = R"({"kind": "paths", "topology": "hypercube:3", "max_length": 4})";

TEST(CheckPathsTable, EveryLineIsJudgedAndTheCountsSayOnHowManySystemsEachCheckApplied) {
  const std::string text = std::string(kSettings) + "\n" +
                           R"({"s": "000", "t": "111", "paths": [["000", "001", "011", "111"], ["000", "010", "110", "111"], ["000", "100", "101", "111"]]})"
                           "\n\n" +
                           R"({"s": "000", "t": "011", "paths": [["000", "001", "011"], ["000", "010", "011"], ["000", "100", "101", "111", "011"]]})" "\n";
  auto r = table(text);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->systems, 2u);
  EXPECT_EQ(r->violated_systems, 0u);
  EXPECT_FALSE(r->report.violated());
  EXPECT_EQ(r->report.line("disjoint"), "ok: on 2 of 2 systems");
  EXPECT_EQ(r->report.line("max_length"), "ok: on 2 of 2 systems");
  // Two disjoint paths of the three there are: below the optimum, by max-flow.
  auto fewer = table(std::string(kSettings) + "\n" + R"({"s": "000", "t": "011", "paths": [["000", "001", "011"], ["000", "010", "011"]]})");
  ASSERT_TRUE(fewer.ok());
  EXPECT_THAT(fewer->report.line("optimum"), HasSubstr("violated: 1 of 1 systems; first at line 2 (000 to 011)"));
}

TEST(CheckPathsTable, AViolatedSystemIsNamedByItsLineAndAPerLineBoundOverridesTheSettings) {
  const std::string text = std::string(kSettings) + "\n" +
                           R"({"s": "000", "t": "001", "paths": [["000", "001"], ["000", "010", "011", "001"], ["000", "100", "101", "001"]]})" "\n" +
                           R"({"s": "000", "t": "111", "paths": [["000", "001", "011", "111"], ["000", "010", "011", "111"]], "max_length": 2})" "\n";
  auto r = table(text);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->violated_systems, 1u);
  EXPECT_THAT(r->report.line("disjoint"), HasSubstr("violated: 1 of 2 systems; first at line 3 (000 to 111): paths 0 and 1 share node 011"));
  EXPECT_THAT(r->report.line("max_length"), HasSubstr("violated: 1 of 2 systems; first at line 3"));
  ASSERT_EQ(r->violations.size(), 2u);
  EXPECT_EQ(r->violations[0].at("line"), 3);
}

TEST(CheckPathsTable, BadTablesAreRefusedAtTheLineOfTheBadValue) {
  const std::string good = R"({"s": "000", "t": "001", "paths": [["000", "001"]]})";
  struct Bad {
    std::string text;
    int line;
    const char* words;
  };
  for (const Bad& b : std::vector<Bad>{
           {"", 0, "an empty paths table"},
           {std::string(kSettings) + "\n", 1, "no system"},
           {R"({"topology": "hypercube:3"})", 1, "/kind"},
           {std::string(kSettings) + "\n" + good + "\n" + R"({"s": "000", "t": "001", "paths": [["000", "0x1"]]})", 3, "/paths/0/1"},
           {std::string(kSettings) + "\n" + good + "\n" + good + "\n{not json", 4, "invalid JSON"},
           {std::string(kSettings) + "\n" + R"({"s": "000", "t": "001", "paths": [["000", "001"]], "topology": "hypercube:2"})", 2, "unknown field"},
       }) {
    SCOPED_TRACE(b.text);
    auto r = table(b.text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().line, b.line);
    EXPECT_THAT(r.error().to_string(), HasSubstr(b.words));
  }
}

// The optimum's degree shortcut (as many disjoint paths as the smaller degree: no max-flow) gives
// the verdict max-flow gives, on random path systems of Q_1..Q_5 (gen::path_system).
RC_GTEST_PROP(CheckPathsOptimum, TheDegreeShortcutAgreesWithMaxFlow, ()) {
  const int n = *rc::gen::inRange(1, 6).as("n");
  const auto q = std::make_shared<hypercube::Hypercube>(*hypercube::Hypercube::make(n));
  const Node s = *gen::node(n).as("s");
  const Node t = *rc::gen::suchThat(gen::node(n), [&](const Node& v) { return v != s; }).as("t");
  PathsInput in;
  in.topology = q;
  in.s = s;
  in.t = t;
  in.paths = *gen::path_system(q, s, t, n + 1).as("paths");
  const CheckReport r = judge_paths(in);
  RC_PRE(r.line("disjoint").rfind("ok", 0) == 0);
  const int best = max_node_disjoint_paths(materialize(*q), q->index_of(s), q->index_of(t));
  RC_ASSERT(r.line("optimum").rfind(static_cast<int>(in.paths.size()) < best ? "violated" : "ok", 0) == 0);
}

TEST(JsonLines, EveryValueHasTheLineWhereItStarts) {
  const auto lines = json_pointer_lines("{\"s\": \"000\",\n \"paths\": [[\"000\", \"001\"],\n  [\"0\\\"1\", {\"a/b\": 2}]]}");
  EXPECT_EQ(lines.at(""), 1);
  EXPECT_EQ(lines.at("/s"), 1);
  EXPECT_EQ(lines.at("/paths"), 2);
  EXPECT_EQ(lines.at("/paths/0/1"), 2);
  EXPECT_EQ(lines.at("/paths/1"), 3);
  EXPECT_EQ(lines.at("/paths/1/1/a~1b"), 3);
  EXPECT_EQ(line_of(lines, "/paths/1/7"), 3);
  EXPECT_EQ(line_of(lines, "/nothing"), 1);
}

}  // namespace
}  // namespace topocheck::check
