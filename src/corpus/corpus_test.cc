// Tests of the corpus format: round trips, validation errors that name the field and the file,
// JSON errors with a line, folder loading, atomic writes, case paths and cell-level diffs.
#include "corpus/corpus.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace topocheck::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Case counterexample() {
  Case c;
  c.kind = CaseKind::kCounterexample;
  c.claim = "hypercube.alg2.disjoint";
  c.reading = "broken_ascending_order";
  c.params = {{"n", 2}};
  c.input = {{"x", "00"}, {"y", "11"}};
  c.violation = "P_0 and P_1 share internal node 01";
  c.witness = {{"paths", json::array({json::array({"00", "01", "11"}), json::array({"00", "10", "11"})})}};
  c.method = "random";
  c.seed = 42;
  c.budget = "quick";
  c.minimized = true;
  return c;
}

Case example() {
  Case c;
  c.kind = CaseKind::kExample;
  c.claim = "hypercube.table1";
  c.params = {{"n", 3}};
  c.input = {{"x", "000"}, {"y", "100"}};
  c.source = "Table 1, Section 3";
  c.expected = {{"paths", json::array({json::array({"000", "010", "101", "100"})})}};
  c.errata.push_back({"/paths/0/2", "101", "110", "typo", "not an edge"});
  return c;
}

// A fresh folder under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("topocheck_corpus_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(CaseJson, CounterexampleRoundTrips) {
  const Case c = counterexample();
  auto back = case_from_json(to_json(c), "mem.json");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_json(*back), to_json(c));
  EXPECT_EQ(back->seed, std::optional<uint64_t>(42));
  EXPECT_TRUE(back->minimized);
  EXPECT_TRUE(same_input(*back, c));
}

TEST(CaseJson, ExampleRoundTripsWithItsErrata) {
  const Case c = example();
  auto back = case_from_json(to_json(c), "mem.json");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_json(*back), to_json(c));
  ASSERT_EQ(back->errata.size(), 1u);
  EXPECT_EQ(back->errata[0].cell, "/paths/0/2");
  EXPECT_EQ(back->errata[0].kind, "typo");
}

TEST(CaseJson, EveryMissingRequiredFieldIsNamed) {
  for (const char* field : {"format", "kind", "claim", "params", "input", "violation", "witness", "found_by"}) {
    json j = to_json(counterexample());
    j.erase(field);
    auto c = case_from_json(j, "cx.json");
    ASSERT_FALSE(c.ok()) << field;
    EXPECT_NE(c.error().message.find(field), std::string::npos) << c.error().message;
    EXPECT_EQ(c.error().file, "cx.json");
  }
  for (const char* field : {"source", "expected"}) {
    json j = to_json(example());
    j.erase(field);
    auto c = case_from_json(j, "ex.json");
    ASSERT_FALSE(c.ok()) << field;
    EXPECT_NE(c.error().message.find(field), std::string::npos) << c.error().message;
  }
}

TEST(CaseJson, RejectsAnotherFormatVersionAndAnUnknownKind) {
  json j = to_json(counterexample());
  j["format"] = 2;
  auto c = case_from_json(j, "f.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("'format' must be 1"), std::string::npos) << c.error().message;

  j = to_json(counterexample());
  j["kind"] = "anecdote";
  c = case_from_json(j, "f.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("anecdote"), std::string::npos) << c.error().message;
}

TEST(CaseJson, RejectsWrongTypesOfFields) {
  json j = to_json(counterexample());
  j["params"] = json::array();
  EXPECT_FALSE(case_from_json(j, "t.json").ok());
  j = to_json(counterexample());
  j["found_by"]["seed"] = -1;
  auto c = case_from_json(j, "t.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("found_by.seed"), std::string::npos) << c.error().message;
  j = to_json(counterexample());
  j["minimized"] = "yes";
  EXPECT_FALSE(case_from_json(j, "t.json").ok());
  EXPECT_FALSE(case_from_json(json::array(), "t.json").ok());
}

TEST(CaseJson, RejectsAnErratumWithABadPointerOrKind) {
  json j = to_json(example());
  j["errata"][0]["cell"] = "paths/0/2";  // a JSON pointer starts with '/'
  auto c = case_from_json(j, "e.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("not a JSON pointer"), std::string::npos) << c.error().message;

  j = to_json(example());
  j["errata"][0]["kind"] = "oops";
  c = case_from_json(j, "e.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("'oops' is not typo, reading or ocr"), std::string::npos) << c.error().message;

  j = to_json(example());
  j["errata"][0].erase("computed");
  EXPECT_FALSE(case_from_json(j, "e.json").ok());
}

TEST(LoadCase, InvalidJsonNamesTheFileAndLine) {
  TempDir dir;
  const fs::path f = dir.path() / "bad.json";
  write(f, "{\n  \"format\": 1,\n  \"kind\": \"example\"\n  \"claim\": \"x\"\n}\n");
  auto c = load_case(f);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().file, f.string());
  EXPECT_EQ(c.error().line, 4);
  EXPECT_NE(c.error().to_string().find(f.string() + ":4: error: invalid JSON"), std::string::npos)
      << c.error().to_string();
}

TEST(LoadCase, AMissingFileIsAnError) {
  TempDir dir;
  auto c = load_case(dir.path() / "absent.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("cannot read"), std::string::npos);
}

TEST(LoadAll, LoadsEveryCaseSortedAndSkipsTheLedger) {
  TempDir dir;
  write(dir.path() / "b" / "two.json", to_json(counterexample()).dump(2));
  write(dir.path() / "a" / "one.json", to_json(example()).dump(2));
  write(dir.path() / "ledger.json", "{\"not\": \"a case\"}");
  write(dir.path() / "notes.txt", "ignored");
  auto all = load_all(dir.path());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].claim, "hypercube.table1");
  EXPECT_EQ((*all)[0].file, dir.path() / "a" / "one.json");
  EXPECT_EQ((*all)[1].claim, "hypercube.alg2.disjoint");
}

TEST(LoadAll, StopsAtTheFirstBadFileAndNamesIt) {
  TempDir dir;
  write(dir.path() / "a.json", to_json(example()).dump(2));
  json bad = to_json(example());
  bad.erase("source");
  write(dir.path() / "z.json", bad.dump(2));
  auto all = load_all(dir.path());
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.error().file, (dir.path() / "z.json").string());
  EXPECT_NE(all.error().message.find("source"), std::string::npos);
}

TEST(LoadAll, AMissingFolderIsAnError) {
  TempDir dir;
  auto all = load_all(dir.path() / "nothing");
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.error().message.find("does not exist"), std::string::npos);
}

TEST(WriteAtomic, CreatesFoldersReplacesAndLeavesNoTemporaryFile) {
  TempDir dir;
  const fs::path f = dir.path() / "deep" / "er" / "case.json";
  ASSERT_TRUE(write_atomic(f, "first\n").ok());
  ASSERT_TRUE(write_atomic(f, "second\n").ok());
  std::ifstream in(f);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "second\n");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(f.parent_path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

TEST(WriteAtomic, FailsWhenTheFolderCannotBeCreated) {
  TempDir dir;
  write(dir.path() / "blocker", "a file where a folder should be");
  auto r = write_atomic(dir.path() / "blocker" / "case.json", "x");
  EXPECT_FALSE(r.ok());
}

TEST(CounterexamplePath, DependsOnlyOnClaimReadingParamsAndInput) {
  const fs::path root = "corpus";
  Case a = counterexample();
  Case b = counterexample();
  b.violation = "another wording";
  b.seed = 7;
  EXPECT_EQ(counterexample_path(root, a), counterexample_path(root, b));
  EXPECT_EQ(counterexample_path(root, a).parent_path(), root / "hypercube" / "alg2.disjoint");
  EXPECT_EQ(counterexample_path(root, a).filename().string().rfind("broken_ascending_order-", 0), 0u);
  b.input["y"] = "10";
  EXPECT_NE(counterexample_path(root, a), counterexample_path(root, b));
  EXPECT_FALSE(same_input(a, b));
}

TEST(DiffCells, NamesEveryDifferingLeafAndEveryOneSidedCell) {
  const json printed = {{"paths", {{"000", "010", "101", "100"}, {"000", "100"}}}};
  const json computed = {{"paths", {{"000", "010", "110", "100"}, {"000", "100", "000"}}}};
  const auto diffs = diff_cells(printed, computed);
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].cell, "/paths/0/2");
  EXPECT_EQ(diffs[0].printed, "101");
  EXPECT_EQ(diffs[0].computed, "110");
  EXPECT_EQ(diffs[1].cell, "/paths/1/2");
  EXPECT_TRUE(diffs[1].printed.is_null());
  EXPECT_EQ(diffs[1].computed, "000");
  EXPECT_TRUE(diff_cells(printed, printed).empty());
  EXPECT_EQ(count_cells(printed), 6u);
}

TEST(ExplainDiffs, EmptyWhenEveryDiffHasItsErratum) {
  const Case c = example();
  const json computed = {{"paths", {{"000", "010", "110", "100"}}}};
  EXPECT_TRUE(explain_diffs(diff_cells(c.expected, computed), c.errata).empty());
}

TEST(ExplainDiffs, ReportsAnUnexplainedDiffAndAStaleErratum) {
  const Case c = example();
  // The construction now computes something else in that cell: the diff is unexplained and the
  // erratum is stale; both are reported.
  const json computed = {{"paths", {{"000", "010", "111", "100"}}}};
  const auto problems = explain_diffs(diff_cells(c.expected, computed), c.errata);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("no erratum explains it"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("no longer matches"), std::string::npos) << problems[1];
  // Printed exactly equals computed but an erratum is recorded: stale.
  EXPECT_EQ(explain_diffs({}, c.errata).size(), 1u);
}

}  // namespace
}  // namespace topocheck::corpus
