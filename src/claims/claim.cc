#include "claims/claim.h"

#include <utility>

#include <fmt/format.h>

#include "claims/ledger.h"

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
    case Outcome::kVacuous: return "vacuous";
  }
  return "?";
}

Claim Claim::make(std::string paper, std::string id, std::string location, std::string statement,
                  std::vector<Reading> readings, bool empirical) {
  Claim c;
  c.id = std::move(id);
  c.paper = std::move(paper);
  c.location = std::move(location);
  c.statement = std::move(statement);
  c.readings = std::move(readings);
  c.empirical = empirical;
  c.beyond_paper = c.location.find("beyond the paper") != std::string::npos;
  return c;
}

std::string verdict_word(Outcome o, bool empirical) {
  if (empirical && o == Outcome::kHolds) return "reproduced";
  if (empirical && o == Outcome::kRefuted) return "not reproduced";
  return to_string(o);
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
  for (Outcome o : {Outcome::kHolds, Outcome::kRefuted, Outcome::kInconclusive, Outcome::kError, Outcome::kVacuous})
    if (to_string(o) == s) return o;
  return std::nullopt;
}

std::string Shard::to_string() const { return fmt::format("{}/{}", index, count); }

std::pair<uint64_t, uint64_t> Shard::range(uint64_t total) const {
  // floor(total * i / N) for i = index - 1, index; 128-bit products, no overflow.
  const auto cut = [&](int i) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(total) * static_cast<unsigned>(i) /
                                 static_cast<unsigned>(count));
  };
  return {cut(index - 1), cut(index)};
}

std::pair<uint64_t, uint64_t> Shard::range_by_cost(const std::vector<std::pair<uint64_t, double>>& segments) const {
  long double total_cost = 0;
  uint64_t total_items = 0;
  for (const auto& [items, cost] : segments) {
    total_cost += static_cast<long double>(items) * cost;
    total_items += items;
  }
  // The first item whose cumulative cost (itself included) reaches `target`, plus one: the end of
  // the shard whose work ends at `target`.
  const auto cut = [&](int i) -> uint64_t {
    if (i <= 0) return 0;
    if (i >= count) return total_items;
    const long double target = total_cost * i / count;
    long double before = 0;
    uint64_t offset = 0;
    for (const auto& [items, cost] : segments) {
      const long double span = static_cast<long double>(items) * cost;
      if (before + span >= target) {
        const long double need = (target - before) / cost;
        uint64_t k = static_cast<uint64_t>(need);
        if (static_cast<long double>(k) < need) ++k;
        return offset + std::min(k, items);
      }
      before += span;
      offset += items;
    }
    return total_items;
  };
  return {cut(index - 1), cut(index)};
}

Result<Shard> parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  auto number = [](std::string_view digits) -> std::optional<int> {
    if (digits.empty() || digits.size() > 7) return std::nullopt;
    int value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value;
  };
  if (slash == std::string_view::npos)
    return invalid_argument(fmt::format("--shard: '{}' is not i/N (shard i of N, 1 <= i <= N)", text));
  const auto index = number(text.substr(0, slash)), count = number(text.substr(slash + 1));
  if (!index || !count)
    return invalid_argument(fmt::format("--shard: '{}' is not i/N (shard i of N, 1 <= i <= N)", text));
  if (*count < 1 || *count > 1000000)
    return invalid_argument(fmt::format("--shard: '{}': N must be 1..1000000", text));
  if (*index < 1 || *index > *count)
    return invalid_argument(fmt::format("--shard: '{}': i must be 1..{} (shards count from 1)", text, *count));
  return Shard{*index, *count};
}

std::optional<Outcome> RunContext::expected(std::string_view claim, std::string_view reading) const {
  if (!ledger) return std::nullopt;
  const Expectation* e = ledger->find(std::string(claim), std::string(reading));
  if (!e) return std::nullopt;
  return e->at(budget);
}

Result<corpus::Case> RunContext::load_case(const std::string& relative_path) const {
  if (!case_loader) return invalid_argument(fmt::format("{}: no corpus is given to this run", relative_path));
  return case_loader(relative_path);
}

Result<std::vector<corpus::Case>> RunContext::examples(const std::string& family) const {
  if (!examples_loader) return invalid_argument(fmt::format("the examples of {}: no corpus is given to this run", family));
  return examples_loader(family);
}

MethodResult skipped_in_shard(Method method, const RunContext& ctx) {
  MethodResult r;
  r.method = method;
  r.outcome = Outcome::kHolds;
  r.skipped = true;
  const Shard shard = ctx.shard.value_or(Shard{});
  r.scope = fmt::format("not run in shard {} (runs in shard {}/{})", shard.to_string(), ctx.unsplit_shard(), shard.count);
  return r;
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
