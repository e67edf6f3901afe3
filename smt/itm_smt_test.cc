// The SMT encodings of itm.thm2.deadlock_free and itm.thm5.contention_free against brute force
// (binary itm_smt_test, with itm_smt_encoding_test.cc):
//  - ItmSmt: every labelled AddNode sequence up to kCrossCheckMaxN nodes under both rules, judged
//    by the naive checkers; per n, the proof holds iff no sequence fails, a refuted reading is
//    refuted at the same smallest n, and every model is judged again; negative controls (a step
//    on a non-edge, crossing chords) are satisfiable at the smallest n brute force finds; limits,
//    the registry glue;
//  - ItmSmtEncoding (itm_smt_encoding_test.cc): the formulas input by input: the inputs each
//    encoding admits are exactly the ITMs (or triangulations), symmetry breaking keeps every
//    isomorphism class, and the inputs on which a violation is satisfiable are exactly those the
//    checkers reject.
#include "smt/itm_smt.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "smt/itm_smt_test_support.h"

namespace topocheck::smt {
namespace {

using namespace itm_smt_test;
using claims::Outcome;
using nlohmann::json;

// What brute force finds, per n: does some sequence fail (the first failure's steps)?
struct BruteForce {
  std::map<int, std::optional<std::string>> thm2[2];  // by Rule
  std::map<int, std::optional<std::string>> thm5[4];  // by Contention, exterior ITMs
  std::map<int, uint64_t> sequences[2];               // by Rule
};

const BruteForce& brute_force() {
  static const BruteForce result = [] {
    BruteForce b;
    for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
      for (int n = 3; n <= kCrossCheckMaxN; ++n) {
        const int r = static_cast<int>(rule);
        b.thm2[r][n] = std::nullopt;
        if (rule == Rule::kExterior)
          for (Contention c : kReadings) b.thm5[static_cast<int>(c)][n] = std::nullopt;
        for_each_itm(n, rule, [&](const Itm& g) {
          ++b.sequences[r][n];
          auto& deadlock = b.thm2[r][n];
          if (!deadlock && itm::check_deadlock_free(g.graph())) deadlock = itm::to_string(g.steps());
          if (rule != Rule::kExterior) return;
          const auto order = itm::circular_order(g);
          ASSERT_TRUE(order.ok()) << order.error().message;
          for (Contention c : kReadings) {
            auto& contention = b.thm5[static_cast<int>(c)][n];
            if (!contention && itm::check_contention_free(g.graph(), *order, c)) contention = itm::to_string(g.steps());
          }
        });
      }
    return b;
  }();
  return result;
}


TEST(ItmSmt, BruteForceCountsEveryLabelledSequence) {
  // Any edge: 3 * 5 * ... * (2n - 5) sequences; exterior: 3 * 4 * ... * (n - 1).
  const BruteForce& b = brute_force();
  uint64_t any = 1, exterior = 1;
  for (int n = 3; n <= kCrossCheckMaxN; ++n) {
    if (n > 3) {
      any *= static_cast<uint64_t>(2 * n - 5);
      exterior *= static_cast<uint64_t>(n - 1);
    }
    EXPECT_EQ(b.sequences[0].at(n), any) << "n = " << n;
    EXPECT_EQ(b.sequences[1].at(n), exterior) << "n = " << n;
  }
}

// The verdicts brute force reaches, pinned so that a change in the checkers is noticed here too.
TEST(ItmSmt, BruteForceVerdictsUpToN8) {
  const BruteForce& b = brute_force();
  for (int n = 3; n <= kCrossCheckMaxN; ++n) {
    EXPECT_FALSE(b.thm2[0].at(n)) << "any-edge n = " << n << ": " << *b.thm2[0].at(n);
    EXPECT_FALSE(b.thm2[1].at(n)) << "exterior n = " << n << ": " << *b.thm2[1].at(n);
    EXPECT_FALSE(b.thm5[static_cast<int>(Contention::kPaper)].at(n)) << n;
    EXPECT_FALSE(b.thm5[static_cast<int>(Contention::kSharedEndpoint)].at(n)) << n;
    EXPECT_EQ(b.thm5[static_cast<int>(Contention::kReversed)].at(n).has_value(), n >= 6) << n;
    EXPECT_EQ(b.thm5[static_cast<int>(Contention::kUndirected)].at(n).has_value(), n >= 6) << n;
  }
}

// A method result for n: kHolds iff brute force finds no failure; a refutation judged again here.
void expect_agrees(const claims::MethodResult& r, const std::optional<std::string>& brute, Rule rule,
                   const std::function<Violation(const Itm&)>& judge, const std::string& what) {
  if (!brute) {
    EXPECT_EQ(r.outcome, Outcome::kHolds) << what << ": " << r.detail;
    EXPECT_EQ(r.cases, 1u) << what;
    return;
  }
  ASSERT_EQ(r.outcome, Outcome::kRefuted) << what << " (brute force: `" << *brute << "`): " << r.detail;
  ASSERT_TRUE(r.counterexample) << what;
  const claims::Counterexample& cx = *r.counterexample;
  EXPECT_EQ(cx.params.at("rule"), itm::to_string(rule)) << what;
  const Itm g = Itm::build(itm::parse_steps(cx.input.at("steps").get<std::string>()).value(), rule).value();
  EXPECT_EQ(cx.params.at("n"), g.n()) << what;
  EXPECT_EQ(std::optional<std::string>(cx.violation), judge(g)) << what;
  EXPECT_EQ(r.detail, cx.violation) << what;
  EXPECT_FALSE(cx.minimized) << what;
  EXPECT_TRUE(cx.witness.contains("edges") && cx.witness.contains("exterior")) << what;
}

TEST(ItmSmt, DeadlockFreedomIsProvedAndBruteForceAgreesUpToN8) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 3; n <= kCrossCheckMaxN; ++n)
      expect_agrees(deadlock_free_smt_method_result(n, rule, kLimits), brute_force().thm2[static_cast<int>(rule)].at(n),
                    rule, [](const Itm& g) { return itm::check_deadlock_free(g.graph()); },
                    fmt::format("{} n = {}", itm::to_string(rule), n));
}

void expect_contention_agrees(ItmEncoding encoding, int max_n) {
  for (Contention c : kReadings)
    for (int n = 3; n <= max_n; ++n) {
      const claims::MethodResult r = contention_free_smt_method_result(n, c, encoding, kLimits);
      expect_agrees(r, brute_force().thm5[static_cast<int>(c)].at(n), Rule::kExterior,
                    [c](const Itm& g) {
                      return itm::check_contention_free(g.graph(), itm::circular_order(g).value(), c);
                    },
                    fmt::format("{} {} n = {}", to_string(encoding), reading_name(c), n));
      if (r.counterexample) {
        EXPECT_EQ(r.counterexample->witness.at("paths").size(), 2u);
      }
    }
}

TEST(ItmSmt, ContentionPolygonEncodingAgreesWithBruteForceUpToN8) {
  expect_contention_agrees(ItmEncoding::kPolygon, kCrossCheckMaxN);
}

TEST(ItmSmt, ContentionStepsEncodingAgreesWithBruteForceUpToN7) {
  expect_contention_agrees(ItmEncoding::kSteps, kStepsCrossCheckMaxN);
}

// The models' own claims about themselves: the messages they name are in the reading's positions
// of the model's order, and the edge lies on shortest paths of both (not only "some violation").
TEST(ItmSmt, ContentionModelsNameAViolatingPairOfMessages) {
  for (ItmEncoding encoding : {ItmEncoding::kSteps, ItmEncoding::kPolygon})
    for (Contention c : {Contention::kReversed, Contention::kUndirected})
      for (int n = 6; n <= 7; ++n) {
        const ItmSmtResult smt = prove_contention_free(n, c, kLimits, encoding);
        ASSERT_EQ(smt.status, SmtStatus::kCounterexample) << to_string(encoding) << " n = " << n;
        const Itm g = Itm::build(smt.steps, Rule::kExterior).value();
        const std::vector<int> d = itm::distances(g.graph());
        auto dist = [&](int u, int v) { return d[static_cast<size_t>(u * n + v)]; };
        auto on = [&](int s, int t, int a, int b) { return dist(s, a) + 1 + dist(b, t) == dist(s, t); };
        const ContentionModel& m = smt.messages;
        ASSERT_TRUE(g.graph().adjacent(m.a, m.b));
        EXPECT_TRUE(on(m.w, m.x, m.a, m.b));
        if (c == Contention::kReversed) {
          EXPECT_TRUE(on(m.z, m.y, m.a, m.b));
        } else {
          EXPECT_TRUE(on(m.y, m.z, m.a, m.b) || on(m.y, m.z, m.b, m.a));
        }
        // w < x < y < z cyclically in the model's order.
        auto pos = [&](int v) {
          return static_cast<int>(std::find(smt.order.begin(), smt.order.end(), v) - smt.order.begin());
        };
        const int base = pos(m.w);
        auto rel = [&](int v) { return (pos(v) - base + n) % n; };
        EXPECT_TRUE(0 < rel(m.x) && rel(m.x) < rel(m.y) && rel(m.y) < rel(m.z)) << to_string(encoding);
      }
}

// Negative control of Theorem 2: a step may attach to a non-edge (C4s appear). Brute force over
// those sequences (any two existing nodes) and the encoding find the first cycle at the same n,
// and the model's graph has one.
TEST(ItmSmt, BrokenNonEdgeControlHasADeadlockAtTheSmallestBruteForceN) {
  std::optional<int> brute;
  for (int n = 3; n <= 6 && !brute; ++n) {
    std::function<void(Graph&)> grow = [&](Graph& g) {
      if (brute) return;
      if (g.n() == n) {
        if (itm::check_deadlock_free(g)) brute = n;
        return;
      }
      for (int y = 1; y < g.n(); ++y)
        for (int x = 0; x < y; ++x) {
          auto edges = g.edges();
          edges.emplace_back(x, g.n());
          edges.emplace_back(y, g.n());
          Graph next = Graph::from_edges(g.n() + 1, edges).value();
          grow(next);
        }
    };
    Graph kernel = itm::complete_graph(3);
    grow(kernel);
  }
  ASSERT_EQ(brute, 5);
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    std::optional<int> smt_first;
    for (int n = 3; n <= 6 && !smt_first; ++n) {
      const ItmSmtResult smt = prove_deadlock_free(n, rule, kLimits, ItmEncoding::kBrokenNonEdge);
      ASSERT_TRUE(smt.status == SmtStatus::kProved || smt.status == SmtStatus::kCounterexample) << smt.reason;
      if (smt.status != SmtStatus::kCounterexample) continue;
      smt_first = n;
      const Graph g = Graph::from_edges(n, smt.edges).value();
      EXPECT_TRUE(itm::check_deadlock_free(g)) << g.to_string();
      EXPECT_FALSE(Itm::build(smt.steps, rule).ok()) << "the control's model should use a non-edge";
      EXPECT_FALSE(smt.channels.empty());
    }
    EXPECT_EQ(smt_first, brute) << itm::to_string(rule);
  }
}

// Negative controls of Theorem 5. Crossing chords: brute force over every set of n - 3 chords of
// the n-gon (the order 0..n-1) and the encoding agree on the first n with contention. A step on
// a non-edge: satisfiable, and the model's graph and order have the contention it names.
TEST(ItmSmt, BrokenContentionControlsAreSatisfiable) {
  std::optional<int> brute, smt_first;
  for (int n = 4; n <= 7 && !(brute && smt_first); ++n) {
    std::vector<std::pair<int, int>> chords, sides;
    for (int v = 1; v < n; ++v)
      for (int u = 0; u < v; ++u) (v == u + 1 || (u == 0 && v == n - 1) ? sides : chords).emplace_back(u, v);
    std::vector<int> order(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
    for (uint32_t mask = 0; mask < (1u << chords.size()) && !brute; ++mask) {
      if (std::popcount(mask) != n - 3) continue;
      auto edges = sides;
      for (size_t i = 0; i < chords.size(); ++i)
        if ((mask >> i) & 1) edges.push_back(chords[i]);
      if (itm::check_contention_free(Graph::from_edges(n, edges).value(), order, Contention::kPaper)) brute = n;
    }
    if (!smt_first) {
      const ItmSmtResult smt =
          prove_contention_free(n, Contention::kPaper, kLimits, ItmEncoding::kBrokenCrossingChords);
      ASSERT_TRUE(smt.status == SmtStatus::kProved || smt.status == SmtStatus::kCounterexample) << smt.reason;
      if (smt.status == SmtStatus::kCounterexample) {
        smt_first = n;
        EXPECT_TRUE(itm::check_contention_free(Graph::from_edges(n, smt.edges).value(), smt.order, Contention::kPaper));
      }
    }
  }
  ASSERT_TRUE(brute);
  EXPECT_EQ(smt_first, brute);

  const ItmSmtResult smt = prove_contention_free(6, Contention::kPaper, kLimits, ItmEncoding::kBrokenNonEdge);
  ASSERT_EQ(smt.status, SmtStatus::kCounterexample) << smt.reason;
  EXPECT_FALSE(Itm::build(smt.steps, Rule::kExterior).ok());
  EXPECT_TRUE(itm::check_contention_free(Graph::from_edges(6, smt.edges).value(), smt.order, Contention::kPaper));
}

TEST(ItmSmt, ProofsReachTheStandardBudget) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const int n = claims::itm_scope::smt_deadlock_max_n(rule).standard;
    const ItmSmtResult smt = prove_deadlock_free(n, rule, SolverLimits{claims::itm_scope::kSmtDeadlockRlimit.standard, 0});
    EXPECT_EQ(smt.status, SmtStatus::kProved) << itm::to_string(rule) << " " << smt.reason;
    EXPECT_EQ(smt.checks, n - 2);
  }
  const int n = claims::itm_scope::kSmtContentionMaxN.standard;
  for (Contention c : {Contention::kPaper, Contention::kSharedEndpoint}) {
    const ItmSmtResult smt = prove_contention_free(n, c, SolverLimits{claims::itm_scope::kSmtContentionRlimit.standard, 0});
    EXPECT_EQ(smt.status, SmtStatus::kProved) << reading_name(c) << " " << smt.reason;
  }
}

TEST(ItmSmt, TinyRlimitOrTimeoutIsUnknownNeverProved) {
  const ItmSmtResult deadlock = prove_deadlock_free(10, Rule::kAnyEdge, SolverLimits{1000, 0});
  EXPECT_EQ(deadlock.status, SmtStatus::kUnknown) << to_string(deadlock.status);
  const ItmSmtResult contention = prove_contention_free(10, Contention::kPaper, SolverLimits{1000, 0});
  EXPECT_EQ(contention.status, SmtStatus::kUnknown) << to_string(contention.status);
  const claims::MethodResult r = contention_free_smt_method_result(10, Contention::kPaper, ItmEncoding::kPolygon,
                                                                   SolverLimits{1000, 0});
  EXPECT_EQ(r.outcome, Outcome::kInconclusive);
  EXPECT_NE(r.detail.find("n = 10"), std::string::npos) << r.detail;
  const ItmSmtResult timed = prove_contention_free(14, Contention::kPaper, SolverLimits{0, 1});
  EXPECT_EQ(timed.status, SmtStatus::kUnknown) << to_string(timed.status);
}

// The rlimit is deterministic and bounds the whole call (all of Theorem 2's checks together).
// Deliberate twin of smt/hypercube_smt_test.cc:RlimitIsDeterministicAndBoundsTheWholeProof: each SMT encoding
// states its own rlimit expectations on its own prover.
TEST(ItmSmt, RlimitIsDeterministicAndBoundsTheWholeProof) {
  const ItmSmtResult first = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{});
  const ItmSmtResult second = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{});
  ASSERT_EQ(first.status, SmtStatus::kProved) << first.reason;
  ASSERT_GT(first.rlimit_used, 0u);
  EXPECT_EQ(first.rlimit_used, second.rlimit_used);
  const ItmSmtResult half = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{first.rlimit_used / 2, 0});
  EXPECT_EQ(half.status, SmtStatus::kUnknown) << to_string(half.status);
  const ItmSmtResult ample = prove_deadlock_free(9, Rule::kAnyEdge, SolverLimits{2 * first.rlimit_used, 0});
  EXPECT_EQ(ample.status, SmtStatus::kProved) << ample.reason;
  EXPECT_EQ(ample.rlimit_used, first.rlimit_used);
}

claims::Registry minimal_registry() {
  claims::Registry registry;
  auto add = [&](std::string id, std::vector<std::string> readings) {
    claims::Claim claim;
    claim.id = std::move(id);
    for (std::string& name : readings) {
      claims::Reading reading;
      reading.name = std::move(name);
      claim.readings.push_back(std::move(reading));
    }
    registry.add(std::move(claim));
  };
  add("itm.thm2.deadlock_free", {"any-edge", "exterior"});
  add("itm.thm5.contention_free", {"any-edge", "exterior", "exterior-reversed", "exterior-undirected",
                                   "exterior-shared-endpoint"});
  return registry;
}

const claims::Reading& reading_of(const claims::Registry& registry, std::string_view id, std::string_view name) {
  const claims::Claim* claim = registry.find(id);
  TC_CHECK(claim != nullptr, "no claim");
  const claims::Reading* reading = claim->find_reading(name);
  TC_CHECK(reading != nullptr, "no reading");
  return *reading;
}

TEST(ItmSmt, AttachAddsTheSmtMethodAndProveFunctions) {
  claims::Registry registry = minimal_registry();
  attach_itm_smt(registry);
  EXPECT_TRUE(reading_of(registry, "itm.thm5.contention_free", "any-edge").methods.empty());
  for (std::string_view name : {"any-edge", "exterior"}) {
    const claims::Reading& r = reading_of(registry, "itm.thm2.deadlock_free", name);
    ASSERT_EQ(r.methods.size(), 1u);
    EXPECT_EQ(r.methods[0].first, claims::Method::kSmt);
    ASSERT_TRUE(r.prove);
    auto proved = r.prove(json{{"n", 8}}, SolverLimits{});
    ASSERT_TRUE(proved.ok()) << proved.error().message;
    EXPECT_EQ(proved->outcome, Outcome::kHolds) << proved->detail;
  }
  auto holds = reading_of(registry, "itm.thm5.contention_free", "exterior").prove(json{{"n", 9}}, SolverLimits{});
  ASSERT_TRUE(holds.ok());
  EXPECT_EQ(holds->outcome, Outcome::kHolds) << holds->detail;
  auto refuted =
      reading_of(registry, "itm.thm5.contention_free", "exterior-reversed").prove(json{{"n", 6}}, SolverLimits{});
  ASSERT_TRUE(refuted.ok());
  EXPECT_EQ(refuted->outcome, Outcome::kRefuted) << refuted->detail;

  struct Recorder : claims::Progress {
    void update(std::string_view, std::string_view message) override { messages.emplace_back(message); }
    std::vector<std::string> messages;
  } recorder;
  claims::RunContext ctx;
  ctx.budget = claims::Budget::kQuick;
  ctx.progress = &recorder;
  const int quick_n = claims::itm_scope::smt_deadlock_max_n(Rule::kAnyEdge).quick;
  const claims::MethodResult quick = reading_of(registry, "itm.thm2.deadlock_free", "any-edge").methods[0].second(ctx);
  EXPECT_EQ(quick.outcome, Outcome::kHolds) << quick.detail;
  EXPECT_EQ(quick.cases, static_cast<uint64_t>(quick_n - 2));
  EXPECT_EQ(recorder.messages.size(), static_cast<size_t>(quick_n - 2));
  EXPECT_NE(quick.scope.find(fmt::format("n = 3..{}, every AddNode sequence (any-edge)", quick_n)), std::string::npos)
      << quick.scope;

  // A refuted reading stops at its smallest n, with the n proved before it as cases.
  const claims::MethodResult reversed =
      reading_of(registry, "itm.thm5.contention_free", "exterior-reversed").methods[0].second(ctx);
  ASSERT_EQ(reversed.outcome, Outcome::kRefuted) << reversed.detail;
  EXPECT_EQ(reversed.cases, 3u);
  ASSERT_TRUE(reversed.counterexample);
  EXPECT_TRUE(reversed.counterexample->minimized);
  EXPECT_EQ(reversed.counterexample->params, (json{{"n", 6}, {"rule", "exterior"}}));
  EXPECT_NE(reversed.scope.find("n = 3..6"), std::string::npos) << reversed.scope;
}

TEST(ItmSmt, ProveRejectsBadParams) {
  claims::Registry registry = minimal_registry();
  attach_itm_smt(registry);
  for (const auto& [id, name] : {std::pair{"itm.thm2.deadlock_free", "exterior"},
                                 std::pair{"itm.thm5.contention_free", "exterior"}}) {
    const claims::Reading& reading = reading_of(registry, id, name);
    for (const json& params : {json{{"n", 2}}, json{{"n", "x"}}, json::object(), json{{"n", kItmSmtMaxNodes + 1}},
                               json{{"n", -3}}, json{{"n", 2.5}}, json::array(), json{{"n", uint64_t{1} << 63}}}) {
      auto result = reading.prove(params, SolverLimits{});
      ASSERT_FALSE(result.ok()) << params.dump();
      EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument) << params.dump();
      EXPECT_NE(result.error().message.find("params.n"), std::string::npos) << result.error().message;
    }
  }
}

// Prints the cost table of the header and README (not run by default):
//   itm_smt_test --gtest_also_run_disabled_tests --gtest_filter=*MeasureCosts
TEST(ItmSmt, DISABLED_MeasureCosts) {
  auto row = [](const std::string& what, int n, const std::function<ItmSmtResult()>& run) {
    const auto start = std::chrono::steady_clock::now();
    const ItmSmtResult r = run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{:<40} n = {:2}  {:<14} {:7.2f} s  {:6.1f} M rlimit\n", what, n, to_string(r.status), seconds,
               static_cast<double>(r.rlimit_used) / 1e6);
  };
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior})
    for (int n = 4; n <= 20; n += (n < 12 ? 4 : 2))
      row("thm2 " + itm::to_string(rule), n, [&] { return prove_deadlock_free(n, rule, SolverLimits{}); });
  for (Contention c : kReadings)
    for (int n : {8, 10, 12, 13, 14, 15, 16}) {
      if (n > 8 && (c == Contention::kReversed || c == Contention::kUndirected)) continue;
      row("thm5 polygon " + reading_name(c), n, [&] { return prove_contention_free(n, c, SolverLimits{}); });
    }
  for (Contention c : {Contention::kPaper, Contention::kSharedEndpoint})
    for (int n = 6; n <= 9; ++n)
      row("thm5 steps " + reading_name(c), n,
          [&] { return prove_contention_free(n, c, SolverLimits{}, ItmEncoding::kSteps); });
}

}  // namespace
}  // namespace topocheck::smt
