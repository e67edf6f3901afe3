#include "cli/routing_cmd.h"

#include <unistd.h>

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
#include "network/network.h"
#include "routing/simulator.h"
#include "routing/study.h"
#include "routing/trace_check.h"
#include "routing/workload.h"

namespace topocheck::cli {
namespace {

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
  // Set by declare_routing: whether --reps / --jobs were given (they only mean something with --study).
  const CLI::Option* reps_option = nullptr;
  const CLI::Option* jobs_option = nullptr;
};

namespace fs = std::filesystem;
using namespace topocheck::routing;

// A built-in workload name, or a workload file (a path that exists or ends in .json).
Result<Workload> resolve_workload(const std::string& name, NodeId nodes, uint64_t seed, double nonzeros_per_row) {
  if (name == "gauss" && nonzeros_per_row > 0) {
    GaussParams p;
    p.nonzeros_per_row = nonzeros_per_row;
    p.seed = seed;
    return gauss_workload(nodes, p);
  }
  for (const std::string& b : builtin_workload_names())
    if (name == b) return builtin_workload(name, nodes, seed);
  if (fs::exists(name) || name.ends_with(".json")) {
    auto w = load_workload(name);
    if (!w) return w.error();
    if (w->nodes != nodes)
      return invalid_argument(fmt::format("--workload: {} is placed on {} nodes, --dim gives {}", name, w->nodes, nodes));
    return w;
  }
  std::string names;
  for (const std::string& b : builtin_workload_names()) names += (names.empty() ? "" : ", ") + b;
  return invalid_argument(fmt::format("--workload: '{}' is neither a built-in workload ({}, all) nor a file", name, names));
}

int run_single(const Network& net, const Workload& w, const RoutingArgs& a) {
  auto routing = parse_routing(a.routing);
  if (!routing) return usage_error(fmt::format("--routing: '{}' is not static or dynamic", a.routing));
  auto links = parse_link_kind(a.links);
  if (!links) return usage_error(fmt::format("--links: '{}' is not bi or uni", a.links));
  auto scheme = parse_scheme(a.priority);
  if (!scheme) return usage_error(fmt::format("--priority: '{}' is not a scheme letter A..K", a.priority));
  auto reading = parse_scheme_reading(a.scheme_reading);
  if (!reading) return usage_error(fmt::format("--scheme-reading: '{}' is not list or text", a.scheme_reading));
  auto arbitration = parse_arbitration(a.arbitration);
  if (!arbitration) return usage_error(fmt::format("--arbitration: '{}' is not rounds or node_by_node", a.arbitration));
  SimConfig c;
  c.arbitration = *arbitration;
  c.routing = *routing;
  c.links = *links;
  c.scheme = *scheme;
  c.reading = *reading;
  c.seed = a.seed;
  c.record_trace = a.check || !a.trace_file.empty();
  auto r = simulate(net, w, c);
  if (!r) return report_error(r.error());
  std::optional<std::string> violation;
  if (a.check) violation = check_trace(net, w, c, *r);
  if (!a.trace_file.empty() && !write_output("--trace", a.trace_file, trace_to_json(*r->trace).dump() + "\n"))
    return kExitUsage;
  if (a.json) {
    nlohmann::json j = {{"network", net.name()}, {"workload", w.name}, {"workload_generator", w.generator},
                        {"config", to_json(c)}, {"result", to_json(*r)}};
    if (a.check) j["trace_check"] = violation ? *violation : "valid";
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} on {}: {} routing, {} links, scheme {} ({}), seed {}\n", w.name, net.name(),
                             to_string(c.routing), to_string(c.links), c.scheme,
                             describe_scheme(c.scheme, c.reading == SchemeReading::kText), c.seed);
    std::cout << fmt::format("running time {} cycles; {} messages, {} hops, {} message-cycles waiting, largest buffer {}, "
                             "mean latency {:.2f} cycles\n",
                             r->running_time, r->messages, r->hops, r->waits, r->max_buffer, r->mean_latency);
    if (a.check) std::cout << "trace check: " << (violation ? *violation : std::string("valid")) << "\n";
  }
  return violation ? kExitDiffers : kExitOk;
}

int run_studies(const Network& net, const std::vector<Workload>& workloads, const RoutingArgs& a) {
  auto reading = parse_scheme_reading(a.scheme_reading);
  if (!reading) return usage_error(fmt::format("--scheme-reading: '{}' is not list or text", a.scheme_reading));
  if (!a.svg_dir.empty() && !fs::is_directory(a.svg_dir))
    return usage_error(fmt::format("--svg: '{}' is not a directory", a.svg_dir));
  auto arbitration = parse_arbitration(a.arbitration);
  if (!arbitration) return usage_error(fmt::format("--arbitration: '{}' is not rounds or node_by_node", a.arbitration));
  StudyConfig sc;
  sc.arbitration = *arbitration;
  sc.reps = a.reps;
  sc.seed = a.seed;
  sc.reading = *reading;
  sc.jobs = a.jobs;
  sc.check_traces = a.check;
  TerminalProgress progress;
  std::vector<StudyResult> studies;
  for (const Workload& w : workloads) {
    auto s = run_study(net, w, sc, [&](int done, int total) {
      progress.update("simulate routing --study", fmt::format("{}: {}/{} runs", w.name, done, total));
    });
    if (!s) return report_error(s.error());
    studies.push_back(std::move(s).value());
  }
  progress.clear();
  // Every chart is rendered before any is written.
  std::vector<std::pair<std::string, std::string>> files;
  if (!a.svg_dir.empty())
    for (const StudyResult& s : studies)
      for (int fig = 3; fig <= 5; ++fig) {
        const std::string suffix = studies.size() > 1 ? "-" + s.workload : "";
        files.emplace_back((fs::path(a.svg_dir) / fmt::format("figure{}{}.svg", fig, suffix)).string(), figure_svg(s, fig));
      }
  for (const auto& [file, content] : files)
    if (!write_output("--svg", file, content)) return kExitUsage;
  if (a.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const StudyResult& s : studies) j.push_back(to_json(s));
    std::cout << (studies.size() == 1 ? j[0] : j).dump(2) << "\n";
  } else {
    for (const StudyResult& s : studies) {
      std::cout << study_table(s);
      std::cout << fmt::format("{} simulated hops in {:.1f} s ({:.2f} M hops/s, {} jobs)\n", s.hops, s.seconds,
                               s.hops / std::max(s.seconds, 1e-9) / 1e6, sc.jobs);
      std::cout << "Findings (Section 4):\n";
      for (const Finding& f : evaluate_findings(s))
        std::cout << fmt::format("  {:<15} {:<15} {}\n", f.name, f.reproduced ? "reproduced" : "not reproduced", f.detail);
      std::cout << "\n";
    }
    for (const auto& [file, content] : files) std::cout << "wrote " << file << "\n";
  }
  return kExitOk;
}

CLI::App* declare_routing(CLI::App& simulate, RoutingArgs& a) {
  auto* cmd = simulate.add_subcommand("routing", "store-and-forward message routing in Q_n (paper 001): one run, or --study");
  cmd->add_flag("--study", a.study, "run all 44 cases (routing x links x schemes A-K), --reps times each");
  add_int_option(*cmd, "--dim", a.dim, 1, 12, "cube dimension N (default 8: 256 nodes)");
  cmd->add_option("--workload", a.workload, "gauss (default), layered, reduce_broadcast, all (--study), or a workload file");
  add_seed_option(*cmd, "--workload-seed", a.workload_seed, "seed of the generated workload (default 1)");
  add_seed_option(*cmd, "--seed", a.seed, "simulator seed (default 1); --study: repetition r uses seed + r");
  a.reps_option = add_int_option(*cmd, "--reps", a.reps, 2, 1000, "--study: repetitions per case (default 10)");
  cmd->add_option("--routing", a.routing, "static (e-cube, default) or dynamic");
  cmd->add_option("--priority", a.priority, "priority scheme A..K (default K: none)");
  cmd->add_option("--links", a.links, "bi (one bidirectional link per edge, default) or uni (two unidirectional)");
  cmd->add_option("--scheme-reading", a.scheme_reading, "list (Figure 2, default) or text (Section 4: A and C swapped)");
  cmd->add_option("--arbitration", a.arbitration, "rounds (default: nodes take turns message by message) or node_by_node");
  add_float_option(*cmd, "--nonzeros-per-row", a.nonzeros_per_row, 0, 4095,
                   "gauss: expected off-diagonal nonzeros per row before fill-in (default 2; 0: the default)");
  a.jobs_option = add_int_option(*cmd, "--jobs", a.jobs, 1, kMaxJobs, "--study: threads (default 1)");
  add_file_option(*cmd, "--svg", a.svg_dir, "--study: write figure3.svg, figure4.svg, figure5.svg into this directory");
  add_file_option(*cmd, "--trace", a.trace_file, "single run: write every firing and hop as JSON to this file");
  add_file_option(*cmd, "--write-workload", a.write_workload, "write the workload as JSON to this file");
  cmd->add_flag("--check", a.check, "judge every run's trace with the naive checker (exit 1 on a violation)");
  cmd->add_flag("--json", a.json, "JSON output");
  return cmd;
}

int cmd_simulate_routing(const RoutingArgs& a) {
  if (a.study && (a.routing != "static" || a.priority != "K" || a.links != "bi" || !a.trace_file.empty()))
    return usage_error("--study runs every routing, link kind and scheme: drop --routing/--priority/--links/--trace");
  if (!a.study && (!a.svg_dir.empty() || a.workload == "all"))
    return usage_error(!a.svg_dir.empty() ? "--svg: only with --study" : "--workload: 'all' only with --study");
  if (!a.study && a.reps_option && a.reps_option->count() > 0)
    return usage_error("--reps: only with --study (a single run is one repetition)");
  if (!a.study && a.jobs_option && a.jobs_option->count() > 0)
    return usage_error("--jobs: only with --study (a single run is one thread)");
  if (a.jobs < 1 || a.jobs > 256) return usage_error(fmt::format("--jobs: {} is outside 1..256", a.jobs));
  auto net = Network::hypercube(a.dim);
  if (!net) return usage_error(net.error().message);
  std::vector<Workload> workloads;
  if (a.workload == "all") {
    for (const std::string& name : builtin_workload_names()) {
      auto w = builtin_workload(name, net->num_nodes(), a.workload_seed);
      if (!w) return usage_error(fmt::format("--workload: {}", w.error().message));
      workloads.push_back(std::move(w).value());
    }
  } else {
    if (a.nonzeros_per_row < 0) return usage_error(fmt::format("--nonzeros-per-row: {} is negative", a.nonzeros_per_row));
    if (a.nonzeros_per_row > 0 && a.workload != "gauss") return usage_error("--nonzeros-per-row: only with --workload gauss");
    auto w = resolve_workload(a.workload, net->num_nodes(), a.workload_seed, a.nonzeros_per_row);
    if (!w) return report_error(w.error());
    workloads.push_back(std::move(w).value());
  }
  if (!a.write_workload.empty()) {
    if (workloads.size() != 1) return usage_error("--write-workload: name one workload, not all");
    if (!write_output("--write-workload", a.write_workload, to_json(workloads[0]).dump(1) + "\n")) return kExitUsage;
  }
  if (a.study) return run_studies(*net, workloads, a);
  return run_single(*net, workloads[0], a);
}

}  // namespace

Command add_routing_command(CLI::App& simulate) {
  auto args = std::make_shared<RoutingArgs>();
  return {declare_routing(simulate, *args), [args] { return cmd_simulate_routing(*args); }};
}

}  // namespace topocheck::cli
