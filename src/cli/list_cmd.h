// `topocheck list`: every claim, reading, method and ledger expectation, as a table or JSON.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_list_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
