// The decision of a Metacube problem (smt/metacube_decision.h; smt/metacube_smt.h, "Violations"
// and "Decision"): each Theorem 2 part's violation and the commutation violation as the negation
// of what the core checkers accept (core/checks.h), grouped per path or pair of paths, checked
// split by split with one Z3 context per split, and the first model minimized to the smallest
// violating pair in exhaustive order. Preconditions and cost: smt/metacube_decision.h.
#include "smt/metacube_decision.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck::smt::metacube_encoding {
namespace {

// ---------------------------------------------------------------------------------------------
// Violations (the negation of what the core checkers accept).

// is_last[q]: slot q is present and no later slot is.
std::vector<z3::expr> last_flags(z3::context& ctx, const SymPath& p) {
  std::vector<z3::expr> out(p.size(), ctx.bool_val(false));
  z3::expr none_later = ctx.bool_val(true);
  for (size_t q = p.size(); q-- > 0;) {
    out[q] = p[q].present && none_later;
    none_later = p[q].always ? ctx.bool_val(false) : none_later && !p[q].present;
  }
  return out;
}

// Number of present slots (kCountWidth bits).
z3::expr present_count(z3::context& ctx, const SymPath& p) {
  z3::expr sum = ctx.bv_val(0, kCountWidth);
  for (const Slot& x : p) sum = sum + z3::ite(x.present, ctx.bv_val(1, kCountWidth), ctx.bv_val(0, kCountWidth));
  return sum;
}

// check_path_valid, check_endpoints and check_simple of one path, negated.
z3::expr path_violation(const Space& sp, const SymPath& p, const z3::expr& s, const z3::expr& t) {
  z3::context& ctx = sp.ctx;
  TC_CHECK(!p.empty() && p.front().always, "path_violation: every path starts with a node");
  z3::expr_vector any(ctx);
  // Hops: each present slot is an edge from the last present node before it.
  z3::expr last = p[0].node;
  z3::expr later = ctx.bool_val(false);  // some slot after the first is present
  for (size_t q = 1; q < p.size(); ++q) {
    any.push_back(p[q].present && !sp.is_edge(last, p[q].node));
    last = p[q].always ? p[q].node : z3::ite(p[q].present, p[q].node, last);
    later = later || p[q].present;
  }
  // Endpoints.
  any.push_back(p[0].node != s);
  any.push_back(last != t);
  // Simple, with check_simple's exemption of a closed path's last node.
  const z3::expr closed = later && last == p[0].node;
  const std::vector<z3::expr> is_last = last_flags(ctx, p);
  for (size_t a = 0; a < p.size(); ++a)
    for (size_t b = a + 1; b < p.size(); ++b)
      any.push_back(p[a].present && p[b].present && p[a].node == p[b].node && !(closed && is_last[b]));
  return z3::mk_or(any);
}

// check_internally_node_disjoint for paths P and Q, negated: a node at a position of one path that
// is neither its first nor its last occurs anywhere in the other.
z3::expr pair_violation(const Space& sp, const SymPath& p, const SymPath& q) {
  z3::context& ctx = sp.ctx;
  const std::vector<z3::expr> last_p = last_flags(ctx, p), last_q = last_flags(ctx, q);
  auto internal = [&ctx](const SymPath& path, const std::vector<z3::expr>& is_last, size_t index) {
    return index == 0 ? ctx.bool_val(false) : path[index].present && !is_last[index];
  };
  z3::expr_vector any(ctx);
  for (size_t a = 0; a < p.size(); ++a)
    for (size_t b = 0; b < q.size(); ++b) {
      if (a == 0 && b == 0) continue;  // both s: neither is internal
      const z3::expr guard =
          (internal(p, last_p, a) && q[b].present) || (internal(q, last_q, b) && p[a].present);
      any.push_back(guard && p[a].node == q[b].node);
    }
  return z3::mk_or(any);
}

// check_thm2_length / check_thm2_case_bound of one path, negated.
z3::expr length_violation(const Space& sp, const SymPath& p, const z3::expr& s, const z3::expr& t,
                          const Split& split, Thm2Part part) {
  int extra = sp.h + sp.m + 5;
  if (part == Thm2Part::kCaseBound) {
    if (split.case_number == 0) {
      extra = 6;
    } else if (split.case_number == 1) {
      extra = sp.h + 4;
    } else {
      const int d = std::popcount(static_cast<unsigned>(split.cs ^ split.ct));
      extra = sp.h + 4 + (d < sp.k ? d + 1 : d - 1);
    }
  }
  const z3::expr length = present_count(sp.ctx, p) - sp.ctx.bv_val(1, kCountWidth);
  const z3::expr bound = sp.popcount(s ^ t) + sp.ctx.bv_val(static_cast<uint64_t>(extra), kCountWidth);
  return z3::ugt(length, bound);
}

// P (of (s, t)) XOR a and Q (of (s^a, t^a)) differ as node lists. Slot q of a path holds list
// index "number of present slots before q"; two slots can share an index only if their index
// ranges [always slots before, q] overlap.
z3::expr lists_differ(const Space& sp, const SymPath& p, const SymPath& q, const z3::expr& a) {
  z3::context& ctx = sp.ctx;
  auto indices = [&ctx](const SymPath& path, std::vector<z3::expr>& index, std::vector<int>& lowest) {
    z3::expr sum = ctx.bv_val(0, kCountWidth);
    int always = 0;
    for (const Slot& x : path) {
      index.push_back(sum);
      lowest.push_back(always);
      sum = sum + z3::ite(x.present, ctx.bv_val(1, kCountWidth), ctx.bv_val(0, kCountWidth));
      always += x.always;
    }
    return sum;
  };
  std::vector<z3::expr> ip, iq;
  std::vector<int> lp, lq;
  const z3::expr count_p = indices(p, ip, lp);
  const z3::expr count_q = indices(q, iq, lq);
  z3::expr_vector any(ctx);
  any.push_back(count_p != count_q);
  for (size_t x = 0; x < p.size(); ++x)
    for (size_t y = 0; y < q.size(); ++y) {
      if (static_cast<size_t>(lp[x]) > y || static_cast<size_t>(lq[y]) > x) continue;
      any.push_back(p[x].present && q[y].present && ip[x] == iq[y] && (p[x].node ^ a) != q[y].node);
    }
  return z3::mk_or(any);
}

// P XOR a and Q differ SLOT BY SLOT (a presence differs, or a node of a slot present in both).
// Not list inequality, but implied by it (equal slots give equal lists), and linear in the slots
// where lists_differ is quadratic: its unsat proves a group of the commutation problem cheaply
// (decide() checks it first and falls back to lists_differ only when it is satisfiable).
z3::expr slots_differ(const Space& sp, const SymPath& p, const SymPath& q, const z3::expr& a) {
  z3::expr_vector any(sp.ctx);
  for (size_t x = 0; x < std::max(p.size(), q.size()); ++x) {
    if (x >= p.size()) any.push_back(q[x].present);
    else if (x >= q.size()) any.push_back(p[x].present);
    else any.push_back(p[x].present != q[x].present || (p[x].present && (p[x].node ^ a) != q[x].node));
  }
  return z3::mk_or(any);
}

// A Z3 context with its variables and the rlimit count already accounted for.
struct Context {
  explicit Context(const Metacube& mc) : vars(ctx, mc) {}
  z3::context ctx;
  Vars vars;
  uint64_t counted = 0;
};

// Bitwise minimization of `x` (most significant bit first) under the solver's assertions, which
// must be satisfiable. Returns false if a check was not decided (budget).
bool minimize_bits(z3::solver& solver, const z3::expr& x, unsigned width, Meter& meter, uint64_t& counted) {
  for (unsigned b = width; b-- > 0;) {
    if (meter.exhausted()) return false;
    const z3::expr bit = x.extract(b, b);
    solver.push();
    solver.add(bit == solver.ctx().bv_val(0, 1));
    const z3::check_result r = meter.check(solver, counted);
    solver.pop();
    if (r == z3::unknown) return false;
    solver.add(bit == solver.ctx().bv_val(r == z3::sat ? 0 : 1, 1));
  }
  return true;
}

// After the first violation was found in splits[first]: the smallest violating (s, t) in address
// order. Every split before `first` was proved free of violations, so the smallest pair has
// c_s = splits[first].cs and lies in a split from `first` on with that c_s. Order: M_s, then c_t,
// then M_t (the address of s, then of t). Sets result.s/t/a on success.
void minimize(const Metacube& mc, const Problem& problem, const std::vector<Split>& splits, size_t first,
              Meter& meter, MetacubeSmtResult& result) {
  const int cs = splits[first].cs;
  Context c(mc);
  const Space sp(c.ctx, mc);
  std::vector<std::unique_ptr<SplitEncoding>> encodings;
  std::map<int, z3::expr_vector> by_ct;  // c_t -> the splits' formulas
  std::vector<int> cts;
  for (size_t x = first; x < splits.size() && splits[x].cs == cs; ++x) {
    encodings.push_back(std::make_unique<SplitEncoding>(sp, problem, splits[x], c.vars));
    auto [it, inserted] = by_ct.try_emplace(splits[x].ct, c.ctx);
    if (inserted) cts.push_back(splits[x].ct);
    it->second.push_back(encodings.back()->whole());
  }
  const unsigned width = static_cast<unsigned>(mc.m() * mc.h());
  // M_s.
  z3::expr_vector any(c.ctx);
  for (int ct : cts) any.push_back(z3::mk_or(by_ct.at(ct)));
  z3::solver first_solver(c.ctx, "QF_BV");
  first_solver.add(z3::mk_or(any));
  if (!minimize_bits(first_solver, c.vars.sm, width, meter, c.counted)) return;
  if (meter.exhausted() || meter.check(first_solver, c.counted) != z3::sat) return;
  const uint64_t sm = model_value(first_solver.get_model(), c.vars.sm);
  // c_t, then M_t.
  for (int ct : cts) {
    if (meter.exhausted()) return;
    z3::solver solver(c.ctx, "QF_BV");
    solver.add(c.vars.sm == c.ctx.bv_val(sm, width));
    solver.add(z3::mk_or(by_ct.at(ct)));
    const z3::check_result r = meter.check(solver, c.counted);
    if (r == z3::unknown) return;
    if (r == z3::unsat) continue;
    if (!minimize_bits(solver, c.vars.tm, width, meter, c.counted)) return;
    if (meter.exhausted() || meter.check(solver, c.counted) != z3::sat) return;
    const z3::model model = solver.get_model();
    result.s = node_of(mc, cs, sm);
    result.t = node_of(mc, ct, model_value(model, c.vars.tm));
    if (problem.kind == Kind::kCommutes) result.a = node_of(mc, 0, model_value(model, encodings.front()->a_low));
    result.minimized = true;
    return;
  }
}

}  // namespace

std::vector<Group> problem_groups(const Metacube& mc, const Problem& problem) {
  std::vector<Group> out;
  const int count = mc.k() + mc.m();
  for (int i = 0; i < count; ++i) out.push_back(Group{i, -1});
  if (problem.kind == Kind::kThm2 && problem.part == Thm2Part::kDisjoint)
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j) out.push_back(Group{i, j});
  return out;
}

z3::expr SplitEncoding::group(const Group& g, Thm2Part part) const {
  const auto& P = paths;
  if (problem.kind == Kind::kCommutes) return lists_differ(sp, P[static_cast<size_t>(g.i)], moved[static_cast<size_t>(g.i)], a);
  if (g.j >= 0) return pair_violation(sp, P[static_cast<size_t>(g.i)], P[static_cast<size_t>(g.j)]);
  if (part == Thm2Part::kValid || part == Thm2Part::kDisjoint) return path_violation(sp, P[static_cast<size_t>(g.i)], s, t);
  return length_violation(sp, P[static_cast<size_t>(g.i)], s, t, split, part);
}

std::optional<z3::expr> SplitEncoding::sufficient(const Group& g) const {
  if (problem.kind != Kind::kCommutes) return std::nullopt;
  return slots_differ(sp, paths[static_cast<size_t>(g.i)], moved[static_cast<size_t>(g.i)], a);
}

z3::expr SplitEncoding::whole(Thm2Part part) const {
  z3::expr_vector any(sp.ctx);
  for (const Group& g : problem_groups(sp.mc, Problem{problem.kind, part, problem.options})) any.push_back(group(g, part));
  return pre && z3::mk_or(any);
}

uint64_t model_value(const z3::model& model, const z3::expr& x) {
  return model.eval(x, true).get_numeral_uint64();
}

Node node_of(const Metacube& mc, int cls, uint64_t low) {
  return Node{(static_cast<uint64_t>(cls) << (mc.m() * mc.h())) | low, mc.width()};
}


Metacube make_mc(int k, int m, const char* who) {
  auto mc = Metacube::make(k, m);
  TC_CHECK(mc.ok(), std::string(who) + ": MC(k, m) out of range");
  return *mc;
}

MetacubeSmtResult decide(const Metacube& mc, const Problem& problem, const SolverLimits& limits, bool minimize_model) {
  MetacubeSmtResult result;
  Meter meter(limits);
  auto finish = [&](SmtStatus status, std::string reason = {}) {
    result.status = status;
    result.reason = std::move(reason);
    result.rlimit_used = meter.used;
    result.checks = meter.checks;
    return result;
  };
  try {
    const std::vector<Split> splits = decision_splits(mc, problem.options);
    const std::vector<Group> groups = problem_groups(mc, problem);
    for (size_t x = 0; x < splits.size(); ++x) {
      // One context per split: Z3's set-up cost of a check grows with the terms in its context.
      Context c(mc);
      // A model of a violation in split x: the pair (and translation) it names, minimized on request.
      auto counterexample = [&](const z3::model& model, const SplitEncoding& enc) {
        result.s = node_of(mc, splits[x].cs, model_value(model, c.vars.sm));
        result.t = node_of(mc, splits[x].ct, model_value(model, c.vars.tm));
        if (problem.kind == Kind::kCommutes) result.a = node_of(mc, 0, model_value(model, enc.a_low));
        if (minimize_model) minimize(mc, problem, splits, x, meter, result);
        return finish(SmtStatus::kCounterexample);
      };
      const Space sp(c.ctx, mc);
      const SplitEncoding enc(sp, problem, splits[x], c.vars);
      if (splits[x].lamps >= 0) {
        // A split on D (the m = 1 rules): the paths are concrete moves from the symbolic s, so the
        // whole violation is small; one check per split (2^(2^k) per pair of classes; decision_splits).
        if (auto why = meter.exhausted()) return finish(SmtStatus::kUnknown, *why);
        z3::solver solver(c.ctx, "QF_BV");
        solver.add(enc.pre);
        solver.add(enc.whole());
        const z3::check_result answer = meter.check(solver, c.counted);
        if (answer == z3::unsat) continue;
        if (answer == z3::unknown) return finish(SmtStatus::kUnknown, solver.reason_unknown());
        return counterexample(solver.get_model(), enc);
      }
      for (const Group& g : groups) {
        if (auto why = meter.exhausted()) return finish(SmtStatus::kUnknown, *why);
        if (const auto cheap = enc.sufficient(g)) {
          z3::solver first(c.ctx, "QF_BV");
          first.add(enc.pre);
          first.add(*cheap);
          const z3::check_result answer = meter.check(first, c.counted);
          if (answer == z3::unsat) continue;  // the group's violation implies this one
          if (auto why = meter.exhausted()) return finish(SmtStatus::kUnknown, *why);
        }
        z3::solver solver(c.ctx, "QF_BV");
        solver.add(enc.pre);
        solver.add(enc.group(g));
        const z3::check_result answer = meter.check(solver, c.counted);
        if (answer == z3::unsat) continue;
        if (answer == z3::unknown) return finish(SmtStatus::kUnknown, solver.reason_unknown());
        return counterexample(solver.get_model(), enc);
      }
    }
    return finish(SmtStatus::kProved);
  } catch (const z3::exception& e) {
    result.s.reset();
    result.t.reset();
    result.a.reset();
    result.minimized = false;
    return finish(SmtStatus::kError, fmt::format("Z3 error: {}", e.msg()));
  }
}

}  // namespace topocheck::smt::metacube_encoding
