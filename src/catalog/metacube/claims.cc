// The Metacube claims (Li, Peng, Chu, "Disjoint Paths in Metacube": Section 2 examples and
// Theorem 1; Section 3 Algorithm 4, Examples 2-5, Theorem 2 and its corollary). Every method
// judges with metacube/metacube_checks.h, which calls core's naive checkers.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "catalog/metacube/connectivity_oracle.h"
#include "claims/example_method.h"
#include "catalog/metacube/inputs.h"
#include "catalog/metacube/scope.h"
#include "claims/random_method.h"
#include "core/graph.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"
#include "metacube/metacube_gen.h"
#include "metacube/routing.h"

namespace topocheck::claims {
namespace {

namespace scope = metacube_scope;
using metacube::Metacube;
using scope::KM;
using nlohmann::json;

constexpr const char* kPaper = "003_870397c57c58895c.txt";

// ---------------------------------------------------------------------------------------------
// Pair checks over every ordered pair of a list of metacubes.

using PairCheck = std::function<Violation(const Metacube&, Node, Node)>;
using PairWitness = std::function<json(const Metacube&, Node, Node)>;

// One metacube of an exhaustive sweep: every source, or (`reduced`) only the sources with zero M
// fields (the class-zero translation symmetry; see add_thm2_claim).
struct SweepPart {
  KM km;
  bool reduced = false;
};

int width_of(KM km) { return km.second * (1 << km.first) + km.first; }

// The parts in sweep order: address width, then k (so the first violation found is the
// smallest: width, then k, then s, then t).
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

// Every pair of the sweep in order: per part, sources ascending (all addresses, or the 2^k
// addresses with zero M fields: class c is c << (n - k)), and for each source every target t != s
// ascending. With ctx.shard, only the shard's contiguous range of the whole sequence (the slots
// t = s counted, so that the split does not depend on the check). Stops at the first violation.
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
  const auto [first, last] = ctx.shard ? ctx.shard->range(total) : std::pair<uint64_t, uint64_t>{0, total};
  if (ctx.shard) result.shard = fmt::format("{}, pairs [{}, {}) of {}", ctx.shard->to_string(), first, last, total);
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
      if (auto v = check(mc, s, t)) {
        result.outcome = Outcome::kRefuted;
        result.detail = fmt::format("{}: s = {}, t = {}: {}", mc.name(), s, t, *v);
        result.counterexample = mc_pair_counterexample(mc, s, t, *v, witness(mc, s, t));
        result.counterexample->minimized = true;
        return result;
      }
    }
  }
  result.outcome = Outcome::kHolds;
  return result;
}

// Every ordered pair s != t of the metacubes in `list`.
MethodResult exhaustive_mc_pairs(const RunContext& ctx, const std::vector<KM>& list, const PairCheck& check,
                                 const PairWitness& witness) {
  return exhaustive_mc_sweep(ctx, sweep_parts(list, {}), check, witness);
}

// Random pairs (k, m, s, t) of gen::metacube_pair with k <= max_k and up to
// scope::kRandomMaxBits address bits, `cases` of them (see run_random: seeded, shrunk). After
// shrinking, the metacubes of scope::kRandomBelow up to the shrunk one (width, then k; its own
// included) are swept exhaustively for an earlier failure. The counterexample has the
// exhaustive method's shape (params k, m; input s, t), so the corpus stores and replays it alike.
MethodResult random_mc_pairs(const RunContext& ctx, int max_k, int cases, const std::string& note,
                             const PairCheck& check, const PairWitness& witness) {
  RandomSpec<metacube::McPair> spec{metacube::gen::metacube_pair(scope::kRandomMaxBits, max_k)};
  spec.cases = cases;
  spec.scope = fmt::format("MC(k,m) with k = 1..{} and up to {} address bits{}, s != t (gen::metacube_pair)", max_k,
                           scope::kRandomMaxBits, note);
  spec.check = [&](const metacube::McPair& p) -> std::optional<Counterexample> {
    const Metacube mc = p.metacube();
    if (auto v = check(mc, p.s, p.t)) return mc_pair_counterexample(mc, p.s, p.t, *v, witness(mc, p.s, p.t));
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
  if (result.counterexample) {  // in the exhaustive method's words: "MC(1,1): s = 000, t = 010: ..."
    const Counterexample& cx = *result.counterexample;
    result.detail = fmt::format("MC({},{}): s = {}, t = {}: {}", cx.params.at("k").get<int>(),
                                cx.params.at("m").get<int>(), cx.input.at("s").get<std::string>(),
                                cx.input.at("t").get<std::string>(), cx.violation);
  }
  return result;
}

CaseFn mc_pair_case_fn(PairCheck check, PairWitness witness) {
  return [check, witness](const json& params, const json& input) -> Result<CaseCheck> {
    auto in = parse_mc_pair(params, input);
    if (!in) return in.error();
    return CaseCheck{check(in->mc, in->s, in->t), witness(in->mc, in->s, in->t)};
  };
}

json alg4_witness(const metacube::Alg4Options& o, const Metacube& mc, Node s, Node t) {
  const auto r = metacube::metacube_disjoint_paths(mc, s, t, o);
  return {{"case", r.case_number}, {"paths", paths_to_json(r.paths)}, {"notes", r.notes}};
}

// ---------------------------------------------------------------------------------------------
// Examples: one compute function for every kind of printed example.

Result<json> compute_example(const json& params, const json& input) {
  auto mc = parse_mc(params);
  if (!mc) return mc.error();
  if (!input.is_object() || !input.contains("kind") || !input.at("kind").is_string())
    return invalid_argument("input.kind must be a string");
  const std::string kind = input.at("kind").get<std::string>();
  auto class_text = [&](int c) {
    std::string out;
    for (int b = mc->k() - 1; b >= 0; --b) out += ((c >> b) & 1) ? '1' : '0';
    return out;
  };
  if (kind == "neighbours") {
    auto u = parse_mc_node(*mc, input, "u");
    if (!u) return u.error();
    json cluster = json::array(), cross = json::array();
    // In the order the paper lists them: dimension order (cluster, then class cube).
    for (int d = mc->k(); d < mc->k() + mc->m(); ++d) cluster.push_back(mc->format_fields(mc->neighbor(*u, d)));
    for (int d = 0; d < mc->k(); ++d) cross.push_back(mc->format_fields(mc->neighbor(*u, d)));
    return json{{"cluster", cluster}, {"class_cube", cross}};
  }
  if (kind == "ids") {
    auto u = parse_mc_node(*mc, input, "u");
    if (!u) return u.error();
    json cluster = json::array();
    for (uint64_t v = 0; v <= (uint64_t{1} << mc->m()) - 1; ++v) {
      const Node w = mc->with_field(*u, mc->class_of(*u), v);
      cluster.push_back(mc->node_id(w) + mc->cluster_id(w));
    }
    return json{{"class", mc->class_of(*u)},
                {"node", mc->node_id(*u) + mc->cluster_id(*u)},
                {"cluster", cluster},
                {"cluster_id", mc->cluster_id(*u)}};
  }
  if (kind == "route") {
    auto s = parse_mc_node(*mc, input, "s");
    if (!s) return s.error();
    auto t = parse_mc_node(*mc, input, "t");
    if (!t) return t.error();
    json classes = json::array();
    for (int c : metacube::weak_hamiltonian_path(mc->k(), mc->class_of(*s), mc->class_of(*t))) classes.push_back(class_text(c));
    return json{{"class_path", classes}, {"path", path_to_json(metacube::p1(*mc, *s, *t))}};
  }
  if (kind == "class_path") {
    auto field = [&](const char* key) -> Result<int> {
      if (!input.contains(key) || !input.at(key).is_string()) return invalid_argument(fmt::format("input.{} must be a class string", key));
      auto n = parse_node(input.at(key).get<std::string>(), mc->k());
      if (!n) return invalid_argument(fmt::format("input.{}: {}", key, n.error().message));
      return static_cast<int>(n->bits);
    };
    auto from = field("from");
    if (!from) return from.error();
    auto to = field("to");
    if (!to) return to.error();
    auto next = field("next");
    if (!next) return next.error();
    const int first = std::countr_zero(static_cast<unsigned>(*from ^ *next));
    if (std::popcount(static_cast<unsigned>(*from ^ *next)) != 1) return invalid_argument("input.next must be a neighbour of input.from");
    json classes = json::array();
    for (int c : metacube::weak_hamiltonian_path(mc->k(), *from, *to, first)) classes.push_back(class_text(c));
    return json{{"class_path", classes}};
  }
  if (kind == "paths") {
    auto in = parse_mc_pair_nodes(*mc, input);
    if (!in) return in.error();
    const auto r = metacube::metacube_disjoint_paths(*mc, in->s, in->t, *metacube::options_for_reading("paper"));
    int longest = 0;
    for (const Path& p : r.paths) longest = std::max(longest, p.length());
    json which = json::array();
    for (size_t i = 0; i < r.paths.size(); ++i)
      if (r.paths[i].length() == longest) which.push_back(i);
    return json{{"paths", paths_to_json(r.paths)}, {"longest", which}, {"longest_length", longest}};
  }
  return invalid_argument(fmt::format("input.kind '{}' is not neighbours, ids, route, class_path or paths", kind));
}

// ---------------------------------------------------------------------------------------------
// Theorem 1 by BFS.

enum class Thm1Part { kDistanceBound, kDiameter, kAverage };

// Violation of one Theorem 1 part on one metacube (whole graph).
Violation check_thm1(const Metacube& mc, Thm1Part part, const RunContext* ctx, std::optional<std::pair<Node, Node>>* where) {
  const UndirectedGraph g = materialize(mc);
  int diameter = 0;
  long double total = 0;
  const uint64_t size = mc.num_nodes();
  for (uint64_t a = 0; a < size; ++a) {
    if (ctx && a % 256 == 0) ctx->report(fmt::format("BFS {}: source {}/{}", mc.name(), a, size));
    const std::vector<int> dist = bfs_distances(g, a);
    for (uint64_t b = 0; b < size; ++b) {
      const Node s = mc.node_at(a), t = mc.node_at(b);
      const int d = dist[b];
      if (d < 0) {
        if (where) *where = std::pair{s, t};
        return fmt::format("{} is not reachable from {}", t, s);
      }
      diameter = std::max(diameter, d);
      total += d;
      if (part == Thm1Part::kDistanceBound) {
        const int bound = hamming(s, t) - mc.class_distance(s, t) + mc.h();
        if (d > bound) {
          if (where) *where = std::pair{s, t};
          return fmt::format("d(s,t) = {} > H(s,t) - H_k(s,t) + 2^k = {}", d, bound);
        }
      }
    }
  }
  if (part == Thm1Part::kDiameter && diameter != mc.h() * (mc.m() + 1))
    return fmt::format("{} has diameter {}, not 2^k(m+1) = {}", mc.name(), diameter, mc.h() * (mc.m() + 1));
  if (part == Thm1Part::kAverage) {
    // Average over ordered pairs s != t (the paper does not say; with s = t included it is smaller).
    const long double avg = total / static_cast<long double>(size * (size - 1));
    const long double bound = (mc.width() - mc.k()) / 2.0L + mc.h();
    if (avg > bound)
      return fmt::format("{} has average distance {:.4f} > (n-k)/2 + 2^k = {:.4f}", mc.name(), static_cast<double>(avg),
                         static_cast<double>(bound));
  }
  return std::nullopt;
}

MethodFn thm1_method(Thm1Part part) {
  return [part](const RunContext& ctx) {
    MethodResult result;
    result.method = Method::kOracle;
    const auto& list = scope::kBfs.at(ctx.budget);
    result.scope = fmt::format("{}: BFS from every node (Boost breadth_first_search)", km_list(list));
    for (auto [k, m] : list) {
      const Metacube mc = Metacube::make(k, m).value();
      std::optional<std::pair<Node, Node>> where;
      ++result.cases;
      if (auto v = check_thm1(mc, part, &ctx, &where)) {
        result.outcome = Outcome::kRefuted;
        result.detail = fmt::format("{}: {}", mc.name(), *v);
        Counterexample cx;
        cx.params = {{"k", k}, {"m", m}};
        if (where) cx.input = {{"s", where->first.to_string()}, {"t", where->second.to_string()}};
        cx.violation = *v;
        cx.minimized = true;
        result.counterexample = cx;
        return result;
      }
    }
    result.outcome = Outcome::kHolds;
    return result;
  };
}

CaseFn thm1_case_fn(Thm1Part part) {
  return [part](const json& params, const json&) -> Result<CaseCheck> {
    auto mc = parse_mc(params);
    if (!mc) return mc.error();
    if (mc->width() > 16) return invalid_argument("params: at most 16 address bits for the BFS oracle");
    return CaseCheck{check_thm1(*mc, part, nullptr, nullptr), json::object()};
  };
}

// ---------------------------------------------------------------------------------------------
// Registration helpers.

// A claim of the Metacube paper.
Claim metacube_claim(std::string id, std::string location, std::string statement) {
  return Claim::make(kPaper, std::move(id), std::move(location), std::move(statement), {});
}

// Adds a reading judged pair by pair: replayed with `check`, decided by every ordered pair s != t
// of the metacubes `range` lists at the budget.
void add_pair_reading(Claim& c, std::string name, std::string description, PairCheck check, PairWitness witness,
                      const PerBudget<std::vector<KM>>& range = scope::kExhaustive) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.check_case = mc_pair_case_fn(check, witness);
  r.methods.emplace_back(Method::kExhaustive, [check, witness, &range](const RunContext& ctx) {
    return exhaustive_mc_pairs(ctx, range.at(ctx.budget), check, witness);
  });
  c.readings.push_back(std::move(r));
}

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

void add_thm2_claim(Registry& registry, const std::string& id, const std::string& location, const std::string& statement,
                    metacube::Thm2Part part) {
  Claim c = metacube_claim(id, location, statement);
  for (const std::string& reading : metacube::reading_names()) {
    const metacube::Alg4Options o = *metacube::options_for_reading(reading);
    const PairCheck check = [o, part](const Metacube& mc, Node s, Node t) { return metacube::check_alg4(mc, s, t, o, part); };
    const PairWitness witness = [o](const Metacube& mc, Node s, Node t) { return alg4_witness(o, mc, s, t); };
    add_pair_reading(c, reading,
                     reading_description(reading) +
                         (translation_invariant(reading)
                              ? std::string(" Declared invariant under class-zero translations: the metacubes beyond "
                                            "its every-pair range are swept with the sources reduced to zero M fields.") +
                                    (reading == "repaired"
                                         ? " For `repaired` that range stops below MC(2,2) at quick and standard (its "
                                           "completion is a search; every pair of MC(3,1) is about an hour per claim); the "
                                           "reduction rests on commutation checked for every pair of that range, on "
                                           "paper-keybit-example4's commutation (every pair of the exhaustive range, and "
                                           "SMT), and on the completion reading addresses only through neighbours, equality "
                                           "and the distance bound (catalog/metacube/scope.h)."
                                         : "")
                              : std::string()),
                     check, witness);
    // Every pair of kExhaustive; then, for a translation-invariant reading, the reduced sweeps.
    // Each part of Theorem 2 is invariant under the automorphism (validity, simplicity,
    // disjointness, H(s,t), H_k(s,t) and Algorithm 4's case depend on XOR differences and classes
    // only), so a violating (s, t) has a violating translate whose source has zero M fields and
    // is no larger: the reduced sweep finds the same smallest counterexample.
    c.readings.back().methods.clear();
    c.readings.back().methods.emplace_back(Method::kExhaustive, [check, witness, reading](const RunContext& ctx) {
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
    });
    // Random pairs of larger metacubes, up to 63 address bits (`repaired`: k <= 3).
    c.readings.back().methods.emplace_back(Method::kRandom, [check, witness, reading](const RunContext& ctx) {
      const int max_k = scope::random_max_k(reading);
      const std::string note =
          reading == "repaired"
              ? fmt::format(" (k <= {}: for larger k the completion takes seconds per pair)", max_k)
              : "";
      return random_mc_pairs(ctx, max_k, scope::random_cases(reading, ctx.budget), note, check, witness);
    });
  }
  registry.add(std::move(c));
}

}  // namespace

void register_metacube_claims(Registry& registry) {
  {
    Claim c = metacube_claim(
        "metacube.examples",
        "Section 2 (neighbour example, node 56, Example 1, next(s)); Section 3 (Tables 2-5, Examples 2-5)",
        "Every printed metacube example: neighbours in MC(2,3), node and cluster IDs in MC(2,2), Example 1's route, the "
        "class cycle for next(s) = 10, the four paths of Tables 2-5 and the longest lengths stated in Examples 2-5.");
    Reading r;
    r.name = "paper";
    r.description = "Computed with the `paper` reading of Algorithm 4 and Algorithm 1 with the Gray class cycle; "
                    "every printed cell equals the computed one or is a recorded erratum.";
    r.compute_example = compute_example;
    r.methods.emplace_back(Method::kExample, example_method(c.id, r.name, compute_example));
    c.readings.push_back(std::move(r));
    registry.add(std::move(c));
  }
  struct Thm1 {
    const char* id;
    const char* statement;
    Thm1Part part;
  };
  for (const Thm1& t : {Thm1{"metacube.thm1.distance", "d(s,t) <= H(s,t) - H_k(s,t) + 2^k for all s, t.", Thm1Part::kDistanceBound},
                        Thm1{"metacube.thm1.diameter", "The diameter of MC(k,m) is 2^k(m+1).", Thm1Part::kDiameter},
                        Thm1{"metacube.thm1.average", "The average distance is at most (n-k)/2 + 2^k, n = m*2^k + k.",
                             Thm1Part::kAverage}}) {
    Claim c = metacube_claim(t.id, "Section 2, Theorem 1", t.statement);
    Reading r;
    r.name = "literal";
    r.description = t.part == Thm1Part::kAverage
        ? "Mean BFS distance over ordered pairs s != t is at most (n-k)/2 + 2^k."
        : "BFS distances of the materialized MC(k,m) (Boost breadth_first_search) against the stated value.";
    r.check_case = thm1_case_fn(t.part);
    r.methods.emplace_back(Method::kOracle, thm1_method(t.part));
    c.readings.push_back(std::move(r));
    registry.add(std::move(c));
  }
  {
    Claim c = metacube_claim("metacube.alg1.route", "Section 2, Algorithm 1 and the paragraph before Theorem 1",
                             "Algorithm 1 routes s to t along a weak-Hamiltonian class path; the route is no longer "
                             "than 2^k + H_h(s,t) (H_h: the Hamming distance over the M fields).");
    PairCheck check = [](const Metacube& mc, Node s, Node t) -> Violation {
      const Path p = metacube::p1(mc, s, t);
      if (auto v = check_path_valid(mc, p)) return v;
      if (auto v = check_endpoints(p, s, t)) return v;
      const int bound = mc.h() + hamming(s, t) - mc.class_distance(s, t);
      if (p.length() > bound) return fmt::format("route of length {} > 2^k + H_h(s,t) = {}", p.length(), bound);
      return std::nullopt;
    };
    add_pair_reading(c, "literal",
                     "p1 along our weak-Hamiltonian class path (Lemma 1 is cited, not printed; see routing.h): a valid "
                     "route from s to t of length at most 2^k + H_h(s,t).",
                     check, [](const Metacube& mc, Node s, Node t) { return json{{"path", path_to_json(metacube::p1(mc, s, t))}}; });
    registry.add(std::move(c));
  }
  add_thm2_claim(registry, "metacube.thm2.valid", "Section 3, Algorithm 4 and Theorem 2",
                 "Algorithm 4 builds k+m paths from s to t (each valid in MC(k,m) and simple), for any two distinct nodes.",
                 metacube::Thm2Part::kValid);
  add_thm2_claim(registry, "metacube.thm2.disjoint", "Section 3, Theorem 2",
                 "The k+m paths of Algorithm 4 are disjoint (valid, simple, internally node-disjoint).",
                 metacube::Thm2Part::kDisjoint);
  add_thm2_claim(registry, "metacube.thm2.length", "Section 3, Theorem 2",
                 "The paths are no longer than H(s,t) + 2^k + m + 5.", metacube::Thm2Part::kLength);
  add_thm2_claim(registry, "metacube.thm2.case_bound", "Section 3, proof of Theorem 2 (last paragraph)",
                 "Longest path: case 0 H+6; case 1 H+2^k+4; case 2 H+2^k+4+max|Z_i|.", metacube::Thm2Part::kCaseBound);
  add_thm2_claim(registry, "metacube.thm2.fault_tolerance", "Abstract and Section 4",
                 "With at most k+m-1 faulty nodes (other than s, t) some constructed path avoids them all.",
                 metacube::Thm2Part::kFaultTolerance);
  {
    Claim c = metacube_claim("metacube.symmetry.automorphism",
                             "Section 2 (edge definition); used to reduce exhaustive runs",
                             "XOR with any address whose class field is zero is an automorphism of MC(k,m).");
    PairCheck check = [](const Metacube& mc, Node u, Node v) -> Violation {
      // Every class-zero a.
      const uint64_t classless = uint64_t{1} << (mc.width() - mc.k());
      for (uint64_t a = 0; a < classless; ++a) {
        const Node na{a, mc.width()};
        if (mc.is_edge(u, v) != mc.is_edge(metacube::translate(u, na), metacube::translate(v, na)))
          return fmt::format("a = {}: is_edge(u,v) = {} but is_edge(u^a, v^a) = {}", na, mc.is_edge(u, v),
                             !mc.is_edge(u, v));
      }
      return std::nullopt;
    };
    add_pair_reading(
        c, "literal", "For every u, v and every a with class field 0: (u, v) is an edge iff (u^a, v^a) is.", check,
        [](const Metacube&, Node, Node) { return json::object(); }, scope::kSymmetry);
    registry.add(std::move(c));
  }
  {
    Claim c = metacube_claim("metacube.symmetry.alg4_commutes",
                             "Section 3, Algorithm 4 (a property of the construction, not stated in the paper)",
                             "Algorithm 4 commutes with class-zero translations: the paths for (s^a, t^a) are those "
                             "for (s, t) with every node XORed with a.");
    for (const std::string& reading : metacube::reading_names()) {
      const metacube::Alg4Options o = *metacube::options_for_reading(reading);
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
      PairCheck check = [o](const Metacube& mc, Node s, Node t) -> Violation {
        const Node a{s.bits & ((uint64_t{1} << (mc.width() - mc.k())) - 1), mc.width()};
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
      // The witness: the paths of (s, t) and of its translate (s^a, t^a).
      PairWitness witness = [o](const Metacube& mc, Node s, Node t) {
        json w = alg4_witness(o, mc, s, t);
        const Node a{s.bits & ((uint64_t{1} << (mc.width() - mc.k())) - 1), mc.width()};
        w["translate"] = {{"a", a.to_string()},
                          {"s", metacube::translate(s, a).to_string()},
                          {"t", metacube::translate(t, a).to_string()},
                          {"paths", alg4_witness(o, mc, metacube::translate(s, a), metacube::translate(t, a)).at("paths")}};
        return w;
      };
      add_pair_reading(c, reading,
                       "For every s != t and every class-zero a, under reading `" + reading +
                           "`; checked as the equivalent: for every s != t, against the translate by a = the M part "
                           "of s.",
                       check, witness,
                       scope::every_pair_range(reading));  // Theorem 2's every-pair range, which the reduced sweeps rest on
    }
    registry.add(std::move(c));
  }
  {
    Claim c = metacube_claim("metacube.connectivity",
                             "Section 3 (k+m disjoint paths exist: MC(k,m) is (k+m)-connected)",
                             "Between any two distinct nodes of MC(k,m) there are k+m internally node-disjoint paths.");
    Reading r;
    r.name = "literal";
    r.description = "Boost max-flow on the node-split graph equals k+m for every source with zero M fields (the other "
                    "sources follow by metacube.symmetry.automorphism) and every target.";
    r.check_case = [](const json& params, const json& input) -> Result<CaseCheck> {
      auto in = parse_mc_pair(params, input);
      if (!in) return in.error();
      if (in->mc.width() > 16) return invalid_argument("params: at most 16 address bits for the max-flow oracle");
      return connectivity_case(materialize(in->mc), in->mc.index_of(in->s), in->mc.index_of(in->t), in->mc.degree(),
                               "k+m");
    };
    r.methods.emplace_back(Method::kOracle, [](const RunContext& ctx) {
      MethodResult result;
      result.method = Method::kOracle;
      const auto& list = scope::kOracle.at(ctx.budget);
      result.scope = fmt::format("{}: sources with zero M fields x every target (Boost max-flow)", km_list(list));
      for (auto [k, m] : list) {
        const Metacube mc = Metacube::make(k, m).value();
        const UndirectedGraph g = materialize(mc);
        ctx.report(fmt::format("max-flow {}", mc.name()));
        const ConnectivitySweep sweep{.topology = &mc, .graph = &g, .degree = mc.degree(), .degree_name = "k+m",
                                      .params = {{"k", k}, {"m", m}}, .input_keys = {"s", "t"},
                                      .detail_prefix = mc.name() + ": "};
        std::vector<uint64_t> class_zero_sources;  // zero M fields, one per class
        for (int cls = 0; cls < mc.h(); ++cls)
          class_zero_sources.push_back(mc.index_of(mc.with_class(Node{0, mc.width()}, cls)));
        if (sweep_connectivity(sweep, class_zero_sources, result)) return result;
      }
      result.outcome = Outcome::kHolds;
      return result;
    });
    c.readings.push_back(std::move(r));
    registry.add(std::move(c));
  }
}

}  // namespace topocheck::claims
