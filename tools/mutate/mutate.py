#!/usr/bin/python3
"""topocheck's mutation tool (README.md here).

  mutate.py schemata --root SRC --build BUILD --out DIR FILE...
      find the mutation sites of each FILE (relative to SRC), write its mutant schemata to
      DIR/FILE and its sites to DIR/FILE.sites.json; sites the compiler rejects (a run-time switch
      in a constant expression, a type a replacement does not fit) are dropped, and counted.
  mutate.py run --build BUILD [--set sample|all] [--count N | --every] [--seed S] [--jobs J]
                [--json FILE] [--only ID...] [--strict] [--resume] [--recheck-reviewed]
      run the gate of every chosen mutant (its family's tests, replay, verify --budget quick),
      each against the twin binaries of BUILD/mutate/bin (TOPOCHECK_MUTANT=id), then print the
      table and write the report. Exit 0 when every mutant ran and no survivor is unreviewed in a
      sample run (--count, small); 1 when a sample mutant survives unreviewed; 2 on bad input.

Mutants are chosen by a seeded shuffle (the seed is printed), passing over those reviewed.json
argues equivalent (the report lists them; --recheck-reviewed runs them too); the report names every
survivor with file:line and its diff. Survivors argued equivalent are listed in reviewed.json with
the argument.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.realpath(os.path.join(HERE, "..", ".."))  # the source tree
sys.path.insert(0, HERE)


def fail_usage(msg: str):
    print(f"mutate: error: {msg}", file=sys.stderr)
    sys.exit(2)


def load_targets() -> dict:
    with open(os.path.join(HERE, "targets.json")) as f:
        return json.load(f)


# ---- schemata -------------------------------------------------------------------------------
def compile_command(build: str, root: str, rel: str) -> list[str]:
    path = os.path.join(build, "compile_commands.json")
    try:
        with open(path) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        fail_usage(f"{path}: {e} (configure the build first)")
    want = os.path.realpath(os.path.join(root, rel))
    for e in entries:
        if os.path.realpath(os.path.join(e["directory"], e["file"])) == want:
            cmd = e.get("arguments") or shlex.split(e["command"])
            return cmd, e["directory"]
    fail_usage(f"{rel}: not in {path}")


def syntax_command(cmd: list[str], source: str, root: str) -> list[str]:
    out = [cmd[0]]
    skip = False
    for a in cmd[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a.endswith((".cc", ".cpp")):
            continue
        if a.startswith("-O"):
            continue
        out.append(a)
    return out + ["-I" + root, "-O0", "-w", "-fsyntax-only", source]


def cmd_schemata(args):
    import schemata as sch
    for rel in args.files:
        src_path = os.path.join(args.root, rel)
        if not os.path.isfile(src_path):
            fail_usage(f"{rel}: no such file under {args.root}")
        cmd, cwd = compile_command(args.build, args.root, rel)
        parse_args = ["-x", "c++"] + [a for a in cmd[1:] if a.startswith(("-I", "-D", "-std", "-isystem"))]
        # -isystem takes its folder as the next argument
        it = iter(cmd[1:])
        parse_args = ["-x", "c++"]
        for a in it:
            if a == "-isystem":
                parse_args += [a, next(it, "")]
            elif a.startswith(("-I", "-D", "-std=")):
                parse_args.append(a)
        t0 = time.time()
        sites = sch.find_sites(src_path, rel, parse_args)
        with open(src_path, "rb") as f:
            src = f.read()
        out_path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(out_path), exist_ok=True)
        dropped = []
        for attempt in range(12):
            text, spans = sch.render(src, sites)
            tmp = out_path + ".check.cc"
            with open(tmp, "w") as f:
                f.write(text)
            bad = sch.compile_errors(syntax_command(cmd, tmp, args.root), tmp)
            if bad is None:
                os.unlink(tmp)
                break
            # drop the sites of the narrowest group on each rejected line
            drop = set()
            for line in bad:
                covering = [(b - a, sid) for sid, (a, b) in spans.items() if a <= line <= b]
                if covering:
                    width = min(w for w, _ in covering)
                    drop |= {sid for w, sid in covering if w == width}
            if not drop:
                raise SystemExit(f"mutate: {rel}: the schemata do not compile at lines {bad}, outside every site")
            dropped += [s for s in sites if s.id in drop]
            sites = [s for s in sites if s.id not in drop]
        else:
            raise SystemExit(f"mutate: {rel}: the schemata still do not compile after 12 rounds")
        # write atomically: the build depends on these files
        with open(out_path + ".tmp", "w") as f:
            f.write(text)
        os.replace(out_path + ".tmp", out_path)
        with open(out_path + ".sites.json.tmp", "w") as f:
            json.dump({"file": rel, "sites": [s.to_json(rel) for s in sites],
                       "dropped": [s.to_json(rel) for s in dropped]}, f, indent=1)
        os.replace(out_path + ".sites.json.tmp", out_path + ".sites.json")
        print(f"mutate: {rel}: {len(sites)} mutants ({len(dropped)} sites dropped: not compilable), "
              f"{time.time() - t0:.1f} s", file=sys.stderr)


# ---- running the gate -----------------------------------------------------------------------
def ctest_tests(build: str) -> list[dict]:
    p = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True)
    if p.returncode != 0:
        fail_usage(f"ctest --show-only in {build}: {p.stderr.strip()}")
    data = json.loads(p.stdout)
    tests = []
    for t in data.get("tests", []):
        props = {pr["name"]: pr["value"] for pr in t.get("properties", [])}
        tests.append({"name": t["name"], "command": t.get("command") or [],
                      "env": props.get("ENVIRONMENT", []), "labels": props.get("LABELS", []),
                      "cwd": props.get("WORKING_DIRECTORY", build)})
    return tests


class Gate:
    """The steps one mutant runs, each a command on the twin binaries."""

    def __init__(self, build: str, targets: dict, corpus: str, seed: int):
        self.build = os.path.realpath(build)
        self.seed = seed
        self.bin = os.path.join(self.build, "mutate", "bin")
        self.targets = targets
        self.corpus = corpus
        self.tests = ctest_tests(self.build)
        self.topocheck = os.path.join(self.build, "topocheck")
        self.twin_topocheck = os.path.join(self.bin, "topocheck_mutant")
        if not os.path.isfile(self.twin_topocheck):
            fail_usage(f"{self.twin_topocheck}: no twin binary (build the mutate targets first)")
        self.corpus_steps = self.make_corpus_steps()

    def twin(self, path: str) -> str | None:
        name = os.path.basename(path)
        cand = os.path.join(self.bin, name + "_mutant")
        return cand if os.path.isfile(cand) else None

    # ctest entries a mutant is not run through: the opt-in runs, the sample itself, and the two
    # corpus entries that make_corpus_steps splits into one step per case file and per claim.
    SKIP_LABELS = ("deep", "fuzz_long", "bench", "mutation", "mutation_sample")
    SPLIT = ("corpus_replay", "verify_quick")

    def steps(self) -> list[tuple[str, list[str], dict, str]]:
        """Every gating ctest entry whose command runs a twin (a twin test binary, or `topocheck` as
        the program or an argument of a script), then the corpus steps. A mutant of any file is
        judged by the whole gate; the baseline's reach trace then prunes each mutant's steps to
        those that evaluate its site."""
        steps = []
        for t in self.tests:
            if t["name"] in self.SPLIT or any(lb in self.SKIP_LABELS for lb in t["labels"]):
                continue
            cmd = list(t["command"])
            if not cmd:
                continue
            tw = self.twin(cmd[0])
            replaced = False
            if tw:
                cmd[0] = tw
                replaced = True
            for i, a in enumerate(cmd):
                if os.path.realpath(a) == os.path.realpath(self.topocheck) if os.path.isabs(a) else False:
                    cmd[i] = self.twin_topocheck
                    replaced = True
            if not replaced:
                continue  # a test that runs no twin cannot see the mutant
            env = dict(kv.split("=", 1) for kv in t["env"] if "=" in kv)
            # ctest runs a test in the build folder of the CMakeLists.txt that declared it: for a
            # test binary, its own folder; for a script entry, the build root.
            orig = t["command"][0]
            cwd = t["cwd"] if t["cwd"] != self.build else (
                os.path.dirname(orig) if tw and os.path.realpath(orig).startswith(self.build + os.sep) else self.build)
            steps.append((t["name"], cmd, env, cwd))
        # Every twin test binary must be run by some step. ctest lists a test without its command
        # when the original executable is not built, and such a test would silently drop out of
        # every mutant's gate.
        used = {os.path.basename(cmd[0]) for _, cmd, _, _ in steps}
        unused = sorted(f for f in os.listdir(self.bin)
                        if f.endswith("_mutant") and f != "topocheck_mutant" and f not in used)
        if unused:
            fail_usage(f"no gating ctest entry runs the twin(s) {', '.join(unused)} in {self.bin}: their "
                       f"original executables are not built (build tc_mutate_twins, which builds them)")
        return steps + self.corpus_steps

    def make_corpus_steps(self) -> list[tuple[str, list[str], dict, str]]:
        """replay and verify --budget quick, split so that a mutant runs only the parts that reach it:
        one replay per corpus case file, one verify per claim (each compared with the ledger as the
        whole run compares it: a claim's verdict does not depend on the other claims)."""
        tc = self.twin_topocheck
        steps = []
        for dirpath, dirs, files in os.walk(self.corpus):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".json") and os.path.join(dirpath, f) != os.path.join(self.corpus, "ledger.json"):
                    rel = os.path.relpath(os.path.join(dirpath, f), self.corpus)
                    steps.append((f"replay {rel}", [tc, "--corpus", self.corpus, "replay",
                                                    os.path.join(dirpath, f)], {}, self.build))
        p = subprocess.run([self.topocheck, "--corpus", self.corpus, "list", "--json"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail_usage(f"topocheck list --json: {p.stderr.strip()}")
        claims = sorted({row["id"] for row in json.loads(p.stdout)})
        for c in claims:
            steps.append((f"verify {c}", [tc, "--corpus", self.corpus, "verify", c, "--budget", "quick",
                                          "--jobs", "1"], {}, self.build))
        return steps

    def fingerprint(self, steps) -> str:
        """What a baseline depends on: the binaries the steps run (size and modification time), the
        corpus and every file of the source tree (data the tests read), the steps' commands and
        environments, and the seed."""
        h = hashlib.sha256()
        files = set()
        for name, cmd, env, cwd in sorted(steps, key=lambda st: st[0]):
            h.update(json.dumps([name, cmd, sorted(env.items()), cwd]).encode())
            files.update(a for a in cmd if os.path.isabs(a) and os.path.isfile(a))
        for top in (self.corpus, ROOT):
            for dirpath, dirs, names in os.walk(top):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build")) and d != "__pycache__")
                files.update(os.path.join(dirpath, n) for n in names)
        for path in sorted(files):
            st = os.stat(path)
            h.update(f"{path} {st.st_size} {st.st_mtime_ns}".encode())
        h.update(f"seed {self.seed}".encode())
        return h.hexdigest()

    def run_step(self, step, mutant_id: int | None, timeout: float, trace: str | None = None):
        name, cmd, env, cwd = step
        e = dict(os.environ)
        e.pop("TOPOCHECK_MUTANT_TRACE", None)
        e.update(env)
        # Properties run with the run's seed (unless RC_PARAMS names one), so that a step reaches
        # the same sites with and without the mutant.
        if "seed=" not in e.get("RC_PARAMS", ""):
            e["RC_PARAMS"] = (e.get("RC_PARAMS", "") + f" seed={self.seed}").strip()
        e["TOPOCHECK_CORPUS"] = self.corpus
        if mutant_id is None:
            e.pop("TOPOCHECK_MUTANT", None)
        else:
            e["TOPOCHECK_MUTANT"] = str(mutant_id)
        if trace is not None:
            e["TOPOCHECK_MUTANT_TRACE"] = trace
        t0 = time.time()
        # Its own process group, so that a timeout ends the whole tree (a script and its topocheck).
        p = subprocess.Popen(cmd, cwd=cwd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            _, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.communicate()
            return "timeout", time.time() - t0, [f"no result within {timeout:.0f} s"]
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # nothing of the step outlives it
            except (ProcessLookupError, PermissionError):
                pass
        rc = p.returncode
        tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
        dt = time.time() - t0
        if rc == 0:
            return "pass", dt, []
        if rc < 0:
            return "crash", dt, [f"signal {-rc}"] + tail
        return "fail", dt, [f"exit {rc}"] + tail


def choose(sites: list[dict], count: int | None, seed: int, known_equivalent=lambda s: False):
    """The first COUNT sites of a seeded shuffle (every site when COUNT is None), passing over the
    sites reviewed.json argues equivalent: those cannot be killed, so running them only spends the
    run's time, and the draw goes on until COUNT mutants that can be are chosen. Returns the chosen
    sites and the equivalent ones passed over (run them with --recheck-reviewed)."""
    rng = random.Random(seed)
    order = sorted(sites, key=lambda s: s["id"])
    rng.shuffle(order)
    chosen, passed = [], []
    for s in order:
        if count is not None and len(chosen) == count:
            break
        (passed if known_equivalent(s) else chosen).append(s)
    return chosen, passed


_lines_cache: dict = {}


def site_position(s: dict) -> tuple[str, int]:
    """Where a site is, in a form that survives edits elsewhere in its file: the text of its line
    (stripped) and its column counted from the line's first non-blank character. A run stores both
    in each mutant of its report (line_text, text_column), so that a saved report is matched by
    the text it was run on, not by the line that now has its number."""
    if "line_text" in s and "text_column" in s:
        return s["line_text"], s["text_column"]
    rel = s["file"]
    if rel not in _lines_cache:
        try:
            with open(os.path.join(ROOT, rel)) as f:
                _lines_cache[rel] = f.read().splitlines()
        except OSError:
            _lines_cache[rel] = []
    lines = _lines_cache[rel]
    if not 1 <= s["line"] <= len(lines):
        return "", -1
    line = lines[s["line"] - 1]
    indent = len(line) - len(line.lstrip())
    return line.strip(), s["column"] - 1 - indent


REVIEW_FIELDS = ("file", "function", "operator", "original", "mutated", "line_text", "column", "verdict", "argument")


def reviewed_index() -> dict:
    """reviewed.json by site: file, function, operator, original and mutated text, and the site's
    position (its line's text and its column within that text). The same text mutated twice on
    different lines, or twice on one line, is two entries: one argument never covers another site."""
    path = os.path.join(HERE, "reviewed.json")
    with open(path) as f:
        data = json.load(f)
    index = {}
    for n, r in enumerate(data["mutants"]):
        for key in REVIEW_FIELDS:
            if key not in r:
                fail_usage(f"{path}: entry {n} ({r.get('file', '?')}) has no '{key}'")
        if r["verdict"] not in ("equivalent", "accepted"):
            fail_usage(f"{path}: entry {n}: verdict '{r['verdict']}' is not equivalent or accepted")
        k = (r["file"], r["function"], r["operator"], r["original"], r["mutated"], r["line_text"], r["column"])
        if k in index:
            fail_usage(f"{path}: entry {n} repeats an earlier entry's site")
        index[k] = r
    return index


def site_key(s: dict):
    return (s["file"], s["function"], s["operator"], s["original"], s["mutated"]) + site_position(s)


def apply_review(r: dict, reviewed: dict):
    """Marks a survivor with its entry of reviewed.json (and drops a mark an older list gave it)."""
    r.pop("reviewed", None)
    rv = reviewed.get(site_key(r))
    if r["status"] == "survived" and rv:
        r["reviewed"] = {"verdict": rv["verdict"], "argument": rv["argument"]}


def stale_reviews(reviewed: dict, sites: list[dict], files) -> list[dict]:
    """Entries of the files in the set that match no site (the code changed): to review again."""
    present = {site_key(s) for s in sites}
    return [r for k, r in reviewed.items() if r["file"] in files and k not in present]


def cmd_run(args):
    targets = load_targets()
    build = os.path.realpath(args.build)
    sch_dir = os.path.join(build, "mutate", "schemata")
    files = targets["sample"] if args.set == "sample" else sorted(targets["files"])
    sites = []
    for rel in files:
        p = os.path.join(sch_dir, rel + ".sites.json")
        if not os.path.isfile(p):
            fail_usage(f"{p}: missing (configure with -DTOPOCHECK_MUTATE_SET={args.set} and build)")
        with open(p) as f:
            sites += json.load(f)["sites"]
    if args.only:
        want = set(args.only)
        chosen = [s for s in sites if s["id"] in want]
        if len(chosen) != len(want):
            fail_usage(f"--only: unknown mutant id(s) {sorted(want - {s['id'] for s in chosen})}")
    reviewed = reviewed_index()
    passed = []
    if not args.only:
        equivalent = (lambda s: False) if args.recheck_reviewed else \
            (lambda s: reviewed.get(site_key(s), {}).get("verdict") == "equivalent")
        chosen, passed = choose(sites, None if args.every else args.count, args.seed, equivalent)
    for s in chosen:
        s["line_text"], s["text_column"] = site_position(s)
    corpus = os.path.realpath(args.corpus or os.environ.get("TOPOCHECK_CORPUS") or os.path.join(ROOT, "corpus"))
    gate = Gate(build, targets, corpus, args.seed)
    for r in stale_reviews(reviewed, sites, set(files)):
        print(f"mutate: warning: reviewed.json: no site matches {r['file']} ({r['function']}) "
              f"'{r['line_text']}' column {r['column']}: the code changed, review it again", file=sys.stderr)
    print(f"mutate: {len(chosen)} of {len(sites)} mutants ({args.set} set, seed {args.seed}), "
          f"{args.jobs} at a time", file=sys.stderr)
    if passed:
        print(f"mutate: {len(passed)} mutants drawn before them are reviewed equivalent and not run "
              f"(--recheck-reviewed runs them)", file=sys.stderr)

    # Baseline: every step passes with no mutant on; its time sets the step's timeout, and its reach
    # trace (tc_mutant.h) the sites it evaluates. A step that never evaluates a site runs as the
    # original program with that mutant on, so it cannot kill it and is not run for it.
    t_start = time.time()
    steps = gate.steps()
    unique = {st[0]: st for st in steps}
    key = gate.fingerprint(list(unique.values()))
    cache_path = os.path.join(build, "mutate", "baseline.json")
    baseline, reach = load_baseline(cache_path, key, set(unique))
    if baseline is not None:
        print(f"mutate: baseline of {len(unique)} steps reused from {cache_path} (same binaries, corpus, "
              f"steps and seed)", file=sys.stderr)
    else:
        baseline, reach = run_baseline(gate, unique, args.jobs)
        write(cache_path, json.dumps({"key": key, "seconds": baseline,
                                      "reach": {k: sorted(v) for k, v in reach.items()}}) + "\n")
    # Cheapest step first (each mutant then puts its own family's tests before the other costly
    # steps, step_order): a mutant is killed by whichever step fails, so the order changes only the time.
    steps.sort(key=lambda st: baseline[st[0]])
    print(f"mutate: baseline gate passes: {len(unique)} steps, {sum(baseline.values()):.0f} s of steps, "
          f"{time.time() - t_start:.0f} s", file=sys.stderr)
    # Every finished mutant is appended to PROGRESS (JSON lines, first line the run's identity), so
    # that a run cut short is resumed with --resume: mutants already judged on the same binaries and
    # corpus are not run again.
    progress_path = (args.json + ".progress") if args.json and args.json != "-" else \
        os.path.join(build, "mutate", f"progress-{args.set}-{args.seed}.jsonl")
    identity = {"key": key, "set": args.set, "seed": args.seed}
    done_before = load_progress(progress_path, identity) if args.resume else {}
    if done_before:
        print(f"mutate: {sum(1 for s in chosen if s['id'] in done_before)} mutants resumed from {progress_path}",
              file=sys.stderr)
    if not (args.resume and done_before):
        write(progress_path, json.dumps(identity) + "\n")
    return run_mutants(args, targets, gate, chosen, steps, baseline, reach, reviewed, len(sites), t_start,
                       progress_path, done_before, passed)


def load_baseline(path, key, names):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None, None
    if data.get("key") != key or set(data.get("seconds", {})) != names:
        return None, None
    return data["seconds"], {k: set(v) for k, v in data["reach"].items()}


def load_progress(path, identity) -> dict:
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    if not lines:
        return {}
    try:
        if json.loads(lines[0]) != identity:
            return {}
    except ValueError:
        return {}
    done = {}
    for line in lines[1:]:
        try:
            r = json.loads(line)
        except ValueError:
            continue  # a line cut short by the end of the run
        done[r["id"]] = r
    return done


def run_baseline(gate, unique, jobs):
    baseline, reach = {}, {}
    with tempfile.TemporaryDirectory(prefix="tc-mutate-trace-") as trace_root:
        def base(item):
            i, st = item
            d = os.path.join(trace_root, str(i))
            os.mkdir(d)
            outcome, dt, detail = gate.run_step(st, None, 3600, trace=d)
            ids = set()
            for f in os.listdir(d):
                with open(os.path.join(d, f)) as fh:
                    ids.update(int(x) for x in fh.read().split())
            return st[0], outcome, dt, detail, ids
        with cf.ThreadPoolExecutor(max_workers=jobs) as pool:
            for name, outcome, dt, detail, ids in pool.map(base, enumerate(unique.values())):
                if outcome != "pass":
                    print(f"mutate: error: baseline step '{name}' does not pass without a mutant: "
                          f"{'; '.join(detail)}", file=sys.stderr)
                    sys.exit(1)
                baseline[name] = dt
                reach[name] = ids
    return baseline, reach


CHEAP_STEP_SECONDS = 2.0


def family_of_file(rel: str) -> str:
    """src/metacube/disjoint.cc -> metacube; src/core/sweep/x.cc -> core."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "src" else ""


def family_of_step(step) -> str:
    """The family a step belongs to: a test binary's source folder (its ctest working folder
    build/src/FAMILY/...), a replay's corpus folder, a verify's claim prefix; "" for the script
    entries, which run from the build root."""
    name, _cmd, _env, cwd = step
    if name.startswith("replay "):
        return name.split()[1].split("/")[0]
    if name.startswith("verify "):
        return name.split()[1].split(".")[0]
    parts = cwd.replace(os.sep, "/").split("/src/")
    return parts[1].split("/")[0] if len(parts) > 1 else ""


def step_order(step, family: str, baseline: dict):
    """A mutant's steps: the cheap ones first (under CHEAP_STEP_SECONDS in the baseline, most of the
    corpus), then its own family's tests, then the rest, each group cheapest first. The order
    changes only how soon a killed mutant stops, never which steps a survivor runs."""
    secs = baseline[step[0]]
    group = 0 if secs < CHEAP_STEP_SECONDS else 1 if family_of_step(step) == family else 2
    return (group, secs)


def run_mutants(args, targets, gate, chosen, steps, baseline, reach, reviewed, total_sites, t_start,
                progress_path, done_before, passed):
    progress_lock = threading.Lock()

    def one(s):
        if s["id"] in done_before:
            return done_before[s["id"]]
        t0 = time.time()
        mine = sorted((st for st in steps if s["id"] in reach[st[0]]),
                      key=lambda st: step_order(st, family_of_file(s["file"]), baseline))
        if not mine:
            return {**s, "status": "survived", "reached": False, "steps": 0, "seconds": 0.0}
        for n, st in enumerate(mine, 1):
            limit = 3 * baseline[st[0]] + 30
            outcome, dt, detail = gate.run_step(st, s["id"], limit)
            if outcome != "pass":
                return {**s, "status": "killed", "by": st[0], "how": outcome, "detail": detail,
                        "steps": n, "of_steps": len(mine), "seconds": round(time.time() - t0, 2)}
        return {**s, "status": "survived", "reached": True, "steps": len(mine), "of_steps": len(mine),
                "seconds": round(time.time() - t0, 2)}

    def judged(s):
        r = one(s)
        if s["id"] not in done_before:
            with progress_lock, open(progress_path, "a") as f:
                f.write(json.dumps(r) + "\n")
            if r["status"] == "survived":
                print(f"mutate: survived: {r['file']}:{r['line']}:{r['column']} {r['operator']} (id {r['id']})"
                      f"{'' if r.get('reached', True) else ', reached by no gate step'}", file=sys.stderr)
        return r

    results = []
    done = 0
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(judged, chosen):
            done += 1
            apply_review(r, reviewed)
            results.append(r)
            if sys.stderr.isatty() or done % 10 == 0 or done == len(chosen):
                print(f"mutate: {done}/{len(chosen)} mutants, {sum(x['status'] == 'killed' for x in results)} killed, "
                      f"{time.time() - t_start:.0f} s", file=sys.stderr)
    elapsed = time.time() - t_start
    report = summarize(results, targets, args, elapsed, total_sites)
    report["resumed"] = sum(1 for s in chosen if s["id"] in done_before)
    report["equivalent_not_run"] = [
        {k: s[k] for k in ("id", "file", "line", "column", "function", "operator", "original", "mutated")}
        | {"argument": reviewed[site_key(s)]["argument"]} for s in passed]
    report["baseline_seconds"] = {k: round(v, 2) for k, v in sorted(baseline.items())}
    print(table(report))
    if args.json:
        write(args.json, json.dumps(report, indent=1) + "\n")
    unreviewed = [r for r in results if r["status"] == "survived" and "reviewed" not in r]
    return 1 if (args.strict and unreviewed) else 0


def cmd_report(args):
    """Re-applies reviewed.json to a saved run (its --json report) and prints the table again, so
    that reviewing survivors does not need another run."""
    try:
        with open(args.report) as f:
            rep = json.load(f)
        results = rep["mutants"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail_usage(f"{args.report}: not a mutation report ({e})")
    targets = load_targets()
    reviewed = reviewed_index()
    for r in results:
        apply_review(r, reviewed)
    run = argparse.Namespace(set=rep["set"], seed=rep["seed"])
    again = summarize(results, targets, run, rep["seconds"], rep["sites"])
    for k in ("resumed", "baseline_seconds", "equivalent_not_run"):
        if k in rep:
            again[k] = rep[k]
    print(table(again))
    if args.json:
        write(args.json, json.dumps(again, indent=1) + "\n")
    return 0


def killer(r) -> str | None:
    """The step that killed r, with replay and verify counted as one step each (their parts are
    the corpus case files and the claims)."""
    by = r.get("by")
    return by.split()[0] if by and by.startswith(("replay ", "verify ")) else by


def summarize(results, targets, args, elapsed, total_sites):
    def rate(rs):
        equivalent = sum(1 for r in rs if r.get("reviewed", {}).get("verdict") == "equivalent")
        killed = sum(1 for r in rs if r["status"] == "killed")
        considered = len(rs) - equivalent
        return {"mutants": len(rs), "killed": killed, "equivalent": equivalent,
                "survived": len(rs) - killed - equivalent,
                "kill_rate": round(killed / considered, 4) if considered else None}
    by = lambda key: {k: rate([r for r in results if key(r) == k]) for k in sorted({key(r) for r in results})}
    return {
        "set": args.set, "seed": args.seed, "seconds": round(elapsed, 1), "sites": total_sites,
        "total": rate(results),
        "by_kind": by(lambda r: targets["files"][r["file"]]["kind"]),
        "by_folder": by(lambda r: os.path.dirname(r["file"])),
        "by_operator": by(lambda r: r["operator"]),
        "by_killer": {k: sum(1 for r in results if killer(r) == k) for k in sorted({killer(r) for r in results if r.get("by")})},
        "timeouts": sum(1 for r in results if r.get("how") == "timeout"),
        "not_reached": sum(1 for r in results if r.get("reached") is False),
        "steps_run": sum(r.get("steps", 0) for r in results),
        "survivors": [r for r in results if r["status"] == "survived"],
        "mutants": results,
    }


def table(rep) -> str:
    lines = [f"mutation run: {rep['total']['mutants']} mutants of {rep['sites']} sites, seed {rep['seed']}, "
             f"{rep['seconds'] / 60:.1f} min; {rep['timeouts']} killed by a timeout; "
             f"{rep['not_reached']} reached by no gate step; {rep['steps_run']} steps run"]
    if rep.get("equivalent_not_run"):
        lines.append(f"not run: {len(rep['equivalent_not_run'])} mutants drawn before the last one chosen, "
                     f"reviewed equivalent in reviewed.json (--recheck-reviewed runs them)")
    def block(title, d):
        lines.append("")
        lines.append(f"{title:<28} {'mutants':>8} {'killed':>7} {'equiv.':>7} {'survived':>9} {'kill rate':>10}")
        for k, v in d.items():
            kr = "-" if v["kill_rate"] is None else f"{100 * v['kill_rate']:.1f}%"
            lines.append(f"{k:<28} {v['mutants']:>8} {v['killed']:>7} {v['equivalent']:>7} {v['survived']:>9} {kr:>10}")
    block("kind", rep["by_kind"])
    block("folder", rep["by_folder"])
    block("operator", rep["by_operator"])
    block("total", {"all": rep["total"]})
    if rep["by_killer"]:
        lines.append("")
        lines.append(f"{'killed by':<28} {'mutants':>8}")
        for k, v in sorted(rep["by_killer"].items(), key=lambda kv: -kv[1]):
            lines.append(f"{k:<28} {v:>8}")
    if rep["survivors"]:
        lines.append("")
        lines.append("survivors:")
        for r in rep["survivors"]:
            tag = f" [{r['reviewed']['verdict']}]" if "reviewed" in r else " [unreviewed]"
            if r.get("reached") is False:
                tag += " [reached by no gate step]"
            lines.append(f"  {r['file']}:{r['line']}:{r['column']} {r['operator']} (id {r['id']}, {r['function']}){tag}")
            lines.append(f"    - {r['original']}")
            lines.append(f"    + {r['mutated']}")
    return "\n".join(lines)


def write(path, text):
    if path == "-":
        sys.stdout.write(text)
        return
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        fail_usage(f"--json: folder {d} does not exist")
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(prog="mutate.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("schemata")
    s.add_argument("--root", required=True)
    s.add_argument("--build", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("files", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("--build", required=True)
    r.add_argument("--set", choices=["sample", "all"], default="sample")
    r.add_argument("--count", type=int, default=300)
    r.add_argument("--every", action="store_true")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--corpus")
    r.add_argument("--json")
    r.add_argument("--only", type=int, nargs="+")
    r.add_argument("--strict", action="store_true", help="exit 1 when a survivor is not in reviewed.json")
    r.add_argument("--recheck-reviewed", action="store_true",
                   help="also run the mutants reviewed.json argues equivalent (by default the draw passes over them)")
    r.add_argument("--resume", action="store_true",
                   help="reuse the mutants already judged by a run cut short (same binaries, corpus, set and seed)")
    rp = sub.add_parser("report", help="re-apply reviewed.json to a saved report and print its table")
    rp.add_argument("report")
    rp.add_argument("--json", help="write the re-reviewed report here")
    a = ap.parse_args()
    if a.cmd == "run":
        if a.count < 1 or a.count > 100000:
            fail_usage(f"--count: {a.count} is outside 1..100000")
        if a.jobs < 1 or a.jobs > 64:
            fail_usage(f"--jobs: {a.jobs} is outside 1..64")
        if a.seed < 0:
            fail_usage(f"--seed: {a.seed} is negative")
        sys.exit(cmd_run(a))
    if a.cmd == "report":
        sys.exit(cmd_report(a))
    cmd_schemata(a)


if __name__ == "__main__":
    main()
