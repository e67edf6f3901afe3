// `topocheck simulate routing`: one run of the message-routing simulator (papers/001) or the
// whole 44-case study, with table / JSON / SVG output.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace topocheck::cli {

struct RoutingArgs {
  bool study = false;
  int dim = 8;
  int reps = 10;
  uint64_t seed = 1;
  uint64_t workload_seed = 1;
  std::string workload = "gauss";
  std::string routing = "static", priority = "K", links = "bi", scheme_reading = "list", arbitration = "rounds";
  double nonzeros_per_row = 0;  // gauss only; 0: the generator's default
  bool json = false, check = false;
  int jobs = 1;
  std::string svg_dir, trace_file, write_workload;
};

// Adds the `routing` subcommand to `simulate`; the returned App tells whether it was chosen.
CLI::App* add_routing_command(CLI::App* simulate, RoutingArgs& args);
int cmd_simulate_routing(const RoutingArgs& args);

}  // namespace topocheck::cli
