// Migration (Chen and Tzeng, paper 000), Section 2.2 and Section 3: the isomorphisms f, g and
// h = "complement D(T)-D(S)" encoded from the paper's bit-by-bit definitions (never by calling
// migration::f / g / h), for a FIXED n over ALL subcube pairs (S, T) of equal dimension and ALL
// alpha (kSymbolic), per mask pair and alpha (kPerMasks), or for one instance
// (prove_isomorphism_instance); and the judge of a model with migration::f / g / h.
// The encoding, the properties, the readings (Bars), the negative control and the measured cost
// are in smt/migration_smt.h, part (1). Preconditions: 1 <= n <= kMigrationSmtMaxN (TC_CHECK).
// Cost: one QF_BV check per (n, bars, property) under kSymbolic; C(2n, n)-ish under kPerMasks.
#include "smt/migration_smt.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "smt/shared_limits_checker.h"

namespace topocheck::smt {

using claims::MethodResult;
using claims::SolverLimits;
using migration::Alpha;
using migration::Bars;
using migration::Instance;

namespace {

using Checker = SharedLimitsChecker<CheckTally>;

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

IsoSmtResult to_iso_result(const CheckTally& tally) {
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
  CheckTally tally;
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
  CheckTally tally;
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

}  // namespace topocheck::smt
