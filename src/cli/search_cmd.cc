#include "cli/search_cmd.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "claims/ledger.h"
#include "claims/runner.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/search_external.h"
#include "core/output_file.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;

// --seconds at most a week.
constexpr double kMaxSearchSeconds = 7 * 24 * 3600.0;

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
  if (std::none_of(reading->methods.begin(), reading->methods.end(),
                   [](const auto& m) { return m.first != claims::Method::kExample; }))
    return usage_error(fmt::format("CLAIM: {} has no searchable method", args.claim));
  auto ledger = claims::load_ledger(corpus_dir / "ledger.json", registry);
  if (!ledger) return report_error(ledger.error());
  if (auto cases = corpus::load_corpus(corpus_dir, registry,
                                       [&](const corpus::Case& c) { return c.claim == args.claim; });
      !cases)
    return report_error(cases.error());
  TerminalProgress progress;
  std::fprintf(stderr, "topocheck search %s [%s]: budget %s, seed %llu, %.0f s\n", args.claim.c_str(),
               args.reading.c_str(), args.budget.c_str(), static_cast<unsigned long long>(args.seed), args.seconds);
  claims::SearchOptions options;
  options.run.budget = *budget;
  options.run.seed = args.seed;
  options.run.progress = &progress;
  options.run.corpus_dir = corpus_dir;
  options.seconds = args.seconds;
  // The search stops itself at its deadline through the methods' progress reports; a method that
  // reports too rarely is cut off here, a quarter second after the deadline: the watchdog prints the
  // outcome (nothing found; the search writes nothing before it has found something) and ends the
  // process.
  std::mutex finishing;
  std::condition_variable done_cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock lock(finishing);
    const auto limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(args.seconds + 0.25);
    if (done_cv.wait_until(lock, limit, [&] { return done; })) return;
    progress.clear();
    std::printf("no counterexample: stopped at the time limit within a round, first seed %llu\n",
                static_cast<unsigned long long>(args.seed));
    const bool written = finish_stdout().ok();
    if (!written) std::fprintf(stderr, "topocheck: stdout: error: write failed\n");
    temporaries::unlink_all();  // _Exit runs no destructors: a corpus case being written leaves no temporary
    std::_Exit(written ? kExitOk : kExitUsage);
  });
  const claims::SearchOutcome found = claims::search(*claim, *reading, *ledger, options);
  {
    std::lock_guard lock(finishing);
    done = true;
  }
  done_cv.notify_one();
  watchdog.join();
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
  std::cout << fmt::format("no counterexample: {} cases in {} round(s){}, first seed {}\n", found.cases, found.rounds,
                           found.stopped ? " (stopped at the time limit within a round)" : "", args.seed);
  return kExitOk;
}

}  // namespace

Command add_search_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<SearchArgs>();
  auto ext = std::make_shared<ExternalSearchArgs>();
  auto* search = app.add_subcommand(
      "search", "search for a counterexample to one claim, or (--external) to your own path construction");
  search->add_option("claim", args->claim, "claim id (not with --external)");
  search->add_option("--reading", args->reading, "reading (default literal)");
  auto* seconds = add_float_option(*search, "--seconds", args->seconds, 0, kMaxSearchSeconds,
                                   "time to spend, honoured within a round (default 10; with --external 60)", true);
  add_seed_option(*search, "--seed", args->seed, "first seed (default 1)");
  search->add_option("--budget", args->budget, "sizes of each round (default standard)");
  search->add_flag("--save", args->save,
                   "store a new counterexample in the corpus (with --external: in the folder --corpus names)");
  auto* external = search->add_option(
      "--external", ext->program,
      "your construction as a program (run by sh -c): reads {topology, s, t} as JSON on stdin, writes {\"paths\": [...]}");
  search->add_option("--topology", ext->topology, "with --external: hypercube:N (Q_1..Q_N) or metacube:K,M (default hypercube:8)")
      ->needs(external);
  search->add_option("--disjoint", ext->disjoint, "with --external: node (default), link, directed-link or none")->needs(external);
  add_int_option(*search, "--max-length", ext->max_length, 0, 65536, "with --external: every path at most this many hops")
      ->needs(external);
  search->add_flag("--fault-tolerance", ext->fault_tolerance, "with --external: also check fault tolerance")->needs(external);
  search->add_option("--checks", ext->checks,
                     "with --external: the checks that count, comma-separated (default all; a failed run always counts)")
      ->needs(external);
  add_int_option(*search, "--cases", ext->cases, 1, 1000000, "with --external: inputs to try (default 100)")->needs(external);
  add_float_option(*search, "--timeout", ext->timeout, 0.001, 3600, "with --external: seconds per run of the program (default 10)", true)
      ->needs(external);
  add_file_option(*search, "--json", ext->json_file, "with --external: also write the outcome as JSON to FILE")->needs(external);
  return {search, [&session, args, ext, external, seconds] {
            if (external->count() == 0) {
              if (args->claim.empty()) return usage_error("CLAIM: give a claim id, or --external PROGRAM");
              return cmd_search(session.registry(), session.corpus_dir(), *args);
            }
            if (!args->claim.empty()) return usage_error("CLAIM: not with --external (the claim is your program's)");
            if (args->reading != "literal" || args->budget != "standard")
              return usage_error("--reading/--budget: not with --external");
            ext->seed = args->seed;
            ext->save = args->save;
            if (seconds->count() > 0) ext->seconds = args->seconds;
            // Only an explicit --corpus: the default corpus is the suite's own.
            return cmd_search_external(*ext, session.corpus_option.empty() ? std::filesystem::path()
                                                                            : std::filesystem::path(session.corpus_option));
          }};
}

}  // namespace topocheck::cli
