"""The long fuzz runs (the test suite runs a few hundred cases of the same harnesses):
``books`` mutates real books against every reader (tests/helpers/fuzz_harness.py), ``files``
damages, edits and re-signs checkpoints and records (tests/helpers/fuzz_files.py).

    python benchmarks/fuzz.py books                      # 20,000 cases, seeds 1..4
    python benchmarks/fuzz.py files                      # 20,000 cases, seeds 1..4
    python benchmarks/fuzz.py books --cases 5000 --seeds 10

Each seed runs in its own process (the books under a 3 GiB memory cap and 20 s per case, the files
in a forked process per case under 3 GiB and 30 s); prints one line per seed with what it found
and exits 1 if any seed found a failure.
"""

import argparse
import json
import os
import subprocess
import sys

HELPERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "helpers")
HARNESSES = {"books": ("fuzz_harness.py", ("tracebacks", "hangs", "disagreements")),
             "files": ("fuzz_files.py", ("crashes", "hangs", "tracebacks", "wrong"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness", choices=sorted(HARNESSES))
    parser.add_argument("--cases", type=int, default=None,
                        help="cases per seed [default: 5000 books, 2500 of each file]")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    script, counts = HARNESSES[args.harness]
    cases = args.cases or (5000 if args.harness == "books" else 2500)
    failed = 0
    for seed in range(1, args.seeds + 1):
        out = subprocess.run([sys.executable, os.path.join(HELPERS, script), "--cases", str(cases),
                              "--seed", str(seed)], capture_output=True, text=True)
        report = json.loads(out.stdout) if out.stdout.startswith("{") else None
        if report is None:
            print(f"seed {seed}: the harness failed: {out.stderr.strip()[-500:]}")
            failed += 1
            continue
        found = ", ".join(f"{report[key]} {key}" for key in counts)
        print(f"seed {seed}: {report['cases']} cases, {report['accepted']} accepted, {found}, "
              f"{report['seconds']} s")
        for failure in report["failures"]:
            print(f"  case {failure['case']}: {str(failure.get('problem'))[-300:]}")
        failed += out.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
