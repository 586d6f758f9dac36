"""The exact search side by side: treegen's optimal builds with --jobs 1 and --jobs 2, and, given an
``mmstrat`` binary (the C++ solver of fancidev/mastermind), that solver on the same games, run in
turn (A B A B ...) so that drifts of the machine's speed hit both alike.

    python benchmarks/optimal_vs_mmstrat.py                           # Mastermind, treegen only
    python benchmarks/optimal_vs_mmstrat.py --mmstrat ~/.cache/treegen-anchors/mmstrat --games mm,p4c7
    python benchmarks/optimal_vs_mmstrat.py --games bc --rounds 1     # Bulls and Cows: minutes

Prints, per game and command, the median wall and CPU seconds (whole processes, children
included) and the median of the pairwise ratios treegen/mmstrat. mmstrat is single-threaded, so
its CPU time is the figure to hold ``--jobs 1`` against.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

#: name: (treegen game arguments, mmstrat rules, optimal total both must find)
GAMES = {
    "mm": (["-g", "mastermind"], "mm", 5625),
    "p4c7": (["--symbols", "1234567", "--length", "4", "--repetition"], "p4c7r", 11228),
    "bc": (["-g", "bulls-and-cows"], "bc", 26274),
}


def timed(command: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout + out.stderr


def treegen(game: list[str], jobs: int, folder: str) -> list[str]:
    return [sys.executable, "-m", "treegen", "build", *game, "-s", "optimal", "--jobs", str(jobs),
            "-o", os.path.join(folder, "book.json")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="mm", help=f"comma-separated, of {', '.join(GAMES)}")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command")
    parser.add_argument("--mmstrat", default=None, help="path of an mmstrat binary to compare with")
    args = parser.parse_args()
    # as installed: the package's bytecode compiled (pip does it; PYTHONDONTWRITEBYTECODE would
    # otherwise recompile every module on every run), then one build to fill the disk caches
    package = importlib.util.find_spec("treegen")
    assert package is not None and package.origin is not None, "treegen is not installed"
    compileall.compile_dir(os.path.dirname(package.origin), quiet=1)
    probe = "from treegen.search import native; print(native.origin())"
    kernels = subprocess.run([sys.executable, "-c", probe],
                             check=True, capture_output=True, text=True).stdout.strip()
    print(f"kernels: {kernels}")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(treegen(GAMES["mm"][0], 1, folder), check=True, capture_output=True)  # warm
        print(f"{'game':6} {'command':18} {'wall (s)':>9} {'cpu (s)':>9} {'cpu ratio':>10}")
        for name in args.games.split(","):
            game, rules, total = GAMES[name]
            commands = {"treegen --jobs 1": treegen(game, 1, folder),
                        "treegen --jobs 2": treegen(game, 2, folder)}
            if args.mmstrat:
                commands["mmstrat"] = [args.mmstrat, "-S", "-q", "-r", rules, "-s", "optimal"]
            runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
            for _ in range(args.rounds):
                for label, command in commands.items():  # in turn: A B C A B C ...
                    wall, cpu, output = timed(command)
                    if str(total) not in output and label != "mmstrat":
                        raise SystemExit(f"{name}: {label} did not find the optimum {total}:\n{output}")
                    runs[label].append((wall, cpu))
            for label, figures in runs.items():
                ratio = ""
                if "mmstrat" in runs and label != "mmstrat":
                    pairs = [a[1] / b[1] for a, b in zip(figures, runs["mmstrat"])]
                    ratio = f"{statistics.median(pairs):10.2f}"
                print(f"{name:6} {label:18} {statistics.median(w for w, _ in figures):9.2f} "
                      f"{statistics.median(c for _, c in figures):9.2f} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
