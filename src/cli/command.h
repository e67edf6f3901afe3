// What every `topocheck` command file exposes: add_<verb>_command(...) declares the CLI11
// subcommand, its options and its action, and returns them as a Command; app.cc's run() is the
// table of these calls. A command's arguments live in its own file, owned by its action.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "claims/claim.h"

namespace CLI {
class App;
}

namespace topocheck::cli {

// What the commands share, resolved after parsing.
class Session {
 public:
  std::string corpus_option;  // --corpus

  // --corpus, else $TOPOCHECK_CORPUS, else the source tree's corpus/.
  std::filesystem::path corpus_dir() const;
  // full_registry(), built on first use only.
  const claims::Registry& registry() const;

 private:
  mutable std::optional<claims::Registry> registry_;
};

struct Command {
  CLI::App* sub;            // parsed: tells whether this command was chosen
  std::function<int()> run;  // the action; returns the exit code
};

}  // namespace topocheck::cli
