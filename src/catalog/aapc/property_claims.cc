// The Section 2 claims of the AAPC paper (papers/004_d7c0ed59f63b519b.txt): Properties 1-3 as
// quoted from Park & Bose, the sentence after Property 1, the A_f precondition after Property 3,
// the tightness of Property 2's bound (Example 1 is with the other examples, in
// example_claims.cc). Every reading is judged fault set by fault set
// with the primitives of aapc/partition.h, through the method kit of catalog/aapc/fault_sets.h
// (its comment states the sweep order, the random method and the stored cases' shape); the sizes
// per budget are in catalog/aapc/scope.h.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "catalog/aapc/fault_sets.h"
#include "catalog/aapc/parts.h"
#include "catalog/aapc/scope.h"
#include "claims/claim.h"
#include "claims/example_method.h"

namespace topocheck::claims::aapc_parts {
namespace {

namespace scope = aapc_scope;
using aapc::AfPartition;
using aapc::DimSet;
using aapc::FaultSet;
using aapc::NodeId;
using nlohmann::json;

json ps_json(int n, NodeId ps, DimSet dims) { return aapc::ps_members(n, ps, dims); }

// ---------------------------------------------------------------------------------------------
// Property 1.

// SOME D with |D| = k (k = f - 1: literal; k = f: f_dimensions) leaves at most one fault per PS.
SetCheck prop1_some(const FaultSet& faults, int k, bool want) {
  const int n = faults.n();
  json shared = json::array();
  for (DimSet dims : dims_of_size(n, k)) {
    auto pair = aapc::shared_ps_pair(faults, dims);
    if (!pair) return SetCheck{std::nullopt, json::object(), want ? json{{"D", aapc::dims_to_list(dims)}} : json::object()};
    if (want) shared.push_back({{"D", aapc::dims_to_list(dims)}, {"faults", {pair->first, pair->second}}});
  }
  return SetCheck{fmt::format("each of the {} sets D of {} dimensions puts two faulty nodes in one PS",
                              dims_of_size(n, k).size(), k),
                  json::object(), json{{"shared_ps", shared}}};
}

// EVERY D with |D| = f leaves at most one fault per PS.
SetCheck prop1_any(const FaultSet& faults, const Hints& hints, bool want) {
  const int n = faults.n(), f = static_cast<int>(faults.faulty().size());
  for (DimSet dims : dims_to_try(hints, n, f)) {
    if (auto pair = aapc::shared_ps_pair(faults, dims)) {
      const NodeId ps = aapc::ps_of(pair->first, dims);
      return SetCheck{fmt::format("faulty nodes {} and {} share the PS {} of D = {}", pair->first, pair->second,
                                  ps_json(n, ps, dims).dump(), aapc::dims_to_string(dims)),
                      json{{"D", aapc::dims_to_list(dims)}},
                      json{{"D", aapc::dims_to_list(dims)}, {"ps", ps_json(n, ps, dims)}, {"faults", {pair->first, pair->second}}}};
    }
  }
  (void)want;
  return SetCheck{};
}

// SOME S with |S| = f - 1 on whose bits the faults are pairwise distinct: each (n-f+1)-dimensional
// subcube of dividing along S holds at most one fault. A subcube of S is a PS of the complement of
// S, so this is shared_ps_pair on all_dims ^ S.
SetCheck prop1_subcubes(const FaultSet& faults, bool want) {
  const int n = faults.n(), f = static_cast<int>(faults.faulty().size());
  for (DimSet s : dims_of_size(n, f - 1))
    if (aapc::at_most_one_fault_per_ps(faults, all_dims(n) & ~s))
      return SetCheck{std::nullopt, json::object(), want ? json{{"S", aapc::dims_to_list(s)}} : json::object()};
  return SetCheck{fmt::format("no {} dimensions distinguish the faulty nodes pairwise (every (n-f+1)-dimensional "
                              "subcube partition puts two faults in one subcube)", f - 1),
                  json::object(), json::object()};
}

// The bits in which some two faults differ (= some fault differs from the first one).
DimSet distinguishing_bits(const FaultSet& faults) {
  DimSet bits = 0;
  for (NodeId x : faults.faulty()) bits |= x ^ faults.faulty().front();
  return bits;
}

// For every D with |D| in {f - 1, f} (Property 1's two counts) and at most one fault per PS, and
// every d outside D in which all faults agree: D + {d} still has at most one fault per PS.
SetCheck one_more_no_pair_differs(const FaultSet& faults, const Hints& hints, bool want) {
  const int n = faults.n(), f = static_cast<int>(faults.faulty().size());
  const DimSet distinguishing = distinguishing_bits(faults);
  std::vector<DimSet> candidates;
  if (hints.dims) {
    candidates = {*hints.dims};
  } else {
    for (int k : {f - 1, f})
      for (DimSet dims : dims_of_size(n, k)) candidates.push_back(dims);
  }
  bool premise_met = false;  // some (D, d) satisfies the sentence's "if"
  for (DimSet dims : candidates) {
    if (!aapc::at_most_one_fault_per_ps(faults, dims)) continue;
    for (int d = 0; d < n; ++d) {
      if (hints.d && d != *hints.d) continue;
      if (((dims | distinguishing) >> d) & 1u) continue;
      premise_met = true;
      const DimSet more = dims | (DimSet{1} << d);
      if (auto pair = aapc::shared_ps_pair(faults, more))
        return SetCheck{fmt::format("D = {} has at most one fault per PS and no two faults differ in bit {}, yet faults "
                                    "{} and {} share a PS of D + {{{}}}", aapc::dims_to_string(dims), d, pair->first,
                                    pair->second, d),
                        json{{"D", aapc::dims_to_list(dims)}, {"d", std::to_string(d)}},
                        json{{"distinguishing_bits", aapc::dims_to_list(distinguishing)}}};
    }
  }
  (void)want;
  SetCheck held;
  held.applicable = premise_met;
  return held;
}

// SOME D with |D| = f - 1 and at most one fault per PS has a dimension d outside D in which all
// faults agree (the "one more dimension" exists; D + {d} are then the f dimensions).
SetCheck one_more_exists(const FaultSet& faults, bool want) {
  const int n = faults.n(), f = static_cast<int>(faults.faulty().size());
  const DimSet distinguishing = distinguishing_bits(faults);
  for (DimSet dims : dims_of_size(n, f - 1)) {
    if (!aapc::at_most_one_fault_per_ps(faults, dims)) continue;
    const DimSet free = all_dims(n) & ~dims & ~distinguishing;
    if (free != 0)
      return SetCheck{std::nullopt, json::object(),
                      want ? json{{"D", aapc::dims_to_list(dims)}, {"d", std::countr_zero(free)}} : json::object()};
  }
  return SetCheck{fmt::format("no dimension is left outside the distinguishing bits {} and a set D of f - 1 = {} "
                              "dimensions with at most one fault per PS",
                              aapc::dims_to_string(distinguishing), f - 1),
                  json::object(), json{{"distinguishing_bits", aapc::dims_to_list(distinguishing)}}};
}

// ---------------------------------------------------------------------------------------------
// Property 2.

// The first fault whose neighbour across d is faulty, or nullopt.
std::optional<NodeId> joined_across(const FaultSet& faults, int d) {
  for (NodeId x : faults.faulty())
    if (faults.is_faulty(aapc::corresponding_node(x, d))) return x;
  return std::nullopt;
}

json joined_witness(const FaultSet& faults) {
  json joined = json::array();
  for (int d = 0; d < faults.n(); ++d)
    if (auto x = joined_across(faults, d)) joined.push_back({{"d", d}, {"faults", {*x, aapc::corresponding_node(*x, d)}}});
  return json{{"joined", joined}};
}

// SOME d with x^(d) nonfaulty for every fault x.
SetCheck prop2_literal(const FaultSet& faults, bool want) {
  const DimSet sep = aapc::separating_dimensions(faults);
  if (sep != 0) return SetCheck{std::nullopt, json::object(), want ? json{{"d", std::countr_zero(sep)}} : json::object()};
  return SetCheck{"across every dimension d some faulty node's neighbour x^(d) is faulty", json::object(),
                  want ? joined_witness(faults) : json::object()};
}

// EVERY d.
SetCheck prop2_any(const FaultSet& faults, const Hints& hints, bool want) {
  for (int d = 0; d < faults.n(); ++d) {
    if (hints.d && d != *hints.d) continue;
    if (auto x = joined_across(faults, d)) {
      const NodeId y = aapc::corresponding_node(*x, d);
      return SetCheck{fmt::format("across d = {} the faulty node {} has the faulty neighbour {}", d, *x, y),
                      json{{"d", std::to_string(d)}}, json{{"faults", {*x, y}}}};
    }
  }
  (void)want;
  return SetCheck{};
}

// SOME d whose partners x^(d) are pairwise distinct and nonfaulty (checked as written, without
// using that x -> x^(d) is injective).
SetCheck prop2_distinct(const FaultSet& faults, bool want) {
  for (int d = 0; d < faults.n(); ++d) {
    std::set<NodeId> partners;
    bool ok = true;
    for (NodeId x : faults.faulty()) {
      const NodeId y = aapc::corresponding_node(x, d);
      ok = ok && !faults.is_faulty(y) && partners.insert(y).second;
    }
    if (ok) return SetCheck{std::nullopt, json::object(), want ? json{{"d", d}, {"partners", partners}} : json::object()};
  }
  return SetCheck{"no dimension d gives every faulty node a nonfaulty partner x^(d), pairwise distinct",
                  json::object(), want ? joined_witness(faults) : json::object()};
}

// ---------------------------------------------------------------------------------------------
// Property 3: for every D with |D| = f (or the stored one), a condition on the faulty PSs.

json prop3_witness(const FaultSet& faults, DimSet dims) {
  const int n = faults.n();
  json pss = json::array();
  for (NodeId ps : aapc::faulty_pss(faults, dims)) {
    json perfect = json::array();
    const DimSet js = aapc::perfect_neighbour_dims(faults, ps, dims);
    for (int j = 0; j < n; ++j)
      if ((js >> j) & 1u) perfect.push_back({{"d", j}, {"ps", ps_json(n, aapc::adjacent_ps(ps, j, dims), dims)}});
    pss.push_back({{"ps", ps_json(n, ps, dims)}, {"perfect_neighbours", perfect}});
  }
  return json{{"D", aapc::dims_to_list(dims)}, {"faulty_pss", pss}};
}

enum class Prop3 { kAtLeastOne, kExactlyOne, kMatching, kCommonDimension };

// The violation of condition `which` at D, or nullopt.
Violation prop3_at(const FaultSet& faults, DimSet dims, Prop3 which) {
  const int n = faults.n();
  switch (which) {
    case Prop3::kAtLeastOne:
    case Prop3::kExactlyOne:
      for (NodeId ps : aapc::faulty_pss(faults, dims)) {
        const int count = std::popcount(aapc::perfect_neighbour_dims(faults, ps, dims));
        if (count == 0 || (which == Prop3::kExactlyOne && count != 1))
          return fmt::format("with D = {} the faulty PS {} has {} adjacent perfect PSs", aapc::dims_to_string(dims),
                             ps_json(n, ps, dims).dump(), count);
      }
      return std::nullopt;
    case Prop3::kMatching:
      if (aapc::distinct_perfect_partners(faults, dims)) return std::nullopt;
      return fmt::format("with D = {} the faulty PSs cannot be given pairwise distinct adjacent perfect PSs",
                         aapc::dims_to_string(dims));
    case Prop3::kCommonDimension:
      if (aapc::common_perfect_dims(faults, dims) != 0) return std::nullopt;
      return fmt::format("with D = {} no dimension d outside D takes every faulty PS to a perfect PS",
                         aapc::dims_to_string(dims));
  }
  return std::nullopt;
}

SetCheck prop3_any(const FaultSet& faults, const Hints& hints, bool want, Prop3 which) {
  const int f = static_cast<int>(faults.faulty().size());
  for (DimSet dims : dims_to_try(hints, faults.n(), f))
    if (auto v = prop3_at(faults, dims, which))
      return SetCheck{v, json{{"D", aapc::dims_to_list(dims)}}, prop3_witness(faults, dims)};
  // A stored case naming its D shows the faulty PSs and their perfect neighbours there.
  if (want && hints.dims) return SetCheck{std::nullopt, json::object(), prop3_witness(faults, *hints.dims)};
  return SetCheck{};
}

SetCheck prop3_some_common(const FaultSet& faults, bool want) {
  const int f = static_cast<int>(faults.faulty().size());
  for (DimSet dims : dims_of_size(faults.n(), f))
    if (const DimSet ds = aapc::common_perfect_dims(faults, dims); ds != 0)
      return SetCheck{std::nullopt, json::object(),
                      want ? json{{"D", aapc::dims_to_list(dims)}, {"d", std::countr_zero(ds)}} : json::object()};
  return SetCheck{fmt::format("for every D of {} dimensions some faulty PS has a faulty neighbour across every d", f),
                  json::object(), json::object()};
}

// ---------------------------------------------------------------------------------------------
// Section 2's last paragraph: the A_f partition.

// The faulty Q_{f+1}^j of partition p and the faults in each.
std::vector<std::pair<std::vector<NodeId>, int>> faulty_af_subcubes(const FaultSet& faults, const AfPartition& p) {
  std::vector<std::pair<std::vector<NodeId>, int>> out;
  for (auto& cube : aapc::af_subcubes(faults.n(), p)) {
    const int in = static_cast<int>(std::count_if(cube.begin(), cube.end(), [&](NodeId x) { return faults.is_faulty(x); }));
    if (in > 0) out.emplace_back(std::move(cube), in);
  }
  return out;
}

json af_witness(const FaultSet& faults, const AfPartition& p) {
  json cubes = json::array();
  for (const auto& [cube, in] : faulty_af_subcubes(faults, p)) cubes.push_back(cube);
  return json{{"D", aapc::dims_to_list(p.dims)}, {"d", p.d}, {"faulty_subcubes", cubes}};
}

// find_af_partition succeeds; its Q_{f+1}s are 2^(n-(f+1)), f of them faulty, one fault each.
SetCheck af_literal(const FaultSet& faults, bool want) {
  const int n = faults.n(), f = static_cast<int>(faults.faulty().size());
  const auto p = aapc::find_af_partition(faults);
  if (!p) return SetCheck{"no D of f dimensions with at most one fault per PS has a dimension d taking every faulty PS "
                          "to a perfect PS", json::object(), json::object()};
  if (auto v = aapc::check_af_partition(faults, *p))
    return SetCheck{"find_af_partition returned an invalid partition: " + *v, json::object(), af_witness(faults, *p)};
  const size_t cubes = aapc::af_subcubes(n, *p).size();
  const auto faulty = faulty_af_subcubes(faults, *p);
  const bool one_each = std::all_of(faulty.begin(), faulty.end(), [](const auto& c) { return c.second == 1; });
  if (cubes != (size_t{1} << (n - f - 1)) || static_cast<int>(faulty.size()) != f || !one_each)
    return SetCheck{fmt::format("{}: {} Q_{}s, {} faulty (expected 2^(n-(f+1)) = {}, f = {} with one fault each)",
                                aapc::to_string(*p), cubes, f + 1, faulty.size(), size_t{1} << (n - f - 1), f),
                    json::object(), af_witness(faults, *p)};
  return SetCheck{std::nullopt, json::object(), want ? af_witness(faults, *p) : json::object()};
}

// As printed: SOME A_f partition has exactly 2^(f+1) faulty Q_{f+1}s.
SetCheck af_as_printed(const FaultSet& faults, bool want) {
  const int f = static_cast<int>(faults.faulty().size());
  const auto all = aapc::all_af_partitions(faults);
  std::set<size_t> counts;
  for (const AfPartition& p : all) {
    const size_t faulty = faulty_af_subcubes(faults, p).size();
    if (faulty == (size_t{1} << (f + 1)))
      return SetCheck{std::nullopt, json::object(), want ? af_witness(faults, p) : json::object()};
    counts.insert(faulty);
  }
  return SetCheck{fmt::format("none of the {} A_f partitions has 2^(f+1) = {} faulty Q_{}s (faulty counts: {})",
                              all.size(), size_t{1} << (f + 1), f + 1, fmt::join(counts, ", ")),
                  json::object(), all.empty() ? json::object() : af_witness(faults, all.front())};
}

// ---------------------------------------------------------------------------------------------
// Property 2's bound: f = n + 1 faults can leave no such d.

// The lexicographically first fault set of n + 1 nodes of Q_n without a separating dimension.
std::optional<FaultSet> first_bound_witness(int n, uint64_t* tried) {
  const uint64_t size = uint64_t{1} << n;
  const int f = n + 1;
  if (static_cast<uint64_t>(f) >= size) return std::nullopt;  // not every node may be faulty
  std::vector<NodeId> c = unrank_subset(size, f, 0);
  do {
    ++*tried;
    FaultSet faults(n, c);
    if (aapc::separating_dimensions(faults) == 0) return faults;
  } while (next_subset(c, size));
  return std::nullopt;
}

// aapc.prop2.bound_tight, a stored case: a witness to judge, or the search to re-run.
Result<CaseCheck> bound_tight_case(const json& params, const json& input) {
  auto n = parse_n(params);
  if (!n) return n.error();
  if (!input.is_object()) return invalid_argument("input must be an object");
  if (input.contains("faults")) {
    if (!input.at("faults").is_string()) return invalid_argument("input.faults must be a string of node numbers");
    auto faults = aapc::parse_faults(*n, input.at("faults").get<std::string>());
    if (!faults) return invalid_argument("input.faults: " + without_flag(faults.error().message));
    if (static_cast<int>(faults->faulty().size()) != *n + 1)
      return invalid_argument(fmt::format("input.faults: a witness has f = n + 1 = {} nodes", *n + 1));
    const DimSet sep = aapc::separating_dimensions(*faults);
    if (sep != 0)
      return CaseCheck{fmt::format("{} is no witness: d = {} separates it", faults->to_string(), std::countr_zero(sep)),
                       json::object()};
    return CaseCheck{std::nullopt, joined_witness(*faults)};
  }
  if (*n < 2 || *n > 8) return invalid_argument("params.n must be 2..8 for the witness search");
  uint64_t tried = 0;
  if (auto w = first_bound_witness(*n, &tried)) return CaseCheck{std::nullopt, {{"faults", faults_text(*w)}}};
  return CaseCheck{fmt::format("every set of {} faulty nodes of Q_{} has a separating dimension", *n + 1, *n),
                   json::object()};
}

// aapc.prop2.bound_tight: the first f = n + 1 witness for every n = 2..max (not split by --shard).
MethodResult bound_tight_method(const RunContext& ctx) {
  MethodResult result;
  result.method = Method::kExhaustive;
  const int max_n = scope::kBoundMaxN.at(ctx.budget);
  result.scope = fmt::format("n = 2..{}, f = n + 1, fault sets in lexicographic order up to the first witness", max_n);
  std::vector<std::string> found;
  for (int n = 2; n <= max_n; ++n) {
    ctx.report(fmt::format("f = n + 1 witness search, n = {}", n));
    auto w = first_bound_witness(n, &result.cases);
    if (!w) {
      result.outcome = Outcome::kRefuted;
      Counterexample cx;
      cx.params = {{"n", n}};
      cx.violation = fmt::format("every set of {} faulty nodes of Q_{} has a separating dimension", n + 1, n);
      cx.minimized = true;
      result.detail = cx.violation;
      result.counterexample = cx;
      return result;
    }
    found.push_back(fmt::format("n = {}: {}", n, w->to_string()));
  }
  result.scope = fmt::format("n = 2..{}, f = n + 1, fault sets in lexicographic order up to the first witness ({})",
                             max_n, fmt::join(found, "; "));
  result.outcome = Outcome::kHolds;
  return result;
}

}  // namespace

// Property 1 and the sentence after it.
void add_property1_claims(Registry& registry) {
  const std::string prop1_statement =
      "[Property 1] A Q_n containing f <= floor(n/2) faulty nodes can be partitioned into (n - f + 1)-dimensional "
      "subcubes so that each PS contains at most one faulty node. (Before it: \"Property 1 gives the f dimensions along "
      "which Q_n needs to be partitioned to have at most one faulty node in each PS.\")";
  {
    std::vector<Reading> readings;
    readings.push_back(make_reading(SetReading{
        "literal",
        "For every Q_n and fault set with 1 <= f <= floor(n/2): SOME set D of f - 1 dimensions (dividing along D gives "
        "subcubes of dimension n - f + 1, as in the statement) leaves every PS (a Q_{f-1}: the nodes agreeing outside "
        "D) with at most one faulty node; i.e. no two faults a, b have every bit of a xor b inside D.",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) {
          return prop1_some(f, static_cast<int>(f.faulty().size()) - 1, want);
        }}));
    readings.push_back(make_reading(SetReading{
        "f_dimensions",
        "As the sentence before Property 1 says (\"gives the f dimensions\"): for every fault set with 1 <= f <= "
        "floor(n/2), SOME set D of f dimensions leaves every PS (a Q_f) with at most one faulty node.",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) {
          return prop1_some(f, static_cast<int>(f.faulty().size()), want);
        }}));
    readings.push_back(make_reading(SetReading{
        "any_f_dimensions",
        "For every fault set with 1 <= f <= floor(n/2) and EVERY set D of f dimensions, every PS of D holds at most one "
        "faulty node (a stored case may name the D in input.D).",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, dims_of_f(), prop1_any}));
    readings.push_back(make_reading(SetReading{
        "subcubes",
        "Park & Bose's sense, reading 'each PS' as each of the (n - f + 1)-dimensional subcubes: for every fault set "
        "with 1 <= f <= floor(n/2), SOME set S of f - 1 dimensions on which the faulty nodes are pairwise distinct, so "
        "each subcube of dividing along S (the nodes agreeing on S, a Q_{n-f+1}) holds at most one faulty node. "
        "(A subcube of S is a PS of the complement of S: checked as shared_ps_pair on the complement.)",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) { return prop1_subcubes(f, want); }}));
    registry.add(Claim::make(kPaper, "aapc.prop1.partition", "Section 2, Property 1 and the sentence before it",
                             prop1_statement, std::move(readings)));
  }
  {
    std::vector<Reading> readings;
    DimRule rule{true, true,
                 [](int, int f, DimSet dims) { return std::popcount(dims) == f - 1 || std::popcount(dims) == f; },
                 "a set of f - 1 or f dimensions"};
    readings.push_back(make_reading(SetReading{
        "no_fault_pair_differs",
        "Distinguishing bits = the bits in which some two faulty nodes differ (the same set as the bits in which some "
        "fault differs from the first one, so a 'differs_from_first' reading is this one). For every fault set with 1 "
        "<= f <= floor(n/2), EVERY D of f - 1 or f dimensions (Property 1's two counts) with at most one fault per PS "
        "and EVERY dimension d outside D and outside the distinguishing bits: every PS of D + {d} still holds at most "
        "one faulty node (stored cases may name D and d).",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, rule, one_more_no_pair_differs}));
    readings.push_back(make_reading(SetReading{
        "exists_common_bit",
        "The sentence as a promise that the one more dimension exists (it turns Property 1's f - 1 dimensions into the "
        "f dimensions the sentence before Property 1 mentions): for every fault set with 1 <= f <= floor(n/2), SOME D "
        "of f - 1 dimensions with at most one fault per PS leaves a dimension d outside D in which all faulty nodes "
        "agree (not a distinguishing bit).",
        FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) { return one_more_exists(f, want); }}));
    registry.add(Claim::make(kPaper, "aapc.prop1.one_more_dimension", "Section 2, the sentence after Property 1",
                             "If the Q_n is partitioned along one more dimension that is not part of the "
                             "distinguishing bits of the faulty node address bits, each PS still contains at most one "
                             "faulty node.",
                             std::move(readings)));
  }
}

// Property 2 and the tightness of its bound.
void add_property2_claims(Registry& registry) {
  const std::string prop2_statement =
      "[Property 2] Let the number of faulty nodes in a Q_n be f <= n. Then there exists a dimension d such that if "
      "Q_n is divided along it, every faulty node has a unique nonfaulty adjacent node along d.";
  {
    std::vector<Reading> readings;
    readings.push_back(make_reading(SetReading{
        "literal",
        "For every fault set with 1 <= f <= n: SOME dimension d such that for every faulty node x the node x^(d) "
        "(its only neighbour along d) is nonfaulty.",
        FRange::kFull, scope::kProp2ExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) { return prop2_literal(f, want); }}));
    readings.push_back(make_reading(SetReading{
        "any",
        "For every fault set with 1 <= f <= n and EVERY dimension d, x^(d) is nonfaulty for every faulty node x (a "
        "stored case may name the d in input.d).",
        FRange::kFull, scope::kProp2ExhaustiveMaxN, DimRule{false, true, [](int, int, DimSet) { return false; }, ""},
        prop2_any}));
    readings.push_back(make_reading(SetReading{
        "distinct_partners",
        "'Unique' as pairwise distinct: for every fault set with 1 <= f <= n, SOME d such that the partners x^(d) of "
        "the faulty nodes x are nonfaulty and pairwise distinct. Checked as written; it is the same as `literal` "
        "because x -> x^(d) is one-to-one, so the partners are always distinct.",
        FRange::kFull, scope::kProp2ExhaustiveMaxN, no_dims(),
        [](const FaultSet& f, const Hints&, bool want) { return prop2_distinct(f, want); }}));
    registry.add(Claim::make(kPaper, "aapc.prop2.dimension", "Section 2, Property 2", prop2_statement,
                             std::move(readings)));
  }
  {
    std::vector<Reading> readings;
    Reading r;
    r.name = "literal";
    r.description =
        "The bound f <= n cannot be raised: for every n >= 2 in range there is a fault set of f = n + 1 nodes with no "
        "dimension d as in Property 2's literal reading (every d has a faulty x with x^(d) faulty). The method finds "
        "the lexicographically first such set per n. (n = 1 is left out: f = 2 would make every node faulty.) A "
        "stored case with input.faults names a witness (violation if it has a separating dimension); without it, the "
        "case re-runs the search at params.n (n <= 8).";
    r.check_case = bound_tight_case;
    r.methods.emplace_back(Method::kExhaustive, bound_tight_method);
    readings.push_back(std::move(r));
    registry.add(Claim::make(kPaper, "aapc.prop2.bound_tight", "Section 2, Property 2 (the bound f <= n)",
                             prop2_statement, std::move(readings)));
  }
}

// Property 3.
void add_property3_claims(Registry& registry) {
  std::vector<Reading> readings;
  struct Prop3Reading {
    const char* name;
    const char* description;
    Prop3 which;
  };
  const Prop3Reading any_readings[] = {
      {"any_at_least_one",
       "For every fault set with 1 <= f <= floor(n/2) and EVERY D of f dimensions: each faulty PS (a PS holding a "
       "faulty node; it may hold several) has AT LEAST ONE adjacent PS (P xor e_j, j outside D) that is perfect.",
       Prop3::kAtLeastOne},
      {"any_exactly_one",
       "'Unique' as exactly one: for every fault set with 1 <= f <= floor(n/2) and EVERY D of f dimensions, each "
       "faulty PS has EXACTLY ONE adjacent perfect PS.",
       Prop3::kExactlyOne},
      {"any_matching",
       "'Unique' as its own: for every fault set with 1 <= f <= floor(n/2) and EVERY D of f dimensions, the faulty "
       "PSs can be given pairwise DISTINCT adjacent perfect PSs (a matching; A_f's 'f faulty PSs have each disjoint "
       "nonfaulty PS adjacent to themselves').",
       Prop3::kMatching},
      {"any_common_dimension",
       "What the construction of the Q_{f+1}s needs: for every fault set with 1 <= f <= floor(n/2) and EVERY D of f "
       "dimensions, ONE dimension d outside D such that every faulty PS's neighbour across d is perfect.",
       Prop3::kCommonDimension},
  };
  for (const Prop3Reading& pr : any_readings) {
    const Prop3 which = pr.which;
    readings.push_back(make_reading(SetReading{
        pr.name, pr.description, FRange::kHalf, scope::kPropertyExhaustiveMaxN, dims_of_f(),
        [which](const FaultSet& f, const Hints& hints, bool want) { return prop3_any(f, hints, want, which); }}));
  }
  readings.push_back(make_reading(SetReading{
      "some_common_dimension",
      "'Any' as 'some': for every fault set with 1 <= f <= floor(n/2), SOME D of f dimensions and ONE dimension d "
      "outside D such that every faulty PS's neighbour across d is perfect.",
      FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
      [](const FaultSet& f, const Hints&, bool want) { return prop3_some_common(f, want); }}));
  registry.add(Claim::make(kPaper, "aapc.prop3.perfect_partner", "Section 2, Property 3",
                           "[Property 3] If a Q_n that contains f <= floor(n/2) faulty nodes is divided along any f "
                           "dimensions, then each faulty PS has a unique perfect PS adjacent to it.",
                           std::move(readings)));
}

// The A_f precondition (the paragraph after Property 3).
void add_af_precondition_claims(Registry& registry) {
  std::vector<Reading> readings;
  readings.push_back(make_reading(SetReading{
      "literal",
      "For every fault set with 1 <= f <= floor(n/2), find_af_partition succeeds: SOME D of f dimensions with at most "
      "one faulty node per PS (Property 1) and a dimension d outside D taking every faulty PS to a perfect PS "
      "(Property 3); its Q_{f+1}s (the cosets of span(D + {d})) are 2^(n-(f+1)), exactly f of them faulty, each "
      "with one faulty node. Erratum: the printed '2^(f+1) Q_{f+1}s are faulty' must be 'f' (at most f subcubes "
      "can hold the f faults; reading `as_printed` checks the printed count).",
      FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
      [](const FaultSet& f, const Hints&, bool want) { return af_literal(f, want); }}));
  readings.push_back(make_reading(SetReading{
      "as_printed",
      "The count as printed: for every fault set with 1 <= f <= floor(n/2), SOME A_f partition (D, d) has exactly "
      "2^(f+1) faulty Q_{f+1}s among its 2^(n-(f+1)).",
      FRange::kHalf, scope::kPropertyExhaustiveMaxN, no_dims(),
      [](const FaultSet& f, const Hints&, bool want) { return af_as_printed(f, want); }}));
  registry.add(Claim::make(kPaper, "aapc.sec2.af_precondition",
                           "Section 2, the paragraph after Property 3 (used by A_2 and A_f, Section 3)",
                           "By the guarantee of the above 2 properties, we can construct 2^(n-(f+1)) Q_{f+1}s where "
                           "2^(f+1) Q_{f+1}s are faulty and the remainders are nonfaulty.",
                           std::move(readings)));
}

}  // namespace topocheck::claims::aapc_parts
