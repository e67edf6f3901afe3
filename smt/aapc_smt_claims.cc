#include "smt/aapc_smt_claims.h"

#include <algorithm>

#include <fmt/format.h>

#include "aapc/aapc.h"
#include "aapc/bounds.h"
#include "catalog/aapc/scope.h"
#include "smt/aapc_smt.h"

namespace topocheck::smt {
namespace {

namespace scope = claims::aapc_scope;

// The stated optimum 2^n - 1 against Z3's exact minimum for the fault-free Q_n, n = 1..max_n
// (scope::kOptimumSmtMaxN): refuted at the first n whose minimum (a schedule confirmed by
// check_schedule, and unsat one unit below it or the lower bound) differs; unknown or timeout is
// inconclusive, never holds.
claims::MethodResult optimum_smt(const claims::RunContext& ctx, aapc::Model model) {
  claims::MethodResult r;
  r.method = claims::Method::kSmt;
  const int max_n = scope::kOptimumSmtMaxN.at(ctx.budget);
  r.scope = fmt::format("Z3 exact minimum, fault-free Q_n, n = 1..{}, model {}", max_n, aapc::to_string(model));
  for (int n = 1; n <= max_n; ++n) {
    ++r.cases;
    const aapc::FaultSet none(n, {});
    claims::SolverLimits limits;
    limits.timeout_ms = scope::kOptimumSmtTimeoutMs;
    const int paper = static_cast<int>(aapc::paper_units_optimum(n));
    auto e = exact_min_units(none, model, limits, std::max(paper, aapc::lower_bounds(none, model).best));
    if (!e) {
      r.outcome = claims::Outcome::kError;
      r.detail = e.error().message;
      return r;
    }
    if (e->status != aapc::MinimumStatus::kMinimum) {
      r.outcome = claims::Outcome::kInconclusive;
      r.detail = fmt::format("n = {}: {} ({})", n, aapc::to_string(e->status), e->reason);
      return r;
    }
    if (e->min_units != paper) {
      r.outcome = claims::Outcome::kRefuted;
      r.detail = fmt::format("n = {}: the minimum is {} units (Z3 found a schedule, confirmed by check_schedule; none of {} units exists by the lower bound or Z3), "
                             "not 2^n - 1 = {}",
                             n, e->min_units, e->min_units - 1, paper);
      claims::Counterexample cx;
      cx.params = {{"n", n}, {"model", aapc::to_string(model)}};
      cx.input = {{"faults", ""}};
      cx.violation = r.detail;
      cx.witness = {{"exact_min", e->min_units}, {"schedule", aapc::to_json(e->schedule, none)}};
      cx.minimized = true;
      r.counterexample = cx;
      return r;
    }
  }
  r.outcome = claims::Outcome::kHolds;
  return r;
}

}  // namespace

void attach_aapc_claims_smt(claims::Registry& registry) {
  for (aapc::Model m : aapc::kModels)
    registry.attach("aapc.sec312.optimum", aapc::to_string(m), claims::Method::kSmt,
                    [m](const claims::RunContext& ctx) { return optimum_smt(ctx, m); });
}

}  // namespace topocheck::smt
