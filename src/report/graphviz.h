// Running Graphviz on DOT text: the SVG a layout program writes for it.
//
// The program is started directly (posix_spawnp, found on PATH; no shell), fed the DOT text on
// stdin, and its stdout and stderr are read concurrently (so that neither pipe can fill and block
// it). Errors name the program: it is not on PATH ("dot: not found on PATH; install Graphviz (the
// Debian package graphviz)"), it exits non-zero or is killed (its exit status and stderr), or it
// runs longer than the timeout (it is killed with SIGKILL and reaped). Graphviz is deterministic:
// the same DOT text and version give the same SVG.
// Cost: one process; time is Graphviz's (milliseconds for the corpus's drawings).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/status.h"

namespace topocheck::report {

// The layout programs the drawings use.
enum class Layout {
  kDot,          // `dot -Tsvg`: layered, for paths, deadlocks and migration instances
  kNeatoPinned,  // `neato -n -Tsvg`: every node at its `pos` (points), for ITM's circle
};

inline constexpr std::chrono::milliseconds kGraphvizTimeout{30'000};

// Runs `program` with `args` (argv[1..]), writes `input` to its stdin, and returns its stdout.
// Errors as the header says; a non-zero exit is an error even when stdout is not empty.
Result<std::string> run_program(const std::string& program, const std::vector<std::string>& args,
                                const std::string& input, std::chrono::milliseconds timeout);

// The SVG of `dot_text` under `layout`: run_program("dot" or "neato", ...).
Result<std::string> render_svg(const std::string& dot_text, Layout layout,
                               std::chrono::milliseconds timeout = kGraphvizTimeout);

}  // namespace topocheck::report
