// The numeric and file options of every `topocheck` command, declared through one parser.
//
// CLI11's own conversions wrap ("-1" into an unsigned is 2^64-1), saturate and accept "nan"; these
// helpers parse the text themselves (std::from_chars, the whole text, no sign for unsigned types)
// and check it against [min, max] before the variable is set. A bad value is a CLI::ValidationError
// (one line, exit 2) naming the option and stating the valid range, e.g.
//   --seed: '-1' is not an integer in 0..18446744073709551615
//   --seed: 18446744073709551616 is outside 0..18446744073709551615
//   --timeout: 'nan' is not a finite number in [0, 86400]
// The range is also appended to the help text. A variable keeps its default when the option is
// not given, so a sentinel default outside the range (e.g. -1: "unset") stays distinguishable.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace topocheck::cli {

CLI::Option* add_int_option(CLI::App& app, const std::string& name, int& var, int min, int max,
                            const std::string& help);
CLI::Option* add_int_option(CLI::App& app, const std::string& name, uint32_t& var, uint32_t min, uint32_t max,
                            const std::string& help);
CLI::Option* add_int_option(CLI::App& app, const std::string& name, uint64_t& var, uint64_t min, uint64_t max,
                            const std::string& help);

// A finite double in [min, max]; with min_open, in (min, max].
CLI::Option* add_float_option(CLI::App& app, const std::string& name, double& var, double min, double max,
                              const std::string& help, bool min_open = false);

// A file name option: the empty name is an error naming the option (never "not given").
CLI::Option* add_file_option(CLI::App& app, const std::string& name, std::string& var, const std::string& help);

// A seed: any 64-bit unsigned number.
CLI::Option* add_seed_option(CLI::App& app, const std::string& name, uint64_t& var, const std::string& help);

// Thread counts: 1..kMaxJobs.
inline constexpr int kMaxJobs = 256;

}  // namespace topocheck::cli
