#!/usr/bin/env python3
"""Unit test of certify.py's driver: exit codes, skipping, --json, --expect-reject, and that a
checker can say yes (a case that does show its violation is certified). Run by ctest as
`certify_driver`; standalone: python3 certify/certify_test.py."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CERTIFY = os.path.join(HERE, "certify.py")

README_CASE = {"format": 1, "kind": "counterexample", "claim": "hypercube.alg2.disjoint", "reading": "literal",
               "params": {"n": 3}, "input": {"x": "000", "y": "111"},
               "violation": "paths 0 and 1 share node 011, internal to path 0 (position 2)",
               "witness": {"paths": [["000", "001", "011", "111"], ["000", "010", "011", "111"]]},
               "found_by": {"method": "random", "seed": 12345, "budget": "standard"}, "minimized": True}


def run(*args):
    p = subprocess.run([sys.executable, CERTIFY] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class Driver(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, content):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_no_path_is_usage_error(self):
        self.assertEqual(run()[0], 2)

    def test_bad_option_is_usage_error(self):
        self.assertEqual(run("--nope", self.dir)[0], 2)

    def test_missing_path_exits_2(self):
        code, _, err = run(os.path.join(self.dir, "does-not-exist.json"))
        self.assertEqual(code, 2)
        self.assertIn("does-not-exist.json", err)

    def test_malformed_json_exits_2_naming_the_file(self):
        path = self.write("bad.json", "{ not json")
        code, _, err = run(path)
        self.assertEqual(code, 2)
        self.assertIn(path, err)

    def test_counterexample_without_claim_exits_2(self):
        path = self.write("noclaim.json", {"kind": "counterexample", "reading": "r"})
        self.assertEqual(run(path)[0], 2)

    def test_no_checker_fails_in_both_modes(self):
        case = dict(README_CASE, claim="nosuchfamily.some.claim")
        path = self.write("x.json", case)
        code, out, _ = run(path)
        self.assertEqual(code, 1)
        self.assertIn("no checker %s: claim nosuchfamily.some.claim reading literal" % path, out)
        self.assertEqual(run("--expect-reject", path)[0], 1)
        # a known family without an entry for the claim is "no checker" too
        self.assertEqual(run(self.write("y.json", dict(README_CASE, claim="hypercube.no.such")))[0], 1)

    def test_other_files_are_skipped(self):
        self.write("sub/ledger.json", {"format": 1, "entries": []})
        self.write("sub/example.json", {"kind": "example", "claim": "hypercube.table1"})
        self.write("sub/list.json", [1, 2])
        self.write("sub/notes.txt", "not json at all")
        code, out, _ = run(self.dir)
        self.assertEqual((code, out), (0, ""))

    def test_certified_case_and_json(self):
        path = self.write("d/case.json", README_CASE)
        code, out, _ = run(path)
        self.assertEqual(code, 0, out)
        self.assertTrue(out.startswith("certified %s: " % path))
        self.assertEqual(run("--expect-reject", path)[0], 1)
        code, out, _ = run("--json", self.dir)
        self.assertEqual(code, 0)
        rows = json.loads(out)
        self.assertEqual(len(rows), 1)
        self.assertEqual(set(rows[0]), {"file", "claim", "reading", "status", "message"})
        self.assertEqual(rows[0]["status"], "certified")

    def test_rejected_case(self):
        case = json.loads(json.dumps(README_CASE))
        case["witness"]["paths"][1] = ["000", "010", "110", "111"]
        path = self.write("r.json", case)
        code, out, _ = run(path)
        self.assertEqual(code, 1)
        self.assertTrue(out.startswith("rejected %s: " % path))
        self.assertEqual(run("--expect-reject", path)[0], 0)

    def test_metacube_disjoint_can_certify(self):
        # Two walks of MC(1,1) from s to t through the same internal node: the violation itself.
        case = {"format": 1, "kind": "counterexample", "claim": "metacube.thm2.disjoint", "reading": "paper",
                "params": {"k": 1, "m": 1}, "input": {"s": "000", "t": "010"},
                "witness": {"paths": [["000", "100", "110", "010"], ["000", "100", "110", "010"]]}}
        self.assertEqual(run(self.write("mc.json", case))[0], 0)

    def test_metacube_fault_tolerance_can_certify(self):
        case = {"format": 1, "kind": "counterexample", "claim": "metacube.thm2.fault_tolerance", "reading": "paper",
                "params": {"k": 1, "m": 1}, "input": {"s": "000", "t": "010"},
                "witness": {"paths": [["000", "100", "110", "010"], ["000", "100", "110", "010"]]}}
        code, out, _ = run(self.write("ft.json", case))
        self.assertEqual(code, 0, out)
        self.assertIn("100", out)

    def test_metacube_case_bound_can_certify(self):
        # MC(1,1), s = 000, t = 001 differ in M[0] only (case 0, bound H + 6 = 7): a walk of 9 hops.
        long_walk = ["000", "001", "000", "001", "000", "001", "000", "001", "000", "001"]
        case = {"format": 1, "kind": "counterexample", "claim": "metacube.thm2.case_bound", "reading": "corrected",
                "params": {"k": 1, "m": 1}, "input": {"s": "000", "t": "001"},
                "witness": {"paths": [long_walk, ["000", "001"]]}}
        code, out, _ = run(self.write("cb.json", case))
        self.assertEqual(code, 0, out)
        self.assertIn("case-0 bound 7", out)
        case["witness"]["paths"] = [["000", "001"]]
        self.assertEqual(run(self.write("cb2.json", case))[0], 1)


if __name__ == "__main__":
    unittest.main()
