#!/usr/bin/env python3
"""The input formats of `topocheck check KIND` (schemas/<kind>.schema.json) against the loader:
every schema is a valid JSON Schema (draft 2020-12); every example in examples/check/ conforms to
its schema and `topocheck check` gives it the verdict examples/check/expected.json names; files
that break a rule of the schema are refused by both, `check` with exit 2 and one FILE:LINE line.
Run by ctest as `check_schemas`: schemas_test.py TOPOCHECK SOURCE_DIR."""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

TOPOCHECK, ROOT = sys.argv[1], sys.argv[2]
SCHEMAS = os.path.join(ROOT, "schemas")
EXAMPLES = os.path.join(ROOT, "examples", "check")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


def schema_for(kind):
    with open(os.path.join(SCHEMAS, f"{kind}.schema.json")) as fh:
        return json.load(fh)


# Every schema by its $id, for the references between them (paths-table.schema.json uses paths').
STORE = {schema_for(name[: -len(".schema.json")])["$id"]: schema_for(name[: -len(".schema.json")])
         for name in os.listdir(SCHEMAS)}


def validator(kind):
    schema = schema_for(kind)
    try:  # jsonschema >= 4.18: the `referencing` registry
        from referencing import Registry, Resource
        registry = Registry().with_resources((i, Resource.from_contents(s)) for i, s in STORE.items())
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10: RefResolver with a store
        resolver = jsonschema.RefResolver.from_schema(schema, store=STORE)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def table_errors(path):
    """A JSON Lines table against paths-table.schema.json: the settings first, then systems."""
    errors = []
    with open(path) as fh:
        lines = [line for line in fh if line.strip()]
    for i, line in enumerate(lines):
        doc = json.loads(line)
        errors += [f"line {i + 1}: {e.message}" for e in validator("paths-table").iter_errors(doc)]
        if (i == 0) != ("kind" in doc):
            errors.append(f"line {i + 1}: the settings come first, and only first")
    return errors


def run_check(kind, path, *extra):
    p = subprocess.run([TOPOCHECK, "check", kind, "--file", path, *extra], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


for name in sorted(os.listdir(SCHEMAS)):
    with open(os.path.join(SCHEMAS, name)) as fh:
        try:
            jsonschema.Draft202012Validator.check_schema(json.load(fh))
        except jsonschema.SchemaError as e:
            fail(f"{name} is not a valid schema: {e.message}")

with open(os.path.join(EXAMPLES, "expected.json")) as fh:
    expected = json.load(fh)
for name, want in sorted(expected.items()):
    kind = name.split("-")[0]
    path = os.path.join(EXAMPLES, name)
    if name.endswith(".jsonl"):
        errors = table_errors(path)
        if errors:
            fail(f"{name} does not conform to paths-table.schema.json: {errors[0]}")
    else:
        with open(path) as fh:
            doc = json.load(fh)
        errors = list(validator(kind).iter_errors(doc))
        if errors:
            fail(f"{name} does not conform to {kind}.schema.json: {errors[0].message}")
    code, out, err = run_check(kind, path, "--format", "json")
    if code != want["exit"]:
        fail(f"{name}: exit {code}, expected {want['exit']} ({err.strip()})")
        continue
    report = json.loads(out)
    violated = [c["check"] for c in report["checks"] if c["verdict"] == "violated"]
    if violated != want.get("violated", []):
        fail(f"{name}: violated {violated}, expected {want.get('violated', [])}")

# Files that break the schema: refused by the schema and by `check` (exit 2, one line naming the file).
BAD_PATHS = [
    {"topology": "torus:3", "s": "000", "t": "111", "paths": [["000"]]},
    {"topology": "hypercube:3", "s": "000", "t": "111", "paths": []},
    {"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000"]], "disjoint": "edge"},
    {"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000"]], "colour": "red"},
    {"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000"]], "max_length": -1},
    {"topology": "hypercube:3", "s": "000", "t": "111", "paths": [["000", "0x1"]]},
    {"topology": {"nodes": 1, "edges": []}, "s": 0, "t": 1, "paths": [[0]]},
    {"topology": "hypercube:3", "s": "000", "paths": [["000"]]},
]
BAD_SCHEDULES = [
    {"n": 11, "faults": [], "units": []},
    {"n": 2, "faults": [], "units": [], "model": "half_port"},
    {"n": 2, "faults": [], "units": [[["1_0", 0]]]},
    {"n": 2, "faults": [], "units": [[["1-0", 0, 1]]]},
    {"n": 2, "faults": []},
    {"n": 2, "faults": [], "units": [], "colour": 1},
    {"n": 2, "faults": [1, 1], "units": []},
]
def expect_refused(kind, docs, tmp):
    for i, doc in enumerate(docs):
        if not list(validator(kind).iter_errors(doc)):
            fail(f"bad {kind} file {i} passes the schema: {doc}")
        path = os.path.join(tmp, f"bad-{kind}{i}.json")
        with open(path, "w") as fh:
            json.dump(doc, fh, indent=1)
        code, out, err = run_check(kind, path)
        lines = err.strip().splitlines()
        if code != 2 or len(lines) != 1 or path not in lines[0] or out:
            fail(f"bad {kind} file {i}: exit {code}, stderr {err!r}, stdout {out!r}")


BAD_ROUTING = [
    {"graph": {"nodes": 1, "edges": []}, "table": []},
    {"graph": {"nodes": 3, "edges": [[0, 1, 2]]}, "table": []},
    {"graph": {"nodes": 3, "edges": []}},
    {"graph": {"nodes": 3, "edges": [[0, 1]]}, "table": [{"node": 0, "dest": 1}]},
    {"graph": {"nodes": 3, "edges": [[0, 1]]}, "table": [{"node": 0, "dest": 1, "next": [1, 1]}]},
    {"graph": {"nodes": 3, "edges": [[0, 1]]}, "table": [], "weights": []},
]
BAD_ITM = [
    {},
    {"steps": "3:(0,1)", "graph": {"nodes": 3, "edges": []}},
    {"steps": ["3:(0,1)"]},
    {"graph": {"nodes": 2, "edges": []}},
    {"graph": {"nodes": 3, "edges": [[0, 1, 2]]}},
    {"steps": "3:(0,1)", "rule": "exterior"},
]
# Tables with one bad line: refused by the schema and by `check` at that line (exit 2, nothing on stdout).
SETTINGS = {"kind": "paths", "topology": "hypercube:3"}
GOOD = {"s": "000", "t": "001", "paths": [["000", "001"]]}
BAD_TABLES = [
    [{"topology": "hypercube:3"}],
    [SETTINGS, GOOD, {"s": "000", "t": "001", "paths": [["000", "001"]], "disjoint": "node"}],
    [SETTINGS, GOOD, GOOD, {"s": "000", "paths": [["000"]]}],
    [SETTINGS, {"s": "000", "t": "001", "paths": []}],
    [SETTINGS, {"s": "000", "t": "001", "paths": [["000", "2"]]}],
]


def expect_tables_refused(tmp):
    for i, lines in enumerate(BAD_TABLES):
        path = os.path.join(tmp, f"bad-table{i}.jsonl")
        with open(path, "w") as fh:
            fh.write("".join(json.dumps(line) + "\n" for line in lines))
        if not table_errors(path):
            fail(f"bad table {i} passes the schema")
        code, out, err = run_check("paths", path)
        bad_line = len(lines)
        if code != 2 or out or f"{path}:{bad_line}: error" not in err or len(err.strip().splitlines()) != 1:
            fail(f"bad table {i}: exit {code}, stderr {err!r}, stdout {out!r} (expected an error at line {bad_line})")


with tempfile.TemporaryDirectory() as tmp:
    expect_tables_refused(tmp)
    expect_refused("itm", BAD_ITM, tmp)
    expect_refused("routing", BAD_ROUTING, tmp)
    expect_refused("paths", BAD_PATHS, tmp)
    expect_refused("schedule", BAD_SCHEDULES, tmp)

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
