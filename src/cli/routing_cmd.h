// `topocheck simulate routing`: one run of the message-routing simulator (papers/001) or the
// whole 44-case study, with table / JSON / SVG output.
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_routing_command(CLI::App& simulate);

}  // namespace topocheck::cli
