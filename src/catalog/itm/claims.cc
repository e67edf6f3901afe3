// The ITM claims (Liu et al., "Incremental Triangular Mesh", paper 002): Lemma 1, Theorem 2,
// Lemma 4, Theorem 5, the recursive broadcast the paper motivates, and one question beyond the
// paper (does some contention-free circular order exist under the any-edge reading?); then
// Theorem 3, from catalog/itm/thm3_claims.cc. Every claim is checked under both readings of
// AddNode (READING.md): `any-edge` (the definition) and `exterior` (the contention-free section);
// claims with further readings append them to the rule's name (`exterior-reversed`,
// `any-edge-along-cycle`, ...).
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

#include "catalog/catalog.h"
#include "catalog/itm/methods.h"
#include "catalog/itm/parts.h"
#include "catalog/itm/scope.h"
#include "claims/claim.h"
#include "claims/random_method.h"
#include "itm/enumerate.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "itm/itm_gen.h"
#include "itm/itm_oracle.h"
#include "itm/theorem3.h"

namespace topocheck::claims {
namespace {

using itm::Itm;
using itm::Rule;
using nlohmann::json;

using itm_parts::kPaper;

// The independent oracle (itm/itm_oracle.h: every shortest path listed, no distances) decides the
// reading on every ITM up to `max_n`; where it and the naive checker disagree the method reports
// an error (a bug in one of them), never a verdict.
using OracleCheck = std::function<Violation(const itm::ShortestPathLists&, const Itm&)>;
MethodResult oracle_itms(const RunContext& ctx, Rule rule, int max_n, const ItmCheck& check, const OracleCheck& oracle,
                         const ItmPremise& premise) {
  MethodResult result;
  result.method = Method::kOracle;
  result.outcome = Outcome::kHolds;  // until the oracle refutes or disagrees
  result.scope = fmt::format("every ITM ({}) with n = 3..{}, every shortest path listed explicitly", itm::to_string(rule),
                             max_n);
  uint64_t applicable = 0;
  for (int n = 3; n <= max_n && result.outcome != Outcome::kRefuted; ++n) {
    ctx.report(fmt::format("oracle {} n = {}", itm::to_string(rule), n));
    bool stop = false;
    itm::enumerate_itms(n, n, rule, [&](const Itm& g) {
      if (stop) return;
      ++result.cases;
      if (premise && !premise(g)) return;
      ++applicable;
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
  if (premise) {
    result.applicable = applicable;
    result.scope += fmt::format(" ({} of them in the claim's premise)", applicable);
  }
  return result;
}

// Replays {"n": .., "rule": ..} / {"steps": ..}.
// A reading judged ITM by ITM: exhaustive up to `max_n` (per rule and budget); random sequences
// up to `random_nodes` nodes unless 0; the oracle when given.
// `premise`: the claim's premise beyond "is an ITM" (methods.h), null when every ITM applies.
Reading itm_reading(std::string name, std::string description, Rule rule, ItmCheck check, PerBudget<int> max_n,
                    int random_nodes = 0, OracleCheck oracle = nullptr, ItmPremise premise = nullptr) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.check_case = itm_case_fn(rule, check, premise);
  r.methods.emplace_back(Method::kExhaustive, [rule, check, max_n, premise](const RunContext& ctx) {
    return exhaustive_itms(ctx, rule, max_n.at(ctx.budget), check, premise);
  });
  r.exhaustive_split = true;
  if (random_nodes > 0)
    r.methods.emplace_back(Method::kRandom, [rule, check, random_nodes, premise](const RunContext& ctx) {
      return random_itms(ctx, rule, random_nodes, check, itm_scope::kRandomCases.at(ctx.budget), premise);
    });
  if (oracle)
    r.methods.emplace_back(Method::kOracle, [rule, check, oracle, premise](const RunContext& ctx) {
      return oracle_itms(ctx, rule, itm_scope::kOracleMaxN.at(ctx.budget), check, oracle, premise);
    });
  return r;
}

// Theorem 5 and the broadcast speak of "the circular order" that Lemma 4's exterior cycle
// defines ("From Lemma 4 we know that all the nodes in G form a simple cycle in G"). Under the
// any-edge reading some ITMs have no such cycle (itm.lemma4.cycle[any-edge] is refuted by one):
// the theorem says nothing about them, so they are not applicable rather than counterexamples
// (a claim is never refuted by another claim's failure). Under the exterior reading every ITM
// applies (Lemma 4 holds).
bool has_circular_order(const Itm& g) { return itm::circular_order(g).ok(); }

// Theorem 5's conclusion outside its premise: every 2-connected outerplanar graph on 4..max_n
// nodes that is not an ITM (a polygon with non-crossing chords, not triangulated: n..2n-4 edges;
// with 2n - 3 it is a triangulated polygon, an exterior ITM), its outer cycle as the circular
// order. None of these inputs is in the premise (applicable = 0), so a failure here is no
// counterexample; when the conclusion holds on all of them, beyond_premise says so.
MethodResult contention_beyond_itms(const RunContext& ctx, itm::Contention c, int max_n) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.outcome = Outcome::kHolds;
  r.applicable = 0;
  uint64_t failures = 0;
  std::string first_failure;
  for (int n = 4; n <= max_n; ++n) {
    ctx.report(fmt::format("non-ITM outerplanar graphs n = {}", n));
    auto graphs = itm::all_graphs(n, true);
    if (!graphs) {
      r.outcome = Outcome::kError;
      r.detail = graphs.error().message;
      return r;
    }
    for (const itm::Graph& g : *graphs) {
      if (g.num_edges() < n || g.num_edges() > 2 * n - 4) continue;
      const auto cycle = itm::outer_cycle(g);
      if (!cycle) continue;
      ++r.cases;
      if (Violation v = itm::check_contention_free(g, *cycle, c)) {
        if (failures++ == 0)
          first_failure = fmt::format("{} (graph6 {}), order {}: {}", g.to_string(), itm::to_graph6(g), fmt::join(*cycle, ":"), *v);
      }
    }
  }
  r.scope = fmt::format("outside the premise: every 2-connected outerplanar graph that is not an ITM, n = 4..{} "
                        "(nauty-geng; n..2n-4 edges), its outer cycle as the circular order: {} graphs",
                        max_n, r.cases);
  if (failures == 0 && r.cases > 0)
    r.beyond_premise = fmt::format("also on every one of the {} non-ITM graphs tried (every 2-connected outerplanar "
                                   "graph with n = 4..{} that is not triangulated, its outer cycle as the order)",
                                   r.cases, max_n);
  else
    r.scope += fmt::format("; the conclusion fails on {} of them (outside the premise, so no counterexample), first {}",
                           failures, first_failure);
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
        Reading r = itm_reading(c == itm::Contention::kPaper ? itm::to_string(rule)
                                                              : itm::to_string(rule) + "-" + itm::to_string(c),
                                rule_words(rule) + "; circular order from the exterior cycle (ITMs without one: not "
                                "applicable); " + words + " (over every shortest path of each message)",
                                rule, contention_check(c), scope::contention_max_n(rule),
                                scope::kRandomContentionMaxNodes, contention_oracle(c), has_circular_order);
        r.methods.emplace_back(Method::kExhaustive, [c](const RunContext& ctx) {
          return contention_beyond_itms(ctx, c, scope::kNonItmMaxN.at(ctx.budget));
        });
        readings.push_back(std::move(r));
      }
    add("itm.thm5.contention_free", "Theorem 5 (and the definition of independent messages before it)",
        "Two independent messages (w -> x and y -> z with w < x < y < z in the circular order) will not traverse the "
        "same edge in the same direction in an ITM under any shortest path routing discipline.",
        std::move(readings));
  }
  {
    std::vector<Reading> readings;
    for (Rule rule : kRules)
      readings.push_back(itm_reading(itm::to_string(rule),
                                     rule_words(rule) + "; every source; every shortest path of every message (ITMs "
                                     "without the exterior cycle's circular order: not applicable)",
                                     rule, broadcast_check(), scope::contention_max_n(rule),
                                     scope::kRandomContentionMaxNodes, broadcast_oracle(), has_circular_order));
    add("itm.broadcast.contention_free", "Section on contention freedom (the recursive broadcast it motivates)",
        "Broadcast over the circular order (the source sends to the middle of the list, then both halves recurse) is "
        "contention-free: no two messages of one round share a directed edge, for every source.",
        std::move(readings));
  }
  add("itm.order.exists", "Beyond the paper (Theorem 5's question for the definition's ITMs)",
      "For every ITM some circular order of its nodes has Theorem 5's property (paper reading).",
      per_rule("every circular order tried (up to rotation and reflection)", some_order_check(),
               [](Rule rule) { return scope::order_search_max_n(rule); }));
  itm_parts::add_thm3_claims(registry);
}

}  // namespace topocheck::claims
