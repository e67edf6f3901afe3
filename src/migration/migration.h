// Task migration through double disjoint paths (Chen and Tzeng, paper 000): the subcube algebra,
// the isomorphisms f (Chen-Lai), g and h, the path kinds (Hamming, regular, aggressive), blocks
// and block links, HAMMING-PATH, and the whole procedure of Section 4.
//
// Notation (the paper's Section 2.2; bit i is dimension i, addresses print bit n-1 first):
//  - D(S) = {i : S[i] = *};  I(S,T) = {i : S[i] = T[i]} (both '*' included);
//    C(S,T) = {i : S[i], T[i] fixed and complementary};  D(S)-D(T);  D(T)-D(S).
//    The four sets I, C, D(S)-D(T), D(T)-D(S) partition N = {n-1..0}.
//  - alpha: a bijection D(S)-D(T) -> D(T)-D(S).
//  - f(u)[i] = u[i] on I; T[i] on C u (D(S)-D(T)); on i in D(T)-D(S) either u[i] or its
//    complement, by whether u[a^-1(i)] = T[a^-1(i)]. The OCR lost the bar: `Bars` says which
//    of the two cases complements, for f and for g separately (READING.md). The Fig. 2 example
//    pins f: complement when u[a^-1(i)] = T[a^-1(i)]; g: complement when they differ
//    (Bars::paper()). h(v) = v XOR (D(T)-D(S)).
//  - D_f(S|u) = {i in D(S) : u[i] != f(u)[i]}, D_f(T|u) = {i in D(T) : u[i] != f(u)[i]}, and
//    D_g(.|u) likewise with g.
//  - A Hamming path from a to b: a shortest path (each dimension of a XOR b crossed once).
//    Regular (Definition 1): a Hamming path u -> f(u) whose links along D(T|u) u C come before
//    those along D(S|u). The printed subscripts are damaged: RegularReading::kF reads D_f (the
//    dimensions of the path), kAsPrintedG reads D_g as printed. Aggressive (Definition 2): a
//    Hamming path u -> g(u) whose links along D_g(T|u) come before those along C u D_g(S|u).
//  - A block is an active subcube other than S; a block link joins two nodes of one block (so
//    it runs along one of the block's '*' dimensions).
//
// Dimension sets are bit masks (bit i = dimension i). Nodes are topocheck::Node of width n.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "core/subcube.h"

namespace topocheck::migration {

inline constexpr int kMaxN = 30;  // the procedure lists the nodes of S: 2^dim(S) of them

// The pair (S, T) and its four dimension sets.
struct Instance {
  Subcube S, T;
  int n = 0;
  uint64_t DS = 0, DT = 0;      // D(S), D(T)
  uint64_t I = 0, C = 0;        // I(S,T), C(S,T)
  uint64_t DSmT = 0, DTmS = 0;  // D(S)-D(T), D(T)-D(S)
  int zeta() const;             // |C(S,T)|
  int beta() const;             // |D(S)-D(T)|
  int gamma() const;            // |D(S) n D(T)|
  bool overlap() const;         // S and T share a node
};

// Errors (naming the argument): different widths, n outside 1..kMaxN, different dimensions,
// S and T sharing nodes while |C(S,T)| != 0 (impossible anyway: a C dimension separates them).
Result<Instance> make_instance(const Subcube& S, const Subcube& T);
Result<Instance> parse_instance(std::string_view S, std::string_view T);  // "0010**", "1*0*00"

// alpha as pairs (j, alpha(j)), j ascending. Text form "0:2,1:4" (j:alpha(j)).
struct Alpha {
  std::vector<std::pair<int, int>> map;
  int at(int j) const;       // alpha(j); aborts when j is not in the domain
  int inverse(int i) const;  // alpha^-1(i)
  std::string to_string() const;
  friend bool operator==(const Alpha&, const Alpha&) = default;
};
// Errors unless the pairs are a bijection D(S)-D(T) -> D(T)-D(S) of `inst`.
Result<Alpha> parse_alpha(const Instance& inst, std::string_view text);
Alpha identity_alpha(const Instance& inst);           // j-th smallest -> j-th smallest
std::vector<Alpha> all_alphas(const Instance& inst);  // beta! of them, the identity first

// Which case of the D(T)-D(S) split complements u[i]: true = the "u[a^-1(i)] = T[a^-1(i)]"
// case (the fourth printed line of f, the third of g), false = the "!=" case (the third line of
// f, the fourth of g).
struct Bars {
  bool f_complements_on_equal = true;
  bool g_complements_on_equal = false;
  static Bars paper() { return {true, false}; }  // pinned by Fig. 2 (READING.md)
  std::string to_string() const;                 // "f:=,g:!=" etc.
  // The claim reading's name: "bars-fig2" for paper(), else "bars-f{eq|ne}-g{eq|ne}".
  std::string reading_name() const;
  friend bool operator==(const Bars&, const Bars&) = default;
};
std::vector<Bars> all_bars();  // the four assignments, Bars::paper() first

Node f(const Instance& inst, const Alpha& alpha, Node u, Bars bars = Bars::paper());
Node g(const Instance& inst, const Alpha& alpha, Node u, Bars bars = Bars::paper());
Node h(const Instance& inst, Node v);  // complements D(T)-D(S)

// D_f(S|u), D_f(T|u), D_g(S|u), D_g(T|u) as masks.
struct DSets {
  uint64_t f_S = 0, f_T = 0, g_S = 0, g_T = 0;
};
DSets d_sets(const Instance& inst, const Alpha& alpha, Node u, Bars bars = Bars::paper());

// Every node of a subcube, ascending by address.
std::vector<Node> nodes_of(const Subcube& cube);
std::vector<int> dims_of(uint64_t mask);  // ascending
uint64_t mask_of(const std::vector<int>& dims);
std::string dims_to_string(uint64_t mask);  // "{1, 0}": descending, as the paper prints sets

// The dimension crossed by each hop of a path (-1 where a hop is not a hypercube edge).
std::vector<int> hop_dimensions(const Path& path);
// A Hamming path from a to b: valid hops, crossing each dimension of a XOR b exactly once.
bool is_hamming_path(const Path& path, Node a, Node b);
enum class RegularReading { kF, kAsPrintedG };
std::string to_string(RegularReading r);  // "D_f", "D_g-as-printed"
bool is_regular(const Instance& inst, const Alpha& alpha, Bars bars, RegularReading reading, const Path& path,
                Node u);
bool is_aggressive(const Instance& inst, const Alpha& alpha, Bars bars, const Path& path, Node u);
// Every Hamming path from a to b whose dimension sequence satisfies `keep` (all if null), in
// lexicographic order of dimension sequences (ascending). d! of them for d = H(a, b).
std::vector<Path> hamming_paths(Node a, Node b);
Path path_along(Node a, const std::vector<int>& dims);  // a, a^(d0), a^(d0)^(d1), ...

// Blocks: active subcubes other than S (pairwise disjoint, disjoint from S and T: see
// validate_blocks).
using Blocks = std::vector<Subcube>;
// Errors (naming the block) unless every block has width n, blocks are pairwise disjoint and
// none meets S or T.
std::optional<Error> validate_blocks(const Instance& inst, const Blocks& blocks);
Result<Blocks> parse_blocks(const Instance& inst, std::string_view text);  // "01****,1*1***"; "" = none
std::string blocks_to_string(const Blocks& blocks);
// Both ends in one block.
bool is_block_link(const Blocks& blocks, Node a, Node b);
// A link of T: both ends in T.
bool is_link_of(const Subcube& cube, Node a, Node b);

// HAMMING-PATH (cited from Chen-Lai, not given in the paper): a shortest path from a to b with
// no block link, the first in the tie-break's order of dimension sequences (depth-first, trying
// dimensions in priority order, with a dead-node memo), or nullopt when none exists.
enum class TieBreak { kAscending, kDescending };
std::string to_string(TieBreak t);  // "ascending", "descending"
std::optional<TieBreak> parse_tie_break(std::string_view s);
std::optional<Path> hamming_path(Node a, Node b, const Blocks& blocks, TieBreak tie);

// ---------------------------------------------------------------------------------------------
// The procedure of Section 4.

// Section 4.2: which node p of B the specific node q copies (one whose aggressive path's last
// link is not k), and which dimension set X its second path crosses before and after link k
// (printed "D_i(T|p)" both times).
enum class PickP { kFirst, kLast };  // smallest / largest address among the eligible p
enum class XReading { kDg, kDf };    // X = D_g(T|p) (ends at g(p)^(k) -> g(p)), or D_f(T|p)
std::string to_string(PickP p);
std::string to_string(XReading x);
// Section 4.2: the sequence q broadcasts to its B. The text lets q traverse X "(in any sequence)"
// and broadcast the sequence it used, so q may choose it after picking p. kAsGiven: the sequence
// of Params (ext_sequence / per_b_sequence), fixed before p; kXFirst / kXLast: the given
// sequence reordered, once p (hence X) is known, with X's dimensions first / last (each part in
// the given order). Every policy yields a sequence the text allows; the claims quantify over all.
enum class SequencePolicy { kAsGiven, kXFirst, kXLast };
std::string to_string(SequencePolicy s);  // "as-given", "x-first", "x-last"
std::optional<SequencePolicy> parse_sequence_policy(std::string_view s);

struct Params {
  Alpha alpha;
  Bars bars = Bars::paper();
  TieBreak tie = TieBreak::kAscending;
  // Section 4.1 Case a: the fixed dimension sequence of every h-extension z -> h(z), over
  // D(T)-D(S) (empty: ascending). Section 4.2: the sequence q broadcasts in its B; per_b, when
  // not empty, gives one per B (indexed as Procedure::b_index), overriding it.
  std::vector<int> ext_sequence;
  std::vector<std::vector<int>> per_b_sequence;
  int k = -1;  // Case b: the link k in C(S,T) (-1: the smallest dimension of C)
  PickP pick_p = PickP::kFirst;
  XReading x_reading = XReading::kDg;
  SequencePolicy seq_policy = SequencePolicy::kAsGiven;  // Section 4.2: how q orders its broadcast
  // Case a's x differs from u in D_f(T|u) u C (pinned by Fig. 2) or, as a reading, D_g(T|u) u C.
  RegularReading x_set = RegularReading::kF;
};
// Defaults for an instance: identity alpha, ascending sequence, paper bars.
Params default_params(const Instance& inst);
std::optional<Bars> parse_bars(std::string_view text);  // Bars::to_string's form, "f:=,g:!="
// The procedure's choices as text, as the CLI's flags and stored cases give them; an empty field
// keeps default_params'. Errors name the flag: --alpha, --sequence, --tie-break, --k, --pick-p,
// --x (D_g or D_f), --bars, --sequence-policy (as-given, x-first, x-last).
struct ParamsText {
  std::string alpha, sequence, tie_break, k, pick_p, x, bars, seq_policy;
};
Result<Params> parse_params(const Instance& inst, const ParamsText& text);
// A dimension sequence "2,4": errors unless it lists every dimension of D(T)-D(S) once.
Result<std::vector<int>> parse_sequence(const Instance& inst, std::string_view text);
// The sequence a node u uses for its h-extension (per_b_sequence, ext_sequence, or ascending),
// before Section 4.2's policy (the plan's BInfo::sequence is what q broadcast).
std::vector<int> sequence_for(const Instance& inst, const Params& params, Node u);
// `seq` reordered by `policy` for X (kAsGiven: unchanged).
std::vector<int> apply_sequence_policy(SequencePolicy policy, const std::vector<int>& seq, uint64_t X);

// One of the two paths of a node. `ext_begin` >= 0: nodes[ext_begin..] are the h-extension
// (Case a's f(u) -> h(f(u)), or a specific node's subpath after link k), the only part that may
// use links of T.
enum class PathKind {
  kAggressive,       // Case a: u -> w -> g(u)
  kRegularExtended,  // Case a: u -> x -> f(u), then the h-extension to g(u)
  kCaseBLast,        // Case b: HAMMING-PATH v -> g(v)^(k), then link k
  kCaseBFirst,       // Case b: link k v -> v^(k), then HAMMING-PATH to g(v)
  kSingleLink,       // Section 4.2: v -> g(v) along k
  kSpecificSecond,   // Section 4.2: q -> q^X -> (k) -> g(p) -> g(q)
};
std::string to_string(PathKind k);

struct MigrationPath {
  PathKind kind = PathKind::kAggressive;
  Path path;
  int ext_begin = -1;
};

enum class NodeCase { kSame, kCaseA, kCaseB, kSpecific };  // kSame: u = g(u), nothing to send
std::string to_string(NodeCase c);

struct NodePlan {
  Node u;
  Node target;  // g(u)
  NodeCase node_case = NodeCase::kSame;
  std::vector<MigrationPath> paths;  // 0, 1 or 2
  // Why a path is missing: HAMMING-PATH found none ("HAMMING-PATH 001011 -> 011111: none"), or
  // Section 4.2's report that q's second path is absent. Empty when nothing is missing.
  std::string missing;
  bool hamming_failed = false;  // a HAMMING-PATH call returned none
  bool second_absent = false;   // Section 4.2 reported the second path absent
};

struct Plan {
  Instance inst;
  Params params;
  Blocks blocks;
  bool section_42 = false;  // |C(S,T)| = 1
  std::vector<NodePlan> nodes;  // every node of S, ascending
  // Section 4.2: the B subcubes (S split along D(S) n D(T)), the specific node of each and the
  // sequence it broadcast.
  struct BInfo {
    Subcube cube;
    Node q;
    std::vector<int> sequence;
    std::optional<Node> p;  // the node q copied, when one was eligible
  };
  std::vector<BInfo> bs;
  nlohmann::json to_json() const;
  std::string to_text() const;
};

// The whole procedure. Preconditions: params.alpha is a bijection of inst, blocks validated
// (the boundary calls validate_blocks / parse_alpha first); violations abort.
Plan migrate(const Instance& inst, const Blocks& blocks, const Params& params);
// The same procedure with HAMMING-PATH supplied by the caller: migrate(inst, blocks, params) is
// migrate_with(inst, params, a, b -> hamming_path(a, b, blocks, params.tie)) with plan.blocks =
// blocks (here left empty). The procedure sees the blocks only through these calls; the
// exhaustive sweeps use it to run the procedure on an outcome of each call instead of on a
// packing (plan_classes.h). The calls come in a fixed order given the earlier outcomes.
using HammingPathFn = std::function<std::optional<Path>(Node a, Node b)>;
Plan migrate_with(const Instance& inst, const Params& params, const HammingPathFn& hamming_path_of);

// Section 4.2: index of the B containing u (the bits of u on D(S) n D(T), packed ascending).
uint64_t b_index(const Instance& inst, Node u);

// Section 5's latency model. Single path: (X/B)·P1 + M/B with P1 = zeta + beta; double:
// (X/B)·P2 + M/(2B) with P2 = zeta + 2·beta; X = M_c (circuit switching) or L_f (wormhole).
struct Latency {
  double single = 0, dual = 0;
  double speedup() const { return single / dual; }
  double reduction() const { return 1.0 - dual / single; }
};
Latency latency(double M, double B, double X, int zeta, int beta, double startup = 0);

}  // namespace topocheck::migration
