"""Plain, slow re-implementations used as the independent truth in tests.

Written for clarity, not speed: every partition is scored pair by pair with the plain scorer.
"""

from collections import Counter, defaultdict
from math import prod

from treegen.book.format import feedback
from treegen.book.replay import game_codes


def heuristic_key(name, guess, candidates):
    sizes = Counter(feedback(guess, s) for s in candidates).values()
    if name == "minimax":
        return max(sizes)
    if name == "expected":
        return sum(s * s for s in sizes)
    if name == "parts":
        return -len(sizes)
    if name == "entropy":  # max entropy = min prod(s^s), exactly
        return prod(s ** s for s in sizes)
    raise ValueError(name)


def reference_tree(game, name, pool):
    """The book tree a strategy must produce, by the rules stated in the README, with no shortcuts."""
    codes = game_codes(game.to_dict())
    order = {c: i for i, c in enumerate(codes)}
    solved = (game.length, 0)

    def choose(cands):
        if name == "simple" or len(cands) <= 2:
            return cands[0]
        guesses = codes if pool == "all" else cands
        possible = set(cands)
        return min(guesses, key=lambda g: (heuristic_key(name, g, cands), g not in possible, order[g]))

    def node(cands):
        guess = choose(cands)
        groups = defaultdict(list)
        for s in cands:
            groups[feedback(guess, s)].append(s)
        return {"guess": guess,
                "next": {f"{a}A{b}B": node(groups[(a, b)]) for a, b in sorted(groups) if (a, b) != solved}}

    return node(codes)
