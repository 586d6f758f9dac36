"""Wall time of the exact optimal search (whole `treegen build` command).

    python benchmarks/optimal_times.py              # Mastermind, 1 and 2 jobs, and --max-depth 5
    python benchmarks/optimal_times.py --bulls      # also Bulls and Cows (long: minutes)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def timed_build(args, folder):
    out = os.path.join(folder, "book.json")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treegen", "build", *args, "-o", out], check=True,
                   capture_output=True)
    seconds = time.perf_counter() - start
    with open(out) as fh:
        stats = json.load(fh)["stats"]
    return seconds, stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bulls", action="store_true", help="also time optimal Bulls and Cows")
    args = parser.parse_args()
    runs = [["-g", "mastermind", "-s", "optimal", "-j", "1"],
            ["-g", "mastermind", "-s", "optimal", "-j", "2"],
            ["-g", "mastermind", "-s", "optimal", "--max-depth", "5", "-j", "2"]]
    if args.bulls:
        runs.append(["-g", "bulls-and-cows", "-s", "optimal", "-j", "2"])
    print("| command | total | max | wall (s) |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for run in runs:
            seconds, stats = timed_build(run, folder)
            print(f"| treegen build {' '.join(run)} | {stats['total']} | {stats['max']} | {seconds:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
