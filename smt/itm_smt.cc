// The SMT methods of the ITM claims (Liu et al., paper 002): the decisions of Theorem 2
// (itm_deadlock_smt.cc) and Theorem 5 (itm_contention_smt.cc) for one n turned into method
// results, every model rebuilt with Itm::build and judged by the naive checkers of
// itm/itm_checks.h (the solver is never the judge); the sweep over n = 3..max; and
// attach_itm_smt. Scopes and rlimits per budget: catalog/itm/scope.h (section SMT). Cost: that of
// the decisions (smt/itm_smt.h), plus one naive check per model.
#include "smt/itm_smt.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/itm/scope.h"

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using claims::SolverLimits;
using itm::Contention;
using itm::Rule;
using nlohmann::json;
namespace scope = claims::itm_scope;


// ---------------------------------------------------------------------------------------------
// Method results: the model confirmed by the naive checkers

json pairs_json(const std::vector<std::pair<int, int>>& pairs) {
  json out = json::array();
  for (const auto& [u, v] : pairs) out.push_back({u, v});
  return out;
}

// The witness the claims' exhaustive method stores for an ITM case (edges, exterior edges, the
// circular order when it exists), so replay and show treat SMT cases alike.
json itm_witness(const itm::Itm& g) {
  json w = {{"edges", pairs_json(g.graph().edges())}, {"exterior", pairs_json(g.exterior_edges())}};
  if (auto order = itm::circular_order(g)) w["order"] = *order;
  return w;
}

// a and b are the same cyclic sequence, up to rotation and (if allowed) reflection.
bool same_cycle(std::vector<int> a, const std::vector<int>& b, bool reflection) {
  if (a.size() != b.size()) return false;
  for (int pass = 0; pass < (reflection ? 2 : 1); ++pass) {
    for (size_t r = 0; r < a.size(); ++r) {
      if (a == b) return true;
      std::rotate(a.begin(), a.begin() + 1, a.end());
    }
    std::reverse(a.begin(), a.end());
  }
  return false;
}

MethodResult base_result(std::string scope) {
  MethodResult r;
  r.method = Method::kSmt;
  r.scope = std::move(scope);
  return r;
}

MethodResult model_error(MethodResult result, int n, const std::string& why) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("n = {}: SMT model disagrees with the checker: {}", n, why);
  return result;
}

MethodResult refuted(MethodResult result, const itm::Itm& g, const std::string& violation, json witness) {
  result.outcome = Outcome::kRefuted;
  result.detail = violation;
  claims::Counterexample cx;
  cx.params = {{"n", g.n()}, {"rule", itm::to_string(g.rule())}};
  cx.input = {{"steps", itm::to_string(g.steps())}};
  cx.violation = violation;
  cx.witness = std::move(witness);
  cx.minimized = false;  // one n: the method knows whether smaller n were proved
  result.counterexample = std::move(cx);
  return result;
}

std::string encoding_words(ItmEncoding encoding) {
  return encoding == ItmEncoding::kPolygon ? "as a triangulated n-gon in circular-order coordinates"
                                           : "as symbolic AddNode steps and circular order";
}

// ---------------------------------------------------------------------------------------------
// Registry glue

Result<int> parse_n(const json& params) {
  const std::string bad = fmt::format("params.n must be an integer 3..{}", kItmSmtMaxNodes);
  if (!params.is_object() || !params.contains("n")) return invalid_argument(bad);
  const json& jn = params.at("n");
  if (!jn.is_number_integer()) return invalid_argument(bad);
  const int64_t value = jn.is_number_unsigned()
                            ? static_cast<int64_t>(std::min<uint64_t>(jn.get<uint64_t>(), 1000))
                            : jn.get<int64_t>();
  if (value < 3 || value > kItmSmtMaxNodes) return invalid_argument(bad);
  return static_cast<int>(value);
}

// For n = 3..max_n, the first result that is not kHolds (a refutation is then minimal in n).
MethodResult sweep(const claims::RunContext& ctx, int max_n, uint64_t rlimit, const std::string& what,
                   const std::function<MethodResult(int, const SolverLimits&)>& one) {
  auto scope_up_to = [&](int last) {
    return fmt::format("n = 3..{}, {} (Z3 proof per n, rlimit {})", last, what, rlimit);
  };
  MethodResult total = base_result(scope_up_to(max_n));
  for (int n = 3; n <= max_n; ++n) {
    ctx.report(fmt::format("smt n = {} of {} (rlimit {})", n, max_n, rlimit));
    MethodResult r = one(n, SolverLimits{rlimit, 0});
    if (r.outcome != Outcome::kHolds) {
      if (r.counterexample) r.counterexample->minimized = true;
      r.scope = scope_up_to(n);
      r.cases = total.cases;  // the n proved before this one
      return r;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

}  // namespace

std::string to_string(ItmEncoding encoding) {
  switch (encoding) {
    case ItmEncoding::kSteps: return "steps";
    case ItmEncoding::kPolygon: return "polygon";
    case ItmEncoding::kBrokenNonEdge: return "broken-non-edge";
    case ItmEncoding::kBrokenCrossingChords: return "broken-crossing-chords";
  }
  return "?";
}

MethodResult deadlock_free_smt_method_result(int n, Rule rule, const SolverLimits& limits) {
  MethodResult result = base_result(
      fmt::format("n = {}, every AddNode sequence ({}) (Z3 proof, rlimit {})", n, itm::to_string(rule), limits.rlimit));
  const ItmSmtResult smt = prove_deadlock_free(n, rule, limits, ItmEncoding::kSteps);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  auto g = itm::Itm::build(smt.steps, rule);
  if (!g) return model_error(std::move(result), n, "its steps are not an ITM: " + g.error().message);
  const Violation v = itm::check_deadlock_free(g->graph());
  if (!v) return model_error(std::move(result), n, fmt::format("`{}` is deadlock-free", itm::to_string(smt.steps)));
  return refuted(std::move(result), *g, *v, itm_witness(*g));
}

MethodResult contention_free_smt_method_result(int n, Contention contention, ItmEncoding encoding,
                                               const SolverLimits& limits) {
  TC_CHECK(encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kPolygon,
           "contention_free_smt_method_result: the faithful encodings only");
  MethodResult result =
      base_result(fmt::format("n = {}, every ITM (exterior) {}, contention {} (Z3 proof, rlimit {})", n,
                              encoding_words(encoding), itm::to_string(contention), limits.rlimit));
  const ItmSmtResult smt = prove_contention_free(n, contention, limits, encoding);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  if (static_cast<int>(smt.steps.size()) != n - 3)
    return model_error(std::move(result), n, "the model is not a triangulated polygon");
  auto g = itm::Itm::build(smt.steps, Rule::kExterior);
  if (!g) return model_error(std::move(result), n, "its steps are not an ITM: " + g.error().message);
  auto order = itm::circular_order(*g);
  if (!order) return model_error(std::move(result), n, "the ITM has no circular order: " + order.error().message);
  // kSteps fixes circular_order's direction; kPolygon is the order up to reflection.
  if (!same_cycle(smt.order, *order, encoding == ItmEncoding::kPolygon))
    return model_error(std::move(result), n,
                       fmt::format("the model's order ({}) is not the circular order ({}) of `{}`",
                                   fmt::join(smt.order, " "), fmt::join(*order, " "), itm::to_string(smt.steps)));
  itm::ContentionWitness paths;
  const Violation v = itm::check_contention_free(g->graph(), *order, contention, &paths);
  if (!v)
    return model_error(std::move(result), n,
                       fmt::format("`{}` is contention-free ({})", itm::to_string(smt.steps),
                                   itm::to_string(contention)));
  json witness = itm_witness(*g);
  witness["paths"] = {paths.first, paths.second};
  return refuted(std::move(result), *g, *v, std::move(witness));
}

void attach_itm_smt(claims::Registry& registry) {
  for (Rule rule : {Rule::kAnyEdge, Rule::kExterior}) {
    const std::string what = fmt::format("every AddNode sequence ({})", itm::to_string(rule));
    auto method = [rule, what](const claims::RunContext& ctx) {
      return sweep(ctx, scope::smt_deadlock_max_n(rule).at(ctx.budget), scope::kSmtDeadlockRlimit.at(ctx.budget), what,
                   [rule](int n, const SolverLimits& l) { return deadlock_free_smt_method_result(n, rule, l); });
    };
    auto prove = [rule](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
      auto n = parse_n(params);
      if (!n) return n.error();
      return deadlock_free_smt_method_result(
          *n, rule,
          SolverLimits{limits.rlimit == 0 ? scope::kSmtDeadlockRlimit.standard : limits.rlimit, limits.timeout_ms});
    };
    registry.attach("itm.thm2.deadlock_free", itm::to_string(rule), Method::kSmt, method, prove);
  }
  for (Contention c :
       {Contention::kPaper, Contention::kReversed, Contention::kUndirected, Contention::kSharedEndpoint}) {
    const std::string reading = c == Contention::kPaper ? "exterior" : "exterior-" + itm::to_string(c);
    const std::string what = fmt::format("every ITM (exterior) {}", encoding_words(ItmEncoding::kPolygon));
    auto method = [c, what](const claims::RunContext& ctx) {
      return sweep(ctx, scope::kSmtContentionMaxN.at(ctx.budget), scope::kSmtContentionRlimit.at(ctx.budget), what,
                   [c](int n, const SolverLimits& l) {
                     return contention_free_smt_method_result(n, c, ItmEncoding::kPolygon, l);
                   });
    };
    auto prove = [c](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
      auto n = parse_n(params);
      if (!n) return n.error();
      return contention_free_smt_method_result(
          *n, c, ItmEncoding::kPolygon,
          SolverLimits{limits.rlimit == 0 ? scope::kSmtContentionRlimit.standard : limits.rlimit, limits.timeout_ms});
    };
    registry.attach("itm.thm5.contention_free", reading, Method::kSmt, method, prove);
  }
}

}  // namespace topocheck::smt
