#include "cli/show_cmd.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/app.h"
#include "cli/output.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"
#include "report/dot.h"

namespace topocheck::cli {
namespace {

// The text form: kind, claim, params, input, how it was found (or its errata), and its paths.
void print_case_text(const corpus::Case& c, const std::vector<report::NamedPath>& paths) {
  std::cout << fmt::format("{} case: {} [{}]\n", c.kind == corpus::CaseKind::kExample ? "example" : "counterexample",
                           c.claim, c.reading);
  std::cout << fmt::format("params: {}\ninput:  {}\n", c.params.dump(), c.input.dump());
  if (c.kind == corpus::CaseKind::kCounterexample) {
    std::cout << fmt::format("violation: {}\n", c.violation);
    std::cout << fmt::format("found by: {}{}{}; minimized: {}\n", c.method,
                             c.seed ? fmt::format(", seed {}", *c.seed) : "",
                             c.budget.empty() ? "" : ", budget " + c.budget, c.minimized ? "yes" : "no");
  } else {
    std::cout << fmt::format("source: {}; {} errata\n", c.source, c.errata.size());
    for (const auto& e : c.errata)
      std::cout << fmt::format("  erratum {} ({}): printed {}, computed {}: {}\n", e.cell, e.kind, e.printed.dump(),
                               e.computed.dump(), e.note);
  }
  if (!paths.empty()) std::cout << (c.kind == corpus::CaseKind::kExample ? "expected paths (as printed):\n" : "witness paths:\n");
  for (const auto& p : paths) std::cout << fmt::format("  {} = {}\n", p.pointer, fmt::join(p.nodes, ":"));
}

int cmd_show(const claims::Registry& registry, const std::string& file, const std::string& format) {
  if (format != "text" && format != "json" && format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", format));
  auto c = corpus::load_checked_case(file, registry);
  if (!c) return report_error(c.error());
  if (format == "json") {
    std::cout << corpus::to_json(*c).dump(2) << "\n";
    return kExitOk;
  }
  // DOT: report/dot.h's emitters, chosen as show always has (ITM cases on a circle, wormhole
  // deadlocks as their cycle, anything else as its paths).
  const auto paths = report::collect_paths(c->kind == corpus::CaseKind::kExample ? c->expected : c->witness);
  if (format == "text") {
    print_case_text(*c, paths);
  } else if (c->claim.rfind("itm.", 0) == 0) {
    std::cout << report::itm_dot(*c);
  } else if (auto deadlock = c->claim.rfind("wormhole.", 0) == 0 ? report::wormhole_dot(*c) : std::nullopt) {
    std::cout << *deadlock;
  } else {
    std::cout << report::paths_dot(*c, paths);
  }
  return kExitOk;
}

struct ShowArgs {
  std::string file, format = "text";
};

}  // namespace

Command add_show_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<ShowArgs>();
  auto* show = app.add_subcommand("show", "print one corpus case");
  show->add_option("case", args->file, "CASE.json")->required();
  show->add_option("--format", args->format, "text (default), json or dot");
  return {show, [&session, args] { return cmd_show(session.registry(), args->file, args->format); }};
}

}  // namespace topocheck::cli
