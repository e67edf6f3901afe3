// The worked examples of the AAPC paper (004): Example 1 (Section 2: the partner sets of a
// division of Q_4), the Q_3 example after A_1's Step 5 (the data on link 0-4 per step, and which
// single fault reproduces it: the example does not name it) and Example 2 (the fault sets
// consistent with the division it names; its Fig. 1 is lost), computed from the stored inputs and
// compared cell by cell with corpus/aapc/examples/.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "aapc/run.h"
#include "catalog/aapc/fault_sets.h"
#include "catalog/aapc/parts.h"
#include "claims/claim.h"
#include "claims/example_method.h"

namespace topocheck::claims::aapc_parts {
namespace {

using aapc::DimSet;
using aapc::NodeId;
using nlohmann::json;

// The data crossing one link, per step, as sorted text lists ("0_4", ...): the shape of the Q_3
// example's printed cells (compared as sets).
json link_data(const aapc::Schedule& schedule, aapc::NodeId a, aapc::NodeId b) {
  json out = json::object();
  for (const auto& [step, data] : aapc::data_on_link(schedule, a, b)) {
    std::vector<std::string> names;
    for (const aapc::Datum& d : data) names.push_back(d.to_string());
    std::sort(names.begin(), names.end());
    out[step] = names;
  }
  return out;
}

Result<std::pair<aapc::NodeId, aapc::NodeId>> parse_link(const std::string& text) {
  const size_t dash = text.find('-');
  try {
    if (dash == std::string::npos) throw std::invalid_argument(text);
    return std::pair<aapc::NodeId, aapc::NodeId>{static_cast<aapc::NodeId>(std::stoul(text.substr(0, dash))),
                                                 static_cast<aapc::NodeId>(std::stoul(text.substr(dash + 1)))};
  } catch (const std::exception&) {
    return invalid_argument(fmt::format("input.link: '{}' is not of the form a-b", text));
  }
}

// The Q_3 example: A_1 at params {n, d} for input {faults, link}, all-port.
Result<json> compute_q3(const json& params, const json& input) {
  try {
    const int n = params.at("n").get<int>(), d = params.at("d").get<int>();
    if (params.at("algorithm").get<std::string>() != "A1") return invalid_argument("params.algorithm must be A1");
    auto faults = aapc::parse_faults(n, input.at("faults").get<std::string>());
    if (!faults) return invalid_argument("input.faults: " + faults.error().message);
    auto link = parse_link(input.at("link").get<std::string>());
    if (!link) return link.error();
    aapc::RunRequest req;
    req.faults = *faults;
    req.algorithm = aapc::Algorithm::kA1;
    req.d = d;
    auto run = aapc::run_aapc(req);
    if (!run) return run.error();
    const aapc::ScheduleCheck c = aapc::check_schedule(run->schedule, *faults, req.model);
    if (!c.ok) return invalid_argument("A1's schedule is invalid: " + c.violation);
    return link_data(run->schedule, link->first, link->second);
  } catch (const json::exception& e) {
    return invalid_argument(std::string("params/input: ") + e.what());
  }
}

// Which single faults reproduce the Q_3 sentence (d = 2, link 0-4): exactly the stored one?
MethodResult which_fault(const RunContext& ctx) {
  MethodResult r;
  r.method = Method::kExhaustive;
  auto stored_example = ctx.load_case("aapc/examples/q3_link_0_4.json");
  if (!stored_example) {
    r.outcome = Outcome::kError;
    r.detail = stored_example.error().to_string();
    return r;
  }
  const corpus::Case& example = *stored_example;
  std::vector<aapc::NodeId> matching;
  for (aapc::NodeId phi = 0; phi < 8; ++phi) {
    json input = example.input;
    input["faults"] = std::to_string(phi);
    auto computed = compute_q3(example.params, input);
    ++r.cases;
    if (computed && *computed == example.expected) matching.push_back(phi);
  }
  r.scope = "Q_3, A_1 along dimension 2, all-port, every single fault 0..7: the data on link 0-4 per step against the "
            "printed sentence";
  const std::string stored = example.input.at("faults").get<std::string>();
  if (matching.size() == 1 && std::to_string(matching[0]) == stored) {
    r.outcome = Outcome::kHolds;
    return r;
  }
  r.outcome = Outcome::kRefuted;
  r.detail = fmt::format("the faults reproducing the sentence are {{{}}}, not exactly the stored {}", fmt::join(matching, ","),
                         stored);
  Counterexample cx;
  cx.params = {{"n", 3}};
  cx.input = {{"faults", stored}};
  cx.violation = r.detail;
  cx.witness = {{"matching", matching}};
  r.counterexample = cx;
  return r;
}

// Example 2: the fault sets of size 2 of Q_n consistent with the named division, d, n_1, n_2.
Result<json> compute_example2(const json& params, const json& input) {
  try {
    const int n = params.at("n").get<int>();
    if (n < 2 || n > aapc::kMaxN) return invalid_argument("params.n out of range");
    auto dims = aapc::parse_dims(n, input.at("dims").get<std::string>(), "input.dims");
    if (!dims) return dims.error();
    const int d = input.at("d").get<int>();
    const auto n1 = input.at("n1").get<aapc::NodeId>(), n2 = input.at("n2").get<aapc::NodeId>();
    const aapc::NodeId N = aapc::NodeId{1} << n, bit = aapc::NodeId{1} << d;
    std::vector<std::string> found;
    for (aapc::NodeId x = 0; x < N; ++x)
      for (aapc::NodeId y = x + 1; y < N; ++y) {
        const aapc::FaultSet f(n, {x, y});
        if (!aapc::at_most_one_fault_per_ps(f, *dims)) continue;    // Property 1's condition on D
        if (aapc::common_perfect_dims(f, *dims) == 0) continue;     // the Q_{f+1}s exist
        if (((x ^ y) & bit) == 0) continue;                         // one fault per half along d
        if (f.is_faulty(n1) || f.is_faulty(n2) || ((n1 ^ n2) & bit) == 0) continue;
        if (!f.is_faulty(n1 ^ bit) || !f.is_faulty(n2 ^ bit)) continue;  // their d-neighbours are the faults
        found.push_back(fmt::format("{},{}", x, y));
      }
    return json{{"faults", fmt::format("{}", fmt::join(found, ";"))}, {"fault sets consistent", found.size()}};
  } catch (const json::exception& e) {
    return invalid_argument(std::string("params/input: ") + e.what());
  }
}

Reading example_reading(const std::string& claim_id, std::string name, std::string description, ExampleFn compute) {
  Reading r;
  r.name = std::move(name);
  r.description = std::move(description);
  r.compute_example = compute;
  r.methods.emplace_back(Method::kExample, example_method(claim_id, r.name, compute));
  return r;
}

// Example 1 (Section 2): params {"n": 4}, input {"dims": "0,2", "corresponding": {"node": 0,
// "dimension": 3}}; output in the printed shape: the PSs ("2^2 Q_2, {0,1,4,5}, ...") and the
// corresponding nodes in two Q_3s.
Result<json> compute_example1(const json& params, const json& input) {
  auto n = parse_n(params);
  if (!n) return n.error();
  if (!input.is_object() || !input.contains("dims") || !input.at("dims").is_string())
    return invalid_argument("input.dims must be a string of dimensions (\"0,2\")");
  auto dims = aapc::parse_dims(*n, input.at("dims").get<std::string>(), "input.dims");
  if (!dims) return dims.error();
  if (!input.contains("corresponding") || !input.at("corresponding").is_object())
    return invalid_argument("input.corresponding must be an object {\"node\", \"dimension\"}");
  const json& corr = input.at("corresponding");
  if (!corr.contains("node") || !corr.at("node").is_number_unsigned() || corr.at("node").get<uint64_t>() >= (uint64_t{1} << *n))
    return invalid_argument(fmt::format("input.corresponding.node must be a node of Q_{}", *n));
  if (!corr.contains("dimension") || !corr.at("dimension").is_number_integer() || corr.at("dimension").get<int>() < 0 ||
      corr.at("dimension").get<int>() >= *n)
    return invalid_argument(fmt::format("input.corresponding.dimension must be in 0..{}", *n - 1));
  const NodeId node = corr.at("node").get<NodeId>();
  const int d = corr.at("dimension").get<int>();
  const int k = std::popcount(*dims);
  const auto halves = aapc::subcubes(*n, DimSet{1} << d);
  return json{{"count", fmt::format("2^{}", *n - k)},
              {"each", fmt::format("Q_{}", k)},
              {"partner_sets", aapc::partner_sets(*n, *dims)},
              {"corresponding",
               {{"nodes", {node, aapc::corresponding_node(node, d)}},
                {"subcubes", halves.size()},
                {"each", fmt::format("Q_{}", *n - 1)}}}};
}

}  // namespace

void add_example_claims(Registry& registry) {
  registry.add(Claim::make(kPaper, "aapc.q3.link_0_4", "Section 3.1.1, after Step 5",
            "'data which move along link between nodes 0 and 4 are 0_4, 1_4, 2_4, and 3_4 in Step 1, 4_0, 4_1, 4_2, "
            "and 4_3 in Step 4, 5_4 and 7_4 in Step 4, 4_5 and 4_7 in Step 5'",
            {example_reading("aapc.q3.link_0_4", "fault_6",
                             "A_1 on Q_3 divided along dimension 2 with node 6 faulty (the only single fault that fits, "
                             "see aapc.q3.which_fault), all-port: the data crossing link 0-4 in either direction, per "
                             "step, as sets",
                             compute_q3)}));
  Reading which;
  which.name = "single_fault";
  which.description = "of the 8 single faults of Q_3, exactly the stored one (6) makes A_1 along dimension 2 move "
                      "exactly the printed data over link 0-4 in each step";
  which.methods.emplace_back(Method::kExhaustive, which_fault);
  which.check_case = [](const json&, const json&) -> Result<CaseCheck> { return CaseCheck{}; };
  registry.add(Claim::make(kPaper, "aapc.q3.which_fault", "Section 3.1.1, after Step 5",
            "the Q_3 example does not name its faulty node; exactly one single fault makes A_1 reproduce it",
            {std::move(which)}));
  registry.add(Claim::make(kPaper, "aapc.example2.faults", "Section 3.2.1, Example 2 (Fig. 1 lost)",
            "'Q_4 is divided along the 0-th and 2-nd dimensions ... d = 3, n_1 = 1, and n_2 = 14 in Phase 2'",
            {example_reading("aapc.example2.faults", "literal",
                             "exactly one set of two faults is consistent with the example: at most one fault per PS "
                             "of D = {0,2}, some dimension across which every faulty PS has a perfect neighbour, one "
                             "fault per half along d = 3, and n_1, n_2 nonfaulty in different halves with faulty "
                             "d-neighbours",
                             compute_example2)}));
}


// Example 1 (Section 2), registered after the Section 2 properties.
void add_example1_claims(Registry& registry) {
  std::vector<Reading> readings;
  Reading r;
  r.name = "literal";
  r.description =
      "The printed sets are the partner sets of D = {0, 2} (nodes agreeing outside D), each a Q_2, 2^(4-2) of them, "
      "ordered by smallest node; nodes 0 and 8 are corresponding nodes along dimension 3 in the two Q_3s of dividing "
      "along {3}. Compared cell by cell with corpus/aapc/examples/example1.json.";
  r.compute_example = compute_example1;
  r.methods.emplace_back(Method::kExample, example_method("aapc.example1.partner_sets", r.name, compute_example1));
  readings.push_back(std::move(r));
  registry.add(Claim::make(kPaper, "aapc.example1.partner_sets", "Section 2, Example 1",
                           "If Q_4 is divided along 2 dimensions, 0-th and 2-nd, then there are 2^2 Q_2, {0,1,4,5}, "
                           "{2,3,6,7}, {8,9,12,13}, and {10,11,14,15}. Nodes 0 and 8 can be corresponding nodes in "
                           "two Q_3s.",
                           std::move(readings)));
}

}  // namespace topocheck::claims::aapc_parts
