#include "cli/prove_cmd.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "claims/report.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"

namespace topocheck::cli {
namespace {

using claims::Outcome;
using nlohmann::json;

struct ProveArgs {
  std::string claim, reading = "literal";
  std::vector<std::string> params;
  double timeout = 0;
  uint64_t rlimit = 0;
  bool json = false;
};

int cmd_prove(const claims::Registry& registry, const ProveArgs& a) {
  const claims::Claim* claim = registry.find(a.claim);
  if (!claim) return usage_error(fmt::format("CLAIM: unknown claim '{}' (see `topocheck list`)", a.claim));
  const claims::Reading* reading = claim->find_reading(a.reading);
  if (!reading) return usage_error(fmt::format("--reading: claim {} has no reading '{}'", a.claim, a.reading));
  if (!reading->prove) return usage_error(fmt::format("CLAIM: {} [{}] has no SMT encoding", a.claim, a.reading));
  json p = json::object();
  for (const std::string& kv : a.params) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return usage_error(fmt::format("--param '{}': expected NAME=VALUE", kv));
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    char* end = nullptr;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (!value.empty() && end && *end == '\0') p[key] = number;
    else p[key] = value;
  }
  if (a.timeout < 0) return usage_error("--timeout must not be negative");
  claims::SolverLimits limits;
  limits.rlimit = a.rlimit;
  limits.timeout_ms = static_cast<unsigned>(a.timeout * 1000);
  auto result = reading->prove(p, limits);
  if (!result) return report_error(result.error());
  if (a.json) {
    json j = {{"claim", a.claim}, {"reading", a.reading}, {"params", p},
              {"verdict", claims::to_string(result->outcome)}, {"scope", result->scope}, {"detail", result->detail}};
    if (result->counterexample) j["counterexample"] = claims::counterexample_to_json(*result->counterexample);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} [{}] {}: {} ({})\n", a.claim, a.reading, p.dump(),
                             claims::to_string(result->outcome), result->scope);
    if (!result->detail.empty()) std::cout << "  " << result->detail << "\n";
    if (result->counterexample) std::cout << claims::counterexample_to_json(*result->counterexample).dump(2) << "\n";
  }
  switch (result->outcome) {
    case Outcome::kHolds: return kExitOk;
    case Outcome::kRefuted: return kExitDiffers;
    case Outcome::kInconclusive:
    case Outcome::kVacuous: return kExitInconclusive;
    case Outcome::kError: return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace

Command add_prove_command(CLI::App& app, const Session& session) {
  auto args = std::make_shared<ProveArgs>();
  auto* prove = app.add_subcommand("prove", "prove a claim for fixed parameters with Z3, or refute it");
  prove->add_option("claim", args->claim, "claim id")->required();
  prove->add_option("--reading", args->reading, "reading (default literal)");
  prove->add_option("--param", args->params, "NAME=VALUE, e.g. n=8")->required();
  add_float_option(*prove, "--timeout", args->timeout, 0, 86400, "wall-clock safety net in seconds (0: none)");
  add_int_option(*prove, "--rlimit", args->rlimit, 0, uint64_t{1} << 40, "Z3 resource limit (0: the standard budget's)");
  prove->add_flag("--json", args->json, "machine-readable output");
  return {prove, [&session, args] { return cmd_prove(session.registry(), *args); }};
}

}  // namespace topocheck::cli
