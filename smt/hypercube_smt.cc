#include "smt/hypercube_smt.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "catalog/hypercube/scope.h"
#include "core/checks.h"
#include "core/path.h"
#include "hypercube/hypercube_checks.h"

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using claims::SolverLimits;
using hypercube::P3Variant;
using nlohmann::json;
namespace scope = claims::hypercube_scope;

// One position of a symbolic path: the node, whether it is in the node list, whether it is the
// last node of the list. Position 0 is x, position 1 is v_0 = x^(i), position j + 1 is v_j.
struct Position {
  z3::expr node;
  z3::expr present;
  z3::expr last;
};

struct SymbolicPath {
  std::vector<Position> positions;
  z3::expr final_node;  // v after every step: equals the last present node
};

// Algorithm 2's P_i = x : p3(n, i, x^(i), y), symbolically in x and y.
SymbolicPath encode_path(z3::context& ctx, int n, int i, P3Variant variant, const z3::expr& x,
                         const z3::expr& y, z3::expr_vector& invalid_hops) {
  const auto width = static_cast<unsigned>(n);
  const z3::expr zero = ctx.bv_val(0, width);
  const z3::expr v0 = x ^ ctx.bv_val(uint64_t{1} << i, width);  // x^(i)
  const z3::expr u = v0 ^ y;                                   // u = v XOR y (Algorithm 2)

  std::vector<z3::expr> node{v0}, on{ctx.bool_val(true)};
  z3::expr v = v0;
  for (int j = 1; j <= n; ++j) {
    const int b = hypercube::p3_dimension(variant, n, i, j);
    if (b < 0) continue;  // the variant has no step j
    const z3::expr mask = ctx.bv_val(uint64_t{1} << b, width);
    const z3::expr flip = u & mask;  // 2^b when (u & 2^b) != 0, else 0
    const z3::expr taken = flip != zero;
    const z3::expr next = v ^ flip;  // v^(b) when taken, v otherwise
    // Validity of the hop v -> next when it is taken: next XOR v has exactly one bit set,
    // d != 0 and d & (d - 1) == 0. True by construction; asserted so the encoding decides the
    // same predicate as check_path_valid rather than relying on that argument.
    const z3::expr d = next ^ v;
    invalid_hops.push_back(taken && !(d != zero && (d & (d - ctx.bv_val(1, width))) == zero));
    node.push_back(next);
    on.push_back(taken);
    v = next;
  }

  SymbolicPath path{{}, v};
  path.positions.push_back(Position{x, ctx.bool_val(true), ctx.bool_val(false)});  // >= 2 nodes
  for (size_t k = 0; k < node.size(); ++k) {
    // Last: present and no later step is taken.
    z3::expr last = on[k];
    for (size_t later = k + 1; later < node.size(); ++later) last = last && !on[later];
    path.positions.push_back(Position{node[k], on[k], last.simplify()});
  }
  return path;
}

// The violation (the negation of check_alg2_disjoint, see the header) is the disjunction of
// groups: group (i, -1) is path i's own violations (invalid hop, wrong endpoint, repeated node),
// group (i, k), i < k, is "P_i and P_k share a node internal to one of them".
struct Group {
  int i, k;
};

std::vector<Group> all_groups(int n) {
  std::vector<Group> groups;
  for (int i = 0; i < n; ++i) {
    groups.push_back(Group{i, -1});
    for (int k = i + 1; k < n; ++k) groups.push_back(Group{i, k});
  }
  return groups;
}

// check_path_valid (hops), check_endpoints and check_simple of path i, negated.
z3::expr path_violation(z3::context& ctx, int n, int i, P3Variant variant, const z3::expr& x,
                        const z3::expr& y) {
  z3::expr_vector any(ctx);
  const SymbolicPath p = encode_path(ctx, n, i, variant, x, y, any);
  // check_endpoints: the last node is y (the first is x by construction).
  any.push_back(p.final_node != y);
  // check_simple: no node twice, except the last one of a closed path (first == last).
  const z3::expr closed = x == p.final_node;
  const auto& pos = p.positions;
  for (size_t a = 0; a < pos.size(); ++a)
    for (size_t b = a + 1; b < pos.size(); ++b)
      any.push_back(pos[a].present && pos[b].present && pos[a].node == pos[b].node &&
                    !(closed && pos[b].last));
  return z3::mk_or(any);
}

// check_internally_node_disjoint for paths i and k, negated: a node of one path that is neither
// its first nor its last (internal) occurs anywhere in the other. Each pair of positions is
// compared once, both ways.
z3::expr pair_violation(z3::context& ctx, int n, int i, int k, P3Variant variant,
                        const z3::expr& x, const z3::expr& y) {
  z3::expr_vector unused(ctx), any(ctx);
  const SymbolicPath pi = encode_path(ctx, n, i, variant, x, y, unused);
  const SymbolicPath pk = encode_path(ctx, n, k, variant, x, y, unused);
  auto internal = [&ctx](const Position& p, size_t index) {
    return index == 0 ? ctx.bool_val(false) : p.present && !p.last;
  };
  for (size_t a = 0; a < pi.positions.size(); ++a)
    for (size_t b = 0; b < pk.positions.size(); ++b) {
      if (a == 0 && b == 0) continue;  // both x: neither is internal
      const Position& pa = pi.positions[a];
      const Position& pb = pk.positions[b];
      const z3::expr guard = (internal(pa, a) && pb.present) || (internal(pb, b) && pa.present);
      any.push_back(guard && pa.node == pb.node);
    }
  return z3::mk_or(any);
}

z3::expr group_violation(z3::context& ctx, int n, Group g, P3Variant variant, const z3::expr& x,
                         const z3::expr& y) {
  return g.k < 0 ? path_violation(ctx, n, g.i, variant, x, y)
                 : pair_violation(ctx, n, g.i, g.k, variant, x, y);
}

// The whole violation as one formula.
z3::expr violation(z3::context& ctx, int n, P3Variant variant, const z3::expr& x,
                   const z3::expr& y) {
  z3::expr_vector all(ctx);
  for (Group g : all_groups(n)) all.push_back(group_violation(ctx, n, g, variant, x, y));
  return z3::mk_or(all);
}

// A Z3 context with the variables x and y of width n, and how much of the context's rlimit count
// has been accounted for.
struct PathContext {
  explicit PathContext(int n)
      : x(ctx.bv_const("x", static_cast<unsigned>(n))),
        y(ctx.bv_const("y", static_cast<unsigned>(n))) {}
  z3::context ctx;
  z3::expr x, y;
  uint64_t counted = 0;
};

// The solver's x, y as nodes of width n.
std::pair<Node, Node> model_nodes(const z3::model& model, const z3::expr& x, const z3::expr& y,
                                  int n) {
  const uint64_t xb = model.eval(x, true).get_numeral_uint64();
  const uint64_t yb = model.eval(y, true).get_numeral_uint64();
  return {Node{xb, n}, Node{yb, n}};
}

uint64_t effective_rlimit(uint64_t requested) {
  return requested == 0 ? scope::kSmtRlimit.standard : requested;
}

MethodResult smt_method(const claims::RunContext& ctx) {
  const int max_n = scope::kSmtMaxN.at(ctx.budget);
  const SolverLimits limits{scope::kSmtRlimit.at(ctx.budget), 0};
  MethodResult total;
  total.method = Method::kSmt;
  auto scope_up_to = [&](int last_n) {
    return fmt::format("n = 1..{}, all x, y (bit-vector proof, rlimit {})", last_n, limits.rlimit);
  };
  total.scope = scope_up_to(max_n);
  for (int n = 1; n <= max_n; ++n) {
    ctx.report(fmt::format("smt n = {} of {} (rlimit {})", n, max_n, limits.rlimit));
    MethodResult one = alg2_smt_method_result(n, P3Variant::kAsPrinted, limits);
    if (one.outcome != Outcome::kHolds) {
      // Smallest n first: a counterexample here is minimal in n.
      if (one.counterexample) one.counterexample->minimized = true;
      one.scope = scope_up_to(n);  // n - 1 of them proved (cases)
      one.cases = total.cases;
      return one;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

Result<MethodResult> smt_prove(const json& params, const SolverLimits& limits) {
  const std::string bad =
      fmt::format("params.n must be an integer 1..{}", hypercube::kMaxDimension);
  if (!params.is_object() || !params.contains("n")) return invalid_argument(bad);
  const json& jn = params.at("n");
  if (!jn.is_number_integer()) return invalid_argument(bad);
  // number_unsigned may exceed int64; anything above 63 is out of range either way.
  const int64_t value = jn.is_number_unsigned()
                            ? static_cast<int64_t>(std::min<uint64_t>(jn.get<uint64_t>(), 64))
                            : jn.get<int64_t>();
  if (value < 1 || value > hypercube::kMaxDimension) return invalid_argument(bad);
  return alg2_smt_method_result(static_cast<int>(value), P3Variant::kAsPrinted,
                                SolverLimits{effective_rlimit(limits.rlimit), limits.timeout_ms});
}

}  // namespace


Alg2SmtResult prove_alg2_disjoint(int n, P3Variant variant, const SolverLimits& limits) {
  TC_CHECK(n >= 1 && n <= hypercube::kMaxDimension, "prove_alg2_disjoint: n out of range");
  Alg2SmtResult result;
  try {
    // V is unsatisfiable iff every group is: each group is its own check, and the first
    // satisfiable one gives the model. A fresh context starts with each path's groups (path i,
    // then the pairs (i, k), k > i): Z3's set-up cost of a check grows with the number of terms
    // in its context, so one context for all groups makes the checks quadratic in V's size.
    // The rlimit is one budget for every check: each gets what the earlier ones left (Z3's
    // per-check rlimit counts from the context's count when the check starts).
    const uint64_t budget = std::min<uint64_t>(limits.rlimit, UINT_MAX);  // Z3 takes an unsigned
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms);
    std::unique_ptr<PathContext> pc;
    for (Group g : all_groups(n)) {
      if (limits.rlimit != 0 && result.rlimit_used >= budget) {
        result.status = SmtStatus::kUnknown;
        result.reason = "max. resource limit exceeded";
        return result;
      }
      const auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               deadline - std::chrono::steady_clock::now()).count();
      if (limits.timeout_ms != 0 && left_ms <= 0) {
        result.status = SmtStatus::kUnknown;
        result.reason = "timeout";
        return result;
      }
      if (g.k < 0) {
        pc.reset();  // the previous context goes before the next is made
        pc = std::make_unique<PathContext>(n);
      }
      z3::solver solver(pc->ctx, "QF_BV");
      z3::params p(pc->ctx);
      if (limits.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget - result.rlimit_used));
      if (limits.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(left_ms));
      solver.set(p);
      solver.add(group_violation(pc->ctx, n, g, variant, pc->x, pc->y));
      const z3::check_result answer = solver.check();
      // The statistic is the context's running count: add only this check's part.
      const uint64_t count = rlimit_count(solver);
      result.rlimit_used += count - std::min(count, pc->counted);
      pc->counted = count;
      if (answer == z3::unsat) continue;
      if (answer == z3::sat) {
        const auto [nx, ny] = model_nodes(solver.get_model(), pc->x, pc->y, n);
        result.status = SmtStatus::kCounterexample;
        result.x = nx;
        result.y = ny;
      } else {
        result.status = SmtStatus::kUnknown;
        result.reason = solver.reason_unknown();
      }
      return result;
    }
    result.status = SmtStatus::kProved;
  } catch (const z3::exception& e) {
    result.status = SmtStatus::kError;
    result.x.reset();
    result.y.reset();
    result.reason = fmt::format("Z3 error: {}", e.msg());
  }
  return result;
}

std::optional<std::vector<bool>> alg2_encoding_violations(int n, P3Variant variant) {
  TC_CHECK(n >= 1 && n <= 8, "alg2_encoding_violations: n out of range 1..8");
  try {
    z3::context ctx;
    const auto width = static_cast<unsigned>(n);
    const z3::expr xs = ctx.bv_const("x", width);
    const z3::expr ys = ctx.bv_const("y", width);
    z3::expr formula = violation(ctx, n, variant, xs, ys);
    z3::expr_vector from(ctx);
    from.push_back(xs);
    from.push_back(ys);
    const uint64_t size = uint64_t{1} << n;
    std::vector<bool> table;
    table.reserve(size * size);
    for (uint64_t x = 0; x < size; ++x)
      for (uint64_t y = 0; y < size; ++y) {
        z3::expr_vector to(ctx);
        to.push_back(ctx.bv_val(x, width));
        to.push_back(ctx.bv_val(y, width));
        const z3::expr value = formula.substitute(from, to).simplify();
        // A ground formula simplifies to a constant; anything else is an encoding bug.
        if (!value.is_true() && !value.is_false()) return std::nullopt;
        table.push_back(value.is_true());
      }
    return table;
  } catch (const z3::exception&) {
    return std::nullopt;
  }
}

MethodResult alg2_smt_method_result(int n, P3Variant variant, const SolverLimits& limits) {
  MethodResult result;
  result.method = Method::kSmt;
  const std::string of_variant =
      variant == P3Variant::kAsPrinted
          ? ""
          : fmt::format(", p3 variant {}", hypercube::to_string(variant));
  result.scope =
      fmt::format("n = {}, all x, y (bit-vector proof, rlimit {}{})", n, limits.rlimit, of_variant);
  const Alg2SmtResult smt = prove_alg2_disjoint(n, variant, limits);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  const hypercube::Hypercube cube = hypercube::Hypercube::make(n).value();
  const Node x = *smt.x, y = *smt.y;
  const Violation v = hypercube::check_alg2_disjoint(cube, x, y, variant);
  if (!v) {
    result.outcome = Outcome::kError;
    result.detail = fmt::format(
        "n = {}: SMT model disagrees with the checker (x = {}, y = {} satisfies the claim)", n, x,
        y);
    return result;
  }
  result.outcome = Outcome::kRefuted;
  result.detail = *v;
  claims::Counterexample cx;
  cx.params = {{"n", n}};
  cx.input = {{"x", x.to_string()}, {"y", y.to_string()}};
  cx.violation = *v;
  cx.witness = {{"paths", paths_to_json(hypercube::cube_disjoint_paths(n, x, y, variant))}};
  cx.minimized = false;  // one n: the caller knows whether smaller n were proved
  result.counterexample = std::move(cx);
  return result;
}

void attach_hypercube_smt(claims::Registry& registry) {
  registry.attach("hypercube.alg2.disjoint", "literal", Method::kSmt, smt_method, smt_prove);
}

}  // namespace topocheck::smt
