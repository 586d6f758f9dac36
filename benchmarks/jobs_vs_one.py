"""What several jobs gain over one in the exact search, in paired runs on the same machine.

    python benchmarks/jobs_vs_one.py                                   # Mastermind, 5 rounds
    python benchmarks/jobs_vs_one.py --rounds 3 -- -g bulls-and-cows
    python benchmarks/jobs_vs_one.py --rounds 2 -- --game wordle --hard
    python benchmarks/jobs_vs_one.py --classes 0123 --rounds 3 -- -g bulls-and-cows

Each round runs `treegen build --strategy optimal --jobs 1` and then the same build with
`--jobs N` (with `--classes CODE`: `treegen classes --first CODE`, each into a new record), whole
commands, alternately; it prints the wall and CPU seconds (the children's) of every round, the
medians, the wall-time ratio N jobs / one job taken pair by pair, and checks that both runs wrote
the same book (for records: the same costs and trees).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def timed(args):
    """(wall seconds, CPU seconds of the command's processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treegen", *args], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def outcome(path, record):
    """What must not depend on the jobs: the book's bytes, or a record's classes without their
    timings."""
    with open(path, "rb") as fh:
        data = fh.read()
    if not record:
        return data
    classes = json.loads(data)["classes"]
    return [{k: v for k, v in entry.items() if k != "seconds"} for entry in classes]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--classes", metavar="CODE",
                        help="time `treegen classes --first CODE` instead of a whole build")
    parser.add_argument("game", nargs="*", default=["-g", "mastermind"],
                        help="the game's options (after --)")
    args = parser.parse_args()
    command = ["classes", "--first", args.classes] if args.classes else ["build", "-s", "optimal"]
    rows = {1: [], args.jobs: []}
    print(f"| round | --jobs 1 wall (s) | cpu (s) | --jobs {args.jobs} wall (s) | cpu (s) | same |\n"
          "|---|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(1, args.rounds + 1):
            outcomes = []
            for jobs in rows:
                out = os.path.join(folder, f"{round_}-{jobs}.json")
                rows[jobs].append(timed([*command, *args.game, "-j", str(jobs), "-o", out]))
                outcomes.append(outcome(out, bool(args.classes)))
            (w1, c1), (wn, cn) = rows[1][-1], rows[args.jobs][-1]
            same = "yes" if outcomes[0] == outcomes[1] else "NO"
            print(f"| {round_} | {w1:.2f} | {c1:.2f} | {wn:.2f} | {cn:.2f} | {same} |", flush=True)
    one, many = rows[1], rows[args.jobs]
    ratios = [n[0] / o[0] for o, n in zip(one, many)]
    print(f"\nmedian wall: --jobs 1 {statistics.median(w for w, _ in one):.2f} s, --jobs {args.jobs} "
          f"{statistics.median(w for w, _ in many):.2f} s; ratio (pair by pair) "
          f"{statistics.median(ratios):.2f}; median cpu {statistics.median(c for _, c in one):.2f} s "
          f"and {statistics.median(c for _, c in many):.2f} s")


if __name__ == "__main__":
    main()
