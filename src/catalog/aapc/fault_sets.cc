// The method kit of the Section 2 claims (see catalog/aapc/fault_sets.h).
#include "catalog/aapc/fault_sets.h"

#include <algorithm>
#include <bit>
#include <random>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::claims::aapc_parts {

namespace scope = aapc_scope;
using aapc::DimSet;
using aapc::FaultSet;
using aapc::NodeId;
using nlohmann::json;

namespace {

uint64_t binomial(uint64_t n, uint64_t k) {
  if (k > n) return 0;
  uint64_t r = 1;
  for (uint64_t i = 0; i < k; ++i) r = r * (n - i) / (i + 1);  // exact: r * (n - i) = C(n, i+1) * (i+1)
  return r;
}

Counterexample make_counterexample(const FaultSet& faults, const SetCheck& found) {
  Counterexample cx;
  cx.params = {{"n", faults.n()}};
  cx.input = {{"faults", faults_text(faults)}};
  for (const auto& [key, value] : found.input_extra.items()) cx.input[key] = value;
  cx.violation = *found.violation;
  cx.witness = found.witness;
  return cx;
}

// Every fault set with f in `range`, n = 1..max_n (the shard's slice of that sequence when
// ctx.shard is set; `whole` ignores the shard).
MethodResult exhaustive_sets(const RunContext& ctx, int max_n, FRange range, const SetCheckFn& check, bool whole = false) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = fmt::format("n = 1..{}, {}, every fault set", max_n, range_text(range));
  uint64_t applicable = 0;  // fault sets the reading's premise applied to (SetCheck::applicable)
  uint64_t total = 0;
  for (int n = 1; n <= max_n; ++n)
    for (int f = 1; f <= max_f(range, n); ++f) total += binomial(uint64_t{1} << n, static_cast<uint64_t>(f));
  const bool sharded = ctx.shard && !whole;
  const auto [first, last] = sharded ? ctx.shard->range(total) : std::pair<uint64_t, uint64_t>{0, total};
  if (sharded) result.shard = fmt::format("{}, fault sets [{}, {}) of {}", ctx.shard->to_string(), first, last, total);
  uint64_t offset = 0;  // position of the first fault set of (n, f) in the sequence
  for (int n = 1; n <= max_n; ++n) {
    const uint64_t size = uint64_t{1} << n;
    for (int f = 1; f <= max_f(range, n); ++f) {
      const uint64_t block = binomial(size, static_cast<uint64_t>(f));
      const uint64_t begin = std::max(first, offset), end = std::min(last, offset + block);
      if (begin < end) {
        ctx.report(fmt::format("exhaustive n = {}, f = {} ({} fault sets)", n, f, end - begin));
        std::vector<NodeId> c = unrank_subset(size, f, begin - offset);
        for (uint64_t r = begin; r < end; ++r) {
          const FaultSet faults(n, c);
          ++result.cases;
          const SetCheck verdict = check(faults, Hints{}, false);
          if (verdict.applicable) ++applicable;
          if (verdict.violation) {
            const SetCheck found = check(faults, Hints{}, true);
            result.outcome = Outcome::kRefuted;
            result.detail = *found.violation;
            result.counterexample = make_counterexample(faults, found);
            result.counterexample->minimized = true;
            return result;
          }
          next_subset(c, size);
        }
      }
      offset += block;
    }
  }
  result.outcome = Outcome::kHolds;
  result.applicable = applicable;
  return result;
}

// Random fault sets of Q_n for n above the budget's exhaustive range (up to
// scope::kPropertyRandomMaxN).
MethodResult random_sets(const RunContext& ctx, int exhaustive_max_n, FRange range, const SetCheckFn& check) {
  MethodResult result;
  result.method = Method::kRandom;
  const int cases = scope::kPropertyRandomCases.at(ctx.budget);
  const int low = exhaustive_max_n < scope::kPropertyRandomMaxN ? exhaustive_max_n + 1 : 1;
  result.scope = fmt::format("n = {}..{}, {}, {} random fault sets (half crowded into a small subcube), seed {}",
                             low, scope::kPropertyRandomMaxN, range_text(range), cases, ctx.seed);
  uint64_t applicable = 0;  // fault sets the reading's premise applied to (SetCheck::applicable)
  std::mt19937_64 rng(ctx.seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int k = 0; k < cases; ++k) {
    if (k % 256 == 0) ctx.report(fmt::format("random case {}/{}", k, cases));
    const int n = uniform(low, scope::kPropertyRandomMaxN);
    if (max_f(range, n) < 1) continue;  // Q_1 has no fault set with f <= floor(n/2)
    const int f = uniform(1, max_f(range, n));
    // Uniform over Q_n, or inside a random subcube of dimension min(n, bit_width(f) + 1) (at least
    // 2f nodes) where faults meet in PSs and along dimensions far more often.
    const bool crowded = uniform(0, 1) == 1;
    const int sub = crowded ? std::min(n, static_cast<int>(std::bit_width(static_cast<unsigned>(f))) + 1) : n;
    std::vector<int> order(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) order[static_cast<size_t>(j)] = j;
    std::shuffle(order.begin(), order.end(), rng);
    const NodeId base = std::uniform_int_distribution<NodeId>(0, (NodeId{1} << n) - 1)(rng);
    std::set<NodeId> chosen;
    while (static_cast<int>(chosen.size()) < f) {
      NodeId x = base;
      for (int j = 0; j < sub; ++j)
        if (uniform(0, 1)) x ^= NodeId{1} << order[static_cast<size_t>(j)];
      chosen.insert(x);
    }
    std::vector<NodeId> nodes(chosen.begin(), chosen.end());
    ++result.cases;
    const SetCheck verdict = check(FaultSet(n, nodes), Hints{}, false);
    if (verdict.applicable) ++applicable;
    if (!verdict.violation) continue;
    // Shrink: drop faults while the violation stays (f stays in range: it only decreases).
    for (bool progressed = true; progressed && nodes.size() > 1;) {
      progressed = false;
      for (size_t i = 0; i < nodes.size(); ++i) {
        std::vector<NodeId> fewer = nodes;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
        if (check(FaultSet(n, fewer), Hints{}, false).violation) {
          nodes = std::move(fewer);
          progressed = true;
          break;
        }
      }
    }
    const FaultSet faults(n, nodes);
    const SetCheck found = check(faults, Hints{}, true);
    result.outcome = Outcome::kRefuted;
    result.counterexample = make_counterexample(faults, found);
    // The smallest counterexample below this n, if the (quiet, unsharded) sweep finds one.
    RunContext quiet = ctx;
    quiet.progress = nullptr;
    MethodResult below = exhaustive_sets(quiet, std::min(n - 1, exhaustive_max_n), range, check, true);
    if (below.counterexample) result.counterexample = below.counterexample;
    result.counterexample->minimized = below.counterexample.has_value();
    result.detail = result.counterexample->violation;
    return result;
  }
  result.outcome = Outcome::kHolds;
  result.applicable = applicable;
  return result;
}

Result<std::pair<FaultSet, Hints>> parse_set_case(const json& params, const json& input, FRange range,
                                                  const DimRule& rule, const std::string& reading) {
  auto n = parse_n(params);
  if (!n) return n.error();
  if (!input.is_object() || !input.contains("faults") || !input.at("faults").is_string())
    return invalid_argument("input.faults must be a string of node numbers (\"6,9\")");
  auto faults = aapc::parse_faults(*n, input.at("faults").get<std::string>());
  if (!faults) return invalid_argument("input.faults: " + without_flag(faults.error().message));
  const int f = static_cast<int>(faults->faulty().size());
  if (f < 1 || f > max_f(range, *n))
    return invalid_argument(fmt::format("input.faults: f = {} is outside the claim's range {} (n = {})", f,
                                        range_text(range), *n));
  Hints hints;
  for (const auto& [key, value] : input.items()) {
    if (key == "faults") continue;
    if (key == "D" && rule.uses_dims) continue;
    if (key == "d" && rule.uses_d) continue;
    return invalid_argument(fmt::format("input.{}: not an input of reading '{}'", key, reading));
  }
  if (input.contains("D")) {
    if (!input.at("D").is_string()) return invalid_argument("input.D must be a string of dimensions (\"0,2\")");
    auto dims = aapc::parse_dims(*n, input.at("D").get<std::string>(), "input.D");
    if (!dims) return dims.error();
    if (!rule.dims_ok(*n, f, *dims))
      return invalid_argument(fmt::format("input.D: {} is not {}", aapc::dims_to_string(*dims), rule.dims_rule));
    hints.dims = *dims;
  }
  if (input.contains("d")) {
    if (!input.at("d").is_string()) return invalid_argument("input.d must be a string (a dimension, \"1\")");
    auto d = aapc::parse_dims(*n, input.at("d").get<std::string>(), "input.d");
    if (!d) return d.error();
    if (std::popcount(*d) != 1) return invalid_argument("input.d must name exactly one dimension");
    hints.d = std::countr_zero(*d);
    if (hints.dims && ((*hints.dims >> *hints.d) & 1u))
      return invalid_argument(fmt::format("input.d: {} lies in D", *hints.d));
  }
  return std::pair{std::move(faults).value(), hints};
}

}  // namespace

// The D with |D| = k inside 0..n-1, ascending masks; cached (the sweeps ask for them per set).
const std::vector<DimSet>& dims_of_size(int n, int k) {
  static const std::vector<std::vector<std::vector<DimSet>>> table = [] {
    std::vector<std::vector<std::vector<DimSet>>> t(aapc::kMaxN + 1);
    for (int m = 1; m <= aapc::kMaxN; ++m)
      for (int j = 0; j <= m; ++j) t[m].push_back(aapc::dim_sets_of_size(m, j));
    return t;
  }();
  static const std::vector<DimSet> none;
  if (n < 1 || n > aapc::kMaxN || k < 0 || k > n) return none;
  return table[n][k];
}

std::string faults_text(const FaultSet& faults) { return fmt::format("{}", fmt::join(faults.faulty(), ",")); }

int max_f(FRange range, int n) { return range == FRange::kHalf ? n / 2 : n; }
std::string range_text(FRange range) { return range == FRange::kHalf ? "1 <= f <= floor(n/2)" : "1 <= f <= n"; }

std::vector<DimSet> dims_to_try(const Hints& hints, int n, int k) {
  if (hints.dims) return {*hints.dims};
  return dims_of_size(n, k);
}

// The k-subset of {0..size-1} of lexicographic rank `rank`.
std::vector<NodeId> unrank_subset(uint64_t size, int k, uint64_t rank) {
  std::vector<NodeId> out;
  NodeId v = 0;
  for (int i = 0; i < k; ++i) {
    // Subsets whose i-th element is v: C(size - 1 - v, k - 1 - i).
    for (;; ++v) {
      const uint64_t with_v = binomial(size - 1 - v, static_cast<uint64_t>(k - 1 - i));
      if (rank < with_v) break;
      rank -= with_v;
    }
    out.push_back(v++);
  }
  return out;
}

// The next k-subset in lexicographic order; false after the last.
bool next_subset(std::vector<NodeId>& c, uint64_t size) {
  const int k = static_cast<int>(c.size());
  for (int i = k - 1; i >= 0; --i) {
    if (c[i] < size - static_cast<uint64_t>(k - i)) {
      ++c[i];
      for (int j = i + 1; j < k; ++j) c[j] = c[j - 1] + 1;
      return true;
    }
  }
  return false;
}

Result<int> parse_n(const json& params) {
  if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
    return invalid_argument("params.n must be an integer");
  const int n = params.at("n").get<int>();
  if (n < 1 || n > aapc::kMaxN) return invalid_argument(fmt::format("params.n: {} is outside 1..{}", n, aapc::kMaxN));
  return n;
}

// parse_faults's messages name the CLI flag; a stored case names its field instead.
std::string without_flag(std::string message) {
  for (const char* flag : {"--faults: ", "--n: "})
    if (message.rfind(flag, 0) == 0) return message.substr(std::string(flag).size());
  return message;
}

DimRule no_dims() { return DimRule{false, false, [](int, int, DimSet) { return false; }, ""}; }
DimRule dims_of_f() {
  return DimRule{true, false, [](int, int f, DimSet dims) { return std::popcount(dims) == f; }, "a set of f dimensions"};
}

Reading make_reading(SetReading spec) {
  Reading r;
  r.name = spec.name;
  r.description = spec.description;
  const SetCheckFn check = spec.check;
  const FRange range = spec.range;
  const PerBudget<int> max_n = spec.exhaustive_max_n;
  const DimRule rule = spec.rule;
  const std::string name = spec.name;
  r.check_case = [check, range, rule, name](const json& params, const json& input) -> Result<CaseCheck> {
    auto in = parse_set_case(params, input, range, rule, name);
    if (!in) return in.error();
    SetCheck c = check(in->first, in->second, true);
    return CaseCheck{c.violation, c.witness};
  };
  r.methods.emplace_back(Method::kExhaustive, [check, range, max_n](const RunContext& ctx) {
    return exhaustive_sets(ctx, max_n.at(ctx.budget), range, check);
  });
  r.exhaustive_split = true;
  r.methods.emplace_back(Method::kRandom, [check, range, max_n](const RunContext& ctx) {
    return random_sets(ctx, max_n.at(ctx.budget), range, check);
  });
  return r;
}

}  // namespace topocheck::claims::aapc_parts
