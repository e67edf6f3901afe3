// `topocheck simulate aapc`: fault-tolerant all-to-all personalized communication in Q_n (paper
// 004): one of the paper's schedules (or the user's, --check FILE) judged by the schedule checker
// against the paper's counts and the lower bound, or the --table of every case up to --max-n.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_aapc_command(CLI::App& simulate);

}  // namespace topocheck::cli
