// Shared helpers of the libFuzzer targets (README.md here).
//
// A target checks more than "no crash": TC_FUZZ_REQUIRE states a property (a parsed value prints
// and parses back to itself, an error is an Error value); when one fails it prints the property
// and aborts, so that libFuzzer keeps the input as a crash. Exceptions are never caught here: one
// that escapes a parser is a finding (libFuzzer reports it as a deadly signal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include <unistd.h>

namespace topocheck::fuzz {

[[noreturn]] inline void property_failed(const char* file, int line, const char* condition, const std::string& detail) {
  std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n  %s\n", file, line, condition, detail.c_str());
  std::abort();
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The text targets' input: the first byte picks the width the caller requires (-1..64; -1 and 0:
// any width), the rest is the text. nullopt for an empty input.
struct WidthAndText {
  int width;
  std::string_view text;
};
inline std::optional<WidthAndText> width_and_text(const uint8_t* data, size_t size) {
  if (size == 0) return std::nullopt;
  return WidthAndText{static_cast<int>(data[0] % 66) - 1, as_text(data + 1, size - 1)};
}

// The input as a file, for loaders that take a path (the CLI's way in): one file per process in
// the temporary folder, rewritten for every input.
// The text forms' entry point: the text checked with no required width, then with the first byte's.
template <typename Check>
inline int check_text_at_both_widths(const uint8_t* data, size_t size, Check check) {
  const auto in = width_and_text(data, size);
  if (!in) return 0;
  check(in->text, 0);
  check(in->text, in->width);
  return 0;
}

inline std::filesystem::path input_file(const uint8_t* data, size_t size, const char* suffix) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("topocheck-fuzz-" + std::to_string(::getpid()) + suffix);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) property_failed(__FILE__, __LINE__, "input_file", "cannot write " + file.string());
  return file;
}

}  // namespace topocheck::fuzz

#define TC_FUZZ_REQUIRE(condition, detail)                                              \
  do {                                                                                  \
    if (!(condition)) ::topocheck::fuzz::property_failed(__FILE__, __LINE__, #condition, (detail)); \
  } while (0)
