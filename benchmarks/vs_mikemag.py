"""Heuristic books beside the totals mikemag/Mastermind publishes (C++ and CUDA, its results/
folder): the same game, heuristic and first guess, treegen's total and longest game against
theirs, and treegen's time on this machine's CPU beside theirs on a GPU.

    python benchmarks/vs_mikemag.py --games p6c6,p6c7 --strategies minimax,parts
    python benchmarks/vs_mikemag.py --games p7c6 --strategies minimax --jobs 2 --save

Minimax ("Knuth") and most parts count whole numbers and break ties as treegen does (best score,
then a possible secret, then the first code), so their totals must agree exactly; expected size
and entropy compare floats there, so a tie of exactly equal class sizes may be broken otherwise
and the totals may differ a little. ``--save`` adds the figures to
benchmarks/results/vs-mikemag.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import saved as saved_results

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heuristic_scale import measured

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "vs-mikemag.json")
#: Where the published figures are: mikemag/Mastermind, results/2023_4090/ (an RTX 4090 and an
#: i9-13900K), the "aa" runs of 2023-10-14, one file per number of pins.
SOURCE = "mikemag/Mastermind results/2023_4090/mastermind_run_stats_20231014_*_aa_*.json"
#: treegen's heuristic by mikemag's name
NAMES = {"Knuth": "minimax", "Most Parts": "parts", "Expected Size": "expected", "Entropy": "entropy"}
#: (pins, colours, their strategy): (first guess, total, longest game, their seconds)
PUBLISHED = {
    (5, 7, "Knuth"): ("11223", 87936, 7, 0.009),
    (5, 7, "Most Parts"): ("11223", 86869, 7, 0.010),
    (5, 7, "Expected Size"): ("11223", 86592, 7, 0.009),
    (5, 7, "Entropy"): ("11223", 86412, 7, 0.009),
    (6, 6, "Knuth"): ("111234", 248146, 7, 0.029),
    (6, 6, "Most Parts"): ("112233", 244179, 8, 0.026),
    (6, 6, "Expected Size"): ("112233", 243157, 7, 0.027),
    (6, 6, "Entropy"): ("111223", 242481, 7, 0.028),
    (6, 7, "Knuth"): ("112234", 672380, 8, 0.106),
    (6, 7, "Most Parts"): ("112233", 663885, 9, 0.101),
    (6, 7, "Expected Size"): ("112234", 659304, 8, 0.101),
    (6, 7, "Entropy"): ("112234", 658296, 8, 0.102),
    (6, 8, "Knuth"): ("112234", 1595582, 8, 0.407),
    (6, 8, "Most Parts"): ("112233", 1580082, 9, 0.402),
    (6, 8, "Expected Size"): ("112234", 1562640, 8, 0.404),
    (6, 8, "Entropy"): ("112233", 1560667, 8, 0.418),
    (7, 6, "Knuth"): ("1122334", 1624868, 8, 0.438),
    (7, 6, "Most Parts"): ("1112233", 1602722, 9, 0.421),
    (7, 6, "Expected Size"): ("1112233", 1593267, 8, 0.455),
    (7, 6, "Entropy"): ("1112233", 1589047, 8, 0.464),
    (7, 7, "Knuth"): ("1122334", 5124234, 8, 2.786),
    (7, 7, "Most Parts"): ("1112233", 5073674, 10, 2.302),
    (7, 7, "Expected Size"): ("1112233", 5104162, 9, 2.222),
    (7, 7, "Entropy"): ("1122334", 5013700, 9, 2.980),
    (8, 6, "Knuth"): ("11122334", 10658126, 9, 14.887),
    (8, 6, "Most Parts"): ("11122233", 10540468, 10, 12.379),
    (8, 6, "Expected Size"): ("11112223", 10644968, 9, 12.887),
    (8, 6, "Entropy"): ("11122334", 10405318, 9, 15.141),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="p5c7,p6c6", help="pPcC, comma-separated")
    parser.add_argument("--strategies", default="minimax,parts,expected,entropy")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    wanted = set(args.strategies.split(","))
    runs = []
    print("| game | heuristic | first | treegen total (max) | published total (max) | same | "
          "treegen CPU s | wall s | peak MB | published s (GPU) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games.split(","):
        pins, colours = (int(x) for x in game[1:].split("c"))
        for (p, c, theirs), (first, total, longest, seconds) in PUBLISHED.items():
            ours = NAMES[theirs]
            if (p, c) != (pins, colours) or ours not in wanted:
                continue
            with tempfile.TemporaryDirectory() as folder:
                book = os.path.join(folder, "book.json")
                command = [sys.executable, "-m", "treegen", "build", "--symbols",
                           "123456789"[:colours], "--length", str(pins), "--repetition", "-s", ours,
                           "--first", first, "-j", str(args.jobs), "-o", book]
                wall, cpu, peak, _ = measured(command)
                with open(book, encoding="utf-8") as handle:
                    stats = json.load(handle)["stats"]
            same = stats["total"] == total and stats["max"] == longest
            runs.append({"game": game, "strategy": ours, "first": first, "jobs": args.jobs,
                         "total": stats["total"], "max": stats["max"], "published_total": total,
                         "published_max": longest, "same": same, "cpu": cpu, "wall": wall,
                         "peak_bytes": peak, "published_seconds": seconds})
            print(f"| {pins} × {colours} | {ours} | {first} | {stats['total']:,} ({stats['max']}) | "
                  f"{total:,} ({longest}) | {'yes' if same else 'no'} | {cpu:.1f} | {wall:.1f} | "
                  f"{peak / 1e6:.0f} | {seconds} |", flush=True)
    if args.save:
        saved_results.append(RESULTS, source=SOURCE, runs=runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
