// The `topocheck` command. Whatever the command, its exit code is only as good as its output:
// stdout is flushed and checked at the end, and a failed write to it (a full disk, /dev/full) is a
// one-line error with exit 2.
#include <cstdio>
#include <exception>

#include "cli/app.h"
#include "cli/output.h"
#include "core/output_file.h"

int main(int argc, char** argv) {
  namespace cli = topocheck::cli;
  topocheck::install_signal_cleanup();
  int code = 0;
  try {
    code = cli::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "topocheck: internal error: %s\n", e.what());
    code = cli::kExitInternal;
  }
  if (auto done = topocheck::finish_stdout(); !done) {
    const int write_code = cli::report_error(done.error());
    if (code != cli::kExitInternal) code = write_code;
  }
  return code;
}
