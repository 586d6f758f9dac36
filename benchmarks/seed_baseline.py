"""The source document's approach, for comparison: replay each secret from scratch, scoring pairs in
Python, choosing the candidate of maximal entropy over the remaining candidates (its "smart" solver)
or simply the first remaining candidate (its "simple" solver).

Kept faithful to that approach on purpose (string scoring, lists, dicts), not optimised.
"""

import math
from itertools import permutations


def diff_pattern(secret: str, candidate: str) -> str:
    a = b = 0
    for i in range(len(secret)):
        if secret[i] == candidate[i]:
            a += 1
        if candidate[i] in secret:
            b += 1
    return f"{a}A{b - a}B"


def all_candidates(digits: str = "0123456789", length: int = 4) -> list[str]:
    return ["".join(p) for p in permutations(digits, length)]


def choose_max_entropy(candidates: list[str], first: str) -> str:
    if candidates[0] == first:
        return candidates[0]
    best, best_entropy = candidates[0], 0.0
    for candidate in candidates:
        dist: dict[str, int] = {}
        for expected in candidates:
            r = diff_pattern(expected, candidate)
            dist[r] = dist.get(r, 0) + 1
        entropy = 0.0
        for count in dist.values():
            p = count / len(candidates)
            entropy -= p * math.log(p)
        if entropy > best_entropy:
            best, best_entropy = candidate, entropy
    return best


def choose_first(candidates: list[str], first: str) -> str:
    """The simple solver: the first remaining candidate (``first`` unused; the same signature)."""
    return candidates[0]


def solve(secret: str, codes: list[str], choose=choose_max_entropy) -> int:
    """Guesses a solver needs for one secret: the smart one unless ``choose`` says otherwise."""
    candidates = list(codes)
    guesses = 0
    while True:
        guess = choose(candidates, codes[0])
        guesses += 1
        pattern = diff_pattern(secret, guess)
        if pattern == f"{len(secret)}A0B":
            return guesses
        candidates = [x for x in candidates if diff_pattern(x, guess) == pattern]
