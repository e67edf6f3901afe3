// The corpus loader (loader.h) on the real corpus (every case loads) and on copies of real cases
// edited one defect at a time: each is an error naming the file.
#include "corpus/loader.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "claims/ledger.h"
#include "core/json_file.h"
#include "registry/full_registry.h"

namespace topocheck::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path real_corpus() {
  const char* env = std::getenv("TOPOCHECK_CORPUS");
  return env ? fs::path(env) : fs::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

const claims::Registry& registry() {
  static const claims::Registry r = full_registry();
  return r;
}

// A fresh folder holding copies of some real cases, at their paths relative to the corpus.
class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            fmt::format("topocheck-loader-{}-{}", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                        ::getpid());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  json read(const std::string& relative) {
    auto j = read_json_file(real_corpus() / relative);
    EXPECT_TRUE(j.ok()) << relative;
    return j.ok() ? *j : json();
  }
  fs::path write(const std::string& relative, const json& j) {
    const fs::path p = root_ / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << j.dump(2) << "\n";
    return p;
  }
  // The error of loading the folder, expected to name `file` and contain `message`.
  void expect_error(const fs::path& file, const std::string& message) {
    auto loaded = load_corpus(root_, registry());
    ASSERT_FALSE(loaded.ok()) << "expected an error about " << file;
    const std::string text = loaded.error().to_string();
    EXPECT_NE(text.find(file.string()), std::string::npos) << text;
    EXPECT_NE(text.find(message), std::string::npos) << text;
  }

  fs::path root_;
};

const std::string kDisjoint = "metacube/thm2.disjoint/paper-4eb4b5cf13a112a7.json";
const std::string kValid = "metacube/thm2.valid/paper-02edb145de06d096.json";
const std::string kExample = "hypercube/examples/table1.json";

TEST(Loader, RealCorpusLoadsClean) {
  // Every case on its own first, so that a failure lists every bad case, not only the first.
  auto all = load_all(real_corpus());
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  for (const Case& c : *all)
    if (auto e = check_case(c, registry())) ADD_FAILURE() << e->to_string();
  auto loaded = load_corpus(real_corpus(), registry());
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_GT(loaded->size(), 100u);
}

TEST(Loader, RealLedgerReferencesResolve) {
  auto ledger = claims::load_ledger(real_corpus() / "ledger.json", registry());
  ASSERT_TRUE(ledger.ok()) << ledger.error().to_string();
  for (const claims::Expectation& e : ledger->expectations) EXPECT_GT(e.line, 0) << e.claim;
}

TEST_F(LoaderTest, UnchangedCopiesLoad) {
  write(kDisjoint, read(kDisjoint));
  write(kExample, read(kExample));
  auto loaded = load_corpus(root_, registry());
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(loaded->size(), 2u);
}

TEST_F(LoaderTest, ParamOfTheWrongType) {
  json j = read(kDisjoint);
  j["params"]["k"] = "one";
  expect_error(write(kDisjoint, j), "k");
}

TEST_F(LoaderTest, NumberWhereANodeBelongs) {
  json j = read(kDisjoint);
  j["input"]["s"] = 0;
  expect_error(write(kDisjoint, j), "s");
}

TEST_F(LoaderTest, NodeOfTheWrongWidth) {
  json j = read(kDisjoint);
  j["input"]["t"] = "1010";
  expect_error(write(kDisjoint, j), "t");
}

TEST_F(LoaderTest, UnknownClaimAndReading) {
  json j = read(kDisjoint);
  j["claim"] = "metacube.thm2.nothing";
  expect_error(write(kDisjoint, j), "unknown claim 'metacube.thm2.nothing'");
  fs::remove_all(root_ / "metacube");
  j = read(kDisjoint);
  j["reading"] = "nothing";
  expect_error(write(kDisjoint, j), "has no reading 'nothing'");
}

TEST_F(LoaderTest, WitnessNodeOfTheWrongWidth) {
  json j = read(kDisjoint);
  j["witness"]["paths"][0][1] = "0100";
  expect_error(write(kDisjoint, j), "witness/paths/0/1 is \"0100\"");
}

TEST_F(LoaderTest, WitnessOfAnotherCase) {
  json j = read(kDisjoint);
  j["witness"] = read(kValid)["witness"];
  expect_error(write(kDisjoint, j), "the stored witness is not the one the claim's checker finds");
}

TEST_F(LoaderTest, CaseInAnotherClaimsFolder) {
  const json j = read(kDisjoint);
  expect_error(write("metacube/thm2.valid/paper-4eb4b5cf13a112a7.json", j),
               "belongs in metacube/thm2.disjoint/, not in metacube/thm2.valid/");
}

TEST_F(LoaderTest, ExampleOutsideExamples) {
  expect_error(write("hypercube/table1/table1.json", read(kExample)), "belongs in hypercube/examples/");
}

TEST_F(LoaderTest, CopyOfACaseNamesBothFiles) {
  const fs::path a = write(kDisjoint, read(kDisjoint));
  const fs::path b = write("metacube/thm2.disjoint/paper-copy.json", read(kDisjoint));
  auto loaded = load_corpus(root_, registry());
  ASSERT_FALSE(loaded.ok());
  const std::string text = loaded.error().to_string();
  EXPECT_NE(text.find(a.string()), std::string::npos) << text;
  EXPECT_NE(text.find(b.string()), std::string::npos) << text;
}

TEST_F(LoaderTest, ExampleListedTwice) {
  write(kExample, read(kExample));
  expect_error(write("hypercube/examples/table1-again.json", read(kExample)), "same claim, reading, params and input");
}

TEST_F(LoaderTest, SameFileGivenTwice) {
  auto c = load_checked_case(write(kDisjoint, read(kDisjoint)), registry());
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  auto e = find_duplicates({*c, *c});
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("given twice"), std::string::npos) << e->message;
}

// The ledger's references: unknown claims and readings, missing cases, each at the entry's line.
class LedgerRefsTest : public LoaderTest {
 protected:
  // A ledger of one entry, preceded by a copy of the real ledger's first entry, so the entry under
  // test starts on a known line.
  fs::path ledger_with(const json& entry) {
    json first = read("ledger.json")["expectations"][0];
    json ledger = {{"format", 1}, {"expectations", json::array({first, entry})}};
    const fs::path p = root_ / "ledger.json";
    std::ofstream(p) << ledger.dump(2) << "\n";
    return p;
  }
  // The line of the second entry in ledger.dump(2) (keys sorted): "{", "expectations": [, the first
  // entry ("{", one line per field, "},"), then the second's "{".
  int second_entry_line() {
    const json first = read("ledger.json")["expectations"][0];
    return 5 + static_cast<int>(first.size());
  }
  void expect_ledger_error(const json& entry, const std::string& message) {
    const fs::path file = ledger_with(entry);
    auto ledger = claims::load_ledger(file, registry());
    ASSERT_FALSE(ledger.ok());
    EXPECT_EQ(ledger.error().file, file.string());
    EXPECT_EQ(ledger.error().line, second_entry_line()) << ledger.error().to_string();
    EXPECT_NE(ledger.error().message.find(message), std::string::npos) << ledger.error().to_string();
  }
};

TEST_F(LedgerRefsTest, UnknownClaim) {
  expect_ledger_error({{"claim", "no.such.claim"}, {"reading", "literal"}, {"verdict", "holds"}, {"reason", "x"}},
                      "unknown claim 'no.such.claim'");
}

TEST_F(LedgerRefsTest, UnknownReading) {
  expect_ledger_error({{"claim", "metacube.thm2.disjoint"}, {"reading", "nothing"}, {"verdict", "holds"},
                       {"reason", "x"}},
                      "has no reading 'nothing'");
}

TEST_F(LedgerRefsTest, MissingCase) {
  expect_ledger_error({{"claim", "metacube.thm2.disjoint"}, {"reading", "paper"}, {"verdict", "refuted"},
                       {"case", "metacube/thm2.disjoint/none.json"}, {"reason", "x"}},
                      "which is not a file");
}

TEST_F(LedgerRefsTest, CaseOfAnotherReading) {
  write(kValid, read(kValid));
  expect_ledger_error({{"claim", "metacube.thm2.disjoint"}, {"reading", "paper"}, {"verdict", "refuted"},
                       {"case", kValid}, {"reason", "x"}},
                      "not a counterexample of this reading");
}

TEST_F(LedgerRefsTest, CaseOutsideTheCorpus) {
  expect_ledger_error({{"claim", "metacube.thm2.disjoint"}, {"reading", "paper"}, {"verdict", "refuted"},
                       {"case", "../ledger.json"}, {"reason", "x"}},
                      "not a path inside the corpus folder");
}

TEST_F(LedgerRefsTest, LineOfAnEntryWhoseReasonMentionsClaim) {
  // A reason quoting "claim" and braces does not shift the line count.
  json first = read("ledger.json")["expectations"][0];
  first["reason"] = "a \"claim\": {[ in words";
  json bad = {{"claim", "no.such.claim"}, {"reading", "literal"}, {"verdict", "holds"}, {"reason", "x"}};
  json ledger = {{"format", 1}, {"expectations", json::array({first, bad})}};
  const fs::path p = root_ / "ledger.json";
  std::ofstream(p) << ledger.dump(2) << "\n";
  auto loaded = claims::load_ledger(p, registry());
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().line, second_entry_line());
}

}  // namespace
}  // namespace topocheck::corpus
