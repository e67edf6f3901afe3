#include "cli/replay_cmd.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "claims/runner.h"
#include "cli/app.h"
#include "cli/output.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;

// Every case under the corpus folder, or under the given files and folders, judged on load
// (corpus/loader.h), with no input given twice.
Result<std::vector<corpus::Case>> load_paths(const claims::Registry& registry, const fs::path& corpus_dir,
                                             const std::vector<std::string>& paths) {
  if (paths.empty()) return corpus::load_corpus(corpus_dir, registry);
  std::vector<corpus::Case> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      auto more = corpus::load_corpus(p, registry);
      if (!more) return more.error();
      out.insert(out.end(), more->begin(), more->end());
    } else if (fs::exists(p, ec)) {
      auto c = corpus::load_checked_case(p, registry);
      if (!c) return c.error();
      out.push_back(std::move(c).value());
    } else {
      return parse_error("no such file or folder", p);
    }
  }
  if (auto e = corpus::find_duplicates(out)) return *e;
  return out;
}

int cmd_replay(const claims::Registry& registry, const fs::path& corpus_dir, const std::vector<std::string>& paths) {
  auto cases = load_paths(registry, corpus_dir, paths);
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

}  // namespace

Command add_replay_command(CLI::App& app, const Session& session) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto* replay = app.add_subcommand("replay", "re-run every corpus case (or the given files and folders)");
  replay->add_option("paths", *paths, "case files or folders");
  return {replay, [&session, paths] { return cmd_replay(session.registry(), session.corpus_dir(), *paths); }};
}

}  // namespace topocheck::cli
