"""The exact search side by side: treegen's optimal builds with --jobs 1 and --jobs 2, and, given an
``mmstrat`` binary (the C++ solver of fancidev/mastermind) or a ``wordle`` binary (the C++ solver of
alex1770/wordle, built by its Makefile, its word lists beside it), that solver on the same games, run
in turn (A B A B ...) so that drifts of the machine's speed hit both alike.

    python benchmarks/optimal_vs_mmstrat.py                           # Mastermind, treegen only
    python benchmarks/optimal_vs_mmstrat.py --mmstrat ~/.cache/treegen-anchors/mmstrat --games mm,p4c7
    python benchmarks/optimal_vs_mmstrat.py --games bc --rounds 1     # Bulls and Cows: minutes
    python benchmarks/optimal_vs_mmstrat.py --wordle ~/src/wordle/wordle --games salet --rounds 7

Prints, per game and command, the median wall and CPU seconds (whole processes, children
included) and the median of the pairwise ratios treegen/the other solver. Both solvers are
single-threaded, so their CPU time is the figure to hold ``--jobs 1`` against. ``salet`` is Wordle
with its original lists and the first guess SALET forced (optimum 7920); ``salet-hard`` the same in
hard mode (8119), ``salet-hard6`` in hard mode within six guesses (8125); ``salet-hints`` and
``salet-hints6`` the same under Wordle's own hard mode (8116, and 8122 within six guesses).
``salet-2023`` is SALET first on the NYT's lists of July 2023 (3,158 answers, 14,855 guesses: the
files ``wordlist_nyt20230701_hidden`` and ``wordlist_nyt20220830_all`` of Selby's repository;
11,235), ``tarse-2023`` its best first guess there (11,219), and ``wordle-2023`` the whole game on
those lists, every first guess (TARSE, 11,219; for Selby's solver a day's work or more, so give
``--treegen-only`` unless you mean it).
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

#: name: (treegen game arguments, the other solver's arguments, optimal total both must find)
GAMES = {
    "mm": (["-g", "mastermind"], ["-r", "mm"], 5625),
    "p4c7": (["--symbols", "1234567", "--length", "4", "--repetition"], ["-r", "p4c7r"], 11228),
    "bc": (["-g", "bulls-and-cows"], ["-r", "bc"], 26274),
    "salet": (["-g", "wordle", "--first", "salet"], ["-w", "salet"], 7920),
    # hard mode as treegen plays it (every guess fits every answer) is Selby's -U ("ultrahard");
    # his -H is the NYT's looser rule. -g10: no depth limit in effect (his default is 6 guesses).
    "salet-hard": (["-g", "wordle", "--hard", "--first", "salet"], ["-U", "-g10", "-w", "salet"],
                   8119),
    "salet-hard6": (["-g", "wordle", "--hard", "--first", "salet", "--max-depth", "6"],
                    ["-U", "-w", "salet"], 8125),
    # Wordle's own hard mode (--hints) is his -H
    "salet-hints": (["-g", "wordle", "--hints", "--first", "salet"], ["-H", "-g10", "-w", "salet"],
                    8116),
    "salet-hints6": (["-g", "wordle", "--hints", "--first", "salet", "--max-depth", "6"],
                     ["-H", "-w", "salet"], 8122),
    # the NYT's lists of July 2023, from the folder of Selby's binary ({lists})
    "salet-2023": (["--first", "salet"], ["-w", "salet"], 11235),
    "tarse-2023": (["--first", "tarse"], ["-w", "tarse"], 11219),
    "wordle-2023": ([], [], 11219),
}
#: the 2023 games' lists, as (treegen's option, Selby's option, file in his repository)
LISTS_2023 = (("--answers", "-h", "wordlist_nyt20230701_hidden"),
              ("--guesses", "-a", "wordlist_nyt20220830_all"))


def game_arguments(args: argparse.Namespace, name: str) -> list[str]:
    """treegen's arguments for a game; the 2023 games read their lists beside Selby's binary."""
    if not name.endswith("-2023"):
        return GAMES[name][0]
    if not args.wordle:
        raise SystemExit(f"{name}: give --wordle, the binary whose folder holds the 2023 lists")
    lists = os.path.dirname(os.path.abspath(args.wordle))
    return [*(x for ours, _, file in LISTS_2023 for x in (ours, os.path.join(lists, file))),
            *GAMES[name][0]]


def other_solver(args: argparse.Namespace, name: str) -> tuple[str, list[str]] | None:
    """The other solver's label and command for a game, if its binary was given."""
    extra = GAMES[name][1]
    if args.treegen_only:
        return None
    if name.endswith("-2023") and args.wordle:
        lists = os.path.dirname(os.path.abspath(args.wordle))
        return "wordle (Selby)", [args.wordle, *(x for _, his, file in LISTS_2023
                                                  for x in (his, os.path.join(lists, file))),
                                  *extra]
    if name.startswith("salet") and args.wordle:
        lists = os.path.dirname(os.path.abspath(args.wordle))
        return "wordle (Selby)", [args.wordle, "-a", os.path.join(lists, "wordlist_orig_all"),
                                  "-h", os.path.join(lists, "wordlist_orig_hidden"), *extra]
    if name in ("mm", "p4c7", "bc") and args.mmstrat:
        return "mmstrat", [args.mmstrat, "-S", "-q", *extra, "-s", "optimal"]
    return None


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
    parser.add_argument("--wordle", default=None,
                        help="path of alex1770/wordle's binary (its word lists beside it)")
    parser.add_argument("--treegen-only", action="store_true",
                        help="time treegen alone, not the other solver")
    parser.add_argument("--jobs", default="1,2", help="treegen's --jobs values to time")
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
            game, total = game_arguments(args, name), GAMES[name][2]
            commands = {f"treegen --jobs {jobs}": treegen(game, int(jobs), folder)
                        for jobs in args.jobs.split(",")}
            other = other_solver(args, name)
            if other:
                commands[other[0]] = other[1]
            runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
            for _ in range(args.rounds):
                for label, command in commands.items():  # in turn: A B C A B C ...
                    wall, cpu, output = timed(command)
                    if str(total) not in output and label != "mmstrat":
                        raise SystemExit(f"{name}: {label} did not find the optimum {total}:\n{output}")
                    runs[label].append((wall, cpu))
            for label, figures in runs.items():
                ratio = ""
                if other and label != other[0]:
                    pairs = [a[1] / b[1] for a, b in zip(figures, runs[other[0]])]
                    ratio = f"{statistics.median(pairs):10.2f}"
                print(f"{name:6} {label:18} {statistics.median(w for w, _ in figures):9.2f} "
                      f"{statistics.median(c for _, c in figures):9.2f} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
