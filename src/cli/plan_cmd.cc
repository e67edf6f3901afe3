#include "cli/plan_cmd.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "claims/report.h"
#include "claims/runner.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "core/output_file.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kMaxShards = 100000;

struct PlanArgs {
  std::vector<std::string> globs, readings;
  std::string budget = "standard";
  uint64_t seed = 1;
  int shards = 0;
  std::string out;
  bool slurm = false, local = false;
  std::string partition, time = "24:00:00";
  int cpus = 1;
  int jobs = 0;
  // The scripts' steps.
  int run_shard = 0;
  bool missing = false, merge = false;
};

struct Plan {
  std::vector<std::string> claims, readings;
  std::string budget;
  uint64_t seed = 1;
  int shards = 1;
  int cpus = 1;
  std::string topocheck, corpus;

  json to_json() const {
    return {{"version", 1}, {"claims", claims}, {"readings", readings}, {"budget", budget}, {"seed", seed},
            {"shards", shards}, {"cpus", cpus}, {"topocheck", topocheck}, {"corpus", corpus}};
  }
  fs::path shard_file(const fs::path& dir, int i) const { return dir / fmt::format("shard-{}.json", i); }
};

Result<Plan> plan_from_json(const json& j, const std::string& file) {
  try {
    Plan p;
    if (j.at("version") != 1) return parse_error("version: not 1", file);
    p.claims = j.at("claims").get<std::vector<std::string>>();
    p.readings = j.at("readings").get<std::vector<std::string>>();
    p.budget = j.at("budget").get<std::string>();
    p.seed = j.at("seed").get<uint64_t>();
    p.shards = j.at("shards").get<int>();
    p.cpus = j.at("cpus").get<int>();
    p.topocheck = j.at("topocheck").get<std::string>();
    p.corpus = j.at("corpus").get<std::string>();
    if (p.shards < 1 || p.shards > kMaxShards || p.cpus < 1) return parse_error("shards or cpus out of range", file);
    return p;
  } catch (const json::exception& e) {
    return parse_error(fmt::format("not a plan: {}", e.what()), file);
  }
}

Result<Plan> load_plan(const fs::path& dir) {
  const fs::path file = dir / "plan.json";
  std::error_code ec;
  if (!fs::exists(file, ec))
    return invalid_argument(fmt::format("--out {}: no plan.json there (make one with topocheck plan ... --out {})", dir.string(), dir.string()));
  auto j = read_json_file(file);
  if (!j) return j.error();
  return plan_from_json(*j, file.string());
}

// The state of shard i: "" complete, else why not ("missing", or the reason it is corrupt).
std::string shard_state(const Plan& plan, const fs::path& dir, int i) {
  const fs::path file = plan.shard_file(dir, i);
  std::error_code ec;
  if (!fs::exists(file, ec)) return "missing";
  auto j = read_json_file(file);
  if (!j) return j.error().message;
  auto r = claims::shard_report_from_json(*j, file.string());
  if (!r) return r.error().message;
  if (!r->shard || r->shard->index != i || r->shard->count != plan.shards)
    return fmt::format("it is {}, not shard {}/{}", r->shard ? r->shard->to_string() : "unsharded", i, plan.shards);
  if (claims::to_string(r->budget) != plan.budget || r->seed != plan.seed)
    return fmt::format("budget {} seed {}, the plan's are {} and {}", claims::to_string(r->budget), r->seed, plan.budget, plan.seed);
  return "";
}

// "1-3,5,7-8": sbatch's --array list of the shards not complete.
std::string array_list(const std::vector<int>& shards) {
  std::vector<std::string> parts;
  for (size_t k = 0; k < shards.size();) {
    size_t e = k;
    while (e + 1 < shards.size() && shards[e + 1] == shards[e] + 1) ++e;
    parts.push_back(e == k ? std::to_string(shards[k]) : fmt::format("{}-{}", shards[k], shards[e]));
    k = e + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

std::vector<int> incomplete(const Plan& plan, const fs::path& dir, std::map<int, std::string>* why = nullptr) {
  std::vector<int> out;
  for (int i = 1; i <= plan.shards; ++i)
    if (std::string s = shard_state(plan, dir, i); !s.empty()) {
      out.push_back(i);
      if (why) (*why)[i] = s;
    }
  return out;
}

// Runs argv as a child process and waits; its exit status (128 + signal when killed).
int run_child(const std::vector<std::string>& argv) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return kExitInternal;
  if (pid == 0) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "topocheck: error: could not run %s\n", args[0]);
    _exit(kExitInternal);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<std::string> verify_argv(const Plan& plan, const fs::path& dir, int i) {
  std::vector<std::string> argv = {plan.topocheck, "--corpus", plan.corpus, "verify"};
  argv.insert(argv.end(), plan.claims.begin(), plan.claims.end());
  for (const std::string& r : plan.readings) {
    argv.push_back("--reading");
    argv.push_back(r);
  }
  for (const std::string& a : {std::string("--budget"), plan.budget, std::string("--seed"), std::to_string(plan.seed),
                               std::string("--shard"), fmt::format("{}/{}", i, plan.shards), std::string("--jobs"),
                               std::to_string(plan.cpus), std::string("--json"), plan.shard_file(dir, i).string()})
    argv.push_back(a);
  return argv;
}

int cmd_run_shard(const fs::path& dir, int i) {
  auto plan = load_plan(dir);
  if (!plan) return report_error(plan.error());
  if (i < 1 || i > plan->shards) return usage_error(fmt::format("--run-shard: {} is not a shard of 1..{}", i, plan->shards));
  if (shard_state(*plan, dir, i).empty()) {
    std::printf("shard %d/%d: complete, not run again\n", i, plan->shards);
    return kExitOk;
  }
  std::fprintf(stderr, "topocheck plan: shard %d/%d: running\n", i, plan->shards);
  const int code = run_child(verify_argv(*plan, dir, i));
  // A shard is compared with the ledger as one slice only; its verdicts are decided by the merge.
  // So the step succeeds when the report is complete, whatever the comparison said.
  const std::string state = shard_state(*plan, dir, i);
  if (state.empty()) return kExitOk;
  std::fprintf(stderr, "topocheck plan: shard %d/%d: verify exited %d and left no complete report (%s)\n", i, plan->shards,
               code, state.c_str());
  return code == kExitOk ? kExitInternal : code;
}

int cmd_missing(const fs::path& dir) {
  auto plan = load_plan(dir);
  if (!plan) return report_error(plan.error());
  std::cout << array_list(incomplete(*plan, dir)) << "\n";
  return kExitOk;
}

int cmd_merge_plan(const fs::path& dir) {
  auto plan = load_plan(dir);
  if (!plan) return report_error(plan.error());
  std::map<int, std::string> why;
  const std::vector<int> bad = incomplete(*plan, dir, &why);
  if (!bad.empty()) {
    std::vector<std::string> parts;
    for (int i : bad) parts.push_back(fmt::format("shard-{}.json: {}", i, why[i]));
    return usage_error(fmt::format("--merge: {} of {} shards are not complete: {}", bad.size(), plan->shards, fmt::join(parts, "; ")));
  }
  std::vector<std::string> argv = {plan->topocheck, "--corpus", plan->corpus, "merge"};
  for (int i = 1; i <= plan->shards; ++i) argv.push_back(plan->shard_file(dir, i).string());
  for (const std::string& a : {std::string("--json"), (dir / "merged.json").string(), std::string("--junit"),
                               (dir / "merged.xml").string()})
    argv.push_back(a);
  return run_child(argv);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int cmd_local(const Plan& plan, const fs::path& dir, int jobs) {
  const std::vector<int> todo = incomplete(plan, dir);
  std::error_code ec;
  fs::create_directories(dir / "logs", ec);
  std::fprintf(stderr, "topocheck plan --local: %zu of %d shards to run, %d at a time (output in %s/logs)\n", todo.size(),
               plan.shards, jobs, dir.c_str());
  std::map<pid_t, int> running;
  size_t next = 0;
  int failed = 0;
  const auto start = std::chrono::steady_clock::now();
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const int i = todo[next++];
      std::fflush(stdout);
      std::fflush(stderr);
      const pid_t pid = fork();
      if (pid < 0) return kExitInternal;
      if (pid == 0) {
        // Each shard's output in DIR/logs/shard-i.out, as the Slurm tasks' is.
        const std::string log = (dir / "logs" / fmt::format("shard-{}.out", i)).string();
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
          dup2(fd, 1);
          dup2(fd, 2);
          close(fd);
        }
        const std::string shard = std::to_string(i);
        execl(plan.topocheck.c_str(), plan.topocheck.c_str(), "plan", "--out", dir.c_str(), "--run-shard", shard.c_str(),
              static_cast<char*>(nullptr));
        _exit(kExitInternal);
      }
      running[pid] = i;
    }
    int status = 0;
    const pid_t done = wait(&status);
    if (done < 0) break;
    const int i = running[done];
    running.erase(done);
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    failed += !ok;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "topocheck plan --local: shard %d/%d %s at %.0f s\n", i, plan.shards, ok ? "done" : "FAILED", seconds);
  }
  if (failed) return usage_error(fmt::format("--local: {} shard(s) failed; run the plan again to retry only them", failed));
  return cmd_merge_plan(dir);
}

int cmd_plan(const claims::Registry& registry, const fs::path& corpus_dir, const PlanArgs& a) {
  const fs::path dir = a.out;
  if (a.run_shard > 0) return cmd_run_shard(dir, a.run_shard);
  if (a.missing) return cmd_missing(dir);
  if (a.merge) return cmd_merge_plan(dir);
  if (a.slurm == a.local) return usage_error("--slurm or --local: give exactly one (or a step: --run-shard, --missing, --merge)");
  if (a.shards < 1) return usage_error("--shards: give the number of shards (1..100000)");
  for (const auto& [flag, value] : {std::pair{"--partition", a.partition}, std::pair{"--time", a.time}})
    if (value.find_first_of(" \t\n\r'\"#\\$`") != std::string::npos)
      return usage_error(fmt::format("{}: '{}' has a space or a shell character (it goes into an #SBATCH line)", flag, value));
  if (!claims::parse_budget(a.budget)) return usage_error(fmt::format("--budget: '{}' is not quick, standard or deep", a.budget));
  if (a.globs.empty()) return usage_error("CLAIMS: give the claim ids or globs to sweep");
  if (auto selected = claims::select_claims(registry, a.globs); !selected) return usage_error(selected.error().message);
  Plan plan;
  plan.claims = a.globs;
  plan.readings = a.readings;
  plan.budget = a.budget;
  plan.seed = a.seed;
  plan.shards = a.shards;
  plan.cpus = a.cpus;
  std::error_code ec;
  plan.topocheck = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec) return report_error(Error{ErrorCode::kInternal, "cannot find this program's path: " + ec.message(), "/proc/self/exe", 0});
  plan.corpus = fs::absolute(corpus_dir).lexically_normal().string();
  const fs::path abs = fs::absolute(dir).lexically_normal();
  // An existing plan: the same one resumes, another is refused.
  if (fs::exists(abs / "plan.json", ec)) {
    auto old = load_plan(abs);
    if (!old) return report_error(old.error());
    json a_json = old->to_json(), b_json = plan.to_json();
    a_json.erase("topocheck");
    b_json.erase("topocheck");
    if (a_json != b_json)
      return usage_error(fmt::format("--out {}: it holds another plan (plan.json differs); give a new folder", dir.string()));
  }
  std::string files;
  auto write = [&](const std::string& name, const std::string& content) -> bool {
    auto w = write_file(abs / name, content, WriteOptions{true});
    if (!w) {
      report_error(w.error());
      return false;
    }
    files += (files.empty() ? "" : ", ") + name;
    return true;
  };
  if (!write("plan.json", plan.to_json().dump(1) + "\n")) return kExitUsage;
  if (a.local) {
    const int jobs = a.jobs > 0 ? a.jobs : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / plan.cpus);
    return cmd_local(plan, abs, jobs);
  }
  const std::string tc = shell_quote(plan.topocheck), d = shell_quote(abs.string());
  const std::string partition = a.partition.empty() ? "" : fmt::format("#SBATCH --partition={}\n", a.partition);
  fs::create_directories(abs / "logs", ec);
  const std::string array = fmt::format(
      "#!/bin/bash\n"
      "# One shard of the plan in {0}/plan.json per array task (written by topocheck plan).\n"
      "#SBATCH --job-name=topocheck-shards\n"
      "#SBATCH --output={1}/logs/shard-%a.out\n"
      "#SBATCH --cpus-per-task={2}\n"
      "#SBATCH --time={3}\n{4}"
      "exec {5} plan --out {6} --run-shard \"$SLURM_ARRAY_TASK_ID\"\n",
      abs.string(), abs.string(), plan.cpus, a.time, partition, tc, d);
  const std::string merge = fmt::format(
      "#!/bin/bash\n"
      "# Merges every shard of {0}/plan.json into merged.json and merged.xml (written by topocheck plan).\n"
      "#SBATCH --job-name=topocheck-merge\n"
      "#SBATCH --output={0}/logs/merge.out\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --time={1}\n{2}"
      "exec {3} plan --out {4} --merge\n",
      abs.string(), a.time, partition, tc, d);
  const std::string submit = fmt::format(
      "#!/bin/bash\n"
      "# Submits the shards not yet complete as one job array, and the merge after the whole array\n"
      "# (afterok). Run it again after a failure: complete shards are not run again. Extra arguments\n"
      "# go to the array's sbatch (e.g. --hold).\n"
      "set -euo pipefail\n"
      "missing=$({0} plan --out {1} --missing)\n"
      "if [ -z \"$missing\" ]; then\n"
      "  merge=$(sbatch --parsable {2})\n"
      "  echo \"every shard is complete; the merge is job $merge\"\n"
      "  exit 0\n"
      "fi\n"
      "array=$(sbatch --parsable --array=\"$missing\" \"$@\" {3})\n"
      "array=${{array%%;*}}\n"
      "merge=$(sbatch --parsable --dependency=afterok:\"$array\" {2})\n"
      "echo \"shards $missing: job array $array; the merge: job $merge (after the whole array)\"\n",
      tc, d, shell_quote((abs / "merge.sbatch").string()), shell_quote((abs / "array.sbatch").string()));
  if (!write("array.sbatch", array) || !write("merge.sbatch", merge) || !write("submit.sh", submit)) return kExitUsage;
  const std::vector<int> todo = incomplete(plan, abs);
  std::cout << fmt::format("wrote {} in {}\n", files, abs.string());
  std::cout << fmt::format("{} of {} shards to run; submit them and the merge with:\n  bash {}\n", todo.size(), plan.shards,
                           shell_quote((abs / "submit.sh").string()));
  std::cout << fmt::format("(it runs: sbatch --array={} {}; sbatch --dependency=afterok:<array> {})\n",
                           todo.empty() ? "-" : array_list(todo), (abs / "array.sbatch").string(),
                           (abs / "merge.sbatch").string());
  return kExitOk;
}

}  // namespace

Command add_plan_command(CLI::App& app, const Session& session) {
  auto a = std::make_shared<PlanArgs>();
  auto* plan = app.add_subcommand("plan", "lay out a sharded verify run in a folder: Slurm job array + merge, or local");
  plan->add_option("claims", a->globs, "claim ids or globs to sweep");
  plan->add_option("--reading", a->readings, "only these readings (globs)");
  plan->add_option("--budget", a->budget, "quick, standard (default) or deep");
  add_seed_option(*plan, "--seed", a->seed, "base seed (default 1)");
  add_int_option(*plan, "--shards", a->shards, 1, kMaxShards, "number of shards (array tasks)");
  add_file_option(*plan, "--out", a->out, "the plan's folder (created; an existing plan there resumes)")->required();
  plan->add_flag("--slurm", a->slurm, "write array.sbatch, merge.sbatch and submit.sh for a Slurm cluster");
  plan->add_flag("--local", a->local, "run the missing shards on this machine, then merge");
  plan->add_option("--partition", a->partition, "with --slurm: the partition");
  plan->add_option("--time", a->time, "with --slurm: each task's time limit (default 24:00:00)");
  add_int_option(*plan, "--cpus", a->cpus, 1, kMaxJobs, "cores per shard (verify --jobs; default 1)");
  add_int_option(*plan, "--jobs", a->jobs, 1, kMaxJobs, "with --local: shards at a time (default: cores / --cpus)");
  add_int_option(*plan, "--run-shard", a->run_shard, 1, kMaxShards, "step: run shard I of the plan in --out unless complete");
  plan->add_flag("--missing", a->missing, "step: print the shards not complete, as an sbatch --array list");
  plan->add_flag("--merge", a->merge, "step: merge the plan's shards (exit 2 naming any missing or corrupt)");
  return {plan, [&session, a] { return cmd_plan(session.registry(), session.corpus_dir(), *a); }};
}

}  // namespace topocheck::cli
