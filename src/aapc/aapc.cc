#include "aapc/aapc.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <set>

#include <fmt/format.h>

namespace topocheck::aapc {
namespace {

std::optional<uint64_t> parse_uint(std::string_view s) {
  uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool adjacent(NodeId a, NodeId b) {
  const NodeId x = a ^ b;
  return x != 0 && (x & (x - 1)) == 0;
}

std::string step_of(const Schedule& s, int t) {
  for (const Step& st : s.steps)
    if (t >= st.begin && t < st.end) return st.name;
  return {};
}

}  // namespace

std::string to_string(Model m) {
  switch (m) {
    case Model::kAllPort: return "all_port";
    case Model::kOneReceive: return "one_receive";
    case Model::kOnePort: return "one_port";
  }
  return "?";
}

Result<Model> parse_model(std::string_view text) {
  for (Model m : kModels)
    if (to_string(m) == text) return m;
  return invalid_argument(fmt::format("--model: '{}' is not all_port, one_receive or one_port", text));
}

FaultSet::FaultSet(int n, std::vector<NodeId> faulty) : n_(n), faulty_(std::move(faulty)) {
  TC_CHECK(n >= 1 && n <= kMaxN, fmt::format("n = {} outside 1..{}", n, kMaxN));
  std::sort(faulty_.begin(), faulty_.end());
  TC_CHECK(std::adjacent_find(faulty_.begin(), faulty_.end()) == faulty_.end(), "repeated fault");
  faulty_mask_.assign(num_nodes(), false);
  for (NodeId x : faulty_) {
    TC_CHECK(x < num_nodes(), "fault out of range");
    faulty_mask_[x] = true;
  }
}

std::vector<NodeId> FaultSet::nonfaulty() const {
  std::vector<NodeId> out;
  for (NodeId x = 0; x < num_nodes(); ++x)
    if (!faulty_mask_[x]) out.push_back(x);
  return out;
}

std::string FaultSet::to_string() const { return fmt::format("{{{}}}", fmt::join(faulty_, ",")); }

Result<FaultSet> parse_faults(int n, std::string_view text) {
  if (n < 1 || n > kMaxN) return invalid_argument(fmt::format("--n: {} is outside 1..{}", n, kMaxN));
  std::vector<NodeId> faulty;
  std::set<NodeId> seen;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    auto v = parse_uint(item);
    if (!v) return invalid_argument(fmt::format("--faults: '{}' is not a node number", item));
    if (*v >= (uint64_t{1} << n))
      return invalid_argument(fmt::format("--faults: node {} is not in Q_{} (0..{})", *v, n, (1u << n) - 1));
    if (!seen.insert(static_cast<NodeId>(*v)).second)
      return invalid_argument(fmt::format("--faults: node {} is listed twice", *v));
    faulty.push_back(static_cast<NodeId>(*v));
    pos = comma + 1;
    if (comma + 1 == text.size()) return invalid_argument("--faults: trailing comma");
  }
  if (faulty.size() >= (size_t{1} << n))
    return invalid_argument("--faults: every node is faulty");
  return FaultSet(n, std::move(faulty));
}

std::vector<FaultSet> all_fault_sets(int n) {
  TC_CHECK(n >= 1 && n <= 4, "all_fault_sets: n must be in 1..4");
  std::vector<FaultSet> out;
  const NodeId N = NodeId{1} << n;
  for (uint64_t mask = 0; mask + 1 < (uint64_t{1} << N); ++mask) {
    std::vector<NodeId> faulty;
    for (NodeId x = 0; x < N; ++x)
      if ((mask >> x) & 1u) faulty.push_back(x);
    out.emplace_back(n, std::move(faulty));
  }
  return out;
}

std::string Datum::to_string() const { return fmt::format("{}_{}", dest, source); }

Result<Datum> parse_datum(std::string_view text) {
  const size_t u = text.find('_');
  if (u == std::string_view::npos)
    return parse_error(fmt::format("datum '{}' is not of the form i_j", text));
  auto i = parse_uint(text.substr(0, u));
  auto j = parse_uint(text.substr(u + 1));
  if (!i || !j || *i > UINT32_MAX || *j > UINT32_MAX)
    return parse_error(fmt::format("datum '{}' is not of the form i_j", text));
  return Datum{static_cast<NodeId>(*j), static_cast<NodeId>(*i)};
}

uint64_t Schedule::num_moves() const {
  uint64_t m = 0;
  for (const auto& u : units) m += u.size();
  return m;
}

ScheduleCheck check_schedule(const Schedule& s, const FaultSet& faults, Model model) {
  ScheduleCheck r;
  r.units = s.num_units();
  auto fail = [&](std::string why) {
    r.ok = false;
    r.violation = std::move(why);
    return r;
  };
  if (s.n != faults.n()) return fail(fmt::format("schedule is for Q_{}, faults for Q_{}", s.n, faults.n()));
  const NodeId N = faults.num_nodes();
  const uint64_t live = N - faults.faulty().size();
  r.data = live * (live - 1);
  // where[dest * N + source]: the node holding datum dest_source.
  std::vector<NodeId> where(uint64_t{N} * N);
  for (NodeId j = 0; j < N; ++j)
    for (NodeId i = 0; i < N; ++i) where[uint64_t{i} * N + j] = j;
  std::vector<int> moved_in(uint64_t{N} * N, -1);  // last unit the datum moved in
  std::vector<int> link_used(uint64_t{N} * s.n, -1);  // (from, dim) -> last unit used
  std::vector<int> recv_used(N, -1), send_used(N, -1);
  for (int t = 0; t < s.num_units(); ++t) {
    const int unit = t + 1;
    for (const Move& m : s.units[t]) {
      const Datum d = m.datum;
      auto here = [&] { return fmt::format("unit {}: {} {}->{}", unit, d.to_string(), m.from, m.to); };
      if (d.source >= N || d.dest >= N || d.source == d.dest || faults.is_faulty(d.source) ||
          faults.is_faulty(d.dest))
        return fail(here() + ": no such datum (source and destination must be distinct nonfaulty nodes)");
      if (m.from >= N || m.to >= N || !adjacent(m.from, m.to))
        return fail(here() + ": not a link of Q_" + std::to_string(s.n));
      if (faults.is_faulty(m.from) || faults.is_faulty(m.to))
        return fail(here() + fmt::format(": touches faulty node {}", faults.is_faulty(m.from) ? m.from : m.to));
      const uint64_t key = uint64_t{d.dest} * N + d.source;
      if (where[key] != m.from)
        return fail(here() + fmt::format(": the datum is at node {}, not {}", where[key], m.from));
      if (where[key] == d.dest) return fail(here() + ": the datum was already delivered");
      if (moved_in[key] == t) return fail(here() + ": the datum moves twice in one unit");
      const int dim = std::countr_zero(m.from ^ m.to);
      const uint64_t link = uint64_t{m.from} * s.n + dim;
      if (link_used[link] == t) return fail(here() + ": the directed link already carries a datum in this unit");
      if (model != Model::kAllPort && recv_used[m.to] == t)
        return fail(here() + fmt::format(": node {} already receives a datum in this unit ({})", m.to, to_string(model)));
      if (model == Model::kOnePort && send_used[m.from] == t)
        return fail(here() + fmt::format(": node {} already sends a datum in this unit (one_port)", m.from));
      link_used[link] = t;
      recv_used[m.to] = t;
      send_used[m.from] = t;
      moved_in[key] = t;
      where[key] = m.to;
      ++r.moves;
      r.last_busy_unit = unit;
    }
  }
  for (NodeId j = 0; j < N; ++j) {
    if (faults.is_faulty(j)) continue;
    for (NodeId i = 0; i < N; ++i) {
      if (i == j || faults.is_faulty(i)) continue;
      if (where[uint64_t{i} * N + j] == i) {
        ++r.delivered;
      } else if (r.violation.empty()) {
        r.violation = fmt::format("datum {} is not delivered (it ends at node {})", Datum{j, i}.to_string(),
                                  where[uint64_t{i} * N + j]);
      }
    }
  }
  r.ok = r.violation.empty();
  return r;
}

nlohmann::json to_json(const Schedule& s, const FaultSet& faults) {
  nlohmann::json j;
  j["n"] = s.n;
  j["faults"] = faults.faulty();
  j["steps"] = nlohmann::json::array();
  for (const Step& st : s.steps) j["steps"].push_back({{"name", st.name}, {"begin", st.begin}, {"end", st.end}});
  j["units"] = nlohmann::json::array();
  for (const auto& unit : s.units) {
    nlohmann::json u = nlohmann::json::array();
    for (const Move& m : unit) u.push_back({m.datum.to_string(), m.from, m.to});
    j["units"].push_back(std::move(u));
  }
  return j;
}

namespace {

// An integer of untrusted JSON in [lo, hi], or an error naming the field. Floats, strings and
// integers out of range are errors: nlohmann's get<int>() converts 1e300 with undefined behaviour
// and wraps 4294967298 to 2 silently.
Result<int64_t> json_integer(const nlohmann::json& v, const std::string& where, int64_t lo, int64_t hi) {
  bool in_range = false;
  int64_t value = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    in_range = u <= static_cast<uint64_t>(hi);
    value = in_range ? static_cast<int64_t>(u) : 0;
  } else if (v.is_number_integer()) {
    value = v.get<int64_t>();
    in_range = true;
  } else {
    return parse_error(fmt::format("{}: expected an integer, got {}", where, v.dump()));
  }
  if (!in_range || value < lo || value > hi)
    return parse_error(fmt::format("{}: {} is outside {}..{}", where, v.dump(), lo, hi));
  return value;
}

}  // namespace

Result<ScheduleInput> schedule_from_json(const nlohmann::json& j) {
  try {
    if (!j.is_object()) return parse_error("schedule: not a JSON object");
    auto n = json_integer(j.at("n"), "n", 1, kMaxN);
    if (!n) return n.error();
    std::string faults_text;
    for (const auto& f : j.at("faults")) {
      auto fault = json_integer(f, "faults", 0, (int64_t{1} << *n) - 1);
      if (!fault) return fault.error();
      if (!faults_text.empty()) faults_text += ",";
      faults_text += std::to_string(*fault);
    }
    auto faults = parse_faults(static_cast<int>(*n), faults_text);
    if (!faults.ok()) return parse_error("n/faults: " + faults.error().message);
    Schedule s;
    s.n = static_cast<int>(*n);
    const auto& units = j.at("units");
    const int64_t num_units = static_cast<int64_t>(units.size());
    if (j.contains("steps")) {
      for (size_t k = 0; k < j.at("steps").size(); ++k) {
        const auto& st = j.at("steps").at(k);
        const std::string where = fmt::format("steps[{}]", k);
        auto begin = json_integer(st.at("begin"), where + ".begin", 0, num_units);
        if (!begin) return begin.error();
        auto end = json_integer(st.at("end"), where + ".end", 0, num_units);
        if (!end) return end.error();
        if (*end < *begin)
          return parse_error(fmt::format("{}: range [{}, {}) outside the units", where, *begin, *end));
        s.steps.push_back(Step{st.at("name").get<std::string>(), static_cast<int>(*begin), static_cast<int>(*end)});
      }
    }
    for (size_t t = 0; t < units.size(); ++t) {
      std::vector<Move> moves;
      for (size_t k = 0; k < units.at(t).size(); ++k) {
        const auto& m = units.at(t).at(k);
        const std::string where = fmt::format("units[{}][{}]", t, k);
        if (!m.is_array() || m.size() != 3) return parse_error(where + ": a move is [\"i_j\", from, to]");
        auto d = parse_datum(m.at(0).get<std::string>());
        if (!d.ok()) return parse_error(fmt::format("{}: {}", where, d.error().message));
        // Any node number is read; the checker says which moves are not links of Q_n.
        auto from = json_integer(m.at(1), where + " from", 0, UINT32_MAX);
        if (!from) return from.error();
        auto to = json_integer(m.at(2), where + " to", 0, UINT32_MAX);
        if (!to) return to.error();
        moves.push_back(Move{*d, static_cast<NodeId>(*from), static_cast<NodeId>(*to)});
      }
      s.units.push_back(std::move(moves));
    }
    return ScheduleInput{std::move(s), std::move(faults).value()};
  } catch (const nlohmann::json::exception& e) {
    return parse_error(std::string("schedule: ") + e.what());
  }
}

std::string to_text(const Schedule& s) {
  std::string out;
  for (int t = 0; t < s.num_units(); ++t) {
    const std::string step = step_of(s, t);
    out += fmt::format("unit {}{}:", t + 1, step.empty() ? "" : " [" + step + "]");
    for (size_t k = 0; k < s.units[t].size(); ++k) {
      const Move& m = s.units[t][k];
      out += fmt::format("{} {} {}->{}", k ? "," : "", m.datum.to_string(), m.from, m.to);
    }
    out += "\n";
  }
  return out;
}

std::string link_use_csv(const Schedule& s) {
  std::string out = "unit,step,from,to,datum\n";
  for (int t = 0; t < s.num_units(); ++t)
    for (const Move& m : s.units[t])
      out += fmt::format("{},{},{},{},{}\n", t + 1, step_of(s, t), m.from, m.to, m.datum.to_string());
  return out;
}

std::string link_use_svg(const Schedule& s) {
  const NodeId N = NodeId{1} << s.n;
  const int cell = 8, left = 90, top = 30;
  const int rows = static_cast<int>(N) * s.n;  // directed link (from, dim)
  const int width = left + cell * std::max(1, s.num_units()) + 10;
  const int height = top + cell * rows + 10;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"monospace\" "
      "font-size=\"8\">\n<text x=\"4\" y=\"12\">link use per time unit (columns: units 1..{}; rows: "
      "directed links from->from^(2^dim))</text>\n",
      width, height, s.num_units());
  for (const Step& st : s.steps)
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
                       "stroke=\"#999\"/>\n",
                       left + cell * st.begin, top - 4, st.name, left + cell * st.begin, top,
                       left + cell * st.begin, height - 10);
  for (NodeId x = 0; x < N; ++x)
    for (int d = 0; d < s.n; ++d) {
      const int row = static_cast<int>(x) * s.n + d;
      if (s.n <= 5)
        out += fmt::format("<text x=\"4\" y=\"{}\">{}->{}</text>\n", top + cell * row + cell - 1, x, x ^ (1u << d));
    }
  for (int t = 0; t < s.num_units(); ++t)
    for (const Move& m : s.units[t]) {
      const int row = static_cast<int>(m.from) * s.n + std::countr_zero(m.from ^ m.to);
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#36c\"><title>unit {}: {} "
                         "{}->{}</title></rect>\n",
                         left + cell * t, top + cell * row, cell - 1, cell - 1, t + 1, m.datum.to_string(), m.from,
                         m.to);
    }
  out += "</svg>\n";
  return out;
}

std::vector<std::pair<std::string, std::vector<Datum>>> data_on_link(const Schedule& s, NodeId a, NodeId b) {
  std::vector<std::pair<std::string, std::vector<Datum>>> out;
  auto add = [&](const std::string& name, int begin, int end) {
    std::vector<Datum> data;
    for (int t = begin; t < end; ++t)
      for (const Move& m : s.units[t])
        if ((m.from == a && m.to == b) || (m.from == b && m.to == a)) data.push_back(m.datum);
    out.emplace_back(name, std::move(data));
  };
  if (s.steps.empty()) {
    add("all", 0, s.num_units());
  } else {
    for (const Step& st : s.steps) add(st.name, st.begin, st.end);
  }
  return out;
}

int64_t paper_units_a1(int n) { return 5 * (int64_t{1} << (n - 1)) - 2; }
int64_t paper_units_a2(int n) { return 5 * (int64_t{1} << (n - 1)) + n - 1; }
int64_t paper_units_af(int n, int f) {
  TC_CHECK(f >= 0 && f + 1 <= n, "A_f's count needs f + 1 <= n");
  return (5 * (int64_t{1} << f) - 2) * (int64_t{1} << (n - (f + 1)));
}
int64_t paper_units_optimum(int n) { return (int64_t{1} << n) - 1; }

}  // namespace topocheck::aapc
