// hypercube_symbolic.h: the hypercube claims for every n in 1..63 in one query per property group.
#include "smt/hypercube_symbolic.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <z3++.h>

#include "core/status.h"
#include "hypercube/hypercube_checks.h"

namespace topocheck::smt {
namespace {

using hypercube::P3Variant;

// The variables of one query and the terms every group builds on.
struct Vars {
  z3::context& c;
  z3::expr n, x, y;
  explicit Vars(z3::context& ctx)
      : c(ctx), n(ctx.bv_const("n", 64)), x(ctx.bv_const("x", 64)), y(ctx.bv_const("y", 64)) {}

  z3::expr k(uint64_t v) const { return c.bv_val(v, 64); }
  z3::expr bit(const z3::expr& i) const { return z3::shl(k(1), i); }
  z3::expr low(const z3::expr& j) const { return z3::shl(k(1), j) - k(1); }  // j <= 63
  z3::expr full() const { return low(n); }
  // lo <= n <= hi and x, y of n bits.
  z3::expr domain(int lo, int hi) const {
    return z3::uge(n, k(static_cast<uint64_t>(lo))) && z3::ule(n, k(static_cast<uint64_t>(hi))) &&
           (x & ~full()) == k(0) && (y & ~full()) == k(0);
  }
  // The bits set in v (the parallel-sums form, fewer terms, made Z3 slower here: 26.7 s against
  // over 60 s for the lengths group at n = 63).
  z3::expr popcount(const z3::expr& v) const {
    z3::expr sum = k(0);
    for (uint64_t b = 0; b < 64; ++b) sum = sum + (z3::lshr(v, k(b)) & k(1));
    return sum;
  }
  z3::expr one_bit(const z3::expr& v) const { return v != k(0) && (v & (v - k(1))) == k(0); }
};

// Algorithm 2's path i, as the header describes it.
struct Alg2Path {
  const Vars& v;
  z3::expr i;
  P3Variant p3;
  z3::expr x1() const { return v.x ^ v.bit(i); }   // x^(i)
  z3::expr u() const { return x1() ^ v.y; }         // the bits Algorithm 3 flips
  // The last step: n, or n - 1 when the flip of dimension i is missing.
  z3::expr last() const { return p3 == P3Variant::kBrokenMissingFlip ? v.n - v.k(1) : v.n; }
  // R(i, j): the dimensions flipped in steps 1..j.
  z3::expr flipped(const z3::expr& j) const {
    const z3::expr m = v.low(j);
    if (p3 == P3Variant::kBrokenAscendingOrder) return m;
    const z3::expr s = z3::urem(i + v.k(1), v.n);  // dimension of step 1
    return (z3::shl(m, s) | z3::lshr(m, v.n - s)) & v.full();
  }
  z3::expr node(const z3::expr& j) const { return x1() ^ (u() & flipped(j)); }  // v(i, j)
  // Step j lists a node: j = 0 (x^(i)) or a flip at step j.
  z3::expr listed(const z3::expr& j) const {
    return j == v.k(0) || (z3::ugt(j, v.k(0)) && (u() & (flipped(j) ^ flipped(j - v.k(1)))) != v.k(0));
  }
  z3::expr in_range(const z3::expr& j) const { return z3::ule(j, last()); }
  z3::expr path_index() const { return z3::ult(i, v.n); }
};

struct Group {
  std::string name;
  std::function<z3::expr(const Vars&)> violation;
};

std::vector<Group> alg2_groups(SymbolicClaim claim, P3Variant p3) {
  std::vector<Group> out;
  auto path = [p3](const Vars& v, const char* name) { return Alg2Path{v, v.c.bv_const(name, 64), p3}; };
  // Every claim of Algorithm 2 needs paths from x to y.
  out.push_back({"endpoint", [path](const Vars& v) {
                   const Alg2Path p = path(v, "i");
                   return p.path_index() && p.node(p.last()) != v.y;
                 }});
  if (claim == SymbolicClaim::kAlg2Lengths) {
    out.push_back({"lengths", [path](const Vars& v) {
                     const Alg2Path p = path(v, "i");
                     const z3::expr d = v.popcount(v.x ^ v.y);
                     const z3::expr length = v.popcount(p.u() & p.flipped(p.last()));
                     const z3::expr crosses = ((v.x ^ v.y) & v.bit(p.i)) != v.k(0);
                     return p.path_index() && length != z3::ite(crosses, d - v.k(1), d + v.k(1));
                   }});
    return out;
  }
  out.push_back({"valid", [path](const Vars& v) {
                   const Alg2Path p = path(v, "i");
                   const z3::expr j = v.c.bv_const("j", 64);
                   const z3::expr first_hop = !v.one_bit(v.x ^ p.node(v.k(0)));
                   const z3::expr hop = z3::ugt(j, v.k(0)) && p.in_range(j) && p.listed(j) &&
                                        !v.one_bit(p.node(j) ^ p.node(j - v.k(1)));
                   return p.path_index() && (first_hop || hop);
                 }});
  out.push_back({"simple", [path](const Vars& v) {
                   const Alg2Path p = path(v, "i");
                   const z3::expr j = v.c.bv_const("j", 64), j2 = v.c.bv_const("j2", 64);
                   const z3::expr end = p.node(p.last());
                   // x again, except as the last node of a closed path (x = y).
                   const z3::expr x_again = p.in_range(j) && p.listed(j) && p.node(j) == v.x &&
                                            !(p.node(j) == end && v.x == v.y);
                   const z3::expr twice = z3::ult(j, j2) && p.in_range(j2) && p.listed(j) && p.listed(j2) &&
                                          p.node(j) == p.node(j2);
                   return p.path_index() && (x_again || twice);
                 }});
  out.push_back({"disjoint", [path](const Vars& v) {
                   const Alg2Path p = path(v, "i"), q = path(v, "i2");
                   const z3::expr j = v.c.bv_const("j", 64), j2 = v.c.bv_const("j2", 64);
                   const z3::expr w = p.node(j);
                   const z3::expr internal = z3::ult(j, p.last()) && w != v.x && w != p.node(p.last());
                   const z3::expr on_q = w == v.x || (q.in_range(j2) && w == q.node(j2));
                   return p.path_index() && q.path_index() && p.i != q.i && internal && on_q;
                 }});
  return out;
}

// The e-cube route: from s (x, or x^(0) first under the broken detour) the nodes
// s XOR (d_s AND (2^t - 1)), t = 0..n, d_s = s XOR y.
std::vector<Group> ecube_groups(bool broken_first_hop) {
  auto start = [broken_first_hop](const Vars& v) {
    const z3::expr d = v.x ^ v.y;
    if (!broken_first_hop) return v.x;
    return z3::ite(d != v.k(0) && (d & v.k(1)) == v.k(0), v.x ^ v.k(1), v.x);
  };
  auto node = [start](const Vars& v, const z3::expr& t) {
    const z3::expr s = start(v);
    return s ^ ((s ^ v.y) & v.low(t));
  };
  std::vector<Group> out;
  out.push_back({"endpoint", [node](const Vars& v) { return node(v, v.n) != v.y; }});
  out.push_back({"valid", [start, node](const Vars& v) {
                   const z3::expr t = v.c.bv_const("t", 64);
                   const z3::expr s = start(v);
                   const z3::expr detour = s != v.x && !v.one_bit(s ^ v.x);
                   const z3::expr h = node(v, t) ^ node(v, t - v.k(1));
                   return detour || (z3::uge(t, v.k(1)) && z3::ule(t, v.n) && h != v.k(0) && !v.one_bit(h));
                 }});
  out.push_back({"length", [start, node](const Vars& v) {
                   z3::expr hops = z3::ite(start(v) != v.x, v.k(1), v.k(0));
                   for (uint64_t t = 1; t <= kSymbolicMaxN; ++t)
                     hops = hops + z3::ite(z3::ule(v.k(t), v.n) && node(v, v.k(t)) != node(v, v.k(t - 1)), v.k(1), v.k(0));
                   return hops != v.popcount(v.x ^ v.y);
                 }});
  return out;
}

uint64_t model_value(const z3::model& m, const z3::expr& e) {
  return m.eval(e, true).get_numeral_uint64();
}

}  // namespace

std::string to_string(SymbolicClaim claim) {
  switch (claim) {
    case SymbolicClaim::kAlg2Disjoint: return "hypercube.alg2.disjoint";
    case SymbolicClaim::kAlg2Lengths: return "hypercube.alg2.lengths";
    case SymbolicClaim::kEcubeShortest: return "hypercube.ecube.shortest";
  }
  return "?";
}

namespace {

struct Answer {
  SmtStatus status = SmtStatus::kError;
  std::string reason;
  uint64_t rlimit = 0;
  int n = 0;
  uint64_t x = 0, y = 0;
};

// One query: the group's violation with lo <= n <= hi.
Answer query(const Group& g, int lo, int hi, const claims::SolverLimits& limits) {
  Answer a;
  try {
    z3::context c;
    const Vars v(c);
    z3::solver solver(c, "QF_BV");
    z3::params p(c);
    if (limits.rlimit != 0) p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(limits.rlimit, UINT_MAX)));
    if (limits.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(std::min<uint64_t>(limits.timeout_ms, UINT_MAX)));
    solver.set(p);
    solver.add(v.domain(lo, hi) && g.violation(v));
    const z3::check_result answer = solver.check();
    a.rlimit = rlimit_count(solver);
    if (answer == z3::unsat) {
      a.status = SmtStatus::kProved;
    } else if (answer == z3::sat) {
      const z3::model m = solver.get_model();
      a.status = SmtStatus::kCounterexample;
      a.n = static_cast<int>(model_value(m, v.n));
      a.x = model_value(m, v.x);
      a.y = model_value(m, v.y);
    } else {
      a.status = SmtStatus::kUnknown;
      a.reason = solver.reason_unknown();
    }
  } catch (const z3::exception& e) {
    a.status = SmtStatus::kError;
    a.reason = fmt::format("Z3 error: {}", e.msg());
  }
  return a;
}

}  // namespace

std::string ranges_text(const std::vector<std::pair<int, int>>& ranges) {
  std::vector<std::string> parts;
  for (const auto& [a, b] : ranges) parts.push_back(a == b ? std::to_string(a) : fmt::format("{}..{}", a, b));
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", "));
}

SymbolicResult prove_for_sizes(SymbolicClaim claim, int lo, int hi, const claims::SolverLimits& limits, P3Variant p3,
                               bool ecube_broken_first_hop, bool split) {
  TC_CHECK(1 <= lo && lo <= hi && hi <= kSymbolicMaxN, fmt::format("prove_for_sizes: n = {}..{}", lo, hi));
  SymbolicResult result;
  const std::vector<Group> groups =
      claim == SymbolicClaim::kEcubeShortest ? ecube_groups(ecube_broken_first_hop) : alg2_groups(claim, p3);
  std::vector<std::string> open;
  for (const Group& g : groups) {
    SymbolicGroup out;
    out.name = g.name;
    const auto start = std::chrono::steady_clock::now();
    // Ranges of n still to decide, the lowest on top: a range the solver cannot decide within the
    // limits is halved (with `split`) down to single sizes.
    std::vector<std::pair<int, int>> todo{{lo, hi}};
    while (!todo.empty()) {
      const auto [a, b] = todo.back();
      todo.pop_back();
      const Answer ans = query(g, a, b, limits);
      out.rlimit_used += ans.rlimit;
      if (ans.status == SmtStatus::kProved) {
        if (!out.proved.empty() && out.proved.back().second + 1 == a) out.proved.back().second = b;
        else out.proved.emplace_back(a, b);
        continue;
      }
      if (ans.status == SmtStatus::kUnknown && split && a < b) {
        const int mid = a + (b - a) / 2;
        todo.emplace_back(mid + 1, b);
        todo.emplace_back(a, mid);
        continue;
      }
      if (ans.status == SmtStatus::kUnknown) {
        out.inconclusive.emplace_back(a, b);
        out.reason = ans.reason;
        continue;
      }
      out.status = ans.status;
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      result.groups.push_back(out);
      if (ans.status == SmtStatus::kError) {
        result.status = SmtStatus::kError;
        result.reason = fmt::format("group {}: {}", g.name, ans.reason);
        return result;
      }
      // A model is only a candidate: the claim's checker decides, at the model's n.
      result.n = ans.n;
      result.x = Node{ans.x, ans.n};
      result.y = Node{ans.y, ans.n};
      const auto cube = hypercube::Hypercube::make(ans.n);
      Violation judged;
      if (!cube) {
        judged = std::nullopt;
      } else if (claim == SymbolicClaim::kAlg2Disjoint) {
        judged = hypercube::check_alg2_disjoint(*cube, *result.x, *result.y, p3);
      } else if (claim == SymbolicClaim::kAlg2Lengths) {
        judged = hypercube::check_alg2_lengths(*cube, *result.x, *result.y, p3);
      } else {
        judged = hypercube::check_ecube_shortest(
            *cube, *result.x, *result.y,
            ecube_broken_first_hop ? hypercube::EcubeVariant::kBrokenFirstHop : hypercube::EcubeVariant::kAsPrinted);
      }
      if (judged) {
        result.status = SmtStatus::kCounterexample;
        result.violation = *judged;
      } else {
        result.status = SmtStatus::kError;
        result.reason = fmt::format("group {}: the model n = {}, x = {}, y = {} passes the checker (an error of the "
                                    "encoding)",
                                    g.name, ans.n, result.x->to_string(), result.y->to_string());
      }
      return result;
    }
    out.status = out.inconclusive.empty() ? SmtStatus::kProved : SmtStatus::kUnknown;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!out.inconclusive.empty())
      open.push_back(fmt::format("group {}: n = {} ({})", g.name, ranges_text(out.inconclusive), out.reason));
    result.groups.push_back(out);
  }
  result.status = open.empty() ? SmtStatus::kProved : SmtStatus::kUnknown;
  result.reason = fmt::format("{}", fmt::join(open, "; "));
  return result;
}

SymbolicResult prove_for_every_n(SymbolicClaim claim, const claims::SolverLimits& limits, P3Variant p3,
                                 bool ecube_broken_first_hop) {
  return prove_for_sizes(claim, 1, kSymbolicMaxN, limits, p3, ecube_broken_first_hop);
}

std::vector<uint64_t> alg2_encoded_path(int n, uint64_t x, uint64_t y, int i, P3Variant p3) {
  z3::context c;
  const Vars v(c);
  const Alg2Path p{v, c.bv_const("i", 64), p3};
  z3::solver solver(c);
  solver.add(v.n == v.k(static_cast<uint64_t>(n)) && v.x == v.k(x) && v.y == v.k(y) &&
             p.i == v.k(static_cast<uint64_t>(i)));
  TC_CHECK(solver.check() == z3::sat, "alg2_encoded_path: the concrete values are unsatisfiable");
  const z3::model m = solver.get_model();
  std::vector<uint64_t> nodes{x};
  const int last = p3 == P3Variant::kBrokenMissingFlip ? n - 1 : n;
  for (int j = 0; j <= last; ++j) {
    const z3::expr jj = v.k(static_cast<uint64_t>(j));
    if (m.eval(p.listed(jj), true).is_true()) nodes.push_back(model_value(m, p.node(jj)));
  }
  return nodes;
}

}  // namespace topocheck::smt
