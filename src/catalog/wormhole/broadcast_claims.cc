// The recursive broadcast of the ITM paper (002, the section on contention freedom, which
// Theorem 5 motivates) sent as worms under wormhole switching:
//
//  - wormhole.broadcast.contention_free (readings any-edge, exterior): the recursive broadcast
//    over the circular order (itm/itm_checks.h), each round's messages injected together as worms
//    under fully adaptive shortest-path routing: no directed channel is crossed by two worms of
//    one round (judged from the recorded trace, which wormhole/wormhole_check.h validates first).
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "catalog/itm/methods.h"
#include "catalog/wormhole/parts.h"
#include "catalog/wormhole/scope.h"
#include "catalog/wormhole/simulation.h"
#include "itm/itm_checks.h"
#include "wormhole/wormhole_check.h"

namespace topocheck::claims::wormhole_parts {
namespace {

namespace scope = wormhole_scope;
using itm::Itm;
using itm::Rule;
using nlohmann::json;

// ---- wormhole.broadcast.contention_free --------------------------------------------------------

// The broadcast runs over the circular order of Lemma 4's exterior cycle: an ITM without one
// (AddNode on any edge can leave a node on three exterior edges) is outside the claim's premise,
// counted but not judged (the claim says nothing there; itm.lemma4.cycle is refuted by it).
bool has_circular_order(const Itm& g) { return itm::circular_order(g).ok(); }

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

}  // namespace

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
      MethodResult m = exhaustive_itms(ctx, rule, scope::kBroadcastMaxN.at(ctx.budget),
                                       broadcast_check(scope::kTrafficSeeds.at(ctx.budget)), has_circular_order);
      m.scope += fmt::format("; every source, selection seeds 1..{}", scope::kTrafficSeeds.at(ctx.budget));
      return m;
    });
    r.methods.emplace_back(Method::kRandom, [rule](const RunContext& ctx) {
      MethodResult m = random_itms(ctx, rule, scope::kBroadcastRandomMaxNodes,
                                   broadcast_check(scope::kTrafficSeeds.at(ctx.budget)),
                                   scope::kBroadcastRandomCases.at(ctx.budget), has_circular_order);
      m.scope += fmt::format("; every source, selection seeds 1..{}", scope::kTrafficSeeds.at(ctx.budget));
      return m;
    });
    r.check_case = itm_case_fn(rule, broadcast_check(scope::kTrafficSeeds.deep), has_circular_order);
    readings.push_back(std::move(r));
  }
  registry.add(Claim::make(
      kPaper, "wormhole.broadcast.contention_free", "Section on contention freedom; Theorem 5 (the broadcast it motivates)",
      "'contention-free recursive algorithms for broadcast and multicast': no two worms of one round use one directed "
      "channel",
      std::move(readings)));
}

}  // namespace topocheck::claims::wormhole_parts
