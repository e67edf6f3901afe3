// Theorem 2 of the Metacube paper (Li, Peng, Chu, "Disjoint Paths in Metacube", Section 3): the
// k+m paths of Algorithm 4 under each reading of it, every part (valid, disjoint, length, the
// case bounds of the proof, fault tolerance) over every pair of the budget's metacubes and, for a
// reading declared translation-invariant, over larger metacubes with the sources reduced to zero
// M fields; and the symmetry that reduction rests on (the class-zero automorphism, and Algorithm
// 4's commutation with it). The ranges per budget and what licenses each reduction:
// catalog/metacube/scope.h.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/metacube/inputs.h"
#include "catalog/metacube/pair_methods.h"
#include "catalog/metacube/parts.h"
#include "catalog/metacube/scope.h"
#include "claims/claim.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"

namespace topocheck::claims::metacube_parts {
namespace {

namespace scope = metacube_scope;
using metacube::Metacube;
using nlohmann::json;

std::string reading_description(const std::string& reading) {
  if (reading == "paper")
    return "Algorithm 4 as printed, with the meanings Tables 2-5 pin down (s^(i,k+i mod m) in case 0, class "
           "tails of case 2's local paths lowest bit first, empty (s^(i) -> w_i) when s^(i) = w_i, P_j of case 2 "
           "ending with t), the key bit from M_s[c_s^(i)] XOR M_t[c_t^(i)] as the rule prints it, HC_i the Gray "
           "cycle whose first step is dimension i, local paths along HC_0, j' = i' = the lowest other local "
           "dimension, x = 0 when no bit is of type 1. Options: " +
           metacube::describe(*metacube::options_for_reading(reading));
  if (reading == "paper-keybit-example4")
    return "As `paper`, but the key bit compares M_s[c_s^(i)] with M_t[c_s^(i)], as Example 4 words it (\"since "
           "M_s[2] = M_t[2] = 00 we assign y = 2\"); identical to `paper` in case 1.";
  if (reading == "corrected")
    return "Algorithm 4 with Example 4's key rule and local changes to printed steps, no search "
           "(docs/findings/metacube.md, \"The corrected construction\"): case 2's P_j with c_s^(j) = c_t built like "
           "the other global paths (key hop, hop l, walk to t) and the local path it displaces entering t through "
           "t^(j); case 1's cluster route when s and t differ only in M[c_s^(i)]; local targets in s's own cluster "
           "reached inside it; the local path whose w is s swapping ends with P_{d0}; for m = 1 the rules of "
           "metacube/lamplighter.h (tagged and monotone laps of the class cube's Gray cycle, hypercube paths in "
           "the layers {} and D) instead of the printed cases. Options: " +
           metacube::describe(*metacube::options_for_reading(reading));
  return "Algorithm 4 as in `paper` but with Example 4's key rule (M_s[c_s^(i)] XOR M_t[c_s^(i)]), every path "
         "loop-erased (a node that recurs cuts out the cycle between its occurrences), then completed: the "
         "loop-erased paths that are valid and mutually disjoint are kept (in index order) as a flow, and the "
         "missing ones are added by shortest augmenting paths (A* on the node-split metacube); where that was "
         "needed, a max-flow from scratch is also built and the one with the shorter longest path kept. See the "
         "README's Metacube section. Options: " +
         metacube::describe(*metacube::options_for_reading(reading));
}

bool translation_invariant(const std::string& reading) {
  const auto& list = scope::kTranslationInvariantReadings;
  return std::find(list.begin(), list.end(), reading) != list.end();
}

// The reduced sweep rests on metacube.symmetry.alg4_commutes: refuse it (an error verdict, naming
// the reason) unless the ledger expects that claim to hold for `reading` at this budget.
std::optional<std::string> reduction_refused(const RunContext& ctx, const std::string& reading) {
  constexpr const char* kCommutes = "metacube.symmetry.alg4_commutes";
  const std::optional<Outcome> expected = ctx.expected(kCommutes, reading);
  if (expected != Outcome::kHolds)
    return fmt::format("reading `{}` is declared translation-invariant (catalog/metacube/scope.h), but the ledger expects {} "
                       "[{}] to be {} at budget {}: the reduced sweep (sources with zero M fields) would be unsound, "
                       "so it is not run",
                       reading, kCommutes, reading, expected ? to_string(*expected) : "(nothing)", to_string(ctx.budget));
  return std::nullopt;
}

// The description of Theorem 2's reading `reading`: the reading in words, and for a
// translation-invariant one, what its reduced sweeps rest on.
std::string thm2_description(const std::string& reading) {
  if (!translation_invariant(reading)) return reading_description(reading);
  return reading_description(reading) +
         " Declared invariant under class-zero translations: the metacubes beyond "
         "its every-pair range are swept with the sources reduced to zero M fields." +
         (reading == "repaired"
              ? " For `repaired` that range stops below MC(2,2) at quick and standard (its "
                "completion is a search; every pair of MC(3,1) is about an hour per claim); the "
                "reduction rests on commutation checked for every pair of that range, on "
                "paper-keybit-example4's commutation (every pair of the exhaustive range, and "
                "SMT), and on the completion reading addresses only through neighbours, equality "
                "and the distance bound (catalog/metacube/scope.h)."
              : "");
}

// Theorem 2's exhaustive method: every pair of every_pair_range(reading); then, for a
// translation-invariant reading, the reduced sweeps.
// Each part of Theorem 2 is invariant under the automorphism (validity, simplicity,
// disjointness, H(s,t), H_k(s,t) and Algorithm 4's case depend on XOR differences and classes
// only), so a violating (s, t) has a violating translate whose source has zero M fields and
// is no larger: the reduced sweep finds the same smallest counterexample.
MethodResult thm2_exhaustive(const RunContext& ctx, const PairCheck& check, const PairWitness& witness,
                             const std::string& reading) {
  // Every pair of every_pair_range(reading) (kExhaustive, or less for `repaired`); the rest of
  // kExhaustive and the larger metacubes reduced, for a translation-invariant reading.
  const std::vector<KM>& all = scope::kExhaustive.at(ctx.budget);
  const std::vector<KM>& every = scope::every_pair_range(reading).at(ctx.budget);
  std::vector<KM> reduced;
  for (KM km : all)
    if (std::find(every.begin(), every.end(), km) == every.end()) reduced.push_back(km);
  const auto& larger = scope::kExhaustiveReduced.at(ctx.budget);
  reduced.insert(reduced.end(), larger.begin(), larger.end());
  if (ctx.shard) {
    const auto& sharded = scope::kExhaustiveSharded.at(ctx.budget);
    reduced.insert(reduced.end(), sharded.begin(), sharded.end());
  }
  const bool invariant = translation_invariant(reading);
  if (invariant && !reduced.empty())
    if (auto refused = reduction_refused(ctx, reading)) {
      MethodResult r;
      r.method = Method::kExhaustive;
      r.outcome = Outcome::kError;
      r.scope = sweep_scope(sweep_parts(every, reduced));
      r.detail = *refused;
      return r;
    }
  MethodResult r =
      invariant ? exhaustive_mc_sweep(ctx, sweep_parts(every, reduced), check, witness)
                : exhaustive_mc_sweep(ctx, sweep_parts(all, {}), check, witness);
  if (!invariant && !reduced.empty())
    r.scope += fmt::format("; not swept: {} (the reading is not declared translation-invariant)", km_list(reduced));
  return r;
}

// Theorem 2's random method: random pairs of larger metacubes, up to 63 address bits (`repaired`:
// k <= 3).
MethodResult thm2_random(const RunContext& ctx, const PairCheck& check, const PairWitness& witness,
                         const std::string& reading) {
  const int max_k = scope::random_max_k(reading);
  const std::string note =
      reading == "repaired"
          ? fmt::format(" (k <= {}: for larger k the completion takes seconds per pair)", max_k)
          : "";
  return random_mc_pairs(ctx, max_k, scope::random_cases(reading, ctx.budget), note, check, witness);
}

// Theorem 2's part `part` under Algorithm 4's reading `reading`: replayed pair by pair, decided by
// thm2_exhaustive and thm2_random.
Reading thm2_reading(const std::string& reading, metacube::Thm2Part part) {
  const metacube::Alg4Options o = *metacube::options_for_reading(reading);
  const PairCheck check = [o, part](const Metacube& mc, Node s, Node t) { return metacube::judge_alg4(mc, s, t, o, part); };
  const PairWitness witness = [o](const Metacube& mc, Node s, Node t) { return alg4_witness(o, mc, s, t); };
  Reading r = pair_reading(reading, thm2_description(reading), check, witness);
  r.methods.clear();
  r.methods.emplace_back(Method::kExhaustive, [check, witness, reading](const RunContext& ctx) {
    return thm2_exhaustive(ctx, check, witness, reading);
  });
  r.exhaustive_split = true;
  r.methods.emplace_back(Method::kRandom, [check, witness, reading](const RunContext& ctx) {
    return thm2_random(ctx, check, witness, reading);
  });
  return r;
}

// A claim of Theorem 2, one reading per reading of Algorithm 4.
void add_thm2_claim(Registry& registry, const std::string& id, const std::string& location, const std::string& statement,
                    metacube::Thm2Part part) {
  std::vector<Reading> readings;
  for (const std::string& reading : metacube::reading_names()) readings.push_back(thm2_reading(reading, part));
  registry.add(Claim::make(kPaper, id, location, statement, std::move(readings)));
}

// ---- The proof of Theorem 2, step by step ------------------------------------------------------

// "The length of the longest path (s -> t) in the first case is H(s,t) + 6 [...] in the second
// case is H(s,t) + 2^k + 4. Similarly, the longest length of the paths (s -> t) in the third case
// is H(s,t) + 2^k + 4 + max{|Z_i|} <= H(s,t) + 2^k + m + 5." (proof of Theorem 2, last paragraph)
// Each case's bound is a claim about Algorithm 4's paths whose premise is the case: a pair of
// another case is not applicable (counted apart).
Reading proof_case_reading(const std::string& reading, int case_number) {
  const metacube::Alg4Options o = *metacube::options_for_reading(reading);
  const PairCheck check = [o, case_number](const Metacube& mc, Node s, Node t) -> PairVerdict {
    const int c = metacube::alg4_case(mc, s, t);
    if (c != case_number)
      return PairVerdict::not_applicable(fmt::format("Algorithm 4's case {}, not {}", c, case_number));
    return metacube::check_alg4(mc, s, t, o, metacube::Thm2Part::kCaseBound);
  };
  const PairWitness witness = [o](const Metacube& mc, Node s, Node t) { return alg4_witness(o, mc, s, t); };
  Reading r = pair_reading(reading,
                           fmt::format("The pairs of Algorithm 4's case {} only (the others are not applicable), "
                                       "every path at most the case's bound (\"is\" read as \"at most\", as the "
                                       "proof uses it). Algorithm 4 read as: {}",
                                       case_number, thm2_description(reading)),
                           check, witness);
  r.methods.clear();
  r.methods.emplace_back(Method::kExhaustive, [check, witness, reading](const RunContext& ctx) {
    return thm2_exhaustive(ctx, check, witness, reading);
  });
  r.exhaustive_split = true;
  r.methods.emplace_back(Method::kRandom, [check, witness, reading](const RunContext& ctx) {
    return thm2_random(ctx, check, witness, reading);
  });
  return r;
}

// The combining step: every case's bound is within Theorem 2's, case_bound(s, t) <= H(s,t) + 2^k
// + m + 5. Both sides depend on (s, t) only through H(s, t) (which cancels), Algorithm 4's case
// and, in case 2, the class distance d = H_k(s, t) (max|Z_i| = d + 1 if d < k, else d - 1: Algorithm
// 2's lengths in the k-cube). So one pair per (case, d) decides a metacube: s = 0, t = 1 (case 0),
// t = 2^m (bit 0 of M[1]: case 1) and t = the class 2^d - 1 with zero M fields (case 2, d =
// 1..k); every MC(k, m) with k = 1..5 and at most 63 address bits, in sweep order.
Violation combined_check(const Metacube& mc, Node s, Node t) {
  const int bound = hamming(s, t) + mc.h() + mc.m() + 5;
  const int step = metacube::case_bound(mc, s, t);
  if (step <= bound) return std::nullopt;
  return fmt::format("case {} (H_k(s,t) = {}): the case bound {} > H(s,t) + 2^k + m + 5 = {}", metacube::alg4_case(mc, s, t),
                     mc.class_distance(s, t), step, bound);
}

MethodResult combined_method(const RunContext& /*ctx*/) {
  MethodResult result;
  result.method = Method::kExhaustive;
  std::vector<KM> all;
  for (int k = 1; k <= 5; ++k)
    for (int m = 1; m * (1 << k) + k <= scope::kRandomMaxBits; ++m) all.push_back({k, m});
  std::stable_sort(all.begin(), all.end(), [](KM a, KM b) {
    return std::pair{a.second * (1 << a.first) + a.first, a.first} < std::pair{b.second * (1 << b.first) + b.first, b.first};
  });
  result.scope = fmt::format("every MC(k,m) with k = 1..5 and at most {} address bits ({} metacubes), one pair per "
                             "case and class distance (the bounds depend on nothing else; H(s,t) cancels)",
                             scope::kRandomMaxBits, all.size());
  for (KM km : all) {
    const Metacube mc = Metacube::make(km.first, km.second).value();
    const Node s = mc.node_at(0);
    std::vector<Node> targets{mc.node_at(1), mc.node_at(uint64_t{1} << mc.m())};
    for (int d = 1; d <= mc.k(); ++d) targets.push_back(mc.with_class(s, (1 << d) - 1));
    for (const Node t : targets) {
      ++result.cases;
      if (auto v = combined_check(mc, s, t)) {
        result.outcome = Outcome::kRefuted;
        result.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), s, t, *v);
        result.counterexample = mc_pair_counterexample(mc, s, t, *v, json{{"case", metacube::alg4_case(mc, s, t)},
                                                                           {"case_bound", metacube::case_bound(mc, s, t)},
                                                                           {"theorem_bound", hamming(s, t) + mc.h() + mc.m() + 5}});
        result.counterexample->minimized = true;
        return result;
      }
    }
  }
  result.outcome = Outcome::kHolds;
  return result;
}

// ---- The symmetry the reduced sweeps rest on ----------------------------------------------------

// For every class-zero a: (u, v) is an edge iff (u^a, v^a) is.
Violation automorphism_check(const Metacube& mc, Node u, Node v) {
  const uint64_t classless = uint64_t{1} << (mc.width() - mc.k());
  for (uint64_t a = 0; a < classless; ++a) {
    const Node na{a, mc.width()};
    if (mc.is_edge(u, v) != mc.is_edge(metacube::translate(u, na), metacube::translate(v, na)))
      return fmt::format("a = {}: is_edge(u,v) = {} but is_edge(u^a, v^a) = {}", na, mc.is_edge(u, v),
                         !mc.is_edge(u, v));
  }
  return std::nullopt;
}

// a_s: the M part of s (s with its class field cleared).
Node m_part(const Metacube& mc, Node s) {
  return Node{s.bits & ((uint64_t{1} << (mc.width() - mc.k())) - 1), mc.width()};
}

// One translate per pair, a_s = the M part of s (s with its class field cleared), instead
// of every class-zero a. Write F for Algorithm 4, T_a for u -> u XOR a. Translations
// compose (T_a T_b = T_{a XOR b}) and a_{s XOR a} = a_s XOR a for class-zero a. Claim:
//   (A) F(s^a, t^a) = T_a F(s, t) for every s != t and every class-zero a
// is equivalent to
//   (B) F(s, t) = T_{a_s} F(s^{a_s}, t^{a_s}) for every s != t.
// (A) gives (B) with a = a_s. Conversely write s0 = s^{a_s} (s's class field alone, the
// same for s and s^a); by (B) at (s, t) and at (s^a, t^a):
//   F(s^a, t^a) = T_{a_s^a} F(s0, t^a^a_s^a) = T_a T_{a_s} F(s0, t^{a_s}) = T_a F(s, t).
// (B) over every pair of a metacube is one extra construction per pair (none when s = s0).
PairCheck commutes_check(const metacube::Alg4Options& o) {
  return [o](const Metacube& mc, Node s, Node t) -> Violation {
    const Node a = m_part(mc, s);
    if (a.bits == 0) return std::nullopt;  // s = s0: (B) is F(s, t) = F(s, t)
    const auto base = metacube::metacube_disjoint_paths(mc, s, t, o).paths;
    const auto moved =
        metacube::metacube_disjoint_paths(mc, metacube::translate(s, a), metacube::translate(t, a), o).paths;
    if (moved.size() != base.size())
      return fmt::format("a = {} (the M part of s): (s^a, t^a) has {} paths, (s, t) has {}", a, moved.size(),
                         base.size());
    for (size_t i = 0; i < base.size(); ++i) {
      Path expect = base[i];
      for (Node& n : expect.nodes) n = metacube::translate(n, a);
      if (!(moved[i] == expect))
        return fmt::format("a = {} (the M part of s): P_{} of (s^a, t^a) = ({}, {}) is {}, not P_{} of (s, t) "
                           "translated ({})",
                           a, i, metacube::translate(s, a), metacube::translate(t, a), moved[i], i, expect);
    }
    return std::nullopt;
  };
}

// The witness: the paths of (s, t) and of its translate (s^a, t^a).
PairWitness commutes_witness(const metacube::Alg4Options& o) {
  return [o](const Metacube& mc, Node s, Node t) {
    json w = alg4_witness(o, mc, s, t);
    const Node a = m_part(mc, s);
    w["translate"] = {{"a", a.to_string()},
                      {"s", metacube::translate(s, a).to_string()},
                      {"t", metacube::translate(t, a).to_string()},
                      {"paths", alg4_witness(o, mc, metacube::translate(s, a), metacube::translate(t, a)).at("paths")}};
    return w;
  };
}

// Commutation under Algorithm 4's reading `reading`, over Theorem 2's every-pair range for it,
// which the reduced sweeps rest on.
Reading commutes_reading(const std::string& reading) {
  const metacube::Alg4Options o = *metacube::options_for_reading(reading);
  return pair_reading(reading,
                      "For every s != t and every class-zero a, under reading `" + reading +
                          "`; checked as the equivalent: for every s != t, against the translate by a = the M part "
                          "of s.",
                      commutes_check(o), commutes_witness(o), scope::every_pair_range(reading));
}

}  // namespace

void add_thm2_claims(Registry& registry) {
  add_thm2_claim(registry, "metacube.thm2.valid", "Section 3, Algorithm 4 and Theorem 2",
                 "Algorithm 4 builds k+m paths from s to t (each valid in MC(k,m) and simple), for any two distinct nodes.",
                 metacube::Thm2Part::kValid);
  add_thm2_claim(registry, "metacube.thm2.disjoint", "Section 3, Theorem 2",
                 "The k+m paths of Algorithm 4 are disjoint: no node other than s and t lies on two of them. "
                 "Judged by its own property on the paths' node sets less s and t (metacube::judge_thm2_shared_node): "
                 "a path that repeats a node is thm2.valid's failure, not this claim's; a pair whose construction is "
                 "not k+m walks from s to t is not applicable (counted apart).",
                 metacube::Thm2Part::kDisjoint);
  add_thm2_claim(registry, "metacube.thm2.length", "Section 3, Theorem 2",
                 "The paths are no longer than H(s,t) + 2^k + m + 5.", metacube::Thm2Part::kLength);
  add_thm2_claim(registry, "metacube.thm2.case_bound", "Section 3, proof of Theorem 2 (last paragraph)",
                 "Longest path: case 0 H+6; case 1 H+2^k+4; case 2 H+2^k+4+max|Z_i|.", metacube::Thm2Part::kCaseBound);
  add_thm2_claim(registry, "metacube.thm2.fault_tolerance", "Abstract and Section 4",
                 "With at most k+m-1 faulty nodes (other than s, t) some constructed path avoids them all. Refuted "
                 "only by a set of at most k+m-1 nodes other than s and t meeting every constructed path, each taken "
                 "as a walk (its node set; metacube::judge_fault_cut); a pair whose paths are not walks from s to t "
                 "is not applicable (counted apart).",
                 metacube::Thm2Part::kFaultTolerance);
}

void add_thm2_proof_claims(Registry& registry) {
  const char* where = "Section 3, proof of Theorem 2 (last paragraph)";
  const std::pair<int, const char*> cases[] = {
      {0, "In case 0 (C_s = C_t) the longest path is H(s,t) + 6 long: \"The length of the longest path (s -> t) in "
          "the first case is H(s,t) + 6\"."},
      {1, "In case 1 (C_s != C_t, c_s = c_t) the longest path is H(s,t) + 2^k + 4 long: \"The length of the longest "
          "path (s -> t) in the second case is H(s,t) + 2^k + 4\"."},
      {2, "In case 2 (c_s != c_t) the longest path is H(s,t) + 2^k + 4 + max|Z_i| long: \"the longest length of the "
          "paths (s -> t) in the third case is H(s,t) + 2^k + 4 + max_{0<=i<=k-1} {|Z_i|}\"."}};
  for (const auto& [number, statement] : cases) {
    std::vector<Reading> readings;
    for (const char* reading : {"paper", "paper-keybit-example4"}) readings.push_back(proof_case_reading(reading, number));
    registry.add(Claim::make(kPaper, fmt::format("metacube.thm2.proof.case{}_length", number), where, statement,
                             std::move(readings)));
  }
  Reading combined = pair_reading(
      "literal",
      "For every pair, its case's bound (H+6, H+2^k+4, H+2^k+4+max|Z_i| with |Z_i| Algorithm 2's lengths in the k-cube: "
      "max = d+1 if d < k, else d-1, d = H_k(s,t)) is at most H(s,t) + 2^k + m + 5; an inequality between the "
      "bounds, not about any path.",
      [](const Metacube& mc, Node s, Node t) -> PairVerdict { return combined_check(mc, s, t); },
      [](const Metacube& mc, Node s, Node t) {
        return json{{"case", metacube::alg4_case(mc, s, t)}, {"case_bound", metacube::case_bound(mc, s, t)},
                    {"theorem_bound", hamming(s, t) + mc.h() + mc.m() + 5}};
      });
  combined.methods.clear();
  combined.methods.emplace_back(Method::kExhaustive, combined_method);
  combined.exhaustive_split = false;  // one pair per case and class distance: not split
  registry.add(Claim::make(kPaper, "metacube.thm2.proof.combined", where,
                           "The case bounds combine into Theorem 2's: H(s,t) + 6 and H(s,t) + 2^k + 4 and \"H(s,t) + 2^k "
                           "+ 4 + max_{0<=i<=k-1} {|Z_i|} <= H(s,t) + 2^k + m + 5\".",
                           {std::move(combined)}));
}

void add_symmetry_claims(Registry& registry) {
  registry.add(Claim::make(
      kPaper, "metacube.symmetry.automorphism", "Section 2 (edge definition); used to reduce exhaustive runs",
      "XOR with any address whose class field is zero is an automorphism of MC(k,m).",
      {pair_reading("literal", "For every u, v and every a with class field 0: (u, v) is an edge iff (u^a, v^a) is.",
                    automorphism_check, [](const Metacube&, Node, Node) { return json::object(); }, scope::kSymmetry)}));
  std::vector<Reading> commutes;
  for (const std::string& reading : metacube::reading_names()) commutes.push_back(commutes_reading(reading));
  registry.add(Claim::make(kPaper, "metacube.symmetry.alg4_commutes",
                           "Section 3, Algorithm 4 (a property of the construction, not stated in the paper)",
                           "Algorithm 4 commutes with class-zero translations: the paths for (s^a, t^a) are those "
                           "for (s, t) with every node XORed with a.",
                           std::move(commutes)));
}

}  // namespace topocheck::claims::metacube_parts
