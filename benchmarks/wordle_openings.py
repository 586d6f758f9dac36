"""The exact optimum of Wordle after each of its best first guesses, beside the figures Selby
published for them (alex1770/wordle, ``normal.top105.proven``: original lists, normal mode), or in
hard mode beside what Selby's solver finds when run here with the same rule.

    python benchmarks/wordle_openings.py              # the fifteen best first guesses
    python benchmarks/wordle_openings.py salet crane  # any others
    python benchmarks/wordle_openings.py --hard --selby PATH/wordle   # hard mode, both solvers

Prints each first guess, treegen's optimum after it, the other figure and the seconds treegen's
search took (one process, one job, the tables built once). Hard mode is treegen's (every guess a
word that could still be the answer): Selby's ``-U`` ("ultrahard"), run with ``-g10`` so that his
default limit of six guesses does not bind (his ``-H`` is the NYT's looser rule). No hard-mode
figures for this rule are published; ``--selby`` computes them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

#: Selby's proven optima after the fifteen best first guesses (original lists, normal mode).
PUBLISHED = {"salet": 7920, "reast": 7923, "crate": 7926, "trace": 7926, "slate": 7928,
             "crane": 7930, "carle": 7937, "slane": 7943, "carte": 7949, "torse": 7950,
             "slant": 7951, "trice": 7952, "least": 7954, "trine": 7956, "prate": 7958}


def selby(binary: str, word: str) -> int:
    """Selby's optimum after ``word`` in hard mode (``-U``), original lists, no depth limit."""
    lists = os.path.dirname(os.path.abspath(binary))
    out = subprocess.run([binary, "-a", os.path.join(lists, "wordlist_orig_all"),
                          "-h", os.path.join(lists, "wordlist_orig_hidden"), "-U", "-g10",
                          "-w", word], capture_output=True, text=True, check=True).stdout
    found = re.search(r"Best first guess score = (\d+)", out)
    if found is None:
        raise SystemExit(f"no score in the output of {binary} for {word}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("words", nargs="*", default=list(PUBLISHED), help="first guesses")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    parser.add_argument("--selby", default=None,
                        help="path of alex1770/wordle's binary (its word lists beside it)")
    args = parser.parse_args()
    from dataclasses import replace

    from treegen.api import build_book
    from treegen.rules.game import Game
    from treegen.rules.scoring import guess_table, score_table
    from treegen.search.options import SearchOptions
    game = replace(Game.preset("wordle"), hard=args.hard)
    score_table(game)
    if args.hard:
        guess_table(game)
    other = "selby -U" if args.hard else "published"
    print(f"{'first':6} {'treegen':>8} {other:>10} {'seconds':>8}")
    agree = True
    for word in args.words:
        start = time.perf_counter()
        total = build_book(game, "optimal", first=word, search=SearchOptions(jobs=1))["stats"]["total"]
        seconds = time.perf_counter() - start
        if args.hard:
            figure = selby(args.selby, word) if args.selby else None
        else:
            figure = PUBLISHED.get(word)
        agree &= figure is None or figure == total
        print(f"{word:6} {total:8} {figure if figure else '':>10} {seconds:8.2f}")
    print(f"all agree with {other}" if agree else f"DISAGREEMENT with {other}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
