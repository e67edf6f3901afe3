// The SMT encoding of hypercube.alg2.disjoint, cross-checked against exhaustive search with the
// naive checker (check_alg2_disjoint) on small n, including the deliberately broken variants.
#include "smt/hypercube_smt.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "catalog/hypercube/scope.h"
#include "core/path.h"
#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"

namespace topocheck::smt {
namespace {

using claims::SolverLimits;
using hypercube::Hypercube;
using hypercube::P3Variant;
using nlohmann::json;

constexpr int kCrossCheckMaxN = 8;
const SolverLimits kLimits{claims::hypercube_scope::kSmtRlimit.standard, 0};

// The first (x, y) in ascending order whose paths fail check_alg2_disjoint, if any.
std::optional<std::pair<Node, Node>> exhaustive_violation(int n, P3Variant variant) {
  const Hypercube cube = Hypercube::make(n).value();
  for (uint64_t x = 0; x < cube.num_nodes(); ++x)
    for (uint64_t y = 0; y < cube.num_nodes(); ++y)
      if (hypercube::check_alg2_disjoint(cube, Node{x, n}, Node{y, n}, variant))
        return std::pair{Node{x, n}, Node{y, n}};
  return std::nullopt;
}

TEST(HypercubeSmt, AsPrintedIsProvedAndExhaustiveSearchAgreesUpToN8) {
  for (int n = 1; n <= kCrossCheckMaxN; ++n) {
    const Alg2SmtResult smt = prove_alg2_disjoint(n, P3Variant::kAsPrinted, kLimits);
    EXPECT_EQ(smt.status, SmtStatus::kProved) << "n = " << n << ": " << to_string(smt.status)
                                              << " " << smt.reason;
    const auto found = exhaustive_violation(n, P3Variant::kAsPrinted);
    EXPECT_FALSE(found) << "n = " << n << ": exhaustive violation at x = " << found->first
                        << ", y = " << found->second;
  }
}

// The encoding decides exactly check_alg2_disjoint's predicate: evaluated at every concrete x, y of
// small n, for the printed algorithm and both broken controls (which violate on many pairs, in
// several of the ways the encoding distinguishes: endpoint, simplicity, disjointness).
TEST(HypercubeSmt, EncodingAgreesWithTheCheckerOnEveryPairUpToN4) {
  for (P3Variant variant : {P3Variant::kAsPrinted, P3Variant::kBrokenAscendingOrder,
                            P3Variant::kBrokenMissingFlip}) {
    int violating = 0;
    for (int n = 1; n <= 4; ++n) {
      const Hypercube cube = Hypercube::make(n).value();
      const auto encoded = alg2_encoding_violations(n, variant);
      ASSERT_TRUE(encoded.has_value()) << hypercube::to_string(variant) << " n = " << n;
      ASSERT_EQ(encoded->size(), cube.num_nodes() * cube.num_nodes());
      for (uint64_t x = 0; x < cube.num_nodes(); ++x)
        for (uint64_t y = 0; y < cube.num_nodes(); ++y) {
          const Node nx{x, n}, ny{y, n};
          const bool checker = hypercube::check_alg2_disjoint(cube, nx, ny, variant).has_value();
          EXPECT_EQ((*encoded)[x * cube.num_nodes() + y], checker)
              << hypercube::to_string(variant) << " n = " << n << ", x = " << nx << ", y = " << ny;
          violating += checker;
        }
    }
    if (variant != P3Variant::kAsPrinted) {
      EXPECT_GT(violating, 0) << hypercube::to_string(variant);
    }
  }
}

// Both broken variants: every SMT model is confirmed by the checker, and the smallest n with a
// counterexample is the same for the solver and for exhaustive search.
void expect_negative_control(P3Variant variant) {
  std::optional<int> smt_first, exhaustive_first;
  for (int n = 1; n <= kCrossCheckMaxN && !(smt_first && exhaustive_first); ++n) {
    if (!smt_first) {
      const Alg2SmtResult smt = prove_alg2_disjoint(n, variant, kLimits);
      ASSERT_TRUE(smt.status == SmtStatus::kProved || smt.status == SmtStatus::kCounterexample)
          << "n = " << n << ": " << to_string(smt.status) << " " << smt.reason;
      if (smt.status == SmtStatus::kCounterexample) {
        ASSERT_TRUE(smt.x && smt.y);
        EXPECT_EQ(smt.x->width, n);
        EXPECT_EQ(smt.y->width, n);
        const Hypercube cube = Hypercube::make(n).value();
        EXPECT_TRUE(hypercube::check_alg2_disjoint(cube, *smt.x, *smt.y, variant))
            << "the model x = " << *smt.x << ", y = " << *smt.y << " satisfies the checker";
        smt_first = n;
      }
    }
    if (!exhaustive_first && exhaustive_violation(n, variant)) exhaustive_first = n;
  }
  ASSERT_TRUE(exhaustive_first) << "the negative control " << hypercube::to_string(variant)
                                << " is not caught by exhaustive search";
  EXPECT_EQ(smt_first, exhaustive_first) << hypercube::to_string(variant);
}

TEST(HypercubeSmt, BrokenAscendingOrderIsRefutedAtTheSmallestExhaustiveN) {
  expect_negative_control(P3Variant::kBrokenAscendingOrder);
}

TEST(HypercubeSmt, BrokenMissingFlipIsRefutedAtTheSmallestExhaustiveN) {
  expect_negative_control(P3Variant::kBrokenMissingFlip);
}

// A broken variant's method result carries a counterexample in corpus form, judged by the checker.
TEST(HypercubeSmt, MethodResultOfABrokenVariantIsARefutationInCorpusForm) {
  for (P3Variant variant : {P3Variant::kBrokenAscendingOrder, P3Variant::kBrokenMissingFlip}) {
    const int n = 3;
    const claims::MethodResult result = alg2_smt_method_result(n, variant, kLimits);
    ASSERT_EQ(result.outcome, claims::Outcome::kRefuted) << result.detail;
    EXPECT_EQ(result.method, claims::Method::kSmt);
    ASSERT_TRUE(result.counterexample);
    const claims::Counterexample& cx = *result.counterexample;
    EXPECT_EQ(cx.params, (json{{"n", n}}));
    const Node x = parse_node(cx.input.at("x").get<std::string>(), n).value();
    const Node y = parse_node(cx.input.at("y").get<std::string>(), n).value();
    const Hypercube cube = Hypercube::make(n).value();
    EXPECT_EQ(std::optional<std::string>(cx.violation),
              hypercube::check_alg2_disjoint(cube, x, y, variant));
    EXPECT_EQ(result.detail, cx.violation);
    EXPECT_EQ(cx.witness.at("paths"),
              paths_to_json(hypercube::cube_disjoint_paths(n, x, y, variant)));
    EXPECT_FALSE(cx.minimized);  // one n: minimality is the method's to claim
    EXPECT_NE(result.scope.find(hypercube::to_string(variant)), std::string::npos) << result.scope;
  }
}

claims::Registry minimal_registry() {
  claims::Registry registry;
  claims::Claim claim;
  claim.id = "hypercube.alg2.disjoint";
  claims::Reading reading;
  reading.name = "literal";
  claim.readings.push_back(reading);
  registry.add(claim);
  return registry;
}

const claims::Reading* find_literal(const claims::Registry& registry) {
  const claims::Claim* claim = registry.find("hypercube.alg2.disjoint");
  return claim ? claim->find_reading("literal") : nullptr;
}

TEST(HypercubeSmt, AttachAddsTheSmtMethodAndAProveFunction) {
  claims::Registry registry = minimal_registry();
  attach_hypercube_smt(registry);
  const claims::Reading* reading = find_literal(registry);
  ASSERT_NE(reading, nullptr);
  ASSERT_EQ(reading->methods.size(), 1u);
  EXPECT_EQ(reading->methods[0].first, claims::Method::kSmt);
  ASSERT_TRUE(reading->prove);

  auto proved = reading->prove(json{{"n", 4}}, SolverLimits{});
  ASSERT_TRUE(proved.ok()) << proved.error().message;
  EXPECT_EQ(proved->method, claims::Method::kSmt);
  EXPECT_EQ(proved->outcome, claims::Outcome::kHolds) << proved->detail;
  EXPECT_EQ(proved->cases, 1u);

  struct Recorder : claims::Progress {
    void update(std::string_view, std::string_view message) override {
      messages.emplace_back(message);
    }
    std::vector<std::string> messages;
  } recorder;
  claims::RunContext ctx;
  ctx.budget = claims::Budget::kQuick;
  ctx.progress = &recorder;
  ctx.claim_id = "hypercube.alg2.disjoint";
  const claims::MethodResult quick = reading->methods[0].second(ctx);
  EXPECT_EQ(quick.method, claims::Method::kSmt);
  EXPECT_EQ(recorder.messages.size(),
            static_cast<size_t>(claims::hypercube_scope::kSmtMaxN.at(claims::Budget::kQuick)));
  EXPECT_EQ(quick.outcome, claims::Outcome::kHolds) << quick.detail;
  EXPECT_EQ(quick.cases,
            static_cast<uint64_t>(claims::hypercube_scope::kSmtMaxN.at(claims::Budget::kQuick)));
  EXPECT_NE(quick.scope.find("bit-vector proof"), std::string::npos) << quick.scope;
}

TEST(HypercubeSmt, ProveRejectsBadParams) {
  claims::Registry registry = minimal_registry();
  attach_hypercube_smt(registry);
  const claims::Reading* reading = find_literal(registry);
  ASSERT_NE(reading, nullptr);
  ASSERT_TRUE(reading->prove);
  for (const json& params : {json{{"n", 0}}, json{{"n", "x"}}, json::object(), json{{"n", 64}},
                             json{{"n", -3}}, json{{"n", 2.5}}, json::array(),
                             json{{"n", uint64_t{1} << 63}}}) {
    auto result = reading->prove(params, SolverLimits{});
    ASSERT_FALSE(result.ok()) << params.dump();
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument) << params.dump();
    EXPECT_NE(result.error().message.find("params.n"), std::string::npos)
        << result.error().message;
  }
}

TEST(HypercubeSmt, TinyRlimitOrTimeoutIsUnknownNeverProved) {
  const Alg2SmtResult smt = prove_alg2_disjoint(8, P3Variant::kAsPrinted, SolverLimits{1, 0});
  EXPECT_EQ(smt.status, SmtStatus::kUnknown) << to_string(smt.status) << " " << smt.reason;
  EXPECT_FALSE(smt.x);

  claims::Registry registry = minimal_registry();
  attach_hypercube_smt(registry);
  const claims::Reading* reading = find_literal(registry);
  ASSERT_NE(reading, nullptr);
  auto result = reading->prove(json{{"n", 8}}, SolverLimits{1, 0});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->outcome, claims::Outcome::kInconclusive);
  EXPECT_NE(result->detail.find("n = 8"), std::string::npos) << result->detail;

  // The wall-clock safety net: n = 20 takes seconds, 1 ms cannot prove it.
  const Alg2SmtResult timed = prove_alg2_disjoint(20, P3Variant::kAsPrinted, SolverLimits{0, 1});
  EXPECT_EQ(timed.status, SmtStatus::kUnknown) << to_string(timed.status) << " " << timed.reason;
}

// The rlimit is deterministic and bounds the whole proof of one n (all its checks together).
// Deliberate twin of smt/itm_smt_test.cc:RlimitIsDeterministicAndBoundsTheWholeProof: each SMT encoding
// states its own rlimit expectations on its own prover.
TEST(HypercubeSmt, RlimitIsDeterministicAndBoundsTheWholeProof) {
  const Alg2SmtResult first = prove_alg2_disjoint(7, P3Variant::kAsPrinted, SolverLimits{});
  const Alg2SmtResult second = prove_alg2_disjoint(7, P3Variant::kAsPrinted, SolverLimits{});
  ASSERT_EQ(first.status, SmtStatus::kProved) << first.reason;
  ASSERT_GT(first.rlimit_used, 0u);
  EXPECT_EQ(first.rlimit_used, second.rlimit_used);

  const Alg2SmtResult half =
      prove_alg2_disjoint(7, P3Variant::kAsPrinted, SolverLimits{first.rlimit_used / 2, 0});
  EXPECT_EQ(half.status, SmtStatus::kUnknown) << to_string(half.status);
  EXPECT_LE(half.rlimit_used, first.rlimit_used / 2 + first.rlimit_used / 10);

  const Alg2SmtResult ample =
      prove_alg2_disjoint(7, P3Variant::kAsPrinted, SolverLimits{2 * first.rlimit_used, 0});
  EXPECT_EQ(ample.status, SmtStatus::kProved) << ample.reason;
  EXPECT_EQ(ample.rlimit_used, first.rlimit_used);
}

}  // namespace
}  // namespace topocheck::smt
