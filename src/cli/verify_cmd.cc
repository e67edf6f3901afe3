#include "cli/verify_cmd.h"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "claims/ledger.h"
#include "claims/report.h"
#include "claims/runner.h"
#include "cli/app.h"
#include "cli/certify.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "core/output_file.h"
#include "corpus/loader.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// verify

// Now, UTC, ISO 8601 to the second ("2026-11-29T16:40:00Z"): the "date" of a verify report.
std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  ::gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

struct VerifyArgs {
  std::vector<std::string> globs;
  std::string budget = "standard";
  uint64_t seed = 1;
  int jobs = 0;
  std::string json_file, junit_file;
  std::string shard;  // "i/N", empty: not sharded
  std::vector<std::string> readings;  // --reading globs, empty: every reading
  bool no_certify = false;            // --no-certify
};

// The certifying function for the cases the ledger names for the readings this run may refute;
// null with --no-certify (said on stderr).
Result<claims::CertifyFn> certifier_for(const claims::Ledger& ledger, claims::Budget budget, const fs::path& corpus_dir,
                                        bool no_certify,
                                        const std::function<bool(const std::string&, const std::string&)>& selected) {
  if (no_certify) {
    std::fprintf(stderr, "topocheck: --no-certify: refutations are not checked by the independent certificate checker\n");
    return claims::CertifyFn();
  }
  return run_certifier(corpus_dir, cases_to_certify(ledger, budget, selected));
}

int cmd_verify(const claims::Registry& registry, const fs::path& corpus_dir, const VerifyArgs& args) {
  auto budget = claims::parse_budget(args.budget);
  if (!budget) return usage_error(fmt::format("--budget: '{}' is not quick, standard or deep", args.budget));
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
  // Every stored case judged before any claim runs, and before the ledger that names them: a bad
  // file is exit 2 naming it, never a difference of the reading that reads it.
  std::set<std::string> chosen;
  for (const claims::Claim* c : *selected) chosen.insert(c->id);
  if (auto cases = corpus::load_corpus(corpus_dir, registry,
                                       [&](const corpus::Case& c) { return chosen.count(c.claim) > 0; });
      !cases)
    return report_error(cases.error());
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());

  // Each --reading glob must select a reading of the selected claims (a typo must not run nothing).
  for (const std::string& g : args.readings) {
    bool any = false;
    for (const claims::Claim* c : *selected)
      for (const claims::Reading& r : c->readings) any = any || claims::reading_selected({g}, r.name);
    if (!any)
      return usage_error(fmt::format("--reading: '{}' matches no reading of the selected claims (see `topocheck list`)", g));
  }
  auto certify = certifier_for(*ledger, *budget, corpus_dir, args.no_certify,
                               [&](const std::string& claim, const std::string& reading) {
                                 return claims::reading_selected(args.readings, reading) &&
                                        std::any_of(selected->begin(), selected->end(),
                                                    [&](const claims::Claim* c) { return c->id == claim; });
                               });
  if (!certify) return report_error(certify.error());
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
  options.certify = *certify;
  // Each verdict as its reading finishes, on stderr (the table at the end is the report).
  const bool color = ::isatty(::fileno(stderr)) != 0;
  size_t done = 0;
  options.on_verdict = [&](const claims::ReadingVerdict& v) {
    progress.clear();
    std::fputs(claims::render_verdict_line(v, ++done, readings, color).c_str(), stderr);
    std::fflush(stderr);
  };
  const std::string started = utc_now();
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
  nlohmann::json j = claims::verdicts_to_json(verdicts, *budget, args.seed, jobs, shard);
  j["date"] = started;
  // A run of every claim reading is also kept beside the binary, for `report` (report_cmd.h).
  if (args.globs.empty() && args.readings.empty() && !shard)
    if (auto kept = write_file(last_verify_report(), j.dump(1) + "\n"); !kept)
      std::fprintf(stderr, "topocheck verify: the report was not kept for `report`: %s\n", kept.error().to_string().c_str());
  return report_verdicts(verdicts, stale, args.json_file, args.junit_file, j, *budget);
}

// ---------------------------------------------------------------------------------------------
// merge

struct MergeArgs {
  std::vector<std::string> files;
  std::string json_file, junit_file;
  bool no_certify = false;
};

int cmd_merge(const claims::Registry& registry, const fs::path& corpus_dir, const MergeArgs& args) {
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
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());
  std::set<std::string> merged_claims;
  for (const auto& v : merged->verdicts) merged_claims.insert(v.claim);
  if (auto cases = corpus::load_corpus(corpus_dir, registry,
                                       [&](const corpus::Case& c) { return merged_claims.count(c.claim) > 0; });
      !cases)
    return report_error(cases.error());
  std::fprintf(stderr, "topocheck merge: %d shard reports, budget %s, seed %llu, %zu reading(s)\n", merged->count,
               claims::to_string(merged->budget).c_str(), static_cast<unsigned long long>(merged->seed),
               merged->verdicts.size());
  std::vector<claims::ReadingVerdict> verdicts = merged->verdicts;
  auto certify = certifier_for(*ledger, merged->budget, corpus_dir, args.no_certify,
                               [&](const std::string& claim, const std::string& reading) {
                                 return std::any_of(verdicts.begin(), verdicts.end(), [&](const auto& v) {
                                   return v.claim == claim && v.reading == reading;
                                 });
                               });
  if (!certify) return report_error(certify.error());
  claims::compare_with_ledger(verdicts, *ledger, merged->budget, corpus_dir, false, *certify);
  nlohmann::json j = claims::verdicts_to_json(verdicts, merged->budget, merged->seed, 0, std::nullopt, merged->count);
  if (!merged->date.empty()) j["date"] = merged->date;  // the earliest shard's
  return report_verdicts(verdicts, {}, args.json_file, args.junit_file, j, merged->budget);
}

}  // namespace

Command add_verify_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<VerifyArgs>();
  auto* verify = app.add_subcommand("verify", "check every (or every matching) claim and compare with the ledger");
  verify->add_option("claims", args->globs, "claim ids or globs (default: all)");
  verify->add_option("--budget", args->budget, "quick, standard (default) or deep");
  add_seed_option(*verify, "--seed", args->seed, "base seed of the random methods (default 1)");
  add_int_option(*verify, "--jobs", args->jobs, 1, kMaxJobs, "parallel claim readings (default: cores)");
  add_file_option(*verify, "--json", args->json_file, "write the verdicts as JSON to FILE ('-': stdout)");
  add_file_option(*verify, "--junit", args->junit_file, "write the verdicts as JUnit XML to FILE");
  verify->add_option("--reading", args->readings,
                     "only the readings matching this glob (repeatable; default: every reading of each claim)")
      ->allow_extra_args(false);  // one glob per --reading: `--reading paper 'metacube.*'` keeps the claim glob
  verify->add_option("--shard", args->shard,
                     "i/N: sweep only the i-th of N slices of every exhaustive sweep (1 <= i <= N; every other "
                     "method runs whole in one shard, dealt round-robin; deep adds the sizes swept only sharded); combine the --json reports with `merge`");
  verify->add_flag("--no-certify", args->no_certify,
                    "do not hand the ledger's refutation cases to the independent certificate checker (certify/)");
  return {verify, [&session, args] { return cmd_verify(session.registry(), session.corpus_dir(), *args); }};
}

Command add_merge_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<MergeArgs>();
  auto* merge = app.add_subcommand("merge", "combine the --json reports of verify --shard 1/N ... N/N, compare with the ledger");
  merge->add_option("reports", args->files, "the N shard reports (JSON)")->required();
  add_file_option(*merge, "--json", args->json_file, "write the merged verdicts as JSON to FILE ('-': stdout)");
  add_file_option(*merge, "--junit", args->junit_file, "write the merged verdicts as JUnit XML to FILE");
  merge->add_flag("--no-certify", args->no_certify,
                   "do not hand the ledger's refutation cases to the independent certificate checker (certify/)");
  return {merge, [&session, args] { return cmd_merge(session.registry(), session.corpus_dir(), *args); }};
}

}  // namespace topocheck::cli
