// Random inputs of the routing simulator (paper 001), shared by the `random` verify method of
// catalog/routing/claims.cc and by props/routing_props.cc: a cube, a built-in workload with a
// seed, a routing, a link kind, a scheme, a scheme reading and a simulator seed. Their corpus
// form: params {"dim"}, input {"workload", "workload_seed", "routing", "links", "scheme",
// "scheme_reading", "seed"}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <rapidcheck.h>

#include "core/status.h"
#include "network/network.h"
#include "routing/simulator.h"
#include "routing/workload.h"

namespace topocheck::claims {

struct SimInput {
  int dim = 1;
  std::string workload;
  uint64_t workload_seed = 1;
  routing::Routing routing = routing::Routing::kStatic;
  routing::LinkKind links = routing::LinkKind::kBidirectional;
  char scheme = 'K';
  routing::SchemeReading reading = routing::SchemeReading::kList;
  uint64_t seed = 1;
};

// Q_1..Q_max_dim, the dimension uniform at every RapidCheck size (small sizes would otherwise
// only ever give Q_1..Q_3); every routing, or only `only`. Shrinks towards small cubes and seeds.
rc::Gen<SimInput> sim_input_gen(int max_dim, std::optional<routing::Routing> only);
nlohmann::json input_json(const SimInput& in);
// Errors name the field.
Result<SimInput> input_from(const nlohmann::json& params, const nlohmann::json& input);

// One run with its trace. `defect` selects a deliberately broken simulator (negative controls);
// the returned config never carries it, since the judge must not be told.
struct RoutingRun {
  routing::Network net;
  routing::Workload workload;
  routing::SimConfig config;
  routing::SimResult result;
};
Result<RoutingRun> run_input(const SimInput& in, routing::Defect defect = routing::Defect::kNone);

}  // namespace topocheck::claims
