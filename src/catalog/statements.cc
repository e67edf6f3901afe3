// The statements of the five papers and their uses (statements.h), read from the OCR text in
// papers/, and the validation of any such list against a registry.
#include "catalog/statements.h"

#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topocheck::claims {
namespace {

// One use with its quote: written side by side so that the two lists of a Statement cannot drift.
struct Use {
  std::string id;
  std::string quote;
};

Statement statement(std::string id, std::string label, std::string location, std::string summary,
                    std::vector<Use> uses, std::vector<std::string> claims) {
  Statement s{std::move(id), std::move(label), std::move(location), std::move(summary), {}, {},
              std::move(claims)};
  for (Use& use : uses) {
    s.uses.push_back(std::move(use.id));
    s.evidence.push_back(std::move(use.quote));
  }
  return s;
}

// Paper 000, Chen and Tzeng. Lemmas 1-6 are stated without proof ("Their proofs are omitted
// here"); their only uses are the path kinds and the isomorphism they are stated in terms of.
std::vector<Statement> migration_statements() {
  const std::string kPathKinds =
      R"(Essential properties of aggressive paths and regular paths (specified in Definition 1) are characterized below.)";
  const std::string kThm1Lemmas =
      R"(Further, all aggressive paths so constructed are pairwise totally disjoint, based on Lemmas 1, 2, 3, 4, and 5.)";
  const std::string kDisjointAssumption =
      R"(there is no blocking time or queuing delay for each path, since all the migration paths are pairwise disjoint.)";
  return {
      statement("migration.isomorphism_f", "Isomorphism f", "Section 2.2 (Chen and Lai [3])",
                "Chen and Lai's isomorphism f from S to T; the Hamming distance between u and f(u) is exactly "
                "|C(S,T)| + |D(S) - D(T)|.",
                {}, {"migration.iso.f", "migration.iso.distance"}),
      statement("migration.definition1", "Definition 1", "Section 2.2",
                "A regular path: a Hamming path from u to f(u) taking the dimensions in D(T|u) and C(S,T) before "
                "those in D(S|u).",
                {{"migration.isomorphism_f", R"(A *Hamming path* between $u \in S$ and $f(u) \in T$ is regular)"}},
                {}),
      statement("migration.equation1", "Equation (1)", "Section 3.1",
                "Isomorphism g from S to T: f with its two cases on D(T) - D(S) exchanged.", {},
                {"migration.iso.g"}),
      statement("migration.definition2", "Definition 2", "Section 3.1",
                "An aggressive path: a Hamming path from u to g(u) taking the dimensions in D_g(T|u) before those "
                "in C(S,T) and D_g(S|u).",
                {{"migration.equation1", R"(A *Hamming path* between $u \in S$ and $g(u) \in T$ is aggressive)"}},
                {}),
      statement("migration.equation2", "Equation (2)", "Section 3.1",
                "Isomorphism h from T to T complementing the bits in D(T) - D(S); g(u) = h(f(u)) for every u in S.",
                {{"migration.isomorphism_f", R"(It is obvious that for any node u in S , $g(u) = h(f(u))$.)"},
                 {"migration.equation1", R"(It is obvious that for any node u in S , $g(u) = h(f(u))$.)"}},
                {"migration.iso.g_is_h_of_f"}),
      statement("migration.lemma1", "Lemma 1", "Section 3.2",
                "Aggressive paths from two nodes u and v of S to g(u) and g(v) are totally disjoint.",
                {{"migration.definition2", kPathKinds}}, {"migration.lemma1.aggressive_disjoint"}),
      statement("migration.lemma2", "Lemma 2", "Section 3.2",
                "With D_f(S|u) nonempty, a regular path from u to f(u) and an aggressive path from v to g(v) are "
                "totally disjoint.",
                {{"migration.definition1", kPathKinds}, {"migration.definition2", kPathKinds}},
                {"migration.lemma2.regular_aggressive_disjoint"}),
      statement("migration.lemma3", "Lemma 3", "Section 3.2",
                "Paths from u to h(u) and from v to h(v) in T along D(T) - D(S) in the same sequence are totally "
                "disjoint.",
                {{"migration.equation2", R"(one from u to $h(u)$ and the other from v to $h(v)$, are totally disjoint.)"}},
                {"migration.lemma3.h_paths_disjoint"}),
      statement("migration.lemma4", "Lemma 4", "Section 3.2",
                "With D_f(S|u) nonempty, no regular path from u to f(u) traverses a link of T.",
                {{"migration.definition1", kPathKinds}}, {"migration.lemma4.regular_avoids_t"}),
      statement("migration.lemma5", "Lemma 5", "Section 3.2",
                "No aggressive path from u to g(u) traverses a link of T.", {{"migration.definition2", kPathKinds}},
                {"migration.lemma5.aggressive_avoids_t"}),
      statement("migration.lemma6", "Lemma 6", "Section 3.2",
                "With D_f(S|u) nonempty and u' differing from u in exactly D(T) - D(S), a Hamming path from u to u' "
                "and an aggressive path from v to g(v) are totally disjoint.",
                {{"migration.definition2", kPathKinds}}, {"migration.lemma6.hamming_aggressive_disjoint"}),
      statement("migration.hamming_path", "HAMMING-PATH", "Section 4 (Chen and Lai [3])",
                "Chen and Lai's algorithm: a Hamming path between two nodes avoiding all block links, in "
                "O(n^2 |Xi|) time.",
                {}, {"migration.hamming.any_pair"}),
      statement("migration.section4_1", "Procedure of Section 4.1", "Section 4.1 (|C(S,T)| = 0 or >= 2)",
                "Case a) (D_f(S|u) nonempty): an aggressive path through w and a regular path through x extended "
                "from f(u) to g(u) by h; Case b): two aggressive paths, one taking link k first, the other last.",
                {{"migration.hamming_path",
                  R"(A Hamming path from u to w and another from $g(u)$ to w are determined by HAMMING-PATH)"},
                 {"migration.definition1",
                  R"(Concatenating the two paths results in a regular path from u to $f(u)$, based on Definition 1.)"},
                 {"migration.definition2", R"(which is an aggressive path, according to Definition 2)"},
                 {"migration.equation1", R"(Based on the last three situations of (1))"},
                 {"migration.equation2", R"(This is done by making use of isomorphism h .)"},
                 {"migration.lemma2",
                  R"(According to Lemma 2, the constructed aggressive path and regular path are totally disjoint.)"},
                 {"migration.lemma3", R"(so all these created paths are totally disjoint, based on Lemma 3.)"},
                 {"migration.lemma4",
                  R"(The resulting path is totally disjoint with the aggressive path $\Lambda^a(u, g(u))$, according to Lemmas 4 and 5)"},
                 {"migration.lemma5",
                  R"(The resulting path is totally disjoint with the aggressive path $\Lambda^a(u, g(u))$, according to Lemmas 4 and 5)"}},
                {"migration.thm1.valid", "migration.thm1.hamming_succeeds", "migration.thm1.t_links"}),
      statement("migration.theorem1", "Theorem 1", "Section 4.1",
                "Under |C(S,T)| = 0 or >= 2, two totally disjoint paths without block links join every node of S "
                "to its corresponding node in T, and all the paths between S and T are pairwise disjoint.",
                {{"migration.section4_1", R"(We thus arrive at the next theorem.)"},
                 {"migration.lemma1", kThm1Lemmas},
                 {"migration.lemma2", kThm1Lemmas},
                 {"migration.lemma3", kThm1Lemmas},
                 {"migration.lemma4", kThm1Lemmas},
                 {"migration.lemma5", kThm1Lemmas}},
                {"migration.thm1.two_paths", "migration.thm1.no_block_link", "migration.thm1.pair_disjoint",
                 "migration.thm1.all_disjoint"}),
      statement("migration.fig2", "Fig. 2 example", "Section 4.1",
                "S = 0010**, T = 1*0*00, alpha(0) = 2, alpha(1) = 4, sequence 2, 4: the printed images and "
                "migration paths of u = 001011 (Case a) and v = 001000 (Case b).",
                {{"migration.section4_1", R"(An example of this situation is demonstrated in Fig. 2)"}},
                {"migration.fig2.paths"}),
      statement("migration.specific_nodes", "Specific nodes", "Section 4.2",
                "S is partitioned into 2^beta beta-dimensional subcubes B along D(S) n D(T); each B has exactly one "
                "node q with D_f(S|q) empty; there are 2^beta specific nodes in S.",
                {}, {"migration.sec42.specific_nodes"}),
      statement("migration.section4_2", "Procedure of Section 4.2", "Section 4.2 (|C(S,T)| = 1)",
                "Aggressive paths as in Case a), the single link k for nodes with D_f(S|v) empty, and second paths "
                "extended by h along the dimension sequence each specific node decides and broadcasts in its B.",
                {{"migration.section4_1",
                  R"(A node u satisfying $D_A(S|u) \neq \emptyset$ follows the same way as above for Case a) to establish an aggressive path between u and $g(u)$.)"},
                 {"migration.specific_nodes",
                  R"(Node q is a specific node, which decides the dimension sequence for all the nodes inside B .)"},
                 {"migration.hamming_path", R"(the subpath (determined by HAMMING-PATH))"},
                 {"migration.lemma6", R"(which is disjoint with any aggressive path according to Lemma 6.)"}},
                {"migration.thm2.valid", "migration.thm2.hamming_succeeds", "migration.thm2.t_links"}),
      statement("migration.theorem2", "Theorem 2", "Section 4.2",
                "Under |C(S,T)| = 1, two totally disjoint paths without block links join every node of S to its "
                "corresponding node in T, provided that not every aggressive path from B traverses link k last, "
                "for all B's; all the paths between S and T are pairwise disjoint.",
                {{"migration.section4_2", R"(The next theorem follows immediately.)"}},
                {"migration.thm2.no_block_link", "migration.thm2.pair_disjoint", "migration.thm2.all_disjoint",
                 "migration.thm2.two_paths_under_proviso"}),
      statement("migration.section5_length", "Path length zeta + 2 beta", "Section 5",
                "With two disjoint paths per node the longest migration path is zeta + 2 beta long (zeta = "
                "|C(S,T)|, beta = |D(S) - D(T)|).",
                {}, {"migration.thm1.length", "migration.thm2.length"}),
      statement("migration.section5_1", "Section 5.1 (circuit switching)", "Section 5.1",
                "Double disjoint paths reduce the communication latency by almost 50%.",
                {{"migration.section5_length",
                  R"(where P equals $\zeta + 2\beta$, which is the length of the longest paths between S and T)"},
                 {"migration.theorem1", kDisjointAssumption},
                 {"migration.theorem2", kDisjointAssumption}},
                {"migration.sec5.reduction"}),
      statement("migration.section5_2", "Section 5.2 (wormhole routing)", "Section 5.2",
                "Double disjoint paths give a speedup factor of roughly 2.",
                {{"migration.section5_length",
                  R"(the network latency is given by $(L_f/B)P + M/(2B)$, where P equals $\zeta + 2\beta$)"},
                 {"migration.theorem1", kDisjointAssumption},
                 {"migration.theorem2", kDisjointAssumption}},
                {"migration.sec5.speedup"}),
      statement("migration.section6", "Concluding remarks", "Section 6",
                "The procedure identifies two migration paths from each participating node if they exist, or "
                "otherwise tells the absence of the second migration path.",
                {{"migration.section4_1",
                  R"(Our procedure for determining migration paths can be carried out at each participating node in a distributed manner)"},
                 {"migration.section4_2", R"(except for one situation where message exchanges are necessary.)"}},
                {"migration.conclusion.tells_absence", "migration.conclusion.tells_absence_jointly"}),
  };
}

// Paper 001, Raghupathy, Leuze and Schach: no numbered statements; one node per section's
// statement. Section 4's results are measured with the simulator of Section 3 on every
// combination of the Section 1-2 techniques.
std::vector<Statement> routing_statements() {
  const std::string kSimulator = R"(Results obtained using the simulator are given in section 4.)";
  const std::string kCombinations =
      R"(All possible combinations of routing scheme (static or dynamic), link (one bidirectional link or two unidirectional links), and prioritization scheme (see Figure 1) were simulated)";
  return {
      statement("routing.section1_static", "Static routing", "Section 1",
                "Static (e-cube) routing: each hop flips the rightmost bit in which the current node and the "
                "destination differ; at most n hops.",
                {}, {"hypercube.ecube.shortest", "routing.sec1.static_ecube"}),
      statement("routing.section1_deadlock", "Deadlock set aside", "Section 1",
                "\"we ignore the problem of deadlock caused by full message buffers [3]\" (Dally and Seitz: "
                "dimension-ordered routing is deadlock-free).",
                {}, {"hypercube.ecube.deadlock_free", "routing.sec1.finite_buffers_deadlock_free"}),
      statement("routing.section2_dynamic", "Dynamic routing", "Section 2",
                "If the static next hop is blocked, another dimension in which the message must still travel is "
                "tried; a message is blocked only when all of them are in use.",
                {{"routing.section1_static",
                  R"(if the next hop (as determined by the static routing algorithm) is blocked, then an attempt is made to send the message along a different route to its destination.)"}},
                {"routing.sec2.dynamic_minimal", "routing.sec2.blocked_only_when_busy"}),
      statement("routing.section2_priority", "Prioritization schemes", "Section 2; Figure 2",
                "Schemes A-K: priority by remaining or original hops, by the sequence number of the originating "
                "process, by generation or arrival time, or none.",
                {}, {}),
      statement("routing.section2_links", "Link types", "Section 2",
                "One bidirectional link, or two unidirectional links, one in each direction, between neighbours.",
                {}, {"routing.sec2.link_capacity"}),
      statement("routing.section3_simulator", "The simulator", "Section 3",
                "Store-and-forward cycles of message generation, ordering (by the scheme, ties broken by a seeded "
                "shuffle) and routing, one hop per message per cycle.",
                {{"routing.section1_static",
                  R"(If static routing is being used, and the predetermined link is in use, then that particular message is blocked.)"},
                 {"routing.section2_dynamic",
                  R"(When dynamic routing is used, an attempt is made to transmit the message over the first unused link that will move it closer to its destination.)"},
                 {"routing.section2_priority",
                  R"(the messages in each buffer are ordered according to the prioritization scheme currently being evaluated)"}},
                {"routing.sim.delivered_once", "routing.sim.processes_complete", "routing.sec3.one_hop_per_cycle",
                 "routing.sec3.priority_order", "routing.sec3.deterministic"}),
      statement("routing.section4_dynamic", "Dynamic against static routing", "Section 4 (Figures 3-4, lost); Abstract",
                "Dynamic routing performs better than static routing, at best by a factor of two.",
                {{"routing.section3_simulator", kSimulator},
                 {"routing.section1_static", kCombinations},
                 {"routing.section2_dynamic", kCombinations}},
                {"routing.sec4.dynamic_faster", "routing.sec4.factor_two"}),
      statement("routing.section4_priority", "Best prioritization scheme", "Section 4",
                "The best results come with Scheme E (lowest sequence number), almost as good with Schemes A and C "
                "(fewest hops).",
                {{"routing.section3_simulator", kSimulator}, {"routing.section2_priority", kCombinations}},
                {"routing.sec4.scheme_e_best"}),
      statement("routing.section4_links", "Two unidirectional links", "Section 4 (Figure 5, lost); Section 5",
                "Two unidirectional links improve throughput over one bidirectional link, rarely by more than "
                "fifteen per cent.",
                {{"routing.section3_simulator", kSimulator}, {"routing.section2_links", kCombinations}},
                {"routing.sec4.uni_gain"}),
  };
}

// Paper 002, Liu's NSC report: no section numbers and no proofs; the contention-free part builds
// the circular order on Lemma 4 and Theorem 5 on the order.
std::vector<Statement> itm_statements() {
  return {
      statement("itm.lemma1", "Lemma 1", "after the ITM definition",
                "An ITM is planar, has 2|V| - 3 edges, and every cycle has a chord joining two of its nodes at "
                "distance 2.",
                {}, {"itm.lemma1.planar", "itm.lemma1.edges", "itm.lemma1.cycle_chord"}),
      statement("itm.theorem2", "Theorem 2", "after Lemma 1; Abstract",
                "Any routing discipline that takes the shortest path is deadlock-free in an ITM (the Abstract: "
                "under wormhole switching).",
                {}, {"itm.thm2.deadlock_free", "wormhole.thm2.deadlock_free"}),
      statement("itm.theorem3", "Theorem 3", "after Theorem 2",
                "A graph has a spanning ITM subgraph if and only if it is Hamiltonian and totally triangulated for "
                "some Hamiltonian cycle.",
                {}, {"itm.thm3.if", "itm.thm3.only_if"}),
      statement("itm.lemma4", "Lemma 4", "contention-free section",
                "An n node ITM has n exterior edges, n - 3 interior edges and n - 2 facets; its exterior edges form "
                "a simple cycle through every node.",
                {}, {"itm.lemma4.counts", "itm.lemma4.cycle"}),
      statement("itm.circular_order", "Circular order", "contention-free section, before Theorem 5; Abstract",
                "The nodes enumerated along the cycle of Lemma 4 define a circular order (the Abstract: a circular "
                "order with the contention-free property for every ITM).",
                {{"itm.lemma4", R"(From Lemma 4 we know that all the nodes in G form a simple cycle in G .)"}},
                {"itm.order.exists"}),
      statement("itm.theorem5", "Theorem 5", "contention-free section",
                "Two independent messages (w -> x, y -> z with w < x < y < z in the circular order) never traverse "
                "the same edge in the same direction under shortest path routing.",
                {{"itm.circular_order",
                  R"(The two messages m and m_0 are independent if and only if $w < x < y < z$ in the circular order defined earlier.)"}},
                {"itm.thm5.contention_free"}),
      statement("itm.broadcast", "Contention-free broadcast and multicast", "contention-free section; Abstract",
                "Recursive broadcast over the circular order (send to the middle of the list, recurse on both "
                "halves) is contention-free.",
                {{"itm.theorem5",
                  R"(Using this property we can design simple contention-free recursive algorithms for broadcast and multicast)"}},
                {"itm.broadcast.contention_free", "wormhole.broadcast.contention_free"}),
      statement("itm.experiments", "Experimental results", "Abstract",
                "Initial experiments show ITM gives better throughput than up-down routing (no data printed).", {},
                {"wormhole.abstract.throughput_vs_updown"}),
  };
}

// Paper 003, Li, Peng and Chu; with the hypercube Algorithms 2-3 and Table 1 that Algorithm 4 and
// Theorem 2's proof build on.
std::vector<Statement> metacube_statements() {
  const std::string kFollowing = R"(Following the algorithm, the proof is divided into three cases.)";
  return {
      statement("metacube.section2_links", "Links of MC(k, m)", "Section 2",
                "Cube-edges flip a bit of the field M[c] selected by a node's class c; cross-edges flip a bit of "
                "the class field.",
                {}, {"metacube.symmetry.automorphism"}),
      statement("metacube.lemma1", "Lemma 1", "Section 2 (from [7])",
                "A weak-Hamiltonian path joins any two nodes of an n-cube.", {}, {}),
      statement("metacube.algorithm1", "Algorithm 1", "Section 2",
                "Point-to-point routing p1: along a weak-Hamiltonian class path from c_s to c_t, set each field M[u] "
                "to M_t[u] by cube-edges; at most 2^k + H_h(s,t) long.",
                {{"metacube.lemma1", R"(The following lemma [7] is needed for the routing algorithm.)"}},
                {"metacube.alg1.route"}),
      statement("metacube.theorem1", "Theorem 1", "Section 2",
                "d(s,t) <= H(s,t) - H_k(s,t) + 2^k, d_avg <= (n-k)/2 + 2^k, and the diameter of MC(k,m) is "
                "2^k(m+1).",
                {{"metacube.algorithm1",
                  R"(From the algorithm, the longest length of the routing path is $2^k + H_h(s, t)$)"}},
                {"metacube.thm1.distance", "metacube.thm1.diameter", "metacube.thm1.average"}),
      statement("metacube.cube_path_lengths", "Lengths of the n disjoint paths", "Section 3, before Algorithm 2",
                "Of the n disjoint paths Z_i = (x^(i) -> y) in an n-cube, d are d - 1 long and n - d are d + 1 long "
                "(d = |x XOR y|).",
                {}, {"hypercube.alg2.lengths"}),
      statement("metacube.algorithm3", "Algorithm 3", "Section 3",
                "p3(n, i, x, y): from x, flip the bits of x XOR y in the dimension order i+1, i+2, ... (mod n).", {},
                {}),
      statement("metacube.algorithm2", "Algorithm 2", "Section 3",
                "CubeDisjointPaths(n, x, y): the n disjoint paths Z_i from x^(i) to y in an n-cube.",
                {{"metacube.algorithm3", R"(p3( $n, i, v, y$ );)"}},
                {"hypercube.alg2.disjoint", "hypercube.connectivity"}),
      statement("metacube.table1", "Table 1", "Section 3",
                "The 3 disjoint paths in a 3-cube from x = 000 to every y (y = x included).",
                {{"metacube.algorithm2",
                  R"(In a 3-cube, let $x = 000$, 3 disjoint paths for every y are shown in Table 1.)"}},
                {"hypercube.table1"}),
      statement("metacube.algorithm4", "Algorithm 4", "Section 3",
                "MetacubeDisjointPaths(k, m, s, t): k + m paths from s to t in three cases (C_s = C_t; C_s != C_t "
                "and c_s = c_t; c_s != c_t), made disjoint by key-bit signatures.",
                {{"metacube.algorithm1",
                  R"($p1(k, m, u, v)$ gets a path from node u to node v in an $MC(k, m)$ by calling Algorithm 1)"},
                 {"metacube.algorithm2",
                  R"(The algorithm 2 can be used for constructing k or m disjoint paths ($u \rightarrow v$) in $MC(k, m)$ as follows.)"},
                 {"metacube.algorithm3",
                  R"($p3(n, i, u, v)$ gets a path containing cross-edges only, from node u to node v in an $MC(k, m)$ by calling Algorithm 3.)"}},
                {"metacube.symmetry.alg4_commutes"}),
      statement("metacube.examples", "Examples 1-5 (Tables 2-5)", "Sections 2-3",
                "The printed examples: neighbours in MC(2,3), node 56 of MC(2,2), Example 1's route and next(s) = "
                "10, Examples 2-5 with Tables 2-5 and their longest lengths.",
                {{"metacube.algorithm1",
                  R"(The weak-Hamiltonian path for $(c_s \rightarrow c_t)$ in the high-level 2-cube is a Hamiltonian cycle)"},
                 {"metacube.algorithm4", R"(Since $C_s = C_t$, we construct the paths by **case 0**.)"}},
                {"metacube.examples"}),
      statement("metacube.theorem2_case_lengths", "Proof of Theorem 2 (lengths by case)",
                "Section 3, proof of Theorem 2 (last paragraph)",
                "The longest path is H(s,t) + 6 in case 0, H(s,t) + 2^k + 4 in case 1, and H(s,t) + 2^k + 4 + "
                "max|Z_i| <= H(s,t) + 2^k + m + 5 in case 2.",
                {{"metacube.algorithm4", kFollowing}},
                {"metacube.thm2.case_bound", "metacube.thm2.proof.case0_length", "metacube.thm2.proof.case1_length",
                 "metacube.thm2.proof.case2_length", "metacube.thm2.proof.combined"}),
      statement("metacube.theorem2", "Theorem 2", "Section 3",
                "Between any two distinct nodes of MC(k,m), k + m disjoint paths, found in O(log^2 p) time, at most "
                "H(s,t) + 2^k + m + 5 long.",
                {{"metacube.algorithm4", kFollowing},
                 {"metacube.algorithm2",
                  R"(The second parts of the paths $P_i, 0 \leq i \leq k-1$, contain only the cross-edges that are identical to the disjoint class paths Z_i , they are also disjoint.)"},
                 {"metacube.theorem2_case_lengths",
                  R"(the longest length of the paths $(s \rightarrow t)$ in the third case is $H(s,t) + 2^k + 4 + \max_{0 \leq i \leq k-1} \{ |Z_i| \} \leq H(s,t) + 2^k + m + 5$)"}},
                {"metacube.thm2.valid", "metacube.thm2.disjoint", "metacube.thm2.length", "metacube.thm2.optimality",
                 "metacube.connectivity"}),
      statement("metacube.fault_tolerance", "Fault tolerance", "Abstract; Section 4",
                "Any two nonfaulty nodes of MC(k,m) with up to k + m - 1 faulty nodes are joined by a fault-free "
                "path.",
                {{"metacube.theorem2",
                  R"(The result implies that a fault-free path between any two nonfaulty nodes can be found in an $MC(k, m)$ with up to $m+k-1$ faulty nodes.)"},
                 {"metacube.algorithm4",
                  R"(From the disjoint paths algorithm, any two nonfaulty nodes in a metacube with up to $k+m-1$ faulty nodes can be connected by a faulty-free path)"}},
                {"metacube.thm2.fault_tolerance"}),
  };
}

// Paper 004, Masuyama and Masuyama. Properties 1-3 are quoted from Park and Bose without proof.
// Algorithms A_2 and A_f divide Q_n as the paragraph after Property 3 describes but do not cite
// it, so no edge joins them.
std::vector<Statement> aapc_statements() {
  const std::string kAboveTwo =
      R"(Properties 2 and 3 show how each of these faulty PS is coupled with a nonfaulty PS. ... By the guarantee of the above 2 properties)";
  return {
      statement("aapc.example1", "Example 1", "Section 2",
                "Q_4 divided along dimensions 0 and 2 gives the Q_2s {0,1,4,5}, {2,3,6,7}, {8,9,12,13}, "
                "{10,11,14,15}; nodes 0 and 8 can be corresponding nodes in two Q_3s.",
                {}, {"aapc.example1.partner_sets"}),
      statement("aapc.property1", "Property 1", "Section 2 (Park and Bose [4])",
                "A Q_n with f <= floor(n/2) faulty nodes can be partitioned into (n - f + 1)-dimensional subcubes "
                "with at most one faulty node in each PS.",
                {}, {"aapc.prop1.partition"}),
      statement("aapc.property1_more", "After Property 1 (one more dimension)", "Section 2",
                "Partitioned along one more dimension outside the distinguishing bits of the faulty addresses, each "
                "PS still holds at most one faulty node.",
                {{"aapc.property1",
                  R"(If the $Q_n$ is partitioned along one more dimension that is not part of the distinguishing bits of the faulty node address bits, each PS still contains at most one faulty node.)"}},
                {"aapc.prop1.one_more_dimension"}),
      statement("aapc.property2", "Property 2", "Section 2 (Park and Bose [4])",
                "With f <= n faulty nodes some dimension d gives every faulty node a unique nonfaulty neighbour "
                "along d.",
                {}, {"aapc.prop2.dimension", "aapc.prop2.bound_tight"}),
      statement("aapc.property3", "Property 3", "Section 2 (Park and Bose [4])",
                "A Q_n with f <= floor(n/2) faulty nodes divided along any f dimensions: each faulty PS has a "
                "unique perfect PS adjacent to it.",
                {}, {"aapc.prop3.perfect_partner"}),
      statement("aapc.section2_subcubes", "After Property 3 (the Q_{f+1}s)", "Section 2",
                "By the above two properties, 2^(n-(f+1)) Q_{f+1}s can be built, 2^(f+1) of them faulty (as "
                "printed) and the rest nonfaulty.",
                {{"aapc.property2", kAboveTwo}, {"aapc.property3", kAboveTwo}}, {"aapc.sec2.af_precondition"}),
      statement("aapc.algorithm_a1", "Algorithm A_1", "Section 3.1.1",
                "AAPC in a Q_n with a single faulty node, in five steps through the nonfaulty half Q_{n-1}.", {},
                {"aapc.a1.delivers"}),
      statement("aapc.q3_example", "The Q_3 example", "Section 3.1.1, after Step 5",
                "Q_3 divided along dimension 2: the data on the link between nodes 0 and 4 in Steps 1, 4 and 5.",
                {{"aapc.algorithm_a1",
                  R"(in 3-dimensional hypercube applied this algorithm when $Q_3$ is divided along the 2-nd dimension)"}},
                {"aapc.q3.link_0_4", "aapc.q3.which_fault"}),
      statement("aapc.optimal_aapc", "Optimal AAPC", "Section 3.1.2",
                "An optimal AAPC algorithm for a nonfaulty Q_n requires 2^n - 1 time units.", {},
                {"aapc.sec312.optimum"}),
      statement("aapc.a1_time", "Time units of A_1", "Section 3.1.2",
                "A_1 takes 2^(n-1) + (2^(n-1) - 1) + (2^(n-1) - 1) + 2^(n-1) + 2^(n-1) = 5*2^(n-1) - 2 time units.",
                {{"aapc.optimal_aapc",
                  R"(Note that an optimal AAPC algorithm for a nonfaulty $Q_n$ requires $2^n - 1$ time units. Then, the amount of time units required for $A_1$)"},
                 {"aapc.algorithm_a1",
                  R"(the amount of time units required for $A_1$ in the case of a single fault is the sum of $2^{n-1}$ in Step 1)"}},
                {"aapc.a1.units", "aapc.a1.proof.step_sum"}),
      statement("aapc.algorithm_a2", "Algorithm A_2", "Section 3.2.1",
                "AAPC with two faulty nodes: Phase 1 runs A_1 in the two faulty Q_{n-1}s; Phase 2 distributes the "
                "data of n_1 and n_2 and exchanges the rest along d.",
                {{"aapc.algorithm_a1",
                  R"(**(Phase 1)** Using algorithm $A_1$ , perform AAPC each for $Q_{n-1}^1$ and $Q_{n-1}^2$ .)"}},
                {"aapc.a2.delivers", "aapc.a2.defined"}),
      statement("aapc.example2", "Example 2", "Section 3.2.1 (Fig. 1, lost)",
                "Q_4 divided along dimensions 0 and 2: d = 3, n_1 = 1 and n_2 = 14 in Phase 2.",
                {{"aapc.algorithm_a2",
                  R"(Figure 1 shows an example of 4-dimensional hypercube applied this algorithm)"}},
                {"aapc.example2.faults"}),
      statement("aapc.a2_time", "Time units of A_2", "Section 3.2.2",
                "A_2 takes 5*2^(n-1) + n - 1 time units.",
                {{"aapc.a1_time",
                  R"(Note that total $5 \cdot 2^{n-1} - 2$ time units are given above to algorithm $A_1$ in the case of a single fault.)"},
                 {"aapc.algorithm_a2",
                  R"(the amount of time units required in the case of double fault is the sum of $5 \cdot 2^{n-1} + n - 1$)"}},
                {"aapc.a2.units"}),
      statement("aapc.algorithm_af", "Algorithm A_f", "Section 3.3.1",
                "AAPC with f faulty nodes: Phase 1 runs A_1 in the f faulty Q_{f+1}s (AAPC in the others); Phase 2 "
                "distributes the data of the faults' partners and exchanges the rest among the Q_{f+1}s.",
                {{"aapc.algorithm_a1",
                  R"(**(Phase 1)** Using algorithm $A_1$ , perform AAPC each for $f$ faulty $Q_{f+1}^j$ s.)"},
                 {"aapc.algorithm_a2", R"(Let us generalize $A_2$ into the case of $f$ faults.)"}},
                {"aapc.af.delivers"}),
      statement("aapc.af_time", "Time units of A_f", "Section 3.3.2",
                "Phase 1 takes 5*2^f - 2 and Step 2 of Phase 2 (5*2^f - 2)(2^(n-(f+1)) - 1): in all "
                "(5*2^f - 2)*2^(n-(f+1)) = 2^(n-1)(5 - 2^(1-f)), Step 1 of Phase 2 ignored.",
                {{"aapc.algorithm_af",
                  R"(the amount of time units required for $A_f$ in the case of an $f$ -multi fault is)"}},
                {"aapc.af.units", "aapc.af.identity", "aapc.af.proof.phase_sum", "aapc.af.consistent_with_a2"}),
  };
}

// The problems of one paper's uses graph: Boost's topological_sort decides acyclicity; on a cycle,
// strong_components names every statement that lies on one. Self-uses are reported by the caller.
void check_acyclic(const PaperStatements& paper, const std::map<std::string, size_t>& index_in_paper,
                   std::vector<std::string>& problems) {
  using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Digraph g(paper.statements.size());
  for (size_t v = 0; v < paper.statements.size(); ++v) {
    for (const std::string& use : paper.statements[v].uses) {
      const auto u = index_in_paper.find(use);
      if (u == index_in_paper.end() || u->second == v) continue;  // reported elsewhere
      boost::add_edge(u->second, v, g);
    }
  }
  std::vector<size_t> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));
    return;
  } catch (const boost::not_a_dag&) {
  }
  std::vector<int> component(paper.statements.size());
  const int count = boost::strong_components(g, component.data());
  std::vector<int> size(static_cast<size_t>(count), 0);
  for (int c : component) ++size[static_cast<size_t>(c)];
  std::vector<std::string> on_cycle;
  for (size_t v = 0; v < paper.statements.size(); ++v)
    if (size[static_cast<size_t>(component[v])] > 1) on_cycle.push_back(paper.statements[v].id);
  problems.push_back(fmt::format("{}: the uses form a cycle through {}", paper.paper, fmt::join(on_cycle, ", ")));
}

}  // namespace

const std::vector<PaperStatements>& paper_statements() {
  static const std::vector<PaperStatements> papers{
      {"000_545b7be81ce3b031.txt", migration_statements()},
      {"001_2708c2cd1c088815.txt", routing_statements()},
      {"002_5e7910d99423ef9d.txt", itm_statements()},
      {"003_870397c57c58895c.txt", metacube_statements()},
      {"004_d7c0ed59f63b519b.txt", aapc_statements()},
  };
  return papers;
}

const std::vector<Statement>* statements_of_paper(std::string_view paper) {
  for (const PaperStatements& p : paper_statements())
    if (p.paper == paper) return &p.statements;
  return nullptr;
}

std::vector<std::string> validate_statements(const std::vector<PaperStatements>& papers,
                                             const Registry& registry) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> paper_of_statement;  // statement id -> its paper
  std::set<std::string> papers_seen;
  for (const PaperStatements& paper : papers) {
    if (!papers_seen.insert(paper.paper).second) problems.push_back(fmt::format("{}: listed twice", paper.paper));
    for (const Statement& s : paper.statements) {
      if (!paper_of_statement.emplace(s.id, paper.paper).second)
        problems.push_back(fmt::format("{}: statement id used twice", s.id));
    }
  }

  std::map<std::string, std::string> statement_of_claim;  // claim id -> the statement naming it
  for (const PaperStatements& paper : papers) {
    std::map<std::string, size_t> index_in_paper;
    for (size_t i = 0; i < paper.statements.size(); ++i) index_in_paper.emplace(paper.statements[i].id, i);
    for (const Statement& s : paper.statements) {
      if (s.id.empty() || s.label.empty() || s.location.empty() || s.summary.empty())
        problems.push_back(fmt::format("{}: id, label, location and summary must all be given", s.id));
      if (s.evidence.size() != s.uses.size())
        problems.push_back(fmt::format("{}: {} uses but {} evidence quotes", s.id, s.uses.size(), s.evidence.size()));
      for (const std::string& quote : s.evidence)
        if (quote.empty()) problems.push_back(fmt::format("{}: an empty evidence quote", s.id));
      std::set<std::string> uses_seen;
      for (const std::string& use : s.uses) {
        if (!uses_seen.insert(use).second) problems.push_back(fmt::format("{}: uses {} twice", s.id, use));
        const auto found = paper_of_statement.find(use);
        if (use == s.id)
          problems.push_back(fmt::format("{}: uses itself", s.id));
        else if (found == paper_of_statement.end())
          problems.push_back(fmt::format("{}: uses unknown statement {}", s.id, use));
        else if (found->second != paper.paper)
          problems.push_back(fmt::format("{}: uses {}, a statement of another paper ({})", s.id, use, found->second));
      }
      for (const std::string& id : s.claims) {
        const Claim* claim = registry.find(id);
        if (!claim) {
          problems.push_back(fmt::format("{}: names unknown claim {}", s.id, id));
          continue;
        }
        if (claim->paper != paper.paper)
          problems.push_back(fmt::format("{}: names claim {} of another paper ({})", s.id, id, claim->paper));
        const auto [named, first] = statement_of_claim.emplace(id, s.id);
        if (!first) problems.push_back(fmt::format("claim {} is named by both {} and {}", id, named->second, s.id));
      }
    }
    check_acyclic(paper, index_in_paper, problems);
  }

  for (const Claim& claim : registry.claims()) {
    if (!claim.beyond_paper && !statement_of_claim.contains(claim.id))
      problems.push_back(fmt::format("claim {} ({}) is under no statement", claim.id, claim.paper));
  }
  return problems;
}

}  // namespace topocheck::claims
