// Test support: runs a RapidCheck property by hand, with a case count of the caller's choosing.
// The one place in the tree that reaches into RapidCheck's rc::detail; props/props_harness.h and
// the twin test of the fast verdicts (src/core/sweep/fast_checks_test.cc) run their properties
// through it. Test code only (it needs RapidCheck; link tc_property_harness).
//
// Why by hand: RapidCheck reads RC_PARAMS once, into a process-wide configuration, and offers no
// public setter; setting RC_PARAMS from inside a test would race with that first read and clobber
// the user's own RC_PARAMS. checkProperty(property, metadata, params) is the entry point
// rapidcheck/gtest.h itself uses (through checkTestable); RunProperty passes it a copy of the
// global TestParams (so seed, max_size, ... from RC_PARAMS still apply) with max_success replaced.
#pragma once

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include <rapidcheck.h>

namespace topocheck::test_support {

// How a property run ended. Neither `succeeded` nor `falsified`: RapidCheck gave up (too many
// discarded cases) or the property threw something that is not an assertion.
struct PropertyOutcome {
  bool succeeded = false;  // every case passed
  bool falsified = false;  // a case failed; `message` shows the shrunk counterexample
  std::string message;     // RapidCheck's own report: the count and tag distribution, or the
                           // counterexample and its reproduce string
};

// Who hears about the run while it goes. kRapidCheck: RapidCheck's global listener, which prints
// a reproduce string at exit if the property failed. kSilent: nothing is printed, for properties
// whose failure is the expectation (negative controls).
enum class Listener { kRapidCheck, kSilent };

// The seed the properties of this process run with (RC_PARAMS="seed=S", else the one RapidCheck
// chose). The first call loads the configuration, and RapidCheck prints "Using configuration: ..."
// on stderr then.
inline uint64_t ConfiguredSeed() { return rc::detail::configuration().testParams.seed; }

// Runs `property` (anything RC_GTEST_PROP or rc::check accepts: a callable using RC_ASSERT,
// RC_PRE, *gen, ...) as RapidCheck does, except that the number of successful cases is `cases`
// (nullopt: RapidCheck's configured max_success, 100 unless RC_PARAMS says otherwise). `id` is
// the RapidCheck test id (reproduce strings refer to it). Cost: the property's, times the cases,
// plus shrinking if it fails.
template <class Testable>
PropertyOutcome RunProperty(const std::string& id, std::optional<int> cases, Testable&& property,
                            Listener listener = Listener::kRapidCheck) {
  class Silent final : public rc::detail::TestListener {
   public:
    void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
    void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
    void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
  };
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (cases) params.maxSuccess = *cases;
  const rc::detail::TestMetadata metadata{id, id};
  const rc::detail::Property prop = rc::detail::toProperty(std::forward<Testable>(property));
  const rc::detail::TestResult result = [&] {
    if (listener == Listener::kRapidCheck) return rc::detail::checkProperty(prop, metadata, params);
    Silent silent;
    return rc::detail::checkProperty(prop, metadata, params, silent);
  }();
  PropertyOutcome out;
  out.succeeded = result.template is<rc::detail::SuccessResult>();
  out.falsified = result.template is<rc::detail::FailureResult>();
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  out.message = message.str();
  return out;
}

}  // namespace topocheck::test_support
