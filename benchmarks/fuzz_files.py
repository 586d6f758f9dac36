"""The long fuzz run of checkpoints and records (the test suite runs 300 cases of the same harness).

    python benchmarks/fuzz_files.py                      # 20,000 cases, seeds 1..4
    python benchmarks/fuzz_files.py --cases 5000 --seeds 10

Each seed runs in its own process; each case in a forked one under a 3 GiB memory cap and a 30 s
time cap. Prints one line per seed (crashes, hangs, tracebacks, wrong outcomes: a wrong book marked
optimal, or a record believed beyond its trees) and exits 1 if any seed found one.
"""

import argparse
import json
import os
import subprocess
import sys

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                       "fuzz_files.py")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2500, help="cases of each file per seed")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    failed = 0
    for seed in range(1, args.seeds + 1):
        out = subprocess.run([sys.executable, HARNESS, "--cases", str(args.cases), "--seed", str(seed)],
                             capture_output=True, text=True)
        report = json.loads(out.stdout) if out.stdout.startswith("{") else None
        if report is None:
            print(f"seed {seed}: the harness failed: {out.stderr.strip()[-500:]}")
            failed += 1
            continue
        print(f"seed {seed}: {report['cases']} cases, {report['accepted']} accepted, "
              f"{report['crashes']} crashes, {report['hangs']} hangs, {report['tracebacks']} "
              f"tracebacks, {report['wrong']} wrong, {report['seconds']} s")
        for failure in report["failures"]:
            print(f"  case {failure['case']} ({failure['file']}, {failure['mutation']}): "
                  f"{failure['problem'][-300:]}")
        failed += out.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
