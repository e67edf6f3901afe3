// Path: a list of nodes, possibly invalid until the checkers in core/checks.h accept it.
//
// Text form: node strings joined by ':', as the papers write paths, e.g. "000:001:011"
// (the paper's (000 : 001 : 011)); parse_path also accepts surrounding parentheses and spaces.
// JSON form: an array of node strings, ["000","001","011"].
// Length is the number of hops, nodes.size() - 1.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/node.h"
#include "core/status.h"

namespace topocheck {

struct Path {
  std::vector<Node> nodes;

  int length() const { return nodes.empty() ? 0 : static_cast<int>(nodes.size()) - 1; }
  bool empty() const { return nodes.empty(); }
  const Node& front() const { return nodes.front(); }
  const Node& back() const { return nodes.back(); }
  std::string to_string() const;

  friend bool operator==(const Path&, const Path&) = default;
};

Result<Path> parse_path(std::string_view text, int expected_width = 0);

nlohmann::json path_to_json(const Path& path);
nlohmann::json paths_to_json(const std::vector<Path>& paths);
// Untrusted input: every element must be a node string of `expected_width` (0: any, but equal).
Result<Path> path_from_json(const nlohmann::json& j, int expected_width = 0);
Result<std::vector<Path>> paths_from_json(const nlohmann::json& j, int expected_width = 0);

// RapidCheck prints values through this (found by ADL): the same text form as everywhere.
void showValue(const Path& value, std::ostream& os);
inline std::ostream& operator<<(std::ostream& os, const Path& v) { return os << v.to_string(); }

}  // namespace topocheck

template <>
struct fmt::formatter<topocheck::Path> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const topocheck::Path& p, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(p.to_string(), ctx);
  }
};
