// The example project's properties: its construction (my_cube_paths.cc) on inputs drawn by
// topocheck's generators, judged by topocheck's checkers. RapidCheck prints the seed it uses
// ("Using configuration: seed=S"); RC_PARAMS="seed=S" replays a run. Exit 0 when every property
// holds, 1 when one fails (RapidCheck prints the shrunk counterexample and the checker's words).
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include <topocheck/check/paths.h>
#include <topocheck/core/checks.h>
#include <topocheck/core/core_gen.h>
#include <topocheck/hypercube/hypercube.h>
#include <topocheck/hypercube/hypercube_gen.h>

#include "my_cube_paths.h"

namespace {

using topocheck::Node;
using topocheck::Path;
using topocheck::hypercube::CubePair;
using topocheck::hypercube::Hypercube;

rc::Gen<CubePair> distinct_pair(int max_n) {
  return rc::gen::suchThat(topocheck::hypercube::gen::cube_pair(max_n),
                           [](const CubePair& c) { return c.x != c.y; });
}

int distance(const CubePair& c) { return std::popcount(c.x.bits ^ c.y.bits); }

}  // namespace

int main() {
  bool ok = true;

  ok &= rc::check("n valid simple x-y paths, internally node-disjoint, at most H(x,y) + 2 hops", [] {
    const CubePair c = *distinct_pair(12).as("input");
    const std::vector<Path> paths = my_disjoint_paths(c.n, c.x, c.y);
    const auto cube = Hypercube::make(c.n);
    RC_ASSERT(static_cast<int>(paths.size()) == c.n);
    if (auto v = topocheck::check_paths_valid_simple(*cube, paths, c.x, c.y)) RC_FAIL(*v);
    if (auto v = topocheck::check_internally_node_disjoint(paths)) RC_FAIL(*v);
    if (auto v = topocheck::check_max_length(paths, distance(c) + 2)) RC_FAIL(*v);
  });

  ok &= rc::check("any n - 1 faulty nodes other than x and y leave one path whole", [] {
    const CubePair c = *distinct_pair(10).as("input");
    const auto faults = *topocheck::gen::node_set(c.n, c.n - 1).as("faulty nodes");
    const std::vector<Path> paths = my_disjoint_paths(c.n, c.x, c.y);
    bool survives = false;
    for (const Path& p : paths) {
      bool whole = true;
      for (const Node& v : p.nodes)
        for (const Node& f : faults) whole = whole && (v != f || v == c.x || v == c.y);
      survives = survives || whole;
    }
    RC_ASSERT(survives);
  });

  // The judge of `topocheck check paths`, in-process: every check of its report, the max-flow
  // optimum among them (as many paths as the local node connectivity, n).
  ok &= rc::check("`topocheck check paths` finds no violation and the paths reach the optimum", [] {
    const CubePair c = *distinct_pair(6).as("input");
    auto cube = Hypercube::make(c.n);
    topocheck::check::PathsInput in;
    in.topology = std::make_shared<Hypercube>(*cube);
    in.topology_text = "hypercube:" + std::to_string(c.n);
    in.s = c.x;
    in.t = c.y;
    in.paths = my_disjoint_paths(c.n, c.x, c.y);
    in.max_length = distance(c) + 2;
    in.fault_tolerance = true;
    const topocheck::check::CheckReport report = topocheck::check::judge_paths(in);
    for (const auto& line : report.lines)
      if (line.verdict != "ok") RC_FAIL(line.check + ": " + line.verdict + ": " + line.words);
  });

  return ok ? 0 : 1;
}
