"""A heuristic's keys from the kernels, whole or for its choice only: how much stopping a guess
once its key passes the best saves (treegen/rules/scoring.py, ``best_only``).

    python benchmarks/heuristic_keys.py                          # 7 pegs of 7 colours
    python benchmarks/heuristic_keys.py --size 6,6 --rounds 7 --save

Scores a fixed sample of guesses against three classes of the first guess (the largest, the
fifth and the thirteenth), one thread, with and without ``best_only``, in turn (A B A B ...), and
prints the median seconds of each and the median of the pairwise ratios. Both must choose the
same guess; the script stops if they do not. ``--save`` writes
benchmarks/results/heuristic-keys.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from treegen.rules.game import Game  # noqa: E402
from treegen.rules.scoring import CodeScorer  # noqa: E402
from treegen.strategies.heuristics import HEURISTICS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="7,7", help="pegs,colours (repeats allowed)")
    parser.add_argument("--first", default=None, help="the first guess (default: 1122334...)")
    parser.add_argument("--guesses", type=int, default=3000)
    parser.add_argument("--heuristics", default="minimax,expected")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    length, colours = (int(x) for x in args.size.split(","))
    game = Game("123456789"[:colours], length, True)
    first = args.first or "".join("1122334455"[:length])
    scorer = CodeScorer(game, threads=1)
    row = scorer.block(np.array([game.index(first)]), np.arange(game.size))[0]
    rng = np.random.default_rng(1)
    guesses = np.sort(rng.choice(game.size, min(args.guesses, game.size), replace=False))
    rows = []
    for rank in (0, 4, 12):
        answer = int(np.argsort(-np.bincount(row), kind="stable")[rank])
        secrets = np.flatnonzero(row == answer)
        for name in args.heuristics.split(","):
            heuristic = HEURISTICS[name]()
            whole, best, ratios = [], [], []
            scorer.keys(heuristic, guesses[:8], secrets, best_only=True)  # compiled first
            for _ in range(args.rounds):
                began = time.perf_counter()
                full = scorer.keys(heuristic, guesses, secrets)
                whole.append(time.perf_counter() - began)
                began = time.perf_counter()
                only = scorer.keys(heuristic, guesses, secrets, best_only=True)
                best.append(time.perf_counter() - began)
                ratios.append(best[-1] / whole[-1])
            def sizes(r: np.ndarray, secrets: np.ndarray = secrets) -> np.ndarray:
                return scorer.counts(guesses[r], secrets)

            if not np.array_equal(heuristic.tied(only, sizes), heuristic.tied(full, sizes)):
                sys.exit(f"{name}: the choice differs with best_only")
            rows.append({"secrets": len(secrets), "heuristic": name, "guesses": len(guesses),
                         "whole_s": round(statistics.median(whole), 4),
                         "best_only_s": round(statistics.median(best), 4),
                         "ratio": round(statistics.median(ratios), 3),
                         "dropped": int(np.isinf(only).sum())})
            print(f"{len(secrets):>7} secrets  {name:<8}  whole {rows[-1]['whole_s']:.3f} s  "
                  f"best only {rows[-1]['best_only_s']:.3f} s  ratio {rows[-1]['ratio']}  "
                  f"dropped {rows[-1]['dropped']} of {len(guesses)}", flush=True)
    if args.save:
        with open(os.path.join(ROOT, "benchmarks", "results", "heuristic-keys.json"), "w",
                  encoding="utf-8") as fh:
            json.dump({"command": "python benchmarks/heuristic_keys.py " + " ".join(sys.argv[1:]),
                       "size": args.size, "first": first, "rows": rows}, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
