// The harness every props/<family>_props.cc runs its properties with: the budget from the
// environment, a property run with the budget's case count, and the expected falsification of
// the negative controls.
//
// Budget: TOPOCHECK_BUDGET=quick|standard|deep (default quick); each family takes its case count
// and sizes from catalog/<family>/scope.h at that budget (its "Properties" section, or the scope
// `topocheck verify` uses).
//
// Seed: RapidCheck prints "Using configuration: seed=S" before the first property and a
// reproduce string when one fails; RC_PARAMS="seed=S" reruns with the same inputs, and the other
// RC_PARAMS keys (max_size, reproduce, verbose_progress, ...) are honoured too. Only max_success
// comes from the budget (see core/testing/property_harness.h).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "claims/claim.h"
#include "core/checks.h"
#include "core/testing/property_harness.h"

namespace topocheck::props {

// The budget named by TOPOCHECK_BUDGET (unset or empty: quick). A value that is not a budget
// is bad usage: it is reported and the program exits with 2, rather than silently running quick.
inline claims::Budget BudgetFromEnvironment() {
  const char* text = std::getenv("TOPOCHECK_BUDGET");
  if (text == nullptr || *text == '\0') return claims::Budget::kQuick;
  const auto budget = claims::parse_budget(text);
  if (!budget) {
    std::cerr << "topocheck: error: TOPOCHECK_BUDGET='" << text
              << "' is not one of quick, standard, deep\n";
    std::exit(2);
  }
  return *budget;
}

// The one way props run a property by hand (core/testing/property_harness.h): with the budget's
// case count, RapidCheck's other settings from RC_PARAMS.
using test_support::Listener;
using test_support::PropertyOutcome;
using test_support::RunProperty;

// What runs, on stdout before the property: "<id>: budget quick, 300 cases, <inputs>, seed S
// (rerun with RC_PARAMS="seed=S")"; `inputs` says which, e.g. "n = 1..63".
inline void PrintScope(const std::string& id, claims::Budget budget, int cases, const std::string& inputs) {
  // The first configuration() call loads RC_PARAMS and prints "Using configuration: ..." on
  // stderr; do it before our own line so the two do not interleave.
  const uint64_t seed = test_support::ConfiguredSeed();
  std::cout << id << ": budget " << claims::to_string(budget) << ", " << cases << " cases, " << inputs << ", seed "
            << seed << " (rerun with RC_PARAMS=\"seed=" << seed << "\")" << std::endl;
}

// A claim property at the budget's scope: prints what runs (PrintScope), fails the GoogleTest
// test with RapidCheck's shrunk counterexample if the property fails.
template <class Testable>
void CheckClaim(const std::string& claim_id, claims::Budget budget, int cases, const std::string& inputs,
                Testable&& property) {
  PrintScope(claim_id, budget, cases, inputs);
  const PropertyOutcome outcome = RunProperty(claim_id, cases, std::forward<Testable>(property));
  if (outcome.succeeded) {
    std::cout << outcome.message << std::endl;  // the count and the tag distribution
  } else {
    FAIL() << claim_id << ": " << outcome.message;
  }
}

// How a property EXPECTED TO FAIL was falsified.
template <class T>
struct Falsification {
  bool falsified = false;
  std::optional<T> smallest;  // the last failing case: RapidCheck's shrunk counterexample
  std::string violation;
  std::string message;
};

// Runs "violation(value) is empty for every value of `generator`" (`cases` cases, silently) and
// reports how it was falsified. Shrinking only ever moves to a failing case, so the last failing
// case RapidCheck runs is the one it reports.
template <class T>
Falsification<T> Falsify(const std::string& id, int cases, const rc::Gen<T>& generator,
                         const std::function<Violation(const T&)>& violation) {
  Falsification<T> out;
  const PropertyOutcome outcome = RunProperty(
      id, cases,
      [&out, &generator, &violation] {
        const T value = *generator.as("input");
        if (auto v = violation(value)) {
          out.smallest = value;
          out.violation = *v;
          RC_FAIL(*v);
        }
      },
      Listener::kSilent);
  out.falsified = outcome.falsified;
  out.message = outcome.message;
  return out;
}

// A generator's contract the `random` verify method relies on: the value and its first shrinks
// are functions of (rc::Random, size) only. Checked for seeds 0..199 at size seed % 100 (the
// method's size schedule), the first 8 shrinks of each.
template <class T>
void ExpectDeterministic(const rc::Gen<T>& generator) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const int size = static_cast<int>(seed % 100);
    const rc::Shrinkable<T> a = generator(rc::Random(seed), size);
    const rc::Shrinkable<T> b = generator(rc::Random(seed), size);
    ASSERT_EQ(a.value(), b.value());
    auto sa = a.shrinks(), sb = b.shrinks();
    for (int k = 0; k < 8; ++k) {
      auto na = sa.next(), nb = sb.next();
      ASSERT_EQ(static_cast<bool>(na), static_cast<bool>(nb));
      if (!na) break;
      EXPECT_EQ(na->value(), nb->value());
    }
  }
}

}  // namespace topocheck::props
