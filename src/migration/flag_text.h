// The text of the CLI's flags and stored cases' fields as the migration parsers read it: comma
// (or colon) separated items, blanks trimmed, whole decimal integers. Private to src/migration
// (subcube_algebra.cc, hamming_path.cc, params.cc); the parsers' errors are theirs. O(length).
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

namespace topocheck::migration {

// The items between the separators (an empty text is one empty item).
inline std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t pos = text.find(sep, start);
    out.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

// Without leading and trailing spaces.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// A whole decimal int (blanks around it allowed), or nullopt.
inline std::optional<int> parse_int(std::string_view s) {
  s = trim(s);
  int value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

}  // namespace topocheck::migration
