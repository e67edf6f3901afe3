// Fuzzes parse_subcube (core/subcube.h): a parsed subcube prints back to the very input, its fixed
// values are zero where it is free, its bits stay within its width, it contains exactly 2^dimension
// of the nodes it is checked on, and it parses back to itself. Errors are Error values.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/node.h"
#include "core/subcube.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

namespace {

void check(std::string_view text, int expected_width) {
  auto cube = parse_subcube(text, expected_width);
  if (!cube) {
    TC_FUZZ_REQUIRE(!cube.error().message.empty(), std::string(text));
    return;
  }
  const Subcube s = *cube;
  const std::string in(text);
  TC_FUZZ_REQUIRE(s.width >= 1 && s.width <= kMaxWidth, in);
  TC_FUZZ_REQUIRE(expected_width <= 0 || s.width == expected_width, in);
  TC_FUZZ_REQUIRE(((s.free_mask | s.values) >> s.width) == 0, in);
  TC_FUZZ_REQUIRE((s.free_mask & s.values) == 0, in);
  TC_FUZZ_REQUIRE(s.to_string() == text, in + " printed as " + s.to_string());
  auto again = parse_subcube(s.to_string(), s.width);
  TC_FUZZ_REQUIRE(again.ok() && *again == s, s.to_string());
  // Its lowest node (free bits 0) and highest node (free bits 1) are members; flipping a fixed bit
  // leaves it.
  const Node low{s.values, s.width};
  const Node high{s.values | s.free_mask, s.width};
  TC_FUZZ_REQUIRE(s.contains(low) && s.contains(high), in);
  for (int i = 0; i < s.width; ++i)
    if (!((s.free_mask >> i) & 1u)) TC_FUZZ_REQUIRE(!s.contains(low.flip(i)), in);
  TC_FUZZ_REQUIRE(s.dimension() >= 0 && s.dimension() <= s.width, in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::check_text_at_both_widths(data, size, check);
}
