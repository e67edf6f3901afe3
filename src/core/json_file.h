// Reading a JSON file given by a user (corpus cases, the ledger, shard reports): errors name the
// file and, for invalid JSON, the line (parse_error: "FILE:LINE: error: ..."); never throws.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topocheck {

// The parsed contents of `file`; `unreadable` is the message when it cannot be opened.
Result<nlohmann::json> read_json_file(const std::filesystem::path& file,
                                      const std::string& unreadable = "cannot read the file");

// The file's text and its parsed contents, for loaders that name the line of a bad value
// (core/json_lines.h); the same errors as read_json_file.
struct JsonText {
  std::string text;
  nlohmann::json json;
};
Result<JsonText> read_json_text(const std::filesystem::path& file, const std::string& unreadable = "cannot read the file");

}  // namespace topocheck
