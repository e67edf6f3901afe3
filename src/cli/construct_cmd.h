// `topocheck construct ...`: one construction of a paper on the user's input, printed with what
// the shared checkers say of it. Each sub-verb is added to the `construct` verb given.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_hypercube_paths_command(CLI::App& construct);     // Algorithm 2 in Q_n
Command add_hypercube_route_command(CLI::App& construct);     // the e-cube route in Q_n
Command add_metacube_paths_command(CLI::App& construct);      // Algorithm 4 in MC(k,m)
Command add_metacube_route_command(CLI::App& construct);      // Algorithm 1 in MC(k,m)
Command add_itm_command(CLI::App& construct);                 // an ITM from its AddNode steps
Command add_migration_command(CLI::App& construct);           // Section 4 of the migration paper
Command add_migration_latency_command(CLI::App& construct);   // Section 5 of the migration paper

}  // namespace topocheck::cli
