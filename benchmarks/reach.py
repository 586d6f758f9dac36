"""How far heuristic books reach: each (game, heuristic, pool) built within a time budget, one
process at a time; a build that finishes gives its CPU and wall time, peak memory and total, one
stopped at the budget gives how many secrets it had placed and the projection of its time.

    python benchmarks/reach.py --games p6c8,p7c7,p8c6 --strategies minimax,entropy --budget 120
    python benchmarks/reach.py --games p7c7 --strategies minimax --first 1122334 --budget 3600 --save

The projection is the CPU time so far over the share of the secrets placed: the tree is built depth
first, so the secrets placed grow steadily once the first guesses are chosen; it says when it rests
on less than 1 % of them. Peak memory is the process's resident peak (the book is written as it is
built, see treegen/book/writer.py). ``--save`` adds the rows to benchmarks/results/reach.json.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

import saved as saved_results

#: name: (symbols, length); all with repeats, as mikemag's and mmstrat's sizes
GAMES = {
    "p5c7": ("1234567", 5), "p6c6": ("123456", 6), "p6c7": ("1234567", 6),
    "p6c8": ("12345678", 6), "p7c7": ("1234567", 7), "p8c6": ("123456", 8),
    "p7c8": ("12345678", 7), "p8c7": ("1234567", 8), "p8c8": ("12345678", 8),
}
STRATEGIES = ("minimax", "expected", "entropy", "parts")
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "reach.json")


def drive(symbols: str, length: int, strategy: str, pool: str, first: str | None, jobs: int,
          book: str, log: str) -> None:
    """Build one book, appending "seconds placed" to ``log`` every second or so."""
    from treegen.api import build_file
    from treegen.rules.game import Game
    from treegen.search.options import SearchOptions
    placed, said = 0, time.monotonic()
    start = said
    with open(log, "a", encoding="utf-8") as out:
        def progress(step: int) -> None:
            nonlocal placed, said
            placed += step
            now = time.monotonic()
            if now - said >= 1.0:
                said = now
                out.write(f"{now - start:.1f} {placed}\n")
                out.flush()
        _, head = build_file(book, Game(symbols, length, True), strategy, pool=pool, first=first,
                             progress=progress, search=SearchOptions(jobs=jobs))
        out.write(f"{time.monotonic() - start:.1f} {placed} total {head['stats']['total']} "
                  f"max {head['stats']['max']} first {head['strategy']['first']}\n")


def measure(name: str, strategy: str, pool: str, first: str | None, jobs: int,
            budget: float) -> dict[str, object]:
    symbols, length = GAMES[name]
    size = len(symbols) ** length
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "log")
        command = [sys.executable, os.path.abspath(__file__), "--drive", symbols, str(length),
                   strategy, pool, first or "-", str(jobs), os.path.join(folder, "book.json"), log]
        start = time.perf_counter()
        process = subprocess.Popen(command, stderr=subprocess.PIPE, start_new_session=True)
        stopped = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > budget:
                os.killpg(process.pid, signal.SIGKILL)
                stopped = True
                _, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.2)
        wall = time.perf_counter() - start
        text = ""
        if os.path.exists(log):
            with open(log, encoding="utf-8") as fh:
                text = fh.read()
        lines = [line.split() for line in text.split("\n") if line]
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace").strip()
    if not stopped and os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{name} {strategy} {pool} failed: {error[-400:]}")
    cpu = usage.ru_utime + usage.ru_stime
    row: dict[str, object] = {"game": name, "secrets": size, "strategy": strategy, "pool": pool,
                              "first": first, "jobs": jobs, "cpu": round(cpu, 1),
                              "wall": round(wall, 1), "peak_bytes": usage.ru_maxrss * 1024}
    if not stopped:
        last = lines[-1]
        row.update(finished=True, total=int(last[3]), max=int(last[5]), first=last[7])
        return row
    placed = int(lines[-1][1]) if lines else 0
    row.update(finished=False, budget=budget, placed=placed,
               projected_cpu=round(cpu * size / placed) if placed else None,
               projection_rests_on_little=placed < size / 100)
    return row


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        symbols, length, strategy, pool, first, jobs, book, log = sys.argv[2:]
        drive(symbols, int(length), strategy, pool, None if first == "-" else first, int(jobs),
              book, log)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="p6c8,p7c7,p8c6", help=f"comma-separated, of {', '.join(GAMES)}")
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help=f"comma-separated, of {', '.join(STRATEGIES)}")
    parser.add_argument("--pools", default="all,consistent", help="comma-separated: all, consistent")
    parser.add_argument("--first", default=None, help="the first guess of every build")
    parser.add_argument("--jobs", type=int, default=1, help="threads of each build")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds of wall time a build")
    parser.add_argument("--save", action="store_true", help=f"add the rows to {RESULTS}")
    args = parser.parse_args()
    rows = []
    print(f"{'game':5} {'strategy':8} {'pool':10} {'cpu (s)':>9} {'wall (s)':>9} {'peak MB':>8}  "
          "result")
    for name in args.games.split(","):
        for strategy in args.strategies.split(","):
            for pool in args.pools.split(","):
                row = measure(name, strategy, pool, args.first, args.jobs, args.budget)
                rows.append(row)
                result = (f"total {row['total']}, max {row['max']}, first {row['first']}"
                          if row["finished"] else
                          f"stopped: {row['placed']:,} of {row['secrets']:,} placed, projected "
                          f"{row['projected_cpu'] or '?'} s of CPU"
                          f"{' (on under 1 %)' if row['projection_rests_on_little'] else ''}")
                print(f"{name:5} {strategy:8} {pool:10} {row['cpu']:9.1f} {row['wall']:9.1f} "
                      f"{int(row['peak_bytes']) / 1e6:8.0f}  {result}", flush=True)
    if args.save:
        saved_results.append(RESULTS, budget=args.budget, runs=rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
