#include "cli/aapc_cmd.h"

#include <algorithm>
#include <bit>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "aapc/bounds.h"
#include "aapc/run.h"
#include "cli/app.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/json_file.h"
#include "smt/aapc_smt.h"

namespace topocheck::cli {
namespace {

using nlohmann::json;
using Link = std::pair<aapc::NodeId, aapc::NodeId>;

struct AapcArgs {
  int n = 0;
  std::string faults, algorithm = "auto", model = "all_port", dims, link, check, csv, svg, out, frame = "canonical";
  int d = -1, d1 = -1, d2 = -1;
  bool schedule = false, json = false, table = false;
  int max_n = 8;
  double exact_seconds = 20;
};

// A schedule and its verdict: what `simulate aapc` prints.
struct Judged {
  aapc::Model model{};
  std::optional<Link> link;             // --link
  aapc::Schedule schedule;
  std::optional<aapc::FaultSet> faults;
  std::optional<aapc::RunResult> run;   // the paper's algorithm's run; none for --check FILE
  aapc::ScheduleCheck check;
  aapc::LowerBounds bounds;

  // The paper's count of one step, where it gives one.
  std::optional<int64_t> paper_step(const std::string& name) const {
    if (!run) return std::nullopt;
    for (const auto& [step, units] : run->paper_steps)
      if (step == name) return units;
    return std::nullopt;
  }
};

// --link a-b: two node numbers (whether they make a link of Q_n is checked once n is known).
std::optional<Link> parse_link(const std::string& text) {
  const size_t dash = text.find('-');
  unsigned long x = 0, y = 0;
  try {
    size_t used = 0;
    if (dash == std::string::npos) throw std::invalid_argument("no dash");
    x = std::stoul(text.substr(0, dash), &used);
    if (used != dash) throw std::invalid_argument("junk");
    y = std::stoul(text.substr(dash + 1), &used);
    if (used != text.size() - dash - 1) throw std::invalid_argument("junk");
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return Link{static_cast<aapc::NodeId>(x), static_cast<aapc::NodeId>(y)};
}

// A JSON library message without its "[json.exception.out_of_range.403] " tag: "key 'n' not
// found".
std::string without_json_tag(std::string message) {
  const size_t tag = message.find("[json.exception.");
  if (tag == std::string::npos) return message;
  const size_t end = message.find("] ", tag);
  if (end == std::string::npos) return message;
  return message.erase(tag, end + 2 - tag);
}

// --check FILE: the user's schedule and fault set. Returns kExitOk, or the exit code after
// printing the error.
int read_schedule(const std::string& file, Judged& out) {
  auto j = read_json_file(file);
  if (!j) return report_error(j.error());
  // The file is the user's: a missing key or a wrong type thrown by the JSON library is an error
  // naming the file, like any other defect of it.
  std::optional<Result<aapc::ScheduleInput>> in;
  try {
    in.emplace(aapc::schedule_from_json(*j));
  } catch (const nlohmann::json::exception& e) {
    return report_error(parse_error(fmt::format("not an AAPC schedule: {}", without_json_tag(e.what())), file));
  }
  if (!*in) return report_error(parse_error(without_json_tag(in->error().message), file));
  out.schedule = (*in)->schedule;
  out.faults = (*in)->faults;
  return kExitOk;
}

// The schedule the paper's algorithm generates for --n, --faults, --algorithm, ... Returns
// kExitOk, or the exit code after printing the error.
int generate_schedule(const AapcArgs& a, Judged& out) {
  if (a.n == 0) return usage_error("--n: required (or --check FILE)");
  auto parsed = aapc::parse_faults(a.n, a.faults);
  if (!parsed) return usage_error(parsed.error().message);
  out.faults = *parsed;
  aapc::RunRequest req;
  req.faults = *out.faults;
  auto alg = aapc::parse_algorithm(a.algorithm);
  if (!alg) return usage_error(alg.error().message);
  req.algorithm = *alg;
  req.model = out.model;
  auto frame = aapc::parse_frame(a.frame);
  if (!frame) return usage_error(frame.error().message);
  req.options.frame = *frame;
  if (a.d >= 0) req.d = a.d;
  if (a.d1 >= 0) req.d1 = a.d1;
  if (a.d2 >= 0) req.d2 = a.d2;
  if (!a.dims.empty()) {
    auto dims = aapc::parse_dims(a.n, a.dims, "--dims");
    if (!dims) return usage_error(dims.error().message);
    req.dims = *dims;
  }
  auto r = aapc::run_aapc(req);
  if (!r) return usage_error(r.error().message);
  out.run = std::move(r).value();
  out.schedule = out.run->schedule;
  return kExitOk;
}

void print_json(const AapcArgs& a, const Judged& j) {
  json out;
  out["n"] = j.faults->n();
  out["faults"] = j.faults->faulty();
  out["model"] = aapc::to_string(j.model);
  if (j.run) {
    out["algorithm"] = aapc::to_string(j.run->algorithm);
    out["description"] = j.run->description;
    out["parameters"] = j.run->parameters;
    out["paper_units"] = j.run->paper_units;
    out["paper_formula"] = j.run->paper_formula;
  } else {
    out["algorithm"] = "schedule from " + a.check;
  }
  out["units"] = j.check.units;
  out["moves"] = j.check.moves;
  out["data"] = j.check.data;
  out["delivered"] = j.check.delivered;
  out["checker"] = j.check.ok ? "valid" : "invalid";
  if (!j.check.ok) out["violation"] = j.check.violation;
  out["lower_bound"] = j.bounds.best;
  out["lower_bound_by"] = j.bounds.attained_by;
  out["steps"] = json::array();
  for (const aapc::Step& st : j.schedule.steps) {
    json s = {{"name", st.name}, {"units", st.end - st.begin}};
    if (auto p = j.paper_step(st.name)) s["paper_units"] = *p;
    out["steps"].push_back(s);
  }
  if (j.link) {
    json l = json::object();
    for (const auto& [step, data] : aapc::data_on_link(j.schedule, j.link->first, j.link->second)) {
      json d = json::array();
      for (const aapc::Datum& datum : data) d.push_back(datum.to_string());
      l[step] = d;
    }
    out["link"] = {{"link", a.link}, {"data", l}};
  }
  if (a.schedule) out["schedule"] = aapc::to_json(j.schedule, *j.faults);
  std::cout << out.dump() << "\n";
}

void print_text(const AapcArgs& a, const Judged& j) {
  const auto& run = j.run;
  const aapc::ScheduleCheck& check = j.check;
  std::cout << fmt::format("Q_{}, faults {}, {}, model {}\n", j.faults->n(), j.faults->to_string(),
                           run ? run->description : "schedule from " + a.check, aapc::to_string(j.model));
  std::cout << fmt::format("  {:28} {:>7} {:>7}\n", "step", "units", "paper");
  for (const aapc::Step& st : j.schedule.steps) {
    auto p = j.paper_step(st.name);
    std::cout << fmt::format("  {:28} {:>7} {:>7}\n", st.name, st.end - st.begin, p ? std::to_string(*p) : "");
  }
  std::cout << fmt::format("  {:28} {:>7} {:>7}{}\n", "total", check.units, run ? std::to_string(run->paper_units) : "",
                           run ? "  (" + run->paper_formula + ")" : "");
  std::cout << fmt::format("  {:28} {:>7}         ({})\n", "lower bound", j.bounds.best, j.bounds.attained_by);
  if (check.ok)
    std::cout << fmt::format("checker: valid ({} data delivered, {} moves)\n", check.delivered, check.moves);
  else
    std::cout << fmt::format("checker: INVALID: {}\n", check.violation);
  if (j.link) {
    std::cout << fmt::format("data crossing the link {}-{} (either direction), per step:\n", j.link->first,
                             j.link->second);
    for (const auto& [step, data] : aapc::data_on_link(j.schedule, j.link->first, j.link->second)) {
      std::vector<std::string> names;  // as a set, in text order (the paper lists them so)
      for (const aapc::Datum& d : data) names.push_back(d.to_string());
      std::sort(names.begin(), names.end());
      std::cout << fmt::format("  {:28} {}\n", step, names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", ")));
    }
  }
  if (a.schedule) std::cout << aapc::to_text(j.schedule);
}

// `simulate aapc`: generate one of the paper's schedules (or read the user's with --check), judge
// it with the schedule checker, print its length per step against the paper's counts and the
// lower bound; optionally the data on one link per step (the Q_3 example), the whole schedule,
// and the link-use CSV/SVG views.
int cmd_simulate_aapc(const AapcArgs& a) {
  Judged j;
  auto model = aapc::parse_model(a.model);
  if (!model) return usage_error(model.error().message);
  j.model = *model;
  if (!a.link.empty()) {
    j.link = parse_link(a.link);
    if (!j.link) return usage_error(fmt::format("--link: '{}' is not of the form a-b (two node numbers)", a.link));
  }
  if (const int code = a.check.empty() ? generate_schedule(a, j) : read_schedule(a.check, j); code != kExitOk)
    return code;
  if (j.link) {
    const aapc::NodeId N = j.faults->num_nodes();
    const aapc::NodeId x = j.link->first, y = j.link->second;
    if (x >= N || y >= N || std::popcount(x ^ y) != 1)
      return usage_error(fmt::format("--link: {}-{} is not a link of Q_{}", x, y, j.faults->n()));
  }
  j.check = aapc::check_schedule(j.schedule, *j.faults, j.model);
  j.bounds = aapc::lower_bounds(*j.faults, j.model);
  // Every output file is complete before any is written: nothing half-way on a bad path.
  if (!a.out.empty() && !write_output("--out", a.out, aapc::to_json(j.schedule, *j.faults).dump() + "\n"))
    return kExitUsage;
  if (!a.csv.empty() && !write_output("--csv", a.csv, aapc::link_use_csv(j.schedule))) return kExitUsage;
  if (!a.svg.empty() && !write_output("--svg", a.svg, aapc::link_use_svg(j.schedule))) return kExitUsage;
  if (a.json) print_json(a, j);
  else print_text(a, j);
  return j.check.ok ? kExitOk : kExitDiffers;
}

// `simulate aapc --table`: for n = 3..max_n, each fault count the paper's algorithms take (one
// representative fault set each) and each model: the paper's count, the units of the schedule the
// paper's algorithm produces (checked), the lower bound, and the exact minimum by Z3 where it
// finishes within --exact-seconds (n <= 4; or the achieved units when they meet the lower bound),
// as a table or JSON. ">T": Z3 proved no schedule of T units, then ran out of time.
int cmd_aapc_table(int max_n, double exact_seconds, bool as_json) {
  if (max_n < 3 || max_n > aapc::kMaxN) return usage_error(fmt::format("--max-n: {} is outside 3..{}", max_n, aapc::kMaxN));
  if (exact_seconds < 0) return usage_error("--exact-seconds: must be >= 0");
  json rows = json::array();
  if (!as_json)
    std::cout << fmt::format("{:>2} {:<12} {:<12} {:<28} {:>7} {:>8} {:>6} {:>7}\n", "n", "faults", "model", "algorithm",
                             "paper", "achieved", "bound", "exact");
  for (int n = 3; n <= max_n; ++n) {
    const aapc::NodeId N = aapc::NodeId{1} << n;
    // Representative fault sets: none; {N-2}; {6,9} (Example 2's; {1,6} in Q_3); {6,9,17}.
    std::vector<std::vector<aapc::NodeId>> sets = {{}, {N - 2}, n == 3 ? std::vector<aapc::NodeId>{1, 6} : std::vector<aapc::NodeId>{6, 9}};
    if (n >= 6) sets.push_back({6, 9, 17});
    for (const auto& set : sets)
      for (aapc::Model model : aapc::kModels) {
        aapc::RunRequest req;
        req.faults = aapc::FaultSet(n, set);
        req.model = model;
        auto run = aapc::run_aapc(req);
        if (!run) return report_error(run.error());
        const aapc::ScheduleCheck c = aapc::check_schedule(run->schedule, req.faults, model);
        const aapc::LowerBounds lb = aapc::lower_bounds(req.faults, model);
        std::string exact = "-";
        json exact_json = nullptr;
        // The best schedule known: the algorithm's, or (n <= 5) the greedy upper bound's.
        int upper = c.ok ? c.units : std::numeric_limits<int>::max();
        if (upper > lb.best && n <= 5) {
          const aapc::GreedyResult g = aapc::greedy_schedule(req.faults, model, n <= 4 ? 20000 : 200, 1, lb.best);
          if (g.found) upper = std::min(upper, g.units);
        }
        if (upper == lb.best) {
          // A checked schedule as short as a lower bound: the minimum, no solver needed.
          exact = std::to_string(upper);
          exact_json = upper;
        } else if (n <= smt::kAapcSmtMaxN && n <= 4 && exact_seconds > 0) {
          claims::SolverLimits limits;
          limits.timeout_ms = static_cast<unsigned>(exact_seconds * 1000);
          auto e = smt::exact_min_units(req.faults, model, limits, upper);
          if (e && e->status == aapc::MinimumStatus::kMinimum) {
            exact = std::to_string(e->min_units);
            exact_json = e->min_units;
          } else {
            // Unknown: between the best proved lower bound and the shortest checked schedule.
            const int low = e && e->last_unsat >= 0 ? std::max(lb.best, e->last_unsat + 1) : lb.best;
            exact = fmt::format("{}..{}", low, upper);
            exact_json = json{{"at_least", low}, {"at_most", upper}};
          }
        }
        const std::string faults_text = req.faults.to_string();
        const std::string achieved = c.ok ? std::to_string(c.units) : "INVALID";
        rows.push_back({{"n", n}, {"faults", req.faults.faulty()}, {"model", aapc::to_string(model)},
                        {"algorithm", run->description}, {"paper", run->paper_units}, {"achieved", c.ok ? json(c.units) : json("invalid")},
                        {"lower_bound", lb.best}, {"exact", exact_json}});
        if (!as_json)
          std::cout << fmt::format("{:>2} {:<12} {:<12} {:<28} {:>7} {:>8} {:>6} {:>7}\n", n, faults_text,
                                   aapc::to_string(model), run->description, run->paper_units, achieved, lb.best, exact);
      }
  }
  if (as_json) std::cout << json{{"rows", rows}}.dump() << "\n";
  return kExitOk;
}

}  // namespace

Command add_aapc_command(CLI::App& simulate) {
  auto args = std::make_shared<AapcArgs>();
  auto* sub = simulate.add_subcommand("aapc", "fault-tolerant AAPC in Q_n (paper 004): A1, A2, Af, the inner AAPC, or --check FILE");
  add_int_option(*sub, "--n", args->n, 1, aapc::kMaxN, "cube dimension");
  sub->add_option("--faults", args->faults, "faulty nodes, comma-separated decimal numbers, e.g. 6,9 (default none)");
  sub->add_option("--algorithm", args->algorithm, "auto (default: by fault count), inner, A1, A2 or Af");
  sub->add_option("--model", args->model, "all_port (default), one_receive or one_port");
  add_int_option(*sub, "--d", args->d, 0, aapc::kMaxN - 1, "A1/A2/Af: the dividing dimension d (defaults: see README)");
  add_int_option(*sub, "--d1", args->d1, 0, aapc::kMaxN - 1, "A2: the dividing dimension of the half with the smaller fault");
  add_int_option(*sub, "--d2", args->d2, 0, aapc::kMaxN - 1, "A2: the dividing dimension of the half with the larger fault");
  sub->add_option("--dims", args->dims, "Af: the f dividing dimensions D, e.g. 0,2 (with --d)");
  sub->add_option("--frame", args->frame,
                  "A2/Af: canonical (default: run in the canonical frame of the fault set, see README) or absolute");
  sub->add_option("--link", args->link, "print the data crossing link a-b per step, e.g. 0-4");
  add_file_option(*sub, "--check", args->check, "judge the schedule in this JSON file instead of generating one");
  add_file_option(*sub, "--out", args->out, "write the schedule as JSON to this file");
  add_file_option(*sub, "--csv", args->csv, "write link use per time unit as CSV to this file");
  add_file_option(*sub, "--svg", args->svg, "write link use per time unit as SVG to this file");
  sub->add_flag("--schedule", args->schedule, "print every move, unit by unit");
  sub->add_flag("--json", args->json, "JSON output");
  sub->add_flag("--table", args->table, "paper count vs achieved vs lower bound vs exact minimum, n = 3..--max-n");
  add_int_option(*sub, "--max-n", args->max_n, 3, aapc::kMaxN, "--table: the largest n (default 8)");
  add_float_option(*sub, "--exact-seconds", args->exact_seconds, 0, 86400, "--table: Z3 time per exact minimum, n <= 4 (default 20; 0 skips)");
  return {sub, [args] {
            return args->table ? cmd_aapc_table(args->max_n, args->exact_seconds, args->json) : cmd_simulate_aapc(*args);
          }};
}

}  // namespace topocheck::cli
