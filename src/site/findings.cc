// The generated verdict tables of docs/findings/ (findings.h).
#include "site/findings.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "claims/report.h"
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

std::string claims_table(const claims::Registry& registry, const claims::Ledger& ledger, const std::string& family) {
  std::string out = "| claim | where | statement | readings and expected verdicts (standard) |\n|---|---|---|---|\n";
  for (const claims::Claim& c : registry.claims()) {
    if (c.family() != family) continue;
    std::vector<std::string> readings;
    for (const claims::Reading& r : c.readings) {
      const claims::Expectation* e = ledger.find(c.id, r.name);
      readings.push_back(fmt::format("`{}`{}: {}", r.name, r.faithful ? "" : " (not a reading of the text)",
                                     e ? verdict_text(*e, c.empirical) : "no expectation"));
    }
    out += fmt::format("| `{}` | {} | {} | {} |\n", c.id, cell(c.location), cell(c.statement), cell(fmt::format("{}", fmt::join(readings, "; "))));
  }
  return out;
}

std::string counterexamples_table(const claims::Registry& registry, const std::vector<corpus::Case>& cases,
                                  const fs::path& corpus_dir, const std::string& family) {
  // Registry order of claim and reading, then file.
  std::vector<std::pair<std::pair<size_t, size_t>, const corpus::Case*>> rows;
  const auto& all = registry.claims();
  for (const corpus::Case& k : cases) {
    if (k.kind != corpus::CaseKind::kCounterexample) continue;
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].id != k.claim || all[i].family() != family) continue;
      size_t reading = all[i].readings.size();
      for (size_t j = 0; j < all[i].readings.size(); ++j)
        if (all[i].readings[j].name == k.reading) reading = j;
      rows.push_back({{i, reading}, &k});
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second->file < b.second->file;
  });
  if (rows.empty()) return "No counterexample of this paper's claims is stored in the corpus.\n";
  std::string out = "| claim [reading] | params; input | violation | file |\n|---|---|---|---|\n";
  for (const auto& [order, k] : rows) {
    std::string given = k->params.dump() + "; " + k->input.dump();
    if (given.size() > 160) given = given.substr(0, 157) + "...";
    std::error_code ec;
    fs::path rel = fs::relative(k->file, corpus_dir, ec);
    if (ec || rel.empty()) rel = k->file.filename();
    out += fmt::format("| `{}` [`{}`] | `{}` | {} | [{}](../../corpus/{}) |\n", k->claim, k->reading, cell(given), cell(k->violation),
                       rel.filename().string(), rel.generic_string());
  }
  return out;
}

std::string refuted_claims_table(const claims::Registry& registry, const claims::Ledger& ledger) {
  // The ledger's expectations as verdicts, so that verify's own classification applies.
  std::vector<claims::ReadingVerdict> expected;
  for (const claims::Claim& c : registry.claims())
    for (const claims::Reading& r : c.readings) {
      const claims::Expectation* e = ledger.find(c.id, r.name);
      if (!e) continue;
      claims::ReadingVerdict v;
      v.claim = c.id;
      v.reading = r.name;
      v.empirical = c.empirical;
      v.faithful = r.faithful;
      v.beyond_paper = c.beyond_paper;
      v.outcome = e->at(Budget::kStandard);
      expected.push_back(std::move(v));
    }
  const auto list = [](const std::vector<std::string>& items) {
    return items.empty() ? std::string("—") : cell(fmt::format("{}", fmt::join(items, ", ")));
  };
  std::string out = "| claim | kind | refuted under | holds under | other readings |\n|---|---|---|---|---|\n";
  for (const claims::ClaimSummary& s : claims::summarize_claims(expected))
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", s.claim, s.kind, list(s.refuted), list(s.holding), list(s.other));
  return out;
}

namespace {

// `text` with the part between the lines `begin` and `end` replaced by `content`; an error naming
// `page` when the lines are missing or out of order.
Result<std::string> replace_block(const std::string& text, const char* begin_line, const char* end_line,
                                  const std::string& content, const fs::path& page) {
  const size_t begin = text.find(begin_line);
  const size_t end = text.find(end_line);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    return parse_error(fmt::format("no generated block (the lines {} and {}, in this order)", begin_line, end_line),
                       page.string());
  const size_t body = begin + std::string_view(begin_line).size();
  return text.substr(0, body) + "\n" + content + text.substr(end);
}

Result<std::string> read_page(const fs::path& page) {
  std::ifstream in(page);
  if (!in) return Error{ErrorCode::kNotFound, "the findings page cannot be read", page.string(), 0};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

Result<std::vector<fs::path>> update_findings(const fs::path& dir, const claims::Registry& registry,
                                              const claims::Ledger& ledger, const std::vector<corpus::Case>& cases,
                                              const fs::path& corpus_dir, bool check) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return invalid_argument(fmt::format("--findings {}: not a folder", dir.string()));
  std::vector<std::string> families;
  for (const claims::Claim& c : registry.claims())
    if (std::find(families.begin(), families.end(), c.family()) == families.end()) families.push_back(c.family());
  std::vector<std::pair<fs::path, std::string>> pages;  // page, its new text
  for (const std::string& family : families) {
    const fs::path page = dir / (family + ".md");
    auto text = read_page(page);
    if (!text) return text.error();
    auto updated = replace_block(*text, kFindingsBegin, kFindingsEnd, findings_table(registry, ledger, family), page);
    if (updated) updated = replace_block(*updated, kClaimsBegin, kClaimsEnd, claims_table(registry, ledger, family), page);
    if (updated)
      updated = replace_block(*updated, kCasesBegin, kCasesEnd, counterexamples_table(registry, cases, corpus_dir, family), page);
    if (!updated) return updated.error();
    if (*updated != *text) pages.emplace_back(page, *updated);
  }
  const fs::path index = dir / "README.md";
  auto text = read_page(index);
  if (!text) return text.error();
  auto updated = replace_block(*text, kSummaryBegin, kSummaryEnd, refuted_claims_table(registry, ledger), index);
  if (!updated) return updated.error();
  if (*updated != *text) pages.emplace_back(index, *updated);
  // Every page is read and checked before any is written.
  std::vector<fs::path> changed;
  for (const auto& [page, content] : pages) {
    changed.push_back(page);
    if (check) continue;
    if (auto w = write_file(page, content); !w) return w.error();
  }
  return changed;
}

}  // namespace topocheck::site
