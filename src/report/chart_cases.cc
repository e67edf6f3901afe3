// The direct SVG drawings of cases (internal/cases.h): AAPC schedules, fault sets and counts,
// the routing study's figures and buffer deadlocks, wormhole throughput, and the table every
// other case falls back to. Each reads the witness through json_checks.h first.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aapc/aapc.h"
#include "report/internal/cases.h"
#include "report/internal/json_checks.h"
#include "report/svg.h"
#include "routing/deadlock.h"

namespace topocheck::report::internal {
namespace {

using nlohmann::json;

Caption caption_for(const corpus::Case& c, const std::string& kind, const std::string& words) {
  return Caption{title_of(c, kind), desc_of(c, words), {fmt::format("{} [{}]", c.claim, c.reading), statement_of(c)}};
}

Prepared finished(const std::string& kind, const std::string& caption, std::string svg) {
  Prepared out;
  out.kind = kind;
  out.caption = caption;
  out.svg = std::move(svg);
  return out;
}

bool close_to(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

// ---------------------------------------------------------------------------------------------
// AAPC (paper 003): node numbers 0 .. 2^n - 1, bit i = dimension i.

// Q_n split into the subcubes spanned by `dims` (a mask): the nodes agreeing outside `dims`, each
// group ascending, the groups ordered by their smallest node.
std::vector<std::vector<uint64_t>> partition_by(int n, uint64_t dims) {
  std::vector<std::vector<uint64_t>> out;
  for (uint64_t x = 0; x < (uint64_t{1} << n); ++x) {
    if (x & dims) continue;  // x is the group's smallest node: zero on every dimension of `dims`
    std::vector<uint64_t> group;
    for (uint64_t y = 0; y < (uint64_t{1} << n); ++y)
      if ((y & ~dims) == x) group.push_back(y);
    out.push_back(group);
  }
  return out;
}

uint64_t mask_of(const std::vector<int64_t>& dims) {
  uint64_t m = 0;
  for (int64_t d : dims) m |= uint64_t{1} << d;
  return m;
}

// The index of the group equal (as a set) to `nodes`; Malformed at `pointer` when none is.
size_t group_equal_to(const std::vector<std::vector<uint64_t>>& groups, std::vector<int64_t> nodes, const std::string& pointer,
                      const std::string& what) {
  std::sort(nodes.begin(), nodes.end());
  for (size_t g = 0; g < groups.size(); ++g)
    if (std::equal(groups[g].begin(), groups[g].end(), nodes.begin(), nodes.end(),
                   [](uint64_t a, int64_t b) { return a == static_cast<uint64_t>(b); }))
      return g;
  fail(pointer, fmt::format("{{{}}} is not {}", fmt::join(nodes, ","), what));
}

std::string set_words(const std::vector<int64_t>& xs) { return fmt::format("{{{}}}", fmt::join(xs, ",")); }

// A dimension given as an integer or as the text of one ("d": 0 or "d": "0").
int64_t dimension(const json& j, const std::string& pointer, int n) {
  if (j.is_string()) {
    const auto list = number_list(j.get<std::string>(), pointer, 0, n - 1);
    if (list.size() != 1) fail(pointer, "expected one dimension");
    return list[0];
  }
  return integer(j, pointer, 0, n - 1);
}

// The faults: the witness's list when it has one (it must agree with the input's), else the input's.
std::vector<int64_t> faults_of(const corpus::Case& c, int n) {
  const int64_t last = (int64_t{1} << n) - 1;
  std::optional<std::vector<int64_t>> given;
  if (const json* f = find(c.input, "faults")) given = number_list(text(*f, "/input/faults"), "/input/faults", 0, last);
  if (const json* f = find(c.witness, "faults")) {
    auto listed = number_array(*f, "/witness/faults", 0, last);
    if (given && std::set(given->begin(), given->end()) != std::set(listed.begin(), listed.end()))
      fail("/witness/faults", fmt::format("{} differs from /input/faults {}", set_words(listed), set_words(*given)));
    return listed;
  }
  if (!given) fail("/input/faults", "missing");
  return *given;
}

std::vector<uint64_t> as_nodes(const std::vector<int64_t>& xs) { return {xs.begin(), xs.end()}; }

// The stored schedule (aapc.h's JSON form) as a units x links grid. Before drawing, the schedule
// is judged by aapc's own checker under the case's model: it must be valid, on the case's n and
// faults, with the witness's length and the witness's steps (names and units, in order); a
// schedule that disagrees with its witness is a broken drawing, refused.
Prepared aapc_link_grid(const corpus::Case& c, const json& stored, const ScheduleFigure& steps, const std::string& algorithm_text,
                        const std::string& broken) {
  const std::string sp = "/witness/schedule";
  const int64_t n = integer(member(c.params, "/params", "n"), "/params/n", 1, aapc::kMaxN);
  auto parsed = aapc::parse_model(text(member(c.params, "/params", "model"), "/params/model"));
  if (!parsed) fail("/params/model", parsed.error().message);
  auto in = aapc::schedule_from_json(stored);
  if (!in) fail(sp, in.error().message);
  const aapc::Schedule& s = in->schedule;
  if (s.n != n) fail(sp + "/n", fmt::format("{} is not /params/n {}", s.n, n));
  const std::vector<int64_t> faults = faults_of(c, static_cast<int>(n));
  const std::set<int64_t> want(faults.begin(), faults.end());
  const std::set<int64_t> got(in->faults.faulty().begin(), in->faults.faulty().end());
  if (want != got) fail(sp + "/faults", fmt::format("{} is not the case's faults {}", set_words({got.begin(), got.end()}), set_words(faults)));
  const aapc::ScheduleCheck check = aapc::check_schedule(s, in->faults, *parsed);
  const std::string marked = text(member(c.witness, "/witness", "checker"), "/witness/checker");
  if (!check.ok && marked == "valid") fail(sp, "the witness calls the schedule valid, the checker finds: " + check.violation);
  if (check.ok && marked != "valid") fail("/witness/checker", fmt::format("\"{}\", but the checker finds the schedule valid", marked));
  const int64_t units = integer(member(c.witness, "/witness", "units"), "/witness/units", 0, int64_t{1} << 50);
  if (check.units != units) fail(sp + "/units", fmt::format("the schedule has {} units, /witness/units says {}", check.units, units));
  if (s.steps.size() != steps.steps.size()) fail(sp + "/steps", fmt::format("{} steps, /witness/steps has {}", s.steps.size(), steps.steps.size()));
  LinkGridFigure f;
  for (size_t i = 0; i < s.steps.size(); ++i) {
    const aapc::Step& st = s.steps[i];
    if (st.name != steps.steps[i].name || st.end - st.begin != steps.steps[i].units)
      fail(child(sp + "/steps", i), fmt::format("\"{}\" ({} units) is not /witness/steps/{} \"{}\" ({} units)", st.name, st.end - st.begin, i,
                                                 steps.steps[i].name, steps.steps[i].units));
    f.steps.push_back({st.name, st.begin, st.end, st.name == broken});
  }
  // Rows: the directed links between nonfaulty nodes, by source then dimension.
  const uint64_t N = uint64_t{1} << n;
  std::map<std::pair<uint64_t, uint64_t>, size_t> row;
  for (uint64_t x = 0; x < N; ++x)
    for (int d = 0; d < n; ++d) {
      const uint64_t y = x ^ (uint64_t{1} << d);
      if (want.count(static_cast<int64_t>(x)) || want.count(static_cast<int64_t>(y))) continue;
      row.emplace(std::pair{x, y}, f.links.size());
      f.links.push_back(fmt::format("{}->{}", x, y));
    }
  f.units = s.num_units();
  for (int t = 0; t < s.num_units(); ++t)
    for (const aapc::Move& m : s.units[static_cast<size_t>(t)]) {
      const auto r = row.find({m.from, m.to});
      if (r == row.end()) fail(sp, fmt::format("unit {}: {}->{} is no link between nonfaulty nodes", t + 1, m.from, m.to));
      f.cells.push_back({t, r->second,
                         fmt::format("unit {}: datum {} (from {} to {}) moves {}->{}", t + 1, m.datum.to_string(), m.datum.source,
                                     m.datum.dest, m.from, m.to)});
    }
  f.paper_units = steps.paper_units;
  f.paper_label = steps.paper_label;
  f.notes.push_back(fmt::format("{} moves of {} data; faulty nodes {} (their links are not drawn); model {}", check.moves, check.data,
                                set_words(faults), aapc::to_string(*parsed)));
  const std::string words = fmt::format(
      "{}: every move of the schedule as a grid, one column per time unit ({} units), one row per directed link between nonfaulty "
      "nodes ({} links); a filled cell is a link carrying a datum in that unit. The steps are numbered bands over their units and "
      "listed in the legend; the schedule's end (black line) stands against the paper's count ({}, red dashed line).{}",
      algorithm_text, f.units, f.links.size(), f.paper_label,
      broken.empty() ? std::string(" No single step is named: the total is what the violation compares.")
                     : fmt::format(" The step the violation names, '{}', is shaded, its moves red, and labelled \"broken step\".", broken));
  f.caption = caption_for(c, "aapc schedule", words);
  f.caption.heading.push_back(fmt::format("{}, {} model, Q_{}", algorithm_text, aapc::to_string(*parsed), n));
  return finished("aapc schedule", words, link_grid_svg(f));
}

Prepared aapc_schedule(const corpus::Case& c) {
  const json& w = c.witness;
  const std::string wp = "/witness";
  ScheduleFigure f;
  const json& steps = array(member(w, wp, "steps"), wp + "/steps");
  int64_t sum = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string sp = child(wp + "/steps", i);
    f.steps.push_back({text(member(steps[i], sp, "name"), sp + "/name"),
                       integer(member(steps[i], sp, "units"), sp + "/units", 0, int64_t{1} << 40), false});
    sum += f.steps.back().units;
  }
  const int64_t units = integer(member(w, wp, "units"), wp + "/units", 0, int64_t{1} << 50);
  if (units != sum) fail(wp + "/units", fmt::format("{} is not the sum of the steps' units, {}", units, sum));
  f.paper_units = integer(member(w, wp, "paper_units"), wp + "/paper_units", 0, int64_t{1} << 50);
  const json* formula = find(w, "paper_formula");
  const std::string formula_text = formula ? text(*formula, wp + "/paper_formula") + " = " : "";
  f.paper_label = fmt::format("paper: {}{} units", formula_text, f.paper_units);
  // The violation names a step in quotes when one step breaks the claim ("'phase 2 step 1' takes ...").
  std::string broken;
  if (!c.violation.empty() && c.violation[0] == '\'') {
    const size_t end = c.violation.find('\'', 1);
    broken = c.violation.substr(1, end == std::string::npos ? std::string::npos : end - 1);
    auto it = std::find_if(f.steps.begin(), f.steps.end(), [&](const auto& s) { return s.name == broken; });
    if (it == f.steps.end()) fail("/violation", fmt::format("names the step '{}', which is not in /witness/steps", broken));
    it->broken = true;
  }
  const json* algorithm = find(w, "algorithm");
  const std::string algorithm_text = algorithm ? text(*algorithm, wp + "/algorithm") : "the schedule";
  if (const json* schedule = find(w, "schedule")) return aapc_link_grid(c, *schedule, f, algorithm_text, broken);
  const std::string words = fmt::format(
      "{}: its {} steps as a grid of units (time), one row per step, each step a bar starting where the previous one ended; "
      "the schedule's total ({} units, black line) against the paper's count ({}, red dashed line).{}",
      algorithm_text, f.steps.size(), units, f.paper_label,
      broken.empty() ? std::string(" No single step is named: the total is what the violation compares.")
                     : fmt::format(" The step the violation names, '{}', is red and labelled \"broken step\".", broken));
  f.caption = caption_for(c, "aapc schedule", words);
  if (const json* model = find(c.params, "model"))
    f.caption.heading.push_back(fmt::format("{}, {} model, Q_{}", algorithm_text, text(*model, "/params/model"),
                                            integer(member(c.params, "/params", "n"), "/params/n", 1, 63)));
  return finished("aapc schedule", words, schedule_svg(f));
}

// The Q_n drawings of AAPC fault sets: a partition into subcubes (partner sets), faulty nodes,
// and the subcubes the case is about marked with words.
Prepared aapc_partition(const corpus::Case& c, int n) {
  constexpr int kMaxDrawn = 8;
  if (n > kMaxDrawn) fail("/params/n", fmt::format("Q_{} is too large to draw node by node (at most Q_{})", n, kMaxDrawn));
  const json& w = c.witness;
  const std::string wp = "/witness";
  CubeFigure f;
  f.n = n;
  std::string words;
  if (c.claim == "aapc.example1.partner_sets") {
    // The printed partner sets: they must partition Q_n into the partner sets of the input's D.
    const auto dims = number_list(text(member(c.input, "/input", "dims"), "/input/dims"), "/input/dims", 0, n - 1);
    const auto groups = partition_by(n, mask_of(dims));
    const json& sets = array(member(c.expected, "/expected", "partner_sets"), "/expected/partner_sets");
    std::set<size_t> seen;
    for (size_t i = 0; i < sets.size(); ++i) {
      const std::string p = child("/expected/partner_sets", i);
      const size_t g = group_equal_to(groups, number_array(sets[i], p, 0, (int64_t{1} << n) - 1), p,
                                      fmt::format("a partner set of D = {}", set_words(dims)));
      if (!seen.insert(g).second) fail(p, "repeats a partner set");
      f.groups.push_back(groups[g]);
    }
    if (f.groups.size() != groups.size())
      fail("/expected/partner_sets", fmt::format("{} sets do not cover Q_{} ({} partner sets)", f.groups.size(), n, groups.size()));
    f.group_label = "PS";
    if (const json* corr = find(c.expected, "corresponding")) {
      const auto nodes = number_array(member(*corr, "/expected/corresponding", "nodes"), "/expected/corresponding/nodes", 0,
                                      (int64_t{1} << n) - 1);
      f.notes.push_back(fmt::format("corresponding nodes (as printed): {}", fmt::join(nodes, ", ")));
    }
    words = fmt::format("Q_{} partitioned into the {} printed partner sets of D = {}, each a box of its nodes (number and bits).",
                        n, f.groups.size(), set_words(dims));
  } else if (const json* ps = find(w, "ps")) {
    // Proposition 1: two faulty nodes in one partner set of D.
    const auto dims = number_list(text(member(w, wp, "D"), wp + "/D"), wp + "/D", 0, n - 1);
    f.groups = partition_by(n, mask_of(dims));
    f.group_label = "PS";
    const auto faults = faults_of(c, n);
    const auto nodes = number_array(*ps, wp + "/ps", 0, (int64_t{1} << n) - 1);
    const size_t g = group_equal_to(f.groups, nodes, wp + "/ps", fmt::format("a partner set of D = {}", set_words(dims)));
    for (int64_t x : faults)
      if (!std::count(nodes.begin(), nodes.end(), x)) fail(wp + "/ps", fmt::format("does not hold the fault {}", x));
    f.faulty = as_nodes(faults);
    f.marks.push_back({g, fmt::format("faults {} share this PS", fmt::join(faults, " and "))});
    words = fmt::format("Q_{} partitioned into the partner sets of D = {}; faulty nodes {} are red and labelled \"faulty\"; the "
                        "partner set they share, {}, is outlined red with words.",
                        n, set_words(dims), set_words(faults), set_words(nodes));
  } else if (const json* pss = find(w, "faulty_pss")) {
    // Proposition 3: a faulty PS and its perfect neighbours along dimensions outside D.
    const auto dims = number_list(text(member(w, wp, "D"), wp + "/D"), wp + "/D", 0, n - 1);
    f.groups = partition_by(n, mask_of(dims));
    f.group_label = "PS";
    const auto faults = faults_of(c, n);
    f.faulty = as_nodes(faults);
    const std::set<int64_t> faulty(faults.begin(), faults.end());
    std::vector<std::string> said;
    for (size_t i = 0; i < array(*pss, wp + "/faulty_pss").size(); ++i) {
      const std::string p = child(wp + "/faulty_pss", i);
      const auto nodes = number_array(member((*pss)[i], p, "ps"), p + "/ps", 0, (int64_t{1} << n) - 1);
      const size_t g = group_equal_to(f.groups, nodes, p + "/ps", fmt::format("a partner set of D = {}", set_words(dims)));
      if (std::none_of(nodes.begin(), nodes.end(), [&](int64_t x) { return faulty.count(x); }))
        fail(p + "/ps", "holds no faulty node");
      f.marks.push_back({g, "faulty PS"});
      std::vector<std::string> perfect;
      const json& neighbours = array(member((*pss)[i], p, "perfect_neighbours"), p + "/perfect_neighbours");
      for (size_t j = 0; j < neighbours.size(); ++j) {
        const std::string q = child(p + "/perfect_neighbours", j);
        const int64_t d = integer(member(neighbours[j], q, "d"), q + "/d", 0, n - 1);
        if (mask_of(dims) >> d & 1) fail(q + "/d", fmt::format("{} is a dimension of D = {}", d, set_words(dims)));
        // The neighbour of a PS along d: every node with bit d flipped.
        std::vector<int64_t> across;
        for (int64_t x : nodes) across.push_back(x ^ (int64_t{1} << d));
        const auto listed = number_array(member(neighbours[j], q, "ps"), q + "/ps", 0, (int64_t{1} << n) - 1);
        if (std::set(across.begin(), across.end()) != std::set(listed.begin(), listed.end()))
          fail(q + "/ps", fmt::format("{} is not the neighbour of {} along d = {}", set_words(listed), set_words(nodes), d));
        if (std::any_of(listed.begin(), listed.end(), [&](int64_t x) { return faulty.count(x); }))
          fail(q + "/ps", "holds a faulty node, so it is not perfect");
        f.marks.push_back({group_equal_to(f.groups, listed, q + "/ps", "a partner set"),
                           fmt::format("perfect neighbour along d = {}", d)});
        perfect.push_back(fmt::format("{} along d = {}", set_words(listed), d));
      }
      said.push_back(fmt::format("the faulty PS {} and its perfect neighbours {}", set_words(nodes),
                                 perfect.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(perfect, ", "))));
    }
    words = fmt::format("Q_{} partitioned into the partner sets of D = {}; faulty nodes {} red and labelled \"faulty\"; outlined "
                        "red with words: {}.",
                        n, set_words(dims), set_words(faults), fmt::join(said, ", "));
  } else if (const json* subcubes = find(w, "faulty_subcubes")) {
    // Section 2: the subcubes spanned by D and d that hold a fault.
    const auto dims = number_list(text(member(w, wp, "D"), wp + "/D"), wp + "/D", 0, n - 1);
    const int64_t d = integer(member(w, wp, "d"), wp + "/d", 0, n - 1);
    if (mask_of(dims) >> d & 1) fail(wp + "/d", fmt::format("{} is a dimension of D = {}", d, set_words(dims)));
    f.groups = partition_by(n, mask_of(dims) | uint64_t{1} << d);
    f.group_label = fmt::format("Q_{}", dims.size() + 1);
    const auto faults = faults_of(c, n);
    f.faulty = as_nodes(faults);
    const std::set<int64_t> faulty(faults.begin(), faults.end());
    for (size_t i = 0; i < array(*subcubes, wp + "/faulty_subcubes").size(); ++i) {
      const std::string p = child(wp + "/faulty_subcubes", i);
      const auto nodes = number_array((*subcubes)[i], p, 0, (int64_t{1} << n) - 1);
      const size_t g = group_equal_to(f.groups, nodes, p, fmt::format("a subcube spanned by D = {} and d = {}", set_words(dims), d));
      if (std::none_of(nodes.begin(), nodes.end(), [&](int64_t x) { return faulty.count(x); })) fail(p, "holds no faulty node");
      f.marks.push_back({g, "faulty subcube"});
    }
    words = fmt::format("Q_{} partitioned into the subcubes spanned by D = {} and d = {}; faulty nodes {} red and labelled "
                        "\"faulty\"; the {} faulty subcube(s) outlined red and labelled \"faulty subcube\".",
                        n, set_words(dims), d, set_words(faults), subcubes->size());
  } else if (const json* bits = find(w, "distinguishing_bits")) {
    // Proposition 1's extra dimension: the faults and the bits that tell them apart.
    const auto dims = number_list(text(*bits, wp + "/distinguishing_bits"), wp + "/distinguishing_bits", 0, n - 1);
    f.groups = partition_by(n, (uint64_t{1} << n) - 1);
    f.group_label = fmt::format("Q_{}", n);
    const auto faults = faults_of(c, n);
    f.faulty = as_nodes(faults);
    f.notes.push_back(fmt::format("distinguishing bits of the faults: {}", set_words(dims)));
    words = fmt::format("Q_{} with the faulty nodes {} red and labelled \"faulty\"; the bits that distinguish them: {}.", n,
                        set_words(faults), set_words(dims));
  } else {
    // A dimension d and faults: Q_n split into the pairs across d, pairs of two faults marked.
    const json* dj = find(c.input, "d");
    if (!dj) fail("/input/d", "missing (no drawing fits the case otherwise)");
    const int64_t d = dimension(*dj, "/input/d", n);
    f.groups = partition_by(n, uint64_t{1} << d);
    f.group_label = fmt::format("pair across d = {}:", d);
    const auto faults = faults_of(c, n);
    f.faulty = as_nodes(faults);
    const std::set<int64_t> faulty(faults.begin(), faults.end());
    for (size_t g = 0; g < f.groups.size(); ++g)
      if (faulty.count(static_cast<int64_t>(f.groups[g][0])) && faulty.count(static_cast<int64_t>(f.groups[g][1])))
        f.marks.push_back({g, fmt::format("both faulty across d = {}", d)});
    if (f.marks.empty()) fail(find(w, "faults") ? "/witness/faults" : "/input/faults",
                              fmt::format("no two faults are neighbours across d = {}, as the violation says", d));
    words = fmt::format("Q_{} as its pairs across d = {}; faulty nodes {} red and labelled \"faulty\"; pairs of two faulty "
                        "neighbours outlined red and labelled \"both faulty\".",
                        n, d, set_words(faults));
  }
  f.caption = caption_for(c, "aapc partition", words);
  return finished("aapc partition", words, cube_svg(f));
}

// Section 3.1.2: a valid schedule shorter than the paper's optimum, with the lower bound.
Prepared aapc_counts(const corpus::Case& c) {
  const json& w = c.witness;
  const std::string wp = "/witness";
  constexpr int64_t kMax = int64_t{1} << 50;
  const int64_t lower = integer(member(w, wp, "lower_bound"), wp + "/lower_bound", 0, kMax);
  const int64_t found = integer(member(w, wp, "schedule_units"), wp + "/schedule_units", 0, kMax);
  const int64_t paper = integer(member(w, wp, "paper"), wp + "/paper", 0, kMax);
  if (lower > found) fail(wp + "/lower_bound", fmt::format("{} exceeds the valid schedule's {} units", lower, found));
  const json* by = find(w, "lower_bound_by");
  BarPanel p;
  p.title = "units of a complete exchange";
  p.axis_label = "units";
  p.bars = {{fmt::format("lower bound ({})", by ? text(*by, wp + "/lower_bound_by") : "proved"), static_cast<double>(lower), "count", ""},
            {"a valid schedule", static_cast<double>(found), "count", ""},
            {"the paper's optimum", static_cast<double>(paper), "count", paper > found ? "more than a valid schedule" : ""}};
  const std::string words =
      fmt::format("Three counts of units as bars: the lower bound {}, a valid schedule's {}, the paper's optimum {}{}.", lower, found,
                  paper, paper > found ? " (red, labelled \"more than a valid schedule\")" : "");
  return finished("aapc counts", words, bar_chart_svg(caption_for(c, "aapc counts", words), {p}));
}

// A region as the study prints it: "<= 1", ">= -1", "in [1.6, 2.4]".
BarPanel::Band region_of(const std::string& s, const std::string& pointer) {
  auto number = [&](const std::string& t) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || t.find_first_not_of(' ', used) != std::string::npos || !std::isfinite(v))
      fail(pointer, fmt::format("\"{}\" is not a region (\"<= x\", \">= x\", \"in [a, b]\")", s));
    return v;
  };
  BarPanel::Band band;
  band.words = "the paper's region: " + s;
  if (s.rfind("<= ", 0) == 0) band.high = number(s.substr(3));
  else if (s.rfind(">= ", 0) == 0) band.low = number(s.substr(3));
  else if (s.rfind("in [", 0) == 0 && s.back() == ']' && s.find(", ") != std::string::npos) {
    const size_t comma = s.find(", ");
    band.low = number(s.substr(4, comma - 4));
    band.high = number(s.substr(comma + 2, s.size() - comma - 3));
    if (*band.low > *band.high) fail(pointer, fmt::format("\"{}\" is an empty region", s));
  } else {
    fail(pointer, fmt::format("\"{}\" is not a region (\"<= x\", \">= x\", \"in [a, b]\")", s));
  }
  return band;
}

Prepared routing_chart(const corpus::Case& c, const json& figures) {
  const std::string fp = "/witness/figures";
  std::optional<int64_t> studies;
  if (const json* s = find(c.params, "workload_seeds")) studies = integer(*s, "/params/workload_seeds", 1, 1 << 20);
  std::vector<BarPanel> panels;
  std::vector<std::string> said;
  for (size_t i = 0; i < array(figures, fp).size(); ++i) {
    const std::string p = child(fp, i);
    const json& fig = figures[i];
    const std::string& name = text(member(fig, p, "name"), p + "/name");
    const json& values = array(member(fig, p, "values"), p + "/values");
    if (values.empty()) fail(p + "/values", "no values");
    if (studies && static_cast<int64_t>(values.size()) != *studies)
      fail(p + "/values", fmt::format("{} values, but /params/workload_seeds is {}", values.size(), *studies));
    BarPanel panel;
    double sum = 0;
    for (size_t k = 0; k < values.size(); ++k) {
      const double v = real(values[k], child(p + "/values", k));
      sum += v;
      panel.bars.push_back({fmt::format("study {}", k + 1), v, name, ""});
    }
    const double mean = real(member(fig, p, "mean"), p + "/mean");
    if (!close_to(mean, sum / static_cast<double>(values.size())))
      fail(p + "/mean", fmt::format("{} is not the mean of the values, {}", mean, sum / static_cast<double>(values.size())));
    const json& ci = array(member(fig, p, "ci95"), p + "/ci95", 2);
    const double lo = real(ci[0], p + "/ci95/0"), hi = real(ci[1], p + "/ci95/1");
    if (!(lo <= mean && mean <= hi)) fail(p + "/ci95", fmt::format("[{}, {}] does not hold the mean {}", lo, hi, mean));
    const std::string& region = text(member(fig, p, "region"), p + "/region");
    panel.band = region_of(region, p + "/region");
    // Where the interval lies against the region, as the study decides it (routing/study.h).
    const double rlo = panel.band->low.value_or(-INFINITY), rhi = panel.band->high.value_or(INFINITY);
    const std::string computed = rlo <= lo && hi <= rhi ? "inside" : hi < rlo || lo > rhi ? "outside" : "straddles";
    const std::string& side = text(member(fig, p, "side"), p + "/side");
    if (side != computed)
      fail(p + "/side", fmt::format("\"{}\", but the interval [{:.4g}, {:.4g}] is {} the region {}", side, lo, hi, computed, region));
    panel.title = fmt::format("{}: mean {:.4g}, 95% interval [{:.4g}, {:.4g}], {} the paper's region {}", name, mean, lo, hi,
                              side == "straddles" ? "straddling" : side, region);
    panel.axis_label = name;
    panel.lines = {{mean, fmt::format("mean {:.4g}", mean)}, {lo, fmt::format("95% interval low {:.4g}", lo)},
                   {hi, fmt::format("95% interval high {:.4g}", hi)}};
    panels.push_back(std::move(panel));
    said.push_back(fmt::format("{} {} {}", name, side, region));
  }
  const json* verdict = find(c.witness, "verdict");
  const std::string words = fmt::format(
      "{}For each figure, the value of each study as a bar, the mean and its 95% Student t interval as dashed lines, and the "
      "region the paper's finding needs shaded: {}.",
      verdict ? fmt::format("Verdict: {}. ", text(*verdict, "/witness/verdict")) : "", fmt::join(said, "; "));
  return finished("routing chart", words, bar_chart_svg(caption_for(c, "routing chart", words), panels));
}

std::string bits(uint32_t x, int n) {
  std::string s;
  for (int b = n - 1; b >= 0; --b) s += ((x >> b) & 1) ? '1' : '0';
  return s;
}

// Section 1's finite-buffer deadlock: the messages, where each ended, and the wait cycle.
Prepared routing_deadlock(const corpus::Case& c, const json& stored) {
  auto read = routing::witness_from_json(stored, "/input/witness");
  if (!read) fail("/input/witness", read.error().message);
  const routing::DeadlockWitness& d = *read;
  if (const json* t = find(c.witness, "text"))
    if (text(*t, "/witness/text") != routing::to_string(d)) fail("/witness/text", "differs from the text of /input/witness");
  std::map<uint32_t, size_t> cycle_at;
  for (size_t i = 0; i < d.wait_cycle.size(); ++i) cycle_at[d.wait_cycle[i]] = i;
  TableFigure f;
  f.columns = {"message", "source -> destination", "after the moves"};
  for (size_t i = 0; i < d.messages.size(); ++i) {
    const auto& m = d.messages[i];
    const auto& at = d.final[i];
    std::string where = to_string(at.where) + " at " + bits(at.node, d.n);
    if (at.where == routing::Where::kBuffered && at.from != at.node) where += fmt::format(" (from {})", bits(at.from, d.n));
    std::string mark;
    if (auto it = cycle_at.find(static_cast<uint32_t>(i)); it != cycle_at.end())
      mark = fmt::format("in the wait cycle: waits for m{}", d.wait_cycle[(it->second + 1) % d.wait_cycle.size()]);
    f.rows.push_back({{fmt::format("m{}", i), bits(m.source, d.n) + " -> " + bits(m.destination, d.n), where}, mark});
  }
  std::vector<std::string> cycle;
  for (uint32_t x : d.wait_cycle) cycle.push_back(fmt::format("m{}", x));
  cycle.push_back(cycle.front());
  const std::string words = fmt::format(
      "Q_{}, {}: the {} messages of the deadlock, one row each, with where each is after the {} moves; the rows of the wait "
      "cycle ({}, each waiting for the next) are shaded red and say whom they wait for.",
      d.n, to_string(d.model), d.messages.size(), d.moves.size(), fmt::join(cycle, " -> "));
  f.caption = Caption{title_of(c, "routing deadlock table"), desc_of(c, words),
                      {fmt::format("{} [{}]", c.claim, c.reading),
                       fmt::format("Q_{}, {}: deadlock of {} messages after {} moves", d.n, to_string(d.model), d.messages.size(),
                                   d.moves.size()),
                       fmt::format("wait cycle: {}", fmt::join(cycle, " -> "))}};
  return finished("routing deadlock table", words, table_svg(f));
}

// Every leaf of `j` as a row (pointer, value): strings as they are, the rest as JSON.
void flatten(const json& j, const std::string& pointer, std::vector<TableFigure::Row>& rows) {
  if (j.is_object() && !j.empty())
    for (const auto& [k, v] : j.items()) flatten(v, child(pointer, k), rows);
  else if (j.is_array() && !j.empty())
    for (size_t i = 0; i < j.size(); ++i) flatten(j[i], child(pointer, i), rows);
  else
    rows.push_back({{pointer, j.is_string() ? j.get<std::string>() : j.dump()}, ""});
}

}  // namespace

Prepared prepare_aapc(const corpus::Case& c) {
  const int n = static_cast<int>(integer(member(c.params, "/params", "n"), "/params/n", 1, 30));
  const json& w = c.witness;
  if (c.kind == corpus::CaseKind::kCounterexample) {
    if (find(w, "steps")) return aapc_schedule(c);
    if (find(w, "lower_bound")) return aapc_counts(c);
    if (find(w, "ps") || find(w, "faulty_pss") || find(w, "faulty_subcubes") || find(w, "distinguishing_bits") ||
        (find(c.input, "d") && find(c.input, "faults")))
      return aapc_partition(c, n);
  } else if (c.claim == "aapc.example1.partner_sets") {
    return aapc_partition(c, n);
  }
  return prepare_table(c, "aapc table", "The case holds no schedule, partition or counts to draw: its values as a table.");
}

Prepared prepare_routing(const corpus::Case& c) {
  if (const json* figures = find(c.witness, "figures")) return routing_chart(c, *figures);
  if (const json* stored = find(c.input, "witness")) return routing_deadlock(c, *stored);
  return prepare_table(c, "routing table", "The case holds no study figures and no deadlock: its values as a table.");
}

Prepared prepare_throughput(const corpus::Case& c) {
  const std::string ip = "/witness/instances";
  const json& instances = array(member(c.witness, "/witness", "instances"), ip);
  BarPanel p;
  p.title = "saturation throughput per ITM instance";
  p.axis_label = "saturation throughput";
  int not_better = 0;
  for (size_t i = 0; i < instances.size(); ++i) {
    const std::string q = child(ip, i);
    const int64_t size = integer(member(instances[i], q, "size"), q + "/size", 1, 1 << 24);
    const int64_t seed = integer(member(instances[i], q, "seed"), q + "/seed", 0, INT64_MAX);
    const double sp = real(member(instances[i], q, "sp"), q + "/sp");
    const double updown = real(member(instances[i], q, "updown"), q + "/updown");
    const double ratio = real(member(instances[i], q, "ratio"), q + "/ratio");
    if (sp < 0 || updown <= 0) fail(q, "throughputs must be positive");
    if (!close_to(ratio, sp / updown)) fail(q + "/ratio", fmt::format("{} is not sp / updown = {}", ratio, sp / updown));
    const std::string label = fmt::format("ITM {} seed {}", size, seed);
    const bool worse = sp <= updown;
    not_better += worse;
    p.bars.push_back({label + ", shortest-path", sp, "shortest-path adaptive", worse ? fmt::format("not above up*/down* (ratio {:.3f})", ratio) : ""});
    p.bars.push_back({label + ", up*/down*", updown, "up*/down*", ""});
  }
  if (const json* root = find(c.witness, "root")) p.notes.push_back(fmt::format("root: node {}", integer(*root, "/witness/root", 0, INT32_MAX)));
  const std::string words = fmt::format(
      "The saturation throughput of shortest-path adaptive routing and of up*/down* on each of {} ITM instances, as pairs of "
      "bars; the shortest-path bars that are not above up*/down* ({} of them) are red and labelled \"not above up*/down*\".",
      instances.size(), not_better);
  return finished("wormhole throughput chart", words, bar_chart_svg(caption_for(c, "wormhole throughput chart", words), {p}));
}

Prepared prepare_table(const corpus::Case& c, const std::string& kind, const std::string& why) {
  TableFigure f;
  f.columns = {"JSON pointer", "value"};
  flatten(c.params, "/params", f.rows);
  flatten(c.input, "/input", f.rows);
  flatten(data_of(c), data_pointer(c), f.rows);
  for (size_t i = 0; i < c.errata.size(); ++i) {
    const auto& e = c.errata[i];
    f.rows.push_back({{fmt::format("/errata/{}", i), fmt::format("{} ({}): printed {}, computed {}: {}", e.cell, e.kind,
                                                                 e.printed.dump(), e.computed.dump(), e.note)},
                      fmt::format("erratum ({})", e.kind)});
  }
  const std::string words = why + " Every value of the case's params, input and " +
                            (c.kind == corpus::CaseKind::kExample ? "printed output" : "witness") +
                            " is a row with its JSON pointer" + (c.errata.empty() ? "." : "; errata rows are marked.");
  f.caption = caption_for(c, kind, words);
  return finished(kind, words, table_svg(f));
}

}  // namespace topocheck::report::internal
