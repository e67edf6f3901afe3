// The claims framework end to end on real and deliberately broken claims: verdict combination,
// ledger comparison, counterexample minimization, corpus round trip and replay, examples.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "claims/claim.h"
#include "registry/full_registry.h"
#include "catalog/hypercube/scope.h"
#include "catalog/metacube/scope.h"
#include "claims/ledger.h"
#include "claims/random_method.h"
#include "claims/report.h"
#include "claims/runner.h"
#include "corpus/corpus.h"
#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"
#include "hypercube/hypercube_gen.h"

namespace topocheck::claims {
namespace {

namespace fs = std::filesystem;
using hypercube::Hypercube;
using hypercube::P3Variant;
using nlohmann::json;

fs::path corpus_dir() {
  const char* env = std::getenv("TOPOCHECK_CORPUS");
  return env ? fs::path(env) : fs::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / fmt::format("topocheck-{}-{}", name, ::getpid());
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// A claim whose construction is the broken p3 (negative control): exhaustive and random
// methods must refute it with a minimal counterexample.
Claim broken_claim(P3Variant variant) {
  Claim c;
  c.id = "selftest.broken_p3.disjoint";
  c.paper = "none";
  c.location = "negative control";
  c.statement = "Algorithm 2 with a broken p3 is disjoint (false)";
  Reading r;
  r.name = "literal";
  auto check = [variant](const Hypercube& cube, Node x, Node y) {
    return hypercube::check_alg2_disjoint(cube, x, y, variant);
  };
  auto to_cx = [variant](const Hypercube& cube, Node x, Node y, std::string v) {
    Counterexample cx;
    cx.params = {{"n", cube.dimension()}};
    cx.input = {{"x", x.to_string()}, {"y", y.to_string()}};
    cx.violation = std::move(v);
    cx.witness = {{"paths", paths_to_json(hypercube::cube_disjoint_paths(cube.dimension(), x, y, variant))}};
    return cx;
  };
  r.check_case = [check](const json& params, const json& input) -> Result<CaseCheck> {
    const int n = params.at("n").get<int>();
    auto x = parse_node(input.at("x").get<std::string>(), n);
    auto y = parse_node(input.at("y").get<std::string>(), n);
    if (!x || !y) return invalid_argument("bad input");
    return CaseCheck{check(Hypercube::make(n).value(), *x, *y), json::object()};
  };
  r.methods.emplace_back(Method::kExhaustive, [check, to_cx](const RunContext&) {
    MethodResult m;
    m.method = Method::kExhaustive;
    for (int n = 1; n <= 6; ++n) {
      const Hypercube cube = Hypercube::make(n).value();
      for (uint64_t x = 0; x < cube.num_nodes(); ++x)
        for (uint64_t y = 0; y < cube.num_nodes(); ++y) {
          ++m.cases;
          if (auto v = check(cube, Node{x, n}, Node{y, n})) {
            m.outcome = Outcome::kRefuted;
            m.detail = *v;
            m.counterexample = to_cx(cube, Node{x, n}, Node{y, n}, *v);
            m.counterexample->minimized = true;
            return m;
          }
        }
    }
    m.outcome = Outcome::kHolds;
    return m;
  });
  r.methods.emplace_back(Method::kRandom, [check, to_cx](const RunContext& ctx) {
    RandomSpec<hypercube::CubePair> spec{hypercube::gen::cube_pair(20)};
    spec.cases = 500;
    spec.scope = "n = 1..20";
    spec.check = [&](const hypercube::CubePair& p) -> std::optional<Counterexample> {
      const Hypercube cube = Hypercube::make(p.n).value();
      if (auto v = check(cube, p.x, p.y)) return to_cx(cube, p.x, p.y, *v);
      return std::nullopt;
    };
    return run_random(ctx, spec);
  });
  c.readings.push_back(std::move(r));
  return c;
}

TEST(Verify, BrokenP3IsRefutedByExhaustiveSearchWithTheSmallestCounterexample) {
  Registry registry;
  registry.add(broken_claim(P3Variant::kBrokenAscendingOrder));
  RunContext ctx;
  ctx.seed = 7;
  const ReadingVerdict v = run_reading(registry.claims()[0], registry.claims()[0].readings[0], ctx);
  EXPECT_EQ(v.outcome, Outcome::kRefuted);
  ASSERT_TRUE(v.counterexample.has_value());
  // The smallest n at which the ascending order breaks the claim is n = 2: for x = 00, y = 10,
  // P_0 = 00:01:00:10 flips dimension 0 back first (not simple).
  EXPECT_EQ(v.counterexample->params.at("n").get<int>(), 2);
  EXPECT_EQ(v.counterexample->input, (json{{"x", "00"}, {"y", "10"}}));
  EXPECT_TRUE(v.counterexample->minimized);
}

TEST(Verify, RandomSearchShrinksTheBrokenP3CounterexampleToASmallCube) {
  for (P3Variant variant : {P3Variant::kBrokenAscendingOrder, P3Variant::kBrokenMissingFlip}) {
    Claim c = broken_claim(variant);
    RunContext ctx;
    ctx.seed = 12345;
    const MethodResult r = c.readings[0].methods[1].second(ctx);
    ASSERT_EQ(r.outcome, Outcome::kRefuted) << to_string(variant);
    ASSERT_TRUE(r.counterexample.has_value());
    EXPECT_LE(r.counterexample->params.at("n").get<int>(), 3) << r.counterexample->input.dump();
    // The shrunk case still fails under core's checker.
    auto again = c.readings[0].check_case(r.counterexample->params, r.counterexample->input);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again->violation.has_value());
  }
}

TEST(Verify, SameSeedGivesTheSameCounterexample) {
  Claim c = broken_claim(P3Variant::kBrokenMissingFlip);
  RunContext ctx;
  ctx.seed = 99;
  const MethodResult a = c.readings[0].methods[1].second(ctx);
  const MethodResult b = c.readings[0].methods[1].second(ctx);
  ASSERT_TRUE(a.counterexample && b.counterexample);
  EXPECT_EQ(a.counterexample->input, b.counterexample->input);
  EXPECT_EQ(a.counterexample->params, b.counterexample->params);
}

TEST(Verify, ANewCounterexampleDiffersFromTheLedgerUntilItIsStoredThenReplays) {
  Registry registry;
  registry.add(broken_claim(P3Variant::kBrokenAscendingOrder));
  Ledger ledger;
  ledger.expectations.push_back({"selftest.broken_p3.disjoint", "literal", Outcome::kRefuted, {}, "", {}, "test"});
  // The ledger names no case yet: the refutation differs until one is stored and named.
  const fs::path dir = temp_dir("verify");
  VerifyOptions options;
  options.corpus_dir = dir;
  std::vector<const Claim*> claims = {&registry.claims()[0]};

  auto first = verify(claims, ledger, options);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].outcome, Outcome::kRefuted);
  EXPECT_FALSE(first[0].matches);
  EXPECT_NE(first[0].mismatch.find("names no case"), std::string::npos) << first[0].mismatch;

  // Store it (atomically), load it back, and verify again: now it matches and names the case.
  corpus::Case c = to_case(first[0].claim, first[0].reading, *first[0].counterexample, Method::kExhaustive,
                           first[0].seed, Budget::kStandard);
  const fs::path file = corpus::counterexample_path(dir, c);
  ASSERT_TRUE(corpus::write_atomic(file, corpus::to_json(c).dump(2)).ok());
  auto loaded = corpus::load_all(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_TRUE(corpus::same_input(loaded->front(), c));
  ledger.expectations[0].corpus_case = fs::relative(file, dir).string();
  auto second = verify(claims, ledger, options);
  EXPECT_TRUE(second[0].matches) << second[0].mismatch;
  EXPECT_EQ(second[0].corpus_case, fs::relative(file, dir).string());

  // A ledger naming another case (here: one of another input) makes the same refutation differ.
  corpus::Case other = c;
  other.input["x"] = "not the same input";
  const fs::path other_file = corpus::counterexample_path(dir, other);
  ASSERT_TRUE(corpus::write_atomic(other_file, corpus::to_json(other).dump(2)).ok());
  ledger.expectations[0].corpus_case = fs::relative(other_file, dir).string();
  auto third = verify(claims, ledger, options);
  EXPECT_FALSE(third[0].matches);
  EXPECT_NE(third[0].mismatch.find("not the ledger's case"), std::string::npos) << third[0].mismatch;

  auto replayed = replay_case(registry, loaded->front());
  ASSERT_TRUE(replayed.ok());
  EXPECT_TRUE(replayed->ok) << replayed->message;
  fs::remove_all(dir);
}

TEST(Verify, AMissingLedgerEntryIsADifference) {
  Registry registry = full_registry();
  Ledger empty;
  VerifyOptions options;
  options.budget = Budget::kQuick;
  options.corpus_dir = corpus_dir();
  auto v = verify({registry.find("hypercube.ecube.shortest")}, empty, options);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].outcome, Outcome::kHolds);
  EXPECT_FALSE(v[0].matches);
}

TEST(Verify, InconclusiveIsNeverReportedAsHolds) {
  Claim c;
  c.id = "selftest.inconclusive";
  Reading r;
  r.name = "literal";
  r.methods.emplace_back(Method::kExhaustive, [](const RunContext&) {
    MethodResult m;
    m.outcome = Outcome::kHolds;
    return m;
  });
  r.methods.emplace_back(Method::kSmt, [](const RunContext&) {
    MethodResult m;
    m.outcome = Outcome::kInconclusive;
    m.detail = "unknown";
    return m;
  });
  c.readings.push_back(r);
  const ReadingVerdict v = run_reading(c, c.readings[0], RunContext{});
  EXPECT_EQ(v.outcome, Outcome::kInconclusive);
}

TEST(Ledger, TheShippedLedgerCoversEveryClaimReadingAndNothingElse) {
  auto ledger = load_ledger(corpus_dir() / "ledger.json");
  ASSERT_TRUE(ledger.ok()) << ledger.error().to_string();
  Registry registry = full_registry();
  EXPECT_TRUE(stale_expectations(*ledger, registry).empty());
  for (const Claim& c : registry.claims())
    for (const Reading& r : c.readings) EXPECT_NE(ledger->find(c.id, r.name), nullptr) << c.id << " " << r.name;
}

// Every case the ledger names (its `case` and per-budget `cases`) is a stored counterexample of
// that claim reading, and every refutation the ledger expects at some budget names one there.
TEST(Ledger, EveryNamedCaseIsAStoredCounterexampleOfItsClaimReading) {
  auto ledger = load_ledger(corpus_dir() / "ledger.json");
  ASSERT_TRUE(ledger.ok()) << ledger.error().to_string();
  size_t named = 0;
  for (const Expectation& e : ledger->expectations)
    for (Budget b : {Budget::kQuick, Budget::kStandard, Budget::kDeep}) {
      if (e.at(b) != Outcome::kRefuted) continue;
      ASSERT_FALSE(e.case_at(b).empty()) << e.claim << " [" << e.reading << "] at " << to_string(b);
      auto c = corpus::load_case(corpus_dir() / e.case_at(b));
      ASSERT_TRUE(c.ok()) << c.error().to_string();
      EXPECT_EQ(c->kind, corpus::CaseKind::kCounterexample) << e.case_at(b);
      EXPECT_EQ(c->claim, e.claim) << e.case_at(b);
      EXPECT_EQ(c->reading, e.reading) << e.case_at(b);
      ++named;
    }
  EXPECT_GT(named, 0u);
}

TEST(Examples, Table1IsReproducedExceptItsRecordedErrata) {
  auto c = corpus::load_case(corpus_dir() / "hypercube/examples/table1.json");
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  Registry registry = full_registry();
  auto report = check_example(registry, *c);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->problems.empty());
  EXPECT_EQ(report->diffs.size(), 2u);
}

TEST(Examples, TheLiteralHeadingOfTable1sFourthColumnDoesNotReproduceIt) {
  // READING.md: the sub-headers name (x, y) with x = 000. Read literally, "(100, 000)" means
  // x = 100, y = 000; that reading reproduces none of the printed paths of the column.
  auto c = corpus::load_case(corpus_dir() / "hypercube/examples/table1.json");
  ASSERT_TRUE(c.ok());
  corpus::Case literal = *c;
  literal.input["columns"][3] = {{"x", "100"}, {"y", "000"}};
  Registry registry = full_registry();
  auto report = check_example(registry, literal);
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->problems.empty());
  EXPECT_GT(report->diffs.size(), 2u);
}

TEST(Examples, AChangedPrintedCellIsAnUnexplainedDifference) {
  auto c = corpus::load_case(corpus_dir() / "hypercube/examples/table1.json");
  ASSERT_TRUE(c.ok());
  corpus::Case changed = *c;
  changed.expected["columns"][0]["paths"][0][1] = "011";
  auto report = check_example(full_registry(), changed);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_NE(report->problems[0].find("/columns/0/paths/0/1"), std::string::npos);
}

TEST(Report, JsonHasTheDocumentedFields) {
  ReadingVerdict v;
  v.claim = "a.b.c";
  v.reading = "literal";
  v.outcome = Outcome::kHolds;
  v.expected = Outcome::kHolds;
  v.matches = true;
  const json j = verdicts_to_json({v}, Budget::kQuick, 3, 1);
  for (const char* key : {"id", "reading", "methods", "verdict", "scope", "cases", "expected", "matches", "corpus_case"})
    EXPECT_TRUE(j.at("claims").at(0).contains(key)) << key;
  EXPECT_EQ(j.at("summary").at("matching"), 1);
  EXPECT_NE(verdicts_to_junit({v}, Budget::kQuick).find("<testcase classname=\"a.b.c\""), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Shards

TEST(Shards, ParseAcceptsIOfNCountingFromOneAndNamesWhatIsWrong) {
  auto ok = parse_shard("3/8");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, (Shard{3, 8}));
  EXPECT_EQ(ok->to_string(), "3/8");
  for (const char* bad : {"0/4", "5/4", "1/0", "4", "a/4", "1/", "/4", "-1/4", "1/4/2", ""}) {
    auto r = parse_shard(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().message.rfind("--shard: ", 0), 0u) << r.error().message;
  }
}

TEST(Shards, RangesCoverTheSequenceOnceInOrderWithSizesWithinOne) {
  for (uint64_t total : {0ull, 1ull, 7ull, 1000ull, 1ull << 40})
    for (int count : {1, 2, 3, 64, 1000}) {
      uint64_t next = 0, smallest = ~0ull, largest = 0;
      for (int i = 1; i <= count; ++i) {
        const auto [first, last] = Shard{i, count}.range(total);
        EXPECT_EQ(first, next);
        smallest = std::min(smallest, last - first);
        largest = std::max(largest, last - first);
        next = last;
      }
      EXPECT_EQ(next, total);
      EXPECT_LE(largest - smallest, 1u);
    }
}

TEST(Shards, CostRangesTileTheSequenceAndCarryEqualWorkWithinOneItem) {
  // The deep metacube sweep's shape: small cheap parts, then one large expensive one.
  const std::vector<std::vector<std::pair<uint64_t, double>>> shapes = {
      {{992, 10 * 2 + 0.0}, {5184, 4 * 6.0}, {1 << 20, 6 * 27.0}},
      {{1, 1.0}},
      {{0, 5.0}, {7, 1.0}, {0, 2.0}},
      {{1000, 1.0}, {1000, 100.0}},
      {{uint64_t{1} << 40, 3.0}, {uint64_t{1} << 38, 162.0}}};
  for (const auto& segments : shapes)
    for (int count : {1, 2, 3, 64, 1000}) {
      long double total_cost = 0, largest_item = 0;
      uint64_t total = 0;
      for (const auto& [items, cost] : segments) {
        total_cost += static_cast<long double>(items) * cost;
        total += items;
        if (items) largest_item = std::max<long double>(largest_item, cost);
      }
      uint64_t next = 0;
      for (int i = 1; i <= count; ++i) {
        const auto [first, last] = Shard{i, count}.range_by_cost(segments);
        EXPECT_EQ(first, next);
        ASSERT_LE(first, last);
        // The shard's cost.
        long double cost = 0;
        uint64_t offset = 0;
        for (const auto& [items, c] : segments) {
          const uint64_t a = std::max(first, offset), b = std::min(last, offset + items);
          if (b > a) cost += static_cast<long double>(b - a) * c;
          offset += items;
        }
        EXPECT_LE(cost, total_cost / count + 2 * largest_item + 1e-6L * total_cost) << "shard " << i << "/" << count;
        next = last;
      }
      EXPECT_EQ(next, total);
    }
}

// Runs `claims` whole and as `count` shards (each report through its JSON form, as `merge` reads
// it), and returns both.
std::pair<std::vector<ReadingVerdict>, MergedShards> whole_and_merged(const std::vector<const Claim*>& claims,
                                                                     int count) {
  VerifyOptions options;
  options.budget = Budget::kQuick;
  options.corpus_dir = corpus_dir();
  options.jobs = count > 3 ? 1 : 2;
  const Ledger ledger;
  auto whole = verify(claims, ledger, options);
  std::vector<ShardReport> reports;
  for (int i = 1; i <= count; ++i) {
    options.shard = Shard{i, count};
    const json j = verdicts_to_json(verify(claims, ledger, options), options.budget, options.seed, 1, options.shard);
    auto report = shard_report_from_json(json::parse(j.dump()), fmt::format("shard{}.json", i));
    EXPECT_TRUE(report.ok()) << report.error().to_string();
    reports.push_back(*report);
  }
  std::reverse(reports.begin(), reports.end());  // the order of the files does not matter
  auto merged = merge_shards(reports);
  EXPECT_TRUE(merged.ok()) << merged.error().to_string();
  return {whole, *merged};
}

void expect_same_verdicts(const std::vector<ReadingVerdict>& whole, const MergedShards& merged);

TEST(Shards, MergedShardsGiveTheWholeRunsVerdictsCasesAndFirstCounterexample) {
  Registry registry = full_registry();
  std::vector<const Claim*> claims;
  for (const char* id : {"hypercube.alg2.lengths", "hypercube.ecube.deadlock_free", "metacube.alg1.route",
                         "metacube.thm2.valid", "metacube.symmetry.alg4_commutes", "metacube.connectivity"})
    claims.push_back(registry.find(id));
  const auto [whole, merged] = whole_and_merged(claims, 3);
  expect_same_verdicts(whole, merged);
}

// `paper`'s first violation of Theorem 2's validity is pair 2 of the quick sweep (MC(1,1),
// s = 000, t = 010): in 2000 shards, shard 1 ([0, 2)) holds, shard 2 refutes with it, and every
// later shard refutes with a later pair. The merge must keep shard 2's.
TEST(Shards, TheMergedCounterexampleIsTheLowestRefutingShards) {
  Registry registry = full_registry();
  const auto [whole, merged] = whole_and_merged({registry.find("metacube.thm2.valid")}, 2000);
  ASSERT_EQ(whole.at(0).reading, "paper");
  ASSERT_TRUE(whole.at(0).counterexample.has_value());
  EXPECT_EQ(whole.at(0).counterexample->input, (json{{"s", "000"}, {"t", "010"}}));
  expect_same_verdicts(whole, merged);
}

void expect_same_verdicts(const std::vector<ReadingVerdict>& whole, const MergedShards& merged) {
  ASSERT_EQ(merged.verdicts.size(), whole.size());
  for (size_t k = 0; k < whole.size(); ++k) {
    const ReadingVerdict &w = whole[k], &m = merged.verdicts[k];
    SCOPED_TRACE(w.claim + " [" + w.reading + "]");
    EXPECT_EQ(m.outcome, w.outcome);
    ASSERT_EQ(m.methods.size(), w.methods.size());
    for (size_t j = 0; j < w.methods.size(); ++j) {
      // A refuted sweep stops at its first violation, so its case count depends on the split.
      if (w.methods[j].outcome == Outcome::kHolds) {
        EXPECT_EQ(m.methods[j].cases, w.methods[j].cases);
      }
      EXPECT_EQ(m.methods[j].outcome, w.methods[j].outcome);
    }
    EXPECT_EQ(m.counterexample.has_value(), w.counterexample.has_value());
    if (w.counterexample) {
      EXPECT_EQ(m.counterexample->params, w.counterexample->params);
      EXPECT_EQ(m.counterexample->input, w.counterexample->input);
    }
  }
}

// Every shard sweeps its slice; the work that is not split (here the random method, unit
// ctx.unit + 1) runs whole in the one shard unit mod N + 1 names, and is skipped in the others.
TEST(Shards, UnsplitWorkRunsInExactlyOneShardDealtRoundRobin) {
  Registry registry = full_registry();
  const Claim& c = *registry.find("hypercube.alg2.lengths");
  for (uint64_t first_unit : {0u, 1u, 2u, 7u}) {
    int ran = 0;
    for (int i = 1; i <= 3; ++i) {
      RunContext ctx;
      ctx.budget = Budget::kQuick;
      ctx.shard = Shard{i, 3};
      ctx.unit = first_unit;
      const ReadingVerdict v = run_reading(c, c.readings[0], ctx);
      ASSERT_EQ(v.methods.size(), 2u);
      EXPECT_EQ(v.methods[0].method, Method::kExhaustive);
      EXPECT_FALSE(v.methods[0].skipped);
      EXPECT_EQ(v.methods[0].shard.rfind(fmt::format("{}/3, pairs [", i), 0), 0u) << v.methods[0].shard;
      EXPECT_EQ(v.methods[1].method, Method::kRandom);
      const int owner = static_cast<int>((first_unit + 1) % 3) + 1;
      EXPECT_EQ(v.methods[1].skipped, i != owner) << "unit " << first_unit + 1 << ", shard " << i;
      if (v.methods[1].skipped) {
        EXPECT_EQ(v.methods[1].cases, 0u);
        EXPECT_NE(v.methods[1].scope.find(fmt::format("runs in shard {}/3", owner)), std::string::npos)
            << v.methods[1].scope;
      } else {
        EXPECT_GT(v.methods[1].cases, 0u);
        ++ran;
      }
    }
    EXPECT_EQ(ran, 1) << "first unit " << first_unit;
  }
}

TEST(Shards, MergeNamesMissingAndRepeatedShardsAndMismatchedRuns) {
  auto report = [](int i, int n, Budget b = Budget::kQuick) {
    ShardReport r;
    r.file = fmt::format("s{}of{}.json", i, n);
    r.budget = b;
    r.seed = 1;
    r.shard = Shard{i, n};
    return r;
  };
  auto missing = merge_shards({report(1, 4), report(3, 4)});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing shards 2/4, 4/4 (have 2 of 4)"), std::string::npos)
      << missing.error().message;
  auto twice = merge_shards({report(1, 2), report(2, 2), report(2, 2)});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("shard 2/2 is also in s2of2.json"), std::string::npos) << twice.error().message;
  auto sizes = merge_shards({report(1, 2), report(2, 3)});
  ASSERT_FALSE(sizes.ok());
  EXPECT_EQ(sizes.error().file, "s2of3.json");
  auto budgets = merge_shards({report(1, 2), report(2, 2, Budget::kDeep)});
  ASSERT_FALSE(budgets.ok());
  EXPECT_NE(budgets.error().message.find("budget deep"), std::string::npos) << budgets.error().message;
  ShardReport whole = report(1, 1);
  whole.shard.reset();
  auto unsharded = merge_shards({whole});
  ASSERT_FALSE(unsharded.ok());
  EXPECT_NE(unsharded.error().message.find("not a shard report"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The class-zero translation reduction

// The readings whose exhaustive Theorem 2 sweep reduces to sources with zero M fields rest on
// metacube.symmetry.alg4_commutes: the ledger must expect it to hold for them, at every budget.
TEST(Symmetry, EveryTranslationInvariantReadingCommutesInTheLedger) {
  auto ledger = load_ledger(corpus_dir() / "ledger.json");
  ASSERT_TRUE(ledger.ok()) << ledger.error().to_string();
  for (const std::string& reading : metacube_scope::kTranslationInvariantReadings) {
    const Expectation* e = ledger->find("metacube.symmetry.alg4_commutes", reading);
    ASSERT_NE(e, nullptr) << reading;
    for (Budget b : {Budget::kQuick, Budget::kStandard, Budget::kDeep})
      EXPECT_EQ(e->at(b), Outcome::kHolds) << reading << " at budget " << to_string(b);
  }
}

// And the sweep itself refuses to reduce (an error verdict, before any pair) when the ledger it
// runs against does not expect commutation.
TEST(Symmetry, TheReducedSweepRefusesWithoutTheCommutationExpectation) {
  const fs::path dir = temp_dir("reduction");
  {
    json expectations = json::array();
    for (const std::string& reading : metacube_scope::kTranslationInvariantReadings)
      expectations.push_back({{"claim", "metacube.symmetry.alg4_commutes"},
                              {"reading", reading},
                              {"verdict", "refuted"},
                              {"case", "x.json"},
                              {"reason", "test"}});
    std::ofstream ledger(dir / "ledger.json");
    ledger << json{{"format", 1}, {"expectations", expectations}}.dump();
  }
  const auto ledger = load_ledger(dir / "ledger.json");
  ASSERT_TRUE(ledger.ok()) << ledger.error().to_string();
  Registry registry = full_registry();
  const Claim& c = *registry.find("metacube.thm2.length");
  for (const std::string& reading : metacube_scope::kTranslationInvariantReadings) {
    RunContext ctx;
    ctx.budget = Budget::kDeep;
    attach_corpus(ctx, dir, &*ledger);
    const MethodResult r = c.find_reading(reading)->methods.at(0).second(ctx);
    EXPECT_EQ(r.outcome, Outcome::kError) << reading;
    EXPECT_EQ(r.cases, 0u) << reading;
    EXPECT_NE(r.detail.find("to be refuted at budget deep: the reduced sweep (sources with zero M fields) would be "
                            "unsound"),
              std::string::npos)
        << reading << ": " << r.detail;
  }
  fs::remove_all(dir);
}

// The `random` method of Theorem 2's readings: on `paper` (refuted by MC(1,1) already) it fails,
// and the shrunk failure is reported in the exhaustive method's shape and as its first
// counterexample (the one the corpus holds), which replays; on `repaired` it holds on k <= 3.
// Combined with the exhaustive method, a random method that refutes too, or finds nothing, keeps
// the exhaustive refutation and its counterexample.
TEST(MetacubeRandom, AFailureIsShrunkToTheExhaustiveMethodsFirstCounterexample) {
  Registry registry = full_registry();
  const Claim& c = *registry.find("metacube.thm2.valid");
  RunContext ctx;
  ctx.budget = Budget::kQuick;
  ctx.seed = 7;
  const Reading& paper = *c.find_reading("paper");
  ASSERT_EQ(paper.methods.at(1).first, Method::kRandom);
  const MethodResult random = paper.methods.at(1).second(ctx);
  ASSERT_EQ(random.outcome, Outcome::kRefuted) << random.detail;
  ASSERT_TRUE(random.counterexample.has_value());
  EXPECT_EQ(random.counterexample->params, (json{{"k", 1}, {"m", 1}}));
  EXPECT_EQ(random.counterexample->input, (json{{"s", "000"}, {"t", "010"}}));
  EXPECT_TRUE(random.counterexample->minimized);
  EXPECT_EQ(random.detail.rfind("MC(1,1): s = 000, t = 010: ", 0), 0u) << random.detail;
  EXPECT_NE(random.scope.find("seed 7"), std::string::npos) << random.scope;
  auto replay = paper.check_case(random.counterexample->params, random.counterexample->input);
  ASSERT_TRUE(replay.ok());
  EXPECT_TRUE(replay->violation.has_value());

  const MethodResult exhaustive = paper.methods.at(0).second(ctx);
  for (Outcome random_outcome : {Outcome::kRefuted, Outcome::kHolds}) {
    ReadingVerdict v;
    v.methods = {exhaustive, random};
    v.methods[1].outcome = random_outcome;
    if (random_outcome == Outcome::kHolds) v.methods[1].counterexample.reset();
    combine_methods(v);
    EXPECT_EQ(v.outcome, Outcome::kRefuted);
    ASSERT_TRUE(v.counterexample.has_value());
    EXPECT_EQ(v.counterexample->input, exhaustive.counterexample->input);
  }

  const MethodResult repaired = c.find_reading("repaired")->methods.at(1).second(ctx);
  EXPECT_EQ(repaired.outcome, Outcome::kHolds) << repaired.detail;
  EXPECT_EQ(repaired.cases, static_cast<uint64_t>(metacube_scope::kRepairedRandomCases.quick));
  EXPECT_NE(repaired.scope.find("k = 1..3"), std::string::npos) << repaired.scope;
}

TEST(Seeds, DerivedSeedsDependOnClaimAndReadingOnly) {
  EXPECT_EQ(derive_seed(1, "a", "literal"), derive_seed(1, "a", "literal"));
  EXPECT_NE(derive_seed(1, "a", "literal"), derive_seed(1, "b", "literal"));
  EXPECT_NE(derive_seed(1, "a", "literal"), derive_seed(2, "a", "literal"));
}

}  // namespace
}  // namespace topocheck::claims
