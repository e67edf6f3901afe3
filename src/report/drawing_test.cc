// Tests of the drawings: every corpus case draws to a well-formed SVG with a title and a
// description; a copy of a real case with one witness value broken is refused with an error naming
// that value, for every kind of drawing; the DOT text `show --format dot` prints is byte for byte
// what it printed before the emitters moved to report/ (testdata/: that output, one case per
// emitter); Graphviz's runner reports a missing program, a failing one and a timeout.
#include "report/drawing.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/dot.h"
#include "report/graphviz.h"

namespace topocheck::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

fs::path corpus_dir() {
  const char* env = std::getenv("TOPOCHECK_CORPUS");
  return env ? fs::path(env) : fs::path(TOPOCHECK_SOURCE_DIR) / "corpus";
}

corpus::Case load(const std::string& relative) {
  auto c = corpus::load_case(corpus_dir() / relative);
  if (!c) ADD_FAILURE() << c.error().to_string();
  return c ? *c : corpus::Case{};
}

// Nothing but balanced tags: every element closed in order, the document one <svg> element.
// Skips the XML declaration, the DOCTYPE and comments (Graphviz writes all three).
std::string xml_problem(const std::string& svg) {
  std::vector<std::string> open;
  bool seen_svg = false;
  for (size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    if (svg.compare(i, 4, "<!--") == 0) {
      i = svg.find("-->", i);
      if (i == std::string::npos) return "an unclosed comment";
      continue;
    }
    const size_t end = svg.find('>', i);
    if (end == std::string::npos) return "an unclosed tag";
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" \n\t/"));
    if (open.empty()) {
      if (seen_svg || name != "svg") return "<" + name + "> outside the one <svg> element";
      seen_svg = true;
    }
    if (tag.back() != '/') open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return seen_svg ? "" : "no <svg> element";
}

TEST(Drawing, EveryCorpusCaseDrawsToAWellFormedSvgWithTitleAndDescription) {
  auto cases = corpus::load_all(corpus_dir());
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  ASSERT_GT(cases->size(), 100u);
  std::map<std::string, int> kinds;
  for (const corpus::Case& c : *cases) {
    SCOPED_TRACE(c.file.string());
    auto d = draw_case(c);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_TRUE(d->svg.rfind("<svg", 0) == 0 || d->svg.rfind("<?xml", 0) == 0);
    EXPECT_THAT(d->svg, HasSubstr("</svg>"));
    EXPECT_THAT(d->svg, HasSubstr("<title id=\"topocheck-title\">"));
    EXPECT_THAT(d->svg, HasSubstr("<desc id=\"topocheck-desc\">"));
    EXPECT_EQ(xml_problem(d->svg), "");
    EXPECT_FALSE(d->caption.empty());
    ++kinds[d->kind];
  }
  // Every kind of drawing is met by some case (a kind no case reaches would go untested).
  for (const char* kind : {"hypercube paths", "metacube paths", "metacube table", "itm graph", "wormhole deadlock",
                           "wormhole throughput chart", "migration instance", "aapc schedule", "aapc partition",
                           "aapc counts", "aapc table", "routing chart", "routing deadlock table"})
    EXPECT_GT(kinds[kind], 0) << kind;
  std::set<std::string> known = {"hypercube paths", "metacube paths", "metacube table", "itm graph", "wormhole deadlock",
                                 "wormhole throughput chart", "migration instance", "aapc schedule", "aapc partition",
                                 "aapc counts", "aapc table", "routing chart", "routing deadlock table"};
  for (const auto& [kind, count] : kinds) EXPECT_TRUE(known.count(kind)) << "unexpected kind " << kind << " x" << count;
}

// Highlights carry words, not only colour.
TEST(Drawing, HighlightedElementsAreNamedInWords) {
  struct Expect {
    const char* file;
    const char* kind;
    std::vector<const char*> words;
  };
  const std::vector<Expect> expectations = {
      {"metacube/thm2.disjoint/paper-4eb4b5cf13a112a7.json", "metacube paths", {"shared node"}},
      {"itm/thm5.contention_free/any-edge-reversed-04b66d20fff7108b.json", "itm graph", {"shared edge 0&#45;3"}},
      {"wormhole/thm2.non_itm_deadlock_free/c4-4d898db73db6f8bb.json", "wormhole deadlock", {"waits", "w0"}},
      {"wormhole/updown.shortest_paths/any-edge-any-root-55a1e49069db7e6a.json", "itm graph", {"root"}},
      {"migration/thm1.all_disjoint/node-2a83d69d1d4d8c89.json", "migration instance", {"shared node 0011", "in S", "in T"}},
      {"migration/lemma3.h_paths_disjoint/link-6da656da6aa3998c.json", "migration instance", {"shared link 00&#45;10"}},
      {"migration/conclusion.tells_absence/4.2-link-XD_f-611bfc1ae4cbc4a8.json", "migration instance",
       {"path 1 of the violation", "the second path is absent"}},
      {"aapc/a2.units/all_port.steps_at_most-285edcbb18eddec5.json", "aapc schedule", {"broken step"}},
      {"aapc/prop1.partition/any_f_dimensions-6733206729e14bd6.json", "aapc partition", {"faulty", "share this PS"}},
      {"aapc/prop3.perfect_partner/any_exactly_one-7010e25f11432440.json", "aapc partition", {"perfect neighbour along d = 1"}},
      {"aapc/sec312.optimum/all_port-e27b66e48905e138.json", "aapc counts", {"more than a valid schedule"}},
      {"routing/sec4.factor_two/layered-cdab279df3f78a01.json", "routing chart", {"the paper&apos;s region: in [1.6, 2.4]"}},
      {"routing/sec1.finite_buffers_deadlock_free/static_per_node-b63f773ca1738ea7.json", "routing deadlock table",
       {"in the wait cycle: waits for m1"}},
      {"wormhole/abstract.throughput_vs_updown/adaptive-root-center-6003044f57545910.json", "wormhole throughput chart",
       {"not above up*/down*"}},
  };
  for (const Expect& e : expectations) {
    SCOPED_TRACE(e.file);
    auto d = draw_case(load(e.file));
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_EQ(d->kind, e.kind);
    for (const char* w : e.words) EXPECT_THAT(d->svg, HasSubstr(w));
  }
}

// A copy of a real case with the value at `pointer` (in the case file) replaced must be refused:
// an Error naming the file and starting with `error_pointer`.
void expect_refused(const std::string& file, const std::string& pointer, const json& value, const std::string& error_pointer) {
  SCOPED_TRACE(file + " " + pointer + " = " + value.dump());
  const corpus::Case original = load(file);
  json j = corpus::to_json(original);
  ASSERT_TRUE(j.contains(json::json_pointer(pointer)) || pointer == "/violation") << "no such value to break";
  j[json::json_pointer(pointer)] = value;
  auto broken = corpus::case_from_json(j, original.file.string());
  ASSERT_TRUE(broken.ok()) << broken.error().to_string();
  broken.value().file = original.file;
  auto d = draw_case(*broken);
  ASSERT_FALSE(d.ok()) << "drawn as " << d->kind;
  EXPECT_EQ(d.error().code, ErrorCode::kParse);
  EXPECT_EQ(d.error().file, original.file.string());
  EXPECT_THAT(d.error().message, StartsWith(error_pointer + ":"));
}

TEST(Drawing, RefusesPathsWithANodeOutsideTheTopologyOrAHopThatIsNoLink) {
  expect_refused("hypercube/examples/table1.json", "/expected/columns/1/paths/1/2", "0111", "/expected/columns/1/paths/1/2");
  expect_refused("hypercube/examples/table1.json", "/input/columns/0/x", "00", "/input/columns/0/x");
  const std::string disjoint = "metacube/thm2.disjoint/paper-4eb4b5cf13a112a7.json";
  expect_refused(disjoint, "/witness/paths/0/1", "1000", "/witness/paths/0/1");
  expect_refused(disjoint, "/witness/paths/0/1", "0x0", "/witness/paths/0/1");
  expect_refused(disjoint, "/witness/paths/0/1", "111", "/witness/paths/0/1");  // 000 -> 111 is no link
  expect_refused("metacube/examples/table2.json", "/expected/longest/0", 4, "/expected/longest/0");
  expect_refused("metacube/examples/example1.json", "/expected/class_path/1", "011", "/expected/class_path/1");
  expect_refused("metacube/examples/neighbours.json", "/expected/cluster/0", "(01, 111, 101, 1111, 000)", "/expected/cluster/0");
  expect_refused("metacube/thm2.proof.combined/literal-58d5f30c58f3dd3d.json", "/input/t", "0110", "/input/t");
}

TEST(Drawing, RefusesAnItmWitnessWithANodeOutOfRangeOrAHopThatIsNoEdge) {
  const std::string thm5 = "itm/thm5.contention_free/any-edge-reversed-04b66d20fff7108b.json";
  expect_refused(thm5, "/witness/paths/1/3", 6, "/witness/paths/1/3");
  expect_refused(thm5, "/witness/paths/1/1", 5, "/witness/paths/1/1");  // 4 -> 5 is no edge
  expect_refused(thm5, "/witness/order/0", 3, "/witness/order/1");       // 3 repeated
  expect_refused(thm5, "/witness/exterior/0", json::array({0, 5}), "/witness/exterior/0");
  expect_refused(thm5, "/witness/edges/0", json::array({0, 0}), "/witness/edges/0");
  expect_refused("itm/thm3.only_if/any-edge-planar-drawing-04fdc857ac03eee0.json", "/witness/spanning_itm/0",
                 json::array({0, 1}), "/witness/spanning_itm/0");
  expect_refused("wormhole/updown.shortest_paths/any-edge-any-root-55a1e49069db7e6a.json", "/witness/root", 7, "/witness/root");
}

TEST(Drawing, RefusesAWormholeDeadlockWhoseChannelsAreNoEdgesOrWhoseCycleHasNoWorm) {
  const std::string c4 = "wormhole/thm2.non_itm_deadlock_free/c4-4d898db73db6f8bb.json";
  expect_refused(c4, "/witness/deadlock/waits_on_text/0", "2->0", "/witness/deadlock/waits_on_text/0");
  expect_refused(c4, "/witness/deadlock/stuck/0/held_text/0", "3-2", "/witness/deadlock/stuck/0/held_text/0");
  expect_refused(c4, "/witness/deadlock/cycle_worms/0", 9, "/witness/deadlock/cycle_worms/0");
  expect_refused("wormhole/abstract.throughput_vs_updown/adaptive-root-center-6003044f57545910.json",
                 "/witness/instances/0/ratio", 2.0, "/witness/instances/0/ratio");
}

TEST(Drawing, RefusesAMigrationWitnessWhosePathsLeaveTheCubeOrDoNotJoinSToT) {
  const std::string node = "migration/thm1.all_disjoint/node-2a83d69d1d4d8c89.json";
  expect_refused(node, "/witness/nodes/0/paths/0/path/1", "1111", "/witness/nodes/0/paths/0/path/1");
  expect_refused(node, "/witness/nodes/0/paths/0/path/1", "00100", "/witness/nodes/0/paths/0/path/1");
  expect_refused(node, "/witness/nodes/0/u", "1111", "/witness/nodes/0/u");
  expect_refused(node, "/witness/nodes/1/paths/1/path/4", "0111", "/witness/nodes/1/paths/1/path/4");  // ends outside T
  expect_refused(node, "/witness/S", "0*01", "/witness/S");
  expect_refused(node, "/input/T", "*01", "/input/T");
  expect_refused("migration/lemma2.regular_aggressive_disjoint/Df-any-node-aecaf6a13eb97af6.json", "/violation",
                 "u = 0011: 0011:0101:0000 and 0001:0101:0100 share node 0101", "/violation");
  expect_refused("migration/examples/fig2.json", "/input/blocks", "01****,0010**", "/input/blocks");  // a block meets S
}

TEST(Drawing, RefusesAnAapcWitnessWhoseCountsDoNotAddUpOrWhoseSetsAreNoPartnerSets) {
  const std::string steps = "aapc/a2.units/all_port.steps_at_most-285edcbb18eddec5.json";
  expect_refused(steps, "/witness/units", 16, "/witness/units");
  expect_refused(steps, "/witness/steps/0/units", -1, "/witness/steps/0/units");
  expect_refused(steps, "/violation", "'phase 3 step 1' takes 5 units", "/violation");
  // The stored schedule is judged by aapc's checker and against its witness before it is drawn.
  expect_refused(steps, "/witness/schedule/units/0/0/2", 0, "/witness/schedule");  // a move into the faulty node 0
  expect_refused(steps, "/witness/schedule/units/0", json::array(), "/witness/schedule");  // a unit's moves lost
  expect_refused(steps, "/witness/schedule/n", 4, "/witness/schedule/n");
  expect_refused(steps, "/witness/schedule/faults/0", 1, "/witness/schedule/faults");
  expect_refused(steps, "/witness/schedule/steps/0/name", "phase 1 step 9", "/witness/schedule/steps/0");
  expect_refused(steps, "/witness/checker", "invalid", "/witness/checker");
  expect_refused("aapc/prop1.partition/any_f_dimensions-6733206729e14bd6.json", "/witness/ps/0", 4, "/witness/ps");
  expect_refused("aapc/prop1.partition/any_f_dimensions-6733206729e14bd6.json", "/witness/faults/1", 16, "/witness/faults/1");
  const std::string prop3 = "aapc/prop3.perfect_partner/any_exactly_one-7010e25f11432440.json";
  expect_refused(prop3, "/witness/faulty_pss/0/perfect_neighbours/0/d", 0, "/witness/faulty_pss/0/perfect_neighbours/0/d");
  expect_refused(prop3, "/witness/faulty_pss/0/perfect_neighbours/0/ps/0", 6, "/witness/faulty_pss/0/perfect_neighbours/0/ps");
  expect_refused("aapc/sec2.af_precondition/as_printed-43a05c39c44db135.json", "/witness/faulty_subcubes/0/3", 4,
                 "/witness/faulty_subcubes/0/3");
  expect_refused("aapc/prop2.dimension/any-9bade79e911b4aed.json", "/witness/faults/1", 2, "/witness/faults");
  expect_refused("aapc/examples/example1.json", "/expected/partner_sets/0/1", 2, "/expected/partner_sets/0");
  expect_refused("aapc/sec312.optimum/all_port-e27b66e48905e138.json", "/witness/lower_bound", 5, "/witness/lower_bound");
  expect_refused("aapc/af.consistent_with_a1/literal-41438ef9528d0b46.json", "/params/n", 0, "/params/n");
}

TEST(Drawing, RefusesRoutingFiguresThatContradictThemselvesAndABrokenDeadlock) {
  const std::string gauss = "routing/sec4.scheme_e_best/gauss-b7e69116abecb9d9.json";
  expect_refused(gauss, "/witness/figures/0/mean", 0.5, "/witness/figures/0/mean");
  expect_refused(gauss, "/witness/figures/0/side", "inside", "/witness/figures/0/side");
  expect_refused(gauss, "/witness/figures/1/region", "about 10", "/witness/figures/1/region");
  expect_refused(gauss, "/witness/figures/1/values/3", "x", "/witness/figures/1/values/3");
  const std::string deadlock = "routing/sec1.finite_buffers_deadlock_free/static_per_node-b63f773ca1738ea7.json";
  expect_refused(deadlock, "/input/witness/wait_cycle/0", 7, "/input/witness");
  expect_refused(deadlock, "/witness/text", "a deadlock", "/witness/text");
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `show --format dot`'s choice of emitter (src/cli/show_cmd.cc), on one case per emitter.
TEST(ShowDot, TextIsByteForByteTheOutputBeforeTheEmittersMoved) {
  const fs::path testdata = fs::path(TOPOCHECK_SOURCE_DIR) / "src" / "report" / "testdata";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"metacube/thm2.disjoint/paper-4eb4b5cf13a112a7.json", "metacube_thm2_disjoint.dot"},
      {"itm/thm5.contention_free/any-edge-reversed-04b66d20fff7108b.json", "itm_thm5_contention_free.dot"},
      {"wormhole/thm2.non_itm_deadlock_free/c4-4d898db73db6f8bb.json", "wormhole_thm2_c4.dot"},
      {"hypercube/examples/table1.json", "hypercube_table1.dot"},
      {"migration/thm1.all_disjoint/node-2a83d69d1d4d8c89.json", "migration_thm1_node.dot"},
  };
  for (const auto& [file, expected] : cases) {
    SCOPED_TRACE(file);
    const corpus::Case c = load(file);
    std::string dot;
    if (c.claim.rfind("itm.", 0) == 0) dot = itm_dot(c);
    else if (auto deadlock = wormhole_dot(c)) dot = *deadlock;
    else dot = paths_dot(c, collect_paths(c.kind == corpus::CaseKind::kExample ? c.expected : c.witness));
    EXPECT_EQ(dot, read_file(testdata / expected));
  }
}

TEST(Graphviz, AMissingProgramIsAnErrorNamingIt) {
  auto r = run_program("topocheck-no-such-program", {}, "", std::chrono::seconds(5));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, StartsWith("topocheck-no-such-program: not found on PATH"));
}

TEST(Graphviz, ANonZeroExitIsAnErrorWithTheProgramsStderr) {
  auto r = render_svg("graph {", Layout::kDot);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, StartsWith("dot: exit status 1: "));
  EXPECT_THAT(r.error().message, HasSubstr("syntax error"));
}

TEST(Graphviz, AProgramPastItsTimeoutIsKilled) {
  const auto start = std::chrono::steady_clock::now();
  auto r = run_program("sleep", {"10"}, "", std::chrono::milliseconds(200));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("killed after the 200 ms timeout"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Graphviz, LargeInputAndOutputDoNotBlockEachOther) {
  // More than a pipe's buffer each way: `cat` writes while we still write.
  const std::string big(1 << 20, 'x');
  auto r = run_program("cat", {}, big, std::chrono::seconds(10));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, big);
}

TEST(Graphviz, AProgramThatStopsReadingEarlyIsReportedByItsExitStatus) {
  auto r = run_program("false", {}, std::string(1 << 20, 'x'), std::chrono::seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, StartsWith("false: exit status 1"));
}

}  // namespace
}  // namespace topocheck::report
