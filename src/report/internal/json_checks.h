// The checked reads of a case's JSON that the drawings validate witnesses with (tc_report only).
//
// Each read takes the value and its JSON pointer in the case file ("/witness/paths/0"), and on a
// value of the wrong type, shape or range throws Malformed naming that pointer. draw_case
// (drawing.cc) is the one place that catches it and returns it as an Error: every read is a
// boundary check of the single case being drawn, and one catch at that boundary keeps the many
// reads of a witness readable (a Result at each would bury what is drawn under what is checked).
// Malformed never leaves tc_report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/node.h"
#include "core/subcube.h"
#include "core/topology.h"

namespace topocheck::report::internal {

struct Malformed {
  std::string pointer;  // of the bad value, e.g. "/witness/paths/0/2"
  std::string what;     // what is wrong with it, in words
};

[[noreturn]] void fail(const std::string& pointer, const std::string& what);

// `pointer` extended by an object key (escaped as RFC 6901 says: ~ as ~0, / as ~1) or an index.
std::string child(const std::string& pointer, const std::string& key);
std::string child(const std::string& pointer, size_t index);

// The member `key` of the object `j` at `pointer`; Malformed when `j` is not an object or lacks it.
const nlohmann::json& member(const nlohmann::json& j, const std::string& pointer, const std::string& key);
// The member, or nullptr when `j` is not an object or lacks it (optional fields).
const nlohmann::json* find(const nlohmann::json& j, const std::string& key);

// An integer in [lo, hi].
int64_t integer(const nlohmann::json& j, const std::string& pointer, int64_t lo, int64_t hi);
// A finite number.
double real(const nlohmann::json& j, const std::string& pointer);
const std::string& text(const nlohmann::json& j, const std::string& pointer);
// An array (its elements are read by the caller); `size`, when not SIZE_MAX, is required.
const nlohmann::json& array(const nlohmann::json& j, const std::string& pointer, size_t size = SIZE_MAX);

// A comma-separated list of integers in [lo, hi] ("0,15"; "" is empty), as AAPC inputs give
// node numbers and dimensions; no repeats.
std::vector<int64_t> number_list(const std::string& s, const std::string& pointer, int64_t lo, int64_t hi);
// An array of integers in [lo, hi], no repeats.
std::vector<int64_t> number_array(const nlohmann::json& j, const std::string& pointer, int64_t lo, int64_t hi);

// A node of `topology`: a bit string of its width that it contains.
Node node_of(const std::string& s, const std::string& pointer, const Topology& topology);
// A node of Q_n (a bit string of n bits).
Node cube_node(const std::string& s, const std::string& pointer, int n);
// A subcube of Q_n over {0,1,*}.
Subcube cube_subcube(const std::string& s, const std::string& pointer, int n);

}  // namespace topocheck::report::internal
