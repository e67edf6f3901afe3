// The engine's rules for publishable verdicts, on hand-made claims: a reading that holds with no
// input to which its premise applied is vacuous, never holds; a refutation whose ledger case the
// independent certificate checker does not certify is not called refuted; refuted claims are
// told errors of the paper (every reading the text allows refuted) from ambiguities.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "claims/claim.h"
#include "claims/ledger.h"
#include "claims/report.h"
#include "claims/runner.h"
#include "corpus/corpus.h"

namespace topocheck::claims {
namespace {

namespace fs = std::filesystem;

MethodFn returns(Outcome outcome, uint64_t cases, std::optional<uint64_t> applicable) {
  return [=](const RunContext&) {
    MethodResult m;
    m.outcome = outcome;
    m.cases = cases;
    m.applicable = applicable;
    if (outcome == Outcome::kRefuted) {
      Counterexample cx;
      cx.params = {{"n", 1}};
      cx.input = {{"x", "0"}};
      cx.violation = "made up";
      m.counterexample = cx;
      m.detail = "made up";
    }
    return m;
  };
}

Claim one_reading(const std::string& id, std::vector<std::pair<Method, MethodFn>> methods) {
  Reading r;
  r.name = "literal";
  r.methods = std::move(methods);
  return Claim::make("none", id, "nowhere", "test", {r});
}

TEST(Vacuity, HoldsWithNoApplicableInputIsVacuousNotHolds) {
  const Claim c = one_reading("selftest.vacuous", {{Method::kExhaustive, returns(Outcome::kHolds, 40, 0)},
                                                   {Method::kRandom, returns(Outcome::kHolds, 100, 0)}});
  const ReadingVerdict v = run_reading(c, c.readings[0], RunContext{});
  EXPECT_EQ(v.outcome, Outcome::kVacuous);
  EXPECT_EQ(v.cases, 140u);
  EXPECT_EQ(v.applicable, 0u);
  EXPECT_NE(v.detail.find("none of the 140 inputs"), std::string::npos) << v.detail;
}

TEST(Vacuity, OneApplicableInputOrAnUnsetCountKeepsHolds) {
  // Negative controls of the rule: it must not fire when something applied.
  const Claim some = one_reading("selftest.some", {{Method::kExhaustive, returns(Outcome::kHolds, 40, 0)},
                                                   {Method::kRandom, returns(Outcome::kHolds, 100, 1)}});
  EXPECT_EQ(run_reading(some, some.readings[0], RunContext{}).outcome, Outcome::kHolds);
  const Claim unset = one_reading("selftest.unset", {{Method::kExhaustive, returns(Outcome::kHolds, 40, std::nullopt)}});
  const ReadingVerdict v = run_reading(unset, unset.readings[0], RunContext{});
  EXPECT_EQ(v.outcome, Outcome::kHolds);
  EXPECT_EQ(v.applicable, 40u);
  // Nothing checked at all, count unset: vacuous too.
  const Claim none = one_reading("selftest.none", {{Method::kExhaustive, returns(Outcome::kHolds, 0, std::nullopt)}});
  EXPECT_EQ(run_reading(none, none.readings[0], RunContext{}).outcome, Outcome::kVacuous);
}

TEST(Vacuity, OneShardOfSeveralIsNotVacuousOnItsOwnButTheMergeIs) {
  const Claim c = one_reading("selftest.shard", {{Method::kExhaustive, returns(Outcome::kHolds, 10, 0)}});
  RunContext ctx;
  ctx.shard = Shard{2, 3};
  EXPECT_EQ(run_reading(c, c.readings[0], ctx).outcome, Outcome::kHolds);
  ReadingVerdict merged;
  merged.methods.push_back(returns(Outcome::kHolds, 30, 0)(ctx));
  combine_methods(merged);
  EXPECT_EQ(merged.outcome, Outcome::kVacuous);
}

TEST(Vacuity, RefutedStaysRefutedAndTheWordIsParsed) {
  const Claim c = one_reading("selftest.refuted", {{Method::kExhaustive, returns(Outcome::kRefuted, 5, 0)}});
  EXPECT_EQ(run_reading(c, c.readings[0], RunContext{}).outcome, Outcome::kRefuted);
  EXPECT_EQ(parse_outcome("vacuous"), Outcome::kVacuous);
  EXPECT_EQ(to_string(Outcome::kVacuous), "vacuous");
}

// A refuted reading with its ledger case stored in a temporary corpus.
struct StoredRefutation {
  fs::path dir;
  Registry registry;
  Ledger ledger;
  StoredRefutation() {
    dir = fs::temp_directory_path() / fs::path("topocheck-verdict-rules-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    registry.add(one_reading("selftest.certified", {{Method::kExhaustive, returns(Outcome::kRefuted, 5, 5)}}));
    const ReadingVerdict v = run_reading(registry.claims()[0], registry.claims()[0].readings[0], RunContext{});
    const corpus::Case c = to_case(v.claim, v.reading, *v.counterexample, Method::kExhaustive, 0, Budget::kStandard);
    const fs::path file = corpus::counterexample_path(dir, c);
    EXPECT_TRUE(corpus::write_atomic(file, corpus::to_json(c).dump(2)).ok());
    ledger.expectations.push_back({v.claim, v.reading, Outcome::kRefuted, {}, fs::relative(file, dir).string(), {}, "test"});
  }
  ~StoredRefutation() { fs::remove_all(dir); }
  ReadingVerdict run(CertifyFn certify) const {
    VerifyOptions options;
    options.corpus_dir = dir;
    options.certify = std::move(certify);
    return verify({&registry.claims()[0]}, ledger, options).at(0);
  }
};

TEST(Certification, ACertifiedCaseKeepsTheRefutation) {
  StoredRefutation s;
  const ReadingVerdict v = s.run([](const std::string&) { return std::nullopt; });
  EXPECT_EQ(v.outcome, Outcome::kRefuted);
  EXPECT_TRUE(v.matches) << v.mismatch;
}

TEST(Certification, ACaseTheCheckerRejectsIsNotCalledRefuted) {
  StoredRefutation s;
  std::string asked;
  const ReadingVerdict v = s.run([&](const std::string& rel) {
    asked = rel;
    return std::optional<std::string>("rejected: the paths share no internal node");
  });
  EXPECT_EQ(asked, s.ledger.expectations[0].corpus_case);
  EXPECT_EQ(v.outcome, Outcome::kInconclusive);
  EXPECT_FALSE(v.matches);
  EXPECT_NE(v.mismatch.find("fails certification"), std::string::npos) << v.mismatch;
  EXPECT_NE(v.detail.find("share no internal node"), std::string::npos) << v.detail;
}

ReadingVerdict verdict(const std::string& claim, const std::string& reading, Outcome o, bool faithful = true,
                       bool beyond = false) {
  ReadingVerdict v;
  v.claim = claim;
  v.reading = reading;
  v.outcome = o;
  v.faithful = faithful;
  v.beyond_paper = beyond;
  return v;
}

TEST(Summaries, ErrorOfThePaperAmbiguousUndecidedAndBeyondThePaperApart) {
  const std::vector<ReadingVerdict> vs = {
      verdict("a.error", "x", Outcome::kRefuted), verdict("a.error", "y", Outcome::kRefuted),
      verdict("a.error", "repaired", Outcome::kHolds, /*faithful=*/false),
      verdict("b.ambiguous", "x", Outcome::kRefuted), verdict("b.ambiguous", "y", Outcome::kHolds),
      verdict("c.undecided", "x", Outcome::kRefuted), verdict("c.undecided", "y", Outcome::kVacuous),
      verdict("d.control", "x", Outcome::kRefuted, true, /*beyond=*/true),
      verdict("e.holds", "x", Outcome::kHolds)};
  std::vector<ReadingVerdict> with_measured = vs;
  with_measured.push_back(verdict("f.measured", "x", Outcome::kRefuted));
  with_measured.back().empirical = true;
  EXPECT_EQ(summarize_claims(with_measured).back().kind, "not reproduced");
  const auto s = summarize_claims(vs);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].claim, "a.error");
  EXPECT_EQ(s[0].kind, "error of the paper");
  EXPECT_EQ(s[0].other.size(), 1u);  // the repair, not a reading of the text
  EXPECT_EQ(s[1].kind, "ambiguous");
  EXPECT_EQ(s[1].holding, std::vector<std::string>{"y"});
  EXPECT_EQ(s[2].kind, "undecided");
  EXPECT_EQ(s[3].kind, "beyond the paper");
  EXPECT_NE(render_claim_summaries(vs).find("b.ambiguous"), std::string::npos);
}

TEST(Summaries, ClaimMakeMarksALocationBeyondThePaper) {
  EXPECT_TRUE(Claim::make("p", "x.y", "Theorem 2 (beyond the paper: its hypothesis dropped)", "s", {}).beyond_paper);
  EXPECT_FALSE(Claim::make("p", "x.y", "Theorem 2", "s", {}).beyond_paper);
}

}  // namespace
}  // namespace topocheck::claims
