#include "smt/hypercube_smt.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "claims/hypercube_scope.h"
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

// The negation of check_alg2_disjoint over all x, y of width n (see the header).
z3::expr violation(z3::context& ctx, int n, P3Variant variant, const z3::expr& x,
                   const z3::expr& y) {
  z3::expr_vector any(ctx);
  std::vector<SymbolicPath> paths;
  for (int i = 0; i < n; ++i) paths.push_back(encode_path(ctx, n, i, variant, x, y, any));

  for (const SymbolicPath& p : paths) {
    // check_endpoints: the last node is y (the first is x by construction).
    any.push_back(p.final_node != y);
    // check_simple: no node twice, except the last one of a closed path (first == last).
    const z3::expr closed = x == p.final_node;
    const auto& pos = p.positions;
    for (size_t a = 0; a < pos.size(); ++a)
      for (size_t b = a + 1; b < pos.size(); ++b)
        any.push_back(pos[a].present && pos[b].present && pos[a].node == pos[b].node &&
                      !(closed && pos[b].last));
  }

  // check_internally_node_disjoint: an internal node of P_i (present, not first, not last) occurs
  // anywhere in P_i', i != i'. Each unordered pair of positions is compared once, both ways.
  auto internal = [](const Position& p, size_t index) {
    return index == 0 ? p.present.ctx().bool_val(false) : p.present && !p.last;
  };
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = i + 1; k < paths.size(); ++k) {
      const auto& pi = paths[i].positions;
      const auto& pk = paths[k].positions;
      for (size_t a = 0; a < pi.size(); ++a)
        for (size_t b = 0; b < pk.size(); ++b) {
          if (a == 0 && b == 0) continue;  // both x: neither is internal
          const z3::expr guard =
              (internal(pi[a], a) && pk[b].present) || (internal(pk[b], b) && pi[a].present);
          any.push_back(guard && pi[a].node == pk[b].node);
        }
    }
  return z3::mk_or(any);
}

// The solver's x, y as nodes of width n.
std::pair<Node, Node> model_nodes(const z3::model& model, const z3::expr& x, const z3::expr& y,
                                  int n) {
  const uint64_t xb = model.eval(x, true).get_numeral_uint64();
  const uint64_t yb = model.eval(y, true).get_numeral_uint64();
  return {Node{xb, n}, Node{yb, n}};
}

// Z3's "rlimit count" statistic (the resource units the check consumed), 0 if absent.
uint64_t rlimit_count(const z3::solver& solver) {
  const z3::stats stats = solver.statistics();
  for (unsigned k = 0; k < stats.size(); ++k)
    if (stats.key(k) == "rlimit count")
      return stats.is_uint(k) ? stats.uint_value(k) : static_cast<uint64_t>(stats.double_value(k));
  return 0;
}

uint64_t effective_rlimit(uint64_t requested) {
  return requested == 0 ? scope::kSmtRlimit.standard : requested;
}

// One n of the as-printed variant as a MethodResult; a model is confirmed by the checker.
MethodResult prove_one(int n, const SolverLimits& limits) {
  MethodResult result;
  result.method = Method::kSmt;
  result.scope = fmt::format("n = {}, all x, y (bit-vector proof, rlimit {})", n, limits.rlimit);
  const Alg2SmtResult smt = prove_alg2_disjoint(n, P3Variant::kAsPrinted, limits);
  switch (smt.status) {
    case SmtStatus::kProved:
      result.outcome = Outcome::kHolds;
      result.cases = 1;
      return result;
    case SmtStatus::kUnknown:
      result.outcome = Outcome::kInconclusive;
      result.detail = fmt::format("n = {}: Z3 returned unknown ({})", n, smt.reason);
      return result;
    case SmtStatus::kError:
      result.outcome = Outcome::kError;
      result.detail = fmt::format("n = {}: {}", n, smt.reason);
      return result;
    case SmtStatus::kCounterexample: break;
  }
  const hypercube::Hypercube cube = hypercube::Hypercube::make(n).value();
  const Node x = *smt.x, y = *smt.y;
  const Violation v = hypercube::check_alg2_disjoint(cube, x, y);
  if (!v) {
    result.outcome = Outcome::kError;
    result.detail = fmt::format(
        "n = {}: SMT model disagrees with the checker (x = {}, y = {} satisfies the claim)", n, x, y);
    return result;
  }
  result.outcome = Outcome::kRefuted;
  result.detail = *v;
  claims::Counterexample cx;
  cx.params = {{"n", n}};
  cx.input = {{"x", x.to_string()}, {"y", y.to_string()}};
  cx.violation = *v;
  cx.witness = {{"paths", paths_to_json(hypercube::cube_disjoint_paths(n, x, y))}};
  cx.minimized = true;  // smallest n first
  result.counterexample = std::move(cx);
  return result;
}

MethodResult smt_method(const claims::RunContext& ctx) {
  const int max_n = scope::kSmtMaxN.at(ctx.budget);
  const SolverLimits limits{scope::kSmtRlimit.at(ctx.budget), 0};
  MethodResult total;
  total.method = Method::kSmt;
  total.scope = fmt::format("n = 1..{}, all x, y (bit-vector proof, rlimit {})", max_n, limits.rlimit);
  for (int n = 1; n <= max_n; ++n) {
    ctx.report(fmt::format("smt n = {} of {} (rlimit {})", n, max_n, limits.rlimit));
    MethodResult one = prove_one(n, limits);
    if (one.outcome != Outcome::kHolds) {
      one.scope = total.scope;
      one.cases = total.cases;
      return one;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

Result<MethodResult> smt_prove(const json& params, const SolverLimits& limits) {
  const std::string bad = fmt::format("params.n must be an integer 1..{}", hypercube::kMaxDimension);
  if (!params.is_object() || !params.contains("n")) return invalid_argument(bad);
  const json& jn = params.at("n");
  if (!jn.is_number_integer()) return invalid_argument(bad);
  // number_unsigned may exceed int64; anything above 63 is out of range either way.
  const int64_t value = jn.is_number_unsigned()
                            ? static_cast<int64_t>(std::min<uint64_t>(jn.get<uint64_t>(), 64))
                            : jn.get<int64_t>();
  if (value < 1 || value > hypercube::kMaxDimension) return invalid_argument(bad);
  return prove_one(static_cast<int>(value),
                   SolverLimits{effective_rlimit(limits.rlimit), limits.timeout_ms});
}

}  // namespace

std::string to_string(SmtStatus status) {
  switch (status) {
    case SmtStatus::kProved: return "proved";
    case SmtStatus::kCounterexample: return "counterexample";
    case SmtStatus::kUnknown: return "unknown";
    case SmtStatus::kError: return "error";
  }
  return "?";
}

Alg2SmtResult prove_alg2_disjoint(int n, P3Variant variant, const SolverLimits& limits) {
  TC_CHECK(n >= 1 && n <= hypercube::kMaxDimension, "prove_alg2_disjoint: n out of range");
  Alg2SmtResult result;
  try {
    z3::context ctx;
    const z3::expr x = ctx.bv_const("x", static_cast<unsigned>(n));
    const z3::expr y = ctx.bv_const("y", static_cast<unsigned>(n));
    z3::solver solver(ctx, "QF_BV");
    z3::params p(ctx);
    // Z3's rlimit is an unsigned; larger requests saturate.
    if (limits.rlimit != 0)
      p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(limits.rlimit, UINT_MAX)));
    if (limits.timeout_ms != 0) p.set("timeout", limits.timeout_ms);
    solver.set(p);
    solver.add(violation(ctx, n, variant, x, y));
    const z3::check_result answer = solver.check();
    result.rlimit_used = rlimit_count(solver);
    switch (answer) {
      case z3::unsat:
        result.status = SmtStatus::kProved;
        break;
      case z3::sat: {
        const auto [nx, ny] = model_nodes(solver.get_model(), x, y, n);
        result.status = SmtStatus::kCounterexample;
        result.x = nx;
        result.y = ny;
        break;
      }
      case z3::unknown:
        result.status = SmtStatus::kUnknown;
        result.reason = solver.reason_unknown();
        break;
    }
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

void attach_hypercube_smt(claims::Registry& registry) {
  registry.attach("hypercube.alg2.disjoint", "literal", Method::kSmt, smt_method, smt_prove);
}

}  // namespace topocheck::smt
