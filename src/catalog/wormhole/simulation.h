// The simulation set-up and the runs shared by the wormhole claims (catalog/wormhole/*_claims.cc):
// one run of the flit-level simulator (wormhole/wormhole.h) under shortest-path routing on an ITM
// or a control graph, judged by "no deadlock, every worm delivered", a deadlock believed only
// after the naive witness checker (wormhole/wormhole_check.h) accepts it; the traffic of a seed;
// the text forms of worms and deadlocks in corpus cases. Family-local: only catalog/wormhole/
// includes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_routing.h"

namespace topocheck::claims::wormhole_parts {

namespace rt = topocheck::routing;

// The set-up every reading states (the same in every budget; the budgets are in
// catalog/wormhole/scope.h).
inline constexpr uint32_t kLength = 4;        // flits per worm
inline constexpr uint32_t kBuffer = 1;        // flits per channel buffer
inline constexpr double kUniformLoad = 1.0;   // flits per node per cycle (saturation)
inline constexpr uint32_t kUniformCycles = 200;
inline constexpr uint32_t kMaxCycles = 200000;

inline constexpr itm::Rule kRules[] = {itm::Rule::kAnyEdge, itm::Rule::kExterior};
inline constexpr rt::Adaptivity kAdaptivities[] = {rt::Adaptivity::kAdaptive, rt::Adaptivity::kDeterministic};

std::string adaptivity_word(rt::Adaptivity a);  // "adaptive", "deterministic"

// Shortest-path routing (adaptive or deterministic) on `net`; cannot fail.
std::unique_ptr<rt::WormholeRouting> shortest_path(const rt::Network& net, rt::Adaptivity a);
// The network of an ITM, titled "ITM(<rule>, <n>)".
rt::Network itm_network(const itm::Itm& g);

// Worms as [src, dst, length, created] arrays, and back (errors name input.messages[i]).
nlohmann::json messages_json(const std::vector<rt::WormMessage>& msgs);
Result<std::vector<rt::WormMessage>> messages_from(const nlohmann::json& j, uint32_t num_nodes);
// The detector's deadlock with its channels as text ("3->5"), for show and replay.
nlohmann::json witness_json(const rt::Network& net, const rt::WormDeadlock& w);

// kBuffer-flit buffers, random selection among free channels, kMaxCycles, the given seed.
rt::WormConfig run_config(uint64_t seed);

// One run's verdict on "no deadlock, everything delivered"; the deadlock's witness is judged by
// the naive witness checker before it is believed.
struct RunVerdict {
  Violation violation;
  nlohmann::json witness;
};
RunVerdict judge_run(const rt::Network& net, const rt::WormholeRouting& routing, const std::vector<rt::WormMessage>& msgs,
                     const rt::WormConfig& cfg, const std::string& label);

// The traffic of one seed: every adversarial pattern, then uniform traffic at saturation.
struct Traffic {
  std::string kind;   // "distance-two", "uniform"
  std::string label;  // "distance-two, seed 2"
  uint64_t seed = 1;
  std::vector<rt::WormMessage> msgs;
};
std::vector<Traffic> traffic_of_seed(const rt::Network& net, uint64_t seed);
// The traffic of one ITM run set: seeds 1..seeds, each as traffic_of_seed.
std::vector<Traffic> traffic_set(const rt::Network& net, int seeds);

}  // namespace topocheck::claims::wormhole_parts
