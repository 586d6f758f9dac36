"""`treegen next` against every book of the library: at random positions on each book's paths
(from its first guess down), the guess computed live equals the book's.

    python benchmarks/next_agreement.py [--positions 200] [--only 'wordle-*'] [--save]

A heuristic book is asked of its own strategy (name, pool, seed). An optimal book (proven, not
bounded) is asked of the exact search from the position, within the book's depth limit (none, not
Wordle's six, for a book built without one), at the positions
where ``next`` solves exactly by default (see ``treegen.sessions.advice.exact_from``; from larger
sets the search takes minutes to hours): the same guess, since the search's choice is canonical.
Bounded and grafted books are skipped: their moves are their search's word, which only the book
holds. Prints a line per book (positions checked, disagreements, skipped, seconds); ``--save``
writes benchmarks/results/next-agreement.json.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tests.helpers.positions import positions  # noqa: E402
from treegen.rules.game import Game  # noqa: E402
from treegen.sessions.advice import advise, exact_from  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--only", default="*", help="book names (shell pattern)")
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    folder = os.path.join(os.path.dirname(HERE), "books")
    rows, failed = [], 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json") or not fnmatch.fnmatch(name[:-5], args.only):
            continue
        with open(os.path.join(folder, name)) as fh:
            book = json.load(fh)
        if not isinstance(book, dict) or "tree" not in book:
            continue
        strategy, game = book["strategy"], Game.from_dict(book["game"])
        began, checked, differ, skipped = time.perf_counter(), 0, 0, 0
        for moves, guess in positions(book, random.Random(name), args.positions):
            if "grafted" in strategy:  # a heuristic's book with records' trees grafted in
                skipped += 1
                continue
            if strategy["name"] == "optimal":
                if strategy.get("width") is not None or not strategy.get("optimal"):
                    skipped += 1
                    continue
                if len(advise(game, moves, strategy="simple").candidates) > exact_from(game):
                    skipped += 1
                    continue
                limit = strategy.get("max_depth") or game.size  # the book's, or none
                advice = advise(game, moves, strategy="optimal", max_depth=limit)
            else:
                advice = advise(game, moves, strategy=strategy["name"], pool=strategy["pool"],
                                seed=strategy.get("seed"))
            checked += 1
            if advice.guess != guess:
                differ += 1
                print(f"  {name}: after {moves} the book plays {guess}, next {advice.guess}")
        seconds = round(time.perf_counter() - began, 1)
        failed += differ
        rows.append({"book": name[:-5], "checked": checked, "differ": differ,
                     "skipped": skipped, "seconds": seconds})
        print(f"{name[:-5]}: {checked} checked, {differ} differ, {skipped} skipped, {seconds} s",
              flush=True)
    print(f"{len(rows)} books, {sum(r['checked'] for r in rows)} positions, {failed} differ")
    if args.save:
        with open(os.path.join(HERE, "results", "next-agreement.json"), "w") as fh:
            json.dump({"positions": args.positions, "books": rows}, fh, indent=1)
            fh.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
