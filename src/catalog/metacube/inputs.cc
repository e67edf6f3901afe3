#include "catalog/metacube/inputs.h"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::claims {

using metacube::Metacube;
using nlohmann::json;

Result<Metacube> parse_mc(const json& params) {
  for (const char* key : {"k", "m"})
    if (!params.is_object() || !params.contains(key) || !params.at(key).is_number_integer())
      return invalid_argument(fmt::format("params.{} must be an integer", key));
  auto mc = Metacube::make(params.at("k").get<int>(), params.at("m").get<int>());
  if (!mc) return invalid_argument("params: " + mc.error().message);
  return mc;
}

Result<Node> parse_mc_node(const Metacube& mc, const json& input, const char* key) {
  if (!input.is_object() || !input.contains(key) || !input.at(key).is_string())
    return invalid_argument(fmt::format("input.{} must be an address string", key));
  auto n = mc.parse_fields(input.at(key).get<std::string>());
  if (!n) return invalid_argument(fmt::format("input.{}: {}", key, n.error().message));
  return n;
}

Result<McPairInput> parse_mc_pair_nodes(const Metacube& mc, const json& input) {
  auto s = parse_mc_node(mc, input, "s");
  if (!s) return s.error();
  auto t = parse_mc_node(mc, input, "t");
  if (!t) return t.error();
  if (*s == *t) return invalid_argument("input.s and input.t must differ");
  return McPairInput{mc, *s, *t};
}

Result<McPairInput> parse_mc_pair(const json& params, const json& input) {
  auto mc = parse_mc(params);
  if (!mc) return mc.error();
  return parse_mc_pair_nodes(*mc, input);
}

Counterexample mc_pair_counterexample(const Metacube& mc, Node s, Node t, std::string violation, json witness) {
  Counterexample cx;
  cx.params = {{"k", mc.k()}, {"m", mc.m()}};
  cx.input = {{"s", s.to_string()}, {"t", t.to_string()}};
  cx.violation = std::move(violation);
  cx.witness = std::move(witness);
  return cx;
}

std::string km_list(const std::vector<metacube_scope::KM>& list) {
  std::vector<std::string> out;
  for (auto [k, m] : list) out.push_back(fmt::format("MC({},{})", k, m));
  return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace topocheck::claims
