// Fuzzes the ledger loader (claims/ledger.h load_ledger, as every command reads corpus/ledger.json)
// and the stale-entry check (against an empty registry, where every entry is stale: the target
// links the engine only, not the catalogue). A loaded ledger has a claim, a reading and a
// reason in every entry, no two entries for one claim reading, and find() returns each entry.
// Errors are Error values naming the file.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "claims/ledger.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const claims::Registry registry;
  const auto file = fuzz::input_file(data, size, ".ledger.json");
  auto ledger = claims::load_ledger(file);
  if (!ledger) {
    TC_FUZZ_REQUIRE(!ledger.error().message.empty(), "load_ledger");
    TC_FUZZ_REQUIRE(ledger.error().file == file.string(), ledger.error().to_string());
    return 0;
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (const claims::Expectation& e : ledger->expectations) {
    const std::string what = e.claim + " [" + e.reading + "]";
    TC_FUZZ_REQUIRE(!e.claim.empty() && !e.reading.empty() && !e.reason.empty(), what);
    TC_FUZZ_REQUIRE(seen.emplace(e.claim, e.reading).second, what + " listed twice");
    TC_FUZZ_REQUIRE(ledger->find(e.claim, e.reading) == &e, what);
    for (const claims::Budget b : {claims::Budget::kQuick, claims::Budget::kStandard, claims::Budget::kDeep}) {
      (void)e.at(b);
      (void)e.case_at(b);
    }
  }
  TC_FUZZ_REQUIRE(claims::stale_expectations(*ledger, registry).size() == ledger->expectations.size(), "stale");
  return 0;
}
