// The SMT methods of the migration claims (Chen and Tzeng, paper 000), over the encodings of
// migration_iso_smt.cc (Section 2.2's isomorphisms) and migration_completion_smt.cc (the
// conclusion's completeness oracle), and attach_migration_smt, which adds them to the registry.
// Scopes and rlimits per budget: catalog/migration/scope.h (section SMT). Cost: the isomorphism
// proofs are one check per (n, property) (seconds in all at the deep budget); the joint sweep
// visits every input of n <= 3 and asks Z3 only where the procedure leaves a node short.
#include "smt/migration_smt.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/migration/scope.h"
#include "migration/packings.h"

namespace topocheck::smt {
namespace {

using claims::Method;
using claims::MethodResult;
using claims::Outcome;
using migration::Alpha;
using migration::Blocks;
using migration::Instance;
namespace scope = claims::migration_scope;

// Every property of `props` proved for n = 1..max_n; the first that is not proved decides.
MethodResult prove_iso_upto(const claims::RunContext& ctx, migration::Bars bars, const std::vector<IsoProperty>& props,
                            int first_n, int max_n) {
  MethodResult total;
  total.method = Method::kSmt;
  total.outcome = Outcome::kHolds;
  total.scope = fmt::format("n = {}..{}, every (S, T) of equal dimension and every alpha, symbolic (Z3 proof per n and "
                            "property, rlimit {})",
                            first_n, max_n, scope::kIsoSmtRlimit);
  for (int n = first_n; n <= max_n; ++n)
    for (IsoProperty p : props) {
      ctx.report(fmt::format("smt n = {} {}", n, to_string(p)));
      auto r = prove_isomorphisms(n, bars, p, claims::SolverLimits{scope::kIsoSmtRlimit, 0});
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
  // cases: every (S, T, alpha, packing) examined; applicable: those where some choice of the
  // procedure leaves a node short (the premise), each decided by Z3.
  r.applicable = 0;
  r.scope = fmt::format("n = 1..{}, every (S, T) with {}, alpha and block packing, Z3 asked where the procedure leaves a "
                        "node with fewer than two paths (Z3 flow, rlimit {})",
                        max_n, section_42 ? "|C| = 1" : "|C| = 0 or >= 2", scope::kJointSmtRlimit);
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
              ++r.cases;
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
              ++*r.applicable;
              const CompletionResult c = decide_completion(*missing, CompletionMode::kJointly, d,
                                                           claims::SolverLimits{scope::kJointSmtRlimit, 0});
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
      auto method = [bars, props = props](const claims::RunContext& ctx) {
        return prove_iso_upto(ctx, bars, props, 1, scope::kIsoSmtMaxN.at(ctx.budget));
      };
      auto prove = [bars, props = props](const nlohmann::json& params, const claims::SolverLimits&) -> Result<MethodResult> {
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
                      [s42, d](const claims::RunContext& ctx) {
                        return joint_sweep(ctx, s42, d, scope::kJointSmtMaxN.at(ctx.budget));
                      });
    }
}

}  // namespace topocheck::smt
