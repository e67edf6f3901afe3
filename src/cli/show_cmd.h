// `topocheck show`: print one corpus case as text, JSON or a DOT drawing (paths with their shared
// nodes; ITM cases on a circle; wormhole deadlocks as their cycle of waiting).
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_show_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
