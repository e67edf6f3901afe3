#include "catalog/routing/inputs.h"

#include <fmt/format.h>

namespace topocheck::claims {

namespace rt = topocheck::routing;


nlohmann::json input_json(const SimInput& in) {
  return {{"workload", in.workload}, {"workload_seed", in.workload_seed}, {"routing", rt::to_string(in.routing)},
          {"links", rt::to_string(in.links)}, {"scheme", std::string(1, in.scheme)},
          {"scheme_reading", rt::to_string(in.reading)}, {"seed", in.seed}};
}

Result<SimInput> input_from(const nlohmann::json& params, const nlohmann::json& input) {
  SimInput in;
  try {
    in.dim = params.at("dim").get<int>();
    in.workload = input.at("workload").get<std::string>();
    in.workload_seed = input.at("workload_seed").get<uint64_t>();
    auto r = rt::parse_routing(input.at("routing").get<std::string>());
    auto k = rt::parse_link_kind(input.at("links").get<std::string>());
    auto s = rt::parse_scheme(input.at("scheme").get<std::string>());
    auto reading = rt::parse_scheme_reading(input.at("scheme_reading").get<std::string>());
    if (!r || !k || !s || !reading) return invalid_argument("input: routing, links, scheme or scheme_reading unknown");
    in.routing = *r;
    in.links = *k;
    in.scheme = *s;
    in.reading = *reading;
    in.seed = input.at("seed").get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    return invalid_argument(fmt::format("case: {}", e.what()));
  }
  if (in.dim < 1 || in.dim > 12) return invalid_argument("params.dim: outside 1..12");
  return in;
}

rc::Gen<SimInput> sim_input_gen(int max_dim, std::optional<rt::Routing> only) {
  const std::vector<std::string> names = rt::builtin_workload_names();
  std::vector<rt::Routing> routings = {rt::Routing::kStatic, rt::Routing::kDynamic};
  if (only) routings = {*only};
  return rc::gen::build<SimInput>(
      rc::gen::set(&SimInput::dim, rc::gen::resize(100, rc::gen::inRange(1, max_dim + 1))),
      rc::gen::set(&SimInput::workload, rc::gen::elementOf(names)),
      rc::gen::set(&SimInput::workload_seed, rc::gen::inRange<uint64_t>(1, 1000)),
      rc::gen::set(&SimInput::routing, rc::gen::elementOf(routings)),
      rc::gen::set(&SimInput::links, rc::gen::element(rt::LinkKind::kBidirectional, rt::LinkKind::kUnidirectional)),
      rc::gen::set(&SimInput::scheme, rc::gen::elementOf(std::string(rt::kSchemes))),
      rc::gen::set(&SimInput::reading, rc::gen::element(rt::SchemeReading::kList, rt::SchemeReading::kText)),
      rc::gen::set(&SimInput::seed, rc::gen::inRange<uint64_t>(1, 1000000)));
}


Result<RoutingRun> run_input(const SimInput& in, routing::Defect defect) {
  auto net = rt::Network::hypercube(in.dim);
  if (!net) return net.error();
  auto w = rt::builtin_workload(in.workload, net->num_nodes(), in.workload_seed);
  if (!w) return w.error();
  RoutingRun run{std::move(net).value(), std::move(w).value(), {}, {}};
  run.config.routing = in.routing;
  run.config.links = in.links;
  run.config.scheme = in.scheme;
  run.config.reading = in.reading;
  run.config.seed = in.seed;
  run.config.record_trace = true;
  run.config.max_cycles = 200000;
  run.config.defect = defect;
  auto r = rt::simulate(run.net, run.workload, run.config);
  if (!r) return r.error();
  run.result = std::move(r).value();
  run.config.defect = rt::Defect::kNone;  // the judge is told the configuration, never the defect
  return run;
}

}  // namespace topocheck::claims
