// The shared pieces of report.h.
#include "check/report.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/json_lines.h"

namespace topocheck::check {

using nlohmann::json;

bool CheckReport::add(std::string check, const std::optional<std::string>& violation, const std::string& ok_words) {
  lines.push_back({std::move(check), violation ? "violated" : "ok", violation ? *violation : ok_words});
  return !violation;
}

void CheckReport::skip(std::string check, std::string why) { lines.push_back({std::move(check), "not applicable", std::move(why)}); }

bool CheckReport::violated() const {
  return std::any_of(lines.begin(), lines.end(), [](const CheckLine& l) { return l.verdict == "violated"; });
}

json CheckReport::to_json() const {
  json checks = json::array();
  for (const auto& l : lines) checks.push_back({{"check", l.check}, {"verdict", l.verdict}, {"words", l.words}});
  return {{"kind", kind}, {"verdict", violated() ? "violated" : "ok"}, {"checks", checks}};
}

std::string CheckReport::line(const std::string& check) const {
  for (const auto& l : lines)
    if (l.check == check) return l.verdict + ": " + l.words;
  return "absent";
}

FileErrors::FileErrors(const std::string& text, std::string file, int first_line)
    : lines_(json_pointer_lines(text)), file_(std::move(file)), first_line_(first_line) {}

Error FileErrors::at(const std::string& pointer, const std::string& what) const {
  const int line = line_of(lines_, pointer);
  return parse_error(fmt::format("{}: {}", pointer.empty() ? "(top level)" : pointer, what), file_,
                     line > 0 ? line + first_line_ - 1 : (first_line_ > 1 ? first_line_ : 0));
}

bool is_count(const json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0); }


}  // namespace topocheck::check
