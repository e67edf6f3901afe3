// draw_case (drawing.h): dispatch by family, the one catch of a malformed witness, and Graphviz
// for the graph kinds.
#include "report/drawing.h"

#include <fmt/format.h>

#include "report/graphviz.h"
#include "report/internal/cases.h"
#include "report/internal/json_checks.h"
#include "report/svg.h"

namespace topocheck::report {

namespace internal {

const nlohmann::json& data_of(const corpus::Case& c) {
  return c.kind == corpus::CaseKind::kExample ? c.expected : c.witness;
}

std::string data_pointer(const corpus::Case& c) { return c.kind == corpus::CaseKind::kExample ? "/expected" : "/witness"; }

const std::string& statement_of(const corpus::Case& c) {
  return c.kind == corpus::CaseKind::kExample ? c.source : c.violation;
}

std::string title_of(const corpus::Case& c, const std::string& kind) {
  return fmt::format("{} [{}]: {}", c.claim, c.reading, kind);
}

std::string desc_of(const corpus::Case& c, const std::string& caption) {
  return fmt::format("{} {}: {}", caption, c.kind == corpus::CaseKind::kExample ? "As printed in" : "Violation",
                     statement_of(c));
}

}  // namespace internal

namespace {

internal::Prepared prepare(const corpus::Case& c) {
  const std::string family = c.claim.substr(0, c.claim.find('.'));
  if (family == "hypercube" || family == "metacube") return internal::prepare_paths(c);
  if (family == "itm") return internal::prepare_itm(c);
  if (family == "wormhole") return internal::prepare_wormhole(c);
  if (family == "migration") return internal::prepare_migration(c);
  if (family == "aapc") return internal::prepare_aapc(c);
  if (family == "routing") return internal::prepare_routing(c);
  return internal::prepare_table(c, "table", fmt::format("No drawing is made for the family '{}'.", family));
}

}  // namespace

Result<Drawing> draw_case(const corpus::Case& c) {
  internal::Prepared p;
  try {
    p = prepare(c);
  } catch (const internal::Malformed& bad) {
    return Error{ErrorCode::kParse, fmt::format("{}: {}", bad.pointer, bad.what), c.file.string(), 0};
  }
  if (p.dot.empty()) return Drawing{std::move(p.svg), p.kind, p.caption};
  auto svg = render_svg(p.dot, p.layout);
  if (!svg) {
    Error e = svg.error();
    e.file = c.file.string();
    return e;
  }
  auto titled = add_title_and_desc(*svg, internal::title_of(c, p.kind), internal::desc_of(c, p.caption));
  if (!titled) return titled.error();
  return Drawing{*titled, p.kind, p.caption};
}

}  // namespace topocheck::report
