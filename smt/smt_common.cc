#include "smt/smt_common.h"

#include <fmt/format.h>

namespace topocheck::smt {

std::string to_string(SmtStatus status) {
  switch (status) {
    case SmtStatus::kProved: return "proved";
    case SmtStatus::kCounterexample: return "counterexample";
    case SmtStatus::kUnknown: return "unknown";
    case SmtStatus::kError: return "error";
  }
  return "?";
}

uint64_t rlimit_count(const z3::solver& solver) {
  const z3::stats stats = solver.statistics();
  for (unsigned k = 0; k < stats.size(); ++k)
    if (stats.key(k) == "rlimit count")
      return stats.is_uint(k) ? stats.uint_value(k) : static_cast<uint64_t>(stats.double_value(k));
  return 0;
}

bool settle(SmtStatus status, const std::string& where, const std::string& reason, claims::MethodResult& result) {
  switch (status) {
    case SmtStatus::kProved:
      result.outcome = claims::Outcome::kHolds;
      result.cases = 1;
      return true;
    case SmtStatus::kUnknown:
      result.outcome = claims::Outcome::kInconclusive;
      result.detail = fmt::format("{}: Z3 returned unknown ({})", where, reason);
      return true;
    case SmtStatus::kError:
      result.outcome = claims::Outcome::kError;
      result.detail = fmt::format("{}: {}", where, reason);
      return true;
    case SmtStatus::kCounterexample: return false;
  }
  return false;
}

}  // namespace topocheck::smt
