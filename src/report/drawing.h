// A corpus case drawn as SVG, for the findings site: the drawing, a short name of its kind and a
// caption in words that names everything the drawing highlights.
//
// Which drawing, by the claim's family (and what the witness holds):
//   hypercube.*, metacube.*   paths (Graphviz dot, dot.h's paths_dot): the witness's paths, or an
//                             example's printed paths; shared nodes red and labelled. Cases
//                             without paths (bounds, node numbers) are drawn as a table.
//   itm.*                     the ITM on a circle in its circular order (neato -n, itm_dot): the
//                             messages' paths, the edges two of them share red and labelled.
//   wormhole.*                a deadlock's waiting cycle (dot, wormhole_dot); throughput series
//                             as a bar chart; an ITM witness (up*/down* root) as itm.* draws it.
//   migration.*               the instance (dot, migration_dot): S, T, the blocks and the paths
//                             (the witness's plan, an example's printed paths, the input's, or
//                             the paths the violation names), collisions red and labelled.
//   aapc.*                    schedules as a units x links grid (every move of the witness's
//                             schedule, judged by aapc's checker first) with the broken step
//                             marked, or as a units x steps chart when the witness holds only
//                             per-step counts;
//                             fault sets as Q_n partitioned into partner sets with the faulty
//                             nodes and the sets in question marked; counts as a bar chart.
//   routing.*                 the study's figures as bar charts of the per-study values with the
//                             mean, the 95% interval and the paper's region; a buffer deadlock
//                             as a table of its messages with the wait cycle marked.
//   anything else             a table of the case's params, input and witness (or expected).
//
// A drawing is never silently wrong: the witness is validated against the case's params first
// (node strings of the topology's width and nodes of it, hops that are links where the claim's
// objects must be walks, indices and node numbers in range, totals that add up), and a malformed
// witness is an Error (code kParse) whose message starts with the JSON pointer of the bad value
// ("/witness/paths/0/2: ...") and whose file is the case's file. Graphviz's failures are Errors
// naming the program (graphviz.h). Every SVG has <title> and <desc>.
// Cost: one Graphviz run for the graph kinds (tens of milliseconds), else linear in the case.
#pragma once

#include <string>

#include "core/status.h"
#include "corpus/corpus.h"

namespace topocheck::report {

struct Drawing {
  std::string svg;
  std::string kind;     // "metacube paths", "itm graph", "aapc schedule", ...
  std::string caption;  // what is drawn and what is highlighted, in words
};

Result<Drawing> draw_case(const corpus::Case& c);

}  // namespace topocheck::report
