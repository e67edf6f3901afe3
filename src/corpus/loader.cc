#include "corpus/loader.h"

#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace topocheck::corpus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Error case_error(const Case& c, const std::string& message) { return parse_error(message, c.file.string()); }

// The file's folder and its parent's, from its absolute path.
std::pair<std::string, std::string> folders_of(const fs::path& file) {
  const fs::path abs = fs::absolute(file).lexically_normal();
  return {abs.parent_path().filename().string(), abs.parent_path().parent_path().filename().string()};
}

// The claim and reading are known and the case lies in its claim's folder (its file name aside).
std::optional<Error> check_place(const Case& c, const claims::Registry& registry) {
  const claims::Claim* claim = registry.find(c.claim);
  if (!claim) return case_error(c, fmt::format("unknown claim '{}' (see `topocheck list`)", c.claim));
  if (!claim->find_reading(c.reading))
    return case_error(c, fmt::format("claim {} has no reading '{}'", c.claim, c.reading));
  const size_t dot = c.claim.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == c.claim.size())
    return case_error(c, fmt::format("claim '{}' is not <family>.<name>", c.claim));
  const std::string family = c.claim.substr(0, dot);
  const std::string rest = c.claim.substr(dot + 1);
  const auto [folder, parent] = folders_of(c.file);
  if (c.kind == CaseKind::kExample) {
    if (folder != "examples" || parent != family)
      return case_error(c, fmt::format("an example of {} belongs in {}/examples/, not in {}/{}/", c.claim, family,
                                       parent, folder));
    return std::nullopt;
  }
  if (folder != rest || parent != family)
    return case_error(c, fmt::format("a counterexample of {} belongs in {}/{}/, not in {}/{}/", c.claim, family, rest,
                                     parent, folder));
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_case(const Case& c, const claims::Registry& registry) {
  if (auto e = check_place(c, registry)) return e;
  const claims::Reading* reading = registry.find(c.claim)->find_reading(c.reading);
  if (c.kind == CaseKind::kExample) {
    if (!reading->compute_example)
      return case_error(c, fmt::format("claim {} [{}] has no example computation", c.claim, c.reading));
    auto computed = reading->compute_example(c.params, c.input);
    if (!computed) return case_error(c, computed.error().message);
    return std::nullopt;
  }
  if (!reading->check_case)
    return case_error(c, fmt::format("claim {} [{}] cannot replay counterexamples", c.claim, c.reading));
  auto check = reading->check_case(c.params, c.input);
  if (!check) return case_error(c, check.error().message);
  if (!check->violation) return std::nullopt;  // a difference for replay and verify, not a bad file
  // Every field both the stored witness and the checker's have must be equal. (Some checkers
  // recompute only part of what the finding method stored, e.g. counts without the bound's name;
  // some stored witnesses predate fields the checker gives now, e.g. migration's
  // "sequence_policy". Fields on one side only are not judged here.)
  const std::string differs = "the stored witness is not the one the claim's checker finds on this input: ";
  if (!check->witness.is_object()) {
    const std::vector<CellDiff> diffs = diff_cells(c.witness, check->witness);
    if (diffs.empty()) return std::nullopt;
    return case_error(c, fmt::format("{}witness{} is {}, the checker gives {}", differs, diffs.front().cell,
                                     diffs.front().printed.dump(), diffs.front().computed.dump()));
  }
  for (auto it = check->witness.begin(); it != check->witness.end(); ++it) {
    const std::string pointer = "/" + it.key();
    if (!c.witness.contains(it.key())) continue;
    const std::vector<CellDiff> diffs = diff_cells(c.witness.at(it.key()), it.value());
    if (diffs.empty()) continue;
    const CellDiff& d = diffs.front();
    return case_error(c, fmt::format("{}witness{}{} is {}, the checker gives {}", differs, pointer, d.cell,
                                     d.printed.is_null() ? "absent" : d.printed.dump(),
                                     d.computed.is_null() ? "absent" : d.computed.dump()));
  }
  return std::nullopt;
}

std::optional<Error> find_duplicates(const std::vector<Case>& cases) {
  std::map<std::string, const Case*> seen;
  for (const Case& c : cases) {
    const std::string key = c.claim + "\n" + c.reading + "\n" + c.params.dump() + "\n" + c.input.dump();
    auto [it, inserted] = seen.emplace(key, &c);
    if (inserted) continue;
    const fs::path& other = it->second->file;
    if (fs::absolute(other).lexically_normal() == fs::absolute(c.file).lexically_normal())
      return case_error(c, "the case is given twice");
    return case_error(c, fmt::format("same claim, reading, params and input as {} (each input is stored once)",
                                     other.string()));
  }
  return std::nullopt;
}

Result<Case> load_checked_case(const fs::path& file, const claims::Registry& registry) {
  auto c = load_case(file);
  if (!c) return c.error();
  if (auto e = check_case(*c, registry)) return *e;
  return c;
}

Result<std::vector<Case>> load_corpus(const fs::path& root, const claims::Registry& registry,
                                      const JudgeFilter& uses) {
  auto cases = load_all(root);
  if (!cases) return cases.error();
  // Misplaced cases first, then copies (a copy under another name is reported as a copy, naming
  // both files), then each case whole.
  for (const Case& c : *cases)
    if (auto e = check_place(c, registry)) return *e;
  if (auto e = find_duplicates(*cases)) return *e;
  for (const Case& c : *cases)
    if (!registry.find(c.claim)->empirical || uses(c))
      if (auto e = check_case(c, registry)) return *e;
  return cases;
}

}  // namespace topocheck::corpus
