// Private to the deadlock files (deadlock*.cc; include it nowhere else): the range of n they
// handle and the text form of a Q_n node they print and parse.
#pragma once

#include <string>

#include "network/network.h"

namespace topocheck::routing::deadlock_text {

inline constexpr int kMaxDeadlockN = 6;  // search_deadlock, the judge and the JSON form take Q_n, 1 <= n <= 6

// The n-bit text form of node u, most significant bit first.
inline std::string bits(NodeId u, int n) {
  std::string s(static_cast<size_t>(n), '0');
  for (int i = 0; i < n; ++i)
    if (u >> i & 1u) s[static_cast<size_t>(n - 1 - i)] = '1';
  return s;
}

}  // namespace topocheck::routing::deadlock_text
