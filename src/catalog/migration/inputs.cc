// The inputs of the migration claims and the lemma sweep (see catalog/migration/inputs.h).
#include "catalog/migration/inputs.h"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/migration/scope.h"
#include "migration/packings.h"
#include "migration/plan_classes.h"

namespace topocheck::claims::migration_parts {

using migration::Disjointness;
using migration::Instance;
using nlohmann::json;

namespace {

CaseFn lemma_case_fn(LemmaCheck check) {
  return [check](const json&, const json& input) -> Result<CaseCheck> {
    auto c = lemma_ctx_of(input);
    if (!c) return c.error();
    return CaseCheck{check(*c), json::object()};
  };
}

}  // namespace

json input_json(const Input& in) {
  json j = {{"S", in.inst.S.to_string()},
            {"T", in.inst.T.to_string()},
            {"alpha", in.params.alpha.to_string()},
            {"sequence", fmt::format("{}", fmt::join(in.params.ext_sequence, ","))},
            {"tie_break", migration::to_string(in.params.tie)},
            {"k", in.params.k},
            {"pick_p", migration::to_string(in.params.pick_p)},
            {"x", in.params.x_reading == migration::XReading::kDg ? "D_g" : "D_f"},
            {"blocks", migration::blocks_to_string(in.blocks)}};
  if (in.params.seq_policy != migration::SequencePolicy::kAsGiven)
    j["sequence_policy"] = migration::to_string(in.params.seq_policy);
  if (!in.params.per_b_sequence.empty()) {
    json per_b = json::array();
    for (const auto& seq : in.params.per_b_sequence) per_b.push_back(fmt::format("{}", fmt::join(seq, ",")));
    j["per_b_sequence"] = per_b;
  }
  return j;
}

Result<std::string> get_string(const json& input, const char* key) {
  if (!input.is_object() || !input.contains(key) || !input.at(key).is_string())
    return invalid_argument(fmt::format("input.{} must be a string", key));
  return input.at(key).get<std::string>();
}

Result<Input> input_from_json(const json& input) {
  Input in;
  auto S = get_string(input, "S");
  if (!S) return S.error();
  auto T = get_string(input, "T");
  if (!T) return T.error();
  auto inst = migration::parse_instance(*S, *T);
  if (!inst) return invalid_argument("input.S/T: " + inst.error().message);
  in.inst = *inst;
  migration::ParamsText text;
  for (auto [key, field] : {std::pair<const char*, std::string*>{"alpha", &text.alpha},
                            {"sequence", &text.sequence}, {"tie_break", &text.tie_break},
                            {"pick_p", &text.pick_p}, {"x", &text.x}, {"bars", &text.bars},
                            {"sequence_policy", &text.seq_policy}})
    if (input.contains(key)) {
      auto value = get_string(input, key);
      if (!value) return value.error();
      *field = *value;
    }
  if (input.contains("k")) {
    if (!input.at("k").is_number_integer()) return invalid_argument("input.k must be an integer");
    text.k = std::to_string(input.at("k").get<int>());
  }
  auto params = migration::parse_params(in.inst, text);
  if (!params) return invalid_argument("input: " + params.error().message);
  in.params = *params;
  if (input.contains("per_b_sequence")) {
    const json& per_b = input.at("per_b_sequence");
    const size_t bs = size_t{1} << in.inst.gamma();
    if (!per_b.is_array() || per_b.size() != bs)
      return invalid_argument(fmt::format("input.per_b_sequence must be an array of {} sequences (one per B)", bs));
    for (const json& item : per_b) {
      if (!item.is_string()) return invalid_argument("input.per_b_sequence: each entry must be a string");
      auto seq = migration::parse_sequence(in.inst, item.get<std::string>());
      if (!seq) return invalid_argument("input.per_b_sequence: " + seq.error().message);
      in.params.per_b_sequence.push_back(*seq);
    }
  }
  if (input.contains("blocks")) {
    auto text = get_string(input, "blocks");
    if (!text) return text.error();
    auto b = migration::parse_blocks(in.inst, *text);
    if (!b) return invalid_argument("input.blocks: " + b.error().message);
    in.blocks = *b;
  }
  return in;
}

bool for_each_instance(int n, const std::function<bool(const Instance&)>& visit) {
  for (int d = 0; d <= n; ++d) {
    const auto cubes = migration::subcubes(n, d);
    for (const Subcube& S : cubes)
      for (const Subcube& T : cubes) {
        if (S == T) continue;
        auto inst = migration::make_instance(S, T);
        TC_CHECK(inst.ok(), "make_instance rejected a pair of equal dimension");
        if (visit(*inst)) return true;
      }
  }
  return false;
}

Result<LemmaCtx> lemma_ctx_of(const json& input) {
  auto S = get_string(input, "S");
  if (!S) return S.error();
  auto T = get_string(input, "T");
  if (!T) return T.error();
  auto inst = migration::parse_instance(*S, *T);
  if (!inst) return invalid_argument("input.S/T: " + inst.error().message);
  auto a = get_string(input, "alpha");
  if (!a) return a.error();
  auto alpha = migration::parse_alpha(*inst, *a);
  if (!alpha) return invalid_argument("input.alpha: " + alpha.error().message);
  return LemmaCtx{*inst, *alpha};
}

MethodResult lemma_sweep(const RunContext& ctx, const LemmaCheck& check, int max_n, const std::string& what,
                         const json& params) {
  MethodResult r;
  r.method = Method::kExhaustive;
  r.outcome = Outcome::kHolds;
  r.scope = fmt::format("n = 1..{}, every (S, T) of equal dimension (S != T), every alpha, {}", max_n, what);
  for (int n = 1; n <= max_n && r.outcome == Outcome::kHolds; ++n) {
    ctx.report(fmt::format("sweep n = {}", n));
    for_each_instance(n, [&](const Instance& inst) {
      for (const auto& alpha : migration::all_alphas(inst)) {
        ++r.cases;
        if (auto v = check(LemmaCtx{inst, alpha})) {
          r.outcome = Outcome::kRefuted;
          r.detail = *v;
          Counterexample cx;
          cx.params = {{"n", n}};
          cx.params.update(params);
          cx.input = {{"S", inst.S.to_string()}, {"T", inst.T.to_string()}, {"alpha", alpha.to_string()}};
          cx.violation = *v;
          cx.minimized = true;
          r.counterexample = std::move(cx);
          return true;
        }
      }
      return false;
    });
  }
  return r;
}

Reading lemma_reading(std::string name, std::string description, LemmaCheck check) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.methods.emplace_back(Method::kExhaustive, [check](const RunContext& ctx) {
    return lemma_sweep(ctx, check, migration_scope::kLemmaMaxN.at(ctx.budget));
  });
  r.check_case = lemma_case_fn(check);
  return r;
}

std::string d_words(Disjointness d) {
  switch (d) {
    case Disjointness::kNode: return "no internal node of one path occurs anywhere in the other";
    case Disjointness::kLink: return "no link is used by both paths";
    case Disjointness::kDirectedLink: return "no link is used by both paths in the same direction";
  }
  return "";
}

}  // namespace topocheck::claims::migration_parts
