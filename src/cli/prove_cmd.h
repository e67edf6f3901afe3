// `topocheck prove`: prove a claim reading for fixed parameters with Z3, or refute it.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_prove_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
