// The Metacube decisions (smt/metacube_smt.h): which Alg4Options the encoding covers
// (alg4_encoding_gap), the prove_* functions over metacube_decision.h's decide(), their method
// results with every model confirmed by the concrete construction and the core judge, and
// attach_metacube_smt with the method over the budget's metacubes (catalog/metacube/scope.h,
// section SMT). Paper: Li, Peng, Chu, "Disjoint Paths in Metacube", Section 3 (Algorithm 4,
// Theorem 2) and Section 2 (the edge definition). Preconditions: Metacube::make(k, m) succeeds
// (TC_CHECK; the prove functions validate user params first). Cost: the measured table in
// smt/metacube_smt.h.
#include "smt/metacube_smt.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <z3++.h>

#include "catalog/metacube/scope.h"
#include "core/checks.h"
#include "metacube/routing.h"
#include "smt/metacube_decision.h"

namespace topocheck::smt {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using claims::SolverLimits;
using metacube::Alg4Options;
using metacube::Metacube;
using metacube::Thm2Part;
using nlohmann::json;
using namespace metacube_encoding;

namespace {

namespace scope = claims::metacube_scope;


// ---------------------------------------------------------------------------------------------
// Method results.

std::string mc_name(int k, int m) { return fmt::format("MC({},{})", k, m); }

json alg4_witness(const Alg4Options& o, const Metacube& mc, Node s, Node t) {
  const auto r = metacube::metacube_disjoint_paths(mc, s, t, o);
  return {{"case", r.case_number}, {"paths", paths_to_json(r.paths)}, {"notes", r.notes}};
}

// The common part of the three method results: proved, unknown, error. Returns nullopt for a
// counterexample (the caller confirms it).
std::optional<MethodResult> settled(const MetacubeSmtResult& smt, int k, int m, std::string scope) {
  MethodResult result;
  result.method = Method::kSmt;
  result.scope = std::move(scope);
  if (settle(smt.status, mc_name(k, m), smt.reason, result)) return result;
  return std::nullopt;
}

MethodResult refuted(MethodResult result, const Metacube& mc, Node s, Node t, const std::string& violation,
                     json witness, bool minimized) {
  result.outcome = Outcome::kRefuted;
  result.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), s, t, violation);
  claims::Counterexample cx;
  cx.params = {{"k", mc.k()}, {"m", mc.m()}};
  cx.input = {{"s", s.to_string()}, {"t", t.to_string()}};
  cx.violation = violation;
  cx.witness = std::move(witness);
  cx.minimized = minimized;
  result.counterexample = std::move(cx);
  return result;
}

MethodResult disagreement(MethodResult result, const std::string& what) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("SMT model disagrees with the checker ({})", what);
  return result;
}

MethodResult unknown_reading(MethodResult result, const std::string& reading) {
  result.outcome = Outcome::kError;
  result.detail = fmt::format("reading '{}' is not known to metacube::options_for_reading", reading);
  return result;
}

// The concrete judge of commutation for one a: the claim's words, or nullopt.
Violation commutation_judge(const Metacube& mc, const Alg4Options& o, Node s, Node t, Node a) {
  const auto base = metacube::metacube_disjoint_paths(mc, s, t, o).paths;
  const auto moved =
      metacube::metacube_disjoint_paths(mc, metacube::translate(s, a), metacube::translate(t, a), o).paths;
  for (size_t i = 0; i < base.size(); ++i) {
    Path expect = base[i];
    for (Node& x : expect.nodes) x = metacube::translate(x, a);
    if (!(moved[i] == expect))
      return fmt::format("a = {} (the M part of s): P_{} of (s^a, t^a) is {}, not P_{} of (s, t) translated ({})", a, i,
                         moved[i], i, expect);
  }
  return std::nullopt;
}

std::string part_name(Thm2Part part) {
  switch (part) {
    case Thm2Part::kValid: return "valid";
    case Thm2Part::kDisjoint: return "disjoint";
    case Thm2Part::kLength: return "length";
    case Thm2Part::kCaseBound: return "case_bound";
    case Thm2Part::kFaultTolerance: return "fault_tolerance";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Registration.

using OneMetacube = std::function<MethodResult(int k, int m, const SolverLimits& limits)>;

// `what`: the inputs each metacube's decision covers, e.g. "every s != t".
MethodResult over_scope(const claims::RunContext& ctx, const std::string& what, const OneMetacube& one) {
  const auto& list = scope::kSmt.at(ctx.budget);
  const SolverLimits limits{scope::kSmtRlimit.at(ctx.budget), 0};
  std::vector<std::string> names;
  for (auto [k, m] : list) names.push_back(mc_name(k, m));
  auto scope_of = [&](size_t upto) {
    std::string joined;
    for (size_t x = 0; x < upto; ++x) joined += (x ? ", " : "") + names[x];
    return fmt::format("{}: {} (bit-vector proof, rlimit {} each)", joined, what, limits.rlimit);
  };
  MethodResult total;
  total.method = Method::kSmt;
  total.scope = scope_of(list.size());
  for (size_t x = 0; x < list.size(); ++x) {
    const auto [k, m] = list[x];
    ctx.report(fmt::format("smt {} ({} of {}, rlimit {})", names[x], x + 1, list.size(), limits.rlimit));
    MethodResult r = one(k, m, limits);
    if (r.outcome != Outcome::kHolds) {
      r.scope = scope_of(x + 1);
      r.cases = total.cases;  // the metacubes before this one were proved
      return r;
    }
    ++total.cases;
  }
  total.outcome = Outcome::kHolds;
  return total;
}

Result<std::pair<int, int>> parse_km(const json& params) {
  if (!params.is_object()) return invalid_argument("params must be an object with integers k and m");
  auto integer = [&](const char* key, int64_t lo, int64_t hi) -> Result<int> {
    const std::string bad = fmt::format("params.{} must be an integer {}..{}", key, lo, hi);
    if (!params.contains(key)) return invalid_argument(bad);
    const json& j = params.at(key);
    if (!j.is_number_integer()) return invalid_argument(bad);
    const int64_t v = j.is_number_unsigned() ? static_cast<int64_t>(std::min<uint64_t>(j.get<uint64_t>(), 1000))
                                             : j.get<int64_t>();
    if (v < lo || v > hi) return invalid_argument(bad);
    return static_cast<int>(v);
  };
  auto k = integer("k", 0, 5);
  if (!k) return k.error();
  auto m = integer("m", 1, 63);
  if (!m) return m.error();
  auto mc = Metacube::make(*k, *m);
  if (!mc) return invalid_argument(fmt::format("params.m: {}", mc.error().message));
  return std::pair{*k, *m};
}

claims::ProveFn prove_fn(OneMetacube one) {
  return [one](const json& params, const SolverLimits& limits) -> Result<MethodResult> {
    auto km = parse_km(params);
    if (!km) return km.error();
    const SolverLimits effective{limits.rlimit == 0 ? scope::kSmtRlimit.standard : limits.rlimit, limits.timeout_ms};
    return one(km->first, km->second, effective);
  };
}

void attach(claims::Registry& registry, const std::string& id, const std::string& reading, const std::string& what,
            const OneMetacube& one) {
  registry.attach(
      id, reading, Method::kSmt, [what, one](const claims::RunContext& ctx) { return over_scope(ctx, what, one); },
      prove_fn(one));
}

}  // namespace

std::optional<std::string> alg4_encoding_gap(const Alg4Options& options) {
  if (options.repair)
    return "the `repair` option (reading `repaired`: loop erasure and completion by augmenting paths) is not encoded";
  // Every field the Encoder reads (or that does not change paths) reset to its default: what is
  // left differs from the defaults only in a field added after this encoding, which it would
  // silently ignore.
  Alg4Options known = options;
  const Alg4Options defaults;
  known.hc_order = defaults.hc_order;
  known.local_hc = defaults.local_hc;
  known.exchange = defaults.exchange;
  known.default_key = defaults.default_key;
  known.key_compare = defaults.key_compare;
  known.case0_p3_n = defaults.case0_p3_n;
  known.case0_hop = defaults.case0_hop;
  known.local_class_path = defaults.local_class_path;
  known.empty_when_equal = defaults.empty_when_equal;
  known.case2_pj_ends_at_t = defaults.case2_pj_ends_at_t;
  known.record_notes = defaults.record_notes;  // notes only, not paths
  known.broken_no_exchange = defaults.broken_no_exchange;
  known.broken_ignore_key = defaults.broken_ignore_key;
  // The corrections of the reading `corrected`: encoded as that reading has them, all four at once.
  const int corrections =
      options.fix_pj + options.case1_cluster + options.local_in_cluster + options.w_is_s + options.lamplighter;
  if (corrections != 0 && corrections != 5)
    return "the corrections of Algorithm 4 (fix_pj, case1_cluster, local_in_cluster, w_is_s, lamplighter) are encoded "
           "only together";
  known.fix_pj = defaults.fix_pj;
  known.case1_cluster = defaults.case1_cluster;
  known.local_in_cluster = defaults.local_in_cluster;
  known.w_is_s = defaults.w_is_s;
  known.lamplighter = defaults.lamplighter;
  known.record_steps = defaults.record_steps;  // which step wrote a node, not the paths
  if (!(known == defaults)) return "an Alg4Options field this encoding does not know is set";
  return std::nullopt;
}

MetacubeSmtResult prove_alg4(int k, int m, const Alg4Options& options, Thm2Part part, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_alg4");
  if (auto gap = alg4_encoding_gap(options)) return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, *gap, 0, 0};
  if (part == Thm2Part::kFaultTolerance)
    return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, "the fault-tolerance part is not encoded", 0, 0};
  return decide(mc, Problem{Kind::kThm2, part, options}, limits, true);
}

MetacubeSmtResult prove_alg4_commutes(int k, int m, const Alg4Options& options, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_alg4_commutes");
  if (auto gap = alg4_encoding_gap(options)) return MetacubeSmtResult{SmtStatus::kError, {}, {}, {}, false, *gap, 0, 0};
  return decide(mc, Problem{Kind::kCommutes, Thm2Part::kValid, options}, limits, true);
}

MetacubeSmtResult prove_automorphism(int k, int m, const SolverLimits& limits) {
  const Metacube mc = make_mc(k, m, "prove_automorphism");
  MetacubeSmtResult result;
  Meter meter(limits);
  try {
    z3::context ctx;
    const Space sp(ctx, mc);
    const unsigned n = static_cast<unsigned>(mc.width());
    const z3::expr u = ctx.bv_const("u", n), v = ctx.bv_const("v", n);
    const z3::expr am = ctx.bv_const("aM", static_cast<unsigned>(mc.m() * mc.h()));
    const z3::expr a = sp.address(0, am);
    z3::solver solver(ctx, "QF_BV");
    solver.add(sp.is_edge(u, v) != sp.is_edge(u ^ a, v ^ a));
    uint64_t counted = 0;
    z3::check_result answer = z3::unknown;
    if (auto why = meter.exhausted()) {
      result.status = SmtStatus::kUnknown;
      result.reason = *why;
    } else {
      answer = meter.check(solver, counted);
      if (answer == z3::unsat) {
        result.status = SmtStatus::kProved;
      } else if (answer == z3::sat) {
        const z3::model model = solver.get_model();
        result.status = SmtStatus::kCounterexample;
        result.s = Node{model_value(model, u), mc.width()};
        result.t = Node{model_value(model, v), mc.width()};
        result.a = node_of(mc, 0, model_value(model, am));
      } else {
        result.status = SmtStatus::kUnknown;
        result.reason = solver.reason_unknown();
      }
    }
  } catch (const z3::exception& e) {
    result = MetacubeSmtResult{};
    result.status = SmtStatus::kError;
    result.reason = fmt::format("Z3 error: {}", e.msg());
  }
  result.rlimit_used = meter.used;
  result.checks = meter.checks;
  return result;
}

MethodResult alg4_smt_method_result(int k, int m, const std::string& reading, Thm2Part part,
                                    const SolverLimits& limits) {
  const std::string scope_text = fmt::format("{}, every s != t, part {} (bit-vector proof per class split, rlimit {}{})",
                                             mc_name(k, m), part_name(part), limits.rlimit,
                                             reading == "paper" ? "" : ", reading " + reading);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const auto options = metacube::options_for_reading(reading);
  if (!options) return unknown_reading(base, reading);
  const MetacubeSmtResult smt = prove_alg4(k, m, *options, part, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "alg4_smt_method_result");
  const Node s = *smt.s, t = *smt.t;
  if (s == t) return disagreement(base, fmt::format("the model has s = t = {}", s));
  const Violation v = metacube::check_alg4(mc, s, t, *options, part);
  if (!v) return disagreement(base, fmt::format("{}: s = {}, t = {} satisfies the claim", mc.name(), s, t));
  return refuted(base, mc, s, t, *v, alg4_witness(*options, mc, s, t), smt.minimized);
}

namespace {

// metacube.thm2.disjoint by its own property. The encoding decides "valid and internally
// disjoint" (a path that repeats a node counts as a violation), so unsat still proves the claim;
// a model is confirmed by metacube::judge_alg4 (a shared node on the paths' node sets less s and
// t). A model that shows no shared node (only thm2.valid's failure) leaves this metacube
// inconclusive for the claim, never refuted: the solver's first violation is not this claim's.
MethodResult alg4_disjoint_own_smt_method_result(int k, int m, const std::string& reading, const SolverLimits& limits) {
  MethodResult r = alg4_smt_method_result(k, m, reading, Thm2Part::kDisjoint, limits);
  if (r.outcome != Outcome::kRefuted || !r.counterexample) return r;
  const Metacube mc = make_mc(k, m, "alg4_disjoint_own_smt_method_result");
  const auto s = parse_node(r.counterexample->input.at("s").get<std::string>(), mc.width());
  const auto t = parse_node(r.counterexample->input.at("t").get<std::string>(), mc.width());
  if (!s || !t) return disagreement(r, "the model's s, t do not parse");
  const metacube::Judgement j = metacube::judge_alg4(mc, *s, *t, *metacube::options_for_reading(reading), Thm2Part::kDisjoint);
  if (j.applicable && j.violation) {
    r.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), *s, *t, *j.violation);
    r.counterexample->violation = *j.violation;
    return r;
  }
  MethodResult out;
  out.method = Method::kSmt;
  out.scope = r.scope;
  out.outcome = Outcome::kInconclusive;
  out.detail = fmt::format("{}: the encoding (valid and disjoint) has the model s = {}, t = {}, whose paths share no "
                           "node other than s and t ({}): not this claim's violation; the SMT method decides only "
                           "metacubes where the conjunction holds",
                           mc.name(), *s, *t, j.applicable ? "a path repeats a node" : j.why_not);
  return out;
}

}  // namespace

MethodResult alg4_commutes_smt_method_result(int k, int m, const std::string& reading, const SolverLimits& limits) {
  const std::string scope_text = fmt::format(
      "{}, every s != t and class-zero a (bit-vector proof per class split, rlimit {}{})", mc_name(k, m),
      limits.rlimit, reading == "paper" ? "" : ", reading " + reading);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const auto options = metacube::options_for_reading(reading);
  if (!options) return unknown_reading(base, reading);
  const MetacubeSmtResult smt = prove_alg4_commutes(k, m, *options, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "alg4_commutes_smt_method_result");
  const Node s = *smt.s, t = *smt.t, a = *smt.a;
  if (s == t) return disagreement(base, fmt::format("the model has s = t = {}", s));
  const Node a_s{s.bits & ((uint64_t{1} << (mc.m() * mc.h())) - 1), mc.width()};
  if (a != a_s) return disagreement(base, fmt::format("the model's a = {} is not the M part of s = {}", a, s));
  const Violation v = commutation_judge(mc, *options, s, t, a);
  if (!v)
    return disagreement(base, fmt::format("{}: s = {}, t = {}, a = {}: the paths commute", mc.name(), s, t, a));
  json witness = alg4_witness(*options, mc, s, t);
  witness["a"] = a.to_string();
  return refuted(base, mc, s, t, *v, std::move(witness), smt.minimized);
}

MethodResult automorphism_smt_method_result(int k, int m, const SolverLimits& limits) {
  const std::string scope_text =
      fmt::format("{}, every u, v and class-zero a (bit-vector proof, rlimit {})", mc_name(k, m), limits.rlimit);
  MethodResult base;
  base.method = Method::kSmt;
  base.scope = scope_text;
  const MetacubeSmtResult smt = prove_automorphism(k, m, limits);
  if (auto done = settled(smt, k, m, scope_text)) return *done;
  const Metacube mc = make_mc(k, m, "automorphism_smt_method_result");
  const Node u = *smt.s, v = *smt.t, a = *smt.a;
  const bool before = mc.is_edge(u, v);
  const bool after = mc.is_edge(metacube::translate(u, a), metacube::translate(v, a));
  if (before == after)
    return disagreement(base, fmt::format("{}: u = {}, v = {}, a = {} keep the edge relation", mc.name(), u, v, a));
  const std::string violation =
      fmt::format("a = {}: is_edge(u,v) = {} but is_edge(u^a, v^a) = {}", a, before, after);
  return refuted(base, mc, u, v, violation, json{{"a", a.to_string()}}, false);
}

void attach_metacube_smt(claims::Registry& registry) {
  const std::pair<const char*, Thm2Part> parts[] = {{"metacube.thm2.valid", Thm2Part::kValid},
                                                     {"metacube.thm2.disjoint", Thm2Part::kDisjoint},
                                                     {"metacube.thm2.length", Thm2Part::kLength},
                                                     {"metacube.thm2.case_bound", Thm2Part::kCaseBound}};
  for (const std::string reading : {"paper", "paper-keybit-example4", "corrected"}) {
    for (const auto& [id, each_part] : parts)
      attach(registry, id, reading, "every s != t", [reading, part = each_part](int k, int m, const SolverLimits& limits) {
        return part == Thm2Part::kDisjoint ? alg4_disjoint_own_smt_method_result(k, m, reading, limits)
                                           : alg4_smt_method_result(k, m, reading, part, limits);
      });
    attach(registry, "metacube.symmetry.alg4_commutes", reading, "every s != t and class-zero a",
           [reading](int k, int m, const SolverLimits& limits) {
             return alg4_commutes_smt_method_result(k, m, reading, limits);
           });
  }
  attach(registry, "metacube.symmetry.automorphism", "literal", "every u, v and class-zero a",
         [](int k, int m, const SolverLimits& limits) { return automorphism_smt_method_result(k, m, limits); });
}

}  // namespace topocheck::smt
