// Registry-level tests of the AAPC claims (they need tc_claims): each property reading's
// exhaustive method at the quick budget with its expected outcome and smallest counterexample,
// case replay and field errors, Example 1 through the example method.
#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "claims/runner.h"

namespace topocheck::claims {
namespace {

MethodResult run_exhaustive(const Registry& registry, std::string_view id, std::string_view reading) {
  const Claim* claim = registry.find(id);
  EXPECT_NE(claim, nullptr) << id;
  const Reading* r = claim->find_reading(reading);
  EXPECT_NE(r, nullptr) << id << " " << reading;
  RunContext ctx;
  ctx.budget = Budget::kQuick;
  for (const auto& [method, fn] : r->methods)
    if (method == Method::kExhaustive) return fn(ctx);
  ADD_FAILURE() << "no exhaustive method";
  return MethodResult{};
}

struct Expected {
  const char* id;
  const char* reading;
  Outcome outcome;
  const char* params;  // counterexample params and input (JSON), refuted readings only
  const char* input;
};

TEST(AapcPropertyClaims, ExhaustiveMethodsAtQuickBudgetGiveTheExpectedVerdicts) {
  Registry registry;
  register_aapc_claims(registry);
  const Expected expected[] = {
      {"aapc.prop1.partition", "literal", Outcome::kHolds, "", ""},
      {"aapc.prop1.partition", "f_dimensions", Outcome::kHolds, "", ""},
      {"aapc.prop1.partition", "any_f_dimensions", Outcome::kRefuted, R"({"n":4})", R"({"faults":"0,1","D":"0,1"})"},
      {"aapc.prop1.partition", "subcubes", Outcome::kHolds, "", ""},
      {"aapc.prop1.one_more_dimension", "no_fault_pair_differs", Outcome::kHolds, "", ""},
      {"aapc.prop1.one_more_dimension", "exists_common_bit", Outcome::kRefuted, R"({"n":4})", R"({"faults":"0,15"})"},
      {"aapc.prop2.dimension", "literal", Outcome::kHolds, "", ""},
      {"aapc.prop2.dimension", "any", Outcome::kRefuted, R"({"n":2})", R"({"faults":"0,1","d":"0"})"},
      {"aapc.prop2.dimension", "distinct_partners", Outcome::kHolds, "", ""},
      {"aapc.prop2.bound_tight", "literal", Outcome::kHolds, "", ""},
      {"aapc.prop3.perfect_partner", "any_at_least_one", Outcome::kHolds, "", ""},
      {"aapc.prop3.perfect_partner", "any_exactly_one", Outcome::kRefuted, R"({"n":3})", R"({"faults":"0","D":"0"})"},
      {"aapc.prop3.perfect_partner", "any_matching", Outcome::kHolds, "", ""},
      {"aapc.prop3.perfect_partner", "any_common_dimension", Outcome::kHolds, "", ""},
      {"aapc.prop3.perfect_partner", "some_common_dimension", Outcome::kHolds, "", ""},
      {"aapc.sec2.af_precondition", "literal", Outcome::kHolds, "", ""},
      {"aapc.sec2.af_precondition", "as_printed", Outcome::kRefuted, R"({"n":2})", R"({"faults":"0"})"},
  };
  for (const Expected& e : expected) {
    const MethodResult result = run_exhaustive(registry, e.id, e.reading);
    EXPECT_EQ(result.outcome, e.outcome) << e.id << " " << e.reading << ": " << result.detail;
    if (e.outcome != Outcome::kRefuted) continue;
    ASSERT_TRUE(result.counterexample.has_value()) << e.id << " " << e.reading;
    EXPECT_EQ(result.counterexample->params, nlohmann::json::parse(e.params)) << e.id << " " << e.reading;
    EXPECT_EQ(result.counterexample->input, nlohmann::json::parse(e.input)) << e.id << " " << e.reading;
    EXPECT_TRUE(result.counterexample->minimized);
    // The stored form replays: the case function finds the same violation.
    const Reading* r = registry.find(e.id)->find_reading(e.reading);
    auto replay = r->check_case(result.counterexample->params, result.counterexample->input);
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    EXPECT_EQ(replay->violation, result.counterexample->violation);
  }
}

// Negative control at claim level: a stored case that holds is not a counterexample, and malformed
// input is an error naming the field.
TEST(AapcPropertyClaims, CaseFunctionsReplayAndNameBadFields) {
  Registry registry;
  register_aapc_claims(registry);
  const Reading* any = registry.find("aapc.prop2.dimension")->find_reading("any");
  auto refuted = any->check_case({{"n", 2}}, {{"faults", "0,1"}, {"d", "0"}});
  ASSERT_TRUE(refuted.ok());
  EXPECT_TRUE(refuted->violation.has_value());
  auto holds = any->check_case({{"n", 2}}, {{"faults", "0,1"}, {"d", "1"}});
  ASSERT_TRUE(holds.ok());
  EXPECT_FALSE(holds->violation.has_value());
  const Reading* matching = registry.find("aapc.prop3.perfect_partner")->find_reading("any_matching");
  for (const auto& [input, field] : std::vector<std::pair<nlohmann::json, std::string>>{
           {{{"faults", "6,99"}}, "input.faults"},
           {{{"faults", "6,9,10"}}, "input.faults"},   // f > floor(n/2)
           {{{"faults", 6}}, "input.faults"},
           {{{"faults", "6,9"}, {"D", "0"}}, "input.D"},  // |D| != f
           {{{"faults", "6,9"}, {"d", "1"}}, "input.d"},  // not an input of this reading
       }) {
    auto r = matching->check_case({{"n", 4}}, input);
    ASSERT_FALSE(r.ok()) << input.dump();
    EXPECT_NE(r.error().message.find(field), std::string::npos) << r.error().message;
  }
  EXPECT_FALSE(matching->check_case(nlohmann::json::object(), {{"faults", "6"}}).ok());  // params.n
}

// The per-step check (aapc.*.units [all_port.steps_at_most]) can fail and can hold: A_2's Phase 2
// Step 1 on Q_6 with Example 2's faults takes more than n = 6 units (schedules.h's table: 8), and
// on Q_4 it takes 4 = n. Negative control of the check: a case that holds is not a violation.
TEST(AapcScheduleClaims, PerStepCheckFailsWhereAStepExceedsItsPrintedCount) {
  Registry registry;
  register_aapc_claims(registry);
  const Reading* steps = registry.find("aapc.a2.units")->find_reading("all_port.steps_at_most");
  ASSERT_NE(steps, nullptr);
  auto q6 = steps->check_case({{"n", 6}, {"model", "all_port"}}, {{"faults", "6,9"}, {"d", 3}});
  ASSERT_TRUE(q6.ok()) << q6.error().message;
  ASSERT_TRUE(q6->violation.has_value());
  EXPECT_NE(q6->violation->find("phase 2 step 1"), std::string::npos) << *q6->violation;
  auto q4 = steps->check_case({{"n", 4}, {"model", "all_port"}}, {{"faults", "6,9"}, {"d", 3}});
  ASSERT_TRUE(q4.ok()) << q4.error().message;
  EXPECT_FALSE(q4->violation.has_value()) << *q4->violation;
}

// The list order is a parameter of the input: the same fault set under another faithful order
// is another schedule, replayed from input.order; a bad order is an error naming the field.
TEST(AapcScheduleClaims, ListOrderIsAnInputOfTheUnitReadings) {
  Registry registry;
  register_aapc_claims(registry);
  const Reading* every = registry.find("aapc.a2.units")->find_reading("all_port.at_most.every_order");
  ASSERT_NE(every, nullptr);
  auto seed0 = every->check_case({{"n", 4}, {"model", "all_port"}}, {{"faults", "6,9"}, {"d", 3}});
  ASSERT_TRUE(seed0.ok());
  EXPECT_FALSE(seed0->violation.has_value());  // 27 <= 43 (schedules.h's table)
  auto seeded = every->check_case({{"n", 4}, {"model", "all_port"}}, {{"faults", "6,9"}, {"d", 3}, {"order", 5}});
  ASSERT_TRUE(seeded.ok());
  EXPECT_EQ(seeded->witness.at("order"), 5);
  auto bad = every->check_case({{"n", 4}, {"model", "all_port"}}, {{"faults", "6,9"}, {"d", 3}, {"order", "x"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("input.order"), std::string::npos);
}

// Vacuity: the schedule methods count the inputs their premise applied to. A_2's units readings
// skip the inputs where A_2 is undefined (faults neighbours along d), so fewer apply than are
// checked; aapc.a2.defined applies to every input.
TEST(AapcScheduleClaims, ScheduleMethodsCountApplicableInputs) {
  Registry registry;
  register_aapc_claims(registry);
  const MethodResult units = run_exhaustive(registry, "aapc.a2.units", "all_port.at_most");
  ASSERT_TRUE(units.applicable.has_value());
  EXPECT_GT(*units.applicable, 0u);
  EXPECT_LT(*units.applicable, units.cases);
  const MethodResult defined = run_exhaustive(registry, "aapc.a2.defined", "literal");
  EXPECT_EQ(defined.applicable_count(), defined.cases);
}

// Example 1 against corpus/aapc/examples/example1.json (the example method).
TEST(AapcPropertyClaims, ExampleOneMatchesThePrintedPartnerSets) {
  Registry registry;
  register_aapc_claims(registry);
  const Reading* r = registry.find("aapc.example1.partner_sets")->find_reading("literal");
  RunContext ctx;
  ctx.budget = Budget::kQuick;
  attach_corpus(ctx, std::filesystem::path(TOPOCHECK_SOURCE_DIR) / "corpus", nullptr);
  const MethodResult result = r->methods.at(0).second(ctx);
  EXPECT_EQ(result.outcome, Outcome::kHolds) << result.detail;
}

}  // namespace
}  // namespace topocheck::claims
