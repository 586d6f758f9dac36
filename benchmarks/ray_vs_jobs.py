"""The optimal search on Ray against local worker processes, in paired runs on the same machine.

    python benchmarks/ray_vs_jobs.py                         # Mastermind, 3 rounds
    python benchmarks/ray_vs_jobs.py --rounds 2 -- -g bulls-and-cows
    python benchmarks/ray_vs_jobs.py -- --symbols 1234567 --length 4 --repetition

Each round runs `treegen build --strategy optimal --jobs N` and then the same build with
`--engine ray` (a Ray instance of N processors that treegen starts for the build, start-up
included), whole commands, alternately; it prints both wall times of every round, the medians, the
Ray overhead as a share of the local wall time, and checks the two books are byte-identical.
"""

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(args, out):
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treegen", "build", *args, "-o", out], check=True,
                   capture_output=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("game", nargs="*", default=["-g", "mastermind"],
                        help="the game's options of `treegen build` (after --)")
    args = parser.parse_args()
    common = [*args.game, "-s", "optimal", "-j", str(args.jobs)]
    local, ray = [], []
    print("| round | --jobs (s) | --engine ray (s) | same book |\n|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        a, b = os.path.join(folder, "local.json"), os.path.join(folder, "ray.json")
        for round_ in range(1, args.rounds + 1):
            local.append(timed(common, a))
            ray.append(timed([*common, "--engine", "ray"], b))
            same = filecmp.cmp(a, b, shallow=False)
            print(f"| {round_} | {local[-1]:.1f} | {ray[-1]:.1f} | {'yes' if same else 'NO'} |",
                  flush=True)
    mid_local, mid_ray = statistics.median(local), statistics.median(ray)
    print(f"\nmedian: --jobs {args.jobs} {mid_local:.1f} s, --engine ray {mid_ray:.1f} s; "
          f"Ray overhead {100 * (mid_ray - mid_local) / mid_local:+.1f}% of the wall time")


if __name__ == "__main__":
    main()
