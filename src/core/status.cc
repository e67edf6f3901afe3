#include "core/status.h"

#include <fmt/format.h>

namespace topocheck {

std::string Error::to_string() const {
  if (!file.empty() && line > 0) return fmt::format("{}:{}: error: {}", file, line, message);
  if (!file.empty()) return fmt::format("{}: error: {}", file, message);
  return fmt::format("error: {}", message);
}

void check_failed(const char* file, int line, const char* condition, const std::string& message) {
  std::fprintf(stderr, "%s:%d: check failed: %s: %s\n", file, line, condition, message.c_str());
  std::abort();
}

}  // namespace topocheck
