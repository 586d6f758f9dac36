"""The walk of every code over an alphabet (treegen/rules/score_kernels.py, ``walk_serial``) of
this checkout beside another's, kernel against kernel.

    python benchmarks/alphabet_walk.py --vs PATH                 # PATH: another checkout
    python benchmarks/alphabet_walk.py --vs PATH --sizes 12,30,300,3000 --rounds 7 --save

Random sets of secrets of 5 x 7 (one set of each size, the same for both), every heuristic,
every code over the seven symbols; each side runs in its own process with its own kernels (its
ahead-of-time module where current, else numba's JIT), in turn (A B A B ...). Prints the median
nanoseconds per (guess, secret) pair of each side and the median of the pairwise ratios; the
two sides' keys must be the same, bit for bit, or the script stops. ``--save`` writes
benchmarks/results/alphabet-walk.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = {"minimax": 1, "expected": 2, "parts": 3, "entropy": 4}

#: Run in each checkout: times the kernel on every set and kind, and prints the seconds per call
#: and a digest of the keys.
SIDE = r"""
import hashlib, json, sys, time
import numpy as np
from treegen.rules import native
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, entropy_steps
sizes, kinds, reps = json.loads(sys.argv[1])
game = Game("1234567", 5, True)
codes = CodeScorer(game, 1).codes
kernels = native.load()
rng = np.random.default_rng(1)
found = {}
for size in sizes:
    secrets = np.sort(rng.choice(game.size, size, replace=False)).astype(np.int64)
    placed, held = kernels.lay_out(codes.codes, codes.tally, secrets)
    steps = entropy_steps(size)
    alphabet = np.arange(7, dtype=np.uint8)
    keys = np.empty(7 ** 5)
    for kind in kinds:
        args = (kind, alphabet, placed, held, 6, 1, steps, keys, -1.0, -np.inf)
        try:  # every code scored (checkouts before the walk took the codes to score)
            kernels.walk_serial(*args, np.zeros(0, dtype=np.uint8))
            args += (np.zeros(0, dtype=np.uint8),)
        except TypeError:
            kernels.walk_serial(*args)
        times = max(1, reps // size)
        began = time.perf_counter()
        for _ in range(times):
            kernels.walk_serial(*args)
        seconds = (time.perf_counter() - began) / times
        found[f"{size} {kind}"] = [seconds, hashlib.sha256(keys.tobytes()).hexdigest()]
print(json.dumps({"origin": native.origin(), "found": found}))
"""


def side(path: str, sizes: list[int], kinds: list[int], reps: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", SIDE, json.dumps([sizes, kinds, reps])],
                         capture_output=True, text=True, check=True, cwd="/",
                         env={**os.environ, "PYTHONPATH": path})
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vs", required=True, help="another checkout of treegen")
    parser.add_argument("--sizes", default="12,30,300,3000")
    parser.add_argument("--heuristics", default="minimax,expected,parts,entropy")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=30000, help="secrets scored per timing")
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    kinds = [KINDS[name] for name in args.heuristics.split(",")]
    runs: dict[str, list[dict[str, list[object]]]] = {"this": [], "other": []}
    origins = {}
    for _ in range(args.rounds):
        for name, path in (("this", ROOT), ("other", os.path.abspath(args.vs))):
            result = side(path, sizes, kinds, args.reps)
            origins[name] = result["origin"]
            runs[name].append(result["found"])  # type: ignore[arg-type]
    rows = []
    print(f"kernels: this {origins['this']}, other {origins['other']}")
    print(f"{'size':>6} {'heuristic':<9} {'this ns/pair':>13} {'other ns/pair':>14} {'ratio':>6}")
    names = {kind: name for name, kind in KINDS.items()}
    for size in sizes:
        for kind in kinds:
            key = f"{size} {kind}"
            if runs["this"][0][key][1] != runs["other"][0][key][1]:
                sys.exit(f"the keys differ: {size} secrets, {names[kind]}")
            pairs = size * 7 ** 5
            mine = [float(run[key][0]) * 1e9 / pairs for run in runs["this"]]  # type: ignore[arg-type]
            theirs = [float(run[key][0]) * 1e9 / pairs for run in runs["other"]]  # type: ignore[arg-type]
            ratio = statistics.median(a / b for a, b in zip(mine, theirs))
            rows.append({"size": size, "heuristic": names[kind],
                         "this_ns_per_pair": round(statistics.median(mine), 3),
                         "other_ns_per_pair": round(statistics.median(theirs), 3),
                         "ratio": round(ratio, 3)})
            print(f"{size:>6} {names[kind]:<9} {statistics.median(mine):>13.2f} "
                  f"{statistics.median(theirs):>14.2f} {ratio:>6.2f}")
    if args.save:
        target = os.path.join(ROOT, "benchmarks", "results", "alphabet-walk.json")
        with open(target, "w", encoding="utf-8") as out:
            json.dump({"rounds": args.rounds, "origins": origins, "rows": rows}, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
