// `topocheck examples`: reproduce every paper example of the corpus, print cell-level diffs.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_examples_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
