#include "core/path.h"

#include <ostream>

namespace topocheck {

std::string Path::to_string() const {
  std::string s;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i) s += ':';
    s += nodes[i].to_string();
  }
  return s;
}

Result<Path> parse_path(std::string_view text, int expected_width) {
  std::string t;
  for (char c : text)
    if (c != ' ' && c != '\t') t += c;
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  if (t.empty()) return invalid_argument("empty path");
  Path p;
  size_t start = 0;
  int width = expected_width;
  while (true) {
    const size_t colon = t.find(':', start);
    const std::string_view part = std::string_view(t).substr(
        start, colon == std::string::npos ? std::string::npos : colon - start);
    auto node = parse_node(part, width);
    if (!node) return invalid_argument(fmt::format("path '{}': node {}: {}", text,
                                                   p.nodes.size() + 1, node.error().message));
    width = node->width;
    p.nodes.push_back(*node);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return p;
}

nlohmann::json path_to_json(const Path& path) {
  nlohmann::json a = nlohmann::json::array();
  for (const Node& n : path.nodes) a.push_back(n.to_string());
  return a;
}

nlohmann::json paths_to_json(const std::vector<Path>& paths) {
  nlohmann::json a = nlohmann::json::array();
  for (const Path& p : paths) a.push_back(path_to_json(p));
  return a;
}

Result<Path> path_from_json(const nlohmann::json& j, int expected_width) {
  if (!j.is_array()) return invalid_argument("a path must be an array of node strings");
  Path p;
  int width = expected_width;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string())
      return invalid_argument(fmt::format("path element {} is not a string", i + 1));
    auto node = parse_node(j[i].get<std::string>(), width);
    if (!node) return invalid_argument(fmt::format("path element {}: {}", i + 1, node.error().message));
    width = node->width;
    p.nodes.push_back(*node);
  }
  return p;
}

Result<std::vector<Path>> paths_from_json(const nlohmann::json& j, int expected_width) {
  if (!j.is_array()) return invalid_argument("paths must be an array of paths");
  std::vector<Path> out;
  for (size_t i = 0; i < j.size(); ++i) {
    auto p = path_from_json(j[i], expected_width);
    if (!p) return invalid_argument(fmt::format("path {}: {}", i, p.error().message));
    out.push_back(std::move(p).value());
  }
  return out;
}

void showValue(const Path& value, std::ostream& os) { os << value.to_string(); }

}  // namespace topocheck
