"""CPU time of the exact search of one class of an opening, in this process, one core: the part
of a campaign's piece that the engine decides.

    python benchmarks/class_search.py --symbols 123456789 --length 5 --no-repetition \
        --first 12345 --feedback 1A1B                          # 1,440 secrets, cost 6,164
    python benchmarks/class_search.py --symbols 1234567 --length 5 --first 11223 --feedback 2A1B

Prints one JSON line: the class, its cost, CPU seconds of the search (kernels loaded before the
clock starts) and the guesses it tried. Compare two trees in paired runs (A B A B ...).
"""

import argparse
import json
import time

import numpy as np

from treegen.rules.game import Game
from treegen.run.seam import Inline
from treegen.search.bounds import UNLIMITED
from treegen.search.exact import Search
from treegen.search.tasks import Tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--symbols", required=True)
    parser.add_argument("--length", type=int, required=True)
    parser.add_argument("--no-repetition", action="store_true")
    parser.add_argument("--first", required=True)
    parser.add_argument("--feedback", required=True)
    args = parser.parse_args()
    game = Game.make(symbols=args.symbols, length=args.length,
                     repetition=not args.no_repetition)
    guess = game.index(game.validate_code(args.first))
    solver = Search(game, None, None, 2 << 30)
    f = game.feedback_texts.index(args.feedback)
    ordered, start, _ = solver.split(guess, np.arange(game.size, dtype=np.int64))
    cands = ordered[start[f]:start[f + 1]]
    began = time.process_time()
    with Inline().farm(Tasks(solver)) as farm:
        cost, plan = solver.best_with(cands, ((guess, f),), UNLIMITED, farm, follow=1)
    seconds = time.process_time() - began
    print(json.dumps({"first": args.first, "feedback": args.feedback, "secrets": len(cands),
                      "cost": cost, "cpu_seconds": round(seconds, 2),
                      "states": len(plan or {})}))


if __name__ == "__main__":
    main()
