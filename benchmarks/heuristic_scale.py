"""Heuristic books at scale, side by side: treegen's heuristic builds (scored from the codes where
the score table would not pay, see treegen/rules/scorer.py) and, given an ``mmstrat`` binary (the
C++ solver of fancidev/mastermind), mmstrat on the same game and heuristic, run in turn
(A B A B ...) so that drifts of the machine's speed hit both alike.

    python benchmarks/heuristic_scale.py --games p5c7 --strategies entropy,minimax
    python benchmarks/heuristic_scale.py --mmstrat ~/.cache/treegen-anchors/mmstrat --games p5c7,p6c6
    python benchmarks/heuristic_scale.py --games p6c7 --rounds 1 --jobs 1,2 --save
    python benchmarks/heuristic_scale.py --games p5c7,p6c6 --strategies expected --walked-up-to 40,150,200

Prints, per game, heuristic and command, the medians of wall and CPU seconds and of peak memory
(whole processes, each measured on its own) and the median of the pairwise CPU ratios
treegen/mmstrat. ``--walked-up-to`` runs treegen once for each limit of the sets walked whole in
compiled code (:data:`treegen.rules.scoring.CODES_WALKED_UP_TO`), its books compared byte for
byte. mmstrat is single-threaded: hold treegen's ``--jobs 1`` against it. Its heuristics
break ties by their own rule, so totals differ a little; the books are not compared. ``--save``
adds the figures to benchmarks/results/heuristic-scale.json.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time

import saved as saved_results

#: name: (treegen's game arguments, mmstrat's rules)
GAMES = {
    "mm": (["-g", "mastermind"], "p4c6r"),
    "bc": (["-g", "bulls-and-cows"], "p4c10n"),
    "p5c7": (["--symbols", "1234567", "--length", "5", "--repetition"], "p5c7r"),
    "p6c6": (["--symbols", "123456", "--length", "6", "--repetition"], "p6c6r"),
    "p6c7": (["--symbols", "1234567", "--length", "6", "--repetition"], "p6c7r"),
    "p6c8": (["--symbols", "12345678", "--length", "6", "--repetition"], "p6c8r"),
    "p7c7": (["--symbols", "1234567", "--length", "7", "--repetition"], "p7c7r"),
    "p8c6": (["--symbols", "123456", "--length", "8", "--repetition"], "p8c6r"),
}
#: treegen's heuristics by mmstrat's names
MMSTRAT = {"minimax": "minmax", "expected": "minavg", "entropy": "entropy", "parts": "parts"}
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "heuristic-scale.json")


def measured(command: list[str]) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds, peak resident bytes, output) of one process run to its end."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{text}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="p5c7", help=f"comma-separated, of {', '.join(GAMES)}")
    parser.add_argument("--strategies", default="entropy,minimax",
                        help=f"comma-separated, of {', '.join(MMSTRAT)}")
    parser.add_argument("--pool", default="all", choices=("all", "consistent"))
    parser.add_argument("--jobs", default="1", help="treegen's --jobs, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command")
    parser.add_argument("--mmstrat", default=None, help="path of an mmstrat binary to compare with")
    parser.add_argument("--walked-up-to", default=None,
                        help="comma-separated limits of the sets walked whole, one command each")
    parser.add_argument("--save", action="store_true", help=f"add the figures to {RESULTS}")
    args = parser.parse_args()
    # as installed: the package's bytecode compiled (pip does it; with PYTHONDONTWRITEBYTECODE set
    # a checkout edited since would compile its changed modules again on every run)
    package = importlib.util.find_spec("treegen")
    assert package is not None and package.origin is not None, "treegen is not installed"
    compileall.compile_dir(os.path.dirname(package.origin), quiet=1)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        book = os.path.join(folder, "book.json")
        print(f"{'game':5} {'strategy':8} {'command':22} {'wall (s)':>9} {'cpu (s)':>9} "
              f"{'peak MB':>8} {'cpu ratio':>10}  total")
        for name in args.games.split(","):
            game, rules = GAMES[name]
            for strategy in args.strategies.split(","):
                limits = args.walked_up_to.split(",") if args.walked_up_to else [None]
                commands = {_label(jobs, limit): [
                    *_treegen(limit), "build", *game, "-s", strategy, "--pool", args.pool,
                    "-j", jobs, "-o", f"{book}.{jobs}.{limit}"]
                    for jobs in args.jobs.split(",") for limit in limits}
                if args.mmstrat:
                    commands["mmstrat"] = [args.mmstrat, "-S", "-r", rules, "-s", MMSTRAT[strategy],
                                           *(["-po"] if args.pool == "consistent" else [])]
                runs: dict[str, list[tuple[float, float, int, str]]] = {c: [] for c in commands}
                for _ in range(args.rounds):
                    for label, command in commands.items():  # in turn: A B A B ...
                        runs[label].append(measured(command))
                books = [command[-1] for label, command in commands.items()
                         if label != "mmstrat"]
                if any(_bytes(b) != _bytes(books[0]) for b in books[1:]):
                    raise SystemExit(f"{name} {strategy}: the books differ")
                for label, figures in runs.items():
                    ratio = None
                    if args.mmstrat and label != "mmstrat":
                        ratio = statistics.median(a[1] / b[1] for a, b in zip(figures,
                                                                              runs["mmstrat"]))
                    total = _total(figures[-1][3])
                    row = {"game": name, "strategy": strategy, "pool": args.pool,
                           "command": label, "rounds": args.rounds,
                           "wall": statistics.median(f[0] for f in figures),
                           "cpu": statistics.median(f[1] for f in figures),
                           "peak_bytes": int(statistics.median(f[2] for f in figures)),
                           "cpu_ratio_to_mmstrat": ratio, "total": total}
                    rows.append(row)
                    print(f"{name:5} {strategy:8} {label:22} {row['wall']:9.2f} {row['cpu']:9.2f} "
                          f"{row['peak_bytes'] / 1e6:8.0f} {'' if ratio is None else f'{ratio:10.2f}'}"
                          f"  {total}")
    if args.save:
        saved_results.append(RESULTS, runs=rows)
    return 0


def _treegen(limit: str | None) -> list[str]:
    """The command that runs treegen, with the sets walked whole up to ``limit`` (None: as is)."""
    if limit is None:
        return [sys.executable, "-m", "treegen"]
    return [sys.executable, "-c", "import sys; from treegen.rules import scoring; "
            f"scoring.CODES_WALKED_UP_TO = {int(limit)}; from treegen.cli.main import main; "
            "main(sys.argv[1:], prog_name='treegen')"]


def _label(jobs: str, limit: str | None) -> str:
    return f"treegen -j {jobs}" + (f" walk {limit}" if limit is not None else "")


def _bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _total(output: str) -> int | None:
    """The book's total from treegen's summary line, or mmstrat's from its summary table."""
    for line in output.splitlines():
        if "total " in line:
            return int(line.split("total ")[1].split(",")[0])
        parts = line.split()
        if len(parts) > 2 and parts[0] in MMSTRAT.values() and parts[1].isdigit():
            return int(parts[1])
    return None


if __name__ == "__main__":
    sys.exit(main())
