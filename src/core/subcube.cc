#include "core/subcube.h"

#include <bit>

#include <ostream>

namespace topocheck {

int Subcube::dimension() const { return std::popcount(free_mask); }

std::string Subcube::to_string() const {
  std::string s(static_cast<size_t>(width), '0');
  for (int i = 0; i < width; ++i) {
    const uint64_t b = uint64_t{1} << i;
    s[static_cast<size_t>(width - 1 - i)] = (free_mask & b) ? '*' : ((values & b) ? '1' : '0');
  }
  return s;
}

Result<Subcube> parse_subcube(std::string_view text, int expected_width) {
  if (text.empty()) return invalid_argument("empty subcube");
  if (text.size() > static_cast<size_t>(kMaxWidth))
    return invalid_argument(fmt::format("subcube '{}' is {} wide; at most {} allowed", text,
                                        text.size(), kMaxWidth));
  Subcube s{0, 0, static_cast<int>(text.size())};
  for (size_t p = 0; p < text.size(); ++p) {
    const char c = text[p];
    if (c != '0' && c != '1' && c != '*')
      return invalid_argument(
          fmt::format("subcube '{}': character {} is '{}', expected 0, 1 or *", text, p + 1, c));
    s.free_mask = (s.free_mask << 1) | static_cast<uint64_t>(c == '*');
    s.values = (s.values << 1) | static_cast<uint64_t>(c == '1');
  }
  if (expected_width > 0 && s.width != expected_width)
    return invalid_argument(fmt::format("subcube '{}' has width {}, the topology needs {}", text,
                                        s.width, expected_width));
  return s;
}

void showValue(const Subcube& value, std::ostream& os) { os << value.to_string(); }

}  // namespace topocheck
