"""Wall time of the whole `treegen build` command for every preset x strategy, and the source
document's max-entropy solver timed on a sample of secrets and extrapolated to the same book.

    python benchmarks/build_times.py [--repeat 3] [--sample 3] [--output FILE]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import seed_baseline  # noqa: E402

GAMES = ["mastermind", "bulls-and-cows", "muertos-y-heridos"]
STRATEGIES = [("simple", None), ("random", None), ("minimax", None), ("expected", None),
              ("entropy", None), ("parts", None), ("entropy", "consistent")]


def time_build(game, strategy, pool, repeat, folder):
    out = os.path.join(folder, f"{game}-{strategy}-{pool}.json")
    cmd = [sys.executable, "-m", "treegen", "build", "-g", game, "-s", strategy, "-o", out]
    if pool:
        cmd += ["--pool", pool]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    with open(out) as fh:
        return best, json.load(fh)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per book; the best is kept")
    parser.add_argument("--sample", type=int, default=3, help="secrets the baseline solver plays")
    parser.add_argument("--output", help="also write the table (Markdown) to this file")
    args = parser.parse_args()
    lines = ["| game | strategy | pool | total | max | build (s) |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        books = {}
        for game in GAMES:
            for strategy, pool in STRATEGIES:
                seconds, book = time_build(game, strategy, pool, args.repeat, folder)
                books[game, strategy, pool] = (seconds, book)
                s = book["strategy"]
                lines.append(f"| {game} | {strategy} | {s['pool']} | {book['stats']['total']} | "
                             f"{book['stats']['max']} | {seconds:.2f} |")
                print(lines[-1], flush=True)
        ours, book = books["bulls-and-cows", "entropy", "consistent"]
    codes = seed_baseline.all_candidates()
    depths = _depths(book)
    step = len(codes) // args.sample
    sample = [codes[i * step + step // 2] for i in range(args.sample)]
    start = time.perf_counter()
    for secret in sample:
        assert seed_baseline.solve(secret, codes) == depths[secret], secret
    per_secret = (time.perf_counter() - start) / len(sample)
    estimate = per_secret * len(codes)
    lines += ["", f"Source document's entropy solver: {per_secret:.2f} s per secret on {len(sample)} "
              f"secrets (same guesses as the book), about {estimate / 3600:.1f} h for all 5040; "
              f"treegen builds that book in {ours:.2f} s: {estimate / ours:,.0f}x faster."]
    print("\n".join(lines[-2:]))
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("\n".join(lines) + "\n")


def _depths(book):
    depths, stack = {}, [(book["tree"], 1)]
    while stack:
        node, depth = stack.pop()
        depths.setdefault(node["guess"], depth)
        stack.extend((child, depth + 1) for child in node["next"].values())
    return depths


if __name__ == "__main__":
    main()
