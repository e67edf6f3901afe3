// Subcube: a subcube of Q_n over {0,1,*}, e.g. "0010**" (bit n-1 first).
//
// `free_mask` has bit i set when dimension i is '*'; `values` holds the fixed bits (zero where
// free). D(S), the paper's set of free dimensions of S, is `free_mask`.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/node.h"
#include "core/status.h"

namespace topocheck {

struct Subcube {
  uint64_t free_mask = 0;
  uint64_t values = 0;
  int width = 0;

  int dimension() const;  // number of '*'
  bool contains(Node u) const {
    return u.width == width && ((u.bits & ~free_mask) == values);
  }
  std::string to_string() const;

  friend bool operator==(const Subcube&, const Subcube&) = default;
};

Result<Subcube> parse_subcube(std::string_view text, int expected_width = 0);

// RapidCheck prints values through this (found by ADL): the same text form as everywhere.
void showValue(const Subcube& value, std::ostream& os);
inline std::ostream& operator<<(std::ostream& os, const Subcube& v) { return os << v.to_string(); }

}  // namespace topocheck

template <>
struct std::hash<topocheck::Subcube> {
  size_t operator()(const topocheck::Subcube& s) const noexcept {
    return std::hash<uint64_t>()(s.free_mask * 0x9E3779B97F4A7C15ULL ^ s.values ^
                                 (static_cast<uint64_t>(s.width) << 58));
  }
};

template <>
struct fmt::formatter<topocheck::Subcube> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const topocheck::Subcube& s, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(s.to_string(), ctx);
  }
};
