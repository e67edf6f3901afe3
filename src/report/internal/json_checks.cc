// The checked reads of json_checks.h.
#include "report/internal/json_checks.h"

#include <cmath>
#include <set>

#include <fmt/format.h>

namespace topocheck::report::internal {

using nlohmann::json;

void fail(const std::string& pointer, const std::string& what) { throw Malformed{pointer, what}; }

std::string child(const std::string& pointer, const std::string& key) {
  std::string escaped;
  for (char c : key) escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return pointer + "/" + escaped;
}

std::string child(const std::string& pointer, size_t index) { return fmt::format("{}/{}", pointer, index); }

const json& member(const json& j, const std::string& pointer, const std::string& key) {
  if (!j.is_object()) fail(pointer, fmt::format("expected an object with \"{}\", found {}", key, j.type_name()));
  const auto it = j.find(key);
  if (it == j.end()) fail(child(pointer, key), "missing");
  return *it;
}

const json* find(const json& j, const std::string& key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

int64_t integer(const json& j, const std::string& pointer, int64_t lo, int64_t hi) {
  if (!j.is_number_integer()) fail(pointer, fmt::format("expected an integer, found {}", j.dump()));
  // Unsigned values above INT64_MAX are out of any range asked for here.
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    fail(pointer, fmt::format("{} is outside {}..{}", j.dump(), lo, hi));
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) fail(pointer, fmt::format("{} is outside {}..{}", v, lo, hi));
  return v;
}

double real(const json& j, const std::string& pointer) {
  if (!j.is_number()) fail(pointer, fmt::format("expected a number, found {}", j.dump()));
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(pointer, "not a finite number");
  return v;
}

const std::string& text(const json& j, const std::string& pointer) {
  if (!j.is_string()) fail(pointer, fmt::format("expected a string, found {}", j.dump()));
  return j.get_ref<const std::string&>();
}

const json& array(const json& j, const std::string& pointer, size_t size) {
  if (!j.is_array()) fail(pointer, fmt::format("expected an array, found {}", j.type_name()));
  if (size != SIZE_MAX && j.size() != size) fail(pointer, fmt::format("expected {} elements, found {}", size, j.size()));
  return j;
}

std::vector<int64_t> number_list(const std::string& s, const std::string& pointer, int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  size_t start = 0;
  while (!s.empty() && start <= s.size()) {
    const size_t comma = std::min(s.find(',', start), s.size());
    const std::string item = s.substr(start, comma - start);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 18)
      fail(pointer, fmt::format("\"{}\": \"{}\" is not a non-negative integer", s, item));
    const int64_t v = std::stoll(item);
    if (v < lo || v > hi) fail(pointer, fmt::format("\"{}\": {} is outside {}..{}", s, v, lo, hi));
    if (!seen.insert(v).second) fail(pointer, fmt::format("\"{}\": {} is repeated", s, v));
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

std::vector<int64_t> number_array(const json& j, const std::string& pointer, int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  for (size_t i = 0; i < array(j, pointer).size(); ++i) {
    out.push_back(integer(j[i], child(pointer, i), lo, hi));
    if (!seen.insert(out.back()).second) fail(child(pointer, i), fmt::format("{} is repeated", out.back()));
  }
  return out;
}

Node node_of(const std::string& s, const std::string& pointer, const Topology& topology) {
  auto u = parse_node(s, topology.width());
  if (!u) fail(pointer, fmt::format("\"{}\" is not a node of {}: {}", s, topology.name(), u.error().message));
  if (!topology.contains(*u)) fail(pointer, fmt::format("\"{}\" is not a node of {}", s, topology.name()));
  return *u;
}

Node cube_node(const std::string& s, const std::string& pointer, int n) {
  auto u = parse_node(s, n);
  if (!u) fail(pointer, fmt::format("\"{}\" is not a node of Q_{}: {}", s, n, u.error().message));
  return *u;
}

Subcube cube_subcube(const std::string& s, const std::string& pointer, int n) {
  auto c = parse_subcube(s, n);
  if (!c) fail(pointer, fmt::format("\"{}\" is not a subcube of Q_{}: {}", s, n, c.error().message));
  return *c;
}

}  // namespace topocheck::report::internal
