// The SMT encodings of the Metacube claims, cross-checked against the concrete construction and
// the naive checkers. One binary, metacube_smt_test, of three sources:
//  - pointwise (metacube_smt_pointwise_test.cc): the encoding evaluated at every concrete input
//    IS the construction (node for node) and the checkers' predicates, for the readings and the
//    negative controls, under every enumerable choice of Algorithm 4's open options;
//  - by verdict (metacube_smt_verdict_test.cc): the solver's answer equals exhaustive search, and
//    its (minimized) counterexample is exactly the first one exhaustive search finds, confirmed
//    by the checkers;
//  - here: the method results, the registration and the prove functions, the limits, and the
//    cost measurement (disabled).
// Suites (one ctest entry each, smt/CMakeLists.txt): MetacubeSmt (small metacubes, under a
// minute), MetacubeSmtMC22 (the MC(2,2) cross-checks, under a minute), MetacubeSmtDeep (label
// `deep`: every pair of MC(2,2), MC(1,3) and MC(3,1), the long proofs).
#include "smt/metacube_smt.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "registry/full_registry.h"
#include "smt/metacube_smt_test_support.h"

namespace topocheck::smt {
namespace {

using namespace metacube_smt_test;
using claims::Outcome;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Method results, registration, limits.

TEST(MetacubeSmt, PaperIsRefutedInMC11WithTheStoredCounterexample) {
  // corpus/metacube/thm2.valid/paper-*.json: MC(1,1), s = 000, t = 010, found by exhaustive search.
  for (Thm2Part part : {Thm2Part::kValid, Thm2Part::kDisjoint}) {
    const claims::MethodResult r = alg4_smt_method_result(1, 1, "paper", part, kLimits);
    ASSERT_EQ(r.outcome, Outcome::kRefuted) << r.detail;
    EXPECT_EQ(r.method, claims::Method::kSmt);
    ASSERT_TRUE(r.counterexample);
    const auto& cx = *r.counterexample;
    EXPECT_EQ(cx.params, (json{{"k", 1}, {"m", 1}}));
    EXPECT_EQ(cx.input, (json{{"s", "000"}, {"t", "010"}}));
    EXPECT_TRUE(cx.minimized);
    const Metacube mc = Metacube::make(1, 1).value();
    const Node s = parse_node("000", 3).value(), t = parse_node("010", 3).value();
    EXPECT_EQ(std::optional<std::string>(cx.violation), metacube::check_alg4(mc, s, t, options("paper"), part));
    EXPECT_EQ(cx.witness.at("paths"), paths_to_json(metacube::metacube_disjoint_paths(mc, s, t, options("paper")).paths));
  }
  const claims::MethodResult holds = alg4_smt_method_result(1, 1, "paper", Thm2Part::kLength, kLimits);
  EXPECT_EQ(holds.outcome, Outcome::kHolds) << holds.detail;
  EXPECT_EQ(holds.cases, 1u);
}

// ---------------------------------------------------------------------------------------------
// The class translation behind decision_splits (metacube_symbolic.h): phi_a(u) has class
// c_u XOR a and field M[f XOR a] = u's M[f].

Node phi(const Metacube& mc, int a, Node u) {
  uint64_t fields = 0;
  for (int f = 0; f < mc.h(); ++f) {
    const uint64_t field = (u.bits >> (f * mc.m())) & ((uint64_t{1} << mc.m()) - 1);
    fields |= field << ((f ^ a) * mc.m());
  }
  return Node{(static_cast<uint64_t>(mc.class_of(u) ^ a) << (mc.m() * mc.h())) | fields, mc.width()};
}

// phi_a is an automorphism: a bijection mapping every node's k + m neighbours to its image's.
TEST(ClassTranslation, IsAnAutomorphismOfTheMetacube) {
  for (auto [k, m] : {KM{1, 1}, KM{2, 1}, KM{3, 1}, KM{2, 2}}) {
    const Metacube mc = Metacube::make(k, m).value();
    for (int a = 0; a < mc.h(); ++a) {
      std::vector<bool> hit(mc.num_nodes(), false);
      for (uint64_t x = 0; x < mc.num_nodes(); ++x) {
        const Node u = mc.node_at(x), pu = phi(mc, a, u);
        ASSERT_FALSE(hit[pu.bits]) << mc.name() << " a = " << a << ": phi is not injective at " << u;
        hit[pu.bits] = true;
        for (int d = 0; d < k + m; ++d)
          ASSERT_TRUE(mc.is_edge(pu, phi(mc, a, mc.neighbor(u, d)))) << mc.name() << " a = " << a << " " << u << " dim " << d;
      }
    }
    // Negative control: moving the class without moving the fields loses an edge (a = 1).
    bool lost = false;
    for (uint64_t x = 0; x < mc.num_nodes() && !lost; ++x) {
      const Node u = mc.node_at(x);
      const uint64_t flip = uint64_t{1} << (m * mc.h());
      for (int d = 0; d < k + m; ++d) lost = lost || !mc.is_edge(Node{u.bits ^ flip, u.width}, Node{mc.neighbor(u, d).bits ^ flip, u.width});
    }
    EXPECT_TRUE(lost) << mc.name();
  }
}

// Under the m = 1 rules of `corrected` the paths of (phi_a(s), phi_a(t)) are phi_a of the paths of
// (s, t); with the automorphism, a split with c_s != 0 holds iff its image with c_s = 0 does.
TEST(ClassTranslation, CommutesWithTheMOneRulesOfCorrected) {
  const Alg4Options o = quiet(options("corrected"));
  for (auto [k, m] : {KM{1, 1}, KM{2, 1}, KM{3, 1}}) {
    const Metacube mc = Metacube::make(k, m).value();
    // Sources of class 0 (every one in MC(1,1) and MC(2,1), every 17th in MC(3,1)), every target, every a.
    const uint64_t step = k == 3 ? 17 : 1;
    for (uint64_t sx = 0; sx < (uint64_t{1} << (mc.m() * mc.h())); sx += step)
      for (uint64_t tx = 0; tx < mc.num_nodes(); ++tx) {
        if (tx == sx) continue;
        const Node s = mc.node_at(sx), t = mc.node_at(tx);
        const auto base = metacube::metacube_disjoint_paths(mc, s, t, o).paths;
        for (int a = 1; a < mc.h(); ++a) {
          const auto moved = metacube::metacube_disjoint_paths(mc, phi(mc, a, s), phi(mc, a, t), o).paths;
          ASSERT_EQ(moved.size(), base.size()) << where(mc, "corrected", s, t);
          for (size_t i = 0; i < base.size(); ++i) {
            ASSERT_EQ(moved[i].nodes.size(), base[i].nodes.size()) << where(mc, "corrected", s, t) << " a = " << a;
            for (size_t q = 0; q < base[i].nodes.size(); ++q)
              ASSERT_EQ(moved[i].nodes[q], phi(mc, a, base[i].nodes[q])) << where(mc, "corrected", s, t) << " a = " << a;
          }
        }
      }
  }
}

TEST(MetacubeSmt, RepairedAndFaultToleranceAreNotEncodedAndSayWhy) {
  for (const char* reading : kAllOptions) EXPECT_FALSE(alg4_encoding_gap(options(reading))) << reading;
  Alg4Options quiet = options("paper");
  quiet.record_notes = false;  // notes only: encoded paths are the same
  EXPECT_FALSE(alg4_encoding_gap(quiet));
  const Alg4Options repaired = options("repaired");
  ASSERT_TRUE(alg4_encoding_gap(repaired));
  const MetacubeSmtResult r = prove_alg4(1, 1, repaired, Thm2Part::kValid, kLimits);
  EXPECT_EQ(r.status, SmtStatus::kError);
  EXPECT_NE(r.reason.find("repair"), std::string::npos) << r.reason;
  EXPECT_EQ(prove_alg4_commutes(1, 1, repaired, kLimits).status, SmtStatus::kError);
  EXPECT_EQ(prove_alg4(1, 1, options("paper"), Thm2Part::kFaultTolerance, kLimits).status, SmtStatus::kError);
  EXPECT_EQ(alg4_smt_method_result(1, 1, "repaired", Thm2Part::kValid, kLimits).outcome, Outcome::kError);
  EXPECT_EQ(alg4_smt_method_result(1, 1, "no-such-reading", Thm2Part::kValid, kLimits).outcome, Outcome::kError);
}

constexpr std::array<const char*, 4> kThm2Ids = {"metacube.thm2.valid", "metacube.thm2.disjoint",
                                                 "metacube.thm2.length", "metacube.thm2.case_bound"};

const claims::Reading& reading_of(const claims::Registry& registry, const std::string& id, const std::string& name) {
  const claims::Claim* claim = registry.find(id);
  TC_CHECK(claim != nullptr, "no claim " + id);
  const claims::Reading* reading = claim->find_reading(name);
  TC_CHECK(reading != nullptr, "no reading " + name);
  return *reading;
}

const claims::MethodFn* smt_method(const claims::Reading& reading) {
  for (const auto& [method, fn] : reading.methods)
    if (method == claims::Method::kSmt) return &fn;
  return nullptr;
}

TEST(MetacubeSmt, AttachAddsSmtMethodsAndProveFunctionsToTheRealClaims) {
  claims::Registry registry = full_registry();
  attach_metacube_smt(registry);
  claims::RunContext ctx;
  ctx.budget = claims::Budget::kQuick;
  for (const char* reading : kReadings) {
    for (size_t p = 0; p < kThm2Ids.size(); ++p) {
      const claims::Reading& r = reading_of(registry, kThm2Ids[p], reading);
      const claims::MethodFn* fn = smt_method(r);
      ASSERT_NE(fn, nullptr) << kThm2Ids[p] << " " << reading;
      ASSERT_TRUE(r.prove);
      const claims::MethodResult quick = (*fn)(ctx);
      // Quick is MC(1,1): validity fails there; the encoding (valid and disjoint) has only models
      // whose paths repeat a node without sharing one, which is not disjointness's violation, so
      // that method is inconclusive there (the exhaustive method refutes it by a shared node, on
      // another pair); the bounds hold.
      const Outcome want = p == 0 ? Outcome::kRefuted : p == 1 ? Outcome::kInconclusive : Outcome::kHolds;
      EXPECT_EQ(quick.outcome, want) << kThm2Ids[p] << " " << quick.detail;
      if (p == 0) {
        ASSERT_TRUE(quick.counterexample);
        EXPECT_TRUE(quick.counterexample->minimized);
        EXPECT_EQ(quick.cases, 0u);
      } else if (p == 1) {
        EXPECT_FALSE(quick.counterexample);
        EXPECT_NE(quick.detail.find("not this claim's violation"), std::string::npos) << quick.detail;
      } else {
        EXPECT_EQ(quick.cases, 1u);
      }
      auto proved = r.prove(json{{"k", 1}, {"m", 2}}, SolverLimits{});
      ASSERT_TRUE(proved.ok()) << proved.error().message;
      EXPECT_EQ(proved->method, claims::Method::kSmt);
      EXPECT_EQ(proved->outcome, want) << proved->detail;
    }
    const claims::Reading& commutes = reading_of(registry, "metacube.symmetry.alg4_commutes", reading);
    ASSERT_NE(smt_method(commutes), nullptr);
    EXPECT_EQ((*smt_method(commutes))(ctx).outcome, Outcome::kHolds);
    ASSERT_TRUE(commutes.prove);
    auto c12 = commutes.prove(json{{"k", 1}, {"m", 1}}, SolverLimits{});
    ASSERT_TRUE(c12.ok());
    EXPECT_EQ(c12->outcome, Outcome::kHolds) << c12->detail;
  }
  const claims::Reading& automorphism = reading_of(registry, "metacube.symmetry.automorphism", "literal");
  ASSERT_NE(smt_method(automorphism), nullptr);
  EXPECT_EQ((*smt_method(automorphism))(ctx).outcome, Outcome::kHolds);
  auto a = automorphism.prove(json{{"k", 3}, {"m", 7}}, SolverLimits{});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->outcome, Outcome::kHolds) << a->detail;
  // `repaired` has no SMT method (not encoded).
  EXPECT_EQ(smt_method(reading_of(registry, "metacube.thm2.valid", "repaired")), nullptr);
}

TEST(MetacubeSmt, ProveRejectsBadParamsNamingThem) {
  claims::Registry registry = full_registry();
  attach_metacube_smt(registry);
  const claims::Reading& r = reading_of(registry, "metacube.thm2.length", "paper");
  for (const auto& [params, name] :
       std::vector<std::pair<json, std::string>>{{json{{"m", 1}}, "params.k"},
                                                 {json{{"k", "1"}, {"m", 1}}, "params.k"},
                                                 {json{{"k", -1}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 6}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 1.5}, {"m", 1}}, "params.k"},
                                                 {json{{"k", 1}}, "params.m"},
                                                 {json{{"k", 1}, {"m", 0}}, "params.m"},
                                                 {json{{"k", 1}, {"m", 64}}, "params.m"},
                                                 {json{{"k", 1}, {"m", uint64_t{1} << 63}}, "params.m"},
                                                 {json{{"k", 5}, {"m", 2}}, "params.m"},
                                                 {json::array(), "params"}}) {
    auto result = r.prove(params, SolverLimits{});
    ASSERT_FALSE(result.ok()) << params.dump();
    EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument) << params.dump();
    EXPECT_NE(result.error().message.find(name), std::string::npos) << params.dump() << ": " << result.error().message;
  }
}

TEST(MetacubeSmt, TinyRlimitOrTimeoutIsUnknownNeverProved) {
  const MetacubeSmtResult tiny = prove_alg4(2, 1, options("paper"), Thm2Part::kLength, SolverLimits{1, 0});
  EXPECT_EQ(tiny.status, SmtStatus::kUnknown) << to_string(tiny.status);
  EXPECT_FALSE(tiny.s);
  const MetacubeSmtResult timed = prove_alg4_commutes(2, 2, options("paper-keybit-example4"), SolverLimits{0, 1});
  EXPECT_EQ(timed.status, SmtStatus::kUnknown) << to_string(timed.status);
  EXPECT_EQ(prove_automorphism(2, 2, SolverLimits{1, 0}).status, SmtStatus::kUnknown);

  const claims::MethodResult r = alg4_smt_method_result(2, 1, "paper", Thm2Part::kLength, SolverLimits{1, 0});
  EXPECT_EQ(r.outcome, Outcome::kInconclusive);
  EXPECT_NE(r.detail.find("MC(2,1)"), std::string::npos) << r.detail;
}

// The rlimit is deterministic and bounds the whole call (every split and group together).
TEST(MetacubeSmt, RlimitIsDeterministicAndBoundsTheWholeProof) {
  const Alg4Options o = options("paper");
  const MetacubeSmtResult first = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{});
  const MetacubeSmtResult second = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{});
  ASSERT_EQ(first.status, SmtStatus::kProved) << first.reason;
  ASSERT_GT(first.rlimit_used, 0u);
  EXPECT_EQ(first.rlimit_used, second.rlimit_used);
  const MetacubeSmtResult half = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{first.rlimit_used / 2, 0});
  EXPECT_EQ(half.status, SmtStatus::kUnknown) << to_string(half.status);
  const MetacubeSmtResult ample = prove_alg4(2, 1, o, Thm2Part::kCaseBound, SolverLimits{2 * first.rlimit_used, 0});
  EXPECT_EQ(ample.status, SmtStatus::kProved) << ample.reason;
  EXPECT_EQ(ample.rlimit_used, first.rlimit_used);
}

// Not a check: prints what each decision costs (rlimit units, seconds) for the metacubes of the
// deep SMT scope, to keep smt/metacube_smt.h's table and catalog/metacube/scope.h's budgets measured. Run
// with --gtest_also_run_disabled_tests --gtest_filter=*MeasureCosts (TC_SMT_SIZES="k,m;k,m" to
// choose the metacubes, TC_SMT_READINGS="corrected,paper" the readings).
TEST(MetacubeSmtCosts, DISABLED_MeasureCosts) {
  std::vector<KM> sizes = claims::metacube_scope::kSmt.deep;
  if (const char* env = std::getenv("TC_SMT_SIZES")) {
    sizes.clear();
    int k = 0, m = 0, used = 0;
    for (const char* p = env; std::sscanf(p, "%d,%d%n", &k, &m, &used) == 2; p += used + (p[used] == ';')) {
      sizes.push_back({k, m});
      if (p[used] != ';') break;
    }
  }
  std::vector<std::string> readings(kReadings.begin(), kReadings.end());
  if (const char* env = std::getenv("TC_SMT_READINGS")) {
    readings.clear();
    std::string list = env;
    for (size_t at = 0; at <= list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      if (comma > at) readings.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
  }
  const SolverLimits unlimited{};
  for (auto [k, m] : sizes)
    for (const std::string& name : readings) {
      const char* reading = name.c_str();
      const Alg4Options o = options(reading);
      for (int p = 0; p < 6; ++p) {
        if (p == 5 && std::string_view(reading) != "paper") continue;
        const auto start = std::chrono::steady_clock::now();
        const MetacubeSmtResult r = p < 4    ? prove_alg4(k, m, o, kParts[static_cast<size_t>(p)], unlimited)
                                    : p == 4 ? prove_alg4_commutes(k, m, o, unlimited)
                                             : prove_automorphism(k, m, unlimited);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("MC(%d,%d) %-22s %-11s %-14s rlimit %8.1f M  checks %4llu  %7.2f s  %s %s %s\n", k, m, reading,
                    p < 4 ? kPartNames[static_cast<size_t>(p)] : p == 4 ? "commutes" : "automorph.",
                    to_string(r.status).c_str(), static_cast<double>(r.rlimit_used) / 1e6,
                    static_cast<unsigned long long>(r.checks), seconds, r.s ? r.s->to_string().c_str() : "",
                    r.t ? r.t->to_string().c_str() : "", r.minimized ? "(minimized)" : "");
        std::fflush(stdout);
      }
    }
}

}  // namespace
}  // namespace topocheck::smt
