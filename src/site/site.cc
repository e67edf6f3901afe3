// The findings site (site.h): data gathered per paper, then the index and one page per paper,
// written into a fresh folder that replaces DIR only when complete.
#include "site/site.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/statements.h"
#include "claims/report.h"
#include "core/output_file.h"
#include "corpus/corpus.h"
#include "corpus/loader.h"
#include "report/dot.h"
#include "report/drawing.h"
#include "report/graphviz.h"
#include "site/html.h"

namespace topocheck::site {

namespace fs = std::filesystem;
using claims::Outcome;
using claims::ReadingVerdict;
using nlohmann::json;

const std::vector<Paper>& papers() {
  static const std::vector<Paper> list = {
      {"000_545b7be81ce3b031.txt", "migration",
       "H.-L. Chen, N.-F. Tzeng, \"On-Line Task Migration in Hypercubes Through Double Disjoint Paths\", IEEE "
       "Transactions on Computers",
       "Task migration in hypercubes through double disjoint paths"},
      {"001_2708c2cd1c088815.txt", "routing",
       "S. Raghupathy, M. R. Leuze, S. R. Schach, \"Message Routing Schemes in a Hypercube Machine\"",
       "Static and dynamic message routing in hypercubes"},
      {"002_5e7910d99423ef9d.txt", "itm", "P. Liu, \"Incremental Triangular Mesh\" (NSC 90-2213-E-002-144 report)",
       "The Incremental Triangular Mesh: deadlock-free routing, a contention-free order"},
      {"003_870397c57c58895c.txt", "metacube", "Y. Li, S. Peng, W. Chu, \"Disjoint Paths in Metacube\"",
       "k + m disjoint paths in the Metacube MC(k, m)"},
      {"004_d7c0ed59f63b519b.txt", "aapc",
       "H. Masuyama, E. Masuyama, \"A Method of Fault-Tolerant All-to-All Personalized Communication in "
       "Hypercubes\"",
       "Fault-tolerant all-to-all personalized communication in hypercubes"},
  };
  return list;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Verdicts and statuses.

std::string verdict_word(const ReadingVerdict& v) { return claims::verdict_word(v.outcome, v.empirical); }

std::vector<const ReadingVerdict*> verdicts_of(const std::string& claim, const std::vector<ReadingVerdict>& verdicts) {
  std::vector<const ReadingVerdict*> out;
  for (const ReadingVerdict& v : verdicts)
    if (v.claim == claim) out.push_back(&v);
  return out;
}

// The status words the index counts, in its column order.
const std::vector<std::string>& status_columns() {
  static const std::vector<std::string> columns = {"holds", "error of the paper", "ambiguous", "refuted (other)",
                                                   "vacuous", "inconclusive", "error", "not checked"};
  return columns;
}

// Which index column a claim status falls in.
std::string status_column(const std::string& status) {
  if (status == "holds" || status == "reproduced") return "holds";
  if (status == "error of the paper" || status == "ambiguous" || status == "vacuous" || status == "inconclusive" ||
      status == "error" || status == "not checked")
    return status;
  return "refuted (other)";  // undecided, not reproduced, beyond the paper
}

// ---------------------------------------------------------------------------------------------
// The files of the site, gathered in memory first: nothing is written before every page and
// drawing has been made (a failure then leaves no folder at all).

struct Files {
  std::map<std::string, std::string> content;  // relative path -> bytes
  void add(const std::string& path, std::string bytes) { content[path] = std::move(bytes); }
  bool has(const std::string& path) const { return content.count(path) > 0; }
};

// A file name made of safe characters only (claim ids and reading names have dots and dashes).
std::string safe(std::string_view text) {
  std::string out;
  for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  return out;
}

// ---------------------------------------------------------------------------------------------
// Counterexamples: every counterexample case of the claim in the corpus, and a refutation of the
// run that names no stored case (drawn from the report's counterexample).

struct Drawn {
  std::string reading;
  std::string title;       // "MC(1,1), s = 000, t = 010"
  std::string violation;
  std::string svg_path;    // relative to the site
  std::string json_path;   // relative to the site ("" if not stored)
  std::string replay;      // the command that replays it
  std::string kind, caption;
};

std::string inputs_in_words(const corpus::Case& c) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : c.params.items())
    parts.push_back(fmt::format("{} = {}", key, value.is_string() ? value.get<std::string>() : value.dump()));
  for (const auto& [key, value] : c.input.items()) {
    std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    parts.push_back(fmt::format("{} = {}", key, text));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

Result<Drawn> draw(const corpus::Case& c, const std::string& relative_json, Files& files) {
  auto drawing = report::draw_case(c);
  if (!drawing) return drawing.error();
  Drawn d;
  d.reading = c.reading;
  d.title = inputs_in_words(c);
  d.violation = c.violation;
  d.kind = drawing->kind;
  d.caption = drawing->caption;
  const std::string stem = relative_json.empty()
                               ? fmt::format("{}-report", safe(c.reading))
                               : safe(fs::path(relative_json).stem().string());
  d.svg_path = fmt::format("drawings/{}/{}.svg", safe(c.claim), stem);
  files.add(d.svg_path, drawing->svg);
  if (!relative_json.empty()) {
    d.json_path = "corpus/" + relative_json;
    files.add(d.json_path, corpus::to_json(c).dump(1) + "\n");
    d.replay = "./topocheck replay corpus/" + relative_json;
  } else {
    d.replay = fmt::format("./topocheck verify '{}' --reading '{}'", c.claim, c.reading);
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Pages.

std::string nav_for(const std::string& current_slug) {
  std::string items;
  for (const Paper& p : papers())
    items += p.slug == current_slug
                 ? fmt::format("<li><strong>{}</strong></li>", escape(p.slug))
                 : fmt::format("<li><a href=\"paper-{0}.html\">{0}</a></li>", escape(p.slug));
  return "<ul>" + items + "</ul>";
}

std::string run_paragraph(const SiteInput& in) {
  size_t matching = 0;
  for (const ReadingVerdict& v : in.verdicts) matching += v.matches ? 1 : 0;
  const size_t differing = in.verdicts.size() - matching;
  return fmt::format(
      "<p>Run: budget <strong>{}</strong>, seed {}, {}; {} claim readings, {} as the ledger expects{}. "
      "Verdicts from {}.</p>\n",
      escape(claims::to_string(in.budget)), in.seed, in.date.empty() ? "date not recorded" : "date " + escape(in.date),
      in.verdicts.size(), matching,
      differing == 0 ? "" : fmt::format(", <strong>{} differ</strong> ({})", differing, badge("differs")),
      escape(in.report));
}

struct PaperData {
  const Paper* paper;
  std::vector<const claims::Claim*> claims;  // registry order
  std::vector<claims::Statement> statements;
  std::map<std::string, std::string> status;  // claim -> status
};

std::string index_page(const SiteInput& in, const std::vector<PaperData>& data) {
  std::string rows, summaries;
  std::map<std::string, size_t> total;
  for (const PaperData& d : data) {
    std::map<std::string, size_t> count;
    for (const auto& [claim, status] : d.status) ++count[status_column(status)];
    // The same counts as a sentence (what a narrow screen reads without scrolling the table).
    std::vector<std::string> parts;
    for (const std::string& col : status_columns())
      if (count[col]) parts.push_back(fmt::format("{} {}", count[col], badge(col)));
    summaries += fmt::format("<li><a href=\"paper-{}.html\">{}</a>: {} claims: {}.</li>\n", escape(d.paper->slug),
                             escape(d.paper->subject), d.claims.size(), fmt::join(parts, ", "));
    std::string cells;
    for (const std::string& col : status_columns()) {
      cells += fmt::format("<td class=\"number\">{}</td>", count[col]);
      total[col] += count[col];
    }
    rows += fmt::format(
        "<tr><th scope=\"row\" class=\"paper\"><a href=\"paper-{}.html\">{}</a><br><span class=\"quiet\">{}</span></th>"
        "<td class=\"number\">{}</td>{}</tr>\n",
        escape(d.paper->slug), escape(d.paper->subject), escape(d.paper->citation), d.claims.size(), cells);
  }
  std::string head;
  for (const std::string& col : status_columns()) head += fmt::format("<th scope=\"col\">{}</th>", badge(col));
  std::string body = "<h1>What topocheck found in five interconnection-network papers</h1>\n";
  body += run_paragraph(in);
  body += "<p>Each claim of a paper is checked under every reading its text allows. A claim is an "
          "<em>error of the paper</em> when every faithful reading is refuted, <em>ambiguous</em> when some "
          "faithful reading holds and another is refuted; <em>vacuous</em> when its premise never applied; "
          "<em>inconclusive</em> when a solver or budget gave no answer.</p>\n";
  body += "<ul class=\"papers\">\n" + summaries + "</ul>\n";
  body += "<div class=\"scroll\"><table>\n<caption>Claims per paper, by status</caption>\n<thead><tr><th scope=\"col\">paper</th>"
          "<th scope=\"col\">claims</th>" + head + "</tr></thead>\n<tbody>\n" + rows + "</tbody>\n</table></div>\n";
  return page("topocheck findings", "", nav_for(""), body);
}

std::string method_rows(const ReadingVerdict& v) {
  std::string rows;
  for (const claims::MethodResult& m : v.methods)
    rows += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td><td>{}</td></tr>\n",
        escape(claims::to_string(m.method)), badge(claims::verdict_word(m.outcome, v.empirical)), m.cases,
        m.applicable_count(), escape(m.scope) + (m.detail.empty() ? "" : "<br><span class=\"quiet\">" + escape(m.detail) + "</span>"));
  return rows;
}

std::string figure(const Drawn& d) {
  std::string links = d.json_path.empty()
                          ? "<span class=\"quiet\">not stored in the corpus</span>"
                          : fmt::format("<a href=\"{}\">corpus case (JSON)</a>", escape(d.json_path));
  return fmt::format(
      "<figure>\n<a href=\"{0}\"><img src=\"{0}\" alt=\"{1}: {2}\"></a>\n<figcaption><strong>{3}</strong> (reading "
      "<code>{4}</code>): {2}.<br>Violation: {5}<br>{6}; replay: <code>{7}</code>; the drawing at full size: "
      "<a href=\"{0}\">SVG</a></figcaption>\n</figure>\n",
      escape(d.svg_path), escape(d.kind), escape(d.caption), escape(d.title), escape(d.reading), escape(d.violation), links,
      escape(d.replay));
}

// The statement graph as DOT: one box per statement, its status word in the label (the colour
// repeats it), an edge A -> B when B's proof uses A.
std::string statement_dot(const PaperData& d) {
  std::string out = "digraph statements {\n  rankdir=LR;\n  node [shape=box, style=filled, fontname=\"sans-serif\"];\n";
  for (const claims::Statement& s : d.statements) {
    std::string status = "not checked";
    std::set<std::string> seen;
    for (const std::string& c : s.claims) {
      auto it = d.status.find(c);
      if (it != d.status.end()) seen.insert(status_column(it->second));
    }
    // The statement's worst status: a refutation outranks the rest.
    for (const char* w : {"error of the paper", "refuted (other)", "ambiguous", "error", "inconclusive", "vacuous", "holds"})
      if (seen.count(w)) { status = w; break; }
    const char* fill = status == "holds" ? "#d8f0d8"
                       : status == "error of the paper" || status == "refuted (other)" ? "#f7d4d4"
                       : status == "ambiguous" ? "#fbe9c0"
                       : status == "error" ? "#dcd8f0"
                                           : "#e4e4e4";
    out += fmt::format("  \"{}\" [label=\"{}\\n{}\", fillcolor=\"{}\", tooltip=\"{}\"];\n", report::dot_escape(s.id),
                       report::dot_escape(s.label), status, fill, report::dot_escape(s.summary));
  }
  for (const claims::Statement& s : d.statements)
    for (const std::string& u : s.uses) out += fmt::format("  \"{}\" -> \"{}\";\n", report::dot_escape(u), report::dot_escape(s.id));
  return out + "}\n";
}

Result<std::string> paper_page(const SiteInput& in, const PaperData& d, Files& files,
                               const std::vector<corpus::Case>& cases) {
  const Paper& p = *d.paper;
  std::string body = fmt::format("<h1>{}</h1>\n<p>{}.</p>\n", escape(p.subject), escape(p.citation));
  body += run_paragraph(in);

  // The statement graph.
  body += "<section>\n<h2 id=\"graph\">Statements and what their proofs use</h2>\n";
  if (!d.statements.empty()) {
    auto svg = report::render_svg(statement_dot(d), report::Layout::kDot);
    if (!svg) return svg.error();
    const std::string path = fmt::format("graphs/{}.svg", p.slug);
    files.add(path, *svg);
    body += fmt::format("<figure>\n<img src=\"{}\" alt=\"The statements of the paper as a graph; the list below "
                        "says the same in words.\">\n<figcaption>An arrow from A to B: the text says B's proof "
                        "uses A. Each box names its status.</figcaption>\n</figure>\n<ul>\n",
                        path);
    std::map<std::string, std::string> label_of;
    for (const claims::Statement& s : d.statements) label_of[s.id] = s.label;
    for (const claims::Statement& s : d.statements) {
      std::string uses;
      for (size_t i = 0; i < s.uses.size(); ++i) {
        const auto it = label_of.find(s.uses[i]);
        uses += (i ? ", " : "") + escape(it == label_of.end() ? s.uses[i] : it->second) +
                (i < s.evidence.size() ? " (\u201c" + escape(s.evidence[i]) + "\u201d)" : "");
      }
      std::string checked;
      for (const std::string& c : s.claims)
        checked += fmt::format(" <a href=\"#{0}\">{0}</a>", escape(c));
      body += fmt::format("<li><strong>{}</strong> ({}): {}{}{}</li>\n", escape(s.label), escape(s.location),
                          escape(s.summary), uses.empty() ? "" : "; uses " + uses,
                          checked.empty() ? "; not checked" : "; checked by" + checked);
    }
    body += "</ul>\n";
  }
  body += "</section>\n";

  // Claims, statement by statement (claims no statement names at the end, in registry order).
  std::vector<const claims::Claim*> order;
  std::set<std::string> placed;
  for (const claims::Statement& s : d.statements)
    for (const std::string& id : s.claims)
      for (const claims::Claim* c : d.claims)
        if (c->id == id && placed.insert(id).second) order.push_back(c);
  for (const claims::Claim* c : d.claims)
    if (placed.insert(c->id).second) order.push_back(c);

  body += "<section>\n<h2 id=\"claims\">Claims</h2>\n";
  for (const claims::Claim* c : order) {
    const std::string& status = d.status.at(c->id);
    body += fmt::format("<article class=\"claim\" id=\"{0}\">\n<h3>{0} {1}</h3>\n<p><em>{2}</em>. {3}</p>\n",
                        escape(c->id), badge(status), escape(c->location), escape(c->statement));
    const auto vs = verdicts_of(c->id, in.verdicts);
    for (const claims::Reading& r : c->readings) {
      const ReadingVerdict* v = nullptr;
      for (const ReadingVerdict* x : vs)
        if (x->reading == r.name) v = x;
      body += fmt::format("<h4>Reading <code>{}</code>{}: {}</h4>\n<p>{}</p>\n", escape(r.name),
                          r.faithful ? "" : " (not a reading of the text)", v ? badge(verdict_word(*v)) : badge("not checked"),
                          escape(r.description));
      if (const claims::Expectation* e = in.ledger->find(c->id, r.name))
        body += fmt::format("<p>Ledger: expected {}{}. {}</p>\n", badge(claims::verdict_word(e->at(in.budget), c->empirical)),
                            v && !v->matches ? " " + badge("differs") + " " + escape(v->mismatch) : "", escape(e->reason));
      if (v) {
        body += fmt::format("<p>{} inputs, on {} of which the claim's premise applied{}.</p>\n", v->cases, v->applicable,
                            v->beyond_premise.empty() ? "" : "; " + escape(v->beyond_premise));
        body += "<div class=\"scroll\"><table>\n<caption>Methods</caption>\n<thead><tr><th scope=\"col\">method</th>"
                "<th scope=\"col\">verdict</th><th scope=\"col\">inputs</th><th scope=\"col\">applicable</th>"
                "<th scope=\"col\">scope</th></tr></thead>\n<tbody>\n" +
                method_rows(*v) + "</tbody>\n</table></div>\n";
      }
      // Every counterexample of this reading: stored ones, then the run's if it named none.
      bool drew_run_case = false;
      for (const corpus::Case& k : cases) {
        if (k.claim != c->id || k.reading != r.name || k.kind != corpus::CaseKind::kCounterexample) continue;
        const std::string rel = fs::relative(k.file, in.corpus_dir).generic_string();
        auto drawn = draw(k, rel, files);
        if (!drawn) return drawn.error();
        body += figure(*drawn);
        drew_run_case = drew_run_case || (v && v->corpus_case == rel);
      }
      if (v && v->counterexample && !drew_run_case && v->corpus_case.empty()) {
        corpus::Case k;
        k.claim = c->id;
        k.reading = r.name;
        k.params = v->counterexample->params;
        k.input = v->counterexample->input;
        k.violation = v->counterexample->violation;
        k.witness = v->counterexample->witness;
        auto drawn = draw(k, "", files);
        if (!drawn) return drawn.error();
        body += figure(*drawn);
      }
    }
    body += "</article>\n";
  }
  body += "</section>\n";

  // The printed examples of this paper's families.
  std::string examples;
  for (const corpus::Case& k : cases) {
    if (k.kind != corpus::CaseKind::kExample) continue;
    if (std::none_of(d.claims.begin(), d.claims.end(), [&](const claims::Claim* c) { return c->id == k.claim; })) continue;
    const std::string rel = fs::relative(k.file, in.corpus_dir).generic_string();
    files.add("corpus/" + rel, corpus::to_json(k).dump(1) + "\n");
    examples += fmt::format("<h3>{} (<a href=\"#{}\">{}</a>)</h3>\n", escape(k.source), escape(k.claim), escape(k.claim));
    if (k.errata.empty()) {
      examples += fmt::format("<p>Reproduced cell by cell, no errata. <a href=\"corpus/{}\">The printed values (JSON)</a>.</p>\n",
                              escape(rel));
      continue;
    }
    examples += "<div class=\"scroll\"><table>\n<caption>Errata: printed vs computed</caption>\n<thead><tr>"
                "<th scope=\"col\">cell</th><th scope=\"col\">printed</th><th scope=\"col\">computed</th>"
                "<th scope=\"col\">kind</th><th scope=\"col\">note</th></tr></thead>\n<tbody>\n";
    for (const corpus::Erratum& e : k.errata)
      examples += fmt::format("<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                              escape(e.cell), escape(e.printed.is_string() ? e.printed.get<std::string>() : e.printed.dump()),
                              escape(e.computed.is_string() ? e.computed.get<std::string>() : e.computed.dump()), escape(e.kind),
                              escape(e.note));
    examples += fmt::format("</tbody>\n</table></div>\n<p><a href=\"corpus/{}\">The printed values (JSON)</a>.</p>\n", escape(rel));
  }
  if (!examples.empty()) body += "<section>\n<h2 id=\"examples\">Printed examples</h2>\n" + examples + "</section>\n";
  return page(p.subject, "", nav_for(p.slug), body);
}

// ---------------------------------------------------------------------------------------------
// Writing.

const char* const kMarker = ".topocheck-site";

// Writes `files` into `dir`: into a fresh sibling folder first, renamed over `dir` once every file
// is written (the old site, if any, is moved aside and removed after).
Result<size_t> write_files(const Files& files, const fs::path& dir) {
  std::error_code ec;
  const fs::path target = fs::absolute(dir, ec);
  if (ec) return invalid_argument(fmt::format("--html {}: {}", dir.string(), ec.message()));
  if (fs::exists(fs::symlink_status(target, ec))) {
    if (!fs::is_directory(fs::symlink_status(target, ec)))
      return invalid_argument(fmt::format("--html {}: exists and is not a folder", dir.string()));
    if (!fs::exists(target / kMarker) && !fs::is_empty(target, ec))
      return invalid_argument(fmt::format("--html {}: exists, is not empty and is not a topocheck site (no {}): not replaced",
                                          dir.string(), kMarker));
  }
  const fs::path parent = target.parent_path();
  if (!fs::is_directory(parent, ec))
    return invalid_argument(fmt::format("--html {}: the folder {} does not exist", dir.string(), parent.string()));
  const fs::path fresh = parent / fmt::format(".{}.tmp.{}", target.filename().string(), ::getpid());
  fs::remove_all(fresh, ec);
  if (!fs::create_directory(fresh, ec))
    return Error{ErrorCode::kInvalidArgument, fmt::format("cannot create {}: {}", fresh.string(), ec.message()), {}, 0};
  auto fail = [&](Error e) {
    std::error_code ignored;
    fs::remove_all(fresh, ignored);
    return e;
  };
  for (const auto& [path, bytes] : files.content)
    if (auto w = write_file(fresh / path, bytes, WriteOptions{true}); !w) return fail(w.error());
  const fs::path old = parent / fmt::format(".{}.old.{}", target.filename().string(), ::getpid());
  const bool had_old = fs::exists(target, ec);
  if (had_old) {
    fs::rename(target, old, ec);
    if (ec) return fail(Error{ErrorCode::kInvalidArgument, fmt::format("cannot move the old site {} aside: {}", target.string(), ec.message()), {}, 0});
  }
  fs::rename(fresh, target, ec);
  if (ec) {
    std::error_code ignored;
    if (had_old) fs::rename(old, target, ignored);
    return fail(Error{ErrorCode::kInvalidArgument, fmt::format("cannot rename {} to {}: {}", fresh.string(), target.string(), ec.message()), {}, 0});
  }
  if (had_old) fs::remove_all(old, ec);
  return files.content.size();
}

}  // namespace

Result<size_t> write_site(const SiteInput& in, const fs::path& dir) {
  TC_CHECK(in.registry && in.ledger, "write_site: registry and ledger are required");
  // Every case, parsed, placed and judged (empirical studies are not re-run: verify did).
  auto cases = corpus::load_corpus(in.corpus_dir, *in.registry, [](const corpus::Case&) { return false; });
  if (!cases) return cases.error();
  std::vector<PaperData> data;
  for (const Paper& p : papers()) {
    const std::vector<claims::Statement>* statements = claims::statements_of_paper(p.file);
    PaperData d{&p, {}, statements ? *statements : std::vector<claims::Statement>{}, {}};
    for (const claims::Claim& c : in.registry->claims())
      if (c.paper == p.file) {
        d.claims.push_back(&c);
        d.status[c.id] = claim_status(c, in.verdicts);
      }
    data.push_back(std::move(d));
  }
  for (const claims::Claim& c : in.registry->claims())
    if (std::none_of(papers().begin(), papers().end(), [&](const Paper& p) { return p.file == c.paper; }))
      return Error{ErrorCode::kInternal, fmt::format("claim {} names paper {}, which the site does not know", c.id, c.paper), {}, 0};
  Files files;
  files.add(kMarker, "A site written by `topocheck report --html`; the next report replaces this folder.\n");
  files.add("style.css", style_sheet());
  files.add("index.html", index_page(in, data));
  for (const PaperData& d : data) {
    auto html = paper_page(in, d, files, *cases);
    if (!html) return html.error();
    files.add(fmt::format("paper-{}.html", d.paper->slug), *html);
  }
  return write_files(files, dir);
}

std::string claim_status(const claims::Claim& claim, const std::vector<ReadingVerdict>& verdicts) {
  const auto vs = verdicts_of(claim.id, verdicts);
  if (vs.empty()) return "not checked";
  std::vector<ReadingVerdict> mine;
  for (const ReadingVerdict* v : vs) mine.push_back(*v);
  for (const claims::ClaimSummary& s : claims::summarize_claims(mine))
    if (s.claim == claim.id) return s.kind;
  bool error = false, inconclusive = false, vacuous = false;
  for (const ReadingVerdict* v : vs) {
    if (!v->faithful) continue;
    error = error || v->outcome == Outcome::kError;
    inconclusive = inconclusive || v->outcome == Outcome::kInconclusive;
    vacuous = vacuous || v->outcome == Outcome::kVacuous;
  }
  if (error) return "error";
  if (inconclusive) return "inconclusive";
  if (vacuous) return "vacuous";
  return claim.empirical ? "reproduced" : "holds";
}

}  // namespace topocheck::site
