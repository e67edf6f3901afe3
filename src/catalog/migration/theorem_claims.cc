// Theorems 1 and 2 of the migration paper (000, Section 4) and its conclusion (Section 6), judged
// plan by plan over every input of the procedure (catalog/migration/theorem_sweep.h: the sweep,
// the random method and the readings): each property per situation, Theorem 1 for |C(S,T)| = 0 or
// >= 2 (Section 4.1), Theorem 2 for |C(S,T)| = 1 (Section 4.2, both readings of X); the promise to
// tell the absence of a second path, by the BFS oracle and (jointly) by Z3.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "catalog/migration/inputs.h"
#include "catalog/migration/parts.h"
#include "catalog/migration/theorem_sweep.h"
#include "claims/claim.h"
#include "migration/migration.h"

namespace topocheck::claims::migration_parts {

using migration::Disjointness;

void add_theorem_claims(Registry& registry) {
  struct Prop {
    std::string what, location, statement, check, words;
  };
  const std::vector<Prop> props = {
      {"valid", "Section 4", "Both paths of every node run from u to g(u).", "valid",
       "every path is a valid simple path of Q_n from u to g(u)"},
      {"two_paths", "Theorem {}", "Two totally disjoint paths exist between every node in S and its corresponding node in T.",
       "complete", "every node u != g(u) of S gets two paths (HAMMING-PATH may fail; Section 4.2 may report absence)"},
      {"hamming_succeeds", "Section 4 (HAMMING-PATH where the procedure calls it)",
       "HAMMING-PATH determines the Hamming paths the procedure asks for, avoiding all blocks.", "hamming-succeeds",
       "no HAMMING-PATH call of the procedure returns none"},
      {"no_block_link", "Theorem {}", "The paths contain no block link.", "no-block-link", "no hop of any path is a block link"},
      {"t_links", "Sections 4.1-4.2 (Lemmas 4, 5: only the h-extensions run inside T)",
       "No path uses a link of T except along its h-extension.", "t-links",
       "no hop joins two nodes of T before the path's extension"},
      {"length", "Section 5", "Every migration path is at most zeta + 2 beta long.", "length",
       "every path has at most |C(S,T)| + 2|D(S)-D(T)| links"},
  };
  for (int thm : {1, 2}) {
    const Situation s = thm == 1 ? Situation::k41 : Situation::k42;
    const std::string where = thm == 1 ? "|C(S,T)| = 0 or >= 2" : "|C(S,T)| = 1";
    for (const Prop& p : props) {
      if (p.what == "length" && thm == 2) continue;
      // Theorem 2's two paths are promised only under its proviso (two_paths_under_proviso below);
      // without it the claim is a question of ours, the absence the paper itself announces.
      const bool proviso_dropped = thm == 2 && p.what == "two_paths";
      registry.add(Claim::make(kPaper, fmt::format("migration.thm{}.{}", thm, p.what),
          fmt::format(fmt::runtime(p.location), thm) + (proviso_dropped ? " (beyond the paper: its proviso dropped)" : ""),
          p.statement + " (" + where + (proviso_dropped ? ", for every S, T: no proviso" : "") + ")",
          theorem_readings(s, p.check, p.words)));
    }
    {
      std::vector<Reading> rs;
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(s, "pairs-" + migration::to_string(d), d_words(d), migration::to_string(d)))
          rs.push_back(std::move(r));
      registry.add(Claim::make(kPaper, fmt::format("migration.thm{}.pair_disjoint", thm), fmt::format("Theorem {}", thm),
          "The two paths between every node in S and its corresponding node in T are totally disjoint (" + where + ").",
          std::move(rs)));
    }
    {
      std::vector<Reading> rs;
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(s, "all-" + migration::to_string(d), "paths of different nodes: " + d_words(d),
                                           migration::to_string(d)))
          rs.push_back(std::move(r));
      registry.add(Claim::make(kPaper, fmt::format("migration.thm{}.all_disjoint", thm), fmt::format("Theorem {}", thm),
          "All the paths between S and T are pairwise disjoint (" + where + ").", std::move(rs)));
    }
  }
  registry.add(Claim::make(kPaper, "migration.thm2.two_paths_under_proviso", "Theorem 2",
      "Under |C(S,T)| = 1, two totally disjoint paths exist between every node in S and its corresponding node in T, "
      "provided that not every aggressive path from B traverses link k last, for all B's.",
      theorem_readings(Situation::k42, "complete-under-proviso",
                       "whenever every B has beta > 0 and an aggressive path whose last link is not k, every node gets "
                       "two paths")));
  registry.add(Claim::make(kPaper, "migration.thm2.length", "Section 5", "Every migration path is at most zeta + 2 beta long (|C(S,T)| = 1).",
      theorem_readings(Situation::k42, "length", "every path has at most 1 + 2|D(S)-D(T)| links")));
}

void add_conclusion_claims(Registry& registry) {
  {
    std::vector<Reading> rs;
    for (Situation s : {Situation::k41, Situation::k42})
      for (Disjointness d : migration::kAllDisjointness)
        for (Reading& r : theorem_readings(
                 s, "absence-" + migration::to_string(d),
                 "whenever a node gets fewer than two paths, Boost BFS finds no block-free path from u to g(u) "
                 "disjoint (" + migration::to_string(d) + ") from every path chosen (the others fixed)",
                 fmt::format("{}-{}", s == Situation::k41 ? "4.1" : "4.2", migration::to_string(d)), Method::kOracle))
          rs.push_back(std::move(r));
    registry.add(Claim::make(kPaper, "migration.conclusion.tells_absence", "Section 6 (Concluding Remarks)",
        "The procedure identifies two migration paths from each participating node, if they exist, or otherwise tells "
        "the absence of the second migration path.",
        std::move(rs)));
  }
  {
    // Decided by Z3 only: smt/migration_smt.cc attaches the method (attach_migration_smt).
    std::vector<Reading> rs;
    for (Situation s : {Situation::k41, Situation::k42})
      for (Disjointness d : migration::kAllDisjointness) {
        Reading r;
        r.name = fmt::format("{}-{}", s == Situation::k41 ? "4.1" : "4.2", migration::to_string(d));
        r.check_case = joint_case_fn(s, d);
        r.description = fmt::format(
            "whenever the procedure leaves a node with fewer than two paths ({}), no set of two block-free paths "
            "per node, all pairwise {}-disjoint, exists at all (every path re-chosen)",
            s == Situation::k41 ? "|C| = 0 or >= 2" : "|C| = 1", migration::to_string(d));
        rs.push_back(std::move(r));
      }
    registry.add(Claim::make(kPaper, "migration.conclusion.tells_absence_jointly", "Section 6 (Concluding Remarks)",
        "The procedure identifies two migration paths from each participating node, if they exist, or otherwise tells "
        "the absence (jointly: if the procedure reports a path absent, no choice of all the paths gives every node "
        "two).",
        std::move(rs)));
  }
}

}  // namespace topocheck::claims::migration_parts
