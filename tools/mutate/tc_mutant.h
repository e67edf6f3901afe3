// The run-time switch of the mutant schemata (tools/mutate/README.md). A schemata file includes this
// header first; every mutation site in it reads TC_MUT(id), true only for the one mutant that the
// environment variable TOPOCHECK_MUTANT names (read once; unset or empty: no mutant is on, and the
// program behaves as the original source).
#pragma once

#include <cstdlib>

namespace tc_mutate {
inline long long active_mutant() {
  static const long long active = [] {
    const char* e = std::getenv("TOPOCHECK_MUTANT");
    return e && *e ? std::atoll(e) : -1LL;
  }();
  return active;
}
}  // namespace tc_mutate

#define TC_MUT(id) (::tc_mutate::active_mutant() == (id##LL))
