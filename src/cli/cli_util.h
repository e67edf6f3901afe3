// Shared output helpers of the `topocheck` command (app.cc and the per-family command files):
// one-line errors with the exit code, atomic output files, progress on a terminal.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "claims/claim.h"
#include "core/status.h"

namespace topocheck::cli {

// Prints "topocheck: FILE:LINE: error: MESSAGE"; returns 70 for internal errors, else 2.
int report_error(const Error& e);
// Prints "topocheck: error: MESSAGE"; returns 2.
int usage_error(const std::string& message);
// Writes `content` to `file` atomically; false (after printing the error) on failure.
bool write_output(const std::string& flag, const std::string& file, const std::string& content);

// Progress on stderr, only when it is a terminal; throttled, one line rewritten in place.
class TerminalProgress final : public claims::Progress {
 public:
  TerminalProgress();
  ~TerminalProgress() override { clear(); }
  void update(std::string_view claim, std::string_view message) override;
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, last_{};
};

}  // namespace topocheck::cli
