// The AAPC claims of Section 3 (paper 004): the paper's time-unit counts as algebra, the
// schedules A_1, A_2, A_f judged by the naive schedule checker (aapc/aapc.h), the Q_3 example and
// Example 2, and the stated optimum against the lower bounds and exact minima.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include "aapc/aapc.h"
#include "aapc/bounds.h"
#include "aapc/partition.h"
#include "aapc/run.h"
#include "aapc/symmetry.h"
#include "catalog/catalog.h"
#include "claims/claim.h"
#include "claims/example_method.h"
#include "claims/random_method.h"
#include "core/json_file.h"

namespace topocheck::claims {
namespace {

using aapc::paper_units_a1;
using aapc::paper_units_a2;
using aapc::paper_units_af;
using nlohmann::json;

constexpr const char* kPaper = "004_d7c0ed59f63b519b.txt";

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

}  // namespace

namespace {

// One claim of this paper with its readings.
void add_claim(Registry& registry, std::string id, std::string location, std::string statement,
               std::vector<Reading> readings) {
  registry.add(Claim::make(kPaper, std::move(id), std::move(location), std::move(statement), std::move(readings)));
}

// Every (n, f) with 1 <= f and f + 1 <= n <= max_n (the range where the counts are integers and
// A_f's subcubes Q_{f+1} fit), n ascending then f: the first violation is the smallest.
MethodResult count_sweep(int max_n, int min_f, const std::function<std::optional<std::string>(int, int)>& check,
                         std::string scope) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.scope = std::move(scope);
  for (int n = 1; n <= max_n; ++n)
    for (int f = min_f; f + 1 <= n; ++f) {
      ++r.cases;
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

void add_count_claims(Registry& registry) {
  auto reading = [](std::string name, std::string description, int min_f,
                    std::function<std::optional<std::string>(int, int)> check, std::string scope) {
    Reading r;
    r.name = std::move(name);
    r.description = std::move(description);
    r.methods.emplace_back(Method::kExhaustive, [check, min_f, scope](const RunContext&) {
      return count_sweep(60, min_f, check, scope);
    });
    r.check_case = count_case(check, min_f);
    return r;
  };

  add_claim(registry, "aapc.af.identity", "Section 3.3.2",
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
               "every n = 2..60, f = 1..n-1")});

  add_claim(registry, "aapc.af.consistent_with_a1", "Sections 3.1.2 and 3.3.2",
      "A_f generalizes A_1: at f = 1 its count (5*2^f - 2)*2^(n-(f+1)) should be A_1's 5*2^(n-1) - 2",
      {reading("literal", "(5*2^1 - 2)*2^(n-2) = 5*2^(n-1) - 2 for every n >= 2", 1,
               [](int n, int f) -> std::optional<std::string> {
                 if (f != 1) return std::nullopt;
                 if (paper_units_af(n, 1) == paper_units_a1(n)) return std::nullopt;
                 return fmt::format("n = {}: A_f at f = 1 gives {} units, A_1 gives {}", n, paper_units_af(n, 1),
                                    paper_units_a1(n));
               },
               "every n = 2..60 at f = 1")});

  add_claim(registry, "aapc.af.consistent_with_a2", "Sections 3.2.2 and 3.3.2",
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
               "every n = 4..60 at f = 2"),
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
               "every n = 4..60 at f = 2")});
}


// ---- the schedules, judged by check_schedule ------------------------------------------------

enum class Alg { kA1, kA2, kAf };
const char* alg_name(Alg a) { return a == Alg::kA1 ? "A1" : a == Alg::kA2 ? "A2" : "Af"; }

// Exhaustive ranges (every fault set of the algorithm's size and every dividing dimension) and the
// random range above them. Generation plus checking costs about 1 ms at n = 5, 3 ms at n = 6 and
// 20-40 ms at n = 7 per schedule; A_2 and A_f have C(2^n, f) fault sets times their dimension
// choices. A_f from n = 6 sweeps one fault set per orbit (kAfOrbitReducedFromN): n = 7 is 31
// canonical fault sets and 2730 schedules per model standing for 34.0 million inputs (n = 6: 23
// and 733). n = 8 would be 414 canonical sets and 49,059 schedules per model at 50-90 ms, about
// 3.5 CPU hours for the three models, so no budget goes there (random inputs cover n = 8, 9).
// Measured (2 shared cores, --jobs 2): `verify 'aapc.af.units'` standard 3.5 min wall.
const PerBudget<int> kExhaustiveMaxN[] = {{4, 7, 8}, {4, 6, 7}, {4, 7, 7}};
const PerBudget<int> kRandomCases{4, 20, 100};
constexpr int kRandomMaxN = 9;
int exhaustive_max_n(Alg a, Budget b) { return kExhaustiveMaxN[static_cast<int>(a)].at(b); }

// One input: the fault set and the algorithm's dimensions.
struct SchedInput {
  int n = 0;
  std::vector<aapc::NodeId> faults;
  int d = 0;                 // A_1, A_2, A_f
  aapc::DimSet dims = 0;     // A_f
  uint64_t stands_for = 1;   // fault sets this input represents (its orbit, in a reduced sweep)
};

// A_f from this n on sweeps one fault set per orbit of Q_n's automorphisms (translations and
// dimension permutations; aapc/symmetry.h), every A_f partition of it. Sound because A_f runs in
// the canonical frame (schedules.h, Frame): for F with g(F) = K canonical, af(F, D, d) =
// g^-1(af(K, g(D), g(d))), a schedule with the same units and checker verdict (g is an
// automorphism of Q_n mapping F's faults onto K's), and (D, d) -> (g(D), g(d)) is a bijection from
// F's A_f partitions onto K's. So the inputs (F, D, d) of an orbit have exactly the verdicts of the
// inputs (K, D', d'). Below this n every fault set is swept, in lexicographic order, so the first
// violation is the lexicographically least; src/aapc/symmetry_test.cc checks the lemma behind the orbit-reduced sweep (every
// canonical-frame schedule against the absolute one, n <= 5).
constexpr int kAfOrbitReducedFromN = 6;

json input_json(Alg a, const SchedInput& in) {
  json j = {{"faults", fmt::format("{}", fmt::join(in.faults, ","))}, {"d", in.d}};
  if (a == Alg::kAf) j["dims"] = aapc::dims_to_list(in.dims);
  return j;
}

Result<aapc::RunResult> generate(Alg a, const SchedInput& in, aapc::Model model) {
  aapc::RunRequest req;
  req.faults = aapc::FaultSet(in.n, in.faults);
  req.algorithm = a == Alg::kA1 ? aapc::Algorithm::kA1 : a == Alg::kA2 ? aapc::Algorithm::kA2 : aapc::Algorithm::kAf;
  req.model = model;
  req.d = in.d;
  if (a == Alg::kAf) req.dims = in.dims;
  return aapc::run_aapc(req);
}

// What one input says about each check of an algorithm.
struct InputVerdicts {
  std::optional<std::string> undefined;  // the generator refused the input (precondition)
  std::optional<std::string> invalid;    // check_schedule's violation
  int units = 0;
  int64_t paper = 0;
  json witness = json::object();
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
  for (const aapc::Step& st : run->schedule.steps) steps.push_back({{"name", st.name}, {"units", st.end - st.begin}});
  v.witness = {{"algorithm", run->description}, {"units", c.units}, {"paper_units", run->paper_units},
               {"paper_formula", run->paper_formula}, {"steps", steps}, {"checker", c.ok ? "valid" : c.violation}};
  return v;
}

// The checks a schedule claim reading can make of one input's verdicts.
enum class SchedCheck { kDelivers, kAtMost, kExactly, kDefined };
std::optional<std::string> apply(SchedCheck check, const InputVerdicts& v) {
  switch (check) {
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
  } else if (n >= kAfOrbitReducedFromN) {
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

constexpr SchedCheck kAllChecks[] = {SchedCheck::kDelivers, SchedCheck::kAtMost, SchedCheck::kExactly, SchedCheck::kDefined};

// One exhaustive sweep of (algorithm, model) up to the budget's n judges every check at once; the
// readings share it (computed once per process, thread-safe).
struct SweepResult {
  uint64_t cases = 0;
  uint64_t represented = 0;  // inputs the cases stand for (more than cases in reduced sweeps)
  std::string scope;
  std::map<SchedCheck, Counterexample> first;  // the first (smallest) failing input per check
};

SweepResult run_sweep(const RunContext& ctx, Alg a, aapc::Model model, int max_n) {
  SweepResult r;
  r.scope = fmt::format("{}, n = 1..{}, every fault set and dimension choice (see claim), model {}", alg_name(a), max_n,
                        aapc::to_string(model));
  uint64_t reduced_cases = 0, reduced_represented = 0;
  for (int n = 1; n <= max_n; ++n) {
    const bool reduced = a == Alg::kAf && n >= kAfOrbitReducedFromN;
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
        if (r.first.count(check)) continue;
        if (auto why = apply(check, v)) {
          Counterexample cx;
          cx.params = {{"n", n}, {"model", aapc::to_string(model)}};
          cx.input = input_json(a, in);
          cx.violation = *why;
          cx.witness = v.witness;
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
                           kAfOrbitReducedFromN, reduced_cases, reduced_represented);
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

// Random inputs above the exhaustive range: n, the faults (shrinking drops faults and lowers
// n), a dimension index.
struct RandomInput {
  int n = 0;
  std::vector<uint32_t> faults;
  int pick = 0;
};

MethodResult random_method(const RunContext& ctx, Alg a, aapc::Model model, SchedCheck check) {
  const int lo = std::min(exhaustive_max_n(a, ctx.budget) + 1, kRandomMaxN);
  auto gen = rc::gen::mapcat(rc::gen::inRange(lo, kRandomMaxN + 1), [a](int n) {
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
  spec.cases = kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("{}, n = {}..{} (above the exhaustive range; shrinking lowers n and drops faults), model {}",
                           alg_name(a), lo, kRandomMaxN, aapc::to_string(model));
  spec.check = [a, model, check](const RandomInput& r) -> std::optional<Counterexample> {
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
    auto why = apply(check, v);
    if (!why) return std::nullopt;
    Counterexample cx;
    cx.params = {{"n", r.n}, {"model", aapc::to_string(model)}};
    cx.input = input_json(a, in);
    cx.violation = *why;
    cx.witness = v.witness;
    return cx;
  };
  return run_random(ctx, spec);
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
    if (a == Alg::kAf) {
      if (!input.contains("dims") || !input.at("dims").is_string()) return invalid_argument("input.dims must be a string");
      auto dims = aapc::parse_dims(n, input.at("dims").get<std::string>(), "input.dims");
      if (!dims) return dims.error();
      in.dims = *dims;
    }
    const InputVerdicts v = judge(a, in, *model);
    CaseCheck c;
    c.violation = apply(check, v);
    c.witness = v.witness;
    return c;
  };
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
    std::vector<Reading> delivers, at_most, exactly;
    for (aapc::Model m : aapc::kModels) {
      const std::string model = aapc::to_string(m);
      delivers.push_back(sched_reading(
          t.alg, m, SchedCheck::kDelivers, model,
          fmt::format("{} as written (src/aapc/schedules.h lists the open choices and their defaults), for {}: the "
                      "schedule is valid under the {} model and delivers every datum exactly once",
                      alg_name(t.alg), t.scope, model_words(m))));
      at_most.push_back(sched_reading(
          t.alg, m, SchedCheck::kAtMost, model + ".at_most",
          fmt::format("for {}: {}'s schedule under the {} model takes at most {} time units", t.scope, alg_name(t.alg),
                      model_words(m), t.count)));
      exactly.push_back(sched_reading(
          t.alg, m, SchedCheck::kExactly, model + ".exactly",
          fmt::format("for {}: {}'s schedule under the {} model takes exactly {} time units", t.scope, alg_name(t.alg),
                      model_words(m), t.count)));
    }
    add_claim(registry, fmt::format("aapc.{}.delivers", t.id), t.location,
        fmt::format("{} performs AAPC in a Q_n with its faults: every datum i_j between nonfaulty nodes arrives",
                    alg_name(t.alg)),
        std::move(delivers));
    std::vector<Reading> units = std::move(at_most);
    for (Reading& r : exactly) units.push_back(std::move(r));
    add_claim(registry, fmt::format("aapc.{}.units", t.id), t.location,
        fmt::format("'the amount of time units required' for {} is {}", alg_name(t.alg), t.count), std::move(units));
  }
  add_claim(registry, "aapc.a2.defined", "Section 3.2.1",
      "'Let the dimension by which Q^1_{n-1} and Q^2_{n-1} are adjacent be d. Let two nodes whose adjacent nodes along d "
      "are faulty nodes be n_1 in Q^1_{n-1} and n_2 in Q^2_{n-1}.'",
      {sched_reading(Alg::kA2, aapc::Model::kAllPort, SchedCheck::kDefined, "literal",
                     "for every two faults and every dimension d in which they differ (so the halves along d hold "
                     "one fault each), A_2 is defined: n_1 and n_2 are nonfaulty and every step can be carried out")});
}

// ---- the examples -----------------------------------------------------------------------------

// The data crossing one link, per step, as sorted text lists ("0_4", ...): the shape of the Q_3
// example's printed cells (compared as sets).
json link_data(const aapc::Schedule& schedule, aapc::NodeId a, aapc::NodeId b) {
  json out = json::object();
  for (const auto& [step, data] : aapc::data_on_link(schedule, a, b)) {
    std::vector<std::string> names;
    for (const aapc::Datum& d : data) names.push_back(d.to_string());
    std::sort(names.begin(), names.end());
    out[step] = names;
  }
  return out;
}

Result<std::pair<aapc::NodeId, aapc::NodeId>> parse_link(const std::string& text) {
  const size_t dash = text.find('-');
  try {
    if (dash == std::string::npos) throw std::invalid_argument(text);
    return std::pair<aapc::NodeId, aapc::NodeId>{static_cast<aapc::NodeId>(std::stoul(text.substr(0, dash))),
                                                 static_cast<aapc::NodeId>(std::stoul(text.substr(dash + 1)))};
  } catch (const std::exception&) {
    return invalid_argument(fmt::format("input.link: '{}' is not of the form a-b", text));
  }
}

// The Q_3 example: A_1 at params {n, d} for input {faults, link}, all-port.
Result<json> compute_q3(const json& params, const json& input) {
  try {
    const int n = params.at("n").get<int>(), d = params.at("d").get<int>();
    if (params.at("algorithm").get<std::string>() != "A1") return invalid_argument("params.algorithm must be A1");
    auto faults = aapc::parse_faults(n, input.at("faults").get<std::string>());
    if (!faults) return invalid_argument("input.faults: " + faults.error().message);
    auto link = parse_link(input.at("link").get<std::string>());
    if (!link) return link.error();
    aapc::RunRequest req;
    req.faults = *faults;
    req.algorithm = aapc::Algorithm::kA1;
    req.d = d;
    auto run = aapc::run_aapc(req);
    if (!run) return run.error();
    const aapc::ScheduleCheck c = aapc::check_schedule(run->schedule, *faults, req.model);
    if (!c.ok) return invalid_argument("A1's schedule is invalid: " + c.violation);
    return link_data(run->schedule, link->first, link->second);
  } catch (const json::exception& e) {
    return invalid_argument(std::string("params/input: ") + e.what());
  }
}

// Which single faults reproduce the Q_3 sentence (d = 2, link 0-4): exactly the stored one?
MethodResult which_fault(const RunContext& ctx) {
  MethodResult r;
  r.method = Method::kExhaustive;
  auto stored_example = ctx.load_case("aapc/examples/q3_link_0_4.json");
  if (!stored_example) {
    r.outcome = Outcome::kError;
    r.detail = stored_example.error().to_string();
    return r;
  }
  const corpus::Case& example = *stored_example;
  std::vector<aapc::NodeId> matching;
  for (aapc::NodeId phi = 0; phi < 8; ++phi) {
    json input = example.input;
    input["faults"] = std::to_string(phi);
    auto computed = compute_q3(example.params, input);
    ++r.cases;
    if (computed && *computed == example.expected) matching.push_back(phi);
  }
  r.scope = "Q_3, A_1 along dimension 2, all-port, every single fault 0..7: the data on link 0-4 per step against the "
            "printed sentence";
  const std::string stored = example.input.at("faults").get<std::string>();
  if (matching.size() == 1 && std::to_string(matching[0]) == stored) {
    r.outcome = Outcome::kHolds;
    return r;
  }
  r.outcome = Outcome::kRefuted;
  r.detail = fmt::format("the faults reproducing the sentence are {{{}}}, not exactly the stored {}", fmt::join(matching, ","),
                         stored);
  Counterexample cx;
  cx.params = {{"n", 3}};
  cx.input = {{"faults", stored}};
  cx.violation = r.detail;
  cx.witness = {{"matching", matching}};
  r.counterexample = cx;
  return r;
}

// Example 2: the fault sets of size 2 of Q_n consistent with the named division, d, n_1, n_2.
Result<json> compute_example2(const json& params, const json& input) {
  try {
    const int n = params.at("n").get<int>();
    if (n < 2 || n > aapc::kMaxN) return invalid_argument("params.n out of range");
    auto dims = aapc::parse_dims(n, input.at("dims").get<std::string>(), "input.dims");
    if (!dims) return dims.error();
    const int d = input.at("d").get<int>();
    const auto n1 = input.at("n1").get<aapc::NodeId>(), n2 = input.at("n2").get<aapc::NodeId>();
    const aapc::NodeId N = aapc::NodeId{1} << n, bit = aapc::NodeId{1} << d;
    std::vector<std::string> found;
    for (aapc::NodeId x = 0; x < N; ++x)
      for (aapc::NodeId y = x + 1; y < N; ++y) {
        const aapc::FaultSet f(n, {x, y});
        if (!aapc::at_most_one_fault_per_ps(f, *dims)) continue;    // Property 1's condition on D
        if (aapc::common_perfect_dims(f, *dims) == 0) continue;     // the Q_{f+1}s exist
        if (((x ^ y) & bit) == 0) continue;                         // one fault per half along d
        if (f.is_faulty(n1) || f.is_faulty(n2) || ((n1 ^ n2) & bit) == 0) continue;
        if (!f.is_faulty(n1 ^ bit) || !f.is_faulty(n2 ^ bit)) continue;  // their d-neighbours are the faults
        found.push_back(fmt::format("{},{}", x, y));
      }
    return json{{"faults", fmt::format("{}", fmt::join(found, ";"))}, {"fault sets consistent", found.size()}};
  } catch (const json::exception& e) {
    return invalid_argument(std::string("params/input: ") + e.what());
  }
}

Reading example_reading(const std::string& claim_id, std::string name, std::string description, ExampleFn compute) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.compute_example = compute;
  r.methods.emplace_back(Method::kExample, example_method(claim_id, r.name, compute));
  return r;
}

void add_example_claims(Registry& registry) {
  add_claim(registry, "aapc.q3.link_0_4", "Section 3.1.1, after Step 5",
            "'data which move along link between nodes 0 and 4 are 0_4, 1_4, 2_4, and 3_4 in Step 1, 4_0, 4_1, 4_2, "
            "and 4_3 in Step 4, 5_4 and 7_4 in Step 4, 4_5 and 4_7 in Step 5'",
            {example_reading("aapc.q3.link_0_4", "fault_6",
                             "A_1 on Q_3 divided along dimension 2 with node 6 faulty (the only single fault that fits, "
                             "see aapc.q3.which_fault), all-port: the data crossing link 0-4 in either direction, per "
                             "step, as sets",
                             compute_q3)});
  Reading which;
  which.name = "single_fault";
  which.description = "of the 8 single faults of Q_3, exactly the stored one (6) makes A_1 along dimension 2 move "
                      "exactly the printed data over link 0-4 in each step";
  which.methods.emplace_back(Method::kExhaustive, which_fault);
  which.check_case = [](const json&, const json&) -> Result<CaseCheck> { return CaseCheck{}; };
  add_claim(registry, "aapc.q3.which_fault", "Section 3.1.1, after Step 5",
            "the Q_3 example does not name its faulty node; exactly one single fault makes A_1 reproduce it",
            {std::move(which)});
  add_claim(registry, "aapc.example2.faults", "Section 3.2.1, Example 2 (Fig. 1 lost)",
            "'Q_4 is divided along the 0-th and 2-nd dimensions ... d = 3, n_1 = 1, and n_2 = 14 in Phase 2'",
            {example_reading("aapc.example2.faults", "literal",
                             "exactly one set of two faults is consistent with the example: at most one fault per PS "
                             "of D = {0,2}, some dimension across which every faulty PS has a perfect neighbour, one "
                             "fault per half along d = 3, and n_1, n_2 nonfaulty in different halves with faulty "
                             "d-neighbours",
                             compute_example2)});
}

// ---- the optimum the paper states for a nonfaulty Q_n --------------------------------------

const PerBudget<int> kOptimumMaxN{4, 8, 10};

// "an optimal AAPC algorithm for a nonfaulty Q_n requires 2^n - 1 time units", per model: refuted
// at the first n where the inner AAPC's checked schedule is shorter (the optimum is smaller) or a
// lower bound exceeds 2^n - 1 (2^n - 1 cannot be reached).
MethodResult optimum_method(const RunContext& ctx, aapc::Model model) {
  MethodResult r;
  r.method = Method::kOracle;
  const int max_n = kOptimumMaxN.at(ctx.budget);
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
  add_claim(registry, "aapc.sec312.optimum", "Section 3.1.2",
            "'an optimal AAPC algorithm for a nonfaulty Q_n requires 2^n - 1 time units'", std::move(readings));
}
}  // namespace

void register_aapc_claims(Registry& registry) { add_count_claims(registry);
  add_schedule_claims(registry);
  add_example_claims(registry);
  add_optimum_claims(registry);
}

}  // namespace topocheck::claims
