// What every Z3 encoding in smt/ shares: the status of one proof attempt, Z3's resource count,
// and the turning of a status into a method verdict. A counterexample is never settled here: the
// caller decodes the model and confirms it with the naive checkers first.
#pragma once

#include <cstdint>
#include <string>

#include <z3++.h>

#include "claims/claim.h"

namespace topocheck::smt {

enum class SmtStatus { kProved, kCounterexample, kUnknown, kError };

std::string to_string(SmtStatus status);  // "proved", "counterexample", "unknown", "error"

// Z3's "rlimit count" statistic of the solver (its context's running count), 0 if absent.
uint64_t rlimit_count(const z3::solver& solver);

// Proved -> holds (one case: the proof covers every input), unknown -> inconclusive, error ->
// error, each with `where` ("n = 4", "MC(2,2)") and `reason` in the detail; returns true when the
// result is final. Counterexample: returns false and leaves `result` alone.
bool settle(SmtStatus status, const std::string& where, const std::string& reason, claims::MethodResult& result);

}  // namespace topocheck::smt
