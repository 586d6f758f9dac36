"""Heuristic trees with the small sets walked whole in compiled code, against the heuristic asked
at every state (treegen/compiler.py, ``WALKED_FROM``; treegen/rules/score_kernels.py, ``walk_table``).

    python benchmarks/walked.py                                   # the preset games, minimax
    python benchmarks/walked.py --games bulls-and-cows --heuristics minimax,expected,parts
    python benchmarks/walked.py --limits 40,100,200 --rounds 7    # where the walk takes over

Compiles each tree in this process (the scorer a build uses made beforehand, the kernels
loaded), the walk and the heuristic asked at every state in turn (A B A B ...), and prints the
median seconds of each and the median of the pairwise ratios; with ``--limits``, each limit
of the walk in turn against asking at every state (a game without equivalent guesses has every
set walked, whatever the limit). The trees must be the same; the script stops if they are not.
``--save`` writes benchmarks/results/walked.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from treegen import compiler  # noqa: E402
from treegen.registry import make_strategy  # noqa: E402
from treegen.rules.game import Game  # noqa: E402
from treegen.rules.scoring import Scorer, scorer_for  # noqa: E402
from treegen.strategies.heuristics import Heuristic  # noqa: E402

FIRST = {"bulls-and-cows": "0123", "mastermind": "1122"}


def timed(game: Game, name: str, scorer: Scorer, limit: int | None) -> tuple[float, object]:
    """Seconds to compile the tree, and the tree: walked below ``limit`` secrets, or (None)
    asked at every state."""
    walked = Heuristic.walked
    if limit is None:
        Heuristic.walked = lambda self, game: None  # type: ignore[method-assign]
    else:
        compiler.WALKED_FROM = limit
    try:
        began = time.perf_counter()
        tree, depths = compiler.compile_tree(game, make_strategy(name), first=FIRST.get(game.name),
                                             scorer=scorer)
        return time.perf_counter() - began, (tree, depths.tolist())
    finally:
        Heuristic.walked = walked  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="bulls-and-cows,mastermind,muertos-y-heridos,wordle")
    parser.add_argument("--heuristics", default="minimax")
    parser.add_argument("--limits", default=str(compiler.WALKED_FROM))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    rows = []
    for game_name in args.games.split(","):
        game = Game.preset(game_name)
        scorer = scorer_for(game)  # as a build scores it: pegs from words, others a table
        for name in args.heuristics.split(","):
            for limit in (int(x) for x in args.limits.split(",")):
                timed(game, name, scorer, limit)  # the kernels loaded, the table read by secrets
                walk, ask, ratios = [], [], []
                for _ in range(args.rounds):
                    a, tree_a = timed(game, name, scorer, limit)
                    b, tree_b = timed(game, name, scorer, None)
                    if tree_a != tree_b:
                        sys.exit(f"{game_name} {name}: the walked tree differs")
                    walk.append(a)
                    ask.append(b)
                    ratios.append(a / b)
                sets = f"sets up to {limit}" if game.has_symmetries else "every set"
                row = {"game": game_name, "heuristic": name, "walked": sets,
                       "walked_s": statistics.median(walk), "asked_s": statistics.median(ask),
                       "ratio": statistics.median(ratios), "rounds": args.rounds}
                rows.append(row)
                print(f"{game_name:18} {name:9} {sets:16}: walked {row['walked_s']:.3f} s, "
                      f"asked {row['asked_s']:.3f} s, ratio {row['ratio']:.2f} "
                      f"({min(ratios):.2f}-{max(ratios):.2f})", flush=True)
    if args.save:
        with open(os.path.join(ROOT, "benchmarks", "results", "walked.json"), "w",
                  encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
