// The AAPC schedules of Section 3 (paper 004): A_1, A_2 and A_f as written (src/aapc/schedules.h
// lists the open choices and their defaults), each generated for every input of an exhaustive
// range and random inputs above it, under each communication model, and judged by the naive
// schedule checker (aapc/aapc.h): delivered, within the paper's time units, exactly those units,
// and (A_2) defined at all. All-port the bound is read three ways: this implementation's Phase-2
// list order (`all_port.at_most`), every faithful order (`all_port.at_most.every_order`, a
// search over aapc::ListOrder seeds: refutes or is inconclusive, never holds), and each step with
// a printed count (`all_port.steps_at_most`). Every method reports the inputs its premise applied
// to (premise()). The budgets: catalog/aapc/scope.h.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "aapc/run.h"
#include "aapc/symmetry.h"
#include "catalog/aapc/parts.h"
#include "catalog/aapc/scope.h"
#include "claims/claim.h"
#include "claims/random_method.h"

namespace topocheck::claims::aapc_parts {
namespace {

namespace scope = aapc_scope;
using nlohmann::json;

// ---- the schedules, judged by check_schedule ------------------------------------------------

enum class Alg { kA1, kA2, kAf };
const char* alg_name(Alg a) { return a == Alg::kA1 ? "A1" : a == Alg::kA2 ? "A2" : "Af"; }

// The budgets per algorithm: catalog/aapc/scope.h.
int exhaustive_max_n(Alg a, Budget b) { return scope::kScheduleExhaustiveMaxN[static_cast<int>(a)].at(b); }

// One input: the fault set and the algorithm's dimensions.
struct SchedInput {
  int n = 0;
  std::vector<aapc::NodeId> faults;
  int d = 0;                 // A_1, A_2, A_f
  aapc::DimSet dims = 0;     // A_f
  uint64_t stands_for = 1;   // fault sets this input represents (its orbit, in a reduced sweep)
  uint64_t order = 0;        // the Phase-2 list order (aapc::ListOrder seed; 0 = this implementation's)
};

// A_f from this n on sweeps one fault set per orbit of Q_n's automorphisms (translations and
// dimension permutations; aapc/symmetry.h), every A_f partition of it. Sound because A_f runs in
// the canonical frame (schedules.h, Frame): for F with g(F) = K canonical, af(F, D, d) =
// g^-1(af(K, g(D), g(d))), a schedule with the same units and checker verdict (g is an
// automorphism of Q_n mapping F's faults onto K's), and (D, d) -> (g(D), g(d)) is a bijection from
// F's A_f partitions onto K's. So the inputs (F, D, d) of an orbit have exactly the verdicts of the
// inputs (K, D', d'). Below this n every fault set is swept, in lexicographic order, so the first
// violation is the lexicographically least; src/aapc/symmetry_test.cc checks the lemma behind the
// orbit-reduced sweep (every canonical-frame schedule against the absolute one, n <= 5). The n:
// scope::kAfOrbitReducedFromN.

json input_json(Alg a, const SchedInput& in) {
  json j = {{"faults", fmt::format("{}", fmt::join(in.faults, ","))}, {"d", in.d}};
  if (a == Alg::kAf) j["dims"] = aapc::dims_to_list(in.dims);
  if (in.order != 0) j["order"] = in.order;
  return j;
}

Result<aapc::RunResult> generate(Alg a, const SchedInput& in, aapc::Model model) {
  aapc::RunRequest req;
  req.faults = aapc::FaultSet(in.n, in.faults);
  req.algorithm = a == Alg::kA1 ? aapc::Algorithm::kA1 : a == Alg::kA2 ? aapc::Algorithm::kA2 : aapc::Algorithm::kAf;
  req.model = model;
  req.d = in.d;
  if (a == Alg::kAf) req.dims = in.dims;
  req.options.order.seed = in.order;
  return aapc::run_aapc(req);
}

// What one input says about each check of an algorithm.
struct InputVerdicts {
  std::optional<std::string> undefined;  // the generator refused the input (precondition)
  std::optional<std::string> invalid;    // check_schedule's violation
  int units = 0;
  int64_t paper = 0;
  std::vector<std::pair<std::string, int>> steps;  // (step name, units), in order
  json witness = json::object();
  aapc::Schedule schedule;  // the generated schedule, for a counterexample's witness
};

InputVerdicts judge(Alg a, const SchedInput& in, aapc::Model model) {
  InputVerdicts v;
  auto run = generate(a, in, model);
  if (!run) {
    v.undefined = run.error().message;
    return v;
  }
  const aapc::FaultSet faults(in.n, in.faults);
  const aapc::ScheduleCheck c = aapc::check_schedule(run->schedule, faults, model);
  if (!c.ok) v.invalid = c.violation;
  v.units = c.units;
  v.paper = run->paper_units;
  json steps = json::array();
  for (const aapc::Step& st : run->schedule.steps) {
    steps.push_back({{"name", st.name}, {"units", st.end - st.begin}});
    v.steps.emplace_back(st.name, st.end - st.begin);
  }
  v.witness = {{"algorithm", run->description}, {"units", c.units}, {"paper_units", run->paper_units},
               {"paper_formula", run->paper_formula}, {"steps", steps}, {"checker", c.ok ? "valid" : c.violation}};
  if (in.order != 0) v.witness["order"] = in.order;
  v.schedule = std::move(run->schedule);
  return v;
}

// A counterexample's witness: the verdicts' witness and the schedule itself (aapc.h's JSON form),
// so that a reader (and the site's units x links drawing) sees every move, and the corpus loader
// compares the stored moves with the ones the generator gives now. Only counterexamples carry it:
// a sweep judges millions of schedules and keeps none.
json witness_with_schedule(const InputVerdicts& v, const SchedInput& in) {
  json w = v.witness;
  if (!v.undefined) w["schedule"] = aapc::to_json(v.schedule, aapc::FaultSet(in.n, in.faults));
  return w;
}

// The paper's per-step counts (Sections 3.1.2, 3.2.2, 3.3.2) as bounds on named steps of the
// generated schedule: (step-name prefix, count, the count's words). A step whose name starts with
// the prefix counts towards it (A_f's "phase 2 step 2" is its rounds together).
//   A_1 on Q_m, Section 3.1.2: "2^(n-1) in Step 1, 2^(n-1) - 1 in Step 2, 2^(n-1) - 1 in Step 3,
//     2^(n-1) in Step 4, and 2^(n-1) in Step 5".
//   A_2 Phase 1 is A_1 on the Q_(n-1)s ("Using algorithm A_1, perform AAPC each for Q^1_{n-1} and
//     Q^2_{n-1}"): A_1's counts at m = n - 1; Phase 2 Step 1, Section 3.3.2: "the time units
//     required in Step 1 of Phase 2 (= n in the case of a double fault)".
//   A_f Phase 1 is A_1 on the Q_(f+1)s: A_1's counts at m = f + 1 (their sum is the printed
//     "The time units required in Phase 1 is 5*2^f - 2"); Phase 2 Step 2, Section 3.3.2: "the time
//     units required in Step 2 of Phase 2 is (5*2^f - 2)*(2^(n-(f+1)) - 1)". (Step 1: "ignored".)
struct StepBound {
  std::string prefix;
  int64_t count;
  std::string words;
};
std::vector<StepBound> paper_step_bounds(Alg a, int n, int f) {
  std::vector<StepBound> out;
  auto a1_steps = [&](int m, const std::string& prefix) {
    const int64_t h = int64_t{1} << (m - 1);
    const int64_t counts[] = {h, h - 1, h - 1, h, h};
    for (int k = 1; k <= 5; ++k)
      out.push_back(StepBound{fmt::format("{}step {}", prefix, k), counts[k - 1],
                              fmt::format("A_1's Step {} count at m = {}", k, m)});
  };
  if (a == Alg::kA1) {
    a1_steps(n, "");
  } else if (a == Alg::kA2) {
    a1_steps(n - 1, "phase 1 ");
    out.push_back(StepBound{"phase 2 step 1", n, "n (Section 3.3.2: \"= n in the case of a double fault\")"});
  } else {
    a1_steps(f + 1, "phase 1 ");
    const int64_t per = 5 * (int64_t{1} << f) - 2;
    out.push_back(StepBound{"phase 2 step 2", per * ((int64_t{1} << (n - f - 1)) - 1), "(5*2^f - 2)*(2^(n-(f+1)) - 1)"});
  }
  return out;
}

// The checks a schedule claim reading can make of one input's verdicts.
enum class SchedCheck { kDelivers, kAtMost, kExactly, kDefined, kStepsAtMost };

// Whether the reading's premise applies to the input: the algorithm is defined on it (the
// generator accepted the fault set and dimensions), and for the unit counts also the schedule is
// valid (a count of an invalid schedule is aapc.*.delivers's failure, not this reading's).
bool premise(SchedCheck check, const InputVerdicts& v) {
  switch (check) {
    case SchedCheck::kDefined: return true;
    case SchedCheck::kDelivers: return !v.undefined;
    default: return !v.undefined && !v.invalid;
  }
}

std::optional<std::string> apply(SchedCheck check, const InputVerdicts& v, Alg a, int n, int f) {
  switch (check) {
    case SchedCheck::kStepsAtMost: {
      if (!premise(check, v)) return std::nullopt;
      for (const StepBound& b : paper_step_bounds(a, n, f)) {
        int units = 0;
        bool seen = false;
        for (const auto& [name, u] : v.steps)
          if (name.rfind(b.prefix, 0) == 0) {
            units += u;
            seen = true;
          }
        if (seen && units > b.count)
          return fmt::format("'{}' takes {} units, more than the paper's {} = {}", b.prefix, units, b.words, b.count);
      }
      return std::nullopt;
    }
    case SchedCheck::kDefined:
      return v.undefined;
    case SchedCheck::kDelivers:
      if (v.undefined) return std::nullopt;  // outside the algorithm's precondition
      return v.invalid;
    case SchedCheck::kAtMost:
      if (v.undefined || v.invalid) return std::nullopt;
      if (v.units <= v.paper) return std::nullopt;
      return fmt::format("the schedule takes {} units, more than the paper's {}", v.units, v.paper);
    case SchedCheck::kExactly:
      if (v.undefined || v.invalid) return std::nullopt;
      if (v.units == v.paper) return std::nullopt;
      return fmt::format("the schedule takes {} units, not the paper's {}", v.units, v.paper);
  }
  return std::nullopt;
}

// Every input of size n in sweep order (fault sets lexicographic, then d, then D): A_1 one fault
// and every d; A_2 two faults and every d in which they differ; A_f every fault set with
// 1 <= f <= floor(n/2) and every A_f partition (D, d) of it (fault sets without one are the
// subject of aapc.sec2.af_precondition).
void for_each_input(Alg a, int n, const std::function<bool(const SchedInput&)>& visit) {
  const aapc::NodeId N = aapc::NodeId{1} << n;
  if (a == Alg::kA1) {
    if (n < 2) return;
    for (aapc::NodeId x = 0; x < N; ++x)
      for (int d = 0; d < n; ++d)
        if (!visit(SchedInput{n, {x}, d, 0, 1})) return;
  } else if (a == Alg::kA2) {
    if (n < 3) return;
    for (aapc::NodeId x = 0; x < N; ++x)
      for (aapc::NodeId y = x + 1; y < N; ++y)
        for (int d = 0; d < n; ++d)
          if (((x ^ y) >> d) & 1)
            if (!visit(SchedInput{n, {x, y}, d, 0, 1})) return;
  } else if (n >= scope::kAfOrbitReducedFromN) {
    for (int f = 1; f <= n / 2; ++f) {
      bool go = true;
      aapc::for_each_canonical_fault_set(n, f, [&](const std::vector<aapc::NodeId>& set) {
        const aapc::FaultSet faults(n, set);
        const uint64_t orbit = aapc::orbit_size(faults);
        for (const aapc::AfPartition& p : aapc::all_af_partitions(faults))
          if (!visit(SchedInput{n, set, p.d, p.dims, orbit})) return go = false;
        return true;
      });
      if (!go) return;
    }
  } else {
    for (int f = 1; f <= n / 2; ++f) {
      std::vector<aapc::NodeId> set(f);
      std::function<bool(int, aapc::NodeId)> rec = [&](int k, aapc::NodeId from) -> bool {
        if (k == f) {
          for (const aapc::AfPartition& p : aapc::all_af_partitions(aapc::FaultSet(n, set)))
            if (!visit(SchedInput{n, set, p.d, p.dims, 1})) return false;
          return true;
        }
        for (aapc::NodeId x = from; x < N; ++x) {
          set[k] = x;
          if (!rec(k + 1, x + 1)) return false;
        }
        return true;
      };
      if (!rec(0, 0)) return;
    }
  }
}

constexpr SchedCheck kAllChecks[] = {SchedCheck::kDelivers, SchedCheck::kAtMost, SchedCheck::kExactly, SchedCheck::kDefined,
                                     SchedCheck::kStepsAtMost};

// One exhaustive sweep of (algorithm, model) up to the budget's n judges every check at once; the
// readings share it (computed once per process, thread-safe).
struct SweepResult {
  uint64_t cases = 0;
  uint64_t represented = 0;  // inputs the cases stand for (more than cases in reduced sweeps)
  std::string scope;
  std::map<SchedCheck, Counterexample> first;  // the first (smallest) failing input per check
  std::map<SchedCheck, uint64_t> applicable;   // cases on which the check's premise applied
};

SweepResult run_sweep(const RunContext& ctx, Alg a, aapc::Model model, int max_n) {
  SweepResult r;
  r.scope = fmt::format("{}, n = 1..{}, every fault set and dimension choice (see claim), model {}", alg_name(a), max_n,
                        aapc::to_string(model));
  uint64_t reduced_cases = 0, reduced_represented = 0;
  for (int n = 1; n <= max_n; ++n) {
    const bool reduced = a == Alg::kAf && n >= scope::kAfOrbitReducedFromN;
    ctx.report(fmt::format("{} {} exhaustive n = {}{}", alg_name(a), aapc::to_string(model), n,
                           reduced ? " (one fault set per orbit)" : ""));
    for_each_input(a, n, [&](const SchedInput& in) {
      ++r.cases;
      r.represented += in.stands_for;
      if (reduced) {
        ++reduced_cases;
        reduced_represented += in.stands_for;
      }
      const InputVerdicts v = judge(a, in, model);
      for (SchedCheck check : kAllChecks) {
        if (premise(check, v)) ++r.applicable[check];
        if (r.first.count(check)) continue;
        if (auto why = apply(check, v, a, n, static_cast<int>(in.faults.size()))) {
          Counterexample cx;
          cx.params = {{"n", n}, {"model", aapc::to_string(model)}};
          cx.input = input_json(a, in);
          cx.violation = *why;
          cx.witness = witness_with_schedule(v, in);
          cx.minimized = true;
          r.first.emplace(check, std::move(cx));
        }
      }
      return true;
    });
  }
  if (reduced_cases > 0)
    r.scope += fmt::format("; n >= {}: one fault set per orbit of Q_n's automorphisms (A_f runs in the canonical "
                           "frame, src/aapc/schedules.h), {} schedules standing for {} inputs",
                           scope::kAfOrbitReducedFromN, reduced_cases, reduced_represented);
  return r;
}

const SweepResult& sweep(const RunContext& ctx, Alg a, aapc::Model model) {
  struct Slot {
    std::once_flag once;
    SweepResult result;
  };
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int>, std::unique_ptr<Slot>> cache;
  const int max_n = exhaustive_max_n(a, ctx.budget);
  Slot* slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto& p = cache[{static_cast<int>(a), static_cast<int>(model), max_n}];
    if (!p) p = std::make_unique<Slot>();
    slot = p.get();
  }
  std::call_once(slot->once, [&] { slot->result = run_sweep(ctx, a, model, max_n); });
  return slot->result;
}

MethodResult exhaustive_method(const RunContext& ctx, Alg a, aapc::Model model, SchedCheck check) {
  const SweepResult& s = sweep(ctx, a, model);
  MethodResult r;
  r.method = Method::kExhaustive;
  r.scope = s.scope;
  r.cases = s.cases;
  r.applicable = s.applicable.count(check) ? s.applicable.at(check) : 0;
  auto it = s.first.find(check);
  if (it == s.first.end()) {
    r.outcome = Outcome::kHolds;
  } else {
    r.outcome = Outcome::kRefuted;
    r.detail = it->second.violation;
    r.counterexample = it->second;
  }
  return r;
}

// The worst faithful list order (aapc::ListOrder, schedules.h): every input of the exhaustive
// sweep up to scope::kOrderSearchMaxN, each under this implementation's order (seed 0) and the
// pseudo-random orders of seeds 1..scope::kOrderSearchOrders. Exhaustive over inputs, a search
// over orders (the orders the text allows number (list length)! per step and route choices on
// top, far too many to enumerate even at n = 3): a violation under one order refutes "every
// faithful order keeps the bound"; none found is inconclusive, and the largest excess found is
// reported as a lower bound on the worst order's units, never as a proof.
MethodResult worst_order_method(const RunContext& ctx, Alg a, aapc::Model model, SchedCheck check) {
  const int max_n = scope::kOrderSearchMaxN[static_cast<int>(a)].at(ctx.budget);
  const int orders = scope::kOrderSearchOrders.at(ctx.budget);
  MethodResult r;
  r.method = Method::kExhaustive;
  r.scope = fmt::format("{}, n = 1..{}, every fault set and dimension choice (see claim), model {}; per input this "
                        "implementation's Phase-2 order and {} pseudo-random faithful orders (ListOrder seeds 1..{}): "
                        "a search over orders, not exhaustive",
                        alg_name(a), max_n, aapc::to_string(model), orders, orders);
  uint64_t applicable = 0, schedules = 0;
  // Per n: the schedule closest to the paper's count (max of units - paper) and its words.
  std::map<int, std::pair<int64_t, std::string>> closest;
  std::optional<Counterexample> found;
  for (int n = 1; n <= max_n && !found; ++n) {
    ctx.report(fmt::format("{} {} order search n = {}", alg_name(a), aapc::to_string(model), n));
    for_each_input(a, n, [&](const SchedInput& base) {
      ++r.cases;
      bool counted = false;
      for (int seed = 0; seed <= orders; ++seed) {
        SchedInput in = base;
        in.order = static_cast<uint64_t>(seed);
        const InputVerdicts v = judge(a, in, model);
        ++schedules;
        if (!premise(check, v)) continue;
        if (!counted) ++applicable;
        counted = true;
        auto [it, fresh] = closest.try_emplace(n, std::numeric_limits<int64_t>::min(), "");
        if (fresh || v.units - v.paper > it->second.first)
          it->second = {v.units - v.paper, fmt::format("n = {}: faults {{{}}}, order {}: {} units, paper {}", n,
                                                       fmt::join(in.faults, ","), seed, v.units, v.paper)};
        if (auto why = apply(check, v, a, n, static_cast<int>(in.faults.size()))) {
          Counterexample cx;
          cx.params = {{"n", n}, {"model", aapc::to_string(model)}};
          cx.input = input_json(a, in);
          cx.violation = *why;  // the order is input.order (and witness.order): replay gives the same words
          cx.witness = witness_with_schedule(v, in);
          cx.minimized = true;
          found = std::move(cx);
          return false;
        }
      }
      return true;
    });
  }
  r.applicable = applicable;
  r.scope += fmt::format(" ({} schedules)", schedules);
  if (found) {
    r.outcome = Outcome::kRefuted;
    r.detail = found->violation;
    r.counterexample = std::move(found);
  } else {
    r.outcome = Outcome::kInconclusive;
    std::vector<std::string> per_n;
    for (const auto& [n, c] : closest) per_n.push_back(c.second);
    r.detail = applicable == 0 ? "no applicable input"
                               : fmt::format("no order searched exceeds the paper's count; closest to it per n: {} "
                                             "(lower bounds on the worst faithful order, not a proof)",
                                             fmt::join(per_n, "; "));
  }
  return r;
}

// Random inputs above the exhaustive range: n, the faults (shrinking drops faults and lowers
// n), a dimension index.
struct RandomInput {
  int n = 0;
  std::vector<uint32_t> faults;
  int pick = 0;
};

MethodResult random_method(const RunContext& ctx, Alg a, aapc::Model model, SchedCheck check) {
  const int lo = std::min(exhaustive_max_n(a, ctx.budget) + 1, scope::kScheduleRandomMaxN);
  auto gen = rc::gen::mapcat(rc::gen::inRange(lo, scope::kScheduleRandomMaxN + 1), [a](int n) {
    const int f_max = a == Alg::kA1 ? 1 : a == Alg::kA2 ? 2 : n / 2;
    const int f_min = a == Alg::kAf ? 1 : f_max;
    return rc::gen::build<RandomInput>(rc::gen::set(&RandomInput::n, rc::gen::just(n)),
                                       rc::gen::set(&RandomInput::faults,
                                                    rc::gen::mapcat(rc::gen::inRange(f_min, f_max + 1), [n](int f) {
                                                      return rc::gen::container<std::vector<uint32_t>>(
                                                          static_cast<size_t>(f), rc::gen::inRange<uint32_t>(0, 1u << n));
                                                    })),
                                       rc::gen::set(&RandomInput::pick, rc::gen::inRange(0, 64)));
  });
  RandomSpec<RandomInput> spec{gen};
  spec.cases = scope::kScheduleRandomCases.at(ctx.budget);
  // Inputs outside the algorithm's domain (repeated faults, no A_f partition) or its premise
  // (premise()) are not applicable.
  auto applicable = std::make_shared<uint64_t>(0);
  spec.scope = fmt::format("{}, n = {}..{} (above the exhaustive range; shrinking lowers n and drops faults), model {}",
                           alg_name(a), lo, scope::kScheduleRandomMaxN, aapc::to_string(model));
  spec.check = [a, model, check, applicable](const RandomInput& r) -> std::optional<Counterexample> {
    std::vector<aapc::NodeId> faults(r.faults.begin(), r.faults.end());
    for (auto& x : faults) x &= (aapc::NodeId{1} << r.n) - 1;
    std::sort(faults.begin(), faults.end());
    if (std::adjacent_find(faults.begin(), faults.end()) != faults.end()) return std::nullopt;
    const size_t f = faults.size();
    if ((a == Alg::kA1 && f != 1) || (a == Alg::kA2 && f != 2) || (a == Alg::kAf && (f < 1 || static_cast<int>(f) > r.n / 2)))
      return std::nullopt;
    SchedInput in{r.n, faults, 0, 0, 1};
    if (a == Alg::kAf) {
      const auto parts = aapc::all_af_partitions(aapc::FaultSet(r.n, faults));
      if (parts.empty()) return std::nullopt;
      const auto& p = parts[static_cast<size_t>(r.pick) % parts.size()];
      in.d = p.d;
      in.dims = p.dims;
    } else if (a == Alg::kA2) {
      std::vector<int> ds;
      for (int d = 0; d < r.n; ++d)
        if (((faults[0] ^ faults[1]) >> d) & 1) ds.push_back(d);
      in.d = ds[static_cast<size_t>(r.pick) % ds.size()];
    } else {
      in.d = r.pick % r.n;
    }
    const InputVerdicts v = judge(a, in, model);
    if (premise(check, v)) ++*applicable;
    auto why = apply(check, v, a, r.n, static_cast<int>(in.faults.size()));
    if (!why) return std::nullopt;
    Counterexample cx;
    cx.params = {{"n", r.n}, {"model", aapc::to_string(model)}};
    cx.input = input_json(a, in);
    cx.violation = *why;
    cx.witness = witness_with_schedule(v, in);
    return cx;
  };
  MethodResult result = run_random(ctx, spec);
  if (result.outcome != Outcome::kRefuted) result.applicable = std::min<uint64_t>(*applicable, result.cases);
  return result;
}

CaseFn sched_case(Alg a, SchedCheck check) {
  return [a, check](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
      return invalid_argument("params.n must be an integer");
    const int n = params.at("n").get<int>();
    if (n < 1 || n > aapc::kMaxN) return invalid_argument(fmt::format("params.n must be in 1..{}", aapc::kMaxN));
    if (!params.contains("model") || !params.at("model").is_string()) return invalid_argument("params.model must be a string");
    auto model = aapc::parse_model(params.at("model").get<std::string>());
    if (!model) return invalid_argument("params.model: " + model.error().message);
    if (!input.is_object() || !input.contains("faults") || !input.at("faults").is_string())
      return invalid_argument("input.faults must be a string such as \"6,9\"");
    auto faults = aapc::parse_faults(n, input.at("faults").get<std::string>());
    if (!faults) return invalid_argument("input.faults: " + faults.error().message);
    if (!input.contains("d") || !input.at("d").is_number_integer()) return invalid_argument("input.d must be an integer");
    SchedInput in{n, faults->faulty(), input.at("d").get<int>(), 0, 1};
    if (input.contains("order")) {
      if (!input.at("order").is_number_integer() || input.at("order").get<int64_t>() < 0)
        return invalid_argument("input.order must be a non-negative integer (a ListOrder seed)");
      in.order = input.at("order").get<uint64_t>();
    }
    if (a == Alg::kAf) {
      if (!input.contains("dims") || !input.at("dims").is_string()) return invalid_argument("input.dims must be a string");
      auto dims = aapc::parse_dims(n, input.at("dims").get<std::string>(), "input.dims");
      if (!dims) return dims.error();
      in.dims = *dims;
    }
    const InputVerdicts v = judge(a, in, *model);
    CaseCheck c;
    c.violation = apply(check, v, a, n, static_cast<int>(in.faults.size()));
    c.witness = witness_with_schedule(v, in);
    return c;
  };
}

Reading worst_order_reading(Alg a, aapc::Model model, SchedCheck check, std::string name, std::string description) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.methods.emplace_back(Method::kExhaustive, [a, model, check](const RunContext& ctx) {
    return worst_order_method(ctx, a, model, check);
  });
  r.check_case = sched_case(a, check);
  return r;
}

Reading sched_reading(Alg a, aapc::Model model, SchedCheck check, std::string name, std::string description) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.methods.emplace_back(Method::kExhaustive, [a, model, check](const RunContext& ctx) {
    return exhaustive_method(ctx, a, model, check);
  });
  r.methods.emplace_back(Method::kRandom, [a, model, check](const RunContext& ctx) {
    return random_method(ctx, a, model, check);
  });
  r.check_case = sched_case(a, check);
  return r;
}

}  // namespace

std::string model_words(aapc::Model m) {
  switch (m) {
    case aapc::Model::kAllPort: return "all-port (every link of a node in the same unit; one datum per directed link per unit)";
    case aapc::Model::kOneReceive: return "all-port sending, but each node receives at most one datum per unit";
    case aapc::Model::kOnePort: return "one-port (each node sends at most one and receives at most one datum per unit)";
  }
  return "?";
}

void add_schedule_claims(Registry& registry) {
  struct AlgText {
    Alg alg;
    const char* id;
    const char* location;
    const char* scope;
    const char* count;
  };
  const AlgText algs[] = {
      {Alg::kA1, "a1", "Sections 3.1.1-3.1.2", "every single fault phi and every dividing dimension d", "5*2^(n-1) - 2"},
      {Alg::kA2, "a2", "Sections 3.2.1-3.2.2",
       "every two faults, every dimension d in which they differ, the halves divided along the lowest other "
       "dimension",
       "5*2^(n-1) + n - 1"},
      {Alg::kAf, "af", "Sections 3.3.1-3.3.2",
       "every fault set with 1 <= f <= floor(n/2) and every A_f partition (D, d) of it", "(5*2^f - 2)*2^(n-(f+1))"},
  };
  for (const AlgText& t : algs) {
    std::vector<Reading> delivers, at_most, exactly, per_step;
    for (aapc::Model m : aapc::kModels) {
      const std::string model = aapc::to_string(m);
      delivers.push_back(sched_reading(
          t.alg, m, SchedCheck::kDelivers, model,
          fmt::format("{} as written (src/aapc/schedules.h lists the open choices and their defaults), for {}: the "
                      "schedule is valid under the {} model and delivers every datum exactly once",
                      alg_name(t.alg), t.scope, model_words(m))));
      at_most.push_back(sched_reading(
          t.alg, m, SchedCheck::kAtMost, model + ".at_most",
          fmt::format("for {}: {}'s schedule under the {} model, with this implementation's Phase-2 list order "
                      "(src/aapc/schedules.h, ListOrder seed 0), takes at most {} time units",
                      t.scope, alg_name(t.alg), model_words(m), t.count)));
      if (m == aapc::Model::kAllPort) {
        at_most.push_back(worst_order_reading(
            t.alg, m, SchedCheck::kAtMost, model + ".at_most.every_order",
            fmt::format("for {}: under every list order the text allows (the order of Phase 2 Step 1's "
                        "'distribute' and of each round's 'exchange', ties among same-unit arrivals there and in "
                        "A_1 Step 5, the choice among the candidate routes; src/aapc/schedules.h, ListOrder), {}'s "
                        "schedule under the {} model takes at most {} time units",
                        t.scope, alg_name(t.alg), model_words(m), t.count)));
        per_step.push_back(sched_reading(
            t.alg, m, SchedCheck::kStepsAtMost, model + ".steps_at_most",
            fmt::format("for {}: every step of {}'s schedule (this implementation's order) for which the paper "
                        "prints a count takes at most that count under the {} model (A_1: Steps 1-5 of Section "
                        "3.1.2; A_2: Phase 1 as A_1 on Q_(n-1), Phase 2 Step 1 = n; A_f: Phase 1 as A_1 on "
                        "Q_(f+1), Phase 2 Step 2 = (5*2^f - 2)*(2^(n-(f+1)) - 1))",
                        t.scope, alg_name(t.alg), model_words(m))));
      }
      exactly.push_back(sched_reading(
          t.alg, m, SchedCheck::kExactly, model + ".exactly",
          fmt::format("for {}: {}'s schedule under the {} model takes exactly {} time units", t.scope, alg_name(t.alg),
                      model_words(m), t.count)));
    }
    registry.add(Claim::make(kPaper, fmt::format("aapc.{}.delivers", t.id), t.location,
        fmt::format("{} performs AAPC in a Q_n with its faults: every datum i_j between nonfaulty nodes arrives",
                    alg_name(t.alg)),
        std::move(delivers)));
    std::vector<Reading> units = std::move(at_most);
    for (Reading& r : exactly) units.push_back(std::move(r));
    for (Reading& r : per_step) units.push_back(std::move(r));
    registry.add(Claim::make(kPaper, fmt::format("aapc.{}.units", t.id), t.location,
        fmt::format("'the amount of time units required' for {} is {}", alg_name(t.alg), t.count), std::move(units)));
  }
  registry.add(Claim::make(kPaper, "aapc.a2.defined", "Section 3.2.1",
      "'Let the dimension by which Q^1_{n-1} and Q^2_{n-1} are adjacent be d. Let two nodes whose adjacent nodes along d "
      "are faulty nodes be n_1 in Q^1_{n-1} and n_2 in Q^2_{n-1}.'",
      {sched_reading(Alg::kA2, aapc::Model::kAllPort, SchedCheck::kDefined, "literal",
                     "for every two faults and every dimension d in which they differ (so the halves along d hold "
                     "one fault each), A_2 is defined: n_1 and n_2 are nonfaulty and every step can be carried out")}));
}

}  // namespace topocheck::claims::aapc_parts
