// `topocheck report` (report_cmd.h): reads a verify report (or runs verify into a temporary one),
// then writes the findings site.
#include "cli/report_cmd.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "claims/ledger.h"
#include "claims/report.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "corpus/loader.h"
#include "site/findings.h"
#include "site/site.h"

extern char** environ;

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::string html, from, budget = "standard";
  uint64_t seed = 1;
  int jobs = 0;
  bool rerun = false;
  std::string findings;  // --findings DIR
  bool check = false;
};

// Runs `<this binary> --corpus DIR verify --budget B --seed S [--jobs J] --json FILE`; its
// progress and table go to stderr. Returns verify's exit status, or an error if it cannot run.
Result<int> run_verify(const fs::path& corpus_dir, const ReportArgs& args, const fs::path& json) {
  std::vector<std::string> argv = {"/proc/self/exe", "--corpus", corpus_dir.string(), "verify", "--budget", args.budget,
                                   "--seed", std::to_string(args.seed), "--json", json.string()};
  if (args.jobs > 0) argv.insert(argv.end(), {"--jobs", std::to_string(args.jobs)});
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  // The child's stdout (the verdict table) goes to our stderr: stdout stays free for the result.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return Error{ErrorCode::kInternal, fmt::format("cannot run verify: {}", std::strerror(rc)), {}, 0};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return Error{ErrorCode::kInternal, fmt::format("waiting for verify: {}", std::strerror(errno)), {}, 0};
  if (!WIFEXITED(status)) return Error{ErrorCode::kInternal, "verify did not exit normally", {}, 0};
  return WEXITSTATUS(status);
}

// --findings: the generated verdict tables of docs/findings/ rewritten (or, with --check, compared).
int cmd_findings(const claims::Registry& registry, const fs::path& corpus_dir, const ReportArgs& args) {
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());
  auto cases = corpus::load_corpus(corpus_dir, registry);
  if (!cases) return report_error(cases.error());
  auto changed = site::update_findings(args.findings, registry, *ledger, *cases, corpus_dir, args.check);
  if (!changed) return report_error(changed.error());
  for (const fs::path& page : *changed)
    std::printf("%s: %s\n", page.string().c_str(), args.check ? "its generated tables differ from the ledger's and the corpus's" : "rewritten");
  if (args.check && !changed->empty()) {
    std::fprintf(stderr, "topocheck report --findings --check: %zu page(s) differ; run `./topocheck report --findings %s`\n",
                 changed->size(), args.findings.c_str());
    return kExitDiffers;
  }
  if (changed->empty()) std::printf("topocheck report --findings: every generated table is the ledger's and the corpus's\n");
  return kExitOk;
}

int cmd_report(const claims::Registry& registry, const fs::path& corpus_dir, const ReportArgs& args) {
  if (args.html.empty() == args.findings.empty())
    return usage_error("--html or --findings: give exactly one (the site's folder, or docs/findings to regenerate)");
  if (!args.findings.empty()) return cmd_findings(registry, corpus_dir, args);
  if (args.check) return usage_error("--check: only with --findings");
  if (!claims::parse_budget(args.budget))
    return usage_error(fmt::format("--budget: '{}' is not quick, standard or deep", args.budget));
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());

  std::string report_file = args.from;
  fs::path scratch;
  bool kept = false;
  if (report_file.empty() && !args.rerun && fs::is_regular_file(last_verify_report())) {
    report_file = last_verify_report().string();
    kept = true;
    std::fprintf(stderr, "topocheck report: the last verify run's report (%s; --rerun runs verify again)\n",
                 report_file.c_str());
  }
  if (report_file.empty()) {
    char pattern[] = "/tmp/topocheck-report.XXXXXX";
    if (::mkdtemp(pattern) == nullptr) return report_error(Error{ErrorCode::kInternal, "cannot create a temporary folder", {}, 0});
    scratch = pattern;
    report_file = (scratch / "verify.json").string();
    std::fprintf(stderr, "topocheck report: running verify (budget %s, seed %llu) for the site\n", args.budget.c_str(),
                 static_cast<unsigned long long>(args.seed));
    auto rc = run_verify(corpus_dir, args, report_file);
    if (!rc || (*rc != kExitOk && *rc != kExitDiffers && *rc != kExitInconclusive)) {
      std::error_code ignored;
      fs::remove_all(scratch, ignored);
      if (!rc) return report_error(rc.error());
      return report_error(Error{ErrorCode::kInvalidArgument, fmt::format("verify failed (exit {}): no site written", *rc), {}, 0});
    }
  }
  auto cleanup = [&] {
    std::error_code ignored;
    if (!scratch.empty()) fs::remove_all(scratch, ignored);
  };
  auto j = read_json_file(report_file);
  if (!j) return cleanup(), report_error(j.error());
  auto parsed = claims::shard_report_from_json(*j, report_file);
  if (!parsed) return cleanup(), report_error(parsed.error());
  if (parsed->shard && parsed->shard->count > 1)
    return cleanup(), usage_error(fmt::format("--from {}: the report of one shard ({}): merge the shards first (`topocheck merge`)",
                                              report_file, parsed->shard->to_string()));
  // A whole (or merged) report is read back as the one shard of a run of one: merge_shards then
  // combines each reading's methods into its verdict, exactly as `merge` does.
  claims::ShardReport whole = std::move(parsed).value();
  if (!whole.shard) whole.shard = claims::Shard{1, 1};
  auto merged = claims::merge_shards({whole});
  if (!merged) return cleanup(), report_error(merged.error());
  site::SiteInput in;
  in.registry = &registry;
  in.ledger = &*ledger;
  in.verdicts = merged->verdicts;
  in.budget = merged->budget;
  in.seed = merged->seed;
  in.date = merged->date;
  in.report = !args.from.empty() ? fs::path(args.from).filename().string()
              : kept           ? "the last `topocheck verify` run"
                               : "a verify run made for this site";
  in.corpus_dir = corpus_dir;
  // The report's verdicts against today's ledger (a report may predate a ledger change).
  claims::compare_with_ledger(in.verdicts, *ledger, in.budget, corpus_dir, false, claims::CertifyFn());
  auto written = site::write_site(in, args.html);
  cleanup();
  if (!written) return report_error(written.error());
  size_t differing = 0;
  for (const auto& v : in.verdicts) differing += v.matches ? 0 : 1;
  std::printf("topocheck report: %zu files in %s (index.html)%s\n", *written, args.html.c_str(),
              differing ? fmt::format("; {} claim readings differ from the ledger (shown on the site)", differing).c_str() : "");
  return kExitOk;
}

}  // namespace

Command add_report_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<ReportArgs>();
  auto* report = app.add_subcommand("report", "write the findings site (one page per paper) from a verify report");
  report->add_option("--html", args->html, "the site's folder (replaced whole when the new site is complete)");
  report->add_option("--findings", args->findings, "regenerate the verdict tables of the findings pages in this folder (docs/findings)");
  report->add_flag("--check", args->check, "with --findings: write nothing, exit 1 if a table differs from the ledger's");
  add_file_option(*report, "--from", args->from, "a verify --json report (default: the last verify run's, else run verify first)");
  report->add_option("--budget", args->budget, "when verify is run for the site: its budget (default standard)");
  add_seed_option(*report, "--seed", args->seed, "when verify is run for the site: its seed (default 1)");
  add_int_option(*report, "--jobs", args->jobs, 1, kMaxJobs, "when verify is run for the site: parallel claim readings");
  report->add_flag("--rerun", args->rerun, "run verify again even when the last verify run's report is kept");
  return {report, [&session, args] { return cmd_report(session.registry(), session.corpus_dir(), *args); }};
}

}  // namespace topocheck::cli
