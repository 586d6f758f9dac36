"""Whole ``treegen build`` commands of this checkout beside another's, in turn (A B A B ...).

    python benchmarks/builds_vs.py --vs PATH                       # PATH: another checkout
    python benchmarks/builds_vs.py --vs PATH --rounds 9 --builds "--strategy minimax"
    python benchmarks/builds_vs.py --vs PATH --builds "-g mastermind -s minimax;-g moo -s entropy"

Each command runs in a fresh process from ``/`` with PYTHONPATH set to its checkout, so each side
uses its own sources and kernels (its ahead-of-time modules where current: build them in the
other checkout, and compile its bytecode with ``python -m compileall treegen`` where bytecode is
not written, or its runs time the compiler). Prints, for each build, the median CPU seconds of
each side (user and system, from ``wait4``), the median of the pairwise ratios (this / other),
and whether the two books are byte-identical (the script stops if not). Both sides share the
score-table cache folder, as a user's runs do.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_seconds(checkout: str, args: list[str], book: str) -> float:
    """The CPU seconds of one build of ``book`` by ``checkout``."""
    env = {**os.environ, "PYTHONPATH": checkout}
    with open(os.devnull, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "treegen", "build", *args, "-o", book],
                                   stdout=out, stderr=subprocess.STDOUT, env=env, cwd="/")
        _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"treegen build {shlex.join(args)} failed in {checkout}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", required=True, help="another checkout of treegen")
    parser.add_argument("--builds", default="--strategy minimax;-g mastermind -s minimax",
                        help="the arguments of each build, separated by ';'")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    sides = {"this": ROOT, "other": os.path.abspath(args.vs)}
    with tempfile.TemporaryDirectory() as folder:
        for build in filter(None, (b.strip() for b in args.builds.split(";"))):
            words = shlex.split(build)
            times: dict[str, list[float]] = {name: [] for name in sides}
            for _ in range(args.rounds):
                for name, checkout in sides.items():
                    times[name].append(cpu_seconds(checkout, words, os.path.join(folder, name)))
            books = [Path(folder, name).read_bytes() for name in sides]
            if books[0] != books[1]:
                raise SystemExit(f"build {build}: the two books differ")
            ratio = statistics.median(a / b for a, b in zip(times["this"], times["other"]))
            print(f"build {build}: this {statistics.median(times['this']):.3f} s, other "
                  f"{statistics.median(times['other']):.3f} s, ratio {ratio:.3f} "
                  f"({args.rounds} pairs), books identical")


if __name__ == "__main__":
    main()
