// The `topocheck` command: argument parsing and output only, no algorithms.
//
// Exit codes (DESIGN.md): 0 all verdicts as in the ledger / the request succeeded; 1 a verdict
// differs or a new counterexample was found; 2 bad usage or bad input (one line naming the
// argument or FILE:LINE); 3 inconclusive; 70 internal error.
#pragma once

#include <string>
#include <vector>

namespace topocheck::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDiffers = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInconclusive = 3;
inline constexpr int kExitInternal = 70;

int run(int argc, char** argv);

}  // namespace topocheck::cli
