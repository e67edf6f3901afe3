// The output writers of the `topocheck` command, shared by every command file: one-line errors
// with their exit code, output files (checked before a long run, written atomically), progress on
// a terminal, and the verdict report that verify and merge both end with.
#pragma once

#include <chrono>
#include <mutex>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "claims/claim.h"
#include "claims/runner.h"
#include "core/status.h"

namespace topocheck::cli {

// Prints "topocheck: FILE:LINE: error: MESSAGE"; returns 70 for internal errors, else 2.
int report_error(const Error& e);
// Prints "topocheck: error: MESSAGE"; returns 2.
int usage_error(const std::string& message);
// Writes `content` to `file` (core/output_file.h: atomically when it is a regular file, in place
// when it is a device, a FIFO or a symlink, "-": stdout); false (after printing the one-line error
// naming the option and the file) on failure.
bool write_output(const std::string& flag, const std::string& file, const std::string& content);

// An output file must be writable before a long run starts: its folder must exist ("-" and ""
// always pass).
std::optional<Error> check_output_path(const std::string& option, const std::string& file);
// Table, ledger notes, --json and --junit of a verify or merge run; returns the exit code.
// Where `verify` keeps the report of its last run of every claim reading (not sharded, no claim or
// reading filter) and where `report` looks for it: verify-last.json beside this binary.
std::filesystem::path last_verify_report();

int report_verdicts(const std::vector<claims::ReadingVerdict>& verdicts, const std::vector<std::string>& stale,
                    const std::string& json_file, const std::string& junit_file, const nlohmann::json& report,
                    claims::Budget budget);

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
