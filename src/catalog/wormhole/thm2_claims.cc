// Theorem 2 of the ITM paper (002) under wormhole switching: "any routing discipline that takes
// the shortest path is deadlock-free in ITM" is proved in catalog/itm/claims.cc on the channel
// dependency graph; here the flit-level simulator (wormhole/wormhole.h) runs it, and the deadlock
// detector watches (the sizes per budget: catalog/wormhole/scope.h).
//
//  - wormhole.thm2.deadlock_free (readings rule x adaptivity): shortest-path wormhole routing on
//    ITMs never deadlocks under adversarial and random traffic. Exhaustive: every ITM up to
//    isomorphism to the budget's size; random: AddNode sequences up to 64 nodes (itm/itm_gen.h,
//    with shrinking). Each ITM gets every adversarial pattern (wormhole/wormhole_traffic.h) and
//    uniform traffic at offered load 1 (saturation), with traffic and simulator seeds 1..S
//    (S = 1 / 2 / 4), worms of 4 flits, 1-flit buffers, random selection among free allowed
//    channels. A run that deadlocks or does not deliver every worm within kMaxCycles refutes.
//    Oracle: the routing function's channel dependency graph is acyclic (Dally-Seitz), on the
//    same ITMs.
//  - wormhole.thm2.non_itm_deadlock_free (readings c4, k23, grid3x3, nonchordal; beyond the
//    paper, a negative control of the whole pipeline): the same fully adaptive routing on graphs
//    that are not ITMs. Expected refuted: the search runs the patterns with seeds 1..S' until a
//    deadlock, then removes worms (and shortens them to one flit) while the run still
//    deadlocks; the case stores the graph, the seed and the remaining worms, and the detector's
//    waiting cycle, which replay re-derives and check_worm_deadlock judges.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/itm/methods.h"
#include "catalog/wormhole/parts.h"
#include "catalog/wormhole/scope.h"
#include "catalog/wormhole/simulation.h"
#include "core/graph.h"
#include "wormhole/wormhole_graphs.h"

namespace topocheck::claims::wormhole_parts {
namespace {

namespace scope = wormhole_scope;
using itm::Itm;
using itm::Rule;
using nlohmann::json;

// ---- wormhole.thm2.deadlock_free ---------------------------------------------------------------

ItmCheck deadlock_check(rt::Adaptivity a, int seeds) {
  return [a, seeds](const Itm& g, json* witness) -> Violation {
    const rt::Network net = itm_network(g);
    const auto routing = shortest_path(net, a);
    for (const Traffic& t : traffic_set(net, seeds)) {
      RunVerdict v = judge_run(net, *routing, t.msgs, run_config(t.seed), t.label);
      if (v.violation) {
        if (witness) {
          (*witness)["deadlock"] = v.witness;
          (*witness)["messages"] = messages_json(t.msgs);
        }
        return v.violation;
      }
    }
    return std::nullopt;
  };
}

// Dally-Seitz's sufficient condition, the oracle: the routing function's channel dependency
// graph is acyclic.
ItmCheck dependency_check(rt::Adaptivity a) {
  return [a](const Itm& g, json* witness) -> Violation {
    const rt::Network net = itm_network(g);
    const auto routing = shortest_path(net, a);
    const rt::ChannelTable ch(net);
    if (auto cycle = find_dependency_cycle(ch.size(), rt::channel_dependencies(net, *routing))) {
      std::vector<std::string> text;
      for (uint64_t c : *cycle) text.push_back(fmt::format("{}->{}", ch.tail[c], ch.head[c]));
      if (witness) (*witness)["dependency_cycle"] = text;
      return fmt::format("the channel dependency graph has a cycle: {}", fmt::join(text, ", "));
    }
    return std::nullopt;
  };
}

// ---- wormhole.thm2.non_itm_deadlock_free (negative controls) ---------------------------------

bool deadlocks(const rt::Network& net, const rt::WormholeRouting& routing, const std::vector<rt::WormMessage>& msgs,
               uint64_t seed) {
  auto res = rt::simulate_wormhole(net, routing, msgs, run_config(seed));
  return res.ok() && res->deadlock.has_value();
}

// Fewer worms, then one-flit worms, while the run still deadlocks (each removal re-runs).
std::vector<rt::WormMessage> shrink_deadlock(const rt::Network& net, const rt::WormholeRouting& routing,
                                             std::vector<rt::WormMessage> msgs, uint64_t seed) {
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < msgs.size(); ++i) {
      std::vector<rt::WormMessage> fewer = msgs;
      fewer.erase(fewer.begin() + static_cast<long>(i));
      if (deadlocks(net, routing, fewer, seed)) {
        msgs = std::move(fewer);
        progress = true;
        --i;
      }
    }
    for (size_t i = 0; i < msgs.size(); ++i) {
      if (msgs[i].length == 1) continue;
      std::vector<rt::WormMessage> shorter = msgs;
      shorter[i].length = 1;
      if (deadlocks(net, routing, shorter, seed)) {
        msgs = std::move(shorter);
        progress = true;
      }
    }
  }
  return msgs;
}

Result<CaseCheck> replay_control(const std::string& graph_name, const json& params, const json& input) {
  auto g = rt::control_graph(graph_name);
  if (!g) return g.error();
  auto net = rt::network_of(*g, rt::control_title(graph_name));
  if (!net) return net.error();
  if (!params.is_object() || !params.contains("seed") || !params.at("seed").is_number_unsigned())
    return invalid_argument("params.seed: missing or not an unsigned integer");
  if (params.value("buffer", 0u) != kBuffer) return invalid_argument(fmt::format("params.buffer: not {}", kBuffer));
  if (!input.is_object() || !input.contains("messages")) return invalid_argument("input.messages: missing");
  auto msgs = messages_from(input.at("messages"), net->num_nodes());
  if (!msgs) return msgs.error();
  const auto routing = shortest_path(*net, rt::Adaptivity::kAdaptive);
  CaseCheck cc;
  RunVerdict v = judge_run(*net, *routing, *msgs, run_config(params.at("seed").get<uint64_t>()), "replay");
  cc.violation = v.violation;
  cc.witness = {{"deadlock", v.witness}};
  return cc;
}

MethodResult control_method(const RunContext& ctx, const std::string& name) {
  MethodResult r;
  r.method = Method::kRandom;
  auto g = rt::control_graph(name);
  TC_CHECK(g.ok(), "a known control");
  auto net = rt::network_of(*g, rt::control_title(name));
  TC_CHECK(net.ok(), "controls are connected");
  const auto routing = shortest_path(*net, rt::Adaptivity::kAdaptive);
  const int seeds = scope::kControlSeeds.at(ctx.budget);
  r.scope = fmt::format("{} ({} nodes, {} edges): every adversarial pattern and uniform load {}, seeds 1..{} each, "
                        "until a deadlock; then worms removed and shortened while it persists",
                        rt::control_title(name), g->n(), g->num_edges(), kUniformLoad, seeds);
  for (int s = 1; s <= seeds; ++s) {
    if (s % 32 == 1) ctx.report(fmt::format("{} seed {}/{}", name, s, seeds));
    for (const Traffic& t : traffic_of_seed(*net, static_cast<uint64_t>(s))) {
      ++r.cases;
      if (!deadlocks(*net, *routing, t.msgs, t.seed)) continue;
      // The worms of the waiting cycle alone, all created at cycle 0, one flit each or else their
      // own lengths: the first simulator seed under which they deadlock; else the run, shrunk.
      std::vector<rt::WormMessage> small;
      uint64_t seed = t.seed;
      std::string label;
      auto found = rt::simulate_wormhole(*net, *routing, t.msgs, run_config(t.seed));
      TC_CHECK(found.ok() && found->deadlock, "the run deadlocked a moment ago");
      for (bool one_flit : {true, false}) {
        std::vector<rt::WormMessage> core;
        for (uint32_t w : found->deadlock->cycle_worms)
          core.push_back({t.msgs[w].src, t.msgs[w].dst, one_flit ? 1 : t.msgs[w].length, 0});
        for (uint64_t s2 = 1; s2 <= static_cast<uint64_t>(seeds) && small.empty(); ++s2)
            if (deadlocks(*net, *routing, core, s2)) {
            small = shrink_deadlock(*net, *routing, core, s2);
            seed = s2;
            label = fmt::format("the waiting cycle of {} traffic seed {} ({} worms), simulator seed {}", t.kind, t.seed,
                                t.msgs.size(), s2);
          }
      }
      if (small.empty()) {
        small = shrink_deadlock(*net, *routing, t.msgs, t.seed);
        label = fmt::format("{} traffic seed {}, {} of its {} worms", t.kind, t.seed, small.size(), t.msgs.size());
      }
      RunVerdict v = judge_run(*net, *routing, small, run_config(seed), label);
      if (!v.violation) {
        r.outcome = Outcome::kError;
        r.detail = "the shrunk run no longer deadlocks";
        return r;
      }
      Counterexample cx;
      cx.params = {{"graph", name}, {"routing", "sp-adaptive"}, {"buffer", kBuffer}, {"selection", "random"}, {"seed", seed}};
      cx.input = {{"messages", messages_json(small)}};
      cx.violation = *v.violation;
      cx.witness = {{"deadlock", v.witness}, {"edges", edges_json(*g)}, {"traffic", t.kind}};
      cx.minimized = true;  // no worm can be removed or shortened (1-minimal)
      r.counterexample = cx;
      r.outcome = Outcome::kRefuted;
      r.detail = cx.violation;
      return r;
    }
  }
  r.outcome = Outcome::kHolds;
  return r;
}

}  // namespace

void add_deadlock_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (Rule rule : kRules)
    for (rt::Adaptivity a : kAdaptivities) {
      Reading r;
      r.name = fmt::format("{}-{}", itm::to_string(rule), adaptivity_word(a));
      r.description = fmt::format(
          "ITMs built by AddNode on {}; {} shortest-path wormhole routing ({}); worms of {} flits, {}-flit channel "
          "buffers, one channel per direction (no virtual channels); every adversarial pattern and uniform traffic at "
          "load {} per seed: no deadlock, every worm delivered",
          rule == Rule::kAnyEdge ? "any edge" : "exterior edges", adaptivity_word(a),
          a == rt::Adaptivity::kAdaptive ? "any free shortest-path channel, chosen at random"
                                         : "the first shortest-path port only",
          kLength, kBuffer, kUniformLoad);
      r.methods.emplace_back(Method::kExhaustive, [rule, a](const RunContext& ctx) {
        MethodResult m = exhaustive_itms(ctx, rule, scope::kSweepMaxN.at(ctx.budget),
                                         deadlock_check(a, scope::kTrafficSeeds.at(ctx.budget)));
        m.scope += fmt::format("; traffic seeds 1..{}", scope::kTrafficSeeds.at(ctx.budget));
        return m;
      });
      r.methods.emplace_back(Method::kRandom, [rule, a](const RunContext& ctx) {
        MethodResult m = random_itms(ctx, rule, scope::kRandomMaxNodes, deadlock_check(a, scope::kTrafficSeeds.at(ctx.budget)),
                                     scope::kRandomCases.at(ctx.budget));
        m.scope += fmt::format("; traffic seeds 1..{}", scope::kTrafficSeeds.at(ctx.budget));
        return m;
      });
      r.methods.emplace_back(Method::kOracle, [rule, a](const RunContext& ctx) {
        MethodResult m = exhaustive_itms(ctx, rule, scope::kSweepMaxN.at(ctx.budget), dependency_check(a));
        m.method = Method::kOracle;
        m.scope += " (channel dependency graph acyclic: Dally-Seitz)";
        return m;
      });
      r.check_case = itm_case_fn(rule, deadlock_check(a, scope::kTrafficSeeds.deep));
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(
      kPaper, "wormhole.thm2.deadlock_free", "Abstract; Theorem 2",
      "'on a ITM, any shortest path routing method will not deadlock' under wormhole switching, where 'blocked messages "
      "remain in the network, prohibiting other messages from using the occupied links and buffers'",
      std::move(readings)));
}

void add_control_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (std::string_view name : rt::kControlNames) {
    Reading r;
    r.name = std::string(name);
    r.description = fmt::format(
        "the same fully adaptive shortest-path wormhole routing on {} (not an ITM: it has a chordless cycle of length "
        ">= 4), {}-flit buffers: no deadlock",
        rt::control_title(name), kBuffer);
    const std::string n(name);
    r.methods.emplace_back(Method::kRandom, [n](const RunContext& ctx) { return control_method(ctx, n); });
    r.check_case = [n](const json& params, const json& input) { return replay_control(n, params, input); };
    readings.push_back(std::move(r));
  }
  registry.add(Claim::make(
      kPaper, "wormhole.thm2.non_itm_deadlock_free", "Theorem 2 (beyond the paper: its hypothesis dropped)",
      "negative control: shortest-path wormhole routing on graphs that are NOT ITMs (C4, K_{2,3}, the 3x3 grid, a random "
      "non-chordal graph) never deadlocks; expected refuted, with the detector's waiting cycle",
      std::move(readings)));
}

}  // namespace topocheck::claims::wormhole_parts
