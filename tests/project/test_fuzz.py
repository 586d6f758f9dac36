"""The book fuzzer, a quick seeded run: mutated real books against every reader; no traceback, no
hang, and the standalone player plays every book the loader accepts (see helpers/fuzz_harness.py)."""

import json
import os
import subprocess
import sys

HARNESS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "helpers", "fuzz_harness.py")


def test_a_seeded_fuzz_run_finds_no_traceback_and_no_hang():
    out = subprocess.run([sys.executable, HARNESS, "--cases", "300", "--seed", "1", "--time-cap", "20"],
                         capture_output=True, text=True, timeout=600)
    assert out.stdout, out.stderr
    report = json.loads(out.stdout)
    assert report["failures"] == [] and out.returncode == 0, json.dumps(report["failures"], indent=1)
    assert report["tracebacks"] == report["hangs"] == report["disagreements"] == 0
    # the mutations are not all refused at the door: readers downstream of the loader get work too
    assert report["accepted"] >= 20


FILES_HARNESS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "helpers", "fuzz_files.py")


def test_a_seeded_fuzz_run_of_checkpoints_and_records_finds_nothing():
    """Edited, re-signed, truncated and special checkpoints and records (see helpers/fuzz_files.py):
    no crash, no hang, no traceback, no wrong book marked optimal, no record believed beyond its
    trees."""
    out = subprocess.run([sys.executable, FILES_HARNESS, "--cases", "150", "--seed", "1"],
                         capture_output=True, text=True, timeout=600)
    assert out.stdout, out.stderr
    report = json.loads(out.stdout)
    assert report["failures"] == [] and out.returncode == 0, json.dumps(report["failures"], indent=1)
    assert report["cases"] == 300 and report["accepted"] >= 3
    assert {kind.split()[1] for kind in report["kinds"]} >= {
        "flip", "cut", "resign-sha256", "resign-key", "special", "value"}
