// Direct SVG drawings (no Graphviz) for the cases that are charts, schedules or tables rather than
// graphs, and the accessibility header every drawing gets.
//
// Every document starts with <svg role="img" aria-labelledby=...>, then <title> and <desc>; every
// highlighted element also carries words next to it ("broken step", "faulty", "in wait cycle"),
// never only a colour. The emitters take values drawing.cc has validated; they check nothing but
// their own preconditions (TC_CHECK). Sizes follow the content (fixed-width text estimates, 7.6 px
// per character of 12 px monospace). Cost: linear in the content.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/xml.h"

namespace topocheck::report {

// `svg` (Graphviz's output) with <title>`title`</title><desc>`desc`</desc> inserted as the first
// children of its <svg> element, and role="img". An error when `svg` has no <svg ...> tag.
Result<std::string> add_title_and_desc(const std::string& svg, const std::string& title, const std::string& desc);

// What every direct drawing has: its title, its description, and heading lines drawn at the top.
struct Caption {
  std::string title;
  std::string desc;
  std::vector<std::string> heading;
};

// A schedule known only by its per-step counts, as a units x steps chart (a Gantt chart; cases
// whose witness holds the moves are drawn by link_grid_svg below): one row per step, its units as a bar
// starting where the previous step ended, the schedule's total and the paper's count as vertical
// lines. A broken step is filled red and labelled "broken step". Preconditions: units >= 0.
struct ScheduleFigure {
  Caption caption;
  struct Step {
    std::string name;
    int64_t units = 0;
    bool broken = false;
  };
  std::vector<Step> steps;
  int64_t paper_units = 0;
  std::string paper_label;  // "paper: 5*2^(n-1) - 2 = 8 units"
};
std::string schedule_svg(const ScheduleFigure& f);

// A schedule as a units x links grid: one row per directed link, one column per time unit, a
// filled cell where the link carries a datum in that unit (the cell's <title> names the datum and
// the move). The steps are bands over their columns, numbered above the grid and listed with their
// units in a legend; a broken step's band is shaded and its columns' cells are red, with "broken
// step" written above it and in the legend. The schedule's end and the paper's count are vertical
// lines (solid black, dashed red) named in the legend. Preconditions: units >= 0; every cell's unit
// is in [0, units) and its link a row; 0 <= begin <= end <= units for every step.
struct LinkGridFigure {
  Caption caption;
  std::vector<std::string> links;  // row labels, "0->1"
  int64_t units = 0;
  struct Cell {
    int64_t unit = 0;  // 0-based column
    size_t link = 0;
    std::string words;  // "unit 3: datum 0_4 on 0->4"
  };
  std::vector<Cell> cells;
  struct Step {
    std::string name;
    int64_t begin = 0, end = 0;  // columns [begin, end)
    bool broken = false;
  };
  std::vector<Step> steps;
  int64_t paper_units = 0;
  std::string paper_label;         // "paper: 5*2^(n-1) - 2 = 8 units"
  std::vector<std::string> notes;  // lines under the legend
};
std::string link_grid_svg(const LinkGridFigure& f);

// Q_n's nodes grouped into boxes (a partition, e.g. the partner sets of D), each node a circle
// labelled with its number and bit string; faulty nodes filled red and labelled "faulty"; marked
// boxes drawn thick red with their words. Preconditions: 1 <= n <= 8; `groups` partition
// 0 .. 2^n - 1; every mark's index is a group.
struct CubeFigure {
  Caption caption;
  int n = 0;
  std::vector<std::vector<uint64_t>> groups;  // each ascending; drawn in this order
  std::string group_label;                    // a box's name before its nodes: "PS" gives "PS {0,1,2,3}"
  std::vector<uint64_t> faulty;
  struct Mark {
    size_t group = 0;
    std::string words;  // "faulty PS", "perfect neighbour along d = 1"
  };
  std::vector<Mark> marks;
  std::vector<std::string> notes;  // lines under the drawing
};
std::string cube_svg(const CubeFigure& f);

// Horizontal bar charts, one panel each: a bar per value (from zero), its value written at its
// end, reference lines (a mean, the paper's count) and an optional shaded band (a claimed region,
// open ends allowed). Marked bars are red and carry their words. Preconditions: finite values.
struct BarPanel {
  std::string title;
  std::string axis_label;  // "saturation throughput", "units"
  struct Bar {
    std::string label;
    double value = 0;
    std::string series;  // one colour per series, named in the legend
    std::string words;   // non-empty: the bar is marked (red) and these words follow its value
  };
  std::vector<Bar> bars;
  struct Line {
    double value = 0;
    std::string words;
  };
  std::vector<Line> lines;
  struct Band {
    std::optional<double> low, high;  // nullopt: open on that side
    std::string words;
  };
  std::optional<Band> band;
  std::vector<std::string> notes;
};
std::string bar_chart_svg(const Caption& caption, const std::vector<BarPanel>& panels);

// A table: a header row, then rows of cells; a marked row is shaded and its mark is written in
// a last column ("in the wait cycle").
struct TableFigure {
  Caption caption;
  std::vector<std::string> columns;
  struct Row {
    std::vector<std::string> cells;
    std::string mark;
  };
  std::vector<Row> rows;
};
std::string table_svg(const TableFigure& f);

}  // namespace topocheck::report
