// `topocheck simulate wormhole`: one flit-level wormhole run (routing/wormhole.h) on an ITM or a
// control graph, or the throughput study (routing/wormhole_study.h) with table / JSON / SVG.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_wormhole_command(CLI::App& simulate);

}  // namespace topocheck::cli
