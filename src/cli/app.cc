#include "cli/app.h"
#include "cli/cli_util.h"
#include "cli/routing_cmd.h"
#include "cli/wormhole_cmd.h"

#include "core/json_file.h"

#include <unistd.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "claims/ledger.h"
#include "registry/full_registry.h"
#include "claims/report.h"
#include "claims/runner.h"
#include "corpus/corpus.h"
#include "hypercube/hypercube.h"
#include "itm/itm.h"
#include "migration/migration.h"
#include "migration/migration_checks.h"
#include "itm/itm_checks.h"
#include "metacube/disjoint.h"
#include "metacube/metacube_checks.h"
#include "metacube/routing.h"
#include "smt/hypercube_smt.h"
#include "smt/itm_smt.h"
#include "smt/migration_smt.h"
#include "smt/aapc_smt.h"
#include "smt/aapc_smt_claims.h"
#include "aapc/run.h"
#include "aapc/bounds.h"
#include "smt/metacube_smt.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;
using claims::Budget;
using claims::Method;
using claims::Outcome;
using nlohmann::json;

fs::path default_corpus_dir() {
  if (const char* env = std::getenv("TOPOCHECK_CORPUS"); env && *env) return env;
  return fs::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

// An output file must be writable before a long run starts: its folder must exist.
std::optional<Error> check_output_path(const std::string& option, const std::string& file) {
  if (file.empty() || file == "-") return std::nullopt;
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return invalid_argument(fmt::format("{} {}: the folder {} does not exist", option, file, dir.string()));
  return std::nullopt;
}

Result<bool> write_report_file(const std::string& file, const std::string& content) {
  if (file == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    return true;
  }
  auto written = corpus::write_atomic(file, content);
  if (!written) return written.error();
  return true;
}

std::string methods_of(const claims::Reading& r) {
  std::vector<std::string> names;
  for (const auto& [m, fn] : r.methods) names.push_back(claims::to_string(m));
  return fmt::format("{}", fmt::join(names, ","));
}

// ---------------------------------------------------------------------------------------------
// list

int cmd_list(const claims::Registry& registry, const fs::path& corpus_dir, bool as_json) {
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json");
  if (!ledger) return report_error(ledger.error());
  if (as_json) {
    json out = json::array();
    for (const claims::Claim& c : registry.claims()) {
      json readings = json::array();
      for (const claims::Reading& r : c.readings) {
        json methods = json::array();
        for (const auto& [m, fn] : r.methods) methods.push_back(claims::to_string(m));
        json expected;
        if (const auto* e = ledger->find(c.id, r.name)) {
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
    std::cout << out.dump(2) << "\n";
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

// ---------------------------------------------------------------------------------------------
// verify

struct VerifyArgs {
  std::vector<std::string> globs;
  std::string budget = "standard";
  uint64_t seed = 1;
  int jobs = 0;
  std::string json_file, junit_file;
  std::string shard;  // "i/N", empty: not sharded
  std::vector<std::string> readings;  // --reading globs, empty: every reading
};

// Table, ledger notes, --json and --junit of a verify or merge run; returns the exit code.
int report_verdicts(const std::vector<claims::ReadingVerdict>& verdicts, const std::vector<std::string>& stale,
                    const std::string& json_file, const std::string& junit_file, const json& report, Budget budget) {
  // With --json - the JSON owns stdout and the table goes to stderr.
  const bool json_on_stdout = json_file == "-" || junit_file == "-";
  std::FILE* table_out = json_on_stdout ? stderr : stdout;
  const std::string table = claims::render_table(verdicts, ::isatty(::fileno(table_out)) != 0);
  std::fputs(table.c_str(), table_out);
  for (const std::string& s : stale) std::fprintf(table_out, "ledger: %s\n", s.c_str());
  std::fflush(table_out);
  if (!json_file.empty()) {
    auto w = write_report_file(json_file, report.dump(2) + "\n");
    if (!w) return report_error(w.error());
  }
  if (!junit_file.empty()) {
    auto w = write_report_file(junit_file, claims::verdicts_to_junit(verdicts, budget));
    if (!w) return report_error(w.error());
  }
  bool differs = !stale.empty(), inconclusive = false;
  for (const auto& v : verdicts) {
    if (v.matches) continue;
    if (v.outcome == Outcome::kInconclusive) inconclusive = true;
    else differs = true;
  }
  if (differs) return kExitDiffers;
  if (inconclusive) return kExitInconclusive;
  return kExitOk;
}

int cmd_verify(const claims::Registry& registry, const fs::path& corpus_dir, const VerifyArgs& args) {
  auto budget = claims::parse_budget(args.budget);
  if (!budget) return usage_error(fmt::format("--budget: '{}' is not quick, standard or deep", args.budget));
  if (args.jobs < 0) return usage_error("--jobs must be at least 1");
  std::optional<claims::Shard> shard;
  if (!args.shard.empty()) {
    auto parsed = claims::parse_shard(args.shard);
    if (!parsed) return report_error(parsed.error());
    shard = *parsed;
  }
  for (const auto& [opt, file] : {std::pair{"--json", args.json_file}, std::pair{"--junit", args.junit_file}})
    if (auto e = check_output_path(opt, file)) return report_error(*e);
  auto selected = claims::select_claims(registry, args.globs);
  if (!selected) return report_error(selected.error());
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json");
  if (!ledger) return report_error(ledger.error());

  // Each --reading glob must select a reading of the selected claims (a typo must not run nothing).
  for (const std::string& g : args.readings) {
    bool any = false;
    for (const claims::Claim* c : *selected)
      for (const claims::Reading& r : c->readings) any = any || claims::reading_selected({g}, r.name);
    if (!any)
      return usage_error(fmt::format("--reading: '{}' matches no reading of the selected claims (see `topocheck list`)", g));
  }
  const int jobs = args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  size_t readings = 0;
  for (const claims::Claim* c : *selected)
    for (const claims::Reading& r : c->readings) readings += claims::reading_selected(args.readings, r.name) ? 1 : 0;
  std::fprintf(stderr, "topocheck verify: budget %s, seed %llu, %d job(s), %zu claim(s), %zu reading(s)%s\n",
               args.budget.c_str(), static_cast<unsigned long long>(args.seed), jobs, selected->size(), readings,
               shard ? fmt::format(", shard {}", shard->to_string()).c_str() : "");
  TerminalProgress progress;
  claims::VerifyOptions options;
  options.budget = *budget;
  options.seed = args.seed;
  options.jobs = jobs;
  options.corpus_dir = corpus_dir;
  options.progress = &progress;
  options.shard = shard;
  options.readings = args.readings;
  // Each verdict as its reading finishes, on stderr (the table at the end is the report).
  const bool color = ::isatty(::fileno(stderr)) != 0;
  size_t done = 0;
  options.on_verdict = [&](const claims::ReadingVerdict& v) {
    progress.clear();
    std::fputs(claims::render_verdict_line(v, ++done, readings, color).c_str(), stderr);
    std::fflush(stderr);
  };
  const auto verdicts = claims::verify(*selected, *ledger, options);
  progress.clear();
  // The whole ledger is checked for stale entries only when every claim reading ran, and not in
  // one shard.
  const auto stale = args.globs.empty() && args.readings.empty() && !(shard && shard->count > 1)
                         ? claims::stale_expectations(*ledger, registry)
                         : std::vector<std::string>{};
  if (shard && shard->count > 1)
    std::fprintf(stderr, "topocheck verify: shard %s: compared as one shard (an expected refutation is decided by "
                 "`topocheck merge` of all %d reports)\n", shard->to_string().c_str(), shard->count);
  return report_verdicts(verdicts, stale, args.json_file, args.junit_file,
                         claims::verdicts_to_json(verdicts, *budget, args.seed, jobs, shard), *budget);
}

// ---------------------------------------------------------------------------------------------
// merge

struct MergeArgs {
  std::vector<std::string> files;
  std::string json_file, junit_file;
};

int cmd_merge(const fs::path& corpus_dir, const MergeArgs& args) {
  for (const auto& [opt, file] : {std::pair{"--json", args.json_file}, std::pair{"--junit", args.junit_file}})
    if (auto e = check_output_path(opt, file)) return report_error(*e);
  std::vector<claims::ShardReport> reports;
  for (const std::string& file : args.files) {
    auto j = read_json_file(file);
    if (!j) return report_error(j.error());
    auto report = claims::shard_report_from_json(*j, file);
    if (!report) return report_error(report.error());
    reports.push_back(std::move(report).value());
  }
  auto merged = claims::merge_shards(reports);
  if (!merged) return report_error(merged.error());
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json");
  if (!ledger) return report_error(ledger.error());
  std::fprintf(stderr, "topocheck merge: %d shard reports, budget %s, seed %llu, %zu reading(s)\n", merged->count,
               claims::to_string(merged->budget).c_str(), static_cast<unsigned long long>(merged->seed),
               merged->verdicts.size());
  std::vector<claims::ReadingVerdict> verdicts = merged->verdicts;
  claims::compare_with_ledger(verdicts, *ledger, merged->budget, corpus_dir);
  return report_verdicts(verdicts, {}, args.json_file, args.junit_file,
                         claims::verdicts_to_json(verdicts, merged->budget, merged->seed, 0, std::nullopt, merged->count),
                         merged->budget);
}

// ---------------------------------------------------------------------------------------------
// examples

int cmd_examples(const claims::Registry& registry, const fs::path& corpus_dir, bool as_json) {
  auto cases = corpus::load_all(corpus_dir);
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

// ---------------------------------------------------------------------------------------------
// replay

Result<std::vector<corpus::Case>> load_paths(const fs::path& corpus_dir, const std::vector<std::string>& paths) {
  if (paths.empty()) return corpus::load_all(corpus_dir);
  std::vector<corpus::Case> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      auto more = corpus::load_all(p);
      if (!more) return more.error();
      out.insert(out.end(), more->begin(), more->end());
    } else if (fs::exists(p, ec)) {
      auto c = corpus::load_case(p);
      if (!c) return c.error();
      out.push_back(std::move(c).value());
    } else {
      return parse_error("no such file or folder", p);
    }
  }
  return out;
}

int cmd_replay(const claims::Registry& registry, const fs::path& corpus_dir, const std::vector<std::string>& paths) {
  auto cases = load_paths(corpus_dir, paths);
  if (!cases) return report_error(cases.error());
  // Validate every case before replaying any: a bad file is reported, never skipped.
  std::vector<claims::ReplayResult> results;
  for (const corpus::Case& c : *cases) {
    auto r = claims::replay_case(registry, c);
    if (!r) return report_error(r.error());
    results.push_back(*r);
  }
  size_t failed = 0;
  for (const auto& r : results) {
    failed += !r.ok;
    std::cout << fmt::format("{} {} [{}] {}: {}\n", r.ok ? "ok  " : "FAIL", r.claim, r.reading, r.file, r.message);
  }
  std::cout << fmt::format("{} passed, {} failed\n", results.size() - failed, failed);
  return failed ? kExitDiffers : kExitOk;
}

// ---------------------------------------------------------------------------------------------
// search

struct SearchArgs {
  std::string claim, reading = "literal", budget = "standard";
  double seconds = 10;
  uint64_t seed = 1;
  bool save = false;
};

int cmd_search(const claims::Registry& registry, const fs::path& corpus_dir, const SearchArgs& args) {
  const claims::Claim* claim = registry.find(args.claim);
  if (!claim) return usage_error(fmt::format("CLAIM: unknown claim '{}' (see `topocheck list`)", args.claim));
  const claims::Reading* reading = claim->find_reading(args.reading);
  if (!reading) return usage_error(fmt::format("--reading: claim {} has no reading '{}'", args.claim, args.reading));
  auto budget = claims::parse_budget(args.budget);
  if (!budget) return usage_error(fmt::format("--budget: '{}' is not quick, standard or deep", args.budget));
  if (!(args.seconds > 0)) return usage_error("--seconds must be positive");
  if (std::none_of(reading->methods.begin(), reading->methods.end(),
                   [](const auto& m) { return m.first != Method::kExample; }))
    return usage_error(fmt::format("CLAIM: {} has no searchable method", args.claim));
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json");
  if (!ledger) return report_error(ledger.error());
  TerminalProgress progress;
  std::fprintf(stderr, "topocheck search %s [%s]: budget %s, seed %llu, %.0f s\n", args.claim.c_str(),
               args.reading.c_str(), args.budget.c_str(), static_cast<unsigned long long>(args.seed), args.seconds);
  claims::SearchOptions options;
  options.run.budget = *budget;
  options.run.seed = args.seed;
  options.run.progress = &progress;
  options.run.corpus_dir = corpus_dir;
  options.seconds = args.seconds;
  const claims::SearchOutcome found = claims::search(*claim, *reading, *ledger, options);
  progress.clear();
  if (found.error) {
    std::fprintf(stderr, "topocheck: error: %s: %s\n", claims::to_string(found.error->method).c_str(),
                 found.error->detail.c_str());
    return kExitInternal;
  }
  if (found.found) {
    const corpus::Case& c = *found.found;
    std::cout << fmt::format("counterexample ({} method, seed {}, after {} cases{}):\n", c.method, c.seed.value_or(0),
                             found.cases, found.known ? "; already in the corpus" : "");
    std::cout << corpus::to_json(c).dump(2) << "\n";
    if (args.save && !found.known) {
      auto w = corpus::write_atomic(corpus::counterexample_path(corpus_dir, c), corpus::to_json(c).dump(2) + "\n");
      if (!w) return report_error(w.error());
      std::cout << "saved " << w->string() << "\n";
    }
    return found.known ? kExitOk : kExitDiffers;
  }
  std::cout << fmt::format("no counterexample: {} cases in {} round(s), first seed {}\n", found.cases, found.rounds,
                           args.seed);
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// prove

int cmd_prove(const claims::Registry& registry, const std::string& claim_id, const std::string& reading_name,
              const std::vector<std::string>& params, double timeout, uint64_t rlimit, bool as_json) {
  const claims::Claim* claim = registry.find(claim_id);
  if (!claim) return usage_error(fmt::format("CLAIM: unknown claim '{}' (see `topocheck list`)", claim_id));
  const claims::Reading* reading = claim->find_reading(reading_name);
  if (!reading) return usage_error(fmt::format("--reading: claim {} has no reading '{}'", claim_id, reading_name));
  if (!reading->prove) return usage_error(fmt::format("CLAIM: {} [{}] has no SMT encoding", claim_id, reading_name));
  json p = json::object();
  for (const std::string& kv : params) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return usage_error(fmt::format("--param '{}': expected NAME=VALUE", kv));
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    char* end = nullptr;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (!value.empty() && end && *end == '\0') p[key] = number;
    else p[key] = value;
  }
  if (timeout < 0) return usage_error("--timeout must not be negative");
  claims::SolverLimits limits;
  limits.rlimit = rlimit;
  limits.timeout_ms = static_cast<unsigned>(timeout * 1000);
  auto result = reading->prove(p, limits);
  if (!result) return report_error(result.error());
  if (as_json) {
    json j = {{"claim", claim_id}, {"reading", reading_name}, {"params", p},
              {"verdict", claims::to_string(result->outcome)}, {"scope", result->scope}, {"detail", result->detail}};
    if (result->counterexample) j["counterexample"] = claims::counterexample_to_json(*result->counterexample);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} [{}] {}: {} ({})\n", claim_id, reading_name, p.dump(),
                             claims::to_string(result->outcome), result->scope);
    if (!result->detail.empty()) std::cout << "  " << result->detail << "\n";
    if (result->counterexample) std::cout << claims::counterexample_to_json(*result->counterexample).dump(2) << "\n";
  }
  switch (result->outcome) {
    case Outcome::kHolds: return kExitOk;
    case Outcome::kRefuted: return kExitDiffers;
    case Outcome::kInconclusive: return kExitInconclusive;
    case Outcome::kError: return kExitInternal;
  }
  return kExitInternal;
}

// ---------------------------------------------------------------------------------------------
// show

// Every array of node strings inside `j` (witness or printed output), in document order, with
// its JSON pointer (the same form errata cells use, e.g. /columns/3/paths/1).
struct NamedPath {
  std::string pointer;
  std::vector<std::string> nodes;
};

void collect_paths(const json& j, const std::string& pointer, std::vector<NamedPath>& out) {
  if (j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); })) {
    std::vector<std::string> p;
    for (const json& e : j) p.push_back(e.get<std::string>());
    if (std::all_of(p.begin(), p.end(), [](const std::string& s) { return parse_node(s).ok(); })) {
      out.push_back({pointer.empty() ? "/" : pointer, p});
      return;
    }
  }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collect_paths(j[i], fmt::format("{}/{}", pointer, i), out);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) collect_paths(v, pointer + "/" + k, out);
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// An ITM case (claims itm.*) as an undirected DOT graph for `neato -n`: the nodes on a circle in
// the witness's circular order ("order", else "found_order", else 0..n-1), exterior edges solid,
// interior edges dashed grey, the witness's paths as coloured arrows, and every edge two paths
// both use (in either direction) red and thick: the offending edges.
void print_itm_dot(const corpus::Case& c) {
  const json& w = c.witness;
  std::vector<std::pair<int, int>> edges;
  int n = 0;
  if (w.contains("edges") && w.at("edges").is_array())
    for (const json& e : w.at("edges"))
      if (e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_number_integer()) {
        edges.emplace_back(e[0].get<int>(), e[1].get<int>());
        n = std::max({n, edges.back().first + 1, edges.back().second + 1});
      }
  std::set<std::pair<int, int>> exterior;
  if (w.contains("exterior") && w.at("exterior").is_array())
    for (const json& e : w.at("exterior"))
      if (e.is_array() && e.size() == 2) exterior.insert({e[0].get<int>(), e[1].get<int>()});
  std::vector<int> order;
  for (const char* key : {"order", "found_order"})
    if (order.empty() && w.contains(key) && w.at(key).is_array())
      for (const json& v : w.at(key)) order.push_back(v.get<int>());
  if (static_cast<int>(order.size()) != n) {
    order.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  }
  std::vector<std::vector<int>> paths;
  if (w.contains("paths") && w.at("paths").is_array())
    for (const json& p : w.at("paths")) {
      std::vector<int> path;
      if (p.is_array())
        for (const json& v : p)
          if (v.is_number_integer()) path.push_back(v.get<int>());
      paths.push_back(path);
    }
  // Undirected edges used by two different paths.
  std::map<std::pair<int, int>, std::set<size_t>> users;
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      users[{std::min(paths[i][k], paths[i][k + 1]), std::max(paths[i][k], paths[i][k + 1])}].insert(i);
  std::set<std::pair<int, int>> shared;
  for (const auto& [e, who] : users)
    if (who.size() > 1) shared.insert(e);
  std::cout << "graph topocheck_itm_case {\n  // neato -n2 -Tsvg: positions are fixed (nodes on a circle in circular order)\n";
  std::cout << "  node [shape=circle, fontname=monospace];\n";
  std::vector<std::string> names;
  for (const auto& e : shared) names.push_back(fmt::format("{}-{}", e.first, e.second));
  std::cout << fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading),
                           dot_escape(c.violation),
                           shared.empty() ? std::string("no shared edge") : "shared: " + fmt::format("{}", fmt::join(names, ", ")));
  const double pi = 3.14159265358979323846, radius = 40.0 * std::max(n, 3);
  for (size_t i = 0; i < order.size(); ++i) {
    const double angle = 2 * pi * static_cast<double>(i) / static_cast<double>(order.size());
    std::cout << fmt::format("  {} [pos=\"{:.0f},{:.0f}\"];\n", order[i], radius * std::sin(angle), radius * std::cos(angle));
  }
  for (const auto& [u, v] : edges) {
    const bool ext = exterior.count({std::min(u, v), std::max(u, v)}) > 0;
    const bool hot = shared.count({std::min(u, v), std::max(u, v)}) > 0;
    std::cout << fmt::format("  {} -- {} [{}];\n", u, v,
                             hot ? "color=red, penwidth=4" : ext ? "penwidth=2" : "style=dashed, color=gray50");
  }
  static const char* colors[] = {"blue", "darkgreen", "orange", "purple"};
  for (size_t i = 0; i < paths.size(); ++i)
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      std::cout << fmt::format("  {} -- {} [dir=forward, color={}, label=\"P{}\", fontcolor={}];\n", paths[i][k],
                               paths[i][k + 1], colors[i % 4], i, colors[i % 4]);
  std::cout << "}\n";
}

// A wormhole deadlock case (claims wormhole.*, witness.deadlock from catalog/wormhole/claims.cc) as a DOT
// digraph: the graph's edges grey and undirected, the channels each stuck worm of the waiting
// cycle holds as solid arrows in its colour (labelled with the worm), and the channel each waits
// on as a dashed red arrow: the cycle of waiting is the ring of red and coloured arrows.
bool print_wormhole_dot(const corpus::Case& c) {
  const json& w = c.witness;
  if (!w.contains("deadlock") || !w.at("deadlock").is_object() || !w.at("deadlock").contains("stuck")) return false;
  const json& d = w.at("deadlock");
  auto ends = [](const json& t) -> std::optional<std::pair<int, int>> {
    if (!t.is_string()) return std::nullopt;
    const std::string s = t.get<std::string>();
    const size_t arrow = s.find("->");
    if (arrow == std::string::npos) return std::nullopt;
    return std::make_pair(std::atoi(s.substr(0, arrow).c_str()), std::atoi(s.substr(arrow + 2).c_str()));
  };
  std::cout << "digraph topocheck_wormhole_case {\n  node [shape=circle, fontname=monospace];\n";
  std::cout << fmt::format("  label=\"{} [{}]\\n{}\";\n", dot_escape(c.claim), dot_escape(c.reading), dot_escape(c.violation));
  if (w.contains("edges") && w.at("edges").is_array())
    for (const json& e : w.at("edges"))
      if (e.is_array() && e.size() == 2)
        std::cout << fmt::format("  {} -> {} [dir=none, color=gray70];\n", e[0].dump(), e[1].dump());
  static const char* colors[] = {"blue", "darkgreen", "orange", "purple", "brown", "magenta", "cyan", "gray40"};
  std::map<int, size_t> color_of;
  if (d.contains("cycle_worms") && d.at("cycle_worms").is_array())
    for (const json& x : d.at("cycle_worms"))
      if (x.is_number_integer()) color_of.emplace(x.get<int>(), color_of.size());
  for (const json& s : d.at("stuck")) {
    if (!s.is_object() || !s.contains("worm") || !s.at("worm").is_number_integer()) continue;
    const int worm = s.at("worm").get<int>();
    const auto it = color_of.find(worm);
    if (it == color_of.end() || !s.contains("held_text")) continue;
    const char* color = colors[it->second % 8];
    for (const json& t : s.at("held_text"))
      if (auto e = ends(t))
        std::cout << fmt::format("  {} -> {} [color={}, penwidth=3, label=\"w{}\", fontcolor={}];\n", e->first, e->second,
                                 color, worm, color);
  }
  if (d.contains("waits_on_text") && d.at("waits_on_text").is_array())
    for (const json& t : d.at("waits_on_text"))
      if (auto e = ends(t))
        std::cout << fmt::format("  {} -> {} [color=red, style=dashed, label=\"waits\", fontcolor=red];\n", e->first, e->second);
  std::cout << "}\n";
  return true;
}

int cmd_show(const std::string& file, const std::string& format) {
  if (format != "text" && format != "json" && format != "dot")
    return usage_error(fmt::format("--format: '{}' is not text, json or dot", format));
  auto c = corpus::load_case(file);
  if (!c) return report_error(c.error());
  if (format == "json") {
    std::cout << corpus::to_json(*c).dump(2) << "\n";
    return kExitOk;
  }
  if (format == "dot" && c->claim.rfind("itm.", 0) == 0) {
    print_itm_dot(*c);
    return kExitOk;
  }
  if (format == "dot" && c->claim.rfind("wormhole.", 0) == 0 && print_wormhole_dot(*c)) return kExitOk;
  std::vector<NamedPath> paths;
  collect_paths(c->kind == corpus::CaseKind::kExample ? c->expected : c->witness, "", paths);
  if (format == "dot") {
    // One colour per path (red is kept for the highlight). Paths are grouped by their parent
    // pointer (/paths/0, /paths/1, ... form one set; /translate/paths/... another): a node is
    // shared if it is internal to a path of its set and occurs there more than once (in two
    // paths, or twice in one); shared nodes are filled red and named in the legend line.
    static const char* colors[] = {"blue", "darkgreen", "orange", "purple", "brown", "magenta", "cyan", "gray40"};
    std::map<std::string, std::map<std::string, std::vector<std::string>>> seen;  // set -> node -> "path@pos"
    std::map<std::string, std::set<std::string>> internal;                        // set -> internal nodes
    for (const auto& p : paths) {
      const std::string set = p.pointer.substr(0, p.pointer.rfind('/'));
      for (size_t k = 0; k < p.nodes.size(); ++k) {
        seen[set][p.nodes[k]].push_back(fmt::format("{} @{}", p.pointer, k));
        if (k > 0 && k + 1 < p.nodes.size()) internal[set].insert(p.nodes[k]);
      }
    }
    std::set<std::string> shared;
    std::vector<std::string> legend;
    for (const auto& [set, nodes] : seen)
      for (const auto& [node, where] : nodes)
        if (where.size() > 1 && internal[set].count(node)) {
          shared.insert(node);
          legend.push_back(fmt::format("{} ({})", node, fmt::join(where, ", ")));
        }
    // Metacube cases: the fielded form (class, M[h-1] ... M[0]) under the bit string.
    std::optional<metacube::Metacube> mc;
    if (c->claim.rfind("metacube.", 0) == 0 && c->params.is_object() && c->params.contains("k") &&
        c->params.contains("m") && c->params.at("k").is_number_integer() && c->params.at("m").is_number_integer())
      if (auto made = metacube::Metacube::make(c->params.at("k").get<int>(), c->params.at("m").get<int>())) mc = *made;
    std::cout << "digraph topocheck_case {\n  rankdir=LR;\n  node [shape=box, fontname=monospace];\n";
    std::cout << fmt::format("  label=\"{} [{}]\\n{}\\n{}\";\n", dot_escape(c->claim), dot_escape(c->reading),
                             dot_escape(c->kind == corpus::CaseKind::kExample ? c->source : c->violation),
                             dot_escape(shared.empty() ? "no shared node"
                                                       : fmt::format("shared: {}", fmt::join(legend, "; "))));
    std::set<std::string> nodes;
    for (const auto& p : paths) nodes.insert(p.nodes.begin(), p.nodes.end());
    for (const std::string& n : nodes) {
      std::string label = n;
      if (mc)
        if (auto u = mc->parse_fields(n)) label += "\\n" + mc->format_fields(*u);
      std::cout << fmt::format("  \"{}\" [label=\"{}\"{}];\n", n, label,
                               shared.count(n) ? ", style=filled, fillcolor=red, penwidth=3" : "");
    }
    for (size_t i = 0; i < paths.size(); ++i)
      for (size_t k = 0; k + 1 < paths[i].nodes.size(); ++k)
        std::cout << fmt::format("  \"{}\" -> \"{}\" [color={}, fontcolor={}, label=\"{}\"];\n", paths[i].nodes[k],
                                 paths[i].nodes[k + 1], colors[i % 8], colors[i % 8], dot_escape(paths[i].pointer));
    std::cout << "}\n";
    return kExitOk;
  }
  std::cout << fmt::format("{} case: {} [{}]\n", c->kind == corpus::CaseKind::kExample ? "example" : "counterexample",
                           c->claim, c->reading);
  std::cout << fmt::format("params: {}\ninput:  {}\n", c->params.dump(), c->input.dump());
  if (c->kind == corpus::CaseKind::kCounterexample) {
    std::cout << fmt::format("violation: {}\n", c->violation);
    std::cout << fmt::format("found by: {}{}{}; minimized: {}\n", c->method,
                             c->seed ? fmt::format(", seed {}", *c->seed) : "",
                             c->budget.empty() ? "" : ", budget " + c->budget, c->minimized ? "yes" : "no");
  } else {
    std::cout << fmt::format("source: {}; {} errata\n", c->source, c->errata.size());
    for (const auto& e : c->errata)
      std::cout << fmt::format("  erratum {} ({}): printed {}, computed {}: {}\n", e.cell, e.kind, e.printed.dump(),
                               e.computed.dump(), e.note);
  }
  if (!paths.empty()) std::cout << (c->kind == corpus::CaseKind::kExample ? "expected paths (as printed):\n" : "witness paths:\n");
  for (const auto& p : paths) std::cout << fmt::format("  {} = {}\n", p.pointer, fmt::join(p.nodes, ":"));
  return kExitOk;
}

// ---------------------------------------------------------------------------------------------
// construct

struct CubeArgs {
  int n = 0;
  std::string x, y;
  bool json = false;
};

Result<std::pair<Node, Node>> parse_cube_pair(const CubeArgs& a) {
  auto cube = hypercube::Hypercube::make(a.n);
  if (!cube) return invalid_argument("--n: " + cube.error().message);
  auto x = parse_node(a.x, a.n);
  if (!x) return invalid_argument("--x: " + x.error().message);
  auto y = parse_node(a.y, a.n);
  if (!y) return invalid_argument("--y: " + y.error().message);
  return std::pair{*x, *y};
}

int cmd_construct_paths(const CubeArgs& a) {
  auto xy = parse_cube_pair(a);
  if (!xy) return report_error(xy.error());
  const auto paths = hypercube::cube_disjoint_paths(a.n, xy->first, xy->second);
  if (a.json) {
    std::cout << json{{"paths", paths_to_json(paths)}}.dump() << "\n";
  } else {
    for (size_t i = 0; i < paths.size(); ++i) std::cout << fmt::format("P_{} = {}\n", i, paths[i]);
  }
  return kExitOk;
}

int cmd_construct_route(const CubeArgs& a) {
  auto xy = parse_cube_pair(a);
  if (!xy) return report_error(xy.error());
  const Path p = hypercube::ecube_route(xy->first, xy->second);
  if (a.json) std::cout << json{{"path", path_to_json(p)}}.dump() << "\n";
  else std::cout << p << "\n";
  return kExitOk;
}

struct McArgs {
  int k = -1, m = -1;
  std::string s, t, reading = "paper";
  bool json = false;
};

struct McInput {
  metacube::Metacube mc;
  Node s, t;
};

Result<McInput> parse_mc_args(const McArgs& a) {
  auto mc = metacube::Metacube::make(a.k, a.m);
  if (!mc) return invalid_argument("--k/--m: " + mc.error().message);
  auto s = mc->parse_fields(a.s);
  if (!s) return invalid_argument("--s: " + s.error().message);
  auto t = mc->parse_fields(a.t);
  if (!t) return invalid_argument("--t: " + t.error().message);
  return McInput{*mc, *s, *t};
}

int cmd_construct_mc_route(const McArgs& a) {
  auto in = parse_mc_args(a);
  if (!in) return report_error(in.error());
  const Path p = metacube::p1(in->mc, in->s, in->t);
  if (a.json) std::cout << json{{"path", path_to_json(p)}}.dump() << "\n";
  else std::cout << p << "\n";
  return kExitOk;
}

int cmd_construct_mc_paths(const McArgs& a) {
  auto in = parse_mc_args(a);
  if (!in) return report_error(in.error());
  if (in->s == in->t) return usage_error("--t: s and t must differ (Algorithm 4 is for two distinct nodes)");
  const auto options = metacube::options_for_reading(a.reading);
  if (!options || (a.reading != "paper" && a.reading != "repaired" && a.reading != "paper-keybit-example4"))
    return usage_error(fmt::format("--reading: '{}' is not paper, paper-keybit-example4 or repaired", a.reading));
  const auto r = metacube::metacube_disjoint_paths(in->mc, in->s, in->t, *options);
  const Violation verdict = metacube::check_thm2_disjoint(in->mc, in->s, in->t, r.paths);
  if (a.json) {
    std::cout << json{{"paths", paths_to_json(r.paths)}}.dump() << "\n";
  } else {
    std::cout << fmt::format("{} case {} ({} reading)\n", in->mc.name(), r.case_number, a.reading);
    for (const std::string& n : r.notes) std::cout << "  " << n << "\n";
    for (size_t i = 0; i < r.paths.size(); ++i)
      std::cout << fmt::format("P_{} ({} hops) = {}\n", i, r.paths[i].length(), r.paths[i]);
  }
  // The construction is not its own judge: say what the shared checkers found.
  if (verdict) std::cerr << "topocheck: warning: these paths fail Theorem 2: " << *verdict << "\n";
  return kExitOk;
}

struct ItmArgs {
  std::string steps, rule = "exterior";
  bool json = false;
};

// Builds an ITM from its AddNode steps and prints what the paper defines on it (edges, exterior
// marking, circular order) and what the shared checkers say of its claims.
int cmd_construct_itm(const ItmArgs& a) {
  auto rule = itm::parse_rule(a.rule);
  if (!rule) return usage_error(fmt::format("--rule: '{}' is not any-edge or exterior", a.rule));
  auto steps = itm::parse_steps(a.steps);
  if (!steps) return usage_error("--steps: " + steps.error().message);
  auto g = itm::Itm::build(*steps, *rule);
  if (!g) return usage_error("--steps: " + g.error().message);
  auto order = itm::circular_order(*g);
  std::vector<std::pair<std::string, Violation>> checks = {
      {"lemma1.planar", itm::check_planar(g->graph())},
      {"lemma1.edges", itm::check_edge_count(g->graph())},
      {"thm2.deadlock_free", itm::check_deadlock_free(g->graph())},
      {"lemma4.counts", itm::check_lemma4_counts(*g)},
      {"lemma4.cycle", itm::check_lemma4_cycle(*g)},
      {"thm5.contention_free", order ? itm::check_contention_free(g->graph(), *order, itm::Contention::kPaper)
                                     : Violation("no circular order: " + order.error().message)}};
  if (a.json) {
    json out = {{"n", g->n()}, {"rule", itm::to_string(*rule)}, {"steps", itm::to_string(g->steps())}};
    out["edges"] = g->graph().edges();
    out["exterior"] = g->exterior_edges();
    out["order"] = order ? json(*order) : json(nullptr);
    for (const auto& [name, v] : checks) out["checks"][name] = v ? json(*v) : json("holds");
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("ITM ({}) on {} nodes: {}\n", itm::to_string(*rule), g->n(),
                           g->steps().empty() ? "the kernel triangle" : itm::to_string(g->steps()));
  std::cout << fmt::format("edges ({}): {}\n", g->graph().num_edges(), fmt::join(g->graph().edges(), " "));
  std::cout << fmt::format("exterior ({}): {}\n", g->exterior_edges().size(), fmt::join(g->exterior_edges(), " "));
  std::cout << fmt::format("circular order: {}\n", order ? fmt::format("{}", fmt::join(*order, " ")) : order.error().message);
  for (const auto& [name, v] : checks) std::cout << fmt::format("  {:22} {}\n", name, v ? "fails: " + *v : "holds");
  return kExitOk;
}

struct MigrationArgs {
  int n = 0;
  std::string S, T, alpha, blocks, sequence, tie = "ascending", pick_p = "first", x = "D_g", bars = "f:=,g:!=";
  int k = -1;
  bool json = false;
};

// The procedure of Section 4 on one input: both paths of every node of S (or the reason one is
// absent), and what the shared checkers say of Theorems 1/2 under each disjointness reading.
int cmd_construct_migration(const MigrationArgs& a) {
  auto inst = migration::parse_instance(a.S, a.T);
  if (!inst) return usage_error(inst.error().message);
  if (a.n != 0 && a.n != inst->n)
    return usage_error(fmt::format("--n: {} but --S and --T have {} symbols", a.n, inst->n));
  auto parsed = migration::parse_params(
      *inst, {a.alpha, a.sequence, a.tie, a.k == -1 ? "" : std::to_string(a.k), a.pick_p, a.x, a.bars});
  if (!parsed) return usage_error(parsed.error().message);
  const migration::Params params = *parsed;
  auto blocks = migration::parse_blocks(*inst, a.blocks);
  if (!blocks) return usage_error(blocks.error().message);
  const migration::Plan plan = migration::migrate(*inst, *blocks, params);
  std::vector<std::pair<std::string, Violation>> checks = {
      {"valid", migration::check_plan_paths_valid(plan)},
      {"two_paths", migration::check_plan_complete(plan)},
      {"no_block_link", migration::check_plan_no_block_link(plan)},
      {"t_links", migration::check_plan_t_links(plan)},
      {"length", migration::check_plan_length(plan)}};
  for (auto d : migration::kAllDisjointness) {
    checks.emplace_back("pair_disjoint." + migration::to_string(d), migration::check_plan_pairs_disjoint(plan, d));
    checks.emplace_back("all_disjoint." + migration::to_string(d), migration::check_plan_all_disjoint(plan, d));
  }
  if (a.json) {
    json out = plan.to_json();
    for (const auto& [name, v] : checks) out["checks"][name] = v ? json(*v) : json("holds");
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << plan.to_text();
  for (const auto& [name, v] : checks) std::cout << fmt::format("  {:28} {}\n", name, v ? "fails: " + *v : "holds");
  return kExitOk;
}

struct LatencyArgs {
  double M = 0, B = 0, X = 0, startup = 0;
  int zeta = -1, beta = -1;
  std::string S, T;
  bool json = false;
};

// Section 5's latency model: single path (X/B)(zeta+beta) + M/B against two paths
// (X/B)(zeta+2beta) + M/(2B), each plus the start-up latency.
int cmd_migration_latency(const LatencyArgs& a) {
  if (!(a.M > 0)) return usage_error("--M: the message length must be positive");
  if (!(a.B > 0)) return usage_error("--B: the channel bandwidth must be positive");
  if (a.X < 0) return usage_error("--X: the control message / flit length must be >= 0");
  if (a.startup < 0) return usage_error("--startup: must be >= 0");
  int zeta = a.zeta, beta = a.beta;
  if (!a.S.empty() || !a.T.empty()) {
    auto inst = migration::parse_instance(a.S, a.T);
    if (!inst) return usage_error(inst.error().message);
    zeta = inst->zeta();
    beta = inst->beta();
  }
  if (zeta < 0 || beta < 0) return usage_error("--zeta and --beta (or --S and --T) are required, both >= 0");
  const auto l = migration::latency(a.M, a.B, a.X, zeta, beta, a.startup);
  if (a.json) {
    std::cout << json{{"zeta", zeta}, {"beta", beta}, {"single", l.single}, {"dual", l.dual},
                      {"speedup", l.speedup()}, {"reduction", l.reduction()}}
                     .dump()
              << "\n";
    return kExitOk;
  }
  std::cout << fmt::format("zeta = {}, beta = {}\nsingle path (P = {}): {:.6g}\ntwo paths   (P = {}): {:.6g}\n"
                           "speedup {:.4f}, latency reduction {:.2f}%\n",
                           zeta, beta, zeta + beta, l.single, zeta + 2 * beta, l.dual, l.speedup(),
                           100 * l.reduction());
  return kExitOk;
}


struct AapcArgs {
  int n = 0;
  std::string faults, algorithm = "auto", model = "all_port", dims, link, check, csv, svg, out, frame = "canonical";
  int d = -1, d1 = -1, d2 = -1;
  bool schedule = false, json = false, table = false;
  int max_n = 8;
  double exact_seconds = 20;
};

// `simulate aapc`: generate one of the paper's schedules (or read the user's with --check), judge
// it with the schedule checker, print its length per step against the paper's counts and the
// lower bound; optionally the data on one link per step (the Q_3 example), the whole schedule,
// and the link-use CSV/SVG views.
int cmd_simulate_aapc(const AapcArgs& a) {
  auto model = aapc::parse_model(a.model);
  if (!model) return usage_error(model.error().message);
  std::optional<std::pair<aapc::NodeId, aapc::NodeId>> link;
  if (!a.link.empty()) {
    const size_t dash = a.link.find('-');
    unsigned long x = 0, y = 0;
    try {
      size_t used = 0;
      if (dash == std::string::npos) throw std::invalid_argument("no dash");
      x = std::stoul(a.link.substr(0, dash), &used);
      if (used != dash) throw std::invalid_argument("junk");
      y = std::stoul(a.link.substr(dash + 1), &used);
      if (used != a.link.size() - dash - 1) throw std::invalid_argument("junk");
    } catch (const std::exception&) {
      return usage_error(fmt::format("--link: '{}' is not of the form a-b (two node numbers)", a.link));
    }
    link = std::pair<aapc::NodeId, aapc::NodeId>{static_cast<aapc::NodeId>(x), static_cast<aapc::NodeId>(y)};
  }
  aapc::Schedule schedule;
  std::optional<aapc::FaultSet> faults;
  std::optional<aapc::RunResult> run;
  if (!a.check.empty()) {
    auto j = read_json_file(a.check);
    if (!j) return report_error(j.error());
    auto in = aapc::schedule_from_json(*j);
    if (!in) return usage_error(fmt::format("{}: {}", a.check, in.error().message));
    schedule = in->schedule;
    faults = in->faults;
  } else {
    if (a.n == 0) return usage_error("--n: required (or --check FILE)");
    auto parsed = aapc::parse_faults(a.n, a.faults);
    if (!parsed) return usage_error(parsed.error().message);
    faults = *parsed;
    aapc::RunRequest req;
    req.faults = *faults;
    auto alg = aapc::parse_algorithm(a.algorithm);
    if (!alg) return usage_error(alg.error().message);
    req.algorithm = *alg;
    req.model = *model;
    auto frame = aapc::parse_frame(a.frame);
    if (!frame) return usage_error(frame.error().message);
    req.options.frame = *frame;
    if (a.d >= 0) req.d = a.d;
    if (a.d1 >= 0) req.d1 = a.d1;
    if (a.d2 >= 0) req.d2 = a.d2;
    if (!a.dims.empty()) {
      auto dims = aapc::parse_dims(a.n, a.dims, "--dims");
      if (!dims) return usage_error(dims.error().message);
      req.dims = *dims;
    }
    auto r = aapc::run_aapc(req);
    if (!r) return usage_error(r.error().message);
    run = std::move(r).value();
    schedule = run->schedule;
  }
  if (link) {
    const aapc::NodeId N = faults->num_nodes();
    const aapc::NodeId x = link->first, y = link->second;
    if (x >= N || y >= N || std::popcount(x ^ y) != 1)
      return usage_error(fmt::format("--link: {}-{} is not a link of Q_{}", x, y, faults->n()));
  }
  const aapc::ScheduleCheck check = aapc::check_schedule(schedule, *faults, *model);
  const aapc::LowerBounds bounds = aapc::lower_bounds(*faults, *model);
  // Every output file is complete before any is written: nothing half-way on a bad path.
  if (!a.out.empty() && !write_output("--out", a.out, aapc::to_json(schedule, *faults).dump() + "\n")) return kExitUsage;
  if (!a.csv.empty() && !write_output("--csv", a.csv, aapc::link_use_csv(schedule))) return kExitUsage;
  if (!a.svg.empty() && !write_output("--svg", a.svg, aapc::link_use_svg(schedule))) return kExitUsage;

  auto paper_step = [&](const std::string& name) -> std::optional<int64_t> {
    if (!run) return std::nullopt;
    for (const auto& [step, units] : run->paper_steps)
      if (step == name) return units;
    return std::nullopt;
  };
  if (a.json) {
    json out;
    out["n"] = faults->n();
    out["faults"] = faults->faulty();
    out["model"] = aapc::to_string(*model);
    if (run) {
      out["algorithm"] = aapc::to_string(run->algorithm);
      out["description"] = run->description;
      out["parameters"] = run->parameters;
      out["paper_units"] = run->paper_units;
      out["paper_formula"] = run->paper_formula;
    } else {
      out["algorithm"] = "schedule from " + a.check;
    }
    out["units"] = check.units;
    out["moves"] = check.moves;
    out["data"] = check.data;
    out["delivered"] = check.delivered;
    out["checker"] = check.ok ? "valid" : "invalid";
    if (!check.ok) out["violation"] = check.violation;
    out["lower_bound"] = bounds.best;
    out["lower_bound_by"] = bounds.attained_by;
    out["steps"] = json::array();
    for (const aapc::Step& st : schedule.steps) {
      json j = {{"name", st.name}, {"units", st.end - st.begin}};
      if (auto p = paper_step(st.name)) j["paper_units"] = *p;
      out["steps"].push_back(j);
    }
    if (link) {
      json l = json::object();
      for (const auto& [step, data] : aapc::data_on_link(schedule, link->first, link->second)) {
        json d = json::array();
        for (const aapc::Datum& datum : data) d.push_back(datum.to_string());
        l[step] = d;
      }
      out["link"] = {{"link", a.link}, {"data", l}};
    }
    if (a.schedule) out["schedule"] = aapc::to_json(schedule, *faults);
    std::cout << out.dump() << "\n";
    return check.ok ? kExitOk : kExitDiffers;
  }
  std::cout << fmt::format("Q_{}, faults {}, {}, model {}\n", faults->n(), faults->to_string(),
                           run ? run->description : "schedule from " + a.check, aapc::to_string(*model));
  std::cout << fmt::format("  {:28} {:>7} {:>7}\n", "step", "units", "paper");
  for (const aapc::Step& st : schedule.steps) {
    auto p = paper_step(st.name);
    std::cout << fmt::format("  {:28} {:>7} {:>7}\n", st.name, st.end - st.begin, p ? std::to_string(*p) : "");
  }
  std::cout << fmt::format("  {:28} {:>7} {:>7}{}\n", "total", check.units, run ? std::to_string(run->paper_units) : "",
                           run ? "  (" + run->paper_formula + ")" : "");
  std::cout << fmt::format("  {:28} {:>7}         ({})\n", "lower bound", bounds.best, bounds.attained_by);
  if (check.ok)
    std::cout << fmt::format("checker: valid ({} data delivered, {} moves)\n", check.delivered, check.moves);
  else
    std::cout << fmt::format("checker: INVALID: {}\n", check.violation);
  if (link) {
    std::cout << fmt::format("data crossing the link {}-{} (either direction), per step:\n", link->first, link->second);
    for (const auto& [step, data] : aapc::data_on_link(schedule, link->first, link->second)) {
      std::vector<std::string> names;  // as a set, in text order (the paper lists them so)
      for (const aapc::Datum& d : data) names.push_back(d.to_string());
      std::sort(names.begin(), names.end());
      std::cout << fmt::format("  {:28} {}\n", step, names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", ")));
    }
  }
  if (a.schedule) std::cout << aapc::to_text(schedule);
  return check.ok ? kExitOk : kExitDiffers;
}


// `simulate aapc --table`: for n = 3..max_n, each fault count the paper's algorithms take (one
// representative fault set each) and each model: the paper's count, the units of the schedule the
// paper's algorithm produces (checked), the lower bound, and the exact minimum by Z3 where it
// finishes within --exact-seconds (n <= 4; or the achieved units when they meet the lower bound),
// as a table or JSON. ">T": Z3 proved no schedule of T units, then ran out of time.
int cmd_aapc_table(int max_n, double exact_seconds, bool as_json) {
  if (max_n < 3 || max_n > aapc::kMaxN) return usage_error(fmt::format("--max-n: {} is outside 3..{}", max_n, aapc::kMaxN));
  if (exact_seconds < 0) return usage_error("--exact-seconds: must be >= 0");
  json rows = json::array();
  if (!as_json)
    std::cout << fmt::format("{:>2} {:<12} {:<12} {:<28} {:>7} {:>8} {:>6} {:>7}\n", "n", "faults", "model", "algorithm",
                             "paper", "achieved", "bound", "exact");
  for (int n = 3; n <= max_n; ++n) {
    const aapc::NodeId N = aapc::NodeId{1} << n;
    // Representative fault sets: none; {N-2}; {6,9} (Example 2's; {1,6} in Q_3); {6,9,17}.
    std::vector<std::vector<aapc::NodeId>> sets = {{}, {N - 2}, n == 3 ? std::vector<aapc::NodeId>{1, 6} : std::vector<aapc::NodeId>{6, 9}};
    if (n >= 6) sets.push_back({6, 9, 17});
    for (const auto& set : sets)
      for (aapc::Model model : aapc::kModels) {
        aapc::RunRequest req;
        req.faults = aapc::FaultSet(n, set);
        req.model = model;
        auto run = aapc::run_aapc(req);
        if (!run) return report_error(run.error());
        const aapc::ScheduleCheck c = aapc::check_schedule(run->schedule, req.faults, model);
        const aapc::LowerBounds lb = aapc::lower_bounds(req.faults, model);
        std::string exact = "-";
        json exact_json = nullptr;
        // The best schedule known: the algorithm's, or (n <= 5) the greedy upper bound's.
        int upper = c.ok ? c.units : std::numeric_limits<int>::max();
        if (upper > lb.best && n <= 5) {
          const aapc::GreedyResult g = aapc::greedy_schedule(req.faults, model, n <= 4 ? 20000 : 200, 1, lb.best);
          if (g.found) upper = std::min(upper, g.units);
        }
        if (upper == lb.best) {
          // A checked schedule as short as a lower bound: the minimum, no solver needed.
          exact = std::to_string(upper);
          exact_json = upper;
        } else if (n <= smt::kAapcSmtMaxN && n <= 4 && exact_seconds > 0) {
          claims::SolverLimits limits;
          limits.timeout_ms = static_cast<unsigned>(exact_seconds * 1000);
          auto e = smt::exact_min_units(req.faults, model, limits, upper);
          if (e && e->status == aapc::MinimumStatus::kMinimum) {
            exact = std::to_string(e->min_units);
            exact_json = e->min_units;
          } else {
            // Unknown: between the best proved lower bound and the shortest checked schedule.
            const int low = e && e->last_unsat >= 0 ? std::max(lb.best, e->last_unsat + 1) : lb.best;
            exact = fmt::format("{}..{}", low, upper);
            exact_json = json{{"at_least", low}, {"at_most", upper}};
          }
        }
        const std::string faults_text = req.faults.to_string();
        const std::string achieved = c.ok ? std::to_string(c.units) : "INVALID";
        rows.push_back({{"n", n}, {"faults", req.faults.faulty()}, {"model", aapc::to_string(model)},
                        {"algorithm", run->description}, {"paper", run->paper_units}, {"achieved", c.ok ? json(c.units) : json("invalid")},
                        {"lower_bound", lb.best}, {"exact", exact_json}});
        if (!as_json)
          std::cout << fmt::format("{:>2} {:<12} {:<12} {:<28} {:>7} {:>8} {:>6} {:>7}\n", n, faults_text,
                                   aapc::to_string(model), run->description, run->paper_units, achieved, lb.best, exact);
      }
  }
  if (as_json) std::cout << json{{"rows", rows}}.dump() << "\n";
  return kExitOk;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"topocheck: executable checks of the claims of five interconnection-network papers", "topocheck"};
  app.require_subcommand(1);
  std::string corpus_option;
  app.add_option("--corpus", corpus_option, "corpus folder (default: $TOPOCHECK_CORPUS or the source tree's corpus/)");

  bool list_json = false;
  auto* list = app.add_subcommand("list", "every claim, reading, method and ledger expectation");
  list->add_flag("--json", list_json, "machine-readable output");

  VerifyArgs verify_args;
  auto* verify = app.add_subcommand("verify", "check every (or every matching) claim and compare with the ledger");
  verify->add_option("claims", verify_args.globs, "claim ids or globs (default: all)");
  verify->add_option("--budget", verify_args.budget, "quick, standard (default) or deep");
  verify->add_option("--seed", verify_args.seed, "base seed of the random methods (default 1)");
  verify->add_option("--jobs", verify_args.jobs, "parallel claim readings (default: cores)");
  verify->add_option("--json", verify_args.json_file, "write the verdicts as JSON to FILE ('-': stdout)");
  verify->add_option("--junit", verify_args.junit_file, "write the verdicts as JUnit XML to FILE");
  verify->add_option("--reading", verify_args.readings,
                     "only the readings matching this glob (repeatable; default: every reading of each claim)")
      ->allow_extra_args(false);  // one glob per --reading: `--reading paper 'metacube.*'` keeps the claim glob
  verify->add_option("--shard", verify_args.shard,
                     "i/N: sweep only the i-th of N slices of every exhaustive sweep (1 <= i <= N; other methods run "
                     "in shard 1; deep adds the sizes swept only sharded); combine the --json reports with `merge`");

  MergeArgs merge_args;
  auto* merge = app.add_subcommand("merge", "combine the --json reports of verify --shard 1/N ... N/N, compare with the ledger");
  merge->add_option("reports", merge_args.files, "the N shard reports (JSON)")->required();
  merge->add_option("--json", merge_args.json_file, "write the merged verdicts as JSON to FILE ('-': stdout)");
  merge->add_option("--junit", merge_args.junit_file, "write the merged verdicts as JUnit XML to FILE");

  bool examples_json = false;
  auto* examples = app.add_subcommand("examples", "reproduce every paper example, print cell-level diffs");
  examples->add_flag("--json", examples_json, "machine-readable output");

  SearchArgs search_args;
  auto* search = app.add_subcommand("search", "search for a counterexample to one claim");
  search->add_option("claim", search_args.claim, "claim id")->required();
  search->add_option("--reading", search_args.reading, "reading (default literal)");
  search->add_option("--seconds", search_args.seconds, "time to spend (default 10)");
  search->add_option("--seed", search_args.seed, "first seed (default 1)");
  search->add_option("--budget", search_args.budget, "sizes of each round (default standard)");
  search->add_flag("--save", search_args.save, "store a new counterexample in the corpus");

  std::string prove_claim, prove_reading = "literal";
  std::vector<std::string> prove_params;
  double prove_timeout = 0;
  uint64_t prove_rlimit = 0;
  bool prove_json = false;
  auto* prove = app.add_subcommand("prove", "prove a claim for fixed parameters with Z3, or refute it");
  prove->add_option("claim", prove_claim, "claim id")->required();
  prove->add_option("--reading", prove_reading, "reading (default literal)");
  prove->add_option("--param", prove_params, "NAME=VALUE, e.g. n=8")->required();
  prove->add_option("--timeout", prove_timeout, "wall-clock safety net in seconds (0: none)");
  prove->add_option("--rlimit", prove_rlimit, "Z3 resource limit (0: the standard budget's)");
  prove->add_flag("--json", prove_json, "machine-readable output");

  std::vector<std::string> replay_paths;
  auto* replay = app.add_subcommand("replay", "re-run every corpus case (or the given files and folders)");
  replay->add_option("paths", replay_paths, "case files or folders");

  std::string show_file, show_format = "text";
  auto* show = app.add_subcommand("show", "print one corpus case");
  show->add_option("case", show_file, "CASE.json")->required();
  show->add_option("--format", show_format, "text (default), json or dot");

  auto* construct = app.add_subcommand("construct", "run one construction on your input");
  construct->require_subcommand(1);
  CubeArgs paths_args, route_args;
  auto* cpaths = construct->add_subcommand("hypercube-paths", "Algorithm 2: n disjoint paths from x to y in Q_n");
  auto* croute = construct->add_subcommand("hypercube-route", "e-cube route from x to y in Q_n");
  for (auto [sub, a] : {std::pair{cpaths, &paths_args}, std::pair{croute, &route_args}}) {
    sub->add_option("--n", a->n, "dimension of the cube")->required();
    sub->add_option("--x", a->x, "source address, n bits, most significant first")->required();
    sub->add_option("--y", a->y, "destination address")->required();
    sub->add_flag("--json", a->json, "JSON output");
  }
  McArgs mc_paths_args, mc_route_args;
  auto* mpaths = construct->add_subcommand("metacube-paths", "Algorithm 4: k+m paths from s to t in MC(k,m)");
  auto* mroute = construct->add_subcommand("metacube-route", "Algorithm 1: a route from s to t in MC(k,m)");
  for (auto [sub, a] : {std::pair{mpaths, &mc_paths_args}, std::pair{mroute, &mc_route_args}}) {
    sub->add_option("--k", a->k, "class-cube dimension")->required();
    sub->add_option("--m", a->m, "cluster dimension")->required();
    sub->add_option("--s", a->s, "source address as printed (class field first), or (c, M[h-1], ..., M[0])")->required();
    sub->add_option("--t", a->t, "destination address")->required();
    sub->add_flag("--json", a->json, "JSON output");
  }
  mpaths->add_option("--reading", mc_paths_args.reading, "paper (default), paper-keybit-example4 or repaired");
  ItmArgs itm_args;
  auto* citm = construct->add_subcommand("itm", "an ITM from its AddNode steps: marking, circular order, checks");
  citm->add_option("--steps", itm_args.steps, "AddNode steps, e.g. \"3:(0,1) 4:(1,3)\" (empty: the triangle)")->required();
  citm->add_option("--rule", itm_args.rule, "exterior (default) or any-edge");
  citm->add_flag("--json", itm_args.json, "JSON output");

  MigrationArgs mig_args;
  auto* cmig = construct->add_subcommand("migration", "Section 4 of the migration paper: two paths from every node of S");
  cmig->add_option("--n", mig_args.n, "cube dimension (optional; must match --S and --T)");
  cmig->add_option("--S", mig_args.S, "source subcube over {0,1,*}, e.g. 0010**")->required();
  cmig->add_option("--T", mig_args.T, "target subcube of the same dimension, e.g. 1*0*00")->required();
  cmig->add_option("--alpha", mig_args.alpha, "bijection D(S)-D(T) -> D(T)-D(S), e.g. 0:2,1:4 (default: in order)");
  cmig->add_option("--blocks", mig_args.blocks, "active subcubes other than S, comma-separated (default none)");
  cmig->add_option("--sequence", mig_args.sequence, "h-extension dimension sequence over D(T)-D(S), e.g. 2,4");
  cmig->add_option("--tie-break", mig_args.tie, "HAMMING-PATH tie-break: ascending (default) or descending");
  cmig->add_option("--k", mig_args.k, "Case b's link k in C(S,T) (default: the smallest)");
  cmig->add_option("--pick-p", mig_args.pick_p, "Section 4.2: first (default) or last eligible p");
  cmig->add_option("--x", mig_args.x, "Section 4.2: X = D_g (default) or D_f of p");
  cmig->add_option("--bars", mig_args.bars, "which cases of f and g complement (default f:=,g:!=, pinned by Fig. 2)");
  cmig->add_flag("--json", mig_args.json, "JSON output");

  LatencyArgs lat_args;
  auto* clat = construct->add_subcommand("migration-latency", "Section 5: single- vs double-path migration latency");
  clat->add_option("--M", lat_args.M, "message length (e.g. bytes)")->required();
  clat->add_option("--B", lat_args.B, "channel bandwidth (length per time unit)")->required();
  clat->add_option("--X", lat_args.X, "M_c (circuit switching) or L_f (wormhole), default 0");
  clat->add_option("--startup", lat_args.startup, "start-up latency in time units (default 0)");
  clat->add_option("--zeta", lat_args.zeta, "|C(S,T)|");
  clat->add_option("--beta", lat_args.beta, "|D(S)-D(T)|");
  clat->add_option("--S", lat_args.S, "source subcube (instead of --zeta/--beta)");
  clat->add_option("--T", lat_args.T, "target subcube");
  clat->add_flag("--json", lat_args.json, "JSON output");

  auto* simulate = app.add_subcommand("simulate", "run a communication algorithm and judge its schedule");
  simulate->require_subcommand(1);
  AapcArgs aapc_args;
  auto* saapc = simulate->add_subcommand("aapc", "fault-tolerant AAPC in Q_n (paper 004): A1, A2, Af, the inner AAPC, or --check FILE");
  saapc->add_option("--n", aapc_args.n, "cube dimension (1..10)");
  saapc->add_option("--faults", aapc_args.faults, "faulty nodes, comma-separated decimal numbers, e.g. 6,9 (default none)");
  saapc->add_option("--algorithm", aapc_args.algorithm, "auto (default: by fault count), inner, A1, A2 or Af");
  saapc->add_option("--model", aapc_args.model, "all_port (default), one_receive or one_port");
  saapc->add_option("--d", aapc_args.d, "A1/A2/Af: the dividing dimension d (defaults: see README)");
  saapc->add_option("--d1", aapc_args.d1, "A2: the dividing dimension of the half with the smaller fault");
  saapc->add_option("--d2", aapc_args.d2, "A2: the dividing dimension of the half with the larger fault");
  saapc->add_option("--dims", aapc_args.dims, "Af: the f dividing dimensions D, e.g. 0,2 (with --d)");
  saapc->add_option("--frame", aapc_args.frame,
                    "A2/Af: canonical (default: run in the canonical frame of the fault set, see README) or absolute");
  saapc->add_option("--link", aapc_args.link, "print the data crossing link a-b per step, e.g. 0-4");
  saapc->add_option("--check", aapc_args.check, "judge the schedule in this JSON file instead of generating one");
  saapc->add_option("--out", aapc_args.out, "write the schedule as JSON to this file");
  saapc->add_option("--csv", aapc_args.csv, "write link use per time unit as CSV to this file");
  saapc->add_option("--svg", aapc_args.svg, "write link use per time unit as SVG to this file");
  saapc->add_flag("--schedule", aapc_args.schedule, "print every move, unit by unit");
  saapc->add_flag("--json", aapc_args.json, "JSON output");
  saapc->add_flag("--table", aapc_args.table, "paper count vs achieved vs lower bound vs exact minimum, n = 3..--max-n");
  saapc->add_option("--max-n", aapc_args.max_n, "--table: the largest n (default 8)");
  saapc->add_option("--exact-seconds", aapc_args.exact_seconds, "--table: Z3 time per exact minimum, n <= 4 (default 20; 0 skips)");

  RoutingArgs routing_args;
  auto* srouting = add_routing_command(simulate, routing_args);
  WormholeArgs wormhole_args;
  auto* swormhole = add_wormhole_command(simulate, wormhole_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    // One line naming the argument; never CLI11's multi-line usage dump.
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    return usage_error(what);
  }

  const fs::path corpus_dir = corpus_option.empty() ? default_corpus_dir() : fs::path(corpus_option);
  const claims::Registry registry = full_registry();
  if (*list) return cmd_list(registry, corpus_dir, list_json);
  if (*verify) return cmd_verify(registry, corpus_dir, verify_args);
  if (*merge) return cmd_merge(corpus_dir, merge_args);
  if (*examples) return cmd_examples(registry, corpus_dir, examples_json);
  if (*search) return cmd_search(registry, corpus_dir, search_args);
  if (*prove) return cmd_prove(registry, prove_claim, prove_reading, prove_params, prove_timeout, prove_rlimit, prove_json);
  if (*replay) return cmd_replay(registry, corpus_dir, replay_paths);
  if (*show) return cmd_show(show_file, show_format);
  if (*cpaths) return cmd_construct_paths(paths_args);
  if (*croute) return cmd_construct_route(route_args);
  if (*mpaths) return cmd_construct_mc_paths(mc_paths_args);
  if (*mroute) return cmd_construct_mc_route(mc_route_args);
  if (*citm) return cmd_construct_itm(itm_args);
  if (*cmig) return cmd_construct_migration(mig_args);
  if (*clat) return cmd_migration_latency(lat_args);
  if (*srouting) return cmd_simulate_routing(routing_args);
  if (*swormhole) return cmd_simulate_wormhole(wormhole_args);
  if (*saapc) return aapc_args.table ? cmd_aapc_table(aapc_args.max_n, aapc_args.exact_seconds, aapc_args.json)
                                     : cmd_simulate_aapc(aapc_args);
  return usage_error("no command given");
}

}  // namespace topocheck::cli
