// `topocheck replay`: re-run every corpus case, or the given files and folders.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_replay_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
