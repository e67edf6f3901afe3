// ITM Theorem 2 (Liu et al., paper 002: routing on an ITM is deadlock-free) for ALL ITMs with a
// FIXED number of nodes n: the violation "the channel dependency graph has a cycle" as a set S of
// channels over the symbolic ITM, split by the largest node S touches (smt/itm_smt.h gives the
// encoding and why the split is exact). Unsat for every split proves the claim at n; a model is a
// candidate the caller judges. Preconditions: 3 <= n <= kItmSmtMaxNodes, encodings kSteps or
// kBrokenNonEdge (TC_CHECK). Cost: n - 2 QF_FD checks over O(n^3) Bools (n = 20: about 2 s).
#include "smt/itm_smt.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "smt/itm_symbolic.h"

namespace topocheck::smt {

using claims::SolverLimits;
using itm::Rule;
using namespace itm_encoding;

namespace {

// S: a set of channels (a -> b), each with a dependency successor and predecessor in S.
struct DependencyCycle {
  DependencyCycle(Formula& f, const SymbolicItm& g) : n(g.n()) {
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) in_set.push_back(f.fresh(fmt::format("cycle_{}_{}", a, b)));
    for (int a = 0; a < n; ++a) f.add(!member(a, a));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        // (a -> b, b -> c) is a dependency iff both are channels, a != c and d(a, c) = 2; a and c
        // share the neighbour b, so d(a, c) = 2 iff they are not adjacent.
        z3::expr_vector successors(f.ctx()), predecessors(f.ctx());
        for (int c = 0; c < n; ++c) {
          if (c == a || c == b) continue;
          successors.push_back(member(b, c) && !g.adj(a, c));
          predecessors.push_back(member(c, a) && !g.adj(c, b));
        }
        f.add(z3::implies(member(a, b), g.adj(a, b) && z3::mk_or(successors) && z3::mk_or(predecessors)));
      }
  }
  const z3::expr& member(int a, int b) const { return in_set[at(a * n + b)]; }
  // S is nonempty (without the split: the pointwise evaluation).
  z3::expr nonempty(z3::context& ctx) const { return z3::mk_or(to_vector(ctx, in_set)); }
  // The restriction of check `top`: S touches node top and no larger node.
  z3::expr top_is(z3::context& ctx, int top) const {
    z3::expr_vector parts(ctx), touches(ctx);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        if (a > top || b > top) parts.push_back(!member(a, b));
        if (a == top || b == top) touches.push_back(member(a, b));
      }
    parts.push_back(z3::mk_or(touches));
    return z3::mk_and(parts);
  }
  std::vector<std::pair<int, int>> channels(const z3::model& model) const {
    std::vector<std::pair<int, int>> out;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (model.eval(member(a, b), true).is_true()) out.emplace_back(a, b);
    return out;
  }
  int n;
  std::vector<z3::expr> in_set;
};

}  // namespace

ItmSmtResult prove_deadlock_free(int n, Rule rule, const SolverLimits& limits, ItmEncoding encoding) {
  TC_CHECK(n >= 3 && n <= kItmSmtMaxNodes, "prove_deadlock_free: n out of range");
  TC_CHECK(encoding == ItmEncoding::kSteps || encoding == ItmEncoding::kBrokenNonEdge,
           "prove_deadlock_free: Theorem 2 has the encodings steps and broken-non-edge");
  ItmSmtResult result;
  try {
    z3::context ctx;
    Formula f(ctx);
    const SymbolicItm g(f, n, rule, encoding == ItmEncoding::kSteps);
    const DependencyCycle cycle(f, g);
    Checker checker(ctx, limits, result);
    // Check `top`: the largest node S touches is top (see the header).
    for (int top = 2; top < n; ++top) {
      const auto model = checker.check(f.all(), cycle.top_is(ctx, top), kLogic);
      if (model) {
        result.steps = g.steps(*model);
        result.edges = edges_of_steps(result.steps);
        result.channels = cycle.channels(*model);
      }
      if (result.status != SmtStatus::kProved) return result;
    }
  } catch (const z3::exception& e) {
    return z3_error(e);
  }
  return result;
}

Result<std::vector<itm::Steps>> deadlock_violating_models(int n, Rule rule, ItmEncoding encoding) {
  return itm_inputs(n, rule, encoding, false, [](Formula& f, const SymbolicItm& g) {
    // Kept alive by the formula's terms: the set's Bools are named constants.
    const DependencyCycle cycle(f, g);
    f.add(cycle.nonempty(f.ctx()));
  });
}

}  // namespace topocheck::smt
