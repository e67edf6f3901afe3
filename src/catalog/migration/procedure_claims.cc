// The parts of the migration procedure and its cost model, as claims of their own (paper 000):
// HAMMING-PATH (Section 4, cited from Chen-Lai) on pairs the procedure never asks for, when it
// can fail at all; Section 4.2's counting of the subcubes B and their specific nodes; Section 5's
// latency model (speedup and reduction) over a parameter grid.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/migration/inputs.h"
#include "catalog/migration/parts.h"
#include "catalog/migration/scope.h"
#include "claims/claim.h"
#include "migration/migration.h"
#include "migration/packings.h"

namespace topocheck::claims::migration_parts {
namespace {

namespace scope = migration_scope;
using migration::Instance;
using migration::Params;
using migration::Plan;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// HAMMING-PATH on pairs the procedure never asks for: when can it fail at all? Blocks: every
// packing outside the two nodes S = 0...0 and T = 1...1 (the smallest instance of each n).

Violation hamming_any_pair(const migration::Blocks& blocks, int n, bool endpoints_outside_blocks) {
  auto in_block = [&](Node x) {
    return std::any_of(blocks.begin(), blocks.end(), [&](const Subcube& b) { return b.contains(x); });
  };
  for (uint64_t a = 0; a < bit(n); ++a)
    for (uint64_t b = a + 1; b < bit(n); ++b) {
      const Node na{a, n}, nb{b, n};
      if (endpoints_outside_blocks && (in_block(na) || in_block(nb))) continue;
      if (!migration::hamming_path(na, nb, blocks, migration::TieBreak::kAscending))
        return fmt::format("blocks {}: every Hamming path from {} to {} has a block link", migration::blocks_to_string(blocks),
                           na, nb);
    }
  return std::nullopt;
}

Reading hamming_any_pair_reading(bool outside) {
  Reading r;
  r.name = outside ? "endpoints-outside-blocks" : "any-endpoints";
  r.description = outside ? "every pair of nodes, neither in a block, has a block-free Hamming path (every packing)"
                          : "every pair of nodes has a block-free Hamming path (every packing)";
  r.methods.emplace_back(Method::kExhaustive, [outside](const RunContext& ctx) {
    MethodResult res;
    res.method = Method::kExhaustive;
    res.outcome = Outcome::kHolds;
    const int max_n = scope::kHammingAnyPairMaxN.at(ctx.budget);
    res.scope = fmt::format("n = 2..{}, every packing outside S = 0...0 and T = 1...1, every pair of nodes", max_n);
    for (int n = 2; n <= max_n && res.outcome == Outcome::kHolds; ++n) {
      const Instance inst = *migration::make_instance(Subcube{0, 0, n}, Subcube{0, bit(n) - 1, n});
      migration::for_each_packing(inst, [&](const migration::Blocks& blocks) {
        ++res.cases;
        if (auto v = hamming_any_pair(blocks, n, outside)) {
          res.outcome = Outcome::kRefuted;
          res.detail = *v;
          Counterexample cx;
          cx.params = {{"n", n}};
          cx.input = {{"blocks", migration::blocks_to_string(blocks)}};
          cx.violation = *v;
          cx.minimized = true;
          res.counterexample = std::move(cx);
          return true;
        }
        return false;
      });
    }
    return res;
  });
  r.check_case = [outside](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
      return invalid_argument("params.n must be an integer");
    const int n = params.at("n").get<int>();
    if (n < 2 || n > migration::kMaxN) return invalid_argument("params.n out of range");
    auto text = get_string(input, "blocks");
    if (!text) return text.error();
    const Instance inst = *migration::make_instance(Subcube{0, 0, n}, Subcube{0, bit(n) - 1, n});
    auto blocks = migration::parse_blocks(inst, *text);
    if (!blocks) return invalid_argument("input.blocks: " + blocks.error().message);
    return CaseCheck{hamming_any_pair(*blocks, n, outside), json::object()};
  };
  return r;
}

// ---------------------------------------------------------------------------------------------
// Section 5's latency model over a parameter grid.

struct LatencyGrid {
  // Message sizes M in units of X (M_c or L_f): M / X from 1000 to 10^6; start-up up to 1% of
  // M / B; n <= 16 and every zeta + 2 beta <= n with beta >= 1: C(S, T), D(S) - D(T) and
  // D(T) - D(S) are disjoint sets of dimensions (Section 2.2: I, C, D(S) - D(T), D(T) - D(S) are
  // "pairwise disjoint, and their union is N"), the last two of size beta each.
  static constexpr double kRatios[] = {1e3, 1e4, 1e5, 1e6};
  static constexpr double kStartups[] = {0.0, 0.001, 0.01};
};

MethodResult latency_sweep(double min_speedup, bool reduction) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.outcome = Outcome::kHolds;
  r.scope = "n = 2..16, zeta + 2 beta <= n, beta >= 1, M/X in {1e3, 1e4, 1e5, 1e6}, start-up in {0, 0.1%, 1%} of M/B";
  for (int n = 2; n <= 16; ++n)
    for (int beta = 1; 2 * beta <= n; ++beta)
      for (int zeta = 0; zeta + 2 * beta <= n; ++zeta)
        for (double ratio : LatencyGrid::kRatios)
          for (double st : LatencyGrid::kStartups) {
            ++r.cases;
            const double M = ratio, B = 1, X = 1;
            const auto l = migration::latency(M, B, X, zeta, beta, st * M / B);
            const double value = reduction ? l.reduction() : l.speedup();
            if (value < min_speedup) {
              r.outcome = Outcome::kRefuted;
              r.detail = fmt::format("n = {}, zeta = {}, beta = {}, M/X = {}, start-up {}: {} = {:.3f} < {}", n, zeta,
                                     beta, ratio, st, reduction ? "reduction" : "speedup", value, min_speedup);
              Counterexample cx;
              cx.params = {{"n", n}};
              cx.input = {{"zeta", zeta}, {"beta", beta}, {"M_over_X", ratio}, {"startup_fraction", st}};
              cx.violation = r.detail;
              cx.minimized = true;
              r.counterexample = cx;
              return r;
            }
          }
  return r;
}

// Section 4.2's counting on one (S, T, alpha) with |C| = 1: S splits into 2^beta (as printed) or
// 2^gamma subcubes B, each with exactly one specific node.
LemmaCheck specific_nodes_check(bool as_printed) {
  return [as_printed](const LemmaCtx& c) -> Violation {
    if (c.inst.zeta() != 1) return std::nullopt;
    const Plan plan = migration::migrate(c.inst, {}, [&] {
      Params p = migration::default_params(c.inst);
      p.alpha = c.alpha;
      return p;
    }());
    const uint64_t expected = uint64_t{1} << (as_printed ? c.inst.beta() : c.inst.gamma());
    if (plan.bs.size() != expected)
      return fmt::format("S = {}, T = {}: S splits into {} subcubes B along D(S) n D(T) (one specific node each), "
                         "not 2^{} = {}",
                         c.inst.S, c.inst.T, plan.bs.size(), as_printed ? "beta" : "gamma", expected);
    for (const auto& b : plan.bs) {
      int specific = 0;
      for (Node u : migration::nodes_of(b.cube)) specific += migration::d_sets(c.inst, c.alpha, u).f_S == 0;
      if (specific != 1) return fmt::format("B = {} has {} nodes q with D_f(S|q) empty", b.cube, specific);
    }
    return std::nullopt;
  };
}

// A reading of Section 5's latency model: value >= bound over the grid, the speedup or (reduction)
// the latency reduction.
Reading latency_reading(std::string name, std::string words, double bound, bool reduction) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(words);
  r.methods.emplace_back(Method::kExhaustive,
                         [bound, reduction](const RunContext&) { return latency_sweep(bound, reduction); });
  r.check_case = [bound, reduction](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
      return invalid_argument("params.n must be an integer");
    for (const char* key : {"zeta", "beta", "M_over_X", "startup_fraction"})
      if (!input.is_object() || !input.contains(key) || !input.at(key).is_number())
        return invalid_argument(fmt::format("input.{} must be a number", key));
    const int zeta = input.at("zeta").get<int>(), beta = input.at("beta").get<int>();
    const double ratio = input.at("M_over_X").get<double>(), st = input.at("startup_fraction").get<double>();
    if (zeta < 0 || beta < 1 || ratio <= 0 || st < 0)
      return invalid_argument("input: zeta >= 0, beta >= 1, M_over_X > 0, startup_fraction >= 0");
    if (zeta + 2 * beta > params.at("n").get<int>())
      return invalid_argument("input: zeta + 2 beta <= n (C(S, T), D(S) - D(T) and D(T) - D(S) are disjoint)");
    const auto l = migration::latency(ratio, 1, 1, zeta, beta, st * ratio);
    const double value = reduction ? l.reduction() : l.speedup();
    Violation v;
    if (value < bound) v = fmt::format("{} = {:.3f} < {}", reduction ? "reduction" : "speedup", value, bound);
    return CaseCheck{v, json{{"single", l.single}, {"dual", l.dual}, {"value", value}}};
  };
  return r;
}

}  // namespace

void add_hamming_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "migration.hamming.any_pair",
      "Section 4 (HAMMING-PATH, cited from Chen-Lai): when it can fail at all",
      "HAMMING-PATH finds a Hamming path avoiding all block links (asked for any pair of nodes, not only the "
      "procedure's calls).",
      {hamming_any_pair_reading(true), hamming_any_pair_reading(false)}));
}

void add_counting_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "migration.sec42.specific_nodes", "Section 4.2",
      "S can be partitioned into 2^beta beta-dimensional subcubes along those dimensions in D(S) n D(T); each B has "
      "exactly one node q with D_f(S|q) empty; there are 2^beta specific nodes totally in S.",
      {lemma_reading("as-printed", "2^beta subcubes B and specific nodes, one per B", specific_nodes_check(true)),
       lemma_reading("2^gamma", "2^gamma subcubes B (gamma = |D(S) n D(T)|), one specific node per B",
                     specific_nodes_check(false))}));
}

void add_latency_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "migration.sec5.speedup", "Section 5.2",
      "The proposed speedy task migration leads to a speedup factor of roughly 2 (network latency (X/B)P + M/B "
      "with P = zeta + beta against (X/B)P + M/(2B) with P = zeta + 2 beta, X = L_f).",
      {latency_reading("within-10pct", "speedup >= 1.8 over the grid (M >= 1000 X, start-up <= 1% of M/B)", 1.8, false),
       latency_reading("within-5pct", "speedup >= 1.9 over the grid (M >= 1000 X, start-up <= 1% of M/B)", 1.9, false)}));
  registry.add(Claim::make(kPaper, "migration.sec5.reduction", "Section 5.1",
      "Speedy task migration yields a reduction in the communication latency by almost 50% (X = M_c).",
      {latency_reading("at-least-45pct",
                       "latency reduction >= 45% over the grid (M >= 1000 X, start-up <= 1% of M/B)", 0.45, true)}));
}

}  // namespace topocheck::claims::migration_parts
