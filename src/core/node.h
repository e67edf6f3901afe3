// Node: a vertex address of an implicit topology, as a bit string.
//
// Notation: bit i of `bits` is dimension i (the papers' x_i); the text form prints bit width-1
// first, exactly `width` characters of 0/1, e.g. Node{0b011, 3} is "011". Widths are 1..63.
// Example: parse_node("0010110011") is the 10-bit node with bits 9..0 = 0,0,1,0,1,1,0,0,1,1.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/status.h"

namespace topocheck {

inline constexpr int kMaxWidth = 63;

struct Node {
  uint64_t bits = 0;
  int width = 0;

  bool bit(int i) const { return (bits >> i) & 1u; }
  // u^(i): the neighbour across dimension i (bits XOR 2^i).
  Node flip(int i) const { return Node{bits ^ (uint64_t{1} << i), width}; }
  std::string to_string() const;

  friend bool operator==(const Node&, const Node&) = default;
  friend auto operator<=>(const Node&, const Node&) = default;
};

// Parses exactly `text` as 0/1 characters, most significant first. Errors name the offending
// character position. `expected_width` > 0 also requires that width.
Result<Node> parse_node(std::string_view text, int expected_width = 0);

// Hamming distance |u XOR v| (widths must match).
int hamming(Node u, Node v);

inline std::ostream& operator<<(std::ostream& os, const Node& n) { return os << n.to_string(); }

// RapidCheck prints values through this (found by ADL): the same text form as everywhere.
void showValue(const Node& value, std::ostream& os);

}  // namespace topocheck

template <>
struct std::hash<topocheck::Node> {
  size_t operator()(const topocheck::Node& n) const noexcept {
    return std::hash<uint64_t>()(n.bits * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(n.width));
  }
};

template <>
struct fmt::formatter<topocheck::Node> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const topocheck::Node& n, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(n.to_string(), ctx);
  }
};
