#include "cli/examples_cmd.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "claims/runner.h"
#include "cli/app.h"
#include "cli/output.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int cmd_examples(const claims::Registry& registry, const fs::path& corpus_dir, bool as_json) {
  auto cases = corpus::load_corpus(corpus_dir, registry,
                                   [](const corpus::Case& c) { return c.kind == corpus::CaseKind::kExample; });
  if (!cases) return report_error(cases.error());
  json out = json::array();
  bool all_ok = true;
  for (const corpus::Case& c : *cases) {
    if (c.kind != corpus::CaseKind::kExample) continue;
    auto report = claims::check_example(registry, c);
    if (!report) return report_error(report.error());
    const std::string rel = fs::relative(c.file, corpus_dir).string();
    all_ok = all_ok && report->problems.empty();
    json diffs = json::array();
    if (!as_json)
      std::cout << fmt::format("{} [{}] {} ({}): {} cells, {} differ, {}\n", c.claim, c.reading, rel, c.source,
                               corpus::count_cells(c.expected), report->diffs.size(),
                               report->problems.empty() ? "every difference is a recorded erratum"
                                                        : fmt::format("{} problem(s)", report->problems.size()));
    for (const corpus::CellDiff& d : report->diffs) {
      const corpus::Erratum* erratum = nullptr;
      for (const auto& e : c.errata)
        if (e.cell == d.cell && e.printed == d.printed && e.computed == d.computed) erratum = &e;
      diffs.push_back({{"cell", d.cell}, {"printed", d.printed}, {"computed", d.computed},
                       {"erratum", erratum ? json{{"kind", erratum->kind}, {"note", erratum->note}} : json()}});
      if (!as_json)
        std::cout << fmt::format("  {} printed {}, computed {}: {}\n", d.cell, d.printed.dump(), d.computed.dump(),
                                 erratum ? fmt::format("erratum ({}): {}", erratum->kind, erratum->note)
                                         : std::string("UNEXPLAINED"));
    }
    for (const std::string& p : report->problems)
      if (!as_json && p.find("no longer matches") != std::string::npos) std::cout << "  " << p << "\n";
    out.push_back({{"file", rel}, {"claim", c.claim}, {"reading", c.reading}, {"source", c.source},
                   {"cells", corpus::count_cells(c.expected)}, {"diffs", diffs}, {"problems", report->problems},
                   {"reproduced", report->problems.empty()}});
  }
  if (as_json) std::cout << out.dump(2) << "\n";
  return all_ok ? kExitOk : kExitDiffers;
}

}  // namespace

Command add_examples_command(CLI::App& app, const Session& session) {
  auto as_json = std::make_shared<bool>(false);
  auto* examples = app.add_subcommand("examples", "reproduce every paper example, print cell-level diffs");
  examples->add_flag("--json", *as_json, "machine-readable output");
  return {examples, [&session, as_json] { return cmd_examples(session.registry(), session.corpus_dir(), *as_json); }};
}

}  // namespace topocheck::cli
