// `topocheck search --external PROGRAM`: a counterexample hunt for a user's own path construction.
//
// PROGRAM (run by /bin/sh -c, so it may carry arguments) reads one JSON object on stdin,
//   {"topology": "hypercube:3", "s": "000", "t": "011"}      (or "metacube:1,2", node bit strings)
// and writes one on stdout, {"paths": [["000", "001", "011"], ...]}, within --timeout seconds. Its
// output is judged as `check paths` judges a file with that topology, s, t and paths, under the
// settings given here (--disjoint, --max-length, --fault-tolerance): every check it reports counts,
// unless --checks names the ones that do. A program that exits non-zero, is killed, runs out of
// time or writes no valid output has failed on that input (the `program` check): a crash is a bug
// of the construction too.
//
// Inputs come from topocheck's generators (hypercube::gen::cube_pair, metacube::gen::metacube_pair)
// with s != t: --topology hypercube:N draws Q_1..Q_N, metacube:K,M every MC(k,m) with k <= K and
// no wider than MC(K,M). Case i uses rc::Random(seed + i) and size i % 100, as the `random`
// method does; a failing input is shrunk greedily (the first shrink that still fails, until none
// does), so the reported input is small: a smaller cube, fewer differing bits.
//
// Corpus (--corpus DIR, the global option, given explicitly): its *.json files that carry an
// "origin" are stored counterexamples. They are replayed through PROGRAM first (each still failing
// is reported); --save stores a new counterexample there as a `check paths` file (its topology, s,
// t, the program's paths and the settings), with "origin": {program, seed, case}, so that
// `check paths --batch DIR` judges them again too. A file name is the input's hash: one per input.
//
// Exit: 0 no failure (stored or new), 1 a counterexample (new or stored still failing), 2 bad usage
// (the program cannot be run at all: exit 126/127 of the shell on the first input).
#pragma once

#include <filesystem>
#include <string>

namespace topocheck::cli {

struct ExternalSearchArgs {
  std::string program;
  std::string topology = "hypercube:8";
  std::string disjoint = "node";
  int max_length = -1;  // -1: none
  bool fault_tolerance = false;
  std::string checks;  // comma-separated; empty: all
  int cases = 100;
  double seconds = 60;
  double timeout = 10;
  uint64_t seed = 1;
  bool save = false;
  std::string json_file;
};

// `corpus_dir` empty: no --corpus given (then --save is refused).
int cmd_search_external(const ExternalSearchArgs& args, const std::filesystem::path& corpus_dir);

}  // namespace topocheck::cli
