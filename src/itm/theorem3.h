// Theorem 3 of the ITM paper (002): which graphs have a spanning ITM, decided exactly on small
// graphs, and the theorem's two directions checked over every graph up to isomorphism.
//
// The paper: "A graph G = (V; E) has an ITM subgraph that contains all the nodes in V if and only
// if: G is Hamiltonian; there exists a Hamiltonian cycle for which G is totally triangulated. A
// graph G is totally triangulated for a Hamiltonian cycle C if and only if when the vertices of G
// are around a circle according to the order they appear in C, no edge can be added without
// intersecting an edge of G."
//
// Words -> code:
//  - "has an ITM subgraph that contains all the nodes" -> `spanning_itm(g, rule)`: some subgraph
//    of g on all n nodes is an ITM under `rule` (itm.h). kAnyEdge: a spanning 2-tree; kExterior:
//    a spanning maximal outerplanar graph (a triangulated polygon). An ITM has >= 3 nodes, so
//    graphs on 1 or 2 nodes have none.
//  - "Hamiltonian cycle" -> a node list starting at 0, consecutive nodes (and last, first)
//    adjacent; each cycle once: `cycle[1] < cycle[n-1]` fixes the direction. None when n < 3.
//  - "totally triangulated for C" -> `totally_triangulated(g, cycle, reading)`. The nodes sit in
//    convex position in C's order, so C's edges are the polygon's sides, and every other pair is
//    a chord; two chords intersect only at a shared endpoint or by a proper crossing (their
//    endpoints interleave around the circle). The readings (TriangulatedReading):
//      kEveryChordCrosses  "every-chord-crosses": edges are straight chords; every pair of nodes
//                          NOT adjacent in g, drawn as a chord, properly crosses some edge of g.
//                          g's own edges may cross each other (the text does not forbid it).
//      kMaximalOuterplanar "maximal-outerplanar": as every-chord-crosses, and no two edges of g
//                          cross: g is drawn inside the circle without crossings and no chord
//                          can be added, i.e. g is a triangulated polygon on C (n - 3 chords).
//      kPlanarDrawing      "planar-drawing": edges are curves; the sides of C are the circle's
//                          arcs and every other edge of g is drawn inside or outside the circle,
//                          g's drawing has no crossings, and no non-adjacent pair can be joined
//                          by a curve (inside or outside) without crossing an edge of g; "exists
//                          such a drawing of g". Outside the circle is again a disc with the
//                          nodes in C's order on its boundary, so a curve crosses the edges on
//                          its side exactly when the straight chords would. A curve through the
//                          circle crosses one of C's arcs, an edge of g.
//    Not a reading: "touching at a shared endpoint counts as intersecting". Every node is on two
//    sides of C, so every added edge touches an edge of g and every Hamiltonian graph would be
//    totally triangulated: the second condition would say nothing (C_4 refutes "if" at once).
//  - `rhs(g, reading)`: g is Hamiltonian and totally triangulated for one of its Hamiltonian
//    cycles (the cycle found is returned through `cycle`).
//  - Directions (Theorem3Direction): kIf: rhs(g) => spanning_itm(g); kOnlyIf: spanning_itm(g)
//    => rhs(g). Each is checked for each Rule x TriangulatedReading (12 combinations).
//
// What can be proved (the sweep confirms each, exhaustive n <= 8):
//  - kPlanarDrawing forces each side's chords to triangulate the polygon: if the inside chords
//    left a face with >= 4 corners a, b, c, d (in order), its diagonals ac and bd are chords (not
//    sides of C) and not drawn inside; a non-edge among them could be added inside, so both are
//    edges of g drawn outside, where they cross. Hence g has exactly 2(n - 3) chords (3n - 6
//    edges; totally_triangulated checks this count first), the inside chords plus
//    C are a spanning maximal outerplanar graph ("if" holds under both rules) and an ITM with
//    2n - 3 edges, n >= 4, is never so ("only if" fails, first the 4-node ITM itself).
//  - kMaximalOuterplanar: g is itself a triangulated polygon, an ITM under both rules ("if"
//    holds); K4 has a spanning ITM but every drawing on a 4-cycle crosses ("only if" fails).
//  - kEveryChordCrosses, kExterior, "only if": the chords of a spanning triangulated polygon
//    form a maximal non-crossing set, so every chord not among them, in particular every
//    non-edge, crosses one (holds). Under kAnyEdge a non-Hamiltonian 2-tree refutes it.
//    "If" fails on K_{3,3} (a hexagon plus its long diagonals; triangle-free, so no ITM).
//
// Worked example: K4 with cycle 0 1 2 3 has chords (0,2), (1,3), which cross. Every pair is
// adjacent, so every-chord-crosses holds; maximal-outerplanar fails (they cross); planar-drawing
// holds ((0,2) inside, (1,3) outside). spanning_itm(K4, kExterior) takes that cycle, triangulates
// it by the chord (1,3): order 0 1 3 2 (kernel {0, 1, 3}), steps `3:(1,2)` (node 2 of K4 added at
// (1,3)), edges (0,1) (0,3) (1,2) (1,3) (2,3).
//
// graph6 (nauty's formats.txt): N(n) = one byte n + 63 (n <= 62 here), then the upper triangle
// column by column (x(0,1), x(0,2), x(1,2), x(0,3), ...), 6 bits a byte, most significant first,
// padded with 0, each byte + 63. Example: "DQc" is n = 5 with edges 0-2, 0-4, 1-3, 3-4.
//
// Limits and cost: the deciders take 0 <= n <= kMaxTheorem3Nodes (TC_CHECK aborts beyond).
// Hamiltonian cycles: depth-first search, O(n!) worst case. totally_triangulated: O(n^2) with
// bit masks per cycle; planar-drawing enumerates the 2-colourings of the chords' crossing graph
// (2^(components - 1), after the 3n - 6 edge count). spanning_itm: kExterior by the cycles and an
// O(n^3) interval DP per cycle; kAnyEdge by exhaustive search over AddNode steps with a memo of
// failed partial ITMs (deciding a spanning 2-tree is NP-complete: Bern 1987, Cai-Maffray 1993).
// Every graph on 8 nodes (12346) through every decider: about 0.3 s.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "itm/itm.h"

namespace topocheck::itm {

inline constexpr int kMaxTheorem3Nodes = 11;  // 55 node pairs: an edge set fits in 64 bits
inline constexpr int kMaxGraph6Nodes = 62;    // the one-byte size form
inline constexpr int kMaxGengNodes = 9;       // 274668 graphs; n = 10 has 12 million

// ---------------------------------------------------------------------------------------------
// graph6 and nauty's geng

// One graph6 string (no newline). Errors (kParse) say what is wrong: an empty string, a byte
// outside 63..126, a size form other than one byte, a wrong length, nonzero padding bits.
Result<Graph> parse_graph6(std::string_view text);
// The graph6 string of g (n <= kMaxGraph6Nodes; aborts beyond).
std::string to_graph6(const Graph& g);
// One graph per line; an optional ">>graph6<<" header before the first; a final newline is
// optional. Errors carry `source` as the file and the 1-based line number.
Result<std::vector<Graph>> parse_graph6_lines(std::string_view text, const std::string& source);

// Every graph on n nodes up to isomorphism (connected ones only if asked), in nauty's output
// order: runs `nauty-geng -g -q [-c] n` (or `geng`, as other distributions name it) found on PATH,
// without a shell, and parses its output. Errors: n outside 1..kMaxGengNodes (kInvalidArgument),
// no such program (kNotFound, naming the Debian package `nauty`), geng failing (kInternal), bad
// output (kParse, naming the line).
Result<std::vector<Graph>> all_graphs(int n, bool connected_only);

// ---------------------------------------------------------------------------------------------
// Spanning ITMs

// A spanning ITM of g, as a witness that Itm::build can replay and the caller can check.
struct SpanningItm {
  Rule rule = Rule::kAnyEdge;
  std::vector<int> order;  // order[i] = the node of g that plays ITM node i; a permutation
  Steps steps;             // in ITM labels: Itm::build(steps, rule) is the ITM
  std::vector<std::pair<int, int>> edges;  // its 2n - 3 edges in g's labels, (u, v) u < v, sorted
};

// A spanning ITM of g under `rule`, or nullopt when there is none. Exact.
//  kAnyEdge: depth-first search over partial ITMs (kernel = any triangle of g, then AddNode of a
//    node outside at any edge of the partial ITM whose ends are both its neighbours in g), with a
//    memo of partial ITMs (edge sets) that cannot be completed. No greedy shortcut: which edge a
//    node is attached at decides which edges later nodes can use.
//  kExterior: for each Hamiltonian cycle C, an interval DP: the polygon's sub-chain i..j (with
//    (c_i, c_j) an edge of g) can be triangulated by chords of g iff j = i + 1 or some i < k < j
//    has both i..k and k..j triangulable; the whole polygon iff 0..n-1 is. The triangulation
//    becomes AddNode steps by walking its triangles from the one on side (c_0, c_{n-1}).
std::optional<SpanningItm> spanning_itm(const Graph& g, Rule rule);
// The same question under both rules by the AddNode search alone (under kExterior only exterior
// edges of the partial ITM are offered, marked as in itm.h). A second, independent decider for
// kExterior; tests compare the two.
std::optional<SpanningItm> spanning_itm_by_search(const Graph& g, Rule rule);

// ---------------------------------------------------------------------------------------------
// Hamiltonian cycles and "totally triangulated"

// Every Hamiltonian cycle of g once: cycle[0] = 0, cycle[1] < cycle[n-1]. Empty when n < 3.
std::vector<std::vector<int>> hamiltonian_cycles(const Graph& g);

enum class TriangulatedReading { kEveryChordCrosses, kMaximalOuterplanar, kPlanarDrawing };
inline constexpr TriangulatedReading kTriangulatedReadings[] = {
    TriangulatedReading::kEveryChordCrosses, TriangulatedReading::kMaximalOuterplanar,
    TriangulatedReading::kPlanarDrawing};
std::string to_string(TriangulatedReading reading);  // "every-chord-crosses", ...
std::optional<TriangulatedReading> parse_triangulated_reading(std::string_view text);

// Whether g is totally triangulated for the Hamiltonian cycle `cycle` (any start, either
// direction) under `reading`. Precondition (TC_CHECK): `cycle` is a Hamiltonian cycle of g.
bool totally_triangulated(const Graph& g, const std::vector<int>& cycle, TriangulatedReading reading);

// The outer cycle of a 2-connected outerplanar graph: the first Hamiltonian cycle (in
// hamiltonian_cycles' order) whose other edges, drawn as straight chords with the nodes on a
// circle in the cycle's order, pairwise do not cross; nullopt when g has none (g is not a
// 2-connected outerplanar graph). The circular order Theorem 5 speaks of, for graphs that are
// not ITMs (catalog/itm: Theorem 5 outside its premise). Cost: that of hamiltonian_cycles plus
// O(m^2) per cycle.
std::optional<std::vector<int>> outer_cycle(const Graph& g);

// Theorem 3's right-hand side: g has a Hamiltonian cycle for which it is totally triangulated.
// When true and `cycle` is not null, *cycle is the first such cycle (hamiltonian_cycles' order).
bool rhs(const Graph& g, TriangulatedReading reading, std::vector<int>* cycle = nullptr);

// ---------------------------------------------------------------------------------------------
// The theorem

enum class Theorem3Direction {
  kIf,      // rhs(g, reading) => g has a spanning ITM under the rule
  kOnlyIf,  // g has a spanning ITM under the rule => rhs(g, reading)
};
std::string to_string(Theorem3Direction direction);  // "if", "only-if"

struct Theorem3Combination {
  Rule rule = Rule::kAnyEdge;
  TriangulatedReading reading = TriangulatedReading::kEveryChordCrosses;
  Theorem3Direction direction = Theorem3Direction::kIf;
  friend bool operator==(const Theorem3Combination&, const Theorem3Combination&) = default;
};
std::string to_string(const Theorem3Combination& combination);  // "exterior/planar-drawing/if"

// Whether the combination's direction holds for g (false: g is a counterexample).
bool theorem3_holds_for(const Graph& g, const Theorem3Combination& combination);

struct Theorem3Finding {
  Theorem3Combination combination;
  // The first counterexample: smallest n, then geng's order (nullopt: none up to max_n).
  std::optional<Graph> first_counterexample;
  std::vector<long> counterexamples_by_n;  // index n = 0..max_n (0 for n = 0)
  long graphs_checked = 0;                 // every graph on 1..max_n nodes
};

// Every combination (rules x readings x directions, in that nesting order) over every graph on
// 1..max_n nodes (all_graphs(n, false)). Errors: those of all_graphs.
Result<std::vector<Theorem3Finding>> survey_theorem3(int max_n);
// One combination's first counterexample up to max_n, or nullopt.
Result<std::optional<Graph>> first_counterexample(const Theorem3Combination& combination, int max_n);

}  // namespace topocheck::itm
