// The pair-by-pair methods of the Metacube claims (see catalog/metacube/pair_methods.h).
#include "catalog/metacube/pair_methods.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "catalog/metacube/inputs.h"
#include "claims/random_method.h"
#include "metacube/metacube_gen.h"

namespace topocheck::claims::metacube_parts {

namespace scope = metacube_scope;
using metacube::Metacube;
using nlohmann::json;

namespace {

int width_of(KM km) { return km.second * (1 << km.first) + km.first; }

CaseFn mc_pair_case_fn(PairCheck check, PairWitness witness) {
  return [check, witness](const json& params, const json& input) -> Result<CaseCheck> {
    auto in = parse_mc_pair(params, input);
    if (!in) return in.error();
    const PairVerdict v = check(in->mc, in->s, in->t);
    json w = witness(in->mc, in->s, in->t);
    if (!v.applicable) w["not_applicable"] = v.why_not;  // the premise does not apply: no violation
    return CaseCheck{v.applicable ? v.violation : std::nullopt, std::move(w)};
  };
}

}  // namespace

std::vector<SweepPart> sweep_parts(const std::vector<KM>& every_pair, const std::vector<KM>& reduced) {
  std::vector<SweepPart> parts;
  for (KM km : every_pair) parts.push_back({km, false});
  for (KM km : reduced) parts.push_back({km, true});
  std::stable_sort(parts.begin(), parts.end(), [](const SweepPart& a, const SweepPart& b) {
    return std::pair{width_of(a.km), a.km.first} < std::pair{width_of(b.km), b.km.first};
  });
  return parts;
}

std::string sweep_scope(const std::vector<SweepPart>& parts) {
  std::vector<KM> every, reduced;
  for (const SweepPart& p : parts) (p.reduced ? reduced : every).push_back(p.km);
  std::string out;
  if (!every.empty()) out = fmt::format("{}: every s != t", km_list(every));
  if (!reduced.empty())
    out += fmt::format("{}{}: s with zero M fields (class-zero translation symmetry), every t != s", out.empty() ? "" : "; ",
                       km_list(reduced));
  return out;
}

MethodResult exhaustive_mc_sweep(const RunContext& ctx, const std::vector<SweepPart>& parts, const PairCheck& check,
                                 const PairWitness& witness) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = sweep_scope(parts);
  struct Sized {
    Metacube mc;
    uint64_t sources, pairs;
  };
  std::vector<Sized> sized;
  uint64_t total = 0;
  for (const SweepPart& part : parts) {
    const Metacube mc = Metacube::make(part.km.first, part.km.second).value();
    const uint64_t sources = part.reduced ? static_cast<uint64_t>(mc.h()) : mc.num_nodes();
    sized.push_back({mc, sources, sources * mc.num_nodes()});
    total += sized.back().pairs;
  }
  // Shards are cut by estimated cost (Shard::range_by_cost), not by count: a pair of MC(k,m) costs
  // about (k + m) paths times the address width m 2^k + k (the paths' nodes to build and judge).
  // Measured (bench/README.md): MC(2,3) 3.39 M pairs/s, MC(3,2) 2.48 M (the model's ratio 1.36,
  // measured 1.37); MC(3,3) 1.53 M on the deep disjointness sweep, the model says 1.46 M.
  std::vector<std::pair<uint64_t, double>> segments;
  for (size_t k = 0; k < parts.size(); ++k)
    segments.emplace_back(sized[k].pairs, static_cast<double>(parts[k].km.first + parts[k].km.second) * sized[k].mc.width());
  const auto [first, last] = ctx.shard ? ctx.shard->range_by_cost(segments) : std::pair<uint64_t, uint64_t>{0, total};
  if (ctx.shard) result.shard = fmt::format("{}, pairs [{}, {}) of {}", ctx.shard->to_string(), first, last, total);
  uint64_t applicable = 0;  // pairs on which the claim's premise applied
  uint64_t offset = 0;  // position of the part's first pair in the whole sequence
  for (size_t k = 0; k < parts.size(); offset += sized[k].pairs, ++k) {
    const Metacube& mc = sized[k].mc;
    const uint64_t size = mc.num_nodes(), pairs = sized[k].pairs;
    const uint64_t begin = std::max(first, offset) - offset, end = std::min(last, offset + pairs);
    if (end <= offset || begin >= pairs) continue;
    const int source_shift = parts[k].reduced ? mc.width() - mc.k() : 0;
    ctx.report(fmt::format("exhaustive {} ({} pairs of {})", mc.name(), end - offset - begin, pairs));
    for (uint64_t p = begin; p < end - offset; ++p) {
      if (p % (1 << 16) == 0 && p > begin)
        ctx.report(fmt::format("exhaustive {}: pair {}/{}", mc.name(), p, pairs));
      const Node s = mc.node_at((p / size) << source_shift), t = mc.node_at(p % size);
      if (s == t) continue;
      ++result.cases;
      const PairVerdict v = check(mc, s, t);
      if (!v.applicable) continue;
      ++applicable;
      if (v.violation) {
        result.outcome = Outcome::kRefuted;
        result.applicable = applicable;
        result.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), s, t, *v.violation);
        result.counterexample = mc_pair_counterexample(mc, s, t, *v.violation, witness(mc, s, t));
        result.counterexample->minimized = true;
        return result;
      }
    }
  }
  result.applicable = applicable;
  result.outcome = Outcome::kHolds;
  return result;
}

MethodResult exhaustive_mc_pairs(const RunContext& ctx, const std::vector<KM>& list, const PairCheck& check,
                                 const PairWitness& witness) {
  return exhaustive_mc_sweep(ctx, sweep_parts(list, {}), check, witness);
}

MethodResult random_mc_pairs(const RunContext& ctx, int max_k, int cases, const std::string& note,
                             const PairCheck& check, const PairWitness& witness) {
  RandomSpec<metacube::McPair> spec{metacube::gen::metacube_pair(scope::kRandomMaxBits, max_k)};
  spec.cases = cases;
  spec.scope = fmt::format("MC(k,m) with k = 1..{} and up to {} address bits{}, s != t (gen::metacube_pair)", max_k,
                           scope::kRandomMaxBits, note);
  // Applicable pairs: counted per call of spec.check, which is once per case unless a failure is
  // shrunk (the count is reported only when the method holds, when no shrinking happened).
  uint64_t applicable = 0;
  spec.check = [&](const metacube::McPair& p) -> std::optional<Counterexample> {
    const Metacube mc = p.metacube();
    const PairVerdict v = check(mc, p.s, p.t);
    if (!v.applicable) return std::nullopt;
    ++applicable;
    if (v.violation) return mc_pair_counterexample(mc, p.s, p.t, *v.violation, witness(mc, p.s, p.t));
    return std::nullopt;
  };
  spec.smaller = [&](const Counterexample& found) -> std::optional<Counterexample> {
    const KM km{found.params.at("k").get<int>(), found.params.at("m").get<int>()};
    std::vector<KM> below;
    for (KM small : scope::kRandomBelow)
      if (std::pair{width_of(small), small.first} <= std::pair{width_of(km), km.first}) below.push_back(small);
    RunContext quiet = ctx;
    quiet.shard.reset();  // the whole of each smaller metacube, whatever the shard
    return exhaustive_mc_pairs(quiet, below, check, witness).counterexample;
  };
  MethodResult result = run_random(ctx, spec);
  if (result.outcome == Outcome::kHolds) result.applicable = applicable;
  if (result.counterexample) {  // in the exhaustive method's words: "MC(1,1): s = 000, t = 010: ..."
    const Counterexample& cx = *result.counterexample;
    result.detail = fmt::format("MC({},{}): s = {}, t = {}: {}", cx.params.at("k").get<int>(),
                                cx.params.at("m").get<int>(), cx.input.at("s").get<std::string>(),
                                cx.input.at("t").get<std::string>(), cx.violation);
  }
  return result;
}

json alg4_witness(const metacube::Alg4Options& o, const Metacube& mc, Node s, Node t) {
  const auto r = metacube::metacube_disjoint_paths(mc, s, t, o);
  return {{"case", r.case_number}, {"paths", paths_to_json(r.paths)}, {"notes", r.notes}};
}

Reading pair_reading(std::string name, std::string description, PairCheck check, PairWitness witness,
                     const PerBudget<std::vector<KM>>& range) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  // The repaired and the corrected Algorithm 4 are constructions of ours, not readings of the
  // paper's text: their verdicts do not make a refuted claim an ambiguity of the text.
  r.faithful = r.name != "repaired" && r.name != "corrected";
  r.check_case = mc_pair_case_fn(check, witness);
  r.methods.emplace_back(Method::kExhaustive, [check, witness, &range](const RunContext& ctx) {
    return exhaustive_mc_pairs(ctx, range.at(ctx.budget), check, witness);
  });
  r.exhaustive_split = true;
  return r;
}

}  // namespace topocheck::claims::metacube_parts
