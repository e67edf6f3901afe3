// alg4_classify: which printed step of Algorithm 4 produces each failure, over every pair of one
// metacube (s's M fields zero). The classification behind the `corrected` reading; the library
// function is metacube/classify.h.
//
//   alg4_classify K,M [--reading R] [--against R2] [--json FILE]
//
// R is a reading of Algorithm 4 without the repair: paper (default), paper-keybit-example4,
// corrected, broken-no-exchange, broken-ignore-key. The table goes to stdout; --json FILE (or -)
// writes the same as JSON. With --against R2 it also measures how close R keeps to R2 on the same
// pairs (paths identical node for node, pairs with every path identical, the longest path's
// difference). Exit 0 on success, 2 on bad usage (one line naming the argument), 70
// on an internal fault.
#include <charconv>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/output_file.h"
#include "metacube/classify.h"

namespace {

using namespace topocheck;
using namespace topocheck::metacube;

// K,M with 1 <= K <= 3, 1 <= M, and an address of at most 20 bits (a sweep of 2^K * 2^n pairs).
bool parse_size(const std::string& text, int& k, int& m, std::string& error) {
  const size_t comma = text.find(',');
  auto number = [](std::string_view part, int& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (comma == std::string::npos || !number(std::string_view(text).substr(0, comma), k) ||
      !number(std::string_view(text).substr(comma + 1), m)) {
    error = fmt::format("K,M: '{}' is not two integers separated by a comma (e.g. 2,2)", text);
    return false;
  }
  if (k < 1 || k > 3 || m < 1 || m > 20) {
    error = fmt::format("K,M: '{}' is outside K in 1..3, M in 1..20", text);
    return false;
  }
  if (m * (1 << k) + k > 20) {
    error = fmt::format("K,M: MC({},{}) has {}-bit addresses; the sweep takes at most 20", k, m, m * (1 << k) + k);
    return false;
  }
  return true;
}

int run(int argc, char** argv) {
  CLI::App app{"Classify Algorithm 4's failures by the printed step that produced them"};
  std::string size, reading = "paper", against, json;
  app.add_option("size", size, "the metacube MC(K,M) as K,M: K in 1..3, M >= 1, at most 20 address bits")->required();
  app.add_option("--reading", reading, "paper, paper-keybit-example4, corrected, broken-no-exchange, broken-ignore-key");
  app.add_option("--against", against, "also compare with this reading (the same names)");
  app.add_option("--json", json, "also write the classification as JSON to FILE (- for stdout)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  int k = 0, m = 0;
  std::string error;
  if (!parse_size(size, k, m, error)) {
    fmt::print(stderr, "alg4_classify: error: {}\n", error);
    return 2;
  }
  const auto options = options_for_reading(reading);
  if (!options || options->repair) {
    fmt::print(stderr, "alg4_classify: error: --reading: '{}' is not a reading without the repair (paper, "
                       "paper-keybit-example4, corrected, broken-no-exchange, broken-ignore-key)\n", reading);
    return 2;
  }
  std::optional<Alg4Options> other;
  if (app.count("--against")) {
    other = options_for_reading(against);
    if (!other || other->repair) {
      fmt::print(stderr, "alg4_classify: error: --against: '{}' is not a reading without the repair\n", against);
      return 2;
    }
  }
  if (app.count("--json") && json.empty()) {
    fmt::print(stderr, "alg4_classify: error: --json: the file name is empty\n");
    return 2;
  }
  const Metacube mc = *Metacube::make(k, m);
  const Classification c = classify_alg4(mc, *options);

  std::string table = fmt::format("{} reading {}: {} pairs (s's M fields zero), {} failing\n", mc.name(), reading,
                                  c.pairs, c.failing);
  table += fmt::format("{:>8}  {:>4}  {:<8} {:<15} {:<30} {:<30} {}\n", "count", "case", "kind", "paths", "step (first)",
                       "step (second)", "first example");
  nlohmann::json classes = nlohmann::json::array();
  for (const FailureClass& f : c.classes) {
    const std::string paths = f.role_a.empty() ? "" : fmt::format("{}/{}", f.role_a, f.role_b);
    const std::string example = f.role_a.empty() ? fmt::format("s = {}, t = {}", f.s, f.t)
                                                 : fmt::format("s = {}, t = {}: P_{}, P_{} at {}", f.s, f.t, f.path_a,
                                                               f.path_b, f.node);
    table += fmt::format("{:>8}  {:>4}  {:<8} {:<15} {:<30} {:<30} {}\n", f.count, f.case_number, f.kind, paths,
                         f.step_a, f.step_b, example);
    classes.push_back({{"count", f.count},
                       {"case", f.case_number},
                       {"kind", f.kind},
                       {"roles", {f.role_a, f.role_b}},
                       {"steps", {f.step_a, f.step_b}},
                       {"example", {{"s", f.s.to_string()}, {"t", f.t.to_string()}, {"paths", {f.path_a, f.path_b}},
                                    {"node", f.node}}}});
  }
  nlohmann::json closeness = nullptr;
  if (other) {
    const Closeness d = compare_alg4(mc, *options, *other);
    table += fmt::format(
        "against {}: {} of {} paths identical ({:.1f}%), {} of {} pairs with every path identical; longest path "
        "{} minus {}: mean {:+.2f}, min {:+d}, max {:+d}\n",
        against, d.identical_paths, d.paths, d.paths ? 100.0 * static_cast<double>(d.identical_paths) / static_cast<double>(d.paths) : 0.0,
        d.identical_pairs, d.pairs, reading, against,
        d.pairs ? static_cast<double>(d.longest_difference_sum) / static_cast<double>(d.pairs) : 0.0,
        d.longest_difference_min, d.longest_difference_max);
    closeness = {{"against", against},
                 {"paths", d.paths},
                 {"identical_paths", d.identical_paths},
                 {"identical_pairs", d.identical_pairs},
                 {"longest_difference", {{"sum", d.longest_difference_sum},
                                         {"min", d.longest_difference_min},
                                         {"max", d.longest_difference_max}}}};
  }
  std::fputs(table.c_str(), stdout);
  if (!json.empty()) {
    const nlohmann::json doc = {{"metacube", mc.name()}, {"reading", reading}, {"pairs", c.pairs},
                                {"failing", c.failing},  {"classes", classes}, {"closeness", closeness}};
    if (auto w = write_file(json, doc.dump(1) + "\n"); !w.ok()) {
      fmt::print(stderr, "alg4_classify: error: {}\n", w.error().message);
      return 2;
    }
  }
  if (auto f = finish_stdout(); !f.ok()) {
    fmt::print(stderr, "alg4_classify: error: {}\n", f.error().message);
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "alg4_classify: internal error: {}\n", e.what());
    return 70;
  }
}
