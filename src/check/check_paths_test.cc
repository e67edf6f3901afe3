// `check paths`: correct files judged ok, each kind of broken file judged violated with the
// violation named (negative controls of every check), bad files refused with FILE:LINE.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check/paths.h"
#include "core/json_lines.h"
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
