#include "cli/command.h"

#include <cstdlib>

#include "registry/full_registry.h"

namespace topocheck::cli {

std::filesystem::path Session::corpus_dir() const {
  if (!corpus_option.empty()) return corpus_option;
  if (const char* env = std::getenv("TOPOCHECK_CORPUS"); env && *env) return env;
  return std::filesystem::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

const claims::Registry& Session::registry() const {
  if (!registry_) registry_.emplace(full_registry());
  return *registry_;
}

}  // namespace topocheck::cli
