#include "cli/list_cmd.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "claims/ledger.h"
#include "cli/app.h"
#include "cli/output.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string methods_of(const claims::Reading& r) {
  std::vector<std::string> names;
  for (const auto& [m, fn] : r.methods) names.push_back(claims::to_string(m));
  return fmt::format("{}", fmt::join(names, ","));
}

json list_json(const claims::Registry& registry, const claims::Ledger& ledger) {
  json out = json::array();
  for (const claims::Claim& c : registry.claims()) {
    json readings = json::array();
    for (const claims::Reading& r : c.readings) {
      json methods = json::array();
      for (const auto& [m, fn] : r.methods) methods.push_back(claims::to_string(m));
      json expected;
      if (const auto* e = ledger.find(c.id, r.name)) {
        json budgets = json::object();
        for (const auto& [b, o] : e->per_budget) budgets[claims::to_string(b)] = claims::to_string(o);
        expected = {{"verdict", claims::to_string(e->verdict)}, {"budgets", budgets}, {"reason", e->reason}};
        if (!e->corpus_case.empty()) expected["case"] = e->corpus_case;
        for (const auto& [b, file] : e->case_per_budget) expected["cases"][claims::to_string(b)] = file;
      }
      readings.push_back({{"name", r.name}, {"description", r.description}, {"methods", methods},
                          {"expected", expected}, {"provable", static_cast<bool>(r.prove)}});
    }
    out.push_back({{"id", c.id}, {"family", c.family()}, {"paper", c.paper}, {"location", c.location},
                   {"statement", c.statement}, {"readings", readings}});
  }
  return out;
}

int cmd_list(const claims::Registry& registry, const fs::path& corpus_dir, bool as_json) {
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());
  if (as_json) {
    std::cout << list_json(registry, *ledger).dump(2) << "\n";
    return kExitOk;
  }
  size_t wid = 5;
  for (const claims::Claim& c : registry.claims()) wid = std::max(wid, c.id.size());
  std::cout << fmt::format("{:<{}}  {:<10}  {:<28}  {:<10}  {}\n", "claim", wid, "reading", "methods", "expected",
                           "location");
  for (const claims::Claim& c : registry.claims())
    for (const claims::Reading& r : c.readings) {
      const auto* e = ledger->find(c.id, r.name);
      std::cout << fmt::format("{:<{}}  {:<10}  {:<28}  {:<10}  {}\n", c.id, wid, r.name, methods_of(r),
                               e ? claims::to_string(e->verdict) : "(none)", c.location);
    }
  return kExitOk;
}

}  // namespace

Command add_list_command(CLI::App& app, const Session& session) {
  auto as_json = std::make_shared<bool>(false);
  auto* list = app.add_subcommand("list", "every claim, reading, method and ledger expectation");
  list->add_flag("--json", *as_json, "machine-readable output");
  return {list, [&session, as_json] { return cmd_list(session.registry(), session.corpus_dir(), *as_json); }};
}

}  // namespace topocheck::cli
