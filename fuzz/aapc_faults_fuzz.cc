// Fuzzes the AAPC fault-set text (aapc/aapc.h parse_faults), as `simulate aapc --n N --faults F`
// reads it. A parsed set is within Q_n, ascending and without repeats, leaves a node nonfaulty,
// and its list ("6,9") parses back to the same set; its printed form is "{6,9}". The dimension
// list of the same text (aapc/partition.h parse_dims) is fuzzed alongside: a parsed set prints
// back (dims_to_list) to a text that parses to it. Errors are Error values.
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aapc/aapc.h"
#include "aapc/partition.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte is n (-1..12, so that out-of-range n is tried too); the rest is the text.
  if (size == 0) return 0;
  const int n = static_cast<int>(data[0] % 14) - 1;
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  const std::string in = fmt::format("n={} '{}'", n, text);

  auto faults = aapc::parse_faults(n, text);
  if (!faults) {
    TC_FUZZ_REQUIRE(!faults.error().message.empty(), in);
  } else {
    const aapc::FaultSet& f = *faults;
    TC_FUZZ_REQUIRE(f.n() == n && n >= 1 && n <= aapc::kMaxN, in);
    const auto& faulty = f.faulty();
    for (size_t i = 0; i < faulty.size(); ++i) {
      TC_FUZZ_REQUIRE(faulty[i] < f.num_nodes() && f.is_faulty(faulty[i]), in);
      TC_FUZZ_REQUIRE(i == 0 || faulty[i - 1] < faulty[i], in);
    }
    TC_FUZZ_REQUIRE(faulty.size() + f.nonfaulty().size() == f.num_nodes() && !f.nonfaulty().empty(), in);
    const std::string list = fmt::format("{}", fmt::join(faulty, ","));
    TC_FUZZ_REQUIRE(f.to_string() == "{" + list + "}", in + " printed as " + f.to_string());
    auto again = aapc::parse_faults(n, list);
    TC_FUZZ_REQUIRE(again.ok() && again->faulty() == faulty, in + " listed as " + list);
  }

  auto dims = aapc::parse_dims(n, text, "--dims");
  if (dims) {
    const std::string list = aapc::dims_to_list(*dims);
    auto again = aapc::parse_dims(n, list, "--dims");
    TC_FUZZ_REQUIRE(again.ok() && *again == *dims, in + " listed as " + list);
  } else {
    TC_FUZZ_REQUIRE(!dims.error().message.empty(), in);
  }
  return 0;
}
