// `topocheck verify` (check claims against the ledger, optionally one shard of the sweeps) and
// `topocheck merge` (combine the shard reports and compare them with the ledger): both end with
// the same verdict report (output.h).
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_verify_command(CLI::App& app, const Session& session);
Command add_merge_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
