"""The open sizes: how far the exact search gets in a time budget, and, given an ``mmstrat`` binary
(the C++ solver of fancidev/mastermind), that solver's optimal total beside ours.

    python benchmarks/frontier.py --probe p5c7r,p6c6r --seconds 1800
    python benchmarks/frontier.py --mmstrat ~/.cache/treegen-anchors/mmstrat --sizes p4c9r

``--probe`` runs treegen's optimal search (``--jobs 1``) on each size for the budget, then stops
it and reports where it was: the root guess being tried and how many there are, the classes of it
solved, the best total found and the proven lower bound. ``--mmstrat`` runs ``mmstrat -S -r RULES
-s optimal`` on each size (single-threaded; hours for the larger ones) and records its total and
CPU time beside treegen's book in ``books/``. Each result is written to ``benchmarks/results/`` as
JSON with the command that produced it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmarks", "results")

#: mmstrat's rules -> (symbols, length, repetition) of treegen's game.
SIZES = {
    "p4c8r": ("12345678", 4, True), "p4c9r": ("123456789", 4, True),
    "p5c6r": ("123456", 5, True), "p5c7r": ("1234567", 5, True), "p6c6r": ("123456", 6, True),
    "p5c8n": ("12345678", 5, False), "p4c10r": ("0123456789", 4, True),
}


def book_of(symbols: str, length: int, repetition: bool) -> str:
    kind = "rep" if repetition else "norep"
    return os.path.join(ROOT, "books", f"custom-{symbols}-{length}-{kind}-optimal-all.json")


def write(name: str, result: dict) -> str:
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, f"{name}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, sort_keys=True)
        fh.write("\n")
    return path


def probe(rules: str, seconds: int) -> dict:
    """treegen's exact search on a size for ``seconds``: where it was when stopped."""
    from treegen.api import build_book
    from treegen.rules.game import Game
    from treegen.search.options import SearchOptions
    symbols, length, repetition = SIZES[rules]
    game = Game(symbols, length, repetition)
    seen: list = []

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, stop)
    started = time.monotonic()
    finished = None
    with tempfile.TemporaryDirectory() as folder:
        signal.alarm(seconds)
        try:
            search = SearchOptions(jobs=1, checkpoint=os.path.join(folder, "probe.checkpoint"))
            finished = build_book(game, "optimal", search=search, status=seen.append)
        except KeyboardInterrupt:
            pass
        finally:
            signal.alarm(0)
    elapsed = time.monotonic() - started
    last = seen[-1] if seen else None
    result = {"size": rules, "codes": game.size, "seconds": round(elapsed), "jobs": 1,
              "command": f"python benchmarks/frontier.py --probe {rules} --seconds {seconds}",
              "finished": finished is not None,
              "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    if finished is not None:
        result["total"] = finished["stats"]["total"]
    if last is not None:
        result.update(first_guess=last.guess, root_guess=last.guess_rank + 1,
                      root_guesses=last.guesses, classes_solved=last.classes_done,
                      classes=last.classes, best_total=last.best, lower_bound=last.lower,
                      status=str(last))
    return result


def against_mmstrat(binary: str, rules: str, hours: float) -> dict:
    """mmstrat's optimal strategy on a size (within ``hours``), beside treegen's book."""
    command = [binary, "-S", "-q", "-r", rules, "-s", "optimal"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=hours * 3600)
        summary = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr
    except subprocess.TimeoutExpired:
        summary = None
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = {"size": rules, "command": " ".join(["mmstrat", *command[1:]]),
              "mmstrat_wall_seconds": round(wall, 1),
              "mmstrat_cpu_seconds": round(after.ru_utime - before.ru_utime, 1)}
    if summary is None:
        result["mmstrat"] = f"did not finish in {hours} h"
    else:
        total, deepest = summary.split(":")[:2]  # "total:max:count at max"
        result.update(mmstrat_total=int(total), mmstrat_max=int(deepest))
    path = book_of(*SIZES[rules])
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            stats = json.load(fh)["stats"]
        result.update(treegen_total=stats["total"], treegen_max=stats["max"],
                      treegen_book=os.path.relpath(path, ROOT))
        if "mmstrat_total" in result:
            result["agree"] = result["mmstrat_total"] == stats["total"]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", default=None, help=f"sizes, comma-separated, of {', '.join(SIZES)}")
    parser.add_argument("--seconds", type=int, default=1800, help="budget of each probe")
    parser.add_argument("--mmstrat", default=None, help="path of an mmstrat binary")
    parser.add_argument("--sizes", default="p4c9r", help="sizes mmstrat solves, comma-separated")
    parser.add_argument("--hours", type=float, default=6.0, help="mmstrat's budget per size")
    args = parser.parse_args()
    failed = 0
    for rules in filter(None, (args.probe or "").split(",")):
        result = probe(rules, args.seconds)
        print(f"{rules}: {result.get('status', 'no root guess finished')} "
              f"-> {write(f'probe-{rules}', result)}")
    if args.mmstrat:
        for rules in args.sizes.split(","):
            result = against_mmstrat(args.mmstrat, rules, args.hours)
            print(f"{rules}: mmstrat {result.get('mmstrat_total', result.get('mmstrat'))} in "
                  f"{result['mmstrat_cpu_seconds']} s of CPU; treegen "
                  f"{result.get('treegen_total')} -> {write(f'mmstrat-{rules}', result)}")
            failed += result.get("agree") is False
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
