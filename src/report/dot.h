// DOT (Graphviz) text of corpus cases: the drawings `topocheck show --format dot` prints and the
// findings site renders through graphviz.h.
//
// Emitters, by what the case holds:
//  - paths_dot: any case as the directed graph of its paths (hypercube and Metacube path systems:
//    witness paths of a counterexample, or the printed paths of an example). Nodes that occur
//    twice among the paths of one set, internal to one of them, are filled red: the shared nodes.
//  - itm_dot: an ITM case (edges, exterior, circular order, paths) for `neato -n`: nodes on a
//    circle in the circular order, the edges two paths both use red and thick.
//  - wormhole_dot: a wormhole deadlock (witness.deadlock): the channels each stuck worm holds and
//    the channel it waits on, which close the cycle of waiting.
//  - migration_dot: a migration instance (S, T, the blocks, the paths) from validated values.
//
// The emitters from a Case read the witness leniently, as `show` always has: most entries of the
// wrong shape are skipped, not reported. A caller that must not draw a malformed witness validates
// it first (drawing.h does). Their default text is byte-stable: `show --format dot` prints it, and
// drawing_test.cc compares it with stored files; there a highlight is red and named in the graph's
// legend line. With DotStyle::label_highlights every highlighted element also carries words of its
// own ("shared node" under the node's name, "shared edge 0-3"), so that colour is never the only mark.
// Cost: linear in the witness, plus a sort of the nodes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/node.h"
#include "core/subcube.h"
#include "corpus/corpus.h"

namespace topocheck::report {

// An array of node strings inside a JSON document (witness or printed output), with its JSON
// pointer (the form errata cells use, e.g. "/columns/3/paths/1"; "/" for the document itself).
struct NamedPath {
  std::string pointer;
  std::vector<std::string> nodes;
};

// Every non-empty array of strings in `j` that all parse as nodes (core/node.h), in document
// order; arrays inside a collected array are not searched.
std::vector<NamedPath> collect_paths(const nlohmann::json& j);

// A node shared within a set of paths (paths_dot's rule below), with where it occurs:
// "/paths/0 @2" is position 2 of /paths/0. In order of set, then node.
struct SharedNode {
  std::string node;
  std::vector<std::string> where;
};
std::vector<SharedNode> shared_nodes(const std::vector<NamedPath>& paths);

// `s` with '"' and '\' escaped, for a DOT quoted string.
std::string dot_escape(const std::string& s);

struct DotStyle {
  // Highlighted elements also carry words in the drawing itself ("shared node", "shared edge"),
  // not only their colour and the legend line. Off: the text `show --format dot` has always
  // printed.
  bool label_highlights = false;
};

// An ITM case (claims itm.*; also a wormhole case whose witness is an ITM) as an undirected graph
// with fixed positions, for `neato -n`: the nodes on a circle in the witness's circular order
// ("order", else "found_order", else 0..n-1), exterior edges solid, interior edges dashed grey,
// the witness's paths as coloured arrows, and every edge two paths both use red and thick. A
// witness "root" is drawn as a double circle labelled "root".
std::string itm_dot(const corpus::Case& c, DotStyle style = {});

// A wormhole deadlock case (witness.deadlock with "stuck", from catalog/wormhole/claims.cc) as a
// digraph: the graph's edges grey, the channels each worm of the waiting cycle holds as arrows in
// its colour labelled "w<worm>", and the channel each waits on as a dashed red arrow labelled
// "waits". nullopt when the witness has no deadlock.
std::optional<std::string> wormhole_dot(const corpus::Case& c);

// `paths` (usually collect_paths of the witness, or of `expected` for an example) as a digraph,
// one colour per path. Paths are grouped into sets by their parent pointer (/paths/0, /paths/1
// form one set, /translate/paths/... another); a node is shared when it is internal to a path of
// its set and occurs there more than once. Metacube cases (claim metacube.*, params k and m) show
// each node's fielded form under its bit string.
std::string paths_dot(const corpus::Case& c, const std::vector<NamedPath>& paths, DotStyle style = {});

// A migration instance, validated (drawing.cc builds it): Q_n, S and T, the blocks, and the
// paths (every node of width n, every hop a link of Q_n).
struct MigrationScene {
  int n = 0;
  std::optional<Subcube> S, T;
  std::vector<Subcube> blocks;
  struct Path {
    std::string name;  // where it comes from: a JSON pointer or "violation path 1"
    std::vector<Node> nodes;
  };
  std::vector<Path> paths;
  // What two paths must not share (the claim's reading): nodes, undirected links or directed
  // links. The drawing marks exactly those collisions.
  enum class Collision { kNode, kLink, kDirectedLink };
  Collision collision = Collision::kNode;
  std::vector<std::string> heading;  // claim, reading, violation, notes: one line each
};

// The collisions of the scene's kind, in words: "shared node 0011" (a node occurring twice among
// the paths, internal to one of them), "shared link 0000-0010", "shared link 0000->0010".
std::vector<std::string> migration_collisions(const MigrationScene& scene);

// The scene as a digraph: every node of Q_n when n <= 4 (with the hypercube's links grey, ranked
// by their number of ones), else only the nodes of S, T and the paths (laid out by the paths); each node labelled with its membership ("in S", "in T",
// "in block 01**"); the paths as coloured arrows, the first hop of path i labelled "P<i>: <name>",
// the others "P<i>"; the collisions of the scene's
// kind in red with words ("shared node 0011", "shared link 0000-0010"); hops along a block link
// labelled "block link". Preconditions (checked by the caller): as MigrationScene says.
std::string migration_dot(const MigrationScene& scene);

}  // namespace topocheck::report
