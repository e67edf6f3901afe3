#include "cli/certify.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace topocheck::cli {
namespace fs = std::filesystem;

fs::path certifier_script() {
  if (const char* env = std::getenv("TOPOCHECK_CERTIFY"); env && *env) return env;
  return fs::path(TOPOCHECK_SOURCE_DIR) / "certify" / "certify.py";
}

namespace {

// Runs argv, returns (exit status, stdout). stderr passes through to ours.
Result<std::pair<int, std::string>> run_capturing(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) return Error{ErrorCode::kInternal, "certify: pipe() failed", {}, 0};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    return invalid_argument(fmt::format("cannot start {}", argv[0]));
  }
  std::string out;
  char buffer[1 << 14];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return std::pair{WIFEXITED(status) ? WEXITSTATUS(status) : 128, out};
}

}  // namespace

std::vector<std::string> cases_to_certify(
    const claims::Ledger& ledger, claims::Budget budget,
    const std::function<bool(const std::string& claim, const std::string& reading)>& selected) {
  std::set<std::string> cases;
  for (const claims::Expectation& e : ledger.expectations)
    if (e.at(budget) == claims::Outcome::kRefuted && !e.case_at(budget).empty() && selected(e.claim, e.reading))
      cases.insert(e.case_at(budget));
  return {cases.begin(), cases.end()};
}

Result<claims::CertifyFn> run_certifier(const fs::path& corpus_dir, const std::vector<std::string>& cases) {
  auto answers = std::make_shared<std::map<std::string, std::optional<std::string>>>();
  if (std::any_of(cases.begin(), cases.end(), [&](const std::string& c) { return fs::is_regular_file(corpus_dir / c); })) {
    const fs::path script = certifier_script();
    const std::string hint = "(`./topocheck` installs python3-networkx; --no-certify skips certification)";
    if (!fs::is_regular_file(script))
      return invalid_argument(fmt::format("certificate checker {}: no such file {}", script.string(), hint));
    std::vector<std::string> argv{"python3", script.string(), "--json"};
    // A case that cannot be read is not the checker's to judge: the ledger comparison reports it
    // (and such a refutation never reaches certification).
    for (const std::string& c : cases)
      if (fs::is_regular_file(corpus_dir / c)) argv.push_back((corpus_dir / c).string());
    auto ran = run_capturing(argv);
    if (!ran) return ran.error();
    const auto& [status, out] = *ran;
    // 0: all certified, 1: some not; anything else is the checker failing to run.
    if (status != 0 && status != 1)
      return invalid_argument(fmt::format("certificate checker {} exited with {} {}", script.string(), status, hint));
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (!j.is_array())
      return invalid_argument(fmt::format("certificate checker {}: its --json output is not a JSON array", script.string()));
    std::map<std::string, std::string> by_file;
    for (const std::string& c : cases) by_file[(corpus_dir / c).string()] = c;
    for (const nlohmann::json& a : j) {
      if (!a.is_object() || !a.contains("file") || !a.contains("status") || !a["file"].is_string() ||
          !a["status"].is_string())
        return invalid_argument(fmt::format("certificate checker {}: an answer lacks \"file\" or \"status\"",
                                            script.string()));
      auto it = by_file.find(a["file"].get<std::string>());
      if (it == by_file.end()) continue;
      const std::string message = a.value("message", std::string());
      const std::string status_word = a["status"].get<std::string>();
      (*answers)[it->second] = status_word == "certified"
                                   ? std::nullopt
                                   : std::optional<std::string>(fmt::format("{}: {}", status_word, message));
    }
  }
  return claims::CertifyFn([answers](const std::string& relative) -> std::optional<std::string> {
    auto it = answers->find(relative);
    if (it == answers->end()) return std::string("not submitted to the checker");
    return it->second;
  });
}

}  // namespace topocheck::cli
