// Fuzzes the corpus case loader (corpus/corpus.h load_case, the way every command reads a case),
// then replays a case that loads as `replay` does (claims::replay_case against the full registry:
// an example is recomputed and diffed, a counterexample re-checked by its reading's check_case).
// A loaded case prints (to_json) to a JSON that loads back to the same JSON. Errors, from the
// loader or from the replay (unknown claim, bad input), are Error values: never an exception, an
// abort or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "claims/runner.h"
#include "corpus/corpus.h"
#include "fuzz/fuzz_support.h"
#include "registry/full_registry.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const claims::Registry registry = full_registry();
  const auto file = fuzz::input_file(data, size, ".case.json");
  auto c = corpus::load_case(file);
  if (!c) {
    TC_FUZZ_REQUIRE(!c.error().message.empty(), "load_case");
    return 0;
  }
  const nlohmann::json printed = corpus::to_json(*c);
  auto again = corpus::case_from_json(printed, file.string());
  TC_FUZZ_REQUIRE(again.ok(), printed.dump() + ": " + (again.ok() ? "" : again.error().message));
  TC_FUZZ_REQUIRE(corpus::to_json(*again) == printed, printed.dump());
  TC_FUZZ_REQUIRE(corpus::same_input(*c, *again), printed.dump());

  auto replayed = claims::replay_case(registry, *c);
  if (!replayed) TC_FUZZ_REQUIRE(!replayed.error().message.empty(), printed.dump());
  return 0;
}
