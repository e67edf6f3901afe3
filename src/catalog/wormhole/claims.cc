// Wormhole switching on ITMs (issue 8; papers/002): the paper's motivation tied to behaviour.
// Theorem 2 ("any routing discipline that takes the shortest path is deadlock-free in ITM") is
// proved in catalog/itm/claims.cc on the channel dependency graph; here the flit-level simulator
// (routing/wormhole.h) runs it, and the deadlock detector watches:
//
//  - wormhole.thm2.deadlock_free (readings rule x adaptivity): shortest-path wormhole routing on
//    ITMs never deadlocks under adversarial and random traffic. Exhaustive: every ITM up to
//    isomorphism to n = 7 / 9 / 10 (quick / standard / deep); random: AddNode sequences up to 64
//    nodes (itm/itm_gen.h, with shrinking). Each ITM gets every adversarial pattern
//    (routing/wormhole_traffic.h) and uniform traffic at offered load 1 (saturation), with
//    traffic and simulator seeds 1..S (S = 1 / 2 / 4), worms of 4 flits, 1-flit buffers, random
//    selection among free allowed channels. A run that deadlocks or does not deliver every worm
//    within kMaxCycles refutes. Oracle: the routing function's channel dependency graph is
//    acyclic (Dally-Seitz), on the same ITMs.
//  - wormhole.thm2.non_itm_deadlock_free (readings c4, k23, grid3x3, nonchordal; beyond the
//    paper, a negative control of the whole pipeline): the same fully adaptive routing on graphs
//    that are not ITMs. Expected refuted: the search runs the patterns with seeds 1..S' until a
//    deadlock, then removes worms (and shortens them to one flit) while the run still
//    deadlocks; the case stores the graph, the seed and the remaining worms, and the detector's
//    waiting cycle, which replay re-derives and check_worm_deadlock judges.
//  - wormhole.broadcast.contention_free (readings any-edge, exterior): the recursive broadcast
//    over the circular order (itm_checks.h), each round's messages injected together as worms
//    under fully adaptive shortest-path routing: no directed channel is crossed by two worms of
//    one round (judged from the recorded trace, which wormhole_check.h validates first).
//  - wormhole.updown.shortest_paths (beyond the paper; readings rule x kernel-root / any-root):
//    up*/down* over a BFS tree from a kernel node permits every shortest path of an ITM. Proof:
//    ids follow the AddNode order and a node v added at (x, y) has level min(level x, level y)
//    + 1; every later neighbour w of v (added at an edge (v, z), z adjacent to v) has level >=
//    level v, and id > id v, so v's only neighbours below it in the (level, id) order are among
//    x, y, which are adjacent: no shortest 2-hop path turns down then up at v, and a route that
//    is illegal has such a turn. From other roots it fails (any-root: refuted).
//  - wormhole.abstract.throughput_vs_updown (empirical; readings pairing x up*/down* root):
//    "ITM provides better throughput than up-down routing", from the throughput study
//    (routing/wormhole_study.h, default configuration: random any-edge ITMs of 16, 32, 64 nodes,
//    seeds 1..3, uniform traffic, load swept to saturation). Reproduced iff shortest-path
//    routing's saturation throughput is strictly larger than up*/down*'s on every instance; the
//    first instance where it is not is the counterexample, replayed by re-running that instance.
#include <algorithm>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/catalog.h"
#include "claims/claim.h"
#include "catalog/itm/methods.h"
#include "core/graph.h"
#include "itm/itm.h"
#include "itm/itm_checks.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_check.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"
#include "wormhole/wormhole_study.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::claims {
namespace {

using itm::Itm;
using itm::Rule;
using nlohmann::json;
namespace rt = topocheck::routing;

constexpr const char* kPaper = "002_5e7910d99423ef9d.txt";

// ---- scope ------------------------------------------------------------------------------------

const PerBudget<int> kSweepMaxN{7, 10, 12};
const PerBudget<int> kTrafficSeeds{1, 2, 4};
const PerBudget<int> kRandomCases{10, 100, 500};
constexpr int kRandomMaxNodes = 64;
const PerBudget<int> kBroadcastMaxN{8, 12, 14};
const PerBudget<int> kBroadcastRandomCases{5, 50, 200};
constexpr int kBroadcastRandomMaxNodes = 64;
const PerBudget<int> kControlSeeds{64, 256, 1024};
constexpr uint32_t kLength = 4;        // flits per worm
constexpr uint32_t kBuffer = 1;        // flits per channel buffer
constexpr double kUniformLoad = 1.0;   // flits per node per cycle (saturation)
constexpr uint32_t kUniformCycles = 200;
constexpr uint32_t kMaxCycles = 200000;

constexpr Rule kRules[] = {Rule::kAnyEdge, Rule::kExterior};
constexpr rt::Adaptivity kAdaptivities[] = {rt::Adaptivity::kAdaptive, rt::Adaptivity::kDeterministic};

std::string adaptivity_word(rt::Adaptivity a) { return a == rt::Adaptivity::kAdaptive ? "adaptive" : "deterministic"; }

std::unique_ptr<rt::WormholeRouting> shortest_path(const rt::Network& net, rt::Adaptivity a) {
  auto r = rt::make_routing(net, rt::RoutingSpec{rt::RoutingFamily::kShortestPath, a, 0});
  TC_CHECK(r.ok(), "shortest-path routing cannot fail to build");
  return std::move(r).value();
}

rt::Network itm_network(const Itm& g) {
  auto net = rt::network_of(g.graph(), fmt::format("ITM({}, {})", itm::to_string(g.rule()), g.n()));
  TC_CHECK(net.ok(), "an ITM is connected");
  return *std::move(net);
}

json messages_json(const std::vector<rt::WormMessage>& msgs) {
  json out = json::array();
  for (const rt::WormMessage& m : msgs) out.push_back({m.src, m.dst, m.length, m.created});
  return out;
}

Result<std::vector<rt::WormMessage>> messages_from(const json& j, uint32_t num_nodes) {
  if (!j.is_array()) return invalid_argument("input.messages must be an array of [src, dst, length, created]");
  std::vector<rt::WormMessage> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const json& m = j[i];
    if (!m.is_array() || m.size() != 4)
      return invalid_argument(fmt::format("input.messages[{}]: not [src, dst, length, created]", i));
    for (const json& x : m)
      if (!x.is_number_unsigned()) return invalid_argument(fmt::format("input.messages[{}]: not four unsigned integers", i));
    rt::WormMessage w{m[0].get<uint32_t>(), m[1].get<uint32_t>(), m[2].get<uint32_t>(), m[3].get<uint32_t>()};
    if (w.src >= num_nodes || w.dst >= num_nodes || w.src == w.dst || w.length == 0)
      return invalid_argument(fmt::format("input.messages[{}]: nodes outside 0..{}, equal, or length 0", i, num_nodes - 1));
    out.push_back(w);
  }
  return out;
}

json witness_json(const rt::Network& net, const rt::WormDeadlock& w) {
  const rt::ChannelTable ch(net);
  auto text = [&](const std::vector<uint32_t>& cs) {
    json out = json::array();
    for (uint32_t c : cs) out.push_back(fmt::format("{}->{}", ch.tail[c], ch.head[c]));
    return out;
  };
  json j = rt::to_json(w);
  j["waits_on_text"] = text(w.waits_on);
  // Per stuck worm, its channels as text (show --format dot draws them).
  for (size_t i = 0; i < w.stuck.size(); ++i) {
    j["stuck"][i]["held_text"] = text(w.stuck[i].held);
    j["stuck"][i]["wants_text"] = text(w.stuck[i].wants);
  }
  return j;
}

rt::WormConfig run_config(uint64_t seed) {
  rt::WormConfig cfg;
  cfg.buffer = kBuffer;
  cfg.selection = rt::Selection::kRandomFree;
  cfg.seed = seed;
  cfg.max_cycles = kMaxCycles;
  return cfg;
}

// One run's verdict on "no deadlock, everything delivered"; the deadlock's witness is judged by
// the naive witness checker before it is believed.
struct RunVerdict {
  Violation violation;
  json witness;
};
RunVerdict judge_run(const rt::Network& net, const rt::WormholeRouting& routing, const std::vector<rt::WormMessage>& msgs,
                     const rt::WormConfig& cfg, const std::string& label) {
  RunVerdict v;
  auto res = rt::simulate_wormhole(net, routing, msgs, cfg);
  if (!res) {
    v.violation = fmt::format("{}: the simulator failed: {}", label, res.error().message);
    return v;
  }
  if (res->deadlock) {
    if (auto bad = rt::check_worm_deadlock(net, routing, msgs, *res->deadlock)) {
      v.violation = fmt::format("{}: the detector's witness is rejected: {}", label, *bad);
      return v;
    }
    v.violation = fmt::format("{}: {} worms deadlock at cycle {}: {}", label, res->deadlock->stuck.size(),
                              res->deadlock->cycle, rt::waiting_cycle_text(net, msgs, *res->deadlock));
    v.witness = witness_json(net, *res->deadlock);
    return v;
  }
  if (!res->completed)
    v.violation = fmt::format("{}: {} of {} worms delivered after {} cycles, no deadlock found", label,
                              res->delivered_worms, msgs.size(), res->cycles);
  return v;
}

// The traffic of one seed: every adversarial pattern, then uniform traffic at saturation.
struct Traffic {
  std::string kind;   // "distance-two", "uniform"
  std::string label;  // "distance-two, seed 2"
  uint64_t seed = 1;
  std::vector<rt::WormMessage> msgs;
};
std::vector<Traffic> traffic_of_seed(const rt::Network& net, uint64_t seed) {
  std::vector<Traffic> out;
  for (rt::Pattern p : rt::kPatterns)
    out.push_back({rt::to_string(p), fmt::format("{}, seed {}", rt::to_string(p), seed), seed,
                   rt::adversarial_traffic(net, p, kLength, seed)});
  out.push_back({"uniform", fmt::format("uniform load {}, seed {}", kUniformLoad, seed), seed,
                 rt::uniform_traffic(net.num_nodes(), kUniformLoad, kLength, kUniformCycles, seed)});
  return out;
}
// The traffic of one ITM run set: seeds 1..seeds, each as traffic_of_seed.
std::vector<Traffic> traffic_set(const rt::Network& net, int seeds) {
  std::vector<Traffic> out;
  for (int s = 1; s <= seeds; ++s)
    for (Traffic& t : traffic_of_seed(net, static_cast<uint64_t>(s))) out.push_back(std::move(t));
  return out;
}

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
        MethodResult m = exhaustive_itms(ctx, rule, kSweepMaxN.at(ctx.budget), deadlock_check(a, kTrafficSeeds.at(ctx.budget)));
        m.scope += fmt::format("; traffic seeds 1..{}", kTrafficSeeds.at(ctx.budget));
        return m;
      });
      r.methods.emplace_back(Method::kRandom, [rule, a](const RunContext& ctx) {
        MethodResult m = random_itms(ctx, rule, kRandomMaxNodes, deadlock_check(a, kTrafficSeeds.at(ctx.budget)),
                                     kRandomCases.at(ctx.budget));
        m.scope += fmt::format("; traffic seeds 1..{}", kTrafficSeeds.at(ctx.budget));
        return m;
      });
      r.methods.emplace_back(Method::kOracle, [rule, a](const RunContext& ctx) {
        MethodResult m = exhaustive_itms(ctx, rule, kSweepMaxN.at(ctx.budget), dependency_check(a));
        m.method = Method::kOracle;
        m.scope += " (channel dependency graph acyclic: Dally-Seitz)";
        return m;
      });
      r.check_case = itm_case_fn(rule, deadlock_check(a, kTrafficSeeds.deep));
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(
      kPaper, "wormhole.thm2.deadlock_free", "Abstract; Theorem 2",
      "'on a ITM, any shortest path routing method will not deadlock' under wormhole switching, where 'blocked messages "
      "remain in the network, prohibiting other messages from using the occupied links and buffers'",
      std::move(readings)));
}

// ---- wormhole.thm2.non_itm_deadlock_free (negative controls) ---------------------------------

struct ControlRun {
  std::vector<rt::WormMessage> msgs;
  uint64_t seed = 1;
  std::string traffic;
};

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
  const int seeds = kControlSeeds.at(ctx.budget);
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

// ---- wormhole.broadcast.contention_free --------------------------------------------------------

ItmCheck broadcast_check(int seeds) {
  return [seeds](const Itm& g, json* witness) -> Violation {
    auto order = itm::circular_order(g);
    if (!order) return "no circular order: " + order.error().message;
    const rt::Network net = itm_network(g);
    const auto routing = shortest_path(net, rt::Adaptivity::kAdaptive);
    const rt::ChannelTable ch(net);
    for (int s = 0; s < g.n(); ++s) {
      const itm::Rounds rounds = itm::broadcast_from(*order, s);
      for (size_t k = 0; k < rounds.size(); ++k) {
        std::vector<rt::WormMessage> msgs;
        for (const auto& [from, to] : rounds[k])
          msgs.push_back({static_cast<rt::NodeId>(from), static_cast<rt::NodeId>(to), kLength, 0});
        for (int seed = 1; seed <= seeds; ++seed) {
          rt::WormConfig cfg = run_config(static_cast<uint64_t>(seed));
          cfg.record_trace = true;
          auto res = rt::simulate_wormhole(net, *routing, msgs, cfg);
          if (!res) return fmt::format("broadcast from {}, round {}: the simulator failed: {}", s, k + 1, res.error().message);
          if (auto bad = rt::check_wormhole_trace_text(net, *routing, msgs, cfg, *res))
            return fmt::format("broadcast from {}, round {}, seed {}: invalid trace: {}", s, k + 1, seed, *bad);
          std::vector<int64_t> user(ch.size(), -1);
          for (const rt::FlitCrossing& c : res->trace->crossings) {
            if (user[c.channel] < 0) user[c.channel] = c.worm;
            if (user[c.channel] == static_cast<int64_t>(c.worm)) continue;
            const rt::WormMessage& a = msgs[static_cast<size_t>(user[c.channel])];
            const rt::WormMessage& b = msgs[c.worm];
            if (witness) (*witness)["rounds"] = rounds;
            return fmt::format("broadcast from {}, round {}, seed {}: worms {}->{} and {}->{} both cross channel {}->{}", s,
                               k + 1, seed, a.src, a.dst, b.src, b.dst, ch.tail[c.channel], ch.head[c.channel]);
          }
          if (!res->completed) return fmt::format("broadcast from {}, round {}: not every worm delivered", s, k + 1);
        }
      }
    }
    return std::nullopt;
  };
}

void add_broadcast_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (Rule rule : kRules) {
    Reading r;
    r.name = itm::to_string(rule);
    r.description = fmt::format(
        "ITMs built by AddNode on {}; from every source, each round of the recursive broadcast over the circular order "
        "sent as worms of {} flits at once, fully adaptive shortest-path routing with random selection: no directed "
        "channel carries flits of two worms of one round",
        rule == Rule::kAnyEdge ? "any edge" : "exterior edges", kLength);
    r.methods.emplace_back(Method::kExhaustive, [rule](const RunContext& ctx) {
      MethodResult m = exhaustive_itms(ctx, rule, kBroadcastMaxN.at(ctx.budget), broadcast_check(kTrafficSeeds.at(ctx.budget)));
      m.scope += fmt::format("; every source, selection seeds 1..{}", kTrafficSeeds.at(ctx.budget));
      return m;
    });
    r.methods.emplace_back(Method::kRandom, [rule](const RunContext& ctx) {
      MethodResult m = random_itms(ctx, rule, kBroadcastRandomMaxNodes, broadcast_check(kTrafficSeeds.at(ctx.budget)),
                                   kBroadcastRandomCases.at(ctx.budget));
      m.scope += fmt::format("; every source, selection seeds 1..{}", kTrafficSeeds.at(ctx.budget));
      return m;
    });
    r.check_case = itm_case_fn(rule, broadcast_check(kTrafficSeeds.deep));
    readings.push_back(std::move(r));
  }
  registry.add(Claim::make(
      kPaper, "wormhole.broadcast.contention_free", "Section on contention freedom; Theorem 5 (the broadcast it motivates)",
      "'contention-free recursive algorithms for broadcast and multicast': no two worms of one round use one directed "
      "channel",
      std::move(readings)));
}

// ---- wormhole.updown.shortest_paths (beyond the paper) -----------------------------------------

// Every shortest path of the ITM is a legal up*/down* route for the BFS tree from `root`. A route
// is illegal iff it takes an up hop after a down hop, and then some down hop is IMMEDIATELY
// followed by an up hop; a shortest path's two consecutive hops a -> b -> c are exactly the
// neighbours a != c of b that are not adjacent. So the check: no node b has two non-adjacent
// neighbours a, c with a -> b down and b -> c up (b below both in the (level, id) order).
Violation valley_check(const rt::Network& net, rt::NodeId root, const itm::Graph& g) {
  const rt::UpDownTree tree = rt::updown_tree(net, root);
  for (int b = 0; b < g.n(); ++b)
    for (int a : g.neighbors(b))
      for (int c : g.neighbors(b))
        if (a != c && !g.adjacent(a, c) && !tree.up(static_cast<rt::NodeId>(a), static_cast<rt::NodeId>(b)) &&
            tree.up(static_cast<rt::NodeId>(b), static_cast<rt::NodeId>(c)))
          return fmt::format("root {}: the shortest path {} -> {} -> {} goes down to {} (level {}) and up again, which "
                             "up*/down* forbids",
                             root, a, b, c, b, tree.level[static_cast<size_t>(b)]);
  return std::nullopt;
}

// The consequence, on the routing functions themselves: at every state up*/down* (adaptive)
// reaches from an injection, it allows exactly the channels shortest-path routing allows.
Violation same_allowed_check(const rt::Network& net, rt::NodeId root) {
  auto ud = rt::make_routing(net, rt::RoutingSpec{rt::RoutingFamily::kUpDown, rt::Adaptivity::kAdaptive, root});
  TC_CHECK(ud.ok(), "up*/down* builds on an ITM");
  const auto sp = shortest_path(net, rt::Adaptivity::kAdaptive);
  const rt::ChannelTable ch(net);
  std::vector<uint32_t> a, b;
  for (rt::NodeId d = 0; d < net.num_nodes(); ++d) {
    std::vector<char> seen(ch.size(), 0);
    std::vector<std::pair<rt::NodeId, uint32_t>> todo;
    for (rt::NodeId s = 0; s < net.num_nodes(); ++s)
      if (s != d) todo.emplace_back(s, rt::kInjection);
    while (!todo.empty()) {
      const auto [x, in] = todo.back();
      todo.pop_back();
      (*ud)->allowed(x, in, d, a);
      sp->allowed(x, in, d, b);
      if (a != b)
        return fmt::format("root {}: toward {} at {} (arrived on {}) up*/down* allows {} channels, shortest-path {}", root, d,
                           x, in == rt::kInjection ? std::string("injection") : fmt::format("{}->{}", ch.tail[in], ch.head[in]),
                           a.size(), b.size());
      for (uint32_t c : a)
        if (!seen[c] && ch.head[c] != d) {
          seen[c] = 1;
          todo.emplace_back(ch.head[c], c);
        }
    }
  }
  return std::nullopt;
}

ItmCheck updown_check(bool kernel_roots, bool by_routing) {
  return [kernel_roots, by_routing](const Itm& g, json* witness) -> Violation {
    const rt::Network net = itm_network(g);
    const int roots = kernel_roots ? 3 : g.n();
    for (int r = 0; r < roots; ++r) {
      const auto root = static_cast<rt::NodeId>(r);
      Violation v = by_routing ? same_allowed_check(net, root) : valley_check(net, root, g.graph());
      if (v) {
        if (witness) (*witness)["root"] = r;
        return v;
      }
    }
    return std::nullopt;
  };
}

const PerBudget<int> kUpDownMaxN{9, 13, 14};
const PerBudget<int> kUpDownRandomCases{20, 200, 1000};
constexpr int kUpDownRandomMaxNodes = 100;

void add_updown_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (Rule rule : kRules)
    for (bool kernel : {true, false}) {
      Reading r;
      r.name = fmt::format("{}-{}", itm::to_string(rule), kernel ? "kernel-root" : "any-root");
      r.description = fmt::format(
          "ITMs built by AddNode on {} (node ids in AddNode order); up*/down* over the BFS tree from {} (up = towards the "
          "smaller (level, id)): every shortest path is a legal up*/down* route, so up*/down* and shortest-path routing "
          "allow the same channels",
          rule == Rule::kAnyEdge ? "any edge" : "exterior edges", kernel ? "any kernel node (0, 1, 2)" : "any node");
      r.methods.emplace_back(Method::kExhaustive, [rule, kernel](const RunContext& ctx) {
        return exhaustive_itms(ctx, rule, kUpDownMaxN.at(ctx.budget), updown_check(kernel, false));
      });
      r.methods.emplace_back(Method::kRandom, [rule, kernel](const RunContext& ctx) {
        return random_itms(ctx, rule, kUpDownRandomMaxNodes, updown_check(kernel, false), kUpDownRandomCases.at(ctx.budget));
      });
      // The routing functions compared state by state: the same verdict, independently reached.
      r.methods.emplace_back(Method::kOracle, [rule, kernel](const RunContext& ctx) {
        MethodResult m = exhaustive_itms(ctx, rule, std::min(kUpDownMaxN.at(ctx.budget), 10), updown_check(kernel, true));
        m.method = Method::kOracle;
        m.scope += " (allowed channels of the two routing functions compared at every reachable state)";
        return m;
      });
      r.check_case = itm_case_fn(rule, updown_check(kernel, false));
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(
      kPaper, "wormhole.updown.shortest_paths", "Abstract (beyond the paper: why the throughput comparison ties)",
      "on an ITM, up*/down* routing over a BFS tree rooted at a kernel node permits every shortest path, so it is the "
      "same routing as shortest-path routing",
      std::move(readings)));
}

// ---- wormhole.abstract.throughput_vs_updown -------------------------------------------------

rt::WormStudyConfig study_config(rt::RootPolicy policy) {
  rt::WormStudyConfig c;  // the default protocol
  c.root_policy = policy;
  c.jobs = 2;
  return c;
}

Result<rt::WormStudyResult> cached_wormhole_study(rt::RootPolicy policy) {
  static std::mutex mu;
  static std::map<rt::RootPolicy, std::shared_future<Result<rt::WormStudyResult>>> cache;
  std::shared_future<Result<rt::WormStudyResult>> f;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(policy);
    if (it == cache.end())
      it = cache.emplace(policy, std::async(std::launch::deferred, [policy] {
                                   return rt::run_wormhole_study(study_config(policy));
                                 }).share()).first;
    f = it->second;
  }
  return f.get();
}

Counterexample throughput_counterexample(const rt::WormVerdict& v, const rt::WormStudyResult& study, rt::RootPolicy policy) {
  const rt::WormInstanceRatio& bad = v.instances[*v.first_failure];
  Counterexample cx;
  cx.params = {{"rule", itm::to_string(study.config.rule)}, {"root", rt::to_string(policy)},
               {"pairing", adaptivity_word(v.pairing)}};
  cx.input = {{"size", bad.size}, {"seed", bad.seed}};
  cx.violation = fmt::format("ITM of {} nodes, seed {}: shortest-path saturation throughput {:.4f} vs up*/down* {:.4f} "
                             "(ratio {:.3f}); over all instances: {}",
                             bad.size, bad.seed, bad.sp, bad.updown, bad.ratio, v.detail);
  json ratios = json::array();
  for (const rt::WormInstanceRatio& r : v.instances)
    ratios.push_back({{"size", r.size}, {"seed", r.seed}, {"sp", r.sp}, {"updown", r.updown}, {"ratio", r.ratio}});
  cx.witness = {{"instances", ratios}};
  for (const rt::WormInstance& i : study.instances)
    if (i.size == bad.size && i.seed == bad.seed) cx.witness["steps"] = i.steps, cx.witness["root"] = i.root;
  cx.minimized = true;  // the first instance in the study's order (smallest size, then seed)
  return cx;
}

MethodResult throughput_method(const RunContext& ctx, rt::Adaptivity pairing, rt::RootPolicy policy) {
  MethodResult r;
  r.method = Method::kRandom;
  ctx.report(fmt::format("throughput study, up*/down* root {}", rt::to_string(policy)));
  auto study = cached_wormhole_study(policy);
  if (!study) {
    r.outcome = Outcome::kError;
    r.detail = study.error().message;
    return r;
  }
  const rt::WormStudyConfig& c = study->config;
  r.scope = fmt::format("random {} ITMs of {} nodes, seeds {}; up*/down* root: {}; uniform traffic, {}-flit worms, {}-flit "
                        "buffers; loads {}, {}, ... to saturation; window {} + {} cycles",
                        itm::to_string(c.rule), fmt::join(c.sizes, ", "), fmt::join(c.seeds, ", "), rt::to_string(policy),
                        c.length, c.buffer, c.load_step, 2 * c.load_step, c.warmup, c.measure);
  for (const rt::WormVerdict& v : study->verdicts) {
    if (v.pairing != pairing) continue;
    r.cases = v.instances.size();
    r.detail = v.detail;
    if (v.reproduced) {
      r.outcome = Outcome::kHolds;
    } else if (!v.first_failure) {
      r.outcome = Outcome::kError;
      r.detail = "no instance in the study";
    } else {
      r.outcome = Outcome::kRefuted;
      r.counterexample = throughput_counterexample(v, *study, policy);
      r.detail = r.counterexample->violation;
    }
    return r;
  }
  r.outcome = Outcome::kError;
  r.detail = "the study has no verdict for this pairing";
  return r;
}

Result<CaseCheck> throughput_case(rt::Adaptivity pairing, rt::RootPolicy policy, const json& params, const json& input) {
  if (!params.is_object() || params.value("root", std::string()) != rt::to_string(policy) ||
      params.value("pairing", std::string()) != adaptivity_word(pairing))
    return invalid_argument(fmt::format("params: this reading is pairing {}, root {}", adaptivity_word(pairing),
                                        rt::to_string(policy)));
  if (!input.is_object() || !input.contains("size") || !input.at("size").is_number_integer() || !input.contains("seed") ||
      !input.at("seed").is_number_unsigned())
    return invalid_argument("input: needs integer size and unsigned seed");
  rt::WormStudyConfig c = study_config(policy);
  c.sizes = {input.at("size").get<int>()};
  c.seeds = {input.at("seed").get<uint64_t>()};
  c.pairings = {pairing};
  auto study = rt::run_wormhole_study(c);
  if (!study) return study.error();
  const rt::WormVerdict& v = study->verdicts.front();
  CaseCheck cc;
  if (!v.reproduced && v.first_failure) cc.violation = throughput_counterexample(v, *study, policy).violation;
  cc.witness = {{"detail", v.detail}};
  return cc;
}

void add_throughput_claim(Registry& registry) {
  std::vector<Reading> readings;
  for (rt::Adaptivity a : kAdaptivities)
    for (rt::RootPolicy policy : {rt::RootPolicy::kCenter, rt::RootPolicy::kRandom}) {
      Reading r;
      r.name = fmt::format("{}-root-{}", adaptivity_word(a), rt::to_string(policy));
      r.description = fmt::format(
          "on the same random ITM, {} shortest-path routing reaches a strictly higher saturation throughput than {} "
          "up*/down* routing over a BFS tree from {}, on every instance of the study (routing/wormhole_study.h)",
          adaptivity_word(a), adaptivity_word(a),
          policy == rt::RootPolicy::kCenter ? "the center (smallest eccentricity, then smallest id)"
                                            : "a node drawn at random per instance");
      r.methods.emplace_back(Method::kRandom, [a, policy](const RunContext& ctx) { return throughput_method(ctx, a, policy); });
      r.check_case = [a, policy](const json& params, const json& input) { return throughput_case(a, policy, params, input); };
      readings.push_back(std::move(r));
    }
  registry.add(Claim::make(kPaper, "wormhole.abstract.throughput_vs_updown", "Abstract",
                           "'Our initial experimental results demonstrate that ITM provides better throughput than up-down "
                           "routing' (no data printed)",
                           std::move(readings), /*empirical=*/true));
}

}  // namespace

void register_wormhole_claims(Registry& registry) {
  add_deadlock_claim(registry);
  add_control_claim(registry);
  add_broadcast_claim(registry);
  add_throughput_claim(registry);
  add_updown_claim(registry);
}

}  // namespace topocheck::claims
