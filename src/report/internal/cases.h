// The drawings of each kind of case, before Graphviz runs (tc_report only; drawing.h's draw_case
// dispatches to them by the claim's family). Each validates the witness as it reads it (throwing
// json_checks.h's Malformed) and returns either DOT text to lay out or a finished SVG.
#pragma once

#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "report/graphviz.h"

namespace topocheck::report::internal {

struct Prepared {
  std::string kind;     // Drawing::kind
  std::string caption;  // Drawing::caption
  std::string dot;      // non-empty: a graph for Graphviz under `layout`
  Layout layout = Layout::kDot;
  std::string svg;      // else: the finished drawing
};

// The document a case's drawing reads: the witness of a counterexample, the printed output of an
// example; and its pointer ("/witness" or "/expected").
const nlohmann::json& data_of(const corpus::Case& c);
std::string data_pointer(const corpus::Case& c);
// The case's violation (counterexample) or source (example): the line under its title.
const std::string& statement_of(const corpus::Case& c);

// The SVG's <title> ("claim [reading]: kind") and <desc> (the caption, then the statement).
std::string title_of(const corpus::Case& c, const std::string& kind);
std::string desc_of(const corpus::Case& c, const std::string& caption);

// graph_cases.cc: the Graphviz drawings.
Prepared prepare_paths(const corpus::Case& c);      // hypercube.*, metacube.*
Prepared prepare_itm(const corpus::Case& c);        // itm.*, and ITM witnesses of wormhole.*
Prepared prepare_wormhole(const corpus::Case& c);   // wormhole.*
Prepared prepare_migration(const corpus::Case& c);  // migration.*

// chart_cases.cc: the direct SVG drawings.
Prepared prepare_aapc(const corpus::Case& c);     // aapc.*
Prepared prepare_routing(const corpus::Case& c);  // routing.*
Prepared prepare_throughput(const corpus::Case& c);  // wormhole.* with throughput instances
// Any case as a table of its params, input and data (every leaf with its JSON pointer); `why`
// says in the caption why no other drawing fits.
Prepared prepare_table(const corpus::Case& c, const std::string& kind, const std::string& why);

}  // namespace topocheck::report::internal
