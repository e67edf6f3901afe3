#include "cli/cli_util.h"

#include "cli/app.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "corpus/corpus.h"

namespace topocheck::cli {

int report_error(const Error& e) {
  std::fprintf(stderr, "topocheck: %s\n", e.to_string().c_str());
  return e.code == ErrorCode::kInternal ? kExitInternal : kExitUsage;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "topocheck: error: %s\n", message.c_str());
  return kExitUsage;
}

TerminalProgress::TerminalProgress()
    : enabled_(::isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

void TerminalProgress::update(std::string_view claim, std::string_view message) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double t = std::chrono::duration<double>(now - start_).count();
  std::string line = fmt::format("[{:6.1f}s] {}: {}", t, claim, message);
  if (line.size() > 150) line.resize(150);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void TerminalProgress::clear() {
  std::lock_guard lock(mutex_);
  if (shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

// Writes `content` to `file` atomically; false (after printing the error) on failure.
bool write_output(const std::string& flag, const std::string& file, const std::string& content) {
  auto w = corpus::write_atomic(file, content);
  if (!w) {
    usage_error(fmt::format("{}: {}", flag, w.error().message));
    return false;
  }
  return true;
}

}  // namespace topocheck::cli
