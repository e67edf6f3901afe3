#include "cli/search_external.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>

#include "check/paths.h"
#include "cli/app.h"
#include "cli/output.h"
#include "core/output_file.h"
#include "hypercube/hypercube_gen.h"
#include "metacube/metacube_gen.h"

namespace topocheck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxProgramOutput = size_t{64} << 20;

// ---- Running the program -------------------------------------------------------------------

struct ProgramRun {
  int status = 0;  // waitpid's
  bool timed_out = false, too_much = false;
  std::string out, err;
};

// PROGRAM under /bin/sh -c with `input` on stdin; stdout and stderr collected; killed at `timeout`
// seconds or past kMaxProgramOutput bytes. nullopt when no process could be started.
std::optional<ProgramRun> run_program(const std::string& program, const std::string& input, double timeout) {
  int in[2], out[2], err[2];
  if (pipe(in) != 0) return std::nullopt;
  if (pipe(out) != 0 || pipe(err) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    setpgid(0, 0);  // its own process group: a timeout kills the shell and what it started
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    execl("/bin/sh", "sh", "-c", program.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  ProgramRun run;
  // The input is a few hundred bytes: it fits the pipe, so this write does not wait for the
  // program. A program that never reads it gets EPIPE, ignored (SIGPIPE is ignored by the caller).
  for (size_t done = 0; done < input.size();) {
    const ssize_t n = write(in[1], input.data() + done, input.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(in[1]);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      run.timed_out = true;
      break;
    }
    const int ready = poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
    if (run.out.size() + run.err.size() > kMaxProgramOutput) {
      run.too_much = true;
      break;
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  if (run.timed_out || run.too_much) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  while (waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
  return run;
}

std::string first_line(const std::string& text) {
  const size_t start = text.find_first_not_of(" \n\r\t");
  if (start == std::string::npos) return "";
  const size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// ---- Inputs --------------------------------------------------------------------------------

struct ExternalInput {
  std::string topology;  // "hypercube:3", "metacube:1,2"
  Node s, t;

  json to_json() const { return {{"topology", topology}, {"s", s.to_string()}, {"t", t.to_string()}}; }
};

Result<rc::Gen<ExternalInput>> input_gen(const std::string& topology) {
  const size_t colon = topology.find(':');
  const std::string family = topology.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : topology.substr(colon + 1);
  auto number = [](const std::string& text, int lo, int hi) -> std::optional<int> {
    try {
      size_t used = 0;
      const int v = std::stoi(text, &used);
      if (used != text.size() || v < lo || v > hi) return std::nullopt;
      return v;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  if (family == "hypercube") {
    const auto n = number(rest, 1, 20);
    if (!n) return invalid_argument(fmt::format("--topology: '{}': hypercube:N needs N in 1..20", topology));
    return rc::gen::map(rc::gen::suchThat(hypercube::gen::cube_pair(*n), [](const hypercube::CubePair& c) { return c.x != c.y; }),
                        [](const hypercube::CubePair& c) { return ExternalInput{fmt::format("hypercube:{}", c.n), c.x, c.y}; });
  }
  if (family == "metacube") {
    const size_t comma = rest.find(',');
    const auto k = number(rest.substr(0, comma), 1, 5);
    const auto m = comma == std::string::npos ? std::nullopt : number(rest.substr(comma + 1), 1, 63);
    if (!k || !m || *m * (1 << *k) + *k > 20)
      return invalid_argument(fmt::format("--topology: '{}': metacube:K,M needs K in 1..5, M >= 1 and at most 20 address bits", topology));
    return rc::gen::map(metacube::gen::metacube_pair(*m * (1 << *k) + *k, *k), [](const metacube::McPair& c) {
      return ExternalInput{fmt::format("metacube:{},{}", c.k, c.m), c.s, c.t};
    });
  }
  return invalid_argument(fmt::format("--topology: '{}' is not hypercube:N or metacube:K,M", topology));
}

// ---- Judging one input ---------------------------------------------------------------------

struct Failure {
  std::string check, words;
  json output;  // the program's output (null when it gave none)
};

class Judge {
 public:
  Judge(const ExternalSearchArgs& args, std::set<std::string> counted) : args_(args), counted_(std::move(counted)) {}

  // nullopt: the program's paths pass every counted check. Sets `unrunnable` when the shell could
  // not run the program at all (exit 126 / 127 on the first input).
  std::optional<Failure> operator()(const ExternalInput& in) {
    ++runs_;
    const auto run = run_program(args_.program, in.to_json().dump() + "\n", args_.timeout);
    if (!run) return Failure{"program", "could not be started (fork or pipe failed)", nullptr};
    const std::string err = first_line(run->err);
    const std::string said = err.empty() ? "" : fmt::format(" (stderr: {})", err);
    if (run->timed_out) return Failure{"program", fmt::format("no answer within {} s; killed", args_.timeout), nullptr};
    if (run->too_much) return Failure{"program", fmt::format("wrote more than {} bytes; killed", kMaxProgramOutput), nullptr};
    if (WIFSIGNALED(run->status))
      return Failure{"program", fmt::format("killed by signal {}{}", WTERMSIG(run->status), said), nullptr};
    const int code = WEXITSTATUS(run->status);
    if (runs_ == 1 && (code == 126 || code == 127)) unrunnable_ = fmt::format("exit {}{}", code, said);
    if (code != 0) return Failure{"program", fmt::format("exit status {}{}", code, said), nullptr};
    json output;
    try {
      output = json::parse(run->out);
    } catch (const json::exception& e) {
      return Failure{"program", fmt::format("its output is not JSON: {}", e.what()), nullptr};
    }
    if (!output.is_object() || !output.contains("paths"))
      return Failure{"program", "its output is not an object with \"paths\"", output};
    json file = in.to_json();
    file["paths"] = output.at("paths");
    file["disjoint"] = args_.disjoint;
    if (args_.max_length >= 0) file["max_length"] = args_.max_length;
    if (args_.fault_tolerance) file["fault_tolerance"] = true;
    const std::string text = file.dump(1);
    auto paths = check::paths_from_json(file, text, "output");
    if (!paths) return Failure{"program", fmt::format("its paths are not paths of {}: {}", in.topology, paths.error().message), output};
    const check::CheckReport report = check::judge_paths(*paths, &cache_);
    for (const check::CheckLine& l : report.lines)
      if (l.verdict == "violated" && (counted_.empty() || counted_.count(l.check))) return Failure{l.check, l.words, output};
    return std::nullopt;
  }

  const std::optional<std::string>& unrunnable() const { return unrunnable_; }
  uint64_t runs() const { return runs_; }

 private:
  const ExternalSearchArgs& args_;
  std::set<std::string> counted_;
  check::OptimumCache cache_;
  uint64_t runs_ = 0;
  std::optional<std::string> unrunnable_;
};

// ---- The corpus ----------------------------------------------------------------------------

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A case with the program's paths is a `check paths` file (.json); one where the program gave
// none (it crashed, timed out, wrote no paths) keeps its input in a .crash file of the same form.
fs::path case_path(const fs::path& dir, const ExternalInput& in, bool with_paths) {
  return dir / fmt::format("external-{:016x}.{}", fnv1a(in.to_json().dump()), with_paths ? "json" : "crash");
}

struct Stored {
  fs::path file;
  ExternalInput input;
};

// The stored counterexamples of DIR: its *.json files with an "origin". A file that is not one is
// skipped; an origin file whose input is unreadable is an error naming it.
Result<std::vector<Stored>> load_stored(const fs::path& dir) {
  std::vector<Stored> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return invalid_argument(fmt::format("--corpus {}: not a folder", dir.string()));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".crash"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    json j;
    try {
      std::ifstream in(f);
      j = json::parse(in);
    } catch (const json::exception&) {
      continue;
    }
    if (!j.is_object() || !j.contains("origin")) continue;
    // The input alone (a .crash file has no paths): topology, s and t read as a paths file reads them.
    if (!j.contains("topology") || !j.at("topology").is_string() || !j.contains("s") || !j.contains("t"))
      return parse_error("a stored counterexample needs topology (a string), s and t", f.string());
    const json probe = {{"topology", j.at("topology")}, {"s", j.at("s")}, {"t", j.at("t")},
                        {"paths", json::array({json::array({j.at("s")})})}};
    auto paths = check::paths_from_json(probe, probe.dump(1), f.string());
    if (!paths) return paths.error();
    out.push_back({f, ExternalInput{j.at("topology").get<std::string>(), paths->s, paths->t}});
  }
  return out;
}

}  // namespace

int cmd_search_external(const ExternalSearchArgs& args, const fs::path& corpus_dir) {
  if (args.program.empty()) return usage_error("--external: an empty program");
  if (args.save && corpus_dir.empty())
    return usage_error("--save: with --external, give the folder of your corpus: topocheck --corpus DIR search --external ...");
  std::error_code ec;
  if (args.save && !corpus_dir.empty() && fs::exists(corpus_dir / "ledger.json", ec))
    return usage_error(fmt::format("--corpus {}: the suite's corpus of claims (it has ledger.json); with --external give a folder of your own",
                                   corpus_dir.string()));
  static const std::set<std::string> kChecks = {"program", "valid", "simple", "disjoint", "max_length", "fault_tolerance", "optimum"};
  std::set<std::string> counted;
  if (!args.checks.empty()) {
    std::stringstream list(args.checks);
    for (std::string c; std::getline(list, c, ',');) {
      if (!kChecks.count(c))
        return usage_error(fmt::format("--checks: '{}' is not one of program, valid, simple, disjoint, max_length, fault_tolerance, optimum", c));
      counted.insert(c);
    }
    counted.insert("program");  // a crash always counts
  }
  if (args.disjoint != "node" && args.disjoint != "link" && args.disjoint != "directed-link" && args.disjoint != "none")
    return usage_error(fmt::format("--disjoint: '{}' is not node, link, directed-link or none", args.disjoint));
  auto gen = input_gen(args.topology);
  if (!gen) return usage_error(gen.error().message);
  if (auto e = check_output_path("--json", args.json_file)) return report_error(*e);
  std::vector<Stored> stored;
  if (!corpus_dir.empty()) {
    auto loaded = load_stored(corpus_dir);
    if (!loaded) return report_error(loaded.error());
    stored = std::move(*loaded);
  }
  signal(SIGPIPE, SIG_IGN);

  Judge judge(args, counted);
  json report = {{"program", args.program}, {"topology", args.topology}, {"seed", args.seed}};
  std::string text;
  bool failing = false;
  // The stored counterexamples first.
  json replayed = json::array();
  // The banner (seed, sizes) once the program is known to run: an unrunnable program is one line.
  bool announced = false;
  auto announce = [&] {
    if (announced) return;
    announced = true;
    std::fprintf(stderr, "topocheck search --external: %s on %s (up to), seed %llu, %d cases, %.0f s\n", args.program.c_str(),
                 args.topology.c_str(), static_cast<unsigned long long>(args.seed), args.cases, args.seconds);
  };
  for (const Stored& s : stored) {
    const auto f = judge(s.input);
    if (judge.unrunnable()) return usage_error(fmt::format("--external: '{}' could not be run: {}", args.program, *judge.unrunnable()));
    announce();
    failing = failing || f.has_value();
    text += fmt::format("stored {}: {}\n", s.file.string(), f ? fmt::format("still fails: {}: {}", f->check, f->words) : "now passes");
    replayed.push_back({{"file", s.file.string()}, {"input", s.input.to_json()}, {"verdict", f ? "fails" : "passes"},
                        {"check", f ? json(f->check) : json(nullptr)}, {"words", f ? json(f->words) : json(nullptr)}});
  }
  report["stored"] = replayed;

  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(args.seconds));
  const bool tty = isatty(STDERR_FILENO) != 0;
  int tried = 0;
  std::optional<rc::Shrinkable<ExternalInput>> found;
  std::optional<Failure> failure;
  int found_case = -1;
  for (int k = 0; k < args.cases && Clock::now() < deadline; ++k) {
    rc::Shrinkable<ExternalInput> current = (*gen)(rc::Random(args.seed + static_cast<uint64_t>(k)), k % 100);
    ++tried;
    if (tty) std::fprintf(stderr, "case %d/%d\r", k + 1, args.cases);
    auto f = judge(current.value());
    if (judge.unrunnable()) return usage_error(fmt::format("--external: '{}' could not be run: {}", args.program, *judge.unrunnable()));
    announce();
    if (!f) continue;
    // Greedy shrinking: the first shrink that still fails, until none does (time limit aside).
    for (bool progressed = true; progressed && Clock::now() < deadline;) {
      progressed = false;
      auto shrinks = current.shrinks();
      while (auto next = shrinks.next()) {
        if (auto g = judge(next->value())) {
          current = *next;
          f = g;
          progressed = true;
          break;
        }
      }
    }
    found = current;
    failure = f;
    found_case = k;
    break;
  }
  if (tty) std::fprintf(stderr, "%30s\r", "");
  report["cases"] = tried;
  report["program_runs"] = judge.runs();
  if (!found) {
    text += fmt::format("no counterexample: {} case(s) of {}, seed {}, the program ran {} time(s){}\n", tried, args.topology,
                        args.seed, judge.runs(), tried < args.cases ? " (stopped at the time limit)" : "");
    report["verdict"] = failing ? "stored cases fail" : "no counterexample";
  } else {
    failing = true;
    const ExternalInput& in = found->value();
    const bool with_paths = failure->check != "program";
    const fs::path file = corpus_dir.empty() ? fs::path() : case_path(corpus_dir, in, with_paths);
    const bool known = !file.empty() && std::any_of(stored.begin(), stored.end(), [&](const Stored& s) { return s.file == file; });
    text += fmt::format("counterexample (case {} of seed {}, shrunk; the program ran {} time(s)){}:\n  input:  {}\n  output: {}\n  {}: violated: {}\n",
                        found_case, args.seed, judge.runs(), known ? "; already in the corpus" : "",
                        in.to_json().dump(), failure->output.is_null() ? "(none)" : failure->output.dump(), failure->check,
                        failure->words);
    report["verdict"] = "counterexample";
    report["counterexample"] = {{"input", in.to_json()}, {"output", failure->output}, {"check", failure->check},
                                {"words", failure->words}, {"case", found_case}};
    if (args.save && !known) {
      json c = in.to_json();
      c["kind"] = "paths";
      if (with_paths) c["paths"] = failure->output.at("paths");
      c["disjoint"] = args.disjoint;
      if (args.max_length >= 0) c["max_length"] = args.max_length;
      if (args.fault_tolerance) c["fault_tolerance"] = true;
      c["origin"] = {{"program", args.program}, {"seed", args.seed}, {"case", found_case},
                     {"check", failure->check}, {"words", failure->words}};
      auto w = write_file(file, c.dump(1) + "\n");
      if (!w) return report_error(w.error());
      text += fmt::format("saved {}\n", w->string());
      report["saved"] = w->string();
    }
  }
  if (!args.json_file.empty() && !write_output("--json", args.json_file, report.dump(1) + "\n")) return kExitUsage;
  if (!write_output("stdout", "-", text)) return kExitUsage;
  return failing ? kExitDiffers : kExitOk;
}

}  // namespace topocheck::cli
