#include "cli/options.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace topocheck::cli {
namespace {

template <class T>
CLI::Option* add_integer(CLI::App& app, const std::string& name, T& var, T min, T max, const std::string& help) {
  auto parse = [name, &var, min, max](const CLI::results_t& results) {
    const std::string& text = results.at(0);
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    const bool whole = ptr == end && !text.empty();
    if (whole && (ec == std::errc::result_out_of_range || (ec == std::errc() && (value < min || value > max))))
      throw CLI::ValidationError(name, fmt::format("{} is outside {}..{}", text, min, max));
    if (ec != std::errc() || !whole)
      throw CLI::ValidationError(name, fmt::format("'{}' is not an integer in {}..{}", text, min, max));
    var = value;
    return true;
  };
  CLI::Option* opt = app.add_option(name, CLI::callback_t(parse), fmt::format("{} [{}..{}]", help, min, max));
  opt->type_name("INT");
  return opt;
}

}  // namespace

CLI::Option* add_int_option(CLI::App& app, const std::string& name, int& var, int min, int max,
                            const std::string& help) {
  return add_integer(app, name, var, min, max, help);
}
CLI::Option* add_int_option(CLI::App& app, const std::string& name, uint32_t& var, uint32_t min, uint32_t max,
                            const std::string& help) {
  return add_integer(app, name, var, min, max, help);
}
CLI::Option* add_int_option(CLI::App& app, const std::string& name, uint64_t& var, uint64_t min, uint64_t max,
                            const std::string& help) {
  return add_integer(app, name, var, min, max, help);
}

CLI::Option* add_seed_option(CLI::App& app, const std::string& name, uint64_t& var, const std::string& help) {
  return add_integer<uint64_t>(app, name, var, 0, std::numeric_limits<uint64_t>::max(), help);
}

CLI::Option* add_float_option(CLI::App& app, const std::string& name, double& var, double min, double max,
                              const std::string& help, bool min_open) {
  const std::string range = fmt::format("{}{:g}, {:g}]", min_open ? "(" : "[", min, max);
  auto parse = [name, &var, min, max, min_open, range](const CLI::results_t& results) {
    const std::string& text = results.at(0);
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    const bool whole = ptr == end && !text.empty();
    if (ec != std::errc() || !whole || !std::isfinite(value))
      throw CLI::ValidationError(name, fmt::format("'{}' is not a finite number in {}", text, range));
    if (!((min_open ? value > min : value >= min) && value <= max))
      throw CLI::ValidationError(name, fmt::format("{} is outside {}", text, range));
    var = value;
    return true;
  };
  CLI::Option* opt = app.add_option(name, CLI::callback_t(parse), fmt::format("{} {}", help, range));
  opt->type_name("NUMBER");
  return opt;
}

CLI::Option* add_file_option(CLI::App& app, const std::string& name, std::string& var, const std::string& help) {
  auto set = [name, &var](const CLI::results_t& results) {
    const std::string& text = results.at(0);
    if (text.empty()) throw CLI::ValidationError(name, "an empty file name (give a path, or '-' where stdout is allowed)");
    var = text;
    return true;
  };
  CLI::Option* opt = app.add_option(name, CLI::callback_t(set), help);
  opt->type_name("FILE");
  return opt;
}

}  // namespace topocheck::cli
