// Tests of the routing study's workloads (papers/001), part 2: the validator's negative
// controls (one per rule, each naming the process), the file format's round trip and its errors
// with FILE:LINE. Part 1 (workload_test.cc): the generators.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "routing/workload.h"

namespace topocheck::routing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;

// A valid hand-made workload: 0 -> {1, 2}, 1 -> {3}, 2 -> {3}, on 8 nodes.
Workload diamond() {
  Workload w;
  w.name = "diamond";
  w.nodes = 8;
  w.processes = {{0, 4, 0, {1, 2}}, {1, 5, 1, {3}}, {2, 6, 2, {3}}, {3, 7, 3, {}}};
  return w;
}

// A file under the system temp folder holding `text`, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    static int count = 0;
    path_ = fs::temp_directory_path() /
            ("topocheck_workload_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
             std::to_string(count++) + ".json");
    std::ofstream(path_) << text;
  }
  ~TempFile() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// ---------------------------------------------------------------------------------------------
// Validation: one negative control per rule, each naming the process (and the send).

TEST(RoutingWorkload, ValidationAcceptsTheHandMadeDiamond) { EXPECT_EQ(validate(diamond()), std::nullopt); }

TEST(RoutingWorkload, ValidationReportsEachBrokenRuleNamingTheProcess) {
  struct Case {
    const char* rule;
    void (*mutate)(Workload&);
    const char* message;
  };
  const Case cases[] = {
      {"no nodes", [](Workload& w) { w.nodes = 0; }, "nodes: 0, but a workload is placed on at least 1 node"},
      {"no processes", [](Workload& w) { w.processes.clear(); },
       "processes: empty, but a workload has at least 1 process"},
      {"more processes than nodes", [](Workload& w) { w.nodes = 3; },
       "processes: 4 processes but only 3 nodes (one process per node)"},
      {"ids out of order", [](Workload& w) { w.processes[2].id = 7; },
       "processes[2].id: 7, expected 2 (ids are 0..P-1 in order)"},
      {"node outside the network", [](Workload& w) { w.processes[3].node = 8; },
       "processes[3].node: 8 is not a node (the network has nodes 0..7)"},
      {"two processes on one node", [](Workload& w) { w.processes[3].node = 5; },
       "processes[3].node: 5 is also the node of process 1"},
      {"send to no process", [](Workload& w) { w.processes[1].sends = {4}; },
       "processes[1].sends[0]: 4 is not a process (ids are 0..3)"},
      {"self-send", [](Workload& w) { w.processes[2].sends = {3, 2}; },
       "processes[2].sends[1]: 2 is the process itself"},
      {"duplicate send", [](Workload& w) { w.processes[0].sends = {1, 2, 1}; },
       "processes[0].sends[2]: 1 is sent to twice (also sends[0])"},
      {"message against the sequence", [](Workload& w) { w.processes[2].seq = 3; },
       "processes[2].sends[0]: the receiver 3 has seq 3, not above the sender's seq 3 (every message "
       "goes to a higher sequence number)"},
      {"cycle", [](Workload& w) { w.processes[3].sends = {0}; },
       "processes[3].sends[0]: the receiver 0 has seq 0, not above the sender's seq 3 (every message "
       "goes to a higher sequence number)"},
  };
  for (const Case& c : cases) {
    Workload w = diamond();
    c.mutate(w);
    EXPECT_EQ(validate(w), std::optional<std::string>(c.message)) << c.rule;
  }
  // Duplicates are per sender: two senders may share a receiver (the diamond's 3).
  Workload w = diamond();
  w.processes[0].sends = {1, 2, 3};
  EXPECT_EQ(validate(w), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// The file format.

TEST(RoutingWorkload, JsonRoundTripGivesAnEqualWorkload) {
  for (const std::string& name : builtin_workload_names()) {
    auto w = builtin_workload(name, 64, 4);
    ASSERT_TRUE(w.ok());
    const json j = to_json(*w);
    EXPECT_EQ(j.at("format"), "topocheck-workload");
    EXPECT_EQ(j.at("version"), 1);
    auto back = workload_from_json(j, "memory");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(*back, *w) << name;
    // Through text too (numbers come back as unsigned, the double as a double).
    auto reread = workload_from_json(json::parse(j.dump(2)), "text");
    ASSERT_TRUE(reread.ok()) << reread.error().to_string();
    EXPECT_EQ(*reread, *w) << name;
  }
  const Workload d = diamond();
  EXPECT_EQ(*workload_from_json(to_json(d), "memory"), d);
}

TEST(RoutingWorkload, ReadingRejectsWrongFormatVersionAndTypesNamingTheField) {
  const json good = to_json(diamond());
  struct Case {
    const char* what;
    json document;
    const char* message;
  };
  auto with = [&](const json::json_pointer& at, const json& value) {
    json j = good;
    j[at] = value;  // our own test document, not untrusted input
    return j;
  };
  auto without = [&](const json::json_pointer& parent, const std::string& key) {
    json j = good;
    j[parent].erase(key);
    return j;
  };
  const Case cases[] = {
      {"not an object", json::array(), "a workload must be a JSON object"},
      {"other format", with(json::json_pointer("/format"), "topocheck-case"),
       "format: \"topocheck-case\", expected \"topocheck-workload\""},
      {"format missing", without(json::json_pointer(""), "format"), "missing field 'format'"},
      {"newer version", with(json::json_pointer("/version"), 2),
       "version: 2, expected 1 (the only version this build reads)"},
      {"version as text", with(json::json_pointer("/version"), "1"),
       "version: \"1\", expected 1 (the only version this build reads)"},
      {"unknown field", with(json::json_pointer("/colour"), "red"), "unknown field 'colour'"},
      {"name not a string", with(json::json_pointer("/name"), 3), "name: 3 is not a string"},
      {"generator not an object", with(json::json_pointer("/generator"), "gauss"), "generator: \"gauss\" is not an object"},
      {"nodes negative", with(json::json_pointer("/nodes"), -1), "nodes: -1 is not an unsigned 32-bit integer"},
      {"processes not an array", with(json::json_pointer("/processes"), 4), "processes: not an array"},
      {"process not an object", with(json::json_pointer("/processes/1"), 1), "processes[1]: 1 is not an object"},
      {"node as text", with(json::json_pointer("/processes/3/node"), "7"),
       "processes[3].node: \"7\" is not an unsigned 32-bit integer"},
      {"seq fractional", with(json::json_pointer("/processes/2/seq"), 2.5),
       "processes[2].seq: 2.5 is not an unsigned 32-bit integer"},
      {"id too large", with(json::json_pointer("/processes/0/id"), 4294967296ULL),
       "processes[0].id: 4294967296 is not an unsigned 32-bit integer"},
      {"sends missing", without(json::json_pointer("/processes/2"), "sends"), "processes[2]: missing field 'sends'"},
      {"send not a number", with(json::json_pointer("/processes/0/sends/1"), "2"),
       "processes[0].sends[1]: \"2\" is not a process id (an unsigned 32-bit integer)"},
      {"unknown process field", with(json::json_pointer("/processes/1/colour"), 1), "processes[1]: unknown field 'colour'"},
      {"semantic: self-send", with(json::json_pointer("/processes/1/sends/0"), 1),
       "processes[1].sends[0]: 1 is the process itself"},
  };
  for (const Case& c : cases) {
    auto w = workload_from_json(c.document, "w.json");
    ASSERT_FALSE(w.ok()) << c.what;
    EXPECT_EQ(w.error().code, ErrorCode::kParse) << c.what;
    EXPECT_EQ(w.error().file, "w.json") << c.what;
    EXPECT_EQ(w.error().message, c.message) << c.what;
  }
  // The generator is informational and may be left out.
  EXPECT_TRUE(workload_from_json(without(json::json_pointer(""), "generator"), "w.json").ok());
}

TEST(RoutingWorkload, LoadingReportsASyntaxErrorWithFileAndLine) {
  const TempFile file(
      "{\n"
      "  \"format\": \"topocheck-workload\",\n"
      "  \"version\": 1\n"  // the missing comma is found at the next token, on line 4
      "  \"name\": \"broken\"\n"
      "}\n");
  auto w = load_workload(file.path());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().file, file.path().string());
  EXPECT_EQ(w.error().line, 4);
  EXPECT_THAT(w.error().to_string(), HasSubstr(file.path().string() + ":4: error: invalid JSON"));
  auto missing = load_workload(file.path().string() + ".absent");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "cannot read the workload file");
}

TEST(RoutingWorkload, LoadingReportsASemanticErrorAtTheLineOfTheProcess) {
  const TempFile file(
      "{\n"
      "  \"format\": \"topocheck-workload\",\n"
      "  \"version\": 1,\n"
      "  \"name\": \"hand\",\n"
      "  \"generator\": {\"processes\": 3, \"note\": \"an \\\"id\\\" in a string, and [ { in one\"},\n"
      "  \"nodes\": 4,\n"
      "  \"processes\": [\n"
      "    {\"id\": 0, \"node\": 0, \"seq\": 0, \"sends\": [1]},\n"
      "    {\"id\": 1, \"node\": 1, \"seq\": 1,\n"
      "     \"sends\": [2,\n"
      "                1]},\n"
      "    {\"id\": 2, \"node\": 2, \"seq\": 2, \"sends\": []}\n"
      "  ]\n"
      "}\n");
  auto w = load_workload(file.path());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().to_string(),
            file.path().string() + ":11: error: processes[1].sends[1]: 1 is the process itself");
}

TEST(RoutingWorkload, LoadingPointsAtTheEnclosingProcessWhenTheFieldIsMissing) {
  auto w = builtin_workload("reduce_broadcast", 8, 1);
  ASSERT_TRUE(w.ok());
  json j = to_json(*w);
  j.at("processes").at(5).erase("seq");
  const std::string text = j.dump(2);
  const TempFile file(text);
  auto loaded = load_workload(file.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message, "processes[5]: missing field 'seq'");
  // The line of processes[5]'s opening brace: the sixth "{" inside the processes array.
  const size_t array = text.find("\"processes\": [");
  size_t at = array;
  for (int k = 0; k < 6; ++k) at = text.find('{', at + 1);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  EXPECT_EQ(loaded.error().line, line);
  // A bad version is found at its own line.
  j = to_json(*w);
  j.at("version") = 3;
  const std::string text2 = j.dump(2);
  const TempFile file2(text2 + "\n");
  auto versioned = load_workload(file2.path());
  ASSERT_FALSE(versioned.ok());
  const size_t v = text2.find("\"version\"");
  EXPECT_EQ(versioned.error().line,
            1 + static_cast<int>(std::count(text2.begin(), text2.begin() + static_cast<long>(v), '\n')));
}

TEST(RoutingWorkload, LoadingAWrittenFileGivesTheWorkloadBack) {
  auto w = builtin_workload("layered", 128, 2);
  ASSERT_TRUE(w.ok());
  const TempFile file(to_json(*w).dump(2));
  auto loaded = load_workload(file.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(*loaded, *w);
}

}  // namespace
}  // namespace topocheck::routing
