#include "core/node.h"

#include <bit>

#include <ostream>

namespace topocheck {

std::string Node::to_string() const {
  std::string s(static_cast<size_t>(width), '0');
  for (int i = 0; i < width; ++i) s[static_cast<size_t>(width - 1 - i)] = bit(i) ? '1' : '0';
  return s;
}

Result<Node> parse_node(std::string_view text, int expected_width) {
  if (text.empty()) return invalid_argument("empty node address");
  if (text.size() > static_cast<size_t>(kMaxWidth))
    return invalid_argument(fmt::format("node address '{}' is {} bits wide; at most {} allowed",
                                        text, text.size(), kMaxWidth));
  Node n{0, static_cast<int>(text.size())};
  for (size_t p = 0; p < text.size(); ++p) {
    const char c = text[p];
    if (c != '0' && c != '1')
      return invalid_argument(fmt::format("node address '{}': character {} is '{}', expected 0 or 1",
                                          text, p + 1, c));
    n.bits = (n.bits << 1) | static_cast<uint64_t>(c == '1');
  }
  if (expected_width > 0 && n.width != expected_width)
    return invalid_argument(fmt::format("node address '{}' has width {}, the topology needs {}",
                                        text, n.width, expected_width));
  return n;
}

int hamming(Node u, Node v) {
  TC_CHECK(u.width == v.width, "hamming distance of nodes of different widths");
  return std::popcount(u.bits ^ v.bits);
}

void showValue(const Node& value, std::ostream& os) { os << value.to_string(); }

}  // namespace topocheck
