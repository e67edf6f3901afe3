// Fuzzes parse_path and path_from_json (core/path.h): a parsed path has nodes of one width (the
// required one, if any), prints to a text that parses back to the same path, and its JSON form
// reads back to the same path. Errors are Error values.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/path.h"
#include "fuzz/fuzz_support.h"

using namespace topocheck;

namespace {

void check(std::string_view text, int expected_width) {
  auto path = parse_path(text, expected_width);
  const std::string in(text);
  if (!path) {
    TC_FUZZ_REQUIRE(!path.error().message.empty(), in);
    return;
  }
  const Path& p = *path;
  TC_FUZZ_REQUIRE(!p.empty(), in);
  for (const Node& u : p.nodes) {
    TC_FUZZ_REQUIRE(u.width == p.front().width, in);
    TC_FUZZ_REQUIRE(expected_width <= 0 || u.width == expected_width, in);
  }
  TC_FUZZ_REQUIRE(p.length() == static_cast<int>(p.nodes.size()) - 1, in);
  auto again = parse_path(p.to_string(), expected_width);
  TC_FUZZ_REQUIRE(again.ok() && *again == p, in + " printed as " + p.to_string());
  auto from_json = path_from_json(path_to_json(p), expected_width);
  TC_FUZZ_REQUIRE(from_json.ok() && *from_json == p, path_to_json(p).dump());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::width_and_text(data, size);
  if (!in) return 0;
  check(in->text, 0);
  check(in->text, in->width);
  // The same bytes as JSON: path_from_json on untrusted JSON returns an error, never throws.
  const nlohmann::json j = nlohmann::json::parse(in->text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) {
    auto p = path_from_json(j, in->width);
    if (p) TC_FUZZ_REQUIRE(path_from_json(path_to_json(*p), in->width).value() == *p, j.dump());
    auto ps = paths_from_json(j, in->width);
    if (ps) TC_FUZZ_REQUIRE(paths_from_json(paths_to_json(*ps), in->width).value() == *ps, j.dump());
  }
  return 0;
}
