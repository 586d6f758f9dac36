"""Plain, slow re-implementations used as the independent truth in tests.

Written for clarity, not speed: every partition is scored pair by pair with the plain scorer.
"""

from collections import Counter, defaultdict
from math import prod

from treegen.book.replay import game_codes
from treegen.player import score, solved_key


def heuristic_key(name, guess, candidates, rule="pegs"):
    sizes = Counter(score(guess, s, rule) for s in candidates).values()
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
    """The book tree a strategy must produce, by the rules stated in the README, with no shortcuts:
    every answer scored pair by pair by the player's scorer, in whichever orientation the rule has."""
    rules = game.to_dict()
    codes = game_codes(rules)
    everyone = list(rules.get("guesses", codes))
    order = {c: i for i, c in enumerate(everyone)}
    rule, solved = rules.get("rule", "pegs"), solved_key(rules)

    def choose(cands):
        if name == "simple" or len(cands) <= 2:
            return cands[0]
        guesses = everyone if pool == "all" else cands
        possible = set(cands)
        return min(guesses, key=lambda g: (heuristic_key(name, g, cands, rule), g not in possible,
                                           order[g]))

    def node(cands):
        guess = choose(cands)
        groups = defaultdict(list)
        for s in cands:
            groups[score(guess, s, rule)].append(s)
        return {"guess": guess,
                "next": {key: node(groups[key]) for key in sorted(groups) if key != solved}}

    return node(codes)
