// The AAPC time-unit counts of Section 3 (paper 004) as claims of their own: the printed A_f count
// and its consistency with A_1's and A_2's (exact integer algebra over every n up to 60), and the
// optimum 2^n - 1 the paper states for a nonfaulty Q_n, against the inner AAPC's checked schedule
// and the lower bounds (aapc/bounds.h). The budgets: catalog/aapc/scope.h.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "aapc/aapc.h"
#include "aapc/bounds.h"
#include "aapc/run.h"
#include "catalog/aapc/parts.h"
#include "catalog/aapc/scope.h"
#include "claims/claim.h"

namespace topocheck::claims::aapc_parts {
namespace {

namespace scope = aapc_scope;
using aapc::paper_units_a1;
using aapc::paper_units_a2;
using aapc::paper_units_af;
using nlohmann::json;

// ---- the counts as algebra ---------------------------------------------------------------
// Exact integer arithmetic; every count below is an integer for the (n, f) it is used at.
using Int = __int128;
Int pow2(int e) { return Int{1} << e; }
std::string str(Int v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  std::string s;
  for (Int a = neg ? -v : v; a > 0; a /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(a % 10)));
  return neg ? "-" + s : s;
}

// Every (n, f) with 1 <= f and f + 1 <= n <= max_n (the range where the counts are integers and
// A_f's subcubes Q_{f+1} fit), n ascending then f: the first violation is the smallest.
// `only_f` (0: every f) restricts the inputs a claim is about, counted as applicable.
MethodResult count_sweep(int max_n, int min_f, const std::function<std::optional<std::string>(int, int)>& check,
                         std::string scope, int only_f = 0) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.scope = std::move(scope);
  r.applicable = 0;
  for (int n = 1; n <= max_n; ++n)
    for (int f = min_f; f + 1 <= n; ++f) {
      ++r.cases;
      if (only_f != 0 && f != only_f) continue;
      ++*r.applicable;
      if (auto v = check(n, f)) {
        r.outcome = Outcome::kRefuted;
        r.detail = *v;
        Counterexample cx;
        cx.params = {{"n", n}};
        cx.input = {{"f", f}};
        cx.violation = *v;
        cx.minimized = true;
        r.counterexample = std::move(cx);
        return r;
      }
    }
  r.outcome = Outcome::kHolds;
  return r;
}

CaseFn count_case(const std::function<std::optional<std::string>(int, int)>& check, int min_f) {
  return [check, min_f](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
      return invalid_argument("params.n must be an integer");
    if (!input.is_object() || !input.contains("f") || !input.at("f").is_number_integer())
      return invalid_argument("input.f must be an integer");
    const int n = params.at("n").get<int>(), f = input.at("f").get<int>();
    if (n < 1 || n > 60) return invalid_argument("params.n must be in 1..60");
    if (f < min_f || f + 1 > n) return invalid_argument(fmt::format("input.f must be in {}..n-1", min_f));
    CaseCheck c;
    c.violation = check(n, f);
    return c;
  };
}

// ---- the optimum the paper states for a nonfaulty Q_n --------------------------------------

// "an optimal AAPC algorithm for a nonfaulty Q_n requires 2^n - 1 time units", per model: refuted
// at the first n where the inner AAPC's checked schedule is shorter (the optimum is smaller) or a
// lower bound exceeds 2^n - 1 (2^n - 1 cannot be reached).
MethodResult optimum_method(const RunContext& ctx, aapc::Model model) {
  MethodResult r;
  r.method = Method::kOracle;
  const int max_n = scope::kOptimumMaxN.at(ctx.budget);
  r.scope = fmt::format("n = 1..{}, model {}: the inner AAPC's schedule (judged by check_schedule) and the lower bounds "
                        "(aapc/bounds.h) against 2^n - 1",
                        max_n, aapc::to_string(model));
  for (int n = 1; n <= max_n; ++n) {
    ++r.cases;
    const aapc::FaultSet none(n, {});
    const int64_t paper = aapc::paper_units_optimum(n);
    auto s = aapc::inner_aapc(n, model);
    if (!s) {
      r.outcome = Outcome::kError;
      r.detail = s.error().message;
      return r;
    }
    const aapc::ScheduleCheck c = aapc::check_schedule(*s, none, model);
    if (!c.ok) {
      r.outcome = Outcome::kError;
      r.detail = "the inner AAPC's schedule is invalid: " + c.violation;
      return r;
    }
    const aapc::LowerBounds lb = aapc::lower_bounds(none, model);
    std::optional<std::string> why;
    if (c.units < paper)
      why = fmt::format("n = {}: a valid schedule of {} units exists (the inner AAPC), fewer than 2^n - 1 = {}", n, c.units, paper);
    else if (lb.best > paper)
      why = fmt::format("n = {}: every schedule needs at least {} units ({} bound), more than 2^n - 1 = {}", n, lb.best,
                        lb.attained_by, paper);
    if (why) {
      r.outcome = Outcome::kRefuted;
      r.detail = *why;
      Counterexample cx;
      cx.params = {{"n", n}, {"model", aapc::to_string(model)}};
      cx.input = {{"faults", ""}};
      cx.violation = *why;
      cx.witness = {{"schedule_units", c.units}, {"lower_bound", lb.best}, {"lower_bound_by", lb.attained_by},
                    {"paper", paper}};
      cx.minimized = true;
      r.counterexample = cx;
      return r;
    }
  }
  r.outcome = Outcome::kHolds;
  return r;
}

}  // namespace

void add_count_claims(Registry& registry) {
  auto reading = [](std::string name, std::string description, int min_f,
                    std::function<std::optional<std::string>(int, int)> check, std::string scope, int only_f = 0) {
    Reading r;
    r.name = std::move(name);
    r.description = std::move(description);
    r.methods.emplace_back(Method::kExhaustive, [check, min_f, scope, only_f](const RunContext&) {
      return count_sweep(aapc_scope::kCountMaxN, min_f, check, scope, only_f);
    });
    r.check_case = count_case(check, min_f);
    return r;
  };

  registry.add(Claim::make(kPaper, "aapc.af.identity", "Section 3.3.2",
      "'the amount of time units required for A_f ... is (5*2^f - 2)*2^(n-(f+1)) = 2^(n-1)(5 - 2^(1-f))'",
      {reading("literal",
               "(5*2^f - 2)*2^(n-(f+1)) and 2^(n-1)*(5 - 2^(1-f)) are the same number, in exact arithmetic "
               "(the right side computed as 5*2^(n-1) - 2^(n-1)*2^(1-f), never simplified by hand)",
               1,
               [](int n, int f) -> std::optional<std::string> {
                 // Both sides times 2^(f-1) are integers: (5*2^f - 2)*2^(n-2) and 2^(n-1)*(5*2^(f-1) - 1).
                 const Int lhs = (5 * pow2(f) - 2) * pow2(n - (f + 1)) * pow2(f - 1);
                 const Int rhs = pow2(n - 1) * (5 * pow2(f - 1) - 1);
                 if (lhs == rhs) return std::nullopt;
                 return fmt::format("n = {}, f = {}: left side {} but right side {} (both times 2^(f-1))", n, f,
                                    str(lhs), str(rhs));
               },
               "every n = 2..60, f = 1..n-1")}));

  // The text generalizes A_2 ("Let us generalize A_2 into the case of f faults"), not A_1: this one
  // is a cross-check of ours.
  registry.add(Claim::make(kPaper, "aapc.af.consistent_with_a1",
      "Sections 3.1.2 and 3.3.2 (beyond the paper: the text generalizes A_2, not A_1)",
      "If A_f covered a single fault, at f = 1 its count (5*2^f - 2)*2^(n-(f+1)) would be A_1's 5*2^(n-1) - 2",
      {reading("literal", "(5*2^1 - 2)*2^(n-2) = 5*2^(n-1) - 2 for every n >= 2", 1,
               [](int n, int f) -> std::optional<std::string> {
                 if (f != 1) return std::nullopt;
                 if (paper_units_af(n, 1) == paper_units_a1(n)) return std::nullopt;
                 return fmt::format("n = {}: A_f at f = 1 gives {} units, A_1 gives {}", n, paper_units_af(n, 1),
                                    paper_units_a1(n));
               },
               "every n = 2..60 at f = 1", 1)}));

  registry.add(Claim::make(kPaper, "aapc.af.consistent_with_a2", "Sections 3.2.2 and 3.3.2",
      "'Let us generalize A_2 into the case of f faults': at f = 2, A_f's count should be A_2's",
      {reading("literal",
               "(5*2^2 - 2)*2^(n-3) = 5*2^(n-1) + n - 1 (A_f's count at f = 2 equals A_2's) for every n >= 4 "
               "(f = 2 <= floor(n/2))",
               2,
               [](int n, int f) -> std::optional<std::string> {
                 if (f != 2 || n < 4) return std::nullopt;
                 if (paper_units_af(n, 2) == paper_units_a2(n)) return std::nullopt;
                 return fmt::format("n = {}: A_f at f = 2 gives {} units, A_2 gives {}", n, paper_units_af(n, 2),
                                    paper_units_a2(n));
               },
               "every n = 4..60 at f = 2", 2),
       reading("without_step1",
               "as literal, with A_2's Phase 2 Step 1 (n units, 'ignored' in A_f's count) taken out of A_2: "
               "(5*2^2 - 2)*2^(n-3) = 5*2^(n-1) - 1",
               2,
               [](int n, int f) -> std::optional<std::string> {
                 if (f != 2 || n < 4) return std::nullopt;
                 if (paper_units_af(n, 2) == paper_units_a2(n) - n) return std::nullopt;
                 return fmt::format("n = {}: A_f at f = 2 gives {} units, A_2 without its n-unit Step 1 gives {}", n,
                                    paper_units_af(n, 2), paper_units_a2(n) - n);
               },
               "every n = 4..60 at f = 2", 2)}));

  // Proof steps (Sections 3.1.2 and 3.3.2): the printed totals as sums of the printed per-step and
  // per-phase counts. The schedules' own counts are aapc.*.units; these check the paper's arithmetic.
  registry.add(Claim::make(kPaper, "aapc.a1.proof.step_sum", "Section 3.1.2",
      "'the sum of 2^(n-1) in Step 1, 2^(n-1) - 1 in Step 2, 2^(n-1) - 1 in Step 3, 2^(n-1) in Step 4, and "
      "2^(n-1) in Step 5, then total 5*2^(n-1) - 2'",
      {reading("literal", "the five printed step counts add up to the printed total 5*2^(n-1) - 2, for every n >= 2",
               1,
               [](int n, int f) -> std::optional<std::string> {
                 if (f != 1) return std::nullopt;
                 const Int h = pow2(n - 1);
                 const Int sum = h + (h - 1) + (h - 1) + h + h;
                 if (sum == 5 * h - 2 && sum == Int{paper_units_a1(n)}) return std::nullopt;
                 return fmt::format("n = {}: the steps add up to {}, the total printed is {}", n, str(sum),
                                    str(5 * h - 2));
               },
               "every n = 2..60", 1)}));
  registry.add(Claim::make(kPaper, "aapc.af.proof.phase_sum", "Section 3.3.2",
      "'The time units required in Phase 1 is 5*2^f - 2. Since the time units required in Step 2 of Phase 2 is "
      "(5*2^f - 2)*(2^(n-(f+1)) - 1), then the amount of time units required for A_f ... is (5*2^f - 2)*2^(n-(f+1))' "
      "(Step 1 of Phase 2 ignored, as the text says)",
      {reading("literal", "Phase 1's 5*2^f - 2 plus Phase 2 Step 2's (5*2^f - 2)*(2^(n-(f+1)) - 1) is the printed "
                          "(5*2^f - 2)*2^(n-(f+1)), for every n >= 2 and 1 <= f <= n-1",
               1,
               [](int n, int f) -> std::optional<std::string> {
                 const Int phase1 = 5 * pow2(f) - 2;
                 const Int sum = phase1 + phase1 * (pow2(n - (f + 1)) - 1);
                 if (sum == phase1 * pow2(n - (f + 1)) && sum == Int{paper_units_af(n, f)}) return std::nullopt;
                 return fmt::format("n = {}, f = {}: the phases add up to {}, the total printed is {}", n, f, str(sum),
                                    str(phase1 * pow2(n - (f + 1))));
               },
               "every n = 2..60, f = 1..n-1")}));
}

void add_optimum_claims(Registry& registry) {
  std::vector<Reading> readings;
  for (aapc::Model m : aapc::kModels) {
    Reading r;
    r.name = aapc::to_string(m);
    r.description = fmt::format("under the {} model, the minimum number of time units of AAPC in a nonfaulty Q_n is 2^n - 1",
                                model_words(m));
    r.methods.emplace_back(Method::kOracle, [m](const RunContext& ctx) { return optimum_method(ctx, m); });
    r.check_case = [m](const json& params, const json&) -> Result<CaseCheck> {
      if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
        return invalid_argument("params.n must be an integer");
      const int n = params.at("n").get<int>();
      if (n < 1 || n > aapc::kMaxN) return invalid_argument("params.n out of range");
      CaseCheck cc;
      const aapc::FaultSet none(n, {});
      auto s = aapc::inner_aapc(n, m);
      if (!s) return s.error();
      const aapc::ScheduleCheck chk = aapc::check_schedule(*s, none, m);
      const aapc::LowerBounds lb = aapc::lower_bounds(none, m);
      const int64_t paper = aapc::paper_units_optimum(n);
      if (chk.ok && chk.units < paper)
        cc.violation = fmt::format("a valid schedule of {} units exists, fewer than {}", chk.units, paper);
      else if (lb.best > paper)
        cc.violation = fmt::format("every schedule needs at least {} units, more than {}", lb.best, paper);
      cc.witness = {{"schedule_units", chk.units}, {"lower_bound", lb.best}};
      return cc;
    };
    readings.push_back(std::move(r));
  }
  registry.add(Claim::make(kPaper, "aapc.sec312.optimum", "Section 3.1.2",
            "'an optimal AAPC algorithm for a nonfaulty Q_n requires 2^n - 1 time units'", std::move(readings)));
}

}  // namespace topocheck::claims::aapc_parts
