// The wormhole claims' shared runs (see catalog/wormhole/simulation.h).
#include "catalog/wormhole/simulation.h"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "wormhole/wormhole_check.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::claims::wormhole_parts {

using nlohmann::json;

std::string adaptivity_word(rt::Adaptivity a) { return a == rt::Adaptivity::kAdaptive ? "adaptive" : "deterministic"; }

std::unique_ptr<rt::WormholeRouting> shortest_path(const rt::Network& net, rt::Adaptivity a) {
  auto r = rt::make_routing(net, rt::RoutingSpec{rt::RoutingFamily::kShortestPath, a, 0});
  TC_CHECK(r.ok(), "shortest-path routing cannot fail to build");
  return std::move(r).value();
}

rt::Network itm_network(const itm::Itm& g) {
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

std::vector<Traffic> traffic_of_seed(const rt::Network& net, uint64_t seed) {
  std::vector<Traffic> out;
  for (rt::Pattern p : rt::kPatterns)
    out.push_back({rt::to_string(p), fmt::format("{}, seed {}", rt::to_string(p), seed), seed,
                   rt::adversarial_traffic(net, p, kLength, seed)});
  out.push_back({"uniform", fmt::format("uniform load {}, seed {}", kUniformLoad, seed), seed,
                 rt::uniform_traffic(net.num_nodes(), kUniformLoad, kLength, kUniformCycles, seed)});
  return out;
}

std::vector<Traffic> traffic_set(const rt::Network& net, int seeds) {
  std::vector<Traffic> out;
  for (int s = 1; s <= seeds; ++s)
    for (Traffic& t : traffic_of_seed(net, static_cast<uint64_t>(s))) out.push_back(std::move(t));
  return out;
}

}  // namespace topocheck::claims::wormhole_parts
