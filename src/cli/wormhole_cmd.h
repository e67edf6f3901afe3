// `topocheck simulate wormhole`: one flit-level wormhole run (routing/wormhole.h) on an ITM or a
// control graph, or the throughput study (routing/wormhole_study.h) with table / JSON / SVG.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace topocheck::cli {

struct WormholeArgs {
  bool study = false, quick = false;
  std::string rule = "any-edge";
  std::string root;                // study: center (default) | random | a node; single run: a node
  std::string graph = "itm";       // itm | c4 | k23 | grid3x3 | nonchordal
  std::string steps;               // itm: AddNode steps; empty: a random ITM of --nodes
  int nodes = 16;
  uint64_t itm_seed = 1;
  std::string routing = "sp-adaptive";
  std::string traffic = "uniform";  // uniform | distance-two | farthest | hotspot | all-to-all
  double load = 0.2;
  uint32_t cycles = 1000, length = 8, buffer = 2, max_cycles = 100000;
  std::string selection = "random";
  uint64_t seed = 1;
  bool json = false, check = false;
  int jobs = 1;
  std::string svg_dir, trace_file;
};

CLI::App* add_wormhole_command(CLI::App* simulate, WormholeArgs& args);
int cmd_simulate_wormhole(const WormholeArgs& args);

}  // namespace topocheck::cli
