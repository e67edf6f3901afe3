#include "cli/check_cmd.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "check/itm.h"
#include "check/paths.h"
#include "check/routing.h"
#include "check/schedule.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "core/xml.h"
#include "corpus/corpus.h"
#include "report/dot.h"

namespace topocheck::cli {
namespace {

struct CheckArgs {
  std::string file;
  std::string batch;  // --batch DIR
  std::string json_file;
  std::string junit_file;
  std::string format = "text";
  bool lines = false;  // --lines: the file is a JSON Lines table
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
  nlohmann::json extra = nlohmann::json::object();  // more fields of the JSON report (a table's counts)
};
using Judge = std::function<Result<Judged>(const JsonText&, const std::string& file)>;
// A kind that also reads JSON Lines tables, streamed (paths): the file's name ("-": stdin).
using TableJudge = std::function<Result<Judged>(const std::string& file)>;

// A table file: JSON Lines, by its name (.jsonl, .ndjson) or by --lines.
bool is_table(const std::string& file, bool lines) {
  const std::string ext = std::filesystem::path(file).extension().string();
  return lines || ext == ".jsonl" || ext == ".ndjson";
}

// --batch DIR: every *.json file of DIR (sorted, not recursive) read and judged before anything is
// written; the first bad file is the one-line error (exit 2, nothing written). Then a line per
// file on stdout, one JSON report (--json) and one JUnit report (--junit: a test case per file, a
// failure per violated check) for a user's CI.
int cmd_check_batch(const std::string& kind, const CheckArgs& a, const Judge& judge, const TableJudge& table) {
  if (a.format != "text") return usage_error("--format: with --batch the output is a line per file (and --json, --junit)");
  if (auto e = check_output_path("--json", a.json_file)) return report_error(*e);
  if (auto e = check_output_path("--junit", a.junit_file)) return report_error(*e);
  std::error_code ec;
  if (!std::filesystem::is_directory(a.batch, ec)) return usage_error(fmt::format("--batch {}: not a folder", a.batch));
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(a.batch, ec))
    if (entry.is_regular_file() && (entry.path().extension() == ".json" || (table && is_table(entry.path().string(), false))))
      files.push_back(entry.path().string());
  if (ec) return report_error(Error{ErrorCode::kNotFound, ec.message(), a.batch, 0});
  std::sort(files.begin(), files.end());
  if (files.empty()) return usage_error(fmt::format("--batch {}: no .json file in it", a.batch));
  std::vector<std::pair<std::string, check::CheckReport>> judged;
  for (const std::string& f : files) {
    if (table && is_table(f, false)) {
      auto one = table(f);
      if (!one) return report_error(one.error());
      judged.emplace_back(f, std::move(one->report));
      continue;
    }
    auto read = read_json_text(f);
    if (!read) return report_error(read.error());
    auto one = judge(*read, f);
    if (!one) return report_error(one.error());
    judged.emplace_back(f, std::move(one->report));
  }
  size_t violated = 0;
  std::string out, cases;
  nlohmann::json reports = nlohmann::json::array();
  for (const auto& [f, r] : judged) {
    std::vector<std::string> bad;
    std::string failures;
    for (const auto& l : r.lines)
      if (l.verdict == "violated") {
        bad.push_back(l.check);
        failures += fmt::format("      <failure message=\"{}: {}\"/>\n", xml_escape(l.check), xml_escape(l.words));
      }
    violated += !bad.empty();
    out += fmt::format("{}: {}\n", f, bad.empty() ? "ok" : fmt::format("violated ({})", fmt::join(bad, ", ")));
    nlohmann::json j = r.to_json();
    j["file"] = f;
    reports.push_back(j);
    cases += fmt::format("    <testcase classname=\"check.{}\" name=\"{}\"{}", kind, xml_escape(f), failures.empty() ? "/>\n" : ">\n");
    if (!failures.empty()) cases += failures + "    </testcase>\n";
  }
  out += fmt::format("{} file(s): {} ok, {} violated\n", judged.size(), judged.size() - violated, violated);
  const nlohmann::json all = {{"kind", kind}, {"folder", a.batch}, {"files", reports},
                              {"verdict", violated ? "violated" : "ok"}};
  const std::string junit = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"topocheck check {}\" tests=\"{}\" failures=\"{}\">\n"
      "  <testsuite name=\"check-{}\" tests=\"{}\" failures=\"{}\">\n{}  </testsuite>\n</testsuites>\n",
      kind, judged.size(), violated, kind, judged.size(), violated, cases);
  if (!a.json_file.empty() && !write_output("--json", a.json_file, all.dump(1) + "\n")) return kExitUsage;
  if (!a.junit_file.empty() && !write_output("--junit", a.junit_file, junit)) return kExitUsage;
  if (!write_output("stdout", "-", out)) return kExitUsage;
  return violated ? kExitDiffers : kExitOk;
}

int cmd_check(const CheckArgs& a, const Judge& judge, const TableJudge& table) {
  if (a.format != "text" && a.format != "json" && a.format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", a.format));
  if (auto e = check_output_path("--json", a.json_file)) return report_error(*e);
  const bool streamed = table && is_table(a.file, a.lines);
  if (streamed && a.format == "dot") return usage_error("--format dot: a table of path systems has no drawing (text or json)");
  if (a.file == "-" && !streamed)
    return usage_error(table ? "--file -: standard input is read as a JSON Lines table (--lines) only"
                             : "--file -: give a file (standard input is read only for tables of path systems)");
  Result<Judged> judged = Judged{};
  if (streamed) {
    judged = table(a.file);
  } else {
    auto read = read_json_text(a.file);
    if (!read) return report_error(read.error());
    judged = judge(*read, a.file);
  }
  if (!judged) return report_error(judged.error());
  const check::CheckReport& r = judged->report;
  if (a.format == "dot" && !judged->dot)
    return usage_error(fmt::format("--format dot: a {} file has no drawing (text or json)", r.kind));
  const std::string shown = a.file == "-" ? "stdin" : a.file;
  nlohmann::json j = r.to_json();
  j["file"] = shown;
  if (!judged->topology.empty()) j["topology"] = judged->topology;
  j.update(judged->extra);
  std::string out;
  if (a.format == "json") {
    out = j.dump(1) + "\n";
  } else if (a.format == "dot") {
    out = judged->dot();
  } else {
    out = fmt::format("{}: {}\n", shown, judged->heading);
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

// A JSON Lines table of path systems, one line in memory at a time; progress on stderr every
// 10,000 systems when stderr is a terminal.
Result<Judged> judge_paths_table_file(const std::string& file) {
  std::ifstream opened;
  std::istream* in = &std::cin;
  if (file != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) return parse_error("is a directory, not a JSON Lines file", file);
    opened.open(file);
    if (!opened) return parse_error("cannot be read", file);
    in = &opened;
  }
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto table = check::judge_paths_table(*in, file == "-" ? "stdin" : file, [&](uint64_t judged) {
    if (tty && judged % 10000 == 0) std::cerr << fmt::format("check paths: {} systems judged\r", judged) << std::flush;
  });
  if (tty) std::cerr << std::string(40, ' ') << "\r" << std::flush;
  if (!table) return table.error();
  Judged out;
  out.report = std::move(table->report);
  out.heading = fmt::format("a table of {} path system(s) on {}, {} violated", table->systems, table->topology_name,
                            table->violated_systems);
  out.topology = table->topology_text;
  out.extra = {{"systems", table->systems}, {"violated_systems", table->violated_systems},
               {"violations", table->violations}};
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
                 Judge judge, TableJudge table = {}) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = check.add_subcommand(kind, description);
  auto* file = add_file_option(*sub, "--file", args->file, fmt::format("the {} file (JSON; format: schemas/{}.schema.json)", kind, kind));
  auto* batch = sub->add_option("--batch", args->batch, fmt::format("judge every .json file of this folder as a {} file", kind));
  file->excludes(batch);
  add_file_option(*sub, "--json", args->json_file, "also write the verdicts as JSON to FILE ('-': stdout)");
  add_file_option(*sub, "--junit", args->junit_file, "with --batch: write a JUnit report to FILE (a test case per file)");
  sub->add_option("--format", args->format, formats);
  if (table)
    sub->add_flag("--lines", args->lines,
                  "the file is a JSON Lines table: settings on the first line, a system per line, streamed (implied "
                  "by a .jsonl or .ndjson name; '--file -' reads one from stdin)");
  return {sub, [args, kind, judge = std::move(judge), table = std::move(table)] {
            if (args->file.empty() == args->batch.empty()) return usage_error("--file or --batch: give exactly one");
            if (!args->junit_file.empty() && args->batch.empty()) return usage_error("--junit: only with --batch");
            if (args->lines && !args->batch.empty()) return usage_error("--lines: only with --file (--batch reads .jsonl files as tables)");
            return args->batch.empty() ? cmd_check(*args, judge, table) : cmd_check_batch(kind, *args, judge, table);
          }};
}

}  // namespace

Command add_check_paths_command(CLI::App& check) {
  return add_kind(check, "paths",
                  "judge your path system (topology, s, t, paths): valid, simple, disjoint, length bound, fault "
                  "tolerance, against the max-flow optimum",
                  "text (default), json or dot (the paths drawn, shared nodes red)", judge_paths_file,
                  judge_paths_table_file);
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
