"""The checker's hardest claim on Wordle: every first guess of the whole game raised by the floors
of its classes, largest first, until it reaches the optimum (7,920), as the first claim of the
game's certificate is checked; this checkout's checker against an earlier revision's.

    python benchmarks/checker_first_claim.py --vs 5ad5a5e --guesses 30 --rounds 3

The same first guesses (drawn with a fixed seed) are timed by each checker in a fresh process, in
turn (A B A B ...). Prints the CPU seconds a guess (medians) and their ratio, and writes
benchmarks/results/checker_first_claim-REV.json.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from checker_speed import revision_tree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPTIMUM = 7920
#: Run with the checker to time on the path: the CPU seconds a guess, and where it ran.
SNIPPET = """
import random, sys, time
import numpy as np
import treegen
from treegen.certificate.floors import Floors
from treegen.certificate.rules import rules_of
from treegen.rules.game import Game
rules = rules_of(dict(Game.preset("wordle").to_dict()))
floors, cands = Floors(rules), np.arange(rules.secrets)
widest = floors.widest(cands, np.arange(len(rules.codes)))
level = floors.level(widest, -1)
sample = random.Random(3).sample(range(len(rules.codes)), int(sys.argv[1]))
start = time.process_time()
for guess in sample:
    scores = rules.score(np.array([guess]), cands)[:, 0]
    counts = np.bincount(scores, minlength=len(rules.answers))
    counts[rules.solved] = 0
    value = len(cands) + int(level[counts].sum())
    for answer in np.argsort(-counts, kind="stable"):
        if value >= %d or counts[answer] <= 2:
            break
        floor = floors.floors([cands[scores == answer]], [None], -1, widest)[0]
        value += max(int(floor), int(level[counts[answer]])) - int(level[counts[answer]])
print((time.process_time() - start) / len(sample), treegen.__file__)
""" % OPTIMUM


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vs", required=True, help="the git revision of the checker to compare")
    parser.add_argument("--guesses", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times = {"base": [], "this": []}
    with tempfile.TemporaryDirectory() as folder:
        base = revision_tree(args.vs, folder)
        for _ in range(args.rounds):
            for who, path in (("base", base), ("this", ROOT)):
                said = subprocess.run([sys.executable, "-c", SNIPPET, str(args.guesses)],
                                      check=True, capture_output=True, text=True, cwd=folder,
                                      env={**os.environ, "PYTHONPATH": path}).stdout.split()
                if not said[1].startswith(path):
                    sys.exit(f"the check ran {said[1]}, not the checker in {path}")
                times[who].append(float(said[0]))
    row = {"vs": args.vs, "guesses": args.guesses, "rounds": args.rounds, "runs": times,
           "base_s": statistics.median(times["base"]), "this_s": statistics.median(times["this"])}
    row["ratio"] = round(row["this_s"] / row["base_s"], 3)
    print(f"a first guess: {row['base_s']:.3f} s at {args.vs}, {row['this_s']:.3f} s here "
          f"({row['ratio']}); all 12,972: {row['this_s'] * 12972 / 60:.0f} min of one core")
    with open(os.path.join(ROOT, "benchmarks", "results", f"checker_first_claim-{args.vs}.json"),
              "w", encoding="utf-8") as fh:
        json.dump(row, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
