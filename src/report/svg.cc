// The direct SVG drawings of svg.h: a small writer (elements appended to a body, the header
// written last when the size is known) and four layouts.
#include "report/svg.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::report {
namespace {

// Text metrics: 12 px monospace text is about 7.2 px per character (DejaVu Sans Mono); 7.6 leaves
// room for fonts a little wider.
constexpr double kCharWidth = 7.6;
constexpr double kLineHeight = 16.0;
constexpr double kMargin = 16.0;
constexpr size_t kWrapColumns = 100;

const char* const kSeriesColors[] = {"#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
constexpr const char* kHighlight = "#d62728";  // red: the marked elements (always with words)

double text_width(const std::string& s) { return kCharWidth * static_cast<double>(s.size()); }

// `line` cut into pieces of at most kWrapColumns characters, at spaces where possible.
std::vector<std::string> wrap(const std::string& line) {
  std::vector<std::string> out;
  std::string rest = line;
  while (rest.size() > kWrapColumns) {
    size_t cut = rest.rfind(' ', kWrapColumns);
    if (cut == std::string::npos || cut < kWrapColumns / 2) cut = kWrapColumns;
    out.push_back(rest.substr(0, cut));
    rest = rest.substr(cut < rest.size() && rest[cut] == ' ' ? cut + 1 : cut);
  }
  out.push_back(rest);
  return out;
}

std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e12) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

class Writer {
 public:
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string& stroke = "none",
            double stroke_width = 1, double rx = 0) {
    body_ += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" rx="{:.1f}" fill="{}" stroke="{}" stroke-width="{:.1f}"/>)",
                         x, y, std::max(w, 0.0), std::max(h, 0.0), rx, fill, stroke, stroke_width);
    body_ += '\n';
  }
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1, bool dashed = false) {
    body_ += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{:.1f}"{}/>)",
                         x1, y1, x2, y2, stroke, width, dashed ? R"( stroke-dasharray="5,3")" : "");
    body_ += '\n';
  }
  void circle(double cx, double cy, double r, const std::string& fill, const std::string& stroke, double stroke_width = 1) {
    body_ += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}" stroke="{}" stroke-width="{:.1f}"/>)", cx,
                         cy, r, fill, stroke, stroke_width);
    body_ += '\n';
  }
  void text(double x, double y, const std::string& s, const std::string& anchor = "start", const std::string& fill = "black",
            bool bold = false, double size = 12) {
    body_ += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-family="monospace" font-size="{:.0f}" text-anchor="{}" fill="{}"{}>{}</text>)",
                         x, y, size, anchor, fill, bold ? R"( font-weight="bold")" : "", xml_escape(s));
    body_ += '\n';
  }
  // A group named for assistive technology: its <title> is read out with its content.
  void begin_group(const std::string& name) { body_ += fmt::format("<g><title>{}</title>\n", xml_escape(name)); }
  void end_group() { body_ += "</g>\n"; }
  // The heading lines (wrapped) from y; returns the y below them.
  double heading(const std::vector<std::string>& lines, double y, double& width) {
    bool first = true;
    for (const auto& line : lines)
      for (const auto& piece : wrap(line)) {
        y += kLineHeight;
        text(kMargin, y, piece, "start", "black", first);
        width = std::max(width, 2 * kMargin + text_width(piece));
        first = false;
      }
    return y + kLineHeight / 2;
  }
  std::string finish(const Caption& c, double width, double height) const {
    std::string out = fmt::format(
        R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" role="img" aria-labelledby="topocheck-title topocheck-desc">)",
        std::ceil(width), std::ceil(height));
    out += fmt::format("\n<title id=\"topocheck-title\">{}</title>\n<desc id=\"topocheck-desc\">{}</desc>\n",
                       xml_escape(c.title), xml_escape(c.desc));
    out += fmt::format(R"(<rect x="0" y="0" width="{:.0f}" height="{:.0f}" fill="white"/>)", std::ceil(width), std::ceil(height));
    out += "\n" + body_ + "</svg>\n";
    return out;
  }

 private:
  std::string body_;
};

}  // namespace

Result<std::string> add_title_and_desc(const std::string& svg, const std::string& title, const std::string& desc) {
  const size_t open = svg.find("<svg");
  const size_t close = open == std::string::npos ? open : svg.find('>', open);
  if (close == std::string::npos)
    return Error{ErrorCode::kInternal, "Graphviz's output has no <svg> element", {}, 0};
  const std::string ids = R"( role="img" aria-labelledby="topocheck-title topocheck-desc")";
  return svg.substr(0, close) + ids + ">\n" +
         fmt::format("<title id=\"topocheck-title\">{}</title>\n<desc id=\"topocheck-desc\">{}</desc>", xml_escape(title),
                     xml_escape(desc)) +
         svg.substr(close + 1);
}

std::string schedule_svg(const ScheduleFigure& f) {
  Writer w;
  double width = 600;
  double y = w.heading(f.caption.heading, 0, width);
  int64_t total = 0;
  size_t name_chars = 4;
  for (const auto& s : f.steps) {
    TC_CHECK(s.units >= 0, "a step's units are non-negative");
    total += s.units;
    name_chars = std::max(name_chars, s.name.size());
  }
  const int64_t span = std::max<int64_t>({total, f.paper_units, 1});
  const double left = kMargin + kCharWidth * static_cast<double>(name_chars) + 12;
  const double unit = std::clamp(560.0 / static_cast<double>(span), 4.0, 40.0);
  const double plot_right = left + unit * static_cast<double>(span);
  const double row = 22, top = y + 8;
  // The units grid: a tick and a faint line every `every` units.
  const int64_t every = span <= 40 ? 1 : span <= 200 ? 5 : 25;
  const double bottom = top + row * static_cast<double>(f.steps.size());
  for (int64_t u = 0; u <= span; u += every) {
    const double x = left + unit * static_cast<double>(u);
    w.line(x, top, x, bottom, "#dddddd");
    if (u % (every * (span <= 40 ? 5 : 4)) == 0) w.text(x, bottom + 14, std::to_string(u), "middle", "#555555");
  }
  w.text((left + plot_right) / 2, bottom + 30, "units (time steps of the schedule)", "middle");
  int64_t start = 0;
  double label_right = plot_right;
  for (size_t i = 0; i < f.steps.size(); ++i) {
    const auto& s = f.steps[i];
    const double ry = top + row * static_cast<double>(i);
    w.begin_group(fmt::format("{}: units {} to {}{}", s.name, start, start + s.units, s.broken ? " (broken step)" : ""));
    w.text(left - 8, ry + 15, s.name, "end");
    const double x = left + unit * static_cast<double>(start);
    w.rect(x, ry + 3, unit * static_cast<double>(s.units), row - 6, s.broken ? kHighlight : kSeriesColors[0], "black", 0.5);
    std::string words = fmt::format("{} unit{}", s.units, s.units == 1 ? "" : "s");
    if (s.broken) words += ": broken step";
    const double tx = x + unit * static_cast<double>(s.units) + 6;
    w.text(tx, ry + 15, words, "start", s.broken ? kHighlight : "black", s.broken);
    label_right = std::max(label_right, tx + text_width(words));
    w.end_group();
    start += s.units;
  }
  // The two totals as vertical lines over the grid, named in a legend under the axis.
  const double total_x = left + unit * static_cast<double>(total), paper_x = left + unit * static_cast<double>(f.paper_units);
  w.line(total_x, top - 4, total_x, bottom + 4, "black", 2);
  w.line(paper_x, top - 4, paper_x, bottom + 4, kHighlight, 2, true);
  const std::string total_words = fmt::format("schedule: {} units (solid black line)", total);
  const std::string paper_words = f.paper_label + " (dashed red line)";
  w.line(left, bottom + 46, left + 24, bottom + 46, "black", 2);
  w.text(left + 30, bottom + 50, total_words, "start", "black", true);
  w.line(left, bottom + 64, left + 24, bottom + 64, kHighlight, 2, true);
  w.text(left + 30, bottom + 68, paper_words, "start", kHighlight, true);
  const double right = std::max({label_right, left + 30 + text_width(total_words), left + 30 + text_width(paper_words)}) + kMargin;
  return w.finish(f.caption, std::max(width, right), bottom + 68 + kMargin);
}

std::string link_grid_svg(const LinkGridFigure& f) {
  TC_CHECK(f.units >= 0 && f.paper_units >= 0, "a schedule's units are non-negative");
  Writer w;
  double width = 640;
  double y = w.heading(f.caption.heading, 0, width);
  const int64_t span = std::max<int64_t>({f.units, f.paper_units, 1});
  size_t label_chars = 4;
  for (const auto& l : f.links) label_chars = std::max(label_chars, l.size());
  const double left = kMargin + kCharWidth * static_cast<double>(label_chars) + 10;
  const double cw = std::clamp(720.0 / static_cast<double>(span), 6.0, 16.0), rh = 12;
  const double band_top = y + 6, top = band_top + 34;  // two label lines above the grid: step numbers, "broken step"
  const double bottom = top + rh * static_cast<double>(f.links.size());
  auto col_x = [&](int64_t u) { return left + cw * static_cast<double>(u); };
  // The step bands (alternating shades; the broken one red-tinted), numbered above the grid.
  for (size_t i = 0; i < f.steps.size(); ++i) {
    const auto& s = f.steps[i];
    TC_CHECK(0 <= s.begin && s.begin <= s.end && s.end <= f.units, "a step lies within the schedule");
    const std::string fill = s.broken ? "#f6d0d0" : i % 2 ? "#f2f2f2" : "#ffffff";
    w.rect(col_x(s.begin), band_top, cw * static_cast<double>(s.end - s.begin), bottom - band_top, fill);
    const std::string number_text = std::to_string(i + 1);
    if (s.end > s.begin && cw * static_cast<double>(s.end - s.begin) >= text_width(number_text))
      w.text((col_x(s.begin) + col_x(s.end)) / 2, band_top + 12, number_text, "middle", s.broken ? kHighlight : "#555555", s.broken);
    if (s.broken) w.text(col_x(s.begin), band_top + 28, "broken step", "start", kHighlight, true);
  }
  // The rows: a label per directed link, a faint line between rows.
  for (size_t r = 0; r < f.links.size(); ++r) {
    const double ry = top + rh * static_cast<double>(r);
    w.text(left - 6, ry + rh - 2, f.links[r], "end", "black", false, 10);
    w.line(left, ry, col_x(span), ry, "#e4e4e4", 0.5);
  }
  w.line(left, bottom, col_x(span), bottom, "#e4e4e4", 0.5);
  // Column ticks under the grid.
  const int64_t every = span <= 40 ? 5 : span <= 200 ? 10 : 50;
  for (int64_t u = 0; u <= span; u += every) w.text(col_x(u), bottom + 14, std::to_string(u), "middle", "#555555");
  w.text((left + col_x(span)) / 2, bottom + 30, "time units (columns); directed links (rows)", "middle");
  // The moves.
  std::vector<bool> broken_unit(static_cast<size_t>(f.units), false);
  for (const auto& s : f.steps)
    if (s.broken)
      for (int64_t u = s.begin; u < s.end; ++u) broken_unit[static_cast<size_t>(u)] = true;
  for (const auto& c : f.cells) {
    TC_CHECK(c.unit >= 0 && c.unit < f.units && c.link < f.links.size(), "a move lies in the grid");
    w.begin_group(c.words);
    w.rect(col_x(c.unit) + 1, top + rh * static_cast<double>(c.link) + 1, cw - 2, rh - 2,
           broken_unit[static_cast<size_t>(c.unit)] ? kHighlight : kSeriesColors[0]);
    w.end_group();
  }
  // The schedule's end and the paper's count.
  w.line(col_x(f.units), band_top, col_x(f.units), bottom + 4, "black", 2);
  w.line(col_x(f.paper_units), band_top, col_x(f.paper_units), bottom + 4, kHighlight, 2, true);
  double ly = bottom + 50, right = col_x(span);
  auto legend = [&](const std::string& s, const std::string& colour, bool bold) {
    w.text(left, ly, s, "start", colour, bold);
    right = std::max(right, left + text_width(s));
    ly += kLineHeight;
  };
  legend(fmt::format("schedule: {} units (solid black line)", f.units), "black", true);
  legend(f.paper_label + " (dashed red line)", kHighlight, true);
  for (size_t i = 0; i < f.steps.size(); ++i) {
    const auto& s = f.steps[i];
    const int64_t n = s.end - s.begin;
    legend(fmt::format("{}: {}, {} unit{}{}{}", i + 1, s.name, n, n == 1 ? "" : "s",
                       n ? fmt::format(" ({} to {})", s.begin + 1, s.end) : std::string(), s.broken ? ": broken step" : ""),
           s.broken ? kHighlight : "black", s.broken);
  }
  for (const auto& note : f.notes) legend(note, "black", false);
  return w.finish(f.caption, std::max(width, right + kMargin), ly + kMargin);
}

std::string cube_svg(const CubeFigure& f) {
  TC_CHECK(f.n >= 1 && f.n <= 8, "cube_svg draws Q_1 .. Q_8");
  Writer w;
  double width = 640;
  double y = w.heading(f.caption.heading, 0, width);
  const std::set<uint64_t> faulty(f.faulty.begin(), f.faulty.end());
  std::map<size_t, std::string> marked;
  for (const auto& m : f.marks) {
    TC_CHECK(m.group < f.groups.size(), "a mark names a group");
    marked[m.group] = marked[m.group].empty() ? m.words : marked[m.group] + "; " + m.words;
  }
  // Each box: up to 8 nodes a row, 64 px per node, a name line above and a words line below.
  const double cell = 64, name_h = 20, words_h = 18;
  size_t per_row_nodes = 1;
  for (const auto& g : f.groups) per_row_nodes = std::max(per_row_nodes, std::min<size_t>(g.size(), 8));
  // Wide enough for the nodes, each box's name and each mark's words.
  double box_w = cell * static_cast<double>(per_row_nodes) + 12;
  for (const auto& g : f.groups) box_w = std::max(box_w, text_width(fmt::format("{} {{{}}}", f.group_label, fmt::join(g, ","))) + 12);
  for (const auto& [g, words] : marked) box_w = std::max(box_w, text_width(words) + 12);
  auto box_h = [&](const std::vector<uint64_t>& g) {
    return name_h + cell * std::ceil(static_cast<double>(g.size()) / 8.0) + words_h + 8;
  };
  const size_t boxes_per_line = std::max<size_t>(1, static_cast<size_t>(960 / (box_w + 12)));
  double x = kMargin, line_h = 0, right = 0;
  y += 4;
  for (size_t gi = 0; gi < f.groups.size(); ++gi) {
    const auto& g = f.groups[gi];
    if (gi > 0 && gi % boxes_per_line == 0) {
      x = kMargin;
      y += line_h + 12;
      line_h = 0;
    }
    const double h = box_h(g);
    const auto mark = marked.find(gi);
    const std::string name = fmt::format("{} {{{}}}", f.group_label, fmt::join(g, ","));
    w.begin_group(mark == marked.end() ? name : name + ": " + mark->second);
    w.rect(x, y, box_w, h, "#f7f7f7", mark == marked.end() ? "#888888" : kHighlight, mark == marked.end() ? 1 : 3, 8);
    w.text(x + 6, y + 14, name, "start", "black");
    for (size_t k = 0; k < g.size(); ++k) {
      const double cx = x + 6 + cell * static_cast<double>(k % 8) + cell / 2;
      const double cy = y + name_h + cell * static_cast<double>(k / 8) + 24;
      const bool bad = faulty.count(g[k]) > 0;
      w.circle(cx, cy, 20, bad ? kHighlight : "white", "black", bad ? 2 : 1);
      w.text(cx, cy - 2, std::to_string(g[k]), "middle", bad ? "white" : "black", true);
      std::string bits;
      for (int b = f.n - 1; b >= 0; --b) bits += ((g[k] >> b) & 1) ? '1' : '0';
      w.text(cx, cy + 11, bits, "middle", bad ? "white" : "#555555", false, 9);
      if (bad) w.text(cx, cy + 32, "faulty", "middle", kHighlight, true, 10);
    }
    if (mark != marked.end()) w.text(x + 6, y + h - 8, mark->second, "start", kHighlight, true);
    w.end_group();
    right = std::max(right, x + box_w);
    line_h = std::max(line_h, h);
    x += box_w + 12;
  }
  y += line_h + 8;
  double notes_width = 0;
  y = w.heading(f.notes, y, notes_width);
  return w.finish(f.caption, std::max({width, right + kMargin, notes_width}), y + kMargin);
}

std::string bar_chart_svg(const Caption& caption, const std::vector<BarPanel>& panels) {
  Writer w;
  double width = 640;
  double y = w.heading(caption.heading, 0, width);
  for (const auto& p : panels) {
    y += 8;
    w.text(kMargin, y + 12, p.title, "start", "black", true);
    y += 20;
    // The value range: every bar, line and finite band end, and zero; 5% more to the right, and to
    // the left when something is negative (else zero is the left end).
    std::vector<double> values = {0.0};
    for (const auto& b : p.bars) {
      TC_CHECK(std::isfinite(b.value), "bar values are finite");
      values.push_back(b.value);
    }
    for (const auto& l : p.lines) values.push_back(l.value);
    if (p.band && p.band->low) values.push_back(*p.band->low);
    if (p.band && p.band->high) values.push_back(*p.band->high);
    double lo = *std::min_element(values.begin(), values.end()), hi = *std::max_element(values.begin(), values.end());
    if (hi == lo) hi = lo + 1;
    const double pad = (hi - lo) * 0.05;
    if (lo < 0) lo -= pad;
    hi += pad;
    size_t label_chars = 4;
    for (const auto& b : p.bars) label_chars = std::max(label_chars, b.label.size());
    const double left = kMargin + kCharWidth * static_cast<double>(label_chars) + 10, plot_w = 420;
    auto xof = [&](double v) { return left + plot_w * (v - lo) / (hi - lo); };
    if (p.band) y += 16;  // room for the band's words above the bars
    const double row = 18, top = y + 4, bottom = top + row * static_cast<double>(p.bars.size());
    double right = left + plot_w;
    if (p.band) {
      const double a = xof(p.band->low.value_or(lo)), b = xof(p.band->high.value_or(hi));
      w.begin_group(p.band->words);
      w.rect(a, top - 4, b - a, bottom - top + 8, "#fff2b3", "#c9a400", 1);
      w.text(a + 4, top - 8, p.band->words, "start", "#7a6300");
      right = std::max(right, a + 4 + text_width(p.band->words));
      w.end_group();
    }
    std::map<std::string, size_t> series;
    for (size_t i = 0; i < p.bars.size(); ++i) {
      const auto& b = p.bars[i];
      const size_t color = series.emplace(b.series, series.size()).first->second;
      const double ry = top + row * static_cast<double>(i);
      const std::string value = number(b.value) + (b.words.empty() ? "" : ": " + b.words);
      w.begin_group(fmt::format("{} ({}): {}", b.label, b.series, value));
      w.text(left - 6, ry + 13, b.label, "end");
      const double x0 = xof(0), x1 = xof(b.value);
      // A marked bar keeps its series' colour (the legend stays true) and gets a red outline, its
      // words in red beside it.
      w.rect(std::min(x0, x1), ry + 3, std::fabs(x1 - x0), row - 6, kSeriesColors[color % 6],
             b.words.empty() ? "none" : kHighlight, b.words.empty() ? 1 : 2.5);
      w.text(std::max(x0, x1) + 4, ry + 13, value, "start", b.words.empty() ? "black" : kHighlight, !b.words.empty());
      right = std::max(right, std::max(x0, x1) + 4 + text_width(value));
      w.end_group();
    }
    w.line(xof(0), top - 2, xof(0), bottom + 2, "black");
    // Axis: the ends and zero.
    for (double v : {lo, 0.0, hi}) w.text(xof(v), bottom + 14, number(v), "middle", "#555555", false, 10);
    w.text(left + plot_w / 2, bottom + 30, p.axis_label, "middle");
    double ly = bottom + 30;
    for (const auto& l : p.lines) {
      ly += kLineHeight;
      w.line(xof(l.value), top - 2, xof(l.value), ly - 4, "black", 1.5, true);
      w.text(xof(l.value) + 4, ly, l.words, "start");
      right = std::max(right, xof(l.value) + 4 + text_width(l.words));
    }
    // The legend, when there is more than one series.
    if (series.size() > 1)
      for (const auto& [name, color] : series) {
        ly += kLineHeight;
        w.rect(left, ly - 10, 12, 12, kSeriesColors[color % 6]);
        w.text(left + 18, ly, name);
      }
    y = ly + 4;
    double notes_width = 0;
    y = w.heading(p.notes, y, notes_width);
    width = std::max({width, right + kMargin, notes_width});
  }
  return w.finish(caption, width, y + kMargin);
}

std::string table_svg(const TableFigure& f) {
  Writer w;
  double width = 480;
  double y = w.heading(f.caption.heading, 0, width);
  std::vector<std::string> columns = f.columns;
  const bool any_mark = std::any_of(f.rows.begin(), f.rows.end(), [](const auto& r) { return !r.mark.empty(); });
  if (any_mark) columns.push_back("marked");
  // Each row's cells wrapped; a column is as wide as its widest line.
  std::vector<std::vector<std::vector<std::string>>> cells;
  std::vector<double> col_w(columns.size(), 0);
  for (size_t c = 0; c < columns.size(); ++c) col_w[c] = text_width(columns[c]);
  for (const auto& r : f.rows) {
    std::vector<std::string> texts = r.cells;
    texts.resize(f.columns.size());
    if (any_mark) texts.push_back(r.mark);
    auto& row = cells.emplace_back();
    for (size_t c = 0; c < texts.size(); ++c) {
      row.push_back(wrap(texts[c]));
      for (const auto& piece : row.back()) col_w[c] = std::max(col_w[c], text_width(piece));
    }
  }
  std::vector<double> col_x(columns.size(), kMargin);
  for (size_t c = 1; c < columns.size(); ++c) col_x[c] = col_x[c - 1] + col_w[c - 1] + 16;
  const double table_right = columns.empty() ? kMargin : col_x.back() + col_w.back() + 8;
  w.rect(kMargin - 4, y, table_right - kMargin + 4, kLineHeight + 4, "#e8e8e8");
  for (size_t c = 0; c < columns.size(); ++c) w.text(col_x[c], y + kLineHeight - 2, columns[c], "start", "black", true);
  y += kLineHeight + 4;
  for (size_t r = 0; r < cells.size(); ++r) {
    size_t lines = 1;
    for (const auto& c : cells[r]) lines = std::max(lines, c.size());
    const double h = kLineHeight * static_cast<double>(lines) + 4;
    const bool marked = !f.rows[r].mark.empty();
    w.begin_group(fmt::format("row {}{}", r + 1, marked ? ": " + f.rows[r].mark : ""));
    if (marked) w.rect(kMargin - 4, y, table_right - kMargin + 4, h, "#fde0e0", kHighlight, 1);
    else if (r % 2 == 1) w.rect(kMargin - 4, y, table_right - kMargin + 4, h, "#f6f6f6");
    for (size_t c = 0; c < cells[r].size(); ++c)
      for (size_t k = 0; k < cells[r][c].size(); ++k)
        w.text(col_x[c], y + kLineHeight * static_cast<double>(k + 1) - 2, cells[r][c][k], "start",
               marked && c + 1 == cells[r].size() && any_mark ? kHighlight : "black", marked && any_mark && c + 1 == cells[r].size());
    w.end_group();
    y += h;
  }
  return w.finish(f.caption, std::max(width, table_right + kMargin), y + kMargin);
}

}  // namespace topocheck::report
