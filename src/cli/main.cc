#include <cstdio>
#include <exception>

#include "cli/app.h"

int main(int argc, char** argv) {
  try {
    return topocheck::cli::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "topocheck: internal error: %s\n", e.what());
    return topocheck::cli::kExitInternal;
  }
}
