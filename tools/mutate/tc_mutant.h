// The run-time switch of the mutant schemata (tools/mutate/README.md). A schemata file includes this
// header first; every mutation site in it reads TC_MUT(id), true only for the one mutant that the
// environment variable TOPOCHECK_MUTANT names (read once; unset or empty: no mutant is on, and the
// program behaves as the original source).
//
// Reach trace: with TOPOCHECK_MUTANT_TRACE=DIR, the first evaluation of each site in a process
// appends the site's id (one line) to DIR/<pid>, at once (O_APPEND, one write per line), so that a
// process which ends by _exit, a signal or a fork's child still leaves every site it reached. The
// baseline of a mutation run uses it: a gate step that never reaches a site runs exactly as without
// the mutant (the code before a site's first evaluation is the original), so it is not run for it.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace tc_mutate {
inline long long active_mutant() {
  static const long long active = [] {
    const char* e = std::getenv("TOPOCHECK_MUTANT");
    return e && *e ? std::atoll(e) : -1LL;
  }();
  return active;
}

// The trace file's descriptor, or -1 when no trace is asked for (or it cannot be opened: then the
// process says so once on stderr, and the run's baseline fails to find its reach).
inline int trace_fd() {
  static const int fd = [] {
    const char* dir = std::getenv("TOPOCHECK_MUTANT_TRACE");
    if (!dir || !*dir) return -1;
    const std::string path = std::string(dir) + "/" + std::to_string(::getpid());
    const int f = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (f < 0) std::fprintf(stderr, "tc_mutant: cannot open %s for the reach trace\n", path.c_str());
    return f;
  }();
  return fd;
}

inline void record_reach(long long id) {
  const int fd = trace_fd();
  if (fd < 0) return;
  char line[32];
  const int n = std::snprintf(line, sizeof line, "%lld\n", id);
  if (n > 0 && ::write(fd, line, static_cast<size_t>(n)) < 0) {
    // nothing to do: a lost line would make a step look as if it never reached the site, and a
    // write to a local folder fails only on a full disk
  }
}

template <long long Id>
inline bool on() {
  static std::atomic<bool> reached{false};
  if (!reached.load(std::memory_order_relaxed) && !reached.exchange(true)) record_reach(Id);
  return active_mutant() == Id;
}
}  // namespace tc_mutate

#define TC_MUT(id) (::tc_mutate::on<id##LL>())
