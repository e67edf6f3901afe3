// What every kind of `topocheck check` shares: the report of a judged file (its checks in order,
// each "ok", "violated" or "not applicable" with words) and the errors of a user's file at a JSON
// pointer with the line of the value there (core/json_lines.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topocheck::check {

struct CheckLine {
  std::string check;    // "valid", "simple", ...
  std::string verdict;  // "ok", "violated", "not applicable"
  std::string words;
};
// The verdicts of one file: its kind ("paths", "schedule") and the checks in order.
struct CheckReport {
  std::string kind;
  std::vector<CheckLine> lines;
  // Appends `check`: "violated" with the violation's words, else "ok" with `ok_words`; returns
  // whether it is ok.
  bool add(std::string check, const std::optional<std::string>& violation, const std::string& ok_words);
  // Appends `check` as "not applicable", `why` its words.
  void skip(std::string check, std::string why);
  bool violated() const;
  // "verdict: words" of `check`, or "absent".
  std::string line(const std::string& check) const;
  nlohmann::json to_json() const;
};

// Errors of a user's file: kParse, naming the file and the line of the value at a JSON pointer.
// `first_line`: the file's line that `text` starts on (a JSON Lines record is one line of its file).
class FileErrors {
 public:
  FileErrors(const std::string& text, std::string file, int first_line = 1);
  Error at(const std::string& pointer, const std::string& what) const;

 private:
  std::map<std::string, int> lines_;
  std::string file_;
  int first_line_ = 1;
};

// A non-negative JSON integer, however nlohmann stores it (a file's 5 is unsigned, a built 5 signed).
bool is_count(const nlohmann::json& j);

}  // namespace topocheck::check
