#include "claims/claim.h"

#include <fmt/format.h>

namespace topocheck::claims {

std::string to_string(Budget b) {
  switch (b) {
    case Budget::kQuick: return "quick";
    case Budget::kStandard: return "standard";
    case Budget::kDeep: return "deep";
  }
  return "?";
}

std::string to_string(Method m) {
  switch (m) {
    case Method::kExample: return "example";
    case Method::kExhaustive: return "exhaustive";
    case Method::kRandom: return "random";
    case Method::kSmt: return "smt";
    case Method::kOracle: return "oracle";
  }
  return "?";
}

std::string to_string(Outcome o) {
  switch (o) {
    case Outcome::kHolds: return "holds";
    case Outcome::kRefuted: return "refuted";
    case Outcome::kInconclusive: return "inconclusive";
    case Outcome::kError: return "error";
  }
  return "?";
}

std::optional<Budget> parse_budget(std::string_view s) {
  for (Budget b : {Budget::kQuick, Budget::kStandard, Budget::kDeep})
    if (to_string(b) == s) return b;
  return std::nullopt;
}

std::optional<Method> parse_method(std::string_view s) {
  for (Method m : {Method::kExample, Method::kExhaustive, Method::kRandom, Method::kSmt,
                   Method::kOracle})
    if (to_string(m) == s) return m;
  return std::nullopt;
}

std::optional<Outcome> parse_outcome(std::string_view s) {
  for (Outcome o : {Outcome::kHolds, Outcome::kRefuted, Outcome::kInconclusive, Outcome::kError})
    if (to_string(o) == s) return o;
  return std::nullopt;
}

const Reading* Claim::find_reading(std::string_view name) const {
  for (const Reading& r : readings)
    if (r.name == name) return &r;
  return nullptr;
}

Reading* Claim::find_reading(std::string_view name) {
  for (Reading& r : readings)
    if (r.name == name) return &r;
  return nullptr;
}

void Registry::add(Claim claim) {
  TC_CHECK(find(claim.id) == nullptr, fmt::format("duplicate claim id {}", claim.id));
  TC_CHECK(!claim.readings.empty(), fmt::format("claim {} has no reading", claim.id));
  claims_.push_back(std::move(claim));
}

const Claim* Registry::find(std::string_view id) const {
  for (const Claim& c : claims_)
    if (c.id == id) return &c;
  return nullptr;
}

Claim* Registry::find(std::string_view id) {
  for (Claim& c : claims_)
    if (c.id == id) return &c;
  return nullptr;
}

void Registry::attach(std::string_view id, std::string_view reading, Method method, MethodFn fn,
                      ProveFn prove) {
  Claim* claim = find(id);
  TC_CHECK(claim != nullptr, fmt::format("attach: unknown claim {}", id));
  Reading* r = claim->find_reading(reading);
  TC_CHECK(r != nullptr, fmt::format("attach: claim {} has no reading {}", id, reading));
  r->methods.emplace_back(method, std::move(fn));
  if (prove) r->prove = std::move(prove);
}

}  // namespace topocheck::claims
