// Fuzzes parse_node (core/node.h): the text form is exact, so a parsed node prints back to the very
// input, has a width in 1..kMaxWidth and no bit beyond it, and parses back to itself; a required
// width is honoured. Errors are Error values with a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/node.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

namespace {

void check(std::string_view text, int expected_width) {
  auto node = parse_node(text, expected_width);
  if (!node) {
    TC_FUZZ_REQUIRE(!node.error().message.empty(), std::string(text));
    return;
  }
  const Node u = *node;
  TC_FUZZ_REQUIRE(u.width >= 1 && u.width <= kMaxWidth, std::string(text));
  TC_FUZZ_REQUIRE(expected_width <= 0 || u.width == expected_width, std::string(text));
  TC_FUZZ_REQUIRE((u.bits >> u.width) == 0, std::string(text));
  TC_FUZZ_REQUIRE(u.to_string() == text, std::string(text) + " printed as " + u.to_string());
  auto again = parse_node(u.to_string(), u.width);
  TC_FUZZ_REQUIRE(again.ok() && *again == u, u.to_string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::check_text_at_both_widths(data, size, check);
}
