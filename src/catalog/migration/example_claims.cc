// The example of the migration paper (000): Fig. 2 (Section 4.1), every printed value and path
// recomputed from the stored input under the block layout found by the Fig. 2 search (the figure
// is lost) and compared cell by cell with corpus/migration/examples/.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/migration/inputs.h"
#include "catalog/migration/parts.h"
#include "claims/claim.h"
#include "claims/example_method.h"
#include "migration/migration.h"

namespace topocheck::claims::migration_parts {
namespace {

using migration::Instance;
using migration::Plan;
using nlohmann::json;

// The Fig. 2 example: every printed value and path, computed from the stored input (S, T, alpha,
// the sequence, the two nodes u and v, the block layout found by smt/migration_fig2.cc) in the
// printed shape. params: bars, tie, k.
Result<json> compute_fig2(const json& params, const json& input) {
  json in = input;
  if (input.contains("ext_sequence")) {
    if (!input.at("ext_sequence").is_array()) return invalid_argument("input.ext_sequence must be an array of dimensions");
    in["sequence"] = fmt::format("{}", fmt::join(input.at("ext_sequence").get<std::vector<int>>(), ","));
  }
  if (params.contains("tie")) in["tie_break"] = params.at("tie");
  if (params.contains("k")) in["k"] = params.at("k");
  if (params.contains("bars")) in["bars"] = params.at("bars");
  auto parsed = input_from_json(in);
  if (!parsed) return parsed.error();
  Input x = *parsed;
  const Instance& inst = x.inst;
  const auto& alpha = x.params.alpha;
  const auto bars = x.params.bars;
  const Plan plan = migration::migrate(inst, x.blocks, x.params);
  auto node_of = [&](const char* key) -> Result<Node> {
    auto text = get_string(input, key);
    if (!text) return text.error();
    auto u = parse_node(*text, inst.n);
    if (!u) return invalid_argument(fmt::format("input.{}: {}", key, u.error().message));
    if (!inst.S.contains(*u)) return invalid_argument(fmt::format("input.{}: {} is not in S", key, *u));
    return *u;
  };
  auto plan_of = [&](Node u) -> const migration::NodePlan& {
    for (const auto& np : plan.nodes)
      if (np.u == u) return np;
    TC_CHECK(false, "node not in the plan");
    return plan.nodes.front();
  };
  auto path_of = [&](const migration::NodePlan& np, migration::PathKind kind) -> json {
    for (const auto& mp : np.paths)
      if (mp.kind == kind) return path_to_json(mp.path);
    return nullptr;
  };
  auto hp = [&](Node a, Node b) -> json {
    auto p = migration::hamming_path(a, b, x.blocks, x.params.tie);
    return p ? path_to_json(*p) : json(nullptr);
  };
  json out = {{"C(S,T)", migration::dims_to_string(inst.C)},
              {"D(S)-D(T)", migration::dims_to_string(inst.DSmT)},
              {"D(T)-D(S)", migration::dims_to_string(inst.DTmS)}};
  auto u = node_of("u");
  if (!u) return u.error();
  auto v = node_of("v");
  if (!v) return v.error();
  for (auto [key, node] : {std::pair<const char*, Node>{"u", *u}, {"v", *v}}) {
    const auto ds = migration::d_sets(inst, alpha, node, bars);
    const auto& np = plan_of(node);
    json j = {{"node", node.to_string()},
              {"case", np.node_case == migration::NodeCase::kCaseA   ? "a"
                       : np.node_case == migration::NodeCase::kCaseB ? "b"
                                                                      : migration::to_string(np.node_case)},
              {std::string("f(") + key + ")", migration::f(inst, alpha, node, bars).to_string()},
              {std::string("D_f(S|") + key + ")", migration::dims_to_string(ds.f_S)},
              {std::string("g(") + key + ")", migration::g(inst, alpha, node, bars).to_string()},
              {std::string("D_f(T|") + key + ")", migration::dims_to_string(ds.f_T)},
              {std::string("D_g(S|") + key + ")", migration::dims_to_string(ds.g_S)},
              {std::string("D_g(T|") + key + ")", migration::dims_to_string(ds.g_T)}};
    if (np.node_case == migration::NodeCase::kCaseA) {
      const Node w{node.bits ^ ds.g_T, node.width};
      const Node x_node{node.bits ^ (ds.f_T | inst.C), node.width};
      j["w"] = w.to_string();
      j["HAMMING-PATH(u, w)"] = hp(node, w);
      j["HAMMING-PATH(g(u), w)"] = hp(np.target, w);
      j["x"] = x_node.to_string();
      j["regular_extended"] = path_of(np, migration::PathKind::kRegularExtended);
    } else if (np.node_case == migration::NodeCase::kCaseB) {
      j["L^1"] = path_of(np, migration::PathKind::kCaseBLast);
      j["L^2"] = path_of(np, migration::PathKind::kCaseBFirst);
    }
    out[key] = std::move(j);
  }
  return out;
}

}  // namespace

void add_example_claims(Registry& registry) {
  Reading r;
  r.name = "paper";
  r.description =
      "every value and path printed for Fig. 2 (f, g, the D-sets, w, x, the HAMMING-PATH results, both paths of u = "
      "001011 and v = 001000), recomputed under the block layout found by the Fig. 2 search (the figure is lost)";
  r.compute_example = compute_fig2;
  r.methods.emplace_back(Method::kExample, example_method("migration.fig2.paths", r.name, compute_fig2));
  registry.add(Claim::make(kPaper, "migration.fig2.paths", "Section 4.1, the example of Fig. 2",
      "S = 0010**, T = 1*0*00, alpha(0) = 2, alpha(1) = 4, sequence 2, 4: the printed values and migration paths of "
      "u = 001011 (Case a) and v = 001000 (Case b).",
      {std::move(r)}));
}

}  // namespace topocheck::claims::migration_parts
