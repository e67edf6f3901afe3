// Fuzzes the ITM step text (itm/itm.h parse_steps), as `construct itm --steps` reads it: parsed
// steps print to a text that parses back to the same steps; then the ITM is built from them under
// both rules, as the command does. A built ITM has 3 + steps nodes and 3 + 2 * steps edges (each
// AddNode adds one node and two edges), and under the exterior rule a circular order through every
// node (Lemma 4). Errors are Error values.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"
#include "itm/itm.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const std::string in(text);
  auto steps = itm::parse_steps(text);
  if (!steps) {
    TC_FUZZ_REQUIRE(!steps.error().message.empty(), in);
    return 0;
  }
  const std::string printed = itm::to_string(*steps);
  auto again = itm::parse_steps(printed);
  TC_FUZZ_REQUIRE(again.ok() && *again == *steps, in + " printed as " + printed);
  for (const itm::Rule rule : {itm::Rule::kAnyEdge, itm::Rule::kExterior}) {
    auto built = itm::Itm::build(*steps, rule);
    if (!built) {
      TC_FUZZ_REQUIRE(!built.error().message.empty(), in);
      continue;
    }
    const int added = static_cast<int>(steps->size());
    TC_FUZZ_REQUIRE(built->n() == 3 + added, in);
    TC_FUZZ_REQUIRE(built->graph().num_edges() == 3 + 2 * added, in);
    auto order = itm::circular_order(*built);
    if (rule == itm::Rule::kExterior)
      TC_FUZZ_REQUIRE(order.ok() && static_cast<int>(order->size()) == built->n(),
                      in + (order.ok() ? "" : ": " + order.error().message));
  }
  return 0;
}
