// The hypercube claims (Metacube paper Section 3, Algorithms 2 and 3, Table 1; routing paper
// Section 1, e-cube routing). Every method judges with the one-input checks of
// hypercube/hypercube_checks.h, which call core's naive checkers.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "catalog/metacube/connectivity_oracle.h"
#include "claims/example_method.h"
#include "catalog/hypercube/scope.h"
#include "claims/random_method.h"
#include "core/graph.h"
#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"
#include "hypercube/hypercube_gen.h"

namespace topocheck::claims {
namespace {

namespace scope = hypercube_scope;
using hypercube::Hypercube;
using nlohmann::json;

constexpr const char* kPaperMetacube = "003_870397c57c58895c.txt";
constexpr const char* kPaperRouting = "001_2708c2cd1c088815.txt";

using PairCheck = std::function<Violation(const Hypercube&, Node, Node)>;
using PairWitness = std::function<json(const Hypercube&, Node, Node)>;

Counterexample pair_counterexample(const Hypercube& cube, Node x, Node y, std::string violation,
                                   const PairWitness& witness) {
  Counterexample cx;
  cx.params = {{"n", cube.dimension()}};
  cx.input = {{"x", x.to_string()}, {"y", y.to_string()}};
  cx.violation = std::move(violation);
  cx.witness = witness(cube, x, y);
  return cx;
}

// Every x, y (x = y included when `include_equal`) for n = 1..max_n, smallest n first, x then y
// ascending: the first violation found is minimal in n. With ctx.shard, only the shard's range
// of that sequence (the slots x = y counted, so that the split does not depend on the check).
MethodResult exhaustive_pairs(const RunContext& ctx, int max_n, bool include_equal,
                              const PairCheck& check, const PairWitness& witness) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = fmt::format("n = 1..{}, every x, y{}", max_n, include_equal ? " (x = y included)" : ", x != y");
  uint64_t total = 0;
  for (int n = 1; n <= max_n; ++n) total += uint64_t{1} << (2 * n);
  const auto [first, last] = ctx.shard ? ctx.shard->range(total) : std::pair<uint64_t, uint64_t>{0, total};
  if (ctx.shard) result.shard = fmt::format("{}, pairs [{}, {}) of {}", ctx.shard->to_string(), first, last, total);
  uint64_t offset = 0;  // position of (n, 0, 0) in the sequence
  for (int n = 1; n <= max_n; offset += uint64_t{1} << (2 * n), ++n) {
    const Hypercube cube = Hypercube::make(n).value();
    const uint64_t size = cube.num_nodes();
    const uint64_t begin = std::max(first, offset) - offset, end = std::min(last, offset + size * size);
    if (end <= offset || begin >= size * size) continue;
    ctx.report(fmt::format("exhaustive n = {} ({} pairs)", n, size * size));
    for (uint64_t p = begin; p < end - offset; ++p) {
      const uint64_t x = p / size, y = p % size;
      if (x == y && !include_equal) continue;
      ++result.cases;
      const Node nx{x, n}, ny{y, n};
      if (auto v = check(cube, nx, ny)) {
        result.outcome = Outcome::kRefuted;
        result.detail = *v;
        result.counterexample = pair_counterexample(cube, nx, ny, *v, witness);
        result.counterexample->minimized = true;
        return result;
      }
    }
  }
  result.outcome = Outcome::kHolds;
  return result;
}

MethodResult random_pairs(const RunContext& ctx, const PairCheck& check, const PairWitness& witness,
                          int exhaustive_fallback_max_n) {
  RandomSpec<hypercube::CubePair> spec{hypercube::gen::cube_pair(scope::kRandomMaxN)};
  spec.cases = scope::kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("n = 1..{}", scope::kRandomMaxN);
  spec.check = [&](const hypercube::CubePair& p) -> std::optional<Counterexample> {
    const Hypercube cube = Hypercube::make(p.n).value();
    if (auto v = check(cube, p.x, p.y)) return pair_counterexample(cube, p.x, p.y, *v, witness);
    return std::nullopt;
  };
  // After shrinking, look exhaustively below the found n (where that is affordable).
  spec.smaller = [&](const Counterexample& found) -> std::optional<Counterexample> {
    const int n = found.params.at("n").get<int>();
    RunContext quiet = ctx;
    quiet.shard.reset();  // the whole range below n, whatever the shard
    MethodResult below = exhaustive_pairs(quiet, std::min(n - 1, exhaustive_fallback_max_n), true, check, witness);
    return below.counterexample;
  };
  return run_random(ctx, spec);
}

// Parses {"n": ...} and {"x": ..., "y": ...} of a stored case.
struct PairInput { Hypercube cube; Node x, y; };
Result<PairInput> parse_pair_input(const json& params, const json& input) {
  if (!params.is_object() || !params.contains("n") || !params.at("n").is_number_integer())
    return invalid_argument("params.n must be an integer");
  auto cube = Hypercube::make(params.at("n").get<int>());
  if (!cube) return invalid_argument("params.n: " + cube.error().message);
  for (const char* key : {"x", "y"})
    if (!input.is_object() || !input.contains(key) || !input.at(key).is_string())
      return invalid_argument(fmt::format("input.{} must be a node string", key));
  auto x = parse_node(input.at("x").get<std::string>(), cube->dimension());
  if (!x) return invalid_argument("input.x: " + x.error().message);
  auto y = parse_node(input.at("y").get<std::string>(), cube->dimension());
  if (!y) return invalid_argument("input.y: " + y.error().message);
  return PairInput{*cube, *x, *y};
}

CaseFn pair_case_fn(PairCheck check, PairWitness witness) {
  return [check, witness](const json& params, const json& input) -> Result<CaseCheck> {
    auto in = parse_pair_input(params, input);
    if (!in) return in.error();
    return CaseCheck{check(in->cube, in->x, in->y), witness(in->cube, in->x, in->y)};
  };
}

// The reading `literal` of a claim judged pair by pair: replayed with `check`, decided by every
// x, y of n = 1..exhaustive_max_n (x = y included) and by random pairs (random_pairs).
Reading literal_pair_reading(std::string description, PairCheck check, PairWitness witness,
                             PerBudget<int> exhaustive_max_n) {
  Reading r;
  r.name = "literal";
  r.description = std::move(description);
  r.check_case = pair_case_fn(check, witness);
  r.methods.emplace_back(Method::kExhaustive, [check, witness, exhaustive_max_n](const RunContext& ctx) {
    return exhaustive_pairs(ctx, exhaustive_max_n.at(ctx.budget), true, check, witness);
  });
  r.exhaustive_split = true;
  r.methods.emplace_back(Method::kRandom, [check, witness](const RunContext& ctx) {
    return random_pairs(ctx, check, witness, scope::kRandomFallbackMaxN);
  });
  return r;
}

json alg2_witness(const Hypercube& cube, Node x, Node y) {
  return {{"paths", paths_to_json(hypercube::cube_disjoint_paths(cube.dimension(), x, y))}};
}

json ecube_witness(const Hypercube&, Node x, Node y) {
  return {{"paths", paths_to_json({hypercube::ecube_route(x, y)})}};
}

// Table 1: input {"n": 3, "columns": [{"x": "000", "y": "011"}, ...]}; output in the printed
// shape {"columns": [{"heading": "(000, 011)", "paths": [[...], [...], [...]]}, ...]}.
Result<json> compute_table1(const json& params, const json& input) {
  if (!params.contains("n") || !params.at("n").is_number_integer())
    return invalid_argument("params.n must be an integer");
  auto cube = Hypercube::make(params.at("n").get<int>());
  if (!cube) return invalid_argument("params.n: " + cube.error().message);
  if (!input.contains("columns") || !input.at("columns").is_array())
    return invalid_argument("input.columns must be an array");
  json columns = json::array();
  for (const json& col : input.at("columns")) {
    auto in = parse_pair_input(params, col);
    if (!in) return in.error();
    columns.push_back({{"heading", fmt::format("({}, {})", in->x, in->y)},
                       {"paths", paths_to_json(hypercube::cube_disjoint_paths(cube->dimension(), in->x, in->y))}});
  }
  return json{{"columns", columns}};
}

// The channel dependency graph of e-cube routing on Q_n; a violation is a cycle in words.
Violation ecube_dependency_cycle(int n, bool minimal_adaptive) {
  const Hypercube cube = Hypercube::make(n).value();
  const ChannelIndex channels(cube);
  const auto deps = minimal_adaptive
      ? all_shortest_path_dependencies(cube, channels)
      : route_dependencies(cube, channels, [](Node x, Node y) { return hypercube::ecube_route(x, y).nodes; });
  auto cycle = find_dependency_cycle(channels.size(), deps);
  if (!cycle) return std::nullopt;
  std::string words;
  for (uint64_t c : *cycle) {
    const auto [u, v] = channels.ends(c);
    words += fmt::format("{}->{} ", u, v);
  }
  return fmt::format("the channel dependency graph has a cycle of {} channels: {}", cycle->size(), words);
}

// hypercube.ecube.deadlock_free: the whole dependency graph of Q_n for n = 1..max, smallest first.
MethodResult ecube_deadlock_method(const RunContext& ctx) {
  // One graph per n, not a pair sweep: not split (the reading is not exhaustive_split).
  MethodResult result;
  result.method = Method::kExhaustive;
  const int max_n = scope::kDeadlockMaxN.at(ctx.budget);
  result.scope = fmt::format("n = 1..{}, the whole dependency graph of every route", max_n);
  for (int n = 1; n <= max_n; ++n) {
    ctx.report(fmt::format("channel dependency graph of Q_{}", n));
    ++result.cases;
    if (auto v = ecube_dependency_cycle(n, false)) {
      result.outcome = Outcome::kRefuted;
      result.detail = *v;
      Counterexample cx;
      cx.params = {{"n", n}};
      cx.violation = *v;
      cx.minimized = true;
      result.counterexample = cx;
      return result;
    }
  }
  result.outcome = Outcome::kHolds;
  return result;
}

Result<CaseCheck> ecube_deadlock_case(const json& params, const json&) {
  if (!params.contains("n") || !params.at("n").is_number_integer())
    return invalid_argument("params.n must be an integer");
  const int n = params.at("n").get<int>();
  if (n < 1 || n > 12) return invalid_argument("params.n must be 1..12 for a dependency graph");
  return CaseCheck{ecube_dependency_cycle(n, false), json::object()};
}

// hypercube.connectivity: max-flow between every x != y of Q_n for n = 1..max.
MethodResult connectivity_method(const RunContext& ctx) {
  MethodResult result;
  result.method = Method::kOracle;
  const int max_n = scope::kOracleMaxN.at(ctx.budget);
  result.scope = fmt::format("n = 1..{}, every x != y (Boost max-flow)", max_n);
  for (int n = 1; n <= max_n; ++n) {
    const Hypercube cube = Hypercube::make(n).value();
    const UndirectedGraph g = materialize(cube);
    ctx.report(fmt::format("max-flow n = {}", n));
    const ConnectivitySweep sweep{.topology = &cube, .graph = &g, .degree = n, .degree_name = "n",
                                  .params = {{"n", n}}, .input_keys = {"x", "y"}, .detail_prefix = ""};
    std::vector<uint64_t> every(cube.num_nodes());
    std::iota(every.begin(), every.end(), uint64_t{0});
    if (sweep_connectivity(sweep, every, result)) return result;
  }
  result.outcome = Outcome::kHolds;
  return result;
}

Result<CaseCheck> connectivity_replay(const json& params, const json& input) {
  auto in = parse_pair_input(params, input);
  if (!in) return in.error();
  if (in->x == in->y) return invalid_argument("input.x and input.y must differ");
  if (in->cube.dimension() > 16) return invalid_argument("params.n must be at most 16 for the max-flow oracle");
  return connectivity_case(materialize(in->cube), in->x.bits, in->y.bits, in->cube.dimension(), "n");
}

// A reading named `literal` decided by one method and replayed by `check_case`.
Reading literal_reading(std::string description, Method method, MethodFn fn, CaseFn check_case) {
  Reading r;
  r.name = "literal";
  r.description = std::move(description);
  r.check_case = std::move(check_case);
  r.methods.emplace_back(method, std::move(fn));
  return r;
}

// Table 1, reproduced cell by cell.
Reading table1_reading() {
  Reading r;
  r.name = "literal";
  r.description = "Every column P_0..P_2 of every (x, y) sub-table equals cube_disjoint_paths(3, x, y), "
                  "cell by cell; differences are recorded errata.";
  r.compute_example = compute_table1;
  r.methods.emplace_back(Method::kExample, example_method("hypercube.table1", r.name, compute_table1));
  return r;
}

}  // namespace

void register_hypercube_claims(Registry& registry) {
  registry.add(Claim::make(
      kPaperMetacube, "hypercube.table1", "Section 3, Table 1 (Algorithms 2 and 3 in a 3-cube, x = 000)",
      "Table 1 lists the 3 disjoint paths of Algorithm 2 from x = 000 to every y (and y = x).", {table1_reading()}));
  registry.add(Claim::make(
      kPaperMetacube, "hypercube.alg2.disjoint", "Section 3, Algorithms 2 and 3",
      "The n paths Z_i = (x^(i) -> y), 0 <= i <= n-1, built by CubeDisjointPaths(n, x, y) are disjoint "
      "(here: P_i = x : Z_i are valid, simple and internally node-disjoint), for every x, y, "
      "x = y included as Table 1 lists it.",
      {literal_pair_reading(
          "For every n and every x, y in Q_n (x = y allowed): each P_i = x : p3(n, i, x^(i), y) is a "
          "path of Q_n from x to y, simple (closed when x = y), and no internal node of P_i lies on P_j, i != j.",
          [](const Hypercube& cube, Node x, Node y) { return hypercube::check_alg2_disjoint(cube, x, y); },
          alg2_witness, scope::kAlg2ExhaustiveMaxN)}));
  registry.add(Claim::make(
      kPaperMetacube, "hypercube.alg2.lengths", "Section 3, the sentence before Algorithm 2",
      "Of the n disjoint paths Z_i = (x^(i) -> y) there are d paths of length d-1 and n-d paths of "
      "length d+1, d = |x XOR y|.",
      {literal_pair_reading(
          "Lengths of Z_i = P_i without its first hop x -> x^(i): exactly d equal d-1 and n-d equal d+1 "
          "(for x = y: n paths of length 1).",
          [](const Hypercube& cube, Node x, Node y) { return hypercube::check_alg2_lengths(cube, x, y); },
          alg2_witness, scope::kAlg2ExhaustiveMaxN)}));
  registry.add(Claim::make(
      kPaperRouting, "hypercube.ecube.shortest", "Section 1, static routing",
      "Static (e-cube) routing, flipping the rightmost differing bit at each hop, takes at most n hops; "
      "its route is a shortest path (length = Hamming distance).",
      {literal_pair_reading(
          "For every x, y: the e-cube route is a path of Q_n from x to y of length H(x, y).",
          [](const Hypercube& cube, Node x, Node y) { return hypercube::check_ecube_shortest(cube, x, y); },
          ecube_witness, scope::kEcubeExhaustiveMaxN)}));
  registry.add(Claim::make(
      kPaperRouting, "hypercube.ecube.deadlock_free",
      "Section 1, static routing (deadlock freedom of dimension-ordered routing)",
      "E-cube routing is deadlock-free: its channel dependency graph (channels = directed links, a "
      "dependency for every two consecutive hops of every route) is acyclic.",
      {literal_reading("For every n: the dependency graph over the n*2^n directed links, with an edge for each pair of "
                       "consecutive hops on the e-cube route of every ordered pair (x, y), is acyclic.",
                       Method::kExhaustive, ecube_deadlock_method, ecube_deadlock_case)}));
  registry.add(Claim::make(
      kPaperMetacube, "hypercube.connectivity",
      "Section 3 (the n disjoint paths of Algorithm 2 are as many as can exist)",
      "Between every two distinct nodes of Q_n there are n, and no more, internally node-disjoint paths "
      "(so Algorithm 2's n paths are optimal in number).",
      {literal_reading("Max-flow on the node-split graph (Boost boykov_kolmogorov_max_flow) equals n for every x != y.",
                       Method::kOracle, connectivity_method, connectivity_replay)}));
}

}  // namespace topocheck::claims
