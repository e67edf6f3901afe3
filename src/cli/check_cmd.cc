#include "cli/check_cmd.h"

#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "check/paths.h"
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

int cmd_check_paths(const CheckArgs& a) {
  if (a.format != "text" && a.format != "json" && a.format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", a.format));
  if (auto e = check_output_path("--json", a.json_file)) return report_error(*e);
  auto read = read_json_text(a.file);
  if (!read) return report_error(read.error());
  auto in = check::paths_from_json(read->json, read->text, a.file);
  if (!in) return report_error(in.error());
  const check::PathsReport r = check::judge_paths(*in);
  nlohmann::json j = r.to_json();
  j["file"] = a.file;
  j["topology"] = in->topology_text;
  std::string out;
  if (a.format == "json") {
    out = j.dump(1) + "\n";
  } else if (a.format == "dot") {
    out = paths_as_dot(*in);
  } else {
    out = fmt::format("{}: {} path(s) from {} to {} on {}\n", a.file, in->paths.size(), in->s.to_string(), in->t.to_string(),
                      in->topology->name());
    for (const auto& l : r.lines) out += fmt::format("  {:<16} {:<15} {}\n", l.check, l.verdict, l.words);
    out += r.violated() ? "violated\n" : "ok\n";
  }
  if (!write_output("stdout", "-", out)) return kExitUsage;
  if (!a.json_file.empty() && !write_output("--json", a.json_file, j.dump(1) + "\n")) return kExitUsage;
  return r.violated() ? kExitDiffers : kExitOk;
}

}  // namespace

Command add_check_paths_command(CLI::App& check) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = check.add_subcommand("paths", "judge your path system (topology, s, t, paths): valid, simple, disjoint, "
                                            "length bound, fault tolerance, against the max-flow optimum");
  add_file_option(*sub, "--file", args->file, "the paths file (JSON; format: schemas/paths.schema.json)")->required();
  add_file_option(*sub, "--json", args->json_file, "also write the verdicts as JSON to FILE ('-': stdout)");
  sub->add_option("--format", args->format, "text (default), json or dot (the paths drawn, shared nodes red)");
  return {sub, [args] { return cmd_check_paths(*args); }};
}

}  // namespace topocheck::cli
