#include "cli/output.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "claims/report.h"
#include "cli/app.h"
#include "core/output_file.h"

namespace topocheck::cli {

namespace fs = std::filesystem;

int report_error(const Error& e) {
  std::fprintf(stderr, "topocheck: %s\n", e.to_string().c_str());
  return e.code == ErrorCode::kInternal ? kExitInternal : kExitUsage;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "topocheck: error: %s\n", message.c_str());
  return kExitUsage;
}

bool write_output(const std::string& flag, const std::string& file, const std::string& content) {
  auto w = write_file(file, content);
  if (!w) {
    report_error(Error{w.error().code, fmt::format("{}: {}", flag, w.error().message), w.error().file, 0});
    return false;
  }
  return true;
}

std::optional<Error> check_output_path(const std::string& option, const std::string& file) {
  if (file.empty() || file == "-") return std::nullopt;
  const fs::path p(file);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(p, ec)) return Error{ErrorCode::kInvalidArgument, option + ": is a directory", file, 0};
  if (!fs::is_directory(dir, ec))
    return invalid_argument(fmt::format("{} {}: the folder {} does not exist", option, file, dir.string()));
  return std::nullopt;
}

std::filesystem::path last_verify_report() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::current_path() : exe.parent_path()) / "verify-last.json";
}

int report_verdicts(const std::vector<claims::ReadingVerdict>& verdicts, const std::vector<std::string>& stale,
                    const std::string& json_file, const std::string& junit_file, const nlohmann::json& report,
                    claims::Budget budget) {
  // With --json - the JSON owns stdout and the table goes to stderr.
  const bool json_on_stdout = json_file == "-" || junit_file == "-";
  std::FILE* table_out = json_on_stdout ? stderr : stdout;
  const std::string table = claims::render_table(verdicts, ::isatty(::fileno(table_out)) != 0);
  std::fputs(table.c_str(), table_out);
  for (const std::string& s : stale) std::fprintf(table_out, "ledger: %s\n", s.c_str());
  std::fflush(table_out);
  if (!json_file.empty() && !write_output("--json", json_file, report.dump(2) + "\n")) return kExitUsage;
  if (!junit_file.empty() && !write_output("--junit", junit_file, claims::verdicts_to_junit(verdicts, budget)))
    return kExitUsage;
  bool differs = !stale.empty(), inconclusive = false;
  for (const auto& v : verdicts) {
    if (v.matches) continue;
    if (v.outcome == claims::Outcome::kInconclusive || v.outcome == claims::Outcome::kVacuous) inconclusive = true;
    else differs = true;
  }
  if (differs) return kExitDiffers;
  if (inconclusive) return kExitInconclusive;
  return kExitOk;
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

}  // namespace topocheck::cli
