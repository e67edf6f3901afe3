// The ITM claims (Liu et al., "Incremental Triangular Mesh", paper 002): Lemma 1, Theorem 2,
// Lemma 4, Theorem 5, the recursive broadcast the paper motivates, and one question beyond the
// paper (does some contention-free circular order exist under the any-edge reading?). Theorem 3
// is in itm_thm3_claims.cc. Every claim is checked under both readings of AddNode (READING.md):
// `any-edge` (the definition) and `exterior` (the contention-free section); claims with further
// readings append them to the rule's name (`exterior-reversed`, `any-edge-along-cycle`, ...).
// Every method judges with the naive checkers of itm/itm_checks.h.
//
// Exhaustive sweeps visit every ITM up to isomorphism (itm/enumerate.h, canonical augmentation
// with nauty), one node count at a time from n = 3 up, so the first violation found has the
// fewest nodes (every ITM on n nodes has 2n - 3 edges: "then fewest edges" never breaks a tie).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "claims/claim.h"
#include "claims/itm_scope.h"
#include "claims/random_method.h"
#include "itm/enumerate.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/itm_gen.h"
#include "itm/itm_oracle.h"

namespace topocheck::claims {
namespace {

using itm::Itm;
using itm::Rule;
using nlohmann::json;

constexpr const char* kPaper = "002_5e7910d99423ef9d.txt";

// A check of one ITM; `witness` (may be null) receives what show and replay display.
using ItmCheck = std::function<Violation(const Itm&, json* witness)>;

json edges_json(const itm::Graph& g) {
  json out = json::array();
  for (const auto& [u, v] : g.edges()) out.push_back({u, v});
  return out;
}

// The witness every ITM case carries: the graph's edges, the exterior edges and the circular
// order when it exists (show --format dot draws the nodes on a circle in that order).
json base_witness(const Itm& itm) {
  json w = {{"edges", edges_json(itm.graph())}, {"exterior", json::array()}};
  for (const auto& [u, v] : itm.exterior_edges()) w["exterior"].push_back({u, v});
  if (auto order = itm::circular_order(itm)) w["order"] = *order;
  return w;
}

Counterexample itm_counterexample(const Itm& itm, std::string violation, json witness) {
  Counterexample cx;
  cx.params = {{"n", itm.n()}, {"rule", itm::to_string(itm.rule())}};
  cx.input = {{"steps", itm::to_string(itm.steps())}};
  cx.violation = std::move(violation);
  cx.witness = std::move(witness);
  cx.minimized = true;
  return cx;
}

// Runs `check` on an ITM, with the witness filled in on failure.
std::optional<Counterexample> run_check(const ItmCheck& check, const Itm& itm) {
  if (!check(itm, nullptr)) return std::nullopt;
  json witness = base_witness(itm);
  auto v = check(itm, &witness);
  TC_CHECK(v.has_value(), "an ITM check gave two verdicts on one input");
  return itm_counterexample(itm, *v, std::move(witness));
}

// Every ITM of `rule` with 3..max_n nodes up to isomorphism, fewest nodes first. Levels of
// itm_scope::kParallelFromN nodes or more are swept on every core (enumerate_itms_parallel); a
// violation found there is looked up again by a sequential sweep of that level, so the stored
// counterexample is the first in the enumeration's deterministic order, whatever the threads did.
MethodResult exhaustive_itms(const RunContext& ctx, Rule rule, int max_n, const ItmCheck& check) {
  MethodResult result;
  result.method = Method::kExhaustive;
  result.scope = fmt::format("every ITM ({}) with n = 3..{} nodes, up to isomorphism", itm::to_string(rule), max_n);
  auto sequential = [&](int n) {
    itm::enumerate_itms(n, n, rule, [&](const Itm& g) {
      if (result.counterexample) return;
      ++result.cases;
      if (auto cx = run_check(check, g)) result.counterexample = std::move(cx);
    });
  };
  for (int n = 3; n <= max_n && !result.counterexample; ++n) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    if (n < itm_scope::kParallelFromN || threads == 1) {
      ctx.report(fmt::format("exhaustive {} n = {}", itm::to_string(rule), n));
      sequential(n);
      continue;
    }
    ctx.report(fmt::format("exhaustive {} n = {} on {} threads", itm::to_string(rule), n, threads));
    std::atomic<uint64_t> cases{0};
    std::atomic<bool> failed{false};
    itm::enumerate_itms_parallel(n, n, rule, [&](const Itm& g) {
      if (failed.load(std::memory_order_relaxed)) return;
      const uint64_t done = ++cases;
      if (done % 100000 == 0) ctx.report(fmt::format("exhaustive {} n = {}: {} ITMs", itm::to_string(rule), n, done));
      if (check(g, nullptr)) failed = true;
    }, static_cast<int>(threads));
    if (failed) {
      sequential(n);
      TC_CHECK(result.counterexample.has_value(), "a parallel sweep found a violation the sequential one did not");
    } else {
      result.cases += cases;
    }
  }
  if (result.counterexample) {
    result.outcome = Outcome::kRefuted;
    result.detail = result.counterexample->violation;
  } else {
    result.outcome = Outcome::kHolds;
  }
  return result;
}

// Random AddNode sequences (itm/itm_gen.h: up to `max_nodes` nodes, shrinking that drops and
// renumbers nodes), then an exhaustive look below the shrunk size for a smaller counterexample.
MethodResult random_itms(const RunContext& ctx, Rule rule, int max_nodes, const ItmCheck& check) {
  RandomSpec<itm::ItmSequence> spec{itm::gen::itm_sequence(rule, max_nodes)};
  spec.cases = itm_scope::kRandomCases.at(ctx.budget);
  spec.scope = fmt::format("AddNode sequences ({}) with n = 3..{} nodes", itm::to_string(rule), max_nodes);
  spec.check = [&](const itm::ItmSequence& seq) { return run_check(check, seq.build()); };
  spec.smaller = [&](const Counterexample& found) -> std::optional<Counterexample> {
    const int n = found.params.at("n").get<int>();
    RunContext quiet = ctx;
    quiet.progress = nullptr;
    MethodResult below = exhaustive_itms(quiet, rule, std::min(n - 1, itm_scope::kRandomFallbackMaxN), check);
    return below.counterexample;
  };
  return run_random(ctx, spec);
}

// The independent oracle (itm/itm_oracle.h: every shortest path listed, no distances) decides the
// reading on every ITM up to `max_n`; where it and the naive checker disagree the method reports
// an error (a bug in one of them), never a verdict.
using OracleCheck = std::function<Violation(const itm::ShortestPathLists&, const Itm&)>;
MethodResult oracle_itms(const RunContext& ctx, Rule rule, int max_n, const ItmCheck& check, const OracleCheck& oracle) {
  MethodResult result;
  result.method = Method::kOracle;
  result.outcome = Outcome::kHolds;  // until the oracle refutes or disagrees
  result.scope = fmt::format("every ITM ({}) with n = 3..{}, every shortest path listed explicitly", itm::to_string(rule),
                             max_n);
  for (int n = 3; n <= max_n && result.outcome != Outcome::kRefuted; ++n) {
    ctx.report(fmt::format("oracle {} n = {}", itm::to_string(rule), n));
    bool stop = false;
    itm::enumerate_itms(n, n, rule, [&](const Itm& g) {
      if (stop) return;
      ++result.cases;
      const itm::ShortestPathLists lists(g.graph());
      const Violation by_oracle = oracle(lists, g);
      const Violation by_checker = check(g, nullptr);
      if (by_oracle.has_value() != by_checker.has_value()) {
        stop = true;
        result.outcome = Outcome::kError;
        result.detail = fmt::format("the oracle and the checker disagree on {} ({}): oracle {}, checker {}",
                                    itm::to_string(g.steps()), itm::to_string(rule), by_oracle.value_or("holds"),
                                    by_checker.value_or("holds"));
        return;
      }
      if (by_oracle) {
        stop = true;
        json witness = base_witness(g);
        check(g, &witness);
        result.outcome = Outcome::kRefuted;
        result.counterexample = itm_counterexample(g, *by_oracle, std::move(witness));
        result.detail = *by_oracle;
      }
    });
    if (result.outcome == Outcome::kError) return result;
  }
  return result;
}

// Replays {"n": .., "rule": ..} / {"steps": ..}.
CaseFn itm_case_fn(Rule rule, ItmCheck check) {
  return [rule, check](const json& params, const json& input) -> Result<CaseCheck> {
    if (!params.is_object() || !params.contains("rule") || !params.at("rule").is_string())
      return invalid_argument("params.rule must be \"any-edge\" or \"exterior\"");
    auto r = itm::parse_rule(params.at("rule").get<std::string>());
    if (!r) return invalid_argument(fmt::format("params.rule: '{}' is not any-edge or exterior", params.at("rule").dump()));
    if (*r != rule) return invalid_argument(fmt::format("params.rule: this reading is {}", itm::to_string(rule)));
    if (!input.is_object() || !input.contains("steps") || !input.at("steps").is_string())
      return invalid_argument("input.steps must be a string of AddNode steps, e.g. \"3:(0,1) 4:(1,3)\"");
    auto steps = itm::parse_steps(input.at("steps").get<std::string>());
    if (!steps) return invalid_argument("input.steps: " + steps.error().message);
    auto g = Itm::build(*steps, rule);
    if (!g) return invalid_argument("input.steps: " + g.error().message);
    if (params.contains("n") && (!params.at("n").is_number_integer() || params.at("n").get<int>() != g->n()))
      return invalid_argument(fmt::format("params.n: the steps build {} nodes", g->n()));
    json witness = base_witness(*g);
    Violation v = check(*g, &witness);
    return CaseCheck{v, witness};
  };
}

// A reading judged ITM by ITM: exhaustive up to `max_n` (per rule and budget); random sequences
// up to `random_nodes` nodes unless 0; the oracle when given.
Reading itm_reading(std::string name, std::string description, Rule rule, ItmCheck check, PerBudget<int> max_n,
                    int random_nodes = 0, OracleCheck oracle = nullptr) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.check_case = itm_case_fn(rule, check);
  r.methods.emplace_back(Method::kExhaustive, [rule, check, max_n](const RunContext& ctx) {
    return exhaustive_itms(ctx, rule, max_n.at(ctx.budget), check);
  });
  if (random_nodes > 0)
    r.methods.emplace_back(Method::kRandom, [rule, check, random_nodes](const RunContext& ctx) {
      return random_itms(ctx, rule, random_nodes, check);
    });
  if (oracle)
    r.methods.emplace_back(Method::kOracle, [rule, check, oracle](const RunContext& ctx) {
      return oracle_itms(ctx, rule, itm_scope::kOracleMaxN.at(ctx.budget), check, oracle);
    });
  return r;
}

constexpr Rule kRules[] = {Rule::kAnyEdge, Rule::kExterior};

std::string rule_words(Rule rule) {
  return rule == Rule::kAnyEdge ? "AddNode on any edge (the definition)"
                                : "AddNode on exterior edges only (the contention-free section)";
}

// Checks that need only the graph.
ItmCheck on_graph(std::function<Violation(const itm::Graph&)> f) {
  return [f](const Itm& g, json*) { return f(g.graph()); };
}

// Theorem 5 under one reading: the circular order must exist, then no contention.
ItmCheck contention_check(itm::Contention c) {
  return [c](const Itm& g, json* witness) -> Violation {
    auto order = itm::circular_order(g);
    if (!order) return "no circular order: " + order.error().message;
    itm::ContentionWitness w;
    Violation v = itm::check_contention_free(g.graph(), *order, c, &w);
    if (v && witness) (*witness)["paths"] = {w.first, w.second};
    return v;
  };
}

ItmCheck broadcast_check() {
  return [](const Itm& g, json* witness) -> Violation {
    auto order = itm::circular_order(g);
    if (!order) return "no circular order: " + order.error().message;
    for (int s = 0; s < g.n(); ++s) {
      std::vector<int> list(*order);
      std::rotate(list.begin(), std::find(list.begin(), list.end(), s), list.end());
      const itm::Rounds rounds = itm::broadcast_from(*order, s);
      if (Violation v = itm::check_broadcast(g.graph(), list, rounds)) {
        if (witness) (*witness)["rounds"] = rounds;
        return fmt::format("broadcast from {}: {}", s, *v);
      }
    }
    return std::nullopt;
  };
}

// Beyond the paper: some circular order (any permutation, up to rotation and reflection) is
// contention-free in the paper's sense. Exhaustive over the (n-1)!/2 orders.
ItmCheck some_order_check() {
  return [](const Itm& g, json* witness) -> Violation {
    const int n = g.n();
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    uint64_t tried = 0;
    do {
      if (n >= 3 && order[1] > order.back()) continue;  // a reflection of one already tried
      ++tried;
      if (!itm::check_contention_free(g.graph(), order, itm::Contention::kPaper)) {
        if (witness) (*witness)["found_order"] = order;
        return std::nullopt;
      }
    } while (std::next_permutation(order.begin() + 1, order.end()));
    return fmt::format("none of the {} circular orders (up to rotation and reflection) is contention-free", tried);
  };
}

// The oracle's form of contention_check and broadcast_check (the same order, its own paths).
OracleCheck contention_oracle(itm::Contention c) {
  return [c](const itm::ShortestPathLists& lists, const Itm& g) -> Violation {
    auto order = itm::circular_order(g);
    if (!order) return "no circular order: " + order.error().message;
    if (auto conflict = itm::oracle_contention(lists, *order, c)) return itm::to_string(*conflict);
    return std::nullopt;
  };
}

OracleCheck broadcast_oracle() {
  return [](const itm::ShortestPathLists& lists, const Itm& g) -> Violation {
    auto order = itm::circular_order(g);
    if (!order) return "no circular order: " + order.error().message;
    for (int s = 0; s < g.n(); ++s) {
      std::vector<int> list(*order);
      std::rotate(list.begin(), std::find(list.begin(), list.end(), s), list.end());
      if (Violation v = itm::oracle_broadcast(lists, list, itm::broadcast_from(*order, s)))
        return fmt::format("broadcast from {}: {}", s, *v);
    }
    return std::nullopt;
  };
}

}  // namespace

void register_itm_claims(Registry& registry) {
  namespace scope = itm_scope;
  auto add = [&](std::string id, std::string location, std::string statement, std::vector<Reading> readings) {
    registry.add(Claim::make(kPaper, std::move(id), std::move(location), std::move(statement), std::move(readings)));
  };
  auto per_rule = [&](const std::string& what, const ItmCheck& check, auto max_n_of, int random_nodes = 0,
                      OracleCheck oracle = nullptr) {
    std::vector<Reading> out;
    for (Rule rule : kRules)
      out.push_back(itm_reading(itm::to_string(rule), rule_words(rule) + "; " + what, rule, check, max_n_of(rule),
                                random_nodes, oracle));
    return out;
  };
  auto sweep = [](Rule rule) { return scope::sweep_max_n(rule); };

  add("itm.lemma1.planar", "Lemma 1, first property", "An ITM is planar.",
      per_rule("planar by Boost's Boyer-Myrvold test", on_graph(itm::check_planar), sweep,
               scope::kRandomMaxNodes));
  add("itm.lemma1.edges", "Lemma 1, second property", "An ITM G = (V, E) has 2|V| - 3 edges.",
      per_rule("exactly 2|V| - 3 edges", on_graph(itm::check_edge_count), sweep, scope::kRandomMaxNodes));
  {
    std::vector<Reading> readings;
    for (itm::ChordMeaning meaning :
         {itm::ChordMeaning::kAlongCycle, itm::ChordMeaning::kAlongCycleLiteral, itm::ChordMeaning::kGraphDistance})
      for (Rule rule : kRules) {
        const std::string words =
            meaning == itm::ChordMeaning::kAlongCycle
                ? "every cycle of length >= 4 has an edge joining two of its nodes two steps apart along the cycle"
            : meaning == itm::ChordMeaning::kAlongCycleLiteral
                ? "every cycle, triangles included (as printed: 'for all cycles'), has an edge joining two of its "
                  "nodes two steps apart along the cycle"
                : "every cycle has an edge joining two of its nodes that are at distance 2 in G";
        readings.push_back(itm_reading(itm::to_string(rule) + "-" + itm::to_string(meaning),
                                       rule_words(rule) + "; " + words, rule,
                                       on_graph([meaning](const itm::Graph& g) { return itm::check_cycle_chord(g, meaning); }),
                                       scope::cycle_max_n(rule)));
      }
    add("itm.lemma1.cycle_chord", "Lemma 1, third property",
        "For all cycles C in G there exists an edge e in E that connects two nodes in C that are of distance 2.",
        std::move(readings));
  }
  add("itm.thm2.deadlock_free", "Theorem 2",
      "Any routing discipline that takes the shortest path is deadlock-free in ITM: the channel dependency graph "
      "of all shortest paths (channels = directed edges; a dependency = two consecutive hops of a shortest path) is "
      "acyclic.",
      per_rule("every shortest path of every pair, at once", on_graph(itm::check_deadlock_free), sweep,
               scope::kRandomMaxNodes,
               [](const itm::ShortestPathLists& lists, const Itm&) { return itm::oracle_deadlock_violation(lists); }));
  add("itm.lemma4.counts", "Lemma 4, first property",
      "An n node ITM has n exterior edges, n - 3 interior edges and n - 2 facets (facets counted as triangles and as "
      "bounded faces of a planar embedding; both must be n - 2).",
      per_rule("edges marked by the paper's rule", [](const Itm& g, json*) { return itm::check_lemma4_counts(g); },
               sweep, scope::kRandomMaxNodes));
  add("itm.lemma4.cycle", "Lemma 4, second and third properties",
      "The exterior edges of G form a simple cycle C, and every node is in C.",
      per_rule("edges marked by the paper's rule", [](const Itm& g, json*) { return itm::check_lemma4_cycle(g); },
               sweep, scope::kRandomMaxNodes));
  {
    std::vector<Reading> readings;
    for (itm::Contention c : {itm::Contention::kPaper, itm::Contention::kReversed, itm::Contention::kUndirected,
                              itm::Contention::kSharedEndpoint})
      for (Rule rule : kRules) {
        const std::string words =
            c == itm::Contention::kPaper ? "messages w->x and y->z with w < x < y < z cyclically never share a directed edge"
            : c == itm::Contention::kReversed
                ? "messages w->x and z->y (the second reversed) with w < x < y < z cyclically never share a directed edge"
            : c == itm::Contention::kUndirected
                ? "messages w->x and y->z with w < x < y < z cyclically never share an edge in either direction"
                : "messages w->x and y->z whose arcs may touch (w < x <= y < z <= w cyclically) never share a directed "
                  "edge";
        readings.push_back(itm_reading(c == itm::Contention::kPaper ? itm::to_string(rule)
                                                                     : itm::to_string(rule) + "-" + itm::to_string(c),
                                       rule_words(rule) + "; circular order from the exterior cycle; " + words +
                                           " (over every shortest path of each message)",
                                       rule, contention_check(c), scope::contention_max_n(rule),
                                       scope::kRandomContentionMaxNodes, contention_oracle(c)));
      }
    add("itm.thm5.contention_free", "Theorem 5 (and the definition of independent messages before it)",
        "Two independent messages (w -> x and y -> z with w < x < y < z in the circular order) will not traverse the "
        "same edge in the same direction in an ITM under any shortest path routing discipline.",
        std::move(readings));
  }
  add("itm.broadcast.contention_free", "Section on contention freedom (the recursive broadcast it motivates)",
      "Broadcast over the circular order (the source sends to the middle of the list, then both halves recurse) is "
      "contention-free: no two messages of one round share a directed edge, for every source.",
      per_rule("every source; every shortest path of every message", broadcast_check(),
               [](Rule rule) { return scope::contention_max_n(rule); }, scope::kRandomContentionMaxNodes,
               broadcast_oracle()));
  add("itm.order.exists", "Beyond the paper (Theorem 5's question for the definition's ITMs)",
      "For every ITM some circular order of its nodes has Theorem 5's property (paper reading).",
      per_rule("every circular order tried (up to rotation and reflection)", some_order_check(),
               [](Rule rule) { return scope::order_search_max_n(rule); }));
}

}  // namespace topocheck::claims
