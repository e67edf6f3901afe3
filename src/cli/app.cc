#include "cli/app.h"

#include <algorithm>

#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/aapc_cmd.h"
#include "cli/check_cmd.h"
#include "cli/command.h"
#include "cli/construct_cmd.h"
#include "cli/examples_cmd.h"
#include "cli/list_cmd.h"
#include "cli/output.h"
#include "cli/prove_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/report_cmd.h"
#include "cli/routing_cmd.h"
#include "cli/search_cmd.h"
#include "cli/show_cmd.h"
#include "cli/plan_cmd.h"
#include "cli/verify_cmd.h"
#include "cli/wormhole_cmd.h"

namespace topocheck::cli {
namespace {

// A verb whose sub-verbs are the commands (construct, simulate). It is declared with its first
// sub-verb, so that --help lists the verbs in the order of the table in run().
class VerbGroup {
 public:
  VerbGroup(CLI::App& app, std::string name, std::string description)
      : app_(app), name_(std::move(name)), description_(std::move(description)) {}
  CLI::App& operator()() {
    if (!sub_) {
      sub_ = app_.add_subcommand(name_, description_);
      sub_->require_subcommand(1);
    }
    return *sub_;
  }

 private:
  CLI::App& app_;
  std::string name_, description_;
  CLI::App* sub_ = nullptr;
};

// The verbs (and sub-verbs of construct / simulate) named on the command line must exist: an
// unknown one is an error naming it and listing the verbs there are (CLI11 would only say that a
// subcommand is required). Options are skipped; --corpus takes a value.
std::optional<std::string> unknown_verb(const CLI::App& app, int argc, char** argv) {
  const CLI::App* at = &app;
  std::string where = "command";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--corpus") {
      ++i;
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;  // a command's own arguments
    const CLI::App* next = nullptr;
    std::string names;
    for (const CLI::App* sub : subs) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      if (sub->get_name() == arg) next = sub;
    }
    if (!next) return fmt::format("unknown {} '{}'; {}s: {}", where, arg, where, names);
    where = next->get_name() + " command";
    at = next;
  }
  // A verb group (construct, simulate, check) named without one of its commands.
  const bool help = std::any_of(argv + 1, argv + argc, [](const char* a) { return std::string(a) == "--help" || std::string(a) == "-h"; });
  if (at != &app && !help) {
    const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
    if (!subs.empty()) {
      std::string names;
      for (const CLI::App* sub : subs) names += (names.empty() ? "" : ", ") + sub->get_name();
      return fmt::format("{} needs one of its commands: {}", at->get_name(), names);
    }
  }
  return std::nullopt;
}

// Parses the command line; nullopt on success, else the exit code (help printed, or the
// one-line error).
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  if (auto unknown = unknown_verb(app, argc, argv)) return usage_error(*unknown);
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
  return std::nullopt;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"topocheck: executable checks of the claims of five interconnection-network papers", "topocheck"};
  app.require_subcommand(1);
  Session session;
  app.add_option("--corpus", session.corpus_option,
                 "corpus folder (default: $TOPOCHECK_CORPUS or the source tree's corpus/)");
  VerbGroup construct(app, "construct", "run one construction on your input");
  VerbGroup simulate(app, "simulate", "run a communication algorithm and judge its schedule");
  VerbGroup check(app, "check", "judge your own artefact (a path system, an AAPC schedule, a routing table, an ITM) with the suite's checkers");

  // Every command, in the order of --help.
  const Command commands[] = {
      add_list_command(app, session),
      add_verify_command(app, session),
      add_merge_command(app, session),
      add_plan_command(app, session),
      add_examples_command(app, session),
      add_search_command(app, session),
      add_prove_command(app, session),
      add_replay_command(app, session),
      add_show_command(app, session),
      add_report_command(app, session),
      add_hypercube_paths_command(construct()),
      add_hypercube_route_command(construct()),
      add_metacube_paths_command(construct()),
      add_metacube_route_command(construct()),
      add_itm_command(construct()),
      add_migration_command(construct()),
      add_migration_latency_command(construct()),
      add_aapc_command(simulate()),
      add_routing_command(simulate()),
      add_wormhole_command(simulate()),
      add_check_paths_command(check()),
      add_check_schedule_command(check()),
      add_check_routing_command(check()),
      add_check_itm_command(check()),
  };

  if (const auto code = parse(app, argc, argv)) return *code;
  for (const Command& command : commands)
    if (*command.sub) return command.run();
  return usage_error("no command given");
}

}  // namespace topocheck::cli
