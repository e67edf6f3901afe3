// Corpus cases: the format (version 1), validation on load, atomic writes, cell-level diffs.
//
// One JSON file per case under corpus/. Two kinds share the format:
//  - "counterexample": an input on which a claim (reading) fails, shrunk, with the violation in
//    words, the witness, how it was found (method, seed, budget) and whether it was minimized;
//  - "example": a paper example, its input, the output exactly as printed ("expected"), and the
//    errata: cells where the printed value differs from the computed one, each with the printed
//    value, the computed value and whether it is a typo or a reading question.
// Fields (all required unless marked optional):
//   format: 1, kind, claim, reading, params (object), input (object),
//   counterexample: violation (string), witness (object), found_by {method, seed (optional),
//                   budget (optional)}, minimized (bool)
//   example: source (string: "Table 1, Section 3"), expected (any JSON), errata (array of
//            {cell: JSON pointer into expected, printed, computed, kind: "typo"|"reading"|"ocr",
//             note})
// The loader reports a bad file as "FILE[:LINE]: error: ..." and never skips one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topocheck::corpus {

inline constexpr int kFormatVersion = 1;

enum class CaseKind { kCounterexample, kExample };

struct Erratum {
  std::string cell;           // JSON pointer into `expected`, e.g. "/columns/3/paths/1/2"
  nlohmann::json printed;     // the value as printed in the paper
  nlohmann::json computed;    // the value the construction computes
  std::string kind;           // "typo", "reading" or "ocr"
  std::string note;
};

struct Case {
  CaseKind kind = CaseKind::kCounterexample;
  std::string claim;
  std::string reading = "literal";
  nlohmann::json params = nlohmann::json::object();
  nlohmann::json input = nlohmann::json::object();
  // Counterexamples.
  std::string violation;
  nlohmann::json witness = nlohmann::json::object();
  std::string method;                 // how it was found
  std::optional<uint64_t> seed;
  std::string budget;
  bool minimized = false;
  // Examples.
  std::string source;
  nlohmann::json expected;
  std::vector<Erratum> errata;

  std::filesystem::path file;  // where it was loaded from (empty for new cases)
};

nlohmann::json to_json(const Case& c);
// Validates the shape; `file` names the source in errors.
Result<Case> case_from_json(const nlohmann::json& j, const std::string& file);
Result<Case> load_case(const std::filesystem::path& file);
// Every *.json under `corpus_dir` except ledger.json, sorted by path; stops at the first bad file.
Result<std::vector<Case>> load_all(const std::filesystem::path& corpus_dir);

// Writes `content` to `file` by core/output_file.h's write_file (a regular file atomically: a
// temporary in the same folder, fsync, rename), creating parent folders. Returns the path.
Result<std::filesystem::path> write_atomic(const std::filesystem::path& file,
                                           const std::string& content);

// Where a new counterexample is stored: corpus/<family>/<claim minus family>/<reading>-<hash>.json,
// the hash over claim, reading, params and input (the same input always lands in the same file).
std::filesystem::path counterexample_path(const std::filesystem::path& corpus_dir, const Case& c);

// Same claim, reading, params and input.
bool same_input(const Case& a, const Case& b);

// Cell-level diff of a printed output against a computed one: every leaf (string, number, bool,
// null) that differs, and every cell present on one side only, named by its JSON pointer.
struct CellDiff {
  std::string cell;
  nlohmann::json printed;   // null when absent from the printed output
  nlohmann::json computed;  // null when absent from the computed output
};
std::vector<CellDiff> diff_cells(const nlohmann::json& printed, const nlohmann::json& computed);

// The number of leaf cells (strings, numbers, booleans, nulls) of a printed output.
size_t count_cells(const nlohmann::json& printed);

// Compares the diffs with the recorded errata. Returns the problems in words: diffs that no
// erratum explains, and errata that no longer match a diff (stale). Empty: reproduced exactly.
std::vector<std::string> explain_diffs(const std::vector<CellDiff>& diffs,
                                       const std::vector<Erratum>& errata);

}  // namespace topocheck::corpus
