// `topocheck search`: search for a counterexample to one claim reading, optionally saving it.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_search_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
