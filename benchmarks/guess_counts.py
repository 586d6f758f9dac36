"""The guesses a heuristic build scores, state by state, beside ``mmstrat -prof``: how many states
need every guess scored (no possible secret splits the set as evenly as any guess could) and how
many guesses are scored there, after each program's reduction of equivalent guesses (mmstrat:
its colour and constraint equivalence filters; treegen: the symbols the secrets hold and one
other, inside the compiled walk one code of each pair that a swap of two symbols or two
positions keeping the set joins, and, above it, one guess of each class the history's
symmetries make).

    python benchmarks/guess_counts.py --games p5c7,p6c6 --strategies expected
    python benchmarks/guess_counts.py --mmstrat ~/.cache/treegen-anchors/mmstrat --save

treegen's states above the compiled walk are counted where Python scores them; the walk's
(:func:`treegen.rules.code_walk.walk_codes`) are counted by replaying its subtrees with its rule:
a set of three or more whose possible secrets do not reach the least key any guess can have
is scored against the codes over its alphabet that the walk's rules of order pass. mmstrat's
figures are its counters ``EvaluateHeuristic_Candidates`` (calls: such states; operations: the
guesses they scored). ``--save`` adds the figures to benchmarks/results/guess-counts.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import saved as saved_results
from heuristic_scale import GAMES, MMSTRAT

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "guess-counts.json")


def treegen_counts(arguments: list[str], strategy: str) -> tuple[int, int, int]:
    """(states scored against every guess, guesses scored there, the book's total) of one build
    in this process, one job."""
    from treegen.cli.main import main
    from treegen.rules import scoring
    from treegen.rules.scoring import CodeScorer

    tally = {"states": 0, "guesses": 0}
    scan_alphabet, keys, walk = scoring.scan_alphabet, CodeScorer.keys, CodeScorer.walk

    def counted_scan(game, kind, alphabet, secrets, steps, best=None, wanted=None, threads=None):
        tally["states"] += 1
        tally["guesses"] += int(wanted.sum()) if wanted is not None else \
            len(alphabet) ** game.codes.shape[1]
        return scan_alphabet(game, kind, alphabet, secrets, steps, best, wanted, threads)

    def counted_keys(self, heuristic, guesses, secrets, best_only=False):
        if guesses is not None and not np.array_equal(guesses, secrets):  # a state's guesses
            tally["states"] += 1
            tally["guesses"] += len(guesses)
        return keys(self, heuristic, guesses, secrets, best_only)

    def counted_walk(self, kind, consistent, secrets, level, depths, guessed=()):
        found = walk(self, kind, consistent, secrets, level, depths, guessed)
        if found is not None:
            _replayed(self, keys, kind, np.asarray(secrets), found, tally)
        return found

    scoring.scan_alphabet, CodeScorer.keys, CodeScorer.walk = \
        counted_scan, counted_keys, counted_walk
    try:
        with tempfile.TemporaryDirectory() as folder:
            book = os.path.join(folder, "book.json")
            main(["build", *arguments, "-s", strategy, "-j", "1", "-o", book],
                 standalone_mode=False)
            with open(book, encoding="utf-8") as handle:
                total = int(json.load(handle)["stats"]["total"])
    finally:
        scoring.scan_alphabet, CodeScorer.keys, CodeScorer.walk = scan_alphabet, keys, walk
    return tally["states"], tally["guesses"], total


def _replayed(scorer, keys, kind: int, secrets: np.ndarray, found, tally: dict[str, int]) -> None:
    """Count the states of a walked subtree (nodes depth first, answers in index order) that the
    walk scores against every code over the state's alphabet, and the codes it scores there:
    those its rules of order pass (one of each pair of codes a swap that keeps the set
    joins); ``keys``: the scorer's own."""
    from treegen.rules.code_walk import _symmetries
    from treegen.rules.scoring import least_key
    guesses, answers, levels = found
    game = scorer.game
    sets: list[np.ndarray] = []
    for node in range(len(guesses)):  # the set each node decides, rebuilt from its parent's
        if node == 0:
            here = secrets
        else:
            parent = _parent(levels, node)
            row = scorer.block(np.array([guesses[parent]]), sets[parent])[0]
            here = sets[parent][row == answers[node]]
        sets.append(here)
        n = len(here)
        if n <= 2:
            continue
        least = least_key(kind, n, scorer.nfb)
        lead = keys(scorer, _fused(kind), here, here)
        if lead.min() <= least:
            continue
        held = np.unique(game.codes[here])
        spare = np.setdiff1d(np.arange(len(game.symbols)), held)[:1]
        alphabet = np.sort(np.concatenate([held, spare])).astype(np.uint8)
        after = np.zeros(len(alphabet), dtype=np.int64)
        before = np.zeros(game.length, dtype=np.int64)
        at = int(np.searchsorted(alphabet, spare[0])) if len(spare) else -1
        _symmetries(game.codes, np.asarray(here, dtype=np.int64), len(game.symbols), alphabet, at,
                    after, before)
        tally["states"] += 1
        tally["guesses"] += _passed(len(alphabet), game.length, after, before)


def _passed(width: int, length: int, after: np.ndarray, before: np.ndarray) -> int:
    """The codes of ``length`` over ``width`` symbols that the walk's rules of order pass."""
    digits = np.indices((width,) * length).reshape(length, -1).T
    passed = np.ones(len(digits), dtype=bool)
    for q in range(length):
        for p in range(q):
            if before[q] >> p & 1:
                passed &= digits[:, p] <= digits[:, q]
    first = np.where((digits[:, :, None] == np.arange(width)).any(axis=1),
                     (digits[:, :, None] == np.arange(width)).argmax(axis=1), length)
    for d in range(width):
        for e in range(d):
            if after[d] >> e & 1:
                passed &= (first[:, d] == length) | (first[:, e] < first[:, d])
    return int(passed.sum())


def _parent(levels: np.ndarray, node: int) -> int:
    for above in range(node - 1, -1, -1):
        if levels[above] == levels[node] - 1:
            return above
    raise ValueError("a walked node without a parent")


def _fused(kind: int):
    from treegen.strategies.heuristics import HEURISTICS
    name = {1: "minimax", 2: "expected", 3: "parts", 4: "entropy"}[kind]
    return HEURISTICS[name]()


def mmstrat_counts(binary: str, rules: str, strategy: str) -> tuple[int, int, int]:
    """(calls, guesses, total) from mmstrat's profile of the same game and heuristic."""
    text = subprocess.run([binary, "-S", "-prof", "-r", rules, "-s", MMSTRAT[strategy]],
                          capture_output=True, text=True, check=True).stdout
    part = text.split("EvaluateHeuristic_Candidates()")[1]
    calls = int(re.search(r"Total # of calls : (\d+)", part).group(1))
    ops = int(re.search(r"Total # of ops\s*: (\d+)", part).group(1))
    total = int(text.splitlines()[1].split()[1])
    return calls, ops, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="p5c7,p6c6", help=f"comma-separated, of {', '.join(GAMES)}")
    parser.add_argument("--strategies", default="minimax,expected,parts,entropy",
                        help=f"comma-separated, of {', '.join(MMSTRAT)}")
    parser.add_argument("--mmstrat", default=None, help="path of an mmstrat binary to compare with")
    parser.add_argument("--save", action="store_true", help=f"add the figures to {RESULTS}")
    args = parser.parse_args()
    rows = []
    print(f"{'game':5} {'strategy':8} {'treegen states':>15} {'guesses':>12} {'mmstrat states':>15} "
          f"{'guesses':>12} {'ratio':>6}")
    for name in args.games.split(","):
        arguments, rules = GAMES[name]
        for strategy in args.strategies.split(","):
            states, guesses, total = treegen_counts(arguments, strategy)
            row = {"game": name, "strategy": strategy, "states": states, "guesses": guesses,
                   "total": total}
            line = f"{name:5} {strategy:8} {states:15,} {guesses:12,}"
            if args.mmstrat:
                calls, ops, theirs = mmstrat_counts(args.mmstrat, rules, strategy)
                row.update(mmstrat_states=calls, mmstrat_guesses=ops, mmstrat_total=theirs)
                line += f" {calls:15,} {ops:12,} {guesses / ops:6.2f}"
            rows.append(row)
            print(line, flush=True)
    if args.save:
        saved_results.append(RESULTS, runs=rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
