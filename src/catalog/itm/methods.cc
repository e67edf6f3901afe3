// Shared ITM methods (see catalog/itm/methods.h).
#include "catalog/itm/methods.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "catalog/itm/scope.h"
#include "claims/random_method.h"
#include "itm/enumerate.h"
#include "itm/itm_gen.h"

namespace topocheck::claims {

using itm::Itm;
using itm::Rule;
using nlohmann::json;

json edges_json(const itm::Graph& g) {
  json out = json::array();
  for (const auto& [u, v] : g.edges()) out.push_back({u, v});
  return out;
}

// The witness every ITM case carries: the graph's edges, the exterior edges and the circular
// order when it exists (show --format dot draws the nodes on a circle in that order).
json base_witness(const Itm& itm) {
  json w = {{"edges", edges_json(itm.graph())}, {"exterior", json::array()}};
  for (const auto& [u, v] : itm.exterior_edges()) w["exterior"].push_back({u, v});
  if (auto order = itm::circular_order(itm)) w["order"] = *order;
  return w;
}

Counterexample itm_counterexample(const Itm& itm, std::string violation, json witness) {
  Counterexample cx;
  cx.params = {{"n", itm.n()}, {"rule", itm::to_string(itm.rule())}};
  cx.input = {{"steps", itm::to_string(itm.steps())}};
  cx.violation = std::move(violation);
  cx.witness = std::move(witness);
  cx.minimized = true;
  return cx;
}

// Runs `check` on an ITM, with the witness filled in on failure.
std::optional<Counterexample> run_check(const ItmCheck& check, const Itm& itm) {
  if (!check(itm, nullptr)) return std::nullopt;
  json witness = base_witness(itm);
  auto v = check(itm, &witness);
  TC_CHECK(v.has_value(), "an ITM check gave two verdicts on one input");
  return itm_counterexample(itm, *v, std::move(witness));
}

// Every ITM of `rule` with 3..max_n nodes up to isomorphism, fewest nodes first. Levels of
// itm_scope::kParallelFromN nodes or more are swept on every core (enumerate_itms_parallel); a
// violation found there is looked up again by a sequential sweep of that level, so the stored
// counterexample is the first in the enumeration's deterministic order, whatever the threads did.
namespace {

// The end of an exhaustive ITM sweep: the premise's count in the scope, the outcome from the
// counterexample.
MethodResult finish(MethodResult result, bool has_premise, uint64_t applicable) {
  if (has_premise) {
    result.applicable = applicable;
    result.scope += fmt::format(" ({} of them in the claim's premise)", applicable);
  }
  if (result.counterexample) {
    result.outcome = Outcome::kRefuted;
    result.detail = result.counterexample->violation;
  } else {
    result.outcome = Outcome::kHolds;
  }
  return result;
}

// exhaustive_itms in a shard: the classes of n = 3..max_n in sweep order (level by level, each
// level's subtrees in order, itm::enumerate_subtrees) are one sequence of subtrees, cut by
// estimated cost (Shard::range_by_cost), so the lowest refuting shard's first counterexample is
// the first of the whole sweep (itm::subtree_weights, itm::enumerate_subtrees). Levels are cut into at least 128 subtrees per shard. Cost model:
// a subtree's classes on n nodes, estimated by counting its nodes three levels below its root and
// multiplying by rho per level left (rho = 4.7 for kAnyEdge, the ratio of the unlabelled 2-trees
// from n = 15 to 16; 3.45 for kExterior, A000207 from 17 to 18 nodes), each class judged in about
// n^2 (Theorem 2's O(n^2) channel pairs). Subtrees differ a great deal (a symmetric ITM has few
// children), so each is weighed on its own. bench/README.md ("Shards cut by cost") checks the
// model against measured shard times.
MethodResult sharded_itms(const RunContext& ctx, Rule rule, int max_n, const ItmCheck& check,
                          const ItmPremise& premise, MethodResult result) {
  const Shard& shard = *ctx.shard;
  const size_t min_roots = 128 * static_cast<size_t>(shard.count);
  const double rho = rule == Rule::kAnyEdge ? 4.7 : 3.45;
  std::vector<uint64_t> roots;
  std::vector<std::pair<uint64_t, double>> segments;
  uint64_t total = 0;
  for (int n = 3; n <= max_n; ++n) {
    const std::vector<double> weights = itm::subtree_weights(n, rule, min_roots, 3, rho);
    roots.push_back(weights.size());
    total += weights.size();
    // A subtree with no class on n nodes still costs its walk: at least one class's worth.
    for (double w : weights) segments.emplace_back(1, std::max(w, 1.0) * n * n);
  }
  const auto [first, last] = shard.range_by_cost(segments);
  result.shard = fmt::format("{}, subtrees [{}, {}) of {}", shard.to_string(), first, last, total);
  uint64_t applicable = 0, offset = 0;
  for (int n = 3; n <= max_n && !result.counterexample; offset += roots[static_cast<size_t>(n - 3)], ++n) {
    const uint64_t size = roots[static_cast<size_t>(n - 3)];
    const uint64_t begin = std::max(first, offset), end = std::min(last, offset + size);
    if (begin >= end) continue;
    ctx.report(fmt::format("exhaustive {} n = {}: subtrees [{}, {}) of {}", itm::to_string(rule), n, begin - offset,
                           end - offset, size));
    itm::enumerate_subtrees(n, rule, [&](const Itm& g) {
      if (result.counterexample) return;
      ++result.cases;
      if (premise && !premise(g)) return;
      ++applicable;
      if (auto cx = run_check(check, g)) result.counterexample = std::move(cx);
    }, min_roots, begin - offset, end - offset);
  }
  return finish(std::move(result), static_cast<bool>(premise), applicable);
}

}  // namespace

MethodResult exhaustive_itms(const RunContext& ctx, Rule rule, int max_n, const ItmCheck& check,
                             const ItmPremise& premise) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = fmt::format("every ITM ({}) with n = 3..{} nodes, up to isomorphism", itm::to_string(rule), max_n);
  std::atomic<uint64_t> applicable{0};
  if (ctx.shard && ctx.shard->count > 1) return sharded_itms(ctx, rule, max_n, check, premise, std::move(result));
  auto sequential = [&](int n) {
    itm::enumerate_itms(n, n, rule, [&](const Itm& g) {
      if (result.counterexample) return;
      ++result.cases;
      if (premise && !premise(g)) return;
      ++applicable;
      if (auto cx = run_check(check, g)) result.counterexample = std::move(cx);
    });
  };
  for (int n = 3; n <= max_n && !result.counterexample; ++n) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    if (n < itm_scope::kParallelFromN || threads == 1) {
      ctx.report(fmt::format("exhaustive {} n = {}", itm::to_string(rule), n));
      sequential(n);
      continue;
    }
    ctx.report(fmt::format("exhaustive {} n = {} on {} threads", itm::to_string(rule), n, threads));
    std::atomic<uint64_t> cases{0}, level_applicable{0};
    std::atomic<bool> failed{false};
    itm::enumerate_itms_parallel(n, n, rule, [&](const Itm& g) {
      if (failed.load(std::memory_order_relaxed)) return;
      const uint64_t done = ++cases;
      if (done % 100000 == 0) ctx.report(fmt::format("exhaustive {} n = {}: {} ITMs", itm::to_string(rule), n, done));
      if (premise && !premise(g)) return;
      ++level_applicable;
      if (check(g, nullptr)) failed = true;
    }, static_cast<int>(threads));
    if (failed) {
      sequential(n);
      TC_CHECK(result.counterexample.has_value(), "a parallel sweep found a violation the sequential one did not");
    } else {
      result.cases += cases;
      applicable += level_applicable;
    }
  }
  return finish(std::move(result), static_cast<bool>(premise), applicable.load());
}

// Random AddNode sequences (itm/itm_gen.h: up to `max_nodes` nodes, shrinking that drops and
// renumbers nodes), then an exhaustive look below the shrunk size for a smaller counterexample.
MethodResult random_itms(const RunContext& ctx, Rule rule, int max_nodes, const ItmCheck& check, int cases,
                         const ItmPremise& premise) {
  RandomSpec<itm::ItmSequence> spec{itm::gen::itm_sequence(rule, max_nodes)};
  spec.cases = cases;
  spec.scope = fmt::format("AddNode sequences ({}) with n = 3..{} nodes", itm::to_string(rule), max_nodes);
  uint64_t outside = 0;
  spec.check = [&](const itm::ItmSequence& seq) -> std::optional<Counterexample> {
    const Itm g = seq.build();
    if (premise && !premise(g)) {
      ++outside;
      return std::nullopt;
    }
    return run_check(check, g);
  };
  spec.smaller = [&](const Counterexample& found) -> std::optional<Counterexample> {
    const int n = found.params.at("n").get<int>();
    RunContext quiet = ctx;
    quiet.progress = nullptr;
    MethodResult below = exhaustive_itms(quiet, rule, std::min(n - 1, itm_scope::kRandomFallbackMaxN), check, premise);
    return below.counterexample;
  };
  MethodResult result = run_random(ctx, spec);
  if (premise && result.outcome == Outcome::kHolds) {
    // The shrinking also calls check; `outside` counts only when nothing was found, where every
    // call was one generated case.
    result.applicable = result.cases >= outside ? result.cases - outside : 0;
    result.scope += fmt::format(" ({} of them in the claim's premise)", *result.applicable);
  }
  return result;
}

CaseFn itm_case_fn(Rule rule, ItmCheck check, ItmPremise premise) {
  return [rule, check, premise](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("rule") || !params.at("rule").is_string())
      return invalid_argument("params.rule must be \"any-edge\" or \"exterior\"");
    auto r = itm::parse_rule(params.at("rule").get<std::string>());
    if (!r) return invalid_argument(fmt::format("params.rule: '{}' is not any-edge or exterior", params.at("rule").dump()));
    if (*r != rule) return invalid_argument(fmt::format("params.rule: this reading is {}", itm::to_string(rule)));
    if (!input.is_object() || !input.contains("steps") || !input.at("steps").is_string())
      return invalid_argument("input.steps must be a string of AddNode steps, e.g. \"3:(0,1) 4:(1,3)\"");
    auto steps = itm::parse_steps(input.at("steps").get<std::string>());
    if (!steps) return invalid_argument("input.steps: " + steps.error().message);
    auto g = Itm::build(*steps, rule);
    if (!g) return invalid_argument("input.steps: " + g.error().message);
    if (params.contains("n") && (!params.at("n").is_number_integer() || params.at("n").get<int>() != g->n()))
      return invalid_argument(fmt::format("params.n: the steps build {} nodes", g->n()));
    json witness = base_witness(*g);
    if (premise && !premise(*g)) {
      witness["premise"] = "does not apply: the claim says nothing about this ITM";
      return CaseCheck{std::nullopt, witness};
    }
    Violation v = check(*g, &witness);
    return CaseCheck{v, witness};
  };
}

}  // namespace topocheck::claims
