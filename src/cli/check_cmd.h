// `topocheck check KIND --file F.json`: a user's own artefact judged by the suite's checkers
// (src/check/): `paths` (a path system on a hypercube, a Metacube or an explicit graph),
// `schedule` (an AAPC schedule on a faulty hypercube under a port model), `routing` (a routing
// table on a graph), `itm` (a graph or AddNode steps as an ITM). Exit 0
// when every check is ok or not applicable, 1 when one is violated, 2 for a bad file.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

// Declares the `check` verb and its kinds on `app`; one Command per kind.
Command add_check_paths_command(CLI::App& check);
Command add_check_schedule_command(CLI::App& check);
Command add_check_routing_command(CLI::App& check);
Command add_check_itm_command(CLI::App& check);

}  // namespace topocheck::cli
