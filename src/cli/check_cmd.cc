#include "cli/check_cmd.h"

#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "check/itm.h"
#include "check/paths.h"
#include "check/routing.h"
#include "check/schedule.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "corpus/corpus.h"
#include "report/dot.h"

namespace topocheck::cli {
namespace {

struct CheckArgs {
  std::string file;
  std::string json_file;
  std::string format = "text";
};

// The paths as a corpus-shaped case for paths_dot (the same drawing `show --format dot` gives).
std::string paths_as_dot(const check::PathsInput& in) {
  corpus::Case c;
  c.claim = "check.paths";
  c.reading = "file";
  c.kind = corpus::CaseKind::kCounterexample;
  nlohmann::json paths = nlohmann::json::array();
  for (const Path& p : in.paths) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const Node& u : p.nodes) nodes.push_back(u.to_string());
    paths.push_back(nodes);
  }
  c.witness = {{"paths", paths}};
  return report::paths_dot(c, report::collect_paths(c.witness));
}

// A judged file: its report, the heading of its text form, and (paths only) its DOT drawing.
struct Judged {
  check::CheckReport report;
  std::string heading;
  std::string topology;
  std::function<std::string()> dot;  // empty: no drawing of this kind
};
using Judge = std::function<Result<Judged>(const JsonText&, const std::string& file)>;

int cmd_check(const CheckArgs& a, const Judge& judge) {
  if (a.format != "text" && a.format != "json" && a.format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", a.format));
  if (auto e = check_output_path("--json", a.json_file)) return report_error(*e);
  auto read = read_json_text(a.file);
  if (!read) return report_error(read.error());
  auto judged = judge(*read, a.file);
  if (!judged) return report_error(judged.error());
  const check::CheckReport& r = judged->report;
  if (a.format == "dot" && !judged->dot)
    return usage_error(fmt::format("--format dot: a {} file has no drawing (text or json)", r.kind));
  nlohmann::json j = r.to_json();
  j["file"] = a.file;
  if (!judged->topology.empty()) j["topology"] = judged->topology;
  std::string out;
  if (a.format == "json") {
    out = j.dump(1) + "\n";
  } else if (a.format == "dot") {
    out = judged->dot();
  } else {
    out = fmt::format("{}: {}\n", a.file, judged->heading);
    for (const auto& l : r.lines) out += fmt::format("  {:<26} {:<15} {}\n", l.check, l.verdict, l.words);
    out += r.violated() ? "violated\n" : "ok\n";
  }
  // The --json file first: a failed write leaves nothing on stdout.
  if (!a.json_file.empty() && !write_output("--json", a.json_file, j.dump(1) + "\n")) return kExitUsage;
  if (!write_output("stdout", "-", out)) return kExitUsage;
  return r.violated() ? kExitDiffers : kExitOk;
}

Result<Judged> judge_paths_file(const JsonText& read, const std::string& file) {
  auto in = check::paths_from_json(read.json, read.text, file);
  if (!in) return in.error();
  Judged out;
  out.report = check::judge_paths(*in);
  out.heading = fmt::format("{} path(s) from {} to {} on {}", in->paths.size(), in->s.to_string(), in->t.to_string(),
                            in->topology->name());
  out.topology = in->topology_text;
  out.dot = [input = *in] { return paths_as_dot(input); };
  return out;
}

Result<Judged> judge_schedule_file(const JsonText& read, const std::string& file) {
  auto in = check::schedule_file_from_json(read.json, read.text, file);
  if (!in) return in.error();
  Judged out;
  out.report = check::judge_schedule(*in);
  out.heading = fmt::format("an AAPC schedule of {} units on Q_{} with faults {}, {} model", in->schedule.num_units(),
                            in->schedule.n, in->faults.to_string(), aapc::to_string(in->model));
  out.topology = fmt::format("hypercube:{}", in->schedule.n);
  return out;
}

Result<Judged> judge_routing_file(const JsonText& read, const std::string& file) {
  auto in = check::routing_file_from_json(read.json, read.text, file);
  if (!in) return in.error();
  Judged out;
  out.report = check::judge_routing(*in);
  size_t rows = 0;
  for (const auto& per_node : in->next)
    for (const auto& next : per_node) rows += !next.empty();
  out.heading = fmt::format("a routing table of {} rows on a graph of {} nodes and {} edges", rows, in->nodes, in->edges.size());
  out.topology = fmt::format("graph of {} nodes, {} edges", in->nodes, in->edges.size());
  return out;
}

Result<Judged> judge_itm_file(const JsonText& read, const std::string& file) {
  auto in = check::itm_file_from_json(read.json, read.text, file);
  if (!in) return in.error();
  Judged out;
  out.report = check::judge_itm(*in);
  out.heading = in->steps ? fmt::format("the AddNode steps {}", in->steps_text)
                          : fmt::format("a graph of {} nodes and {} edges", in->graph.n(), in->graph.num_edges());
  return out;
}

// A `check KIND` command: its options and its action, `judge` reading and judging the file.
Command add_kind(CLI::App& check, const std::string& kind, const std::string& description, const std::string& formats,
                 Judge judge) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = check.add_subcommand(kind, description);
  add_file_option(*sub, "--file", args->file, fmt::format("the {} file (JSON; format: schemas/{}.schema.json)", kind, kind))->required();
  add_file_option(*sub, "--json", args->json_file, "also write the verdicts as JSON to FILE ('-': stdout)");
  sub->add_option("--format", args->format, formats);
  return {sub, [args, judge = std::move(judge)] { return cmd_check(*args, judge); }};
}

}  // namespace

Command add_check_paths_command(CLI::App& check) {
  return add_kind(check, "paths",
                  "judge your path system (topology, s, t, paths): valid, simple, disjoint, length bound, fault "
                  "tolerance, against the max-flow optimum",
                  "text (default), json or dot (the paths drawn, shared nodes red)", judge_paths_file);
}

Command add_check_schedule_command(CLI::App& check) {
  return add_kind(check, "schedule",
                  "judge your AAPC schedule on a faulty hypercube under a port model: valid, a length bound, "
                  "against the lower bounds",
                  "text (default) or json", judge_schedule_file);
}

Command add_check_routing_command(CLI::App& check) {
  return add_kind(check, "routing",
                  "judge your routing table on a graph: complete, arrives, deadlock-free (channel dependency "
                  "cycle), minimal, permits every shortest path",
                  "text (default) or json", judge_routing_file);
}

Command add_check_itm_command(CLI::App& check) {
  return add_kind(check, "itm",
                  "judge your graph or AddNode steps as an ITM under each reading: its circular order, Theorem 5's "
                  "contention freedom, the broadcast, deadlock-free shortest-path routing",
                  "text (default) or json", judge_itm_file);
}

}  // namespace topocheck::cli
