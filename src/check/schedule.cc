// The schedule check of schedule.h.
#include "check/schedule.h"

#include <cctype>
#include <string>
#include <set>

#include <fmt/format.h>

#include "aapc/bounds.h"

namespace topocheck::check {
namespace {

using nlohmann::json;

constexpr int kMaxScheduleN = 10;
constexpr size_t kMaxMoves = size_t{1} << 20;

// aapc's loader names places as "units[3][0]", "steps[1].begin", "n/faults": the JSON pointer of
// the value it means, for its line. A hand scanner, not <regex>: GCC 12's -Wmaybe-uninitialized
// fires inside std::regex's automaton under -fsanitize=address with -O2 (the ASan/UBSan CI build).
std::string pointer_of(const std::string& message) {
  size_t at = 0;
  std::string p;
  for (const char* field : {"units", "steps", "faults", "n"}) {
    if (message.compare(0, std::char_traits<char>::length(field), field) == 0) {
      p = "/";
      p.append(field);
      at = p.size() - 1;
      break;
    }
  }
  if (p.empty()) return "";
  for (int index = 0; index < 2 && at < message.size() && message[at] == '['; ++index) {
    size_t end = at + 1;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    if (end == at + 1 || end >= message.size() || message[end] != ']') break;
    p.push_back('/');
    p.append(message, at + 1, end - at - 1);
    at = end + 1;
  }
  if (at < message.size() && message[at] == '.') {
    size_t end = at + 1;
    while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_')) ++end;
    if (end > at + 1) {
      p.push_back('/');
      p.append(message, at + 1, end - at - 1);
    }
  }
  return p;
}

}  // namespace

Result<ScheduleFile> schedule_file_from_json(const json& j, const std::string& text, const std::string& file) {
  const FileErrors errors(text, file);
  auto at = [&](const std::string& pointer, const std::string& what) { return errors.at(pointer, what); };
  if (!j.is_object()) return at("", "a schedule file is a JSON object (n, faults, units)");
  static const std::set<std::string> known = {"kind", "n", "faults", "model", "steps", "units", "max_units"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!known.count(it.key())) return at("/" + it.key(), "unknown field (n, faults, model, steps, units, max_units)");
  if (j.contains("kind") && j.at("kind") != "schedule") return at("/kind", "must be \"schedule\" in a schedule file");
  for (const char* f : {"n", "faults", "units"})
    if (!j.contains(f)) return at("", fmt::format("missing field {}", f));
  if (!is_count(j.at("n")) || j.at("n").get<uint64_t>() < 1 || j.at("n").get<uint64_t>() > kMaxScheduleN)
    return at("/n", fmt::format("must be an integer in 1..{}", kMaxScheduleN));
  if (!j.at("faults").is_array()) return at("/faults", "must be an array of node numbers");
  if (!j.at("units").is_array()) return at("/units", "must be an array of units, each an array of moves");
  size_t moves = 0;
  for (size_t t = 0; t < j.at("units").size(); ++t) {
    const json& u = j.at("units")[t];
    if (!u.is_array()) return at(fmt::format("/units/{}", t), "must be an array of moves [\"i_j\", from, to]");
    for (size_t k = 0; k < u.size(); ++k)
      if (!u[k].is_array() || u[k].size() != 3 || !u[k][0].is_string())
        return at(fmt::format("/units/{}/{}", t, k), "a move is [\"<dest>_<source>\", from, to]");
    moves += u.size();
  }
  if (moves > kMaxMoves) return at("/units", fmt::format("at most {} moves", kMaxMoves));
  if (j.contains("steps")) {
    if (!j.at("steps").is_array()) return at("/steps", "must be an array of {name, begin, end}");
    for (size_t k = 0; k < j.at("steps").size(); ++k) {
      const json& st = j.at("steps")[k];
      if (!st.is_object() || !st.contains("name") || !st.at("name").is_string() || !st.contains("begin") || !st.contains("end"))
        return at(fmt::format("/steps/{}", k), "a step is {\"name\": ..., \"begin\": unit, \"end\": unit}");
    }
  }
  ScheduleFile out{aapc::Schedule{}, aapc::FaultSet(1, {}), aapc::Model::kAllPort, std::nullopt};
  if (j.contains("model")) {
    if (!j.at("model").is_string()) return at("/model", "must be all_port, one_receive or one_port");
    auto m = aapc::parse_model(j.at("model").get<std::string>());
    if (!m) return at("/model", "must be all_port, one_receive or one_port");
    out.model = *m;
  }
  if (j.contains("max_units")) {
    if (!is_count(j.at("max_units")) || j.at("max_units").get<uint64_t>() > (uint64_t{1} << 30))
      return at("/max_units", "must be a non-negative integer");
    out.max_units = static_cast<int>(j.at("max_units").get<uint64_t>());
  }
  json body = j;
  body.erase("kind");
  body.erase("model");
  body.erase("max_units");
  Result<aapc::ScheduleInput> in = parse_error("schedule: unread");
  try {
    in = aapc::schedule_from_json(body);
  } catch (const json::exception& e) {
    return at("", fmt::format("not an AAPC schedule: {}", e.what()));
  }
  if (!in) return at(pointer_of(in.error().message), in.error().message);
  out.schedule = std::move(in.value().schedule);
  out.faults = std::move(in.value().faults);
  return out;
}

CheckReport judge_schedule(const ScheduleFile& in) {
  CheckReport r;
  r.kind = "schedule";
  const aapc::ScheduleCheck c = aapc::check_schedule(in.schedule, in.faults, in.model);
  r.add("valid", c.ok ? std::nullopt : std::optional<std::string>(c.violation),
                     fmt::format("{} data delivered in {} moves under the {} model; faulty nodes {}", c.delivered, c.moves,
                                        aapc::to_string(in.model), in.faults.to_string()));
  if (in.max_units) {
    if (!c.ok) r.skip("max_units", "the schedule is not valid");
    else if (c.units > *in.max_units)
      r.lines.push_back({"max_units", "violated", fmt::format("the schedule takes {} units, more than {}", c.units, *in.max_units)});
    else
      r.lines.push_back({"max_units", "ok", fmt::format("the schedule takes {} units, at most {}", c.units, *in.max_units)});
  }
  const aapc::LowerBounds lb = aapc::lower_bounds(in.faults, in.model);
  if (!c.ok) {
    r.skip("lower_bound", "the schedule is not valid");
  } else if (c.units < lb.best) {
    r.lines.push_back({"lower_bound", "violated",
                       fmt::format("a valid schedule of {} units is shorter than the lower bound {} ({}): the suite contradicts itself",
                                   c.units, lb.best, lb.attained_by)});
  } else {
    r.lines.push_back({"lower_bound", "ok",
                       fmt::format("{} units; the best lower bound is {} ({}){}", c.units, lb.best, lb.attained_by,
                                   c.units == lb.best ? ": the schedule is optimal" : "")});
  }
  return r;
}

}  // namespace topocheck::check
