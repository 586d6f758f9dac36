"""The exact optimum of Wordle after each of its best first guesses, beside the figures Selby
published for them (alex1770/wordle, ``normal.top105.proven``: original lists, normal mode).

    python benchmarks/wordle_openings.py              # the fifteen best first guesses
    python benchmarks/wordle_openings.py salet crane  # any others

Prints each first guess, treegen's optimum after it, the published figure and the seconds the
search took (one process, one job, the score table built once).
"""

from __future__ import annotations

import argparse
import sys
import time

#: Selby's proven optima after the fifteen best first guesses (original lists, normal mode).
PUBLISHED = {"salet": 7920, "reast": 7923, "crate": 7926, "trace": 7926, "slate": 7928,
             "crane": 7930, "carle": 7937, "slane": 7943, "carte": 7949, "torse": 7950,
             "slant": 7951, "trice": 7952, "least": 7954, "trine": 7956, "prate": 7958}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("words", nargs="*", default=list(PUBLISHED), help="first guesses")
    args = parser.parse_args()
    from treegen.api import build_book
    from treegen.rules.game import Game
    from treegen.rules.scoring import score_table
    game = Game.preset("wordle")
    score_table(game)
    print(f"{'first':6} {'treegen':>8} {'published':>10} {'seconds':>8}")
    agree = True
    for word in args.words:
        start = time.perf_counter()
        total = build_book(game, "optimal", first=word, jobs=1)["stats"]["total"]
        seconds = time.perf_counter() - start
        published = PUBLISHED.get(word)
        agree &= published is None or published == total
        print(f"{word:6} {total:8} {published if published else '':>10} {seconds:8.2f}")
    print("all agree with the published figures" if agree else "DISAGREEMENT with a published figure")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
