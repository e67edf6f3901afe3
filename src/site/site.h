// The findings site (`topocheck report --html DIR [--from REPORT.json]`): a static site, one page
// per paper, written from a verify report, the registry, the ledger and the corpus. No server, no
// network, no script, no external font: it opens from the file system.
//
// Pages:
//   index.html             the five papers, per paper the claims holding / refuted (error of the
//                          paper, ambiguous, other) / vacuous / inconclusive / error, and the run
//                          (budget, seed, date, report, agreement with the ledger);
//   paper-<slug>.html      every claim in the paper's order (statement by statement): statement,
//                          location, per reading its verdict, the methods' scopes and counts
//                          (cases, applicable), the ledger's expectation and reason; the paper's
//                          statement graph (which statement's proof uses which, as the text says)
//                          coloured by verdict, also as a list; every counterexample drawn, linked
//                          to its corpus JSON (copied into the site) with the command replaying it;
//                          the printed examples, reproduced or with their errata cell by cell;
//   style.css, graphs/*.svg, drawings/<claim>/<case>.svg, corpus/<family>/.../<case>.json.
//
// Claim status (index counts; per paper): a claim with a refuted faithful reading takes the kind
// claims::summarize_claims gives it ("error of the paper", "ambiguous", "undecided", "not
// reproduced", "beyond the paper"); otherwise "error" if a faithful reading is error,
// "inconclusive" if one is inconclusive, "vacuous" if one is vacuous, else "holds" ("reproduced" for
// an empirical finding). Claims whose readings the report does not contain are "not checked".
//
// Errors (exit 2 in the CLI): a corpus case the report names that cannot be loaded or drawn (a
// drawing never renders silently wrong: report::draw_case validates the witness), a Graphviz
// failure, an unwritable folder, or an existing DIR that is not a topocheck site (it holds no
// .topocheck-site marker: never replaced). The site is written into a fresh sibling folder and
// renamed over DIR only when complete: DIR holds the old site or the new one, never a part.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "claims/claim.h"
#include "claims/ledger.h"
#include "claims/runner.h"
#include "core/status.h"

namespace topocheck::site {

// One of the five papers (papers/INDEX.md).
struct Paper {
  std::string file;      // Claim::paper, e.g. "003_870397c57c58895c.txt"
  std::string slug;      // page name: paper-<slug>.html
  std::string citation;  // authors, "title", venue
  std::string subject;   // the paper in a few words: the title of its page
};
const std::vector<Paper>& papers();

struct SiteInput {
  const claims::Registry* registry = nullptr;
  const claims::Ledger* ledger = nullptr;
  std::vector<claims::ReadingVerdict> verdicts;  // the run's, compared with the ledger
  claims::Budget budget = claims::Budget::kStandard;
  uint64_t seed = 1;
  std::string date;    // of the run (UTC), "" when the report does not say
  std::string report;  // where the verdicts came from, for people
  std::filesystem::path corpus_dir;
};

// The status of one claim (see the header comment) from its readings' verdicts.
std::string claim_status(const claims::Claim& claim, const std::vector<claims::ReadingVerdict>& verdicts);

// Writes the whole site into `dir` (see the header comment). Returns the number of files written.
Result<size_t> write_site(const SiteInput& input, const std::filesystem::path& dir);

}  // namespace topocheck::site
