// `topocheck plan`: a sharded verify run laid out in a folder, for a Slurm cluster (--slurm) or this
// machine (--local), restartable shard by shard.
//
//   topocheck plan 'CLAIM-GLOB'... [--reading R] --budget deep --shards N --out DIR
//                  (--slurm [--partition P] [--time T] [--cpus C] | --local [--jobs J])
//
// DIR gets plan.json (what to run: claims, readings, budget, seed, shards, the binary and the
// corpus, absolute) and, with --slurm, array.sbatch (a job array, task i runs shard i of N and
// writes DIR/shard-i.json), merge.sbatch (merges every shard into DIR/merged.json and
// DIR/merged.xml) and submit.sh, which submits the shards still missing as one array and the merge
// with --dependency=afterok on it; plan prints the command (`bash DIR/submit.sh`). --local runs the
// missing shards here, J at a time (default: cores / --cpus), then the merge.
//
// Restartable: a shard whose report is complete (it reads back as shard i of N of this plan's
// budget and seed) is never run again; submit.sh and --local run only the missing or corrupt ones.
// Planning again into the same folder with the same plan is allowed (that is how a run resumes);
// with a different plan it is an error.
//
// The steps the scripts call (each reads DIR/plan.json):
//   plan --out DIR --run-shard I   run shard I unless complete; exit 0 when its report is complete
//   plan --out DIR --missing       the missing or corrupt shards as an sbatch --array list ("2,5-7")
//   plan --out DIR --merge         merge the shards (exit 2 naming every missing or corrupt one)
#pragma once

#include "cli/command.h"

namespace topocheck::cli {

Command add_plan_command(CLI::App& app, const Session& session);

}  // namespace topocheck::cli
