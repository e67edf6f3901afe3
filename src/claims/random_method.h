// The `random` method: generated inputs (RapidCheck generators), seeded, with shrinking.
//
// Case k uses rc::Random(seed + k) and RapidCheck size k % 100 (small inputs first). On a
// failure the shrinkable is walked greedily (the first shrink that still fails becomes current,
// until none does), so the stored counterexample is RapidCheck's shrunk value; then `smaller`
// (if given) searches exhaustively below the found size for an even smaller one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "claims/claim.h"

namespace topocheck::claims {

template <class T>
struct RandomSpec {
  explicit RandomSpec(rc::Gen<T> generator) : gen(std::move(generator)) {}
  rc::Gen<T> gen;
  int cases = 100;
  std::string scope;  // e.g. "n = 1..63"
  // The check of one value: nullopt when the claim holds on it.
  std::function<std::optional<Counterexample>(const T&)> check;
  // Optional: an exhaustive search for a counterexample of size below that of `found`.
  std::function<std::optional<Counterexample>(const Counterexample& found)> smaller;
};

template <class T>
MethodResult run_random(const RunContext& ctx, const RandomSpec<T>& spec) {
  MethodResult result;
  result.method = Method::kRandom;
  result.scope = fmt::format("{}, {} cases, seed {}", spec.scope, spec.cases, ctx.seed);
  for (int k = 0; k < spec.cases; ++k) {
    if (k % 256 == 0) ctx.report(fmt::format("random case {}/{}", k, spec.cases));
    rc::Shrinkable<T> current = spec.gen(rc::Random(ctx.seed + static_cast<uint64_t>(k)), k % 100);
    std::optional<Counterexample> failure = spec.check(current.value());
    ++result.cases;
    if (!failure) continue;
    // Greedy shrinking: keep the first shrink that still fails.
    for (bool progressed = true; progressed;) {
      progressed = false;
      auto shrinks = current.shrinks();
      while (auto next = shrinks.next()) {
        if (auto f = spec.check(next->value())) {
          current = *next;
          failure = f;
          progressed = true;
          break;
        }
      }
    }
    failure->minimized = true;
    if (spec.smaller)
      if (auto s = spec.smaller(*failure)) {
        failure = s;
        failure->minimized = true;
      }
    result.outcome = Outcome::kRefuted;
    result.detail = failure->violation;
    result.counterexample = failure;
    return result;
  }
  result.outcome = Outcome::kHolds;
  return result;
}

}  // namespace topocheck::claims
