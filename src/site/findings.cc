// The generated verdict tables of docs/findings/ (findings.h).
#include "site/findings.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/output_file.h"

namespace topocheck::site {

namespace fs = std::filesystem;
using claims::Budget;

namespace {

// Text for a Markdown table cell: '|' escaped, line breaks folded.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string verdict_text(const claims::Expectation& e, bool empirical) {
  const auto word = [&](Budget b) { return claims::verdict_word(e.at(b), empirical); };
  const claims::Outcome standard = e.at(Budget::kStandard);
  std::string out = standard == claims::Outcome::kRefuted ? "**" + word(Budget::kStandard) + "**" : word(Budget::kStandard);
  for (Budget b : {Budget::kQuick, Budget::kDeep})
    if (e.at(b) != standard) out += fmt::format(" ({}: {})", claims::to_string(b), word(b));
  return out;
}

}  // namespace

std::string findings_table(const claims::Registry& registry, const claims::Ledger& ledger, const std::string& family) {
  std::string out =
      "| claim | reading | expected (standard) | case | the ledger's reason |\n|---|---|---|---|---|\n";
  for (const claims::Claim& c : registry.claims()) {
    if (c.family() != family) continue;
    for (const claims::Reading& r : c.readings) {
      const claims::Expectation* e = ledger.find(c.id, r.name);
      const std::string reading = fmt::format("`{}`{}", r.name, r.faithful ? "" : " (not a reading of the text)");
      if (!e) {
        out += fmt::format("| `{}` ({}) | {} | no expectation | | |\n", c.id, cell(c.location), reading);
        continue;
      }
      const std::string& stored = e->case_at(Budget::kStandard);
      out += fmt::format("| `{}` ({}) | {} | {} | {} | {} |\n", c.id, cell(c.location), reading,
                         verdict_text(*e, c.empirical),
                         stored.empty() ? "" : fmt::format("[case](../../corpus/{})", stored), cell(e->reason));
    }
  }
  return out;
}

Result<std::vector<fs::path>> update_findings(const fs::path& dir, const claims::Registry& registry,
                                              const claims::Ledger& ledger, bool check) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return invalid_argument(fmt::format("--findings {}: not a folder", dir.string()));
  std::vector<std::string> families;
  for (const claims::Claim& c : registry.claims())
    if (std::find(families.begin(), families.end(), c.family()) == families.end()) families.push_back(c.family());
  std::vector<fs::path> changed;
  for (const std::string& family : families) {
    const fs::path page = dir / (family + ".md");
    std::ifstream in(page);
    if (!in) return Error{ErrorCode::kNotFound, fmt::format("the findings page of family {} cannot be read", family), page.string(), 0};
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const size_t begin = text.find(kFindingsBegin);
    const size_t end = text.find(kFindingsEnd);
    if (begin == std::string::npos || end == std::string::npos || end < begin)
      return parse_error(fmt::format("no generated verdict block (the lines {} and {}, in this order)", kFindingsBegin,
                                     kFindingsEnd),
                         page.string());
    const size_t body = begin + std::string_view(kFindingsBegin).size();
    const std::string updated =
        text.substr(0, body) + "\n" + findings_table(registry, ledger, family) + text.substr(end);
    if (updated == text) continue;
    changed.push_back(page);
    if (check) continue;
    if (auto w = write_file(page, updated); !w) return w.error();
  }
  return changed;
}

}  // namespace topocheck::site
