#include "core/json_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace topocheck {

Result<nlohmann::json> read_json_file(const std::filesystem::path& file, const std::string& unreadable) {
  auto read = read_json_text(file, unreadable);
  if (!read) return read.error();
  return std::move(read.value().json);
}

Result<JsonText> read_json_text(const std::filesystem::path& file, const std::string& unreadable) {
  const std::string name = file.string();
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) return parse_error("is a directory, not a JSON file", name);
  std::ifstream in(file);
  if (!in) return parse_error(unreadable, name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    return JsonText{std::move(text), std::move(j)};
  } catch (const nlohmann::json::parse_error& e) {
    const size_t upto = std::min<size_t>(e.byte, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n'));
    return parse_error(fmt::format("invalid JSON: {}", e.what()), name, line);
  } catch (const nlohmann::json::out_of_range& e) {
    // A number literal beyond the range of a double ("3E333"): nlohmann reports it as out_of_range
    // (406), not as a parse error, and without its position.
    return parse_error(fmt::format("invalid JSON: {}", e.what()), name);
  }
}

}  // namespace topocheck
