#include "metacube/metacube.h"

#include <bit>

#include <fmt/format.h>

namespace topocheck::metacube {

Result<Metacube> Metacube::make(int k, int m) {
  if (k < 0 || k > 5)
    return invalid_argument(fmt::format("metacube class dimension k = {} is out of range 0..5", k));
  if (m < 1 || m > 63)
    return invalid_argument(fmt::format("metacube cluster dimension m = {} is out of range 1..63", m));
  const int64_t n = static_cast<int64_t>(m) * (int64_t{1} << k) + k;
  if (n > 63)
    return invalid_argument(
        fmt::format("MC({},{}) needs m*2^k + k = {} address bits; at most 63 are supported", k, m, n));
  return Metacube(k, m);
}

Metacube::Metacube(int k, int m) : k_(k), m_(m), n_(m * (1 << k) + k), outside_(~uint64_t{0} << n_) {
  const uint64_t class_bits = ((uint64_t{1} << k_) - 1) << class_shift();
  for (int c = 0; c < h(); ++c) {
    const size_t i = static_cast<size_t>(c);
    field_bits_[i] = field_mask() << (c * m_);
    class_value_[i] = static_cast<uint64_t>(c) << class_shift();
    hop_bits_[i] = class_bits | field_bits_[i];
  }
}

std::string Metacube::name() const { return fmt::format("MC({},{})", k_, m_); }

std::vector<Node> Metacube::neighbors(Node u) const {
  std::vector<Node> out;
  out.reserve(static_cast<size_t>(k_ + m_));
  for (int d = 0; d < k_ + m_; ++d) out.push_back(neighbor(u, d));
  return out;
}

uint64_t Metacube::node_id(Node u) const {
  TC_CHECK(contains(u), "node outside the topology");
  const int c = class_of(u);
  return field(u, c) << (m_ * c);
}

uint64_t Metacube::cluster_id(Node u) const {
  TC_CHECK(contains(u), "node outside the topology");
  const int c = class_of(u);
  return (u.bits & ((uint64_t{1} << class_shift()) - 1)) & ~(field_mask() << (m_ * c));
}

bool Metacube::same_cluster(Node u, Node v) const {
  return class_of(u) == class_of(v) && cluster_id(u) == cluster_id(v);
}

int Metacube::class_distance(Node u, Node v) const {
  return std::popcount(static_cast<uint64_t>(class_of(u) ^ class_of(v)));
}

int Metacube::field_distance(Node u, Node v, int i) const { return std::popcount(field(u, i) ^ field(v, i)); }

std::string Metacube::format_fields(Node u) const {
  TC_CHECK(contains(u), "node outside the topology");
  const std::string bits = u.to_string();
  std::string out = "(";
  out += bits.substr(0, static_cast<size_t>(k_));
  for (int i = h() - 1; i >= 0; --i) {
    if (k_ > 0 || i != h() - 1) out += ", ";
    out += bits.substr(static_cast<size_t>(k_ + (h() - 1 - i) * m_), static_cast<size_t>(m_));
  }
  return out + ")";
}

Result<Node> Metacube::parse_fields(std::string_view text) const {
  std::string compact;
  for (char c : text)
    if (c != ' ') compact += c;
  if (compact.find(',') == std::string::npos && compact.find('(') == std::string::npos)
    return parse_node(compact, n_);
  if (compact.size() < 2 || compact.front() != '(' || compact.back() != ')')
    return invalid_argument(fmt::format("metacube address '{}': expected (class, M[h-1], ..., M[0])", text));
  std::vector<std::string> parts;
  std::string cur;
  for (size_t p = 1; p + 1 < compact.size(); ++p) {
    if (compact[p] == ',') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += compact[p];
    }
  }
  parts.push_back(cur);
  const size_t want = static_cast<size_t>(h()) + (k_ > 0 ? 1 : 0);
  if (parts.size() != want)
    return invalid_argument(fmt::format("metacube address '{}' has {} fields, {} needs {}", text, parts.size(),
                                        name(), want));
  std::string bits;
  for (size_t f = 0; f < parts.size(); ++f) {
    const size_t need = (k_ > 0 && f == 0) ? static_cast<size_t>(k_) : static_cast<size_t>(m_);
    if (parts[f].size() != need)
      return invalid_argument(fmt::format("metacube address '{}': field {} is '{}', {} bits expected", text,
                                          f + 1, parts[f], need));
    bits += parts[f];
  }
  return parse_node(bits, n_);
}

}  // namespace topocheck::metacube
