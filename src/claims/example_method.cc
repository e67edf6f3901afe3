#include "claims/example_method.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "corpus/corpus.h"

namespace topocheck::claims {

MethodFn example_method(std::string claim_id, std::string reading_name, ExampleFn compute) {
  return [claim_id, reading_name, compute](const RunContext& ctx) {
    MethodResult result;
    result.method = Method::kExample;
    const std::string family = claim_id.substr(0, claim_id.find('.'));
    auto cases = ctx.examples(family);
    if (!cases) {
      result.outcome = Outcome::kError;
      result.detail = cases.error().to_string();
      return result;
    }
    size_t examples = 0, cells = 0, errata = 0;
    std::vector<std::string> problems;
    for (const corpus::Case& c : *cases) {
      if (c.kind != corpus::CaseKind::kExample || c.claim != claim_id || c.reading != reading_name)
        continue;
      ++examples;
      errata += c.errata.size();
      auto computed = compute(c.params, c.input);
      if (!computed) {
        result.outcome = Outcome::kError;
        result.detail = fmt::format("{}: {}", c.file.string(), computed.error().message);
        return result;
      }
      // Count the printed cells (leaves) for the scope.
      cells += corpus::count_cells(c.expected);
      for (const std::string& p : corpus::explain_diffs(corpus::diff_cells(c.expected, *computed), c.errata))
        problems.push_back(fmt::format("{}: {}", c.file.filename().string(), p));
    }
    if (examples == 0) {
      result.outcome = Outcome::kError;
      result.detail = fmt::format("no example case for {} [{}] under corpus/{}/examples", claim_id, reading_name,
                                  family);
      return result;
    }
    result.cases = examples;
    result.scope = fmt::format("{} example(s), {} printed cell(s), {} erratum/errata", examples, cells, errata);
    if (problems.empty()) {
      result.outcome = Outcome::kHolds;
    } else {
      result.outcome = Outcome::kRefuted;
      result.detail = fmt::format("{}", fmt::join(problems, "; "));
    }
    return result;
  };
}

}  // namespace topocheck::claims
