// The Section 2 claims of the Metacube paper (Li, Peng, Chu, "Disjoint Paths in Metacube"): every
// printed example (Section 2's neighbours, IDs, Example 1's route and class cycle; Section 3's
// Tables 2-5 and Examples 2-5, in one example claim), Theorem 1 by BFS (distance bound, diameter,
// average distance) and Algorithm 1's route. Every method judges with metacube/metacube_checks.h,
// which calls core's naive checkers; the ranges per budget are in catalog/metacube/scope.h.
#include <algorithm>
#include <bit>
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
#include "claims/example_method.h"
#include "core/graph.h"
#include "metacube/disjoint.h"
#include "metacube/metacube.h"
#include "metacube/metacube_checks.h"
#include "metacube/routing.h"

namespace topocheck::claims::metacube_parts {
namespace {

namespace scope = metacube_scope;
using metacube::Metacube;
using nlohmann::json;

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

// Algorithm 1's route from s to t: valid, from s to t, no longer than 2^k + H_h(s,t).
Violation alg1_route_check(const Metacube& mc, Node s, Node t) {
  const Path p = metacube::p1(mc, s, t);
  if (auto v = check_path_valid(mc, p)) return v;
  if (auto v = check_endpoints(p, s, t)) return v;
  const int bound = mc.h() + hamming(s, t) - mc.class_distance(s, t);
  if (p.length() > bound) return fmt::format("route of length {} > 2^k + H_h(s,t) = {}", p.length(), bound);
  return std::nullopt;
}

// The examples' reading: every printed cell against the computed one.
Reading examples_reading() {
  Reading r;
  r.name = "paper";
  r.description = "Computed with the `paper` reading of Algorithm 4 and Algorithm 1 with the Gray class cycle; "
                  "every printed cell equals the computed one or is a recorded erratum.";
  r.compute_example = compute_example;
  r.methods.emplace_back(Method::kExample, example_method("metacube.examples", r.name, compute_example));
  return r;
}

// One part of Theorem 1, decided by BFS.
Reading thm1_reading(Thm1Part part) {
  Reading r;
  r.name = "literal";
  r.description = part == Thm1Part::kAverage
      ? "Mean BFS distance over ordered pairs s != t is at most (n-k)/2 + 2^k."
      : "BFS distances of the materialized MC(k,m) (Boost breadth_first_search) against the stated value.";
  r.check_case = thm1_case_fn(part);
  r.methods.emplace_back(Method::kOracle, thm1_method(part));
  return r;
}

}  // namespace

void add_example_claims(Registry& registry) {
  registry.add(Claim::make(
      kPaper, "metacube.examples",
      "Section 2 (neighbour example, node 56, Example 1, next(s)); Section 3 (Tables 2-5, Examples 2-5)",
      "Every printed metacube example: neighbours in MC(2,3), node and cluster IDs in MC(2,2), Example 1's route, the "
      "class cycle for next(s) = 10, the four paths of Tables 2-5 and the longest lengths stated in Examples 2-5.",
      {examples_reading()}));
}

void add_thm1_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "metacube.thm1.distance", "Section 2, Theorem 1",
                           "d(s,t) <= H(s,t) - H_k(s,t) + 2^k for all s, t.", {thm1_reading(Thm1Part::kDistanceBound)}));
  registry.add(Claim::make(kPaper, "metacube.thm1.diameter", "Section 2, Theorem 1",
                           "The diameter of MC(k,m) is 2^k(m+1).", {thm1_reading(Thm1Part::kDiameter)}));
  registry.add(Claim::make(kPaper, "metacube.thm1.average", "Section 2, Theorem 1",
                           "The average distance is at most (n-k)/2 + 2^k, n = m*2^k + k.",
                           {thm1_reading(Thm1Part::kAverage)}));
}

void add_alg1_claims(Registry& registry) {
  registry.add(Claim::make(
      kPaper, "metacube.alg1.route", "Section 2, Algorithm 1 and the paragraph before Theorem 1",
      "Algorithm 1 routes s to t along a weak-Hamiltonian class path; the route is no longer than 2^k + H_h(s,t) (H_h: "
      "the Hamming distance over the M fields).",
      {pair_reading("literal",
                    "p1 along our weak-Hamiltonian class path (Lemma 1 is cited, not printed; see routing.h): a valid "
                    "route from s to t of length at most 2^k + H_h(s,t).",
                    alg1_route_check,
                    [](const Metacube& mc, Node s, Node t) { return json{{"path", path_to_json(metacube::p1(mc, s, t))}}; })}));
}

}  // namespace topocheck::claims::metacube_parts
