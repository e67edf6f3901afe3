#include "cli/wormhole_cmd.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "itm/itm.h"
#include "network/network.h"
#include "wormhole/wormhole.h"
#include "wormhole/wormhole_check.h"
#include "wormhole/wormhole_graphs.h"
#include "wormhole/wormhole_routing.h"
#include "wormhole/wormhole_study.h"
#include "wormhole/wormhole_traffic.h"

namespace topocheck::cli {
namespace {

// The single run's limits (stated in --help): a worm's flits and a buffer's are simulated one by
// one, and a run is a loop over cycles.
constexpr uint32_t kMaxWormLength = 1024, kMaxWormBuffer = 1024, kMaxWormCycles = 10'000'000;

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

namespace fs = std::filesystem;
using namespace topocheck::routing;

// A node number from text, or nullopt.
std::optional<NodeId> parse_node(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return static_cast<NodeId>(std::stoul(s));
}

int run_study(const WormholeArgs& a) {
  if (!a.svg_dir.empty() && !fs::is_directory(a.svg_dir))
    return usage_error(fmt::format("--svg: '{}' is not a directory", a.svg_dir));
  WormStudyConfig c = a.quick ? WormStudyConfig::quick() : WormStudyConfig{};
  auto rule = itm::parse_rule(a.rule);
  if (!rule) return usage_error(fmt::format("--rule: '{}' is not any-edge or exterior", a.rule));
  c.rule = *rule;
  if (a.root.empty() || a.root == "center") {
    c.root_policy = RootPolicy::kCenter;
  } else if (a.root == "random") {
    c.root_policy = RootPolicy::kRandom;
  } else if (auto node = parse_node(a.root)) {
    c.updown_root = *node;
  } else {
    return usage_error(fmt::format("--root: '{}' is not center, random or a node number", a.root));
  }
  c.jobs = a.jobs;
  TerminalProgress progress;
  auto s = run_wormhole_study(c, [&](const std::string& line) { progress.update("simulate wormhole --study", line); });
  progress.clear();
  if (!s) return report_error(s.error());
  // Every plot is rendered before any is written.
  std::vector<std::pair<std::string, std::string>> files;
  if (!a.svg_dir.empty())
    for (int size : c.sizes)
      for (WormMetric m : {WormMetric::kThroughput, WormMetric::kLatency})
        files.emplace_back((fs::path(a.svg_dir) / svg_file_name(size, m)).string(), wormhole_study_svg(*s, size, m));
  for (const auto& [file, content] : files)
    if (!write_output("--svg", file, content)) return kExitUsage;
  if (a.json) {
    std::cout << to_json(*s).dump(2) << "\n";
  } else {
    std::cout << wormhole_study_table(*s);
    std::cout << fmt::format("{} runs, {} flit crossings in {:.1f} s ({} jobs)\n", s->runs, s->flit_crossings, s->seconds, c.jobs);
    for (const auto& [file, content] : files) std::cout << "wrote " << file << "\n";
  }
  return kExitOk;
}

int run_single(const WormholeArgs& a) {
  // The graph.
  itm::Graph g;
  std::string name;
  if (a.graph == "itm") {
    auto rule = itm::parse_rule(a.rule);
    if (!rule) return usage_error(fmt::format("--rule: '{}' is not any-edge or exterior", a.rule));
    itm::Steps steps;
    if (!a.steps.empty()) {
      auto parsed = itm::parse_steps(a.steps);
      if (!parsed) return usage_error("--steps: " + parsed.error().message);
      steps = *parsed;
    } else {
      if (a.nodes < 3 || a.nodes > static_cast<int>(kMaxNodes))
        return usage_error(fmt::format("--nodes: {} is outside 3..{}", a.nodes, kMaxNodes));
      steps = random_itm(a.nodes, *rule, a.itm_seed);
    }
    auto built = itm::Itm::build(steps, *rule);
    if (!built) return usage_error("--steps: " + built.error().message);
    g = built->graph();
    name = a.steps.empty() ? fmt::format("ITM({}, {}, seed {})", a.rule, a.nodes, a.itm_seed) : fmt::format("ITM({}, {})", a.rule, g.n());
  } else {
    auto control = control_graph(a.graph);
    if (!control) return usage_error("--graph: " + control.error().message + " (or itm)");
    g = *control;
    name = control_title(a.graph);
  }
  auto net = network_of(g, name);
  if (!net) return report_error(net.error());
  // The routing.
  auto spec = parse_routing_spec(a.routing);
  if (!spec) return usage_error(fmt::format("--routing: '{}' is not sp-adaptive, sp-deterministic, updown-adaptive or "
                                            "updown-deterministic", a.routing));
  if (!a.root.empty()) {
    auto node = parse_node(a.root);
    if (!node || *node >= net->num_nodes())
      return usage_error(fmt::format("--root: '{}' is not a node of {} (0..{})", a.root, name, net->num_nodes() - 1));
    spec->root = *node;
  }
  auto routing = make_routing(*net, *spec);
  if (!routing) return usage_error("--routing: " + routing.error().message);
  // The traffic.
  if (a.length < 1) return usage_error("--length: a worm has at least one flit");
  std::vector<WormMessage> msgs;
  if (a.traffic == "uniform") {
    if (!(a.load > 0 && a.load <= 1)) return usage_error(fmt::format("--load: {} is outside (0, 1]", a.load));
    if (a.cycles < 1) return usage_error("--cycles: at least 1");
    msgs = uniform_traffic(net->num_nodes(), a.load, a.length, a.cycles, a.seed);
  } else if (auto p = parse_pattern(a.traffic)) {
    msgs = adversarial_traffic(*net, *p, a.length, a.seed);
  } else {
    return usage_error(fmt::format("--traffic: '{}' is not uniform, distance-two, farthest, hotspot or all-to-all", a.traffic));
  }
  auto selection = parse_selection(a.selection);
  if (!selection) return usage_error(fmt::format("--selection: '{}' is not random or first", a.selection));
  if (a.buffer < 1) return usage_error("--buffer: at least 1 flit");
  WormConfig c;
  c.buffer = a.buffer;
  c.selection = *selection;
  c.seed = a.seed;
  c.max_cycles = a.max_cycles;
  c.record_trace = a.check || !a.trace_file.empty();
  auto r = simulate_wormhole(*net, **routing, msgs, c);
  if (!r) return report_error(r.error());
  std::optional<std::string> violation;
  if (a.check) violation = check_wormhole_trace_text(*net, **routing, msgs, c, *r);
  std::optional<std::string> witness_flaw;
  if (r->deadlock) witness_flaw = check_worm_deadlock(*net, **routing, msgs, *r->deadlock);
  if (!a.trace_file.empty()) {
    nlohmann::json t = {{"crossings", nlohmann::json::array()}, {"ejections", nlohmann::json::array()}};
    for (const FlitCrossing& x : r->trace->crossings) t["crossings"].push_back({x.cycle, x.worm, x.flit, x.channel});
    for (const FlitEjection& x : r->trace->ejections) t["ejections"].push_back({x.cycle, x.worm, x.flit});
    nlohmann::json msgs_json = nlohmann::json::array();
    for (const WormMessage& m : msgs) msgs_json.push_back({m.src, m.dst, m.length, m.created});
    t["messages"] = msgs_json;
    if (!write_output("--trace", a.trace_file, t.dump() + "\n")) return kExitUsage;
  }
  if (a.json) {
    nlohmann::json j = {{"graph", name}, {"edges", nlohmann::json::array()}, {"routing", (*routing)->name()},
                        {"traffic", a.traffic}, {"messages", msgs.size()}, {"config", to_json(c)}, {"result", to_json(*r)}};
    for (const auto& [u, v] : g.edges()) j["edges"].push_back({u, v});
    if (a.check) j["trace_check"] = violation ? *violation : "valid";
    if (r->deadlock) j["deadlock_witness_check"] = witness_flaw ? *witness_flaw : "a genuine deadlock";
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} ({} nodes, {} edges): {}, {} traffic ({} worms of {} flits), buffers {} flits, selection "
                             "{}, seed {}\n",
                             name, g.n(), g.num_edges(), (*routing)->name(), a.traffic, msgs.size(), a.length, c.buffer,
                             to_string(c.selection), c.seed);
    std::cout << fmt::format("{} cycles; {} of {} worms delivered; {} flit crossings; accepted {:.4f} flits/node/cycle "
                             "(offered {:.4f}); mean latency {:.2f} cycles\n",
                             r->cycles, r->delivered_worms, msgs.size(), r->flit_crossings, r->accepted, r->offered,
                             r->mean_latency);
    if (r->deadlock) {
      const WormDeadlock& d = *r->deadlock;
      std::cout << fmt::format("DEADLOCK at cycle {}: {} worms stuck; waiting cycle: {}\n", d.cycle, d.stuck.size(),
                               waiting_cycle_text(*net, msgs, d));
      std::cout << "witness check: " << (witness_flaw ? *witness_flaw : std::string("a genuine deadlock")) << "\n";
    }
    if (a.check) std::cout << "trace check: " << (violation ? *violation : std::string("valid")) << "\n";
  }
  if (witness_flaw) return kExitInternal;
  if (violation || r->deadlock) return kExitDiffers;
  // A run cut short by --max-cycles says so: its statistics cover only the delivered worms.
  if (!r->completed) {
    std::fprintf(stderr, "topocheck: incomplete: %llu of %zu worms undelivered after %u cycles (--max-cycles %u)\n",
                 static_cast<unsigned long long>(msgs.size() - r->delivered_worms), msgs.size(), r->cycles,
                 c.max_cycles);
    return kExitDiffers;
  }
  return kExitOk;
}

CLI::App* declare_wormhole(CLI::App& simulate, WormholeArgs& a) {
  auto* cmd = simulate.add_subcommand(
      "wormhole", "flit-level wormhole switching on ITMs and control graphs (paper 002): one run, or --study");
  cmd->add_flag("--study", a.study, "the throughput study: ITM shortest-path against up*/down* routing, load swept to saturation");
  cmd->add_flag("--quick", a.quick, "--study: the cheaper configuration (shorter windows, coarser load steps)");
  cmd->add_option("--rule", a.rule, "ITM reading: any-edge (default) or exterior");
  cmd->add_option("--root", a.root, "up*/down* root: --study center (default), random or a node; single run: a node (default 0)");
  cmd->add_option("--graph", a.graph, "single run: itm (default), c4, k23, grid3x3, nonchordal");
  auto* steps = cmd->add_option("--steps", a.steps, "single run, itm: AddNode steps, e.g. \"3:(0,1) 4:(1,3)\" (default: a random ITM)");
  add_int_option(*cmd, "--nodes", a.nodes, 3, static_cast<int>(kMaxNodes), "single run, random itm: nodes (default 16)")
      ->excludes(steps);
  add_seed_option(*cmd, "--itm-seed", a.itm_seed, "single run, random itm: its seed (default 1)")->excludes(steps);
  cmd->add_option("--routing", a.routing, "sp-adaptive (default), sp-deterministic, updown-adaptive, updown-deterministic");
  cmd->add_option("--traffic", a.traffic, "uniform (default), distance-two, farthest, hotspot, all-to-all");
  add_float_option(*cmd, "--load", a.load, 0, 1, "uniform: offered flits per node per cycle (default 0.2)", true);
  add_int_option(*cmd, "--cycles", a.cycles, 1, kMaxWormCycles, "uniform: cycles during which worms are created (default 1000)");
  add_int_option(*cmd, "--length", a.length, 1, kMaxWormLength, "flits per worm (default 8)");
  add_int_option(*cmd, "--buffer", a.buffer, 1, kMaxWormBuffer, "flits per channel buffer (default 2)");
  cmd->add_option("--selection", a.selection, "among free allowed channels: random (default) or first");
  add_seed_option(*cmd, "--seed", a.seed, "traffic and simulator seed (default 1)");
  add_int_option(*cmd, "--max-cycles", a.max_cycles, 1, kMaxWormCycles,
                 "single run: stop after this many cycles (default 100000); worms still in flight then: exit 1");
  add_int_option(*cmd, "--jobs", a.jobs, 1, kMaxJobs, "--study: threads (default 1)");
  add_file_option(*cmd, "--svg", a.svg_dir, "--study: write throughput_N.svg and latency_N.svg per size into this directory");
  add_file_option(*cmd, "--trace", a.trace_file, "single run: write every flit crossing and ejection as JSON to this file");
  cmd->add_flag("--check", a.check, "single run: judge the trace with the naive checker (exit 1 on a violation)");
  cmd->add_flag("--json", a.json, "JSON output");
  return cmd;
}

int cmd_simulate_wormhole(const WormholeArgs& a) {
  if (a.jobs < 1 || a.jobs > 256) return usage_error(fmt::format("--jobs: {} is outside 1..256", a.jobs));
  if (!a.steps.empty() && a.graph != "itm")
    return usage_error(fmt::format("--steps: builds an ITM; it cannot be combined with --graph {}", a.graph));
  if (a.study) {
    if (a.graph != "itm" || !a.steps.empty() || !a.trace_file.empty() || a.check || a.routing != "sp-adaptive" ||
        a.traffic != "uniform")
      return usage_error("--study builds its own ITMs, routings and traffic: drop --graph/--steps/--routing/--traffic/--trace/--check");
    return run_study(a);
  }
  if (!a.svg_dir.empty() || a.quick) return usage_error(!a.svg_dir.empty() ? "--svg: only with --study" : "--quick: only with --study");
  return run_single(a);
}

}  // namespace

Command add_wormhole_command(CLI::App& simulate) {
  auto args = std::make_shared<WormholeArgs>();
  return {declare_wormhole(simulate, *args), [args] { return cmd_simulate_wormhole(*args); }};
}

}  // namespace topocheck::cli
