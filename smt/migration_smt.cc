#include "smt/migration_smt.h"

#include "migration/packings.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "core/checks.h"
#include "hypercube/hypercube.h"

namespace topocheck::smt {

using claims::MethodResult;
using claims::SolverLimits;
using migration::Alpha;
using migration::Bars;
using migration::Blocks;
using migration::Disjointness;
using migration::Instance;

namespace {

// ---------------------------------------------------------------------------------------------
// Solving (as itm_smt.cc): the checks of one call share the limits; each gets the rlimit and the
// time the earlier ones left.

struct Tally {
  SmtStatus status = SmtStatus::kProved;
  std::string reason;
  uint64_t rlimit_used = 0;
  int checks = 0;
};

class Checker {
 public:
  Checker(z3::context& ctx, const SolverLimits& limits, Tally& tally)
      : ctx_(ctx), limits_(limits), tally_(tally),
        deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}

  // Checks the conjunction of `formula`. Returns the model when satisfiable; otherwise nullopt
  // with tally.status kProved (unsat) or kUnknown (and the reason). `logic`: "QF_BV" for the
  // isomorphisms, "QF_FD" (Booleans with cardinality constraints) for the flows.
  std::optional<z3::model> check(const z3::expr_vector& formula, const char* logic) {
    const uint64_t budget = std::min<uint64_t>(limits_.rlimit, UINT_MAX);  // Z3 takes an unsigned
    if (limits_.rlimit != 0 && tally_.rlimit_used >= budget) return unknown("max. resource limit exceeded");
    const auto left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
    if (limits_.timeout_ms != 0 && left_ms <= 0) return unknown("timeout");
    z3::solver solver(ctx_, logic);
    z3::params p(ctx_);
    if (limits_.rlimit != 0) p.set("rlimit", static_cast<unsigned>(budget - tally_.rlimit_used));
    if (limits_.timeout_ms != 0) p.set("timeout", static_cast<unsigned>(left_ms));
    solver.set(p);
    solver.add(formula);
    const z3::check_result answer = solver.check();
    // The statistic is the context's running count: add only this check's part.
    const uint64_t count = rlimit_count(solver);
    tally_.rlimit_used += count - std::min(count, counted_);
    counted_ = count;
    ++tally_.checks;
    if (answer == z3::unsat) {
      tally_.status = SmtStatus::kProved;
      return std::nullopt;
    }
    if (answer == z3::unknown) return unknown(solver.reason_unknown());
    tally_.status = SmtStatus::kCounterexample;
    return solver.get_model();
  }

 private:
  std::optional<z3::model> unknown(const std::string& reason) {
    tally_.status = SmtStatus::kUnknown;
    tally_.reason = reason;
    return std::nullopt;
  }
  z3::context& ctx_;
  SolverLimits limits_;
  Tally& tally_;
  std::chrono::steady_clock::time_point deadline_;
  uint64_t counted_ = 0;  // the context's rlimit count already added to tally.rlimit_used
};

uint64_t bit_of(int i) { return uint64_t{1} << i; }

uint64_t eval_bv(const z3::model& model, const z3::expr& e) {
  return model.eval(e, true).get_numeral_uint64();
}

bool eval_bool(const z3::model& model, const z3::expr& e) { return model.eval(e, true).is_true(); }

// At most one of `es`, pairwise (plain clauses: the bit-vector solver has no cardinality theory).
z3::expr at_most_one(const z3::expr_vector& es) {
  z3::expr_vector pairs(es.ctx());
  for (unsigned i = 0; i < es.size(); ++i)
    for (unsigned k = i + 1; k < es.size(); ++k) pairs.push_back(!(es[i] && es[k]));
  return z3::mk_and(pairs);
}

// ---------------------------------------------------------------------------------------------
// (1) The isomorphisms, from the paper's formulas (see the header).

// A pair (S, T) with alpha, any part of which may be symbolic.
struct SymPair {
  int n = 0;
  z3::expr DS, DT, Sv, Tv;                // bit-vectors of width n
  std::vector<std::vector<z3::expr>> a;   // a[j][i]: alpha(j) = i
  z3::expr_vector wellformed;             // Sv, Tv zero on the free dimensions; alpha a bijection

  explicit SymPair(z3::context& ctx, int width)
      : n(width), DS(ctx), DT(ctx), Sv(ctx), Tv(ctx), wellformed(ctx) {}

  z3::context& ctx() const { return DS.ctx(); }
  z3::expr bit(const z3::expr& bv, int i) const { return bv.extract(i, i) == ctx().bv_val(1, 1); }
  z3::expr s_free(int i) const { return bit(DS, i); }
  z3::expr t_free(int i) const { return bit(DT, i); }
  z3::expr s_bit(int i) const { return bit(Sv, i); }  // S[i] where S is fixed
  z3::expr t_bit(int i) const { return bit(Tv, i); }  // T[i] where T is fixed
  // The four sets of Section 2.2, per dimension.
  z3::expr in_I(int i) const {
    return (s_free(i) && t_free(i)) || (!s_free(i) && !t_free(i) && s_bit(i) == t_bit(i));
  }
  z3::expr in_C(int i) const { return !s_free(i) && !t_free(i) && s_bit(i) != t_bit(i); }
  z3::expr in_DSmT(int i) const { return s_free(i) && !t_free(i); }
  z3::expr in_DTmS(int i) const { return !s_free(i) && t_free(i); }

  // alpha(j) = i only between D(S)-D(T) and D(T)-D(S), and a bijection between them.
  void add_alpha_constraints() {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) wellformed.push_back(z3::implies(a[j][i], in_DSmT(j) && in_DTmS(i)));
    for (int j = 0; j < n; ++j) {
      z3::expr_vector row(ctx());
      for (int i = 0; i < n; ++i) row.push_back(a[j][i]);
      wellformed.push_back(z3::implies(in_DSmT(j), z3::mk_or(row)));
      wellformed.push_back(at_most_one(row));
    }
    for (int i = 0; i < n; ++i) {
      z3::expr_vector column(ctx());
      for (int j = 0; j < n; ++j) column.push_back(a[j][i]);
      wellformed.push_back(z3::implies(in_DTmS(i), z3::mk_or(column)));
      wellformed.push_back(at_most_one(column));
    }
  }
  void add_value_constraints() {
    const z3::expr zero = ctx().bv_val(0, n);
    wellformed.push_back((Sv & DS) == zero);
    wellformed.push_back((Tv & DT) == zero);
  }
};

std::vector<std::vector<z3::expr>> constant_alpha(z3::context& ctx, int n, const std::vector<std::pair<int, int>>& alpha) {
  std::vector<std::vector<z3::expr>> a(n, std::vector<z3::expr>(n, ctx.bool_val(false)));
  for (const auto& [j, i] : alpha) a[j][i] = ctx.bool_val(true);
  return a;
}

// Everything symbolic: every (S, T) of equal dimension (forced by alpha) and every alpha.
SymPair symbolic_pair(z3::context& ctx, int n) {
  SymPair p(ctx, n);
  p.DS = ctx.bv_const("DS", n);
  p.DT = ctx.bv_const("DT", n);
  p.Sv = ctx.bv_const("Sv", n);
  p.Tv = ctx.bv_const("Tv", n);
  p.a.assign(n, {});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) p.a[j].push_back(ctx.bool_const(fmt::format("a_{}_{}", j, i).c_str()));
  p.add_value_constraints();
  p.add_alpha_constraints();
  return p;
}

// Masks and alpha given; the fixed bits of S and T symbolic.
SymPair masks_pair(z3::context& ctx, int n, uint64_t ds, uint64_t dt, const std::vector<std::pair<int, int>>& alpha) {
  SymPair p(ctx, n);
  p.DS = ctx.bv_val(ds, n);
  p.DT = ctx.bv_val(dt, n);
  p.Sv = ctx.bv_const("Sv", n);
  p.Tv = ctx.bv_const("Tv", n);
  p.a = constant_alpha(ctx, n, alpha);
  p.add_value_constraints();
  p.add_alpha_constraints();  // constants: a sanity check of the enumeration
  return p;
}

SymPair instance_pair(z3::context& ctx, const Instance& inst, const Alpha& alpha) {
  const int n = inst.n;
  SymPair p(ctx, n);
  p.DS = ctx.bv_val(inst.S.free_mask, n);
  p.DT = ctx.bv_val(inst.T.free_mask, n);
  p.Sv = ctx.bv_val(inst.S.values, n);
  p.Tv = ctx.bv_val(inst.T.values, n);
  p.a = constant_alpha(ctx, n, alpha.map);
  p.add_alpha_constraints();
  return p;
}

using Bits = std::vector<z3::expr>;  // Booleans, index = dimension

Bits bits_of(const SymPair& p, const z3::expr& bv) {
  Bits out;
  for (int i = 0; i < p.n; ++i) out.push_back(p.bit(bv, i));
  return out;
}

// f(u) (complement_on_equal = bars.f_complements_on_equal) or g(u) (g's bar), bit by bit as
// printed in Section 2.2 and equation (1); `no_complement`: the broken control.
Bits image(const SymPair& p, const Bits& u, bool complement_on_equal, bool no_complement) {
  z3::context& ctx = p.ctx();
  Bits out;
  for (int i = 0; i < p.n; ++i) {
    // i in D(T)-D(S): complement u[i] in the barred case of j = alpha^-1(i).
    z3::expr_vector barred(ctx);
    for (int j = 0; j < p.n; ++j) {
      const z3::expr equal = u[j] == p.t_bit(j);
      barred.push_back(p.a[j][i] && (complement_on_equal ? equal : !equal));
    }
    const z3::expr complemented = no_complement ? ctx.bool_val(false) : z3::mk_or(barred);
    out.push_back(z3::ite(p.in_I(i), u[i],
                          z3::ite(p.in_C(i) || p.in_DSmT(i), p.t_bit(i), u[i] != complemented)));
  }
  return out;
}

// h(v)[i] = v[i] complemented exactly on D(T)-D(S) (equation 2).
Bits h_image(const SymPair& p, const Bits& v) {
  Bits out;
  for (int i = 0; i < p.n; ++i) out.push_back(v[i] != p.in_DTmS(i));
  return out;
}

z3::expr in_cube(const SymPair& p, const Bits& x, bool source) {
  z3::expr_vector each(p.ctx());
  for (int i = 0; i < p.n; ++i)
    each.push_back(source ? (p.s_free(i) || x[i] == p.s_bit(i)) : (p.t_free(i) || x[i] == p.t_bit(i)));
  return z3::mk_and(each);
}

z3::expr equal(const SymPair& p, const Bits& x, const Bits& y) {
  z3::expr_vector each(p.ctx());
  for (int i = 0; i < p.n; ++i) each.push_back(x[i] == y[i]);
  return z3::mk_and(each);
}

// x ~ y: they differ in exactly one bit.
z3::expr adjacent(const SymPair& p, const Bits& x, const Bits& y) {
  z3::expr_vector differ(p.ctx());
  for (int i = 0; i < p.n; ++i) differ.push_back(x[i] != y[i]);
  z3::expr_vector pairs(p.ctx());
  for (int i = 0; i < p.n; ++i)
    for (int k = i + 1; k < p.n; ++k) pairs.push_back(!(differ[i] && differ[k]));
  return z3::mk_or(differ) && z3::mk_and(pairs);
}

bool is_g(IsoProperty property) {
  return property == IsoProperty::kGMapsInto || property == IsoProperty::kGInjective ||
         property == IsoProperty::kGAdjacency;
}
bool uses_v(IsoProperty property) {
  return property == IsoProperty::kFInjective || property == IsoProperty::kGInjective ||
         property == IsoProperty::kFAdjacency || property == IsoProperty::kGAdjacency;
}

// The violation of `property` on the pair p (plus p's well-formedness), over u and v.
z3::expr_vector violation(const SymPair& p, Bars bars, IsoProperty property, GEncoding g_encoding,
                          const z3::expr& u_bv, const z3::expr& v_bv) {
  z3::expr_vector out(p.ctx());
  for (unsigned k = 0; k < p.wellformed.size(); ++k) out.push_back(p.wellformed[k]);
  const Bits u = bits_of(p, u_bv), v = bits_of(p, v_bv);
  const bool broken = g_encoding == GEncoding::kBrokenNoComplement;
  auto map = [&](const Bits& x, bool g) {
    return g ? image(p, x, bars.g_complements_on_equal, broken) : image(p, x, bars.f_complements_on_equal, false);
  };
  const bool g = is_g(property);
  out.push_back(in_cube(p, u, true));
  switch (property) {
    case IsoProperty::kFMapsInto:
    case IsoProperty::kGMapsInto: out.push_back(!in_cube(p, map(u, g), false)); break;
    case IsoProperty::kFInjective:
    case IsoProperty::kGInjective:
      out.push_back(in_cube(p, v, true));
      out.push_back(!equal(p, u, v));
      out.push_back(equal(p, map(u, g), map(v, g)));
      break;
    case IsoProperty::kFAdjacency:
    case IsoProperty::kGAdjacency:
      out.push_back(in_cube(p, v, true));
      out.push_back(adjacent(p, u, v) != adjacent(p, map(u, g), map(v, g)));
      break;
    case IsoProperty::kGIsHOfF: out.push_back(!equal(p, map(u, true), h_image(p, map(u, false)))); break;
  }
  return out;
}

IsoModel decode_iso(const z3::model& model, const SymPair& p, const z3::expr& u, const z3::expr& v) {
  IsoModel m;
  const int n = p.n;
  m.S = Subcube{eval_bv(model, p.DS), eval_bv(model, p.Sv), n};
  m.T = Subcube{eval_bv(model, p.DT), eval_bv(model, p.Tv), n};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (eval_bool(model, p.a[j][i])) m.alpha.emplace_back(j, i);
  m.u = Node{eval_bv(model, u), n};
  m.v = Node{eval_bv(model, v), n};
  return m;
}

IsoSmtResult to_iso_result(const Tally& tally) {
  IsoSmtResult r;
  r.status = tally.status;
  r.reason = tally.reason;
  r.rlimit_used = tally.rlimit_used;
  r.checks = tally.checks;
  return r;
}

IsoSmtResult iso_z3_error(const z3::exception& e) {
  IsoSmtResult r;
  r.status = SmtStatus::kError;
  r.reason = fmt::format("Z3 error: {}", e.msg());
  return r;
}

// Every alpha between the masks: the j-th smallest of D(S)-D(T) to perm[j] of D(T)-D(S).
std::vector<std::vector<std::pair<int, int>>> alphas_between(uint64_t dsmt, uint64_t dtms) {
  std::vector<int> from, to;
  for (int i = 0; i < 64; ++i) {
    if (dsmt & bit_of(i)) from.push_back(i);
    if (dtms & bit_of(i)) to.push_back(i);
  }
  std::vector<std::vector<std::pair<int, int>>> out;
  do {
    std::vector<std::pair<int, int>> a;
    for (size_t k = 0; k < from.size(); ++k) a.emplace_back(from[k], to[k]);
    out.push_back(std::move(a));
  } while (std::next_permutation(to.begin(), to.end()));
  return out;
}

std::string alpha_text(const std::vector<std::pair<int, int>>& alpha) {
  std::string s;
  for (const auto& [j, i] : alpha) s += fmt::format("{}{}:{}", s.empty() ? "" : ",", j, i);
  return s;
}

}  // namespace

std::string to_string(IsoProperty property) {
  switch (property) {
    case IsoProperty::kFMapsInto: return "f-maps-into";
    case IsoProperty::kGMapsInto: return "g-maps-into";
    case IsoProperty::kFInjective: return "f-injective";
    case IsoProperty::kGInjective: return "g-injective";
    case IsoProperty::kFAdjacency: return "f-adjacency";
    case IsoProperty::kGAdjacency: return "g-adjacency";
    case IsoProperty::kGIsHOfF: return "g-is-h-of-f";
  }
  return "?";
}

std::string to_string(IsoEncoding encoding) {
  return encoding == IsoEncoding::kSymbolic ? "symbolic" : "per-masks";
}

std::string to_string(GEncoding encoding) {
  return encoding == GEncoding::kFaithful ? "faithful" : "broken-no-complement";
}

IsoSmtResult prove_isomorphism_property(int n, Bars bars, IsoProperty property, const SolverLimits& limits,
                                        IsoEncoding encoding, GEncoding g_encoding) {
  TC_CHECK(n >= 1 && n <= kMigrationSmtMaxN, "prove_isomorphism_property: n out of range");
  Tally tally;
  try {
    z3::context ctx;
    Checker checker(ctx, limits, tally);
    const z3::expr u = ctx.bv_const("u", n), v = ctx.bv_const("v", n);
    auto one = [&](const SymPair& p) -> std::optional<IsoSmtResult> {
      const auto model = checker.check(violation(p, bars, property, g_encoding, u, v), "QF_BV");
      if (tally.status == SmtStatus::kProved) return std::nullopt;
      IsoSmtResult r = to_iso_result(tally);
      if (model) r.model = decode_iso(*model, p, u, v);
      return r;
    };
    if (encoding == IsoEncoding::kSymbolic) {
      if (auto r = one(symbolic_pair(ctx, n))) return *r;
      return to_iso_result(tally);
    }
    const uint64_t all = (uint64_t{1} << n) - 1;
    for (uint64_t ds = 0; ds <= all; ++ds)
      for (uint64_t dt = 0; dt <= all; ++dt) {
        if (std::popcount(ds) != std::popcount(dt)) continue;
        for (const auto& alpha : alphas_between(ds & ~dt, dt & ~ds))
          if (auto r = one(masks_pair(ctx, n, ds, dt, alpha))) return *r;
      }
  } catch (const z3::exception& e) {
    return iso_z3_error(e);
  }
  return to_iso_result(tally);
}

IsoSmtResult prove_isomorphism_instance(const Instance& inst, const Alpha& alpha, Bars bars, IsoProperty property,
                                        const SolverLimits& limits, GEncoding g_encoding) {
  TC_CHECK(inst.n >= 1 && inst.n <= kMigrationSmtMaxN, "prove_isomorphism_instance: n out of range");
  Tally tally;
  try {
    z3::context ctx;
    Checker checker(ctx, limits, tally);
    const z3::expr u = ctx.bv_const("u", inst.n), v = ctx.bv_const("v", inst.n);
    const SymPair p = instance_pair(ctx, inst, alpha);
    const auto model = checker.check(violation(p, bars, property, g_encoding, u, v), "QF_BV");
    IsoSmtResult r = to_iso_result(tally);
    if (model) r.model = decode_iso(*model, p, u, v);
    return r;
  } catch (const z3::exception& e) {
    return iso_z3_error(e);
  }
}

Result<Violation> judge_isomorphism_model(Bars bars, IsoProperty property, const IsoModel& m) {
  auto inst = migration::make_instance(m.S, m.T);
  if (!inst) return Error{ErrorCode::kInternal, "model is not an instance: " + inst.error().message, {}, 0};
  // alpha: exactly the pairs of a bijection D(S)-D(T) -> D(T)-D(S).
  uint64_t from = 0, to = 0;
  for (const auto& [j, i] : m.alpha) {
    if (j < 0 || j >= inst->n || i < 0 || i >= inst->n || (from & bit_of(j)) || (to & bit_of(i)))
      return Error{ErrorCode::kInternal, "model's alpha is not a bijection: " + alpha_text(m.alpha), {}, 0};
    from |= bit_of(j);
    to |= bit_of(i);
  }
  if (from != inst->DSmT || to != inst->DTmS)
    return Error{ErrorCode::kInternal, "model's alpha is not D(S)-D(T) -> D(T)-D(S): " + alpha_text(m.alpha), {}, 0};
  Alpha alpha{m.alpha};
  std::sort(alpha.map.begin(), alpha.map.end());
  if (!m.S.contains(m.u) || (uses_v(property) && !m.S.contains(m.v)))
    return Error{ErrorCode::kInternal, "model's u or v is not in S", {}, 0};
  const bool g = is_g(property);
  auto map = [&](Node x) { return g ? migration::g(*inst, alpha, x, bars) : migration::f(*inst, alpha, x, bars); };
  const char* name = g ? "g" : "f";
  switch (property) {
    case IsoProperty::kFMapsInto:
    case IsoProperty::kGMapsInto:
      if (!m.T.contains(map(m.u))) return Violation{fmt::format("{}({}) = {} is not in T = {}", name, m.u, map(m.u), m.T)};
      return Violation{};
    case IsoProperty::kFInjective:
    case IsoProperty::kGInjective:
      if (m.u != m.v && map(m.u) == map(m.v))
        return Violation{fmt::format("{0}({1}) = {0}({2}) = {3}", name, m.u, m.v, map(m.u))};
      return Violation{};
    case IsoProperty::kFAdjacency:
    case IsoProperty::kGAdjacency: {
      const bool before = hamming(m.u, m.v) == 1, after = hamming(map(m.u), map(m.v)) == 1;
      if (before != after)
        return Violation{fmt::format("{} and {} are {}adjacent but {}({}) = {} and {}({}) = {} are {}adjacent", m.u, m.v,
                                     before ? "" : "not ", name, m.u, map(m.u), name, m.v, map(m.v),
                                     after ? "" : "not ")};
      return Violation{};
    }
    case IsoProperty::kGIsHOfF: {
      const Node gu = migration::g(*inst, alpha, m.u, bars);
      const Node hfu = migration::h(*inst, migration::f(*inst, alpha, m.u, bars));
      if (gu != hfu) return Violation{fmt::format("g({}) = {} but h(f({})) = {}", m.u, gu, m.u, hfu)};
      return Violation{};
    }
  }
  return Violation{};
}

Result<MethodResult> prove_isomorphisms(int n, Bars bars, IsoProperty which, const SolverLimits& limits) {
  if (n < 1 || n > kMigrationSmtMaxN)
    return invalid_argument(fmt::format("params.n: {} is outside 1..{}", n, kMigrationSmtMaxN));
  MethodResult result;
  result.method = claims::Method::kSmt;
  result.scope = fmt::format("n = {}, every (S, T) of equal dimension and every alpha, {} (Z3 proof, bars {}, rlimit {})",
                             n, to_string(which), bars.to_string(), limits.rlimit);
  const IsoSmtResult smt = prove_isomorphism_property(n, bars, which, limits);
  if (settle(smt.status, fmt::format("n = {}", n), smt.reason, result)) return result;
  auto model_error = [&](const std::string& why) {
    result.outcome = claims::Outcome::kError;
    result.detail = fmt::format("n = {}: SMT model disagrees with migration::f/g/h: {}", n, why);
    return result;
  };
  if (!smt.model) return model_error("no model");
  const IsoModel& m = *smt.model;
  const Result<Violation> judged = judge_isomorphism_model(bars, which, m);
  if (!judged) return model_error(judged.error().message);
  if (!*judged)
    return model_error(fmt::format("S = {}, T = {}, alpha = {}, u = {}, v = {} satisfies {}", m.S, m.T,
                                   alpha_text(m.alpha), m.u, m.v, to_string(which)));
  const Instance inst = migration::make_instance(m.S, m.T).value();
  Alpha alpha{m.alpha};
  std::sort(alpha.map.begin(), alpha.map.end());
  result.outcome = claims::Outcome::kRefuted;
  result.cases = 1;
  result.detail = **judged;
  claims::Counterexample cx;
  cx.params = {{"n", n}, {"bars", bars.to_string()}, {"property", to_string(which)}};
  cx.input = {{"S", m.S.to_string()}, {"T", m.T.to_string()}, {"alpha", alpha.to_string()}, {"u", m.u.to_string()}};
  if (uses_v(which)) cx.input["v"] = m.v.to_string();
  cx.violation = **judged;
  const Node fu = migration::f(inst, alpha, m.u, bars);
  cx.witness = {{"f_u", fu.to_string()},
                {"g_u", migration::g(inst, alpha, m.u, bars).to_string()},
                {"h_f_u", migration::h(inst, fu).to_string()}};
  if (uses_v(which)) {
    cx.witness["f_v"] = migration::f(inst, alpha, m.v, bars).to_string();
    cx.witness["g_v"] = migration::g(inst, alpha, m.v, bars).to_string();
  }
  result.counterexample = std::move(cx);
  return result;
}

// ---------------------------------------------------------------------------------------------
// (2) Completeness oracle.

namespace {

struct Commodity {
  Node s, t;  // u and g(u)
};

// The flow formula (see the header). x[c][a * n + d] is the directed link a -> a^(d).
class Flow {
 public:
  Flow(z3::context& ctx, int n, const Blocks& blocks, Disjointness reading, const std::vector<Commodity>& commodities,
       const std::vector<Path>& fixed)
      : ctx_(ctx), n_(n), commodities_(commodities), formula_(ctx) {
    const uint64_t nodes = uint64_t{1} << n;
    // What the fixed paths use.
    std::set<std::pair<uint64_t, uint64_t>> fixed_directed;  // (a, b)
    std::vector<int> fixed_contains(nodes, 0);
    std::vector<bool> fixed_internal(nodes, false);
    for (const Path& p : fixed) {
      for (size_t k = 0; k < p.nodes.size(); ++k) {
        ++fixed_contains[p.nodes[k].bits];
        if (k > 0 && k + 1 < p.nodes.size()) fixed_internal[p.nodes[k].bits] = true;
        if (k + 1 < p.nodes.size()) fixed_directed.emplace(p.nodes[k].bits, p.nodes[k + 1].bits);
      }
    }
    auto forbidden = [&](uint64_t a, uint64_t b) {
      if (migration::is_block_link(blocks, Node{a, n}, Node{b, n})) return true;
      switch (reading) {
        case Disjointness::kNode: return false;
        case Disjointness::kLink: return fixed_directed.count({a, b}) + fixed_directed.count({b, a}) > 0;
        case Disjointness::kDirectedLink: return fixed_directed.count({a, b}) > 0;
      }
      return false;
    };
    // Variables.
    x_.resize(commodities.size());
    for (size_t c = 0; c < commodities.size(); ++c)
      for (uint64_t a = 0; a < nodes; ++a)
        for (int d = 0; d < n; ++d) {
          const uint64_t b = a ^ bit_of(d);
          x_[c].push_back(forbidden(a, b) ? ctx.bool_val(false)
                                          : ctx.bool_const(fmt::format("x_{}_{}_{}", c, a, d).c_str()));
        }
    // A path per commodity (plus stray cycles).
    for (size_t c = 0; c < commodities.size(); ++c) {
      const uint64_t s = commodities[c].s.bits, t = commodities[c].t.bits;
      for (uint64_t w = 0; w < nodes; ++w) {
        const z3::expr_vector in = in_links(c, w), out = out_links(c, w);
        formula_.push_back(z3::atmost(in, 1));
        formula_.push_back(z3::atmost(out, 1));
        if (w == s) {
          formula_.push_back(z3::mk_or(out));
          formula_.push_back(!z3::mk_or(in));
        } else if (w == t) {
          formula_.push_back(z3::mk_or(in));
          formula_.push_back(!z3::mk_or(out));
        } else {
          formula_.push_back(z3::mk_or(in) == z3::mk_or(out));
        }
      }
    }
    // Disjointness among the new paths (and with the fixed ones, for nodes).
    switch (reading) {
      case Disjointness::kNode:
        for (uint64_t w = 0; w < nodes; ++w) {
          z3::expr_vector through(ctx), occurs(ctx);
          for (size_t c = 0; c < commodities.size(); ++c) {
            const bool endpoint = commodities[c].s.bits == w || commodities[c].t.bits == w;
            const z3::expr passes = endpoint ? ctx.bool_val(false) : z3::mk_or(in_links(c, w));
            through.push_back(passes);
            occurs.push_back(endpoint ? ctx.bool_val(true) : passes);
          }
          if (fixed_internal[w]) {
            formula_.push_back(!z3::mk_or(occurs));  // unsat when w is a new path's endpoint
          } else if (fixed_contains[w] > 0) {
            formula_.push_back(!z3::mk_or(through));
          } else if (!commodities.empty()) {
            formula_.push_back(z3::implies(z3::mk_or(through), z3::atmost(occurs, 1)));
          }
        }
        break;
      case Disjointness::kLink:
        for (uint64_t a = 0; a < nodes; ++a)
          for (int d = 0; d < n; ++d) {
            const uint64_t b = a ^ bit_of(d);
            if (b < a) continue;
            z3::expr_vector uses(ctx);
            for (size_t c = 0; c < commodities.size(); ++c) {
              uses.push_back(x_[c][a * n + d]);
              uses.push_back(x_[c][b * n + d]);
            }
            formula_.push_back(z3::atmost(uses, 1));
          }
        break;
      case Disjointness::kDirectedLink:
        for (uint64_t e = 0; e < nodes * n; ++e) {
          z3::expr_vector uses(ctx);
          for (size_t c = 0; c < commodities.size(); ++c) uses.push_back(x_[c][e]);
          formula_.push_back(z3::atmost(uses, 1));
        }
        break;
    }
    // Node reading: two paths of one node are two paths only if they differ; the single link
    // u -> g(u) serves one of them (the plan checkers and the BFS oracle agree).
    if (reading == Disjointness::kNode) {
      std::set<std::pair<uint64_t, uint64_t>> fixed_single;
      for (const Path& p : fixed)
        if (p.nodes.size() == 2) fixed_single.emplace(p.nodes[0].bits, p.nodes[1].bits);
      std::map<std::pair<uint64_t, uint64_t>, std::vector<size_t>> by_pair;
      for (size_t c = 0; c < commodities.size(); ++c)
        by_pair[{commodities[c].s.bits, commodities[c].t.bits}].push_back(c);
      for (const auto& [st, cs] : by_pair) {
        const uint64_t diff = st.first ^ st.second;
        if (std::popcount(diff) != 1) continue;
        const int d = std::countr_zero(diff);
        z3::expr_vector uses(ctx);
        for (size_t c : cs) uses.push_back(x_[c][st.first * n + d]);
        formula_.push_back(fixed_single.count(st) ? !z3::mk_or(uses) : z3::atmost(uses, 1));
      }
    }
    // Symmetry breaking: two consecutive commodities of one node are interchangeable, so the
    // first takes the smaller (or, under kNode's shared single link, the same) first dimension.
    for (size_t c = 0; c + 1 < commodities.size(); ++c) {
      if (commodities[c].s != commodities[c + 1].s) continue;
      const uint64_t s = commodities[c].s.bits;
      for (int d = 0; d < n; ++d) {
        z3::expr_vector first_at_most_d(ctx);
        for (int e = 0; e <= d; ++e) first_at_most_d.push_back(x_[c][s * n + e]);
        formula_.push_back(z3::implies(x_[c + 1][s * n + d], z3::mk_or(first_at_most_d)));
      }
    }
  }

  const z3::expr_vector& formula() const { return formula_; }

  // Walks commodity c from its source along the model's links.
  std::optional<Path> walk(const z3::model& model, size_t c) const {
    Path path{{commodities_[c].s}};
    uint64_t cur = commodities_[c].s.bits;
    const uint64_t limit = uint64_t{1} << n_;
    while (cur != commodities_[c].t.bits) {
      int next = -1;
      for (int d = 0; d < n_; ++d)
        if (eval_bool(model, x_[c][cur * n_ + d])) next = d;
      if (next < 0 || path.nodes.size() > limit) return std::nullopt;
      cur ^= bit_of(next);
      path.nodes.push_back(Node{cur, n_});
    }
    return path;
  }

 private:
  z3::expr_vector in_links(size_t c, uint64_t w) const {
    z3::expr_vector v(ctx_);
    for (int d = 0; d < n_; ++d) v.push_back(x_[c][(w ^ bit_of(d)) * n_ + d]);
    return v;
  }
  z3::expr_vector out_links(size_t c, uint64_t w) const {
    z3::expr_vector v(ctx_);
    for (int d = 0; d < n_; ++d) v.push_back(x_[c][w * n_ + d]);
    return v;
  }

  z3::context& ctx_;
  int n_;
  std::vector<Commodity> commodities_;
  std::vector<std::vector<z3::expr>> x_;
  z3::expr_vector formula_;
};

}  // namespace

std::string to_string(CompletionMode mode) {
  return mode == CompletionMode::kOthersFixed ? "others-fixed" : "jointly";
}

std::string to_string(Existence e) {
  switch (e) {
    case Existence::kExists: return "exists";
    case Existence::kAbsent: return "absent";
    case Existence::kInconclusive: return "inconclusive";
    case Existence::kError: return "error";
  }
  return "?";
}

Violation check_completion(const Instance& inst, const Alpha& alpha, Bars bars, const Blocks& blocks,
                           Disjointness reading, const std::vector<SourcedPath>& fixed,
                           const std::vector<SourcedPath>& found) {
  const auto cube = hypercube::Hypercube::make(inst.n);
  TC_CHECK(cube.ok(), "check_completion: n out of range");
  for (size_t k = 0; k < found.size(); ++k) {
    const SourcedPath& p = found[k];
    const std::string which = fmt::format("new path {} of {} ({})", k, p.u, p.path);
    if (!inst.S.contains(p.u)) return fmt::format("{}: {} is not in S", which, p.u);
    const Node target = migration::g(inst, alpha, p.u, bars);
    if (auto v = check_path_valid(*cube, p.path)) return fmt::format("{}: {}", which, *v);
    if (auto v = check_endpoints(p.path, p.u, target)) return fmt::format("{}: {}", which, *v);
    if (auto v = check_simple(p.path)) return fmt::format("{}: {}", which, *v);
    for (size_t h = 0; h + 1 < p.path.nodes.size(); ++h)
      if (migration::is_block_link(blocks, p.path.nodes[h], p.path.nodes[h + 1]))
        return fmt::format("{}: hop {} -> {} is a block link", which, p.path.nodes[h], p.path.nodes[h + 1]);
    for (size_t j = k + 1; j < found.size(); ++j)
      if (auto v = migration::check_disjoint({p.path, found[j].path}, reading))
        return fmt::format("{} and new path {} of {} ({}): {}", which, j, found[j].u, found[j].path, *v);
    for (size_t j = 0; j < fixed.size(); ++j)
      if (auto v = migration::check_disjoint({p.path, fixed[j].path}, reading))
        return fmt::format("{} and the plan's path of {} ({}): {}", which, fixed[j].u, fixed[j].path, *v);
  }
  return std::nullopt;
}

CompletionResult decide_completion(const migration::Plan& plan, CompletionMode mode, Disjointness reading,
                                   const SolverLimits& limits) {
  const Instance& inst = plan.inst;
  const Alpha& alpha = plan.params.alpha;
  const Bars bars = plan.params.bars;
  TC_CHECK(inst.n >= 1 && inst.n <= 10, "decide_completion: n out of range 1..10");
  TC_CHECK(!migration::validate_blocks(inst, plan.blocks), "decide_completion: invalid blocks");
  CompletionResult result;
  std::vector<SourcedPath> fixed;
  std::vector<Commodity> commodities;
  if (mode == CompletionMode::kOthersFixed) {
    for (const migration::NodePlan& np : plan.nodes) {
      for (const migration::MigrationPath& mp : np.paths) fixed.push_back(SourcedPath{np.u, mp.path});
      const Node target = migration::g(inst, alpha, np.u, bars);
      if (target == np.u) continue;
      for (size_t k = np.paths.size(); k < 2; ++k) commodities.push_back(Commodity{np.u, target});
    }
  } else {
    for (const Node& u : migration::nodes_of(inst.S)) {
      const Node target = migration::g(inst, alpha, u, bars);
      if (target == u) continue;
      commodities.push_back(Commodity{u, target});
      commodities.push_back(Commodity{u, target});
    }
  }
  result.commodities = static_cast<int>(commodities.size());
  if (commodities.empty()) {
    result.answer = Existence::kExists;
    return result;
  }
  std::vector<Path> fixed_paths;
  for (const SourcedPath& p : fixed) fixed_paths.push_back(p.path);
  try {
    z3::context ctx;
    Tally tally;
    Checker checker(ctx, limits, tally);
    const Flow flow(ctx, inst.n, plan.blocks, reading, commodities, fixed_paths);
    const auto model = checker.check(flow.formula(), "QF_FD");
    result.rlimit_used = tally.rlimit_used;
    if (tally.status == SmtStatus::kProved) {
      result.answer = Existence::kAbsent;
      return result;
    }
    if (tally.status == SmtStatus::kUnknown || !model) {
      result.answer = Existence::kInconclusive;
      result.reason = tally.reason;
      return result;
    }
    std::vector<SourcedPath> found;
    for (size_t c = 0; c < commodities.size(); ++c) {
      auto path = flow.walk(*model, c);
      if (!path) {
        result.answer = Existence::kError;
        result.reason = fmt::format("SMT model: commodity {} from {} does not reach {}", c, commodities[c].s,
                                    commodities[c].t);
        return result;
      }
      found.push_back(SourcedPath{commodities[c].s, std::move(*path)});
    }
    if (auto v = check_completion(inst, alpha, bars, plan.blocks, reading, fixed, found)) {
      result.answer = Existence::kError;
      result.reason = "SMT model rejected by the checkers: " + *v;
      return result;
    }
    result.answer = Existence::kExists;
    result.paths = std::move(found);
  } catch (const z3::exception& e) {
    result.answer = Existence::kError;
    result.reason = fmt::format("Z3 error: {}", e.msg());
  }
  return result;
}

}  // namespace topocheck::smt

// ---------------------------------------------------------------------------------------------
// The SMT methods of the migration claims.

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;

// Largest n of the isomorphism proofs and of the joint completeness sweep, per budget.
const claims::PerBudget<int> kIsoSmtMaxN{4, 5, 7};
const claims::PerBudget<int> kJointMaxN{2, 3, 3};
constexpr uint64_t kIsoRlimit = 50'000'000;
constexpr uint64_t kJointRlimit = 20'000'000;


// Every property of `props` proved for n = 1..max_n; the first that is not proved decides.
MethodResult prove_iso_upto(const claims::RunContext& ctx, migration::Bars bars, const std::vector<IsoProperty>& props,
                            int first_n, int max_n) {
  MethodResult total;
  total.method = Method::kSmt;
  total.outcome = Outcome::kHolds;
  total.scope = fmt::format("n = {}..{}, every (S, T) of equal dimension and every alpha, symbolic (Z3 proof per n and "
                            "property, rlimit {})",
                            first_n, max_n, kIsoRlimit);
  for (int n = first_n; n <= max_n; ++n)
    for (IsoProperty p : props) {
      ctx.report(fmt::format("smt n = {} {}", n, to_string(p)));
      auto r = prove_isomorphisms(n, bars, p, claims::SolverLimits{kIsoRlimit, 0});
      if (!r) {
        MethodResult e = total;
        e.outcome = Outcome::kError;
        e.detail = r.error().message;
        return e;
      }
      if (r->outcome != Outcome::kHolds) {
        MethodResult out = *r;
        out.method = Method::kSmt;
        out.scope = total.scope;
        out.cases = total.cases;
        if (out.counterexample) out.counterexample->minimized = true;
        return out;
      }
      ++total.cases;
    }
  return total;
}

// The joint question for every input of n <= max_n where the procedure leaves a node with fewer
// than two paths (under some choice of sequence, tie-break, k, p, X): do two disjoint block-free
// paths exist for every node at once? Asked once per (S, T, alpha, blocks): the answer does not
// depend on the procedure's choices.
MethodResult joint_sweep(const claims::RunContext& ctx, bool section_42, migration::Disjointness d, int max_n) {
  MethodResult r;
  r.method = Method::kSmt;
  r.outcome = Outcome::kHolds;
  r.scope = fmt::format("n = 1..{}, every (S, T) with {}, alpha and block packing where the procedure leaves a node "
                        "with fewer than two paths (Z3 flow, rlimit {})",
                        max_n, section_42 ? "|C| = 1" : "|C| = 0 or >= 2", kJointRlimit);
  for (int n = 1; n <= max_n; ++n) {
    ctx.report(fmt::format("smt joint n = {}", n));
    for (int dim = 0; dim <= n; ++dim)
      for (const Subcube& S : migration::subcubes(n, dim))
        for (const Subcube& T : migration::subcubes(n, dim)) {
          if (S == T) continue;
          const Instance inst = *migration::make_instance(S, T);
          if ((inst.zeta() == 1) != section_42) continue;
          for (const Alpha& alpha : migration::all_alphas(inst)) {
            bool stop = false;
            migration::for_each_packing(inst, [&](const Blocks& blocks) {
              std::optional<migration::Plan> missing;
              auto seq = migration::dims_of(inst.DTmS);
              std::vector<int> ks = {-1};
              if (inst.zeta() >= 2) ks = migration::dims_of(inst.C);
              do
                for (auto tie : {migration::TieBreak::kAscending, migration::TieBreak::kDescending})
                  for (int k : ks)
                    for (auto pick : {migration::PickP::kFirst, migration::PickP::kLast})
                      for (auto x : {migration::XReading::kDg, migration::XReading::kDf}) {
                        if (missing) continue;
                        migration::Params p = migration::default_params(inst);
                        p.alpha = alpha;
                        p.ext_sequence = seq;
                        p.tie = tie;
                        p.k = k;
                        p.pick_p = pick;
                        p.x_reading = x;
                        migration::Plan plan = migration::migrate(inst, blocks, p);
                        if (migration::check_plan_complete(plan)) missing = std::move(plan);
                      }
              while (!missing && std::next_permutation(seq.begin(), seq.end()));
              if (!missing) return false;
              ++r.cases;
              const CompletionResult c = decide_completion(*missing, CompletionMode::kJointly, d,
                                                           claims::SolverLimits{kJointRlimit, 0});
              if (c.answer == Existence::kAbsent) return false;
              stop = true;
              if (c.answer == Existence::kExists) {
                r.outcome = Outcome::kRefuted;
                r.detail = fmt::format(
                    "S = {}, T = {}, alpha {}, blocks {}: the procedure leaves a node with fewer than two paths ({}), "
                    "yet two {}-disjoint block-free paths exist for every node at once",
                    S, T, alpha.to_string(), blocks.empty() ? "none" : migration::blocks_to_string(blocks),
                    migration::check_plan_complete(*missing).value_or(""), migration::to_string(d));
                claims::Counterexample cx;
                cx.params = {{"n", n}};
                cx.input = {{"S", S.to_string()}, {"T", T.to_string()}, {"alpha", alpha.to_string()},
                            {"sequence", fmt::format("{}", fmt::join(missing->params.ext_sequence, ","))},
                            {"tie_break", migration::to_string(missing->params.tie)},
                            {"k", missing->params.k},
                            {"pick_p", migration::to_string(missing->params.pick_p)},
                            {"x", missing->params.x_reading == migration::XReading::kDg ? "D_g" : "D_f"},
                            {"blocks", migration::blocks_to_string(blocks)}};
                cx.violation = r.detail;
                // The paths are the certificate: replay re-judges them with the naive checkers.
                nlohmann::json paths = nlohmann::json::array();
                for (const auto& sp : c.paths) paths.push_back(path_to_json(sp.path));
                cx.input["paths"] = paths;
                cx.minimized = true;
                r.counterexample = std::move(cx);
              } else {
                r.outcome = c.answer == Existence::kInconclusive ? Outcome::kInconclusive : Outcome::kError;
                r.detail = fmt::format("S = {}, T = {}, alpha {}: {}", S, T, alpha.to_string(), c.reason);
              }
              return true;
            });
            if (stop) return r;
          }
        }
  }
  return r;
}

}  // namespace

void attach_migration_smt(claims::Registry& registry) {
  const std::vector<std::pair<std::string, std::vector<IsoProperty>>> iso = {
      {"migration.iso.f", {IsoProperty::kFMapsInto, IsoProperty::kFInjective, IsoProperty::kFAdjacency}},
      {"migration.iso.g", {IsoProperty::kGMapsInto, IsoProperty::kGInjective, IsoProperty::kGAdjacency}},
      {"migration.iso.g_is_h_of_f", {IsoProperty::kGIsHOfF}}};
  for (const auto& [id, props] : iso)
    for (migration::Bars bars : migration::all_bars()) {
      const claims::Claim* claim = registry.find(id);
      TC_CHECK(claim != nullptr, "migration claim missing: " + id);
      const std::string reading = bars.reading_name();
      TC_CHECK(claim->find_reading(reading) != nullptr, "no reading " + reading + " of " + id);
      auto method = [bars, props](const claims::RunContext& ctx) {
        return prove_iso_upto(ctx, bars, props, 1, kIsoSmtMaxN.at(ctx.budget));
      };
      auto prove = [bars, props](const nlohmann::json& params, const claims::SolverLimits&) -> Result<MethodResult> {
        if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
          return invalid_argument("params.n must be an integer");
        const int n = params.at("n").get<int>();
        if (n < 1 || n > kMigrationSmtMaxN) return invalid_argument(fmt::format("params.n must be 1..{}", kMigrationSmtMaxN));
        claims::RunContext ctx;
        return prove_iso_upto(ctx, bars, props, n, n);
      };
      registry.attach(id, reading, Method::kSmt, method, prove);
    }
  for (bool s42 : {false, true})
    for (migration::Disjointness d : migration::kAllDisjointness) {
      const std::string reading = fmt::format("{}-{}", s42 ? "4.2" : "4.1", migration::to_string(d));
      registry.attach("migration.conclusion.tells_absence_jointly", reading, Method::kSmt,
                      [s42, d](const claims::RunContext& ctx) { return joint_sweep(ctx, s42, d, kJointMaxN.at(ctx.budget)); });
    }
}

}  // namespace topocheck::smt
