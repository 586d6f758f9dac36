"""An independent exact solver, the second program the compiled search is checked against.

It shares no code with treegen's search: its own enumeration of codes and its own scorer (plain
Python, pair by pair), sets of secrets as Python integers used as bit sets, plain recursion with a
memo, and no bound but the trivial one (a set of n secrets costs at least 2n - 1 guesses: one
guess finds at most one secret at once, every other needs two or more), used to stop a guess as
soon as it cannot beat the best one found. Guesses that split the set the same way are one guess
to it, which is exact, not a bound. Slow on large sets, simple enough to read in one sitting.

In hard mode a state is the set of secrets and the set of guesses its history allows (each guess
must give every answer so far, were it the secret), both bit sets; guesses are then never merged,
since two that split the secrets alike may leave different guesses allowed. Under Wordle's own
hard mode ("hints") a guess must instead keep every green in place and use every green or yellow
letter again, as often as the answer marked it, which is checked by hand too.
"""

from __future__ import annotations

import itertools

INFINITE = float("inf")


def codes_of(symbols: str, length: int, repetition: bool) -> list[str]:
    """Every code, in dictionary order of the symbol string."""
    pick = itertools.product(symbols, repeat=length) if repetition else \
        itertools.permutations(symbols, length)
    return ["".join(code) for code in pick]


def score(guess: str, secret: str) -> tuple[int, int]:
    """(in place, elsewhere), counted by hand."""
    here = sum(g == s for g, s in zip(guess, secret))
    common = 0
    left = list(secret)
    for g in guess:
        if g in left:
            left.remove(g)
            common += 1
    return here, common - here


def tiles(guess: str, secret: str) -> str:
    """Wordle's answer, counted by hand: greens first, then yellows from the letters left."""
    out = ["."] * len(guess)
    left = []
    for i, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            out[i] = "G"
        else:
            left.append(s)
    for i, g in enumerate(guess):
        if out[i] != "G" and g in left:
            out[i] = "Y"
            left.remove(g)
    return "".join(out)


def black(guess: str, secret: str) -> int:
    """Black pegs only: the symbols in place."""
    return sum(g == s for g, s in zip(guess, secret))


def jotto(guess: str, secret: str) -> str:
    """Jotto: the symbols the two share, each as often as both have it; "win" for the secret
    itself only (an anagram of it answers its length)."""
    if guess == secret:
        return "win"
    left = list(secret)
    shared = 0
    for g in guess:
        if g in left:
            left.remove(g)
            shared += 1
    return str(shared)


SCORERS = {"pegs": score, "wordle": tiles, "black": black, "jotto": jotto}


def keeps_hints(guess: str, answer: str, other: str) -> bool:
    """Whether ``other`` may follow ``guess`` answered ``answer`` (tiles) in Wordle's own hard
    mode: each green letter in its place, each letter as often as the answer marked it."""
    if any(tile == "G" and o != g for g, tile, o in zip(guess, answer, other)):
        return False
    return all(other.count(letter) >= sum(1 for g, tile in zip(guess, answer)
                                          if g == letter and tile != ".")
               for letter in set(guess))


def floor(size: int) -> int:
    """The trivial lower bound of a set of ``size`` secrets."""
    return 2 * size - 1 if size else 0


class Reference:
    """The optimal total of any set of secrets of one game, optionally within a depth limit."""

    def __init__(self, symbols: str, length: int, repetition: bool, rule: str = "pegs",
                 answers: list[str] | None = None, guesses: list[str] | None = None,
                 hard: bool | str = False) -> None:
        #: The secrets; every code, or the listed answers (then only ``guesses`` may be guessed).
        self.codes = list(answers) if answers is not None else codes_of(symbols, length, repetition)
        self.guesses = list(guesses) if guesses is not None else self.codes
        self.hard = hard
        scorer = self.scorer = SCORERS[rule]
        #: Per guess: the bit set of the secrets that give each answer, the guess itself apart.
        self.classes: list[list[int]] = []
        for guess in (guesses if guesses is not None else self.codes):
            by_answer: dict[object, int] = {}
            for i, secret in enumerate(self.codes):
                if secret != guess:
                    answer = scorer(guess, secret)
                    by_answer[answer] = by_answer.get(answer, 0) | 1 << i
            self.classes.append(list(by_answer.values()))
        #: Hard mode, per guess: (the secrets, the guesses) that give each answer, the guess apart.
        self.fitting: list[list[tuple[int, int]]] = []
        for guess in self.guesses if hard else ():
            both: dict[object, tuple[int, int]] = {}
            for i, secret in enumerate(self.codes):
                if secret != guess:
                    answer = scorer(guess, secret)
                    old = both.get(answer, (0, 0))
                    both[answer] = (old[0] | 1 << i, old[1])
            if hard == "hints":
                both = {answer: (part, sum(1 << j for j, other in enumerate(self.guesses)
                                           if keeps_hints(guess, str(answer), other)))
                        for answer, (part, _) in both.items()}
            else:
                for j, other in enumerate(self.guesses):
                    if other != guess:
                        answer = scorer(guess, other)
                        old = both.get(answer, (0, 0))
                        both[answer] = (old[0], old[1] | 1 << j)
            self.fitting.append(list(both.values()))
        #: (set, allowed guesses, depth) -> (value, exact): the cost, or a lower bound when not
        #: exact (allowed: 0 outside hard mode).
        self.memo: dict[tuple[int, int, int | None], tuple[float, bool]] = {}

    def every_guess(self) -> int:
        """The bit set of all guesses: what hard mode allows before the first."""
        return (1 << len(self.guesses)) - 1

    def allowed_after(self, history: list[tuple[str, object]]) -> int:
        """The guesses hard mode allows after (guess, answer) pairs, counted by hand."""
        scorer = self.scorer
        if self.hard == "hints":
            return sum(1 << j for j, other in enumerate(self.guesses)
                       if all(keeps_hints(g, str(a), other) for g, a in history))
        return sum(1 << j for j, other in enumerate(self.guesses)
                   if all(scorer(g, other) == a for g, a in history))

    def bits(self, secrets: list[str]) -> int:
        where = {code: i for i, code in enumerate(self.codes)}
        return sum(1 << where[s] for s in secrets)

    def cost(self, secrets: int, depth: int | None = None, budget: float = INFINITE,
             allowed: int | None = None) -> float:
        """Fewest guesses in total to find every secret of the set (a bit set), with at most
        ``depth`` guesses for any of them (None: no limit; INFINITE when impossible) if that is
        at most ``budget``; otherwise some number above ``budget``. In hard mode only the
        guesses of ``allowed`` (a bit set; default all) may be the next."""
        n = secrets.bit_count()
        if self.hard and allowed is None:
            allowed = self.every_guess()
        if depth is not None and depth >= n:
            depth = None  # no limit at all: each guess of an optimal tree finds a secret or
            # splits the set, so no secret ever needs more than n guesses (exact, not a bound)
        if n == 0:
            return 0
        if depth is not None and depth < 1:
            return INFINITE
        if n == 1:
            return 1
        key = (secrets, allowed or 0, depth)
        known = self.memo.get(key)
        if known is not None and (known[1] or known[0] > budget):
            return known[0]
        splits: dict[tuple[tuple[int, int], ...], int] = {}
        if allowed is None:
            for classes in self.classes:
                parts = tuple(sorted(((part, 0) for c in classes if (part := c & secrets)),
                                     key=lambda p: -p[0].bit_count()))
                splits.setdefault(parts, 0)
        else:
            for j, fitting in enumerate(self.fitting):
                if allowed >> j & 1:
                    splits[tuple(sorted(((part, guesses & allowed) for c, guesses in fitting
                                         if (part := c & secrets)),
                                        key=lambda p: -p[0].bit_count()))] = 0
        for parts in splits:
            splits[parts] = n + sum(floor(p.bit_count()) for p, _ in parts)
        best = INFINITE
        limit = budget  # what a split must stay within: the budget, then below the best so far
        for parts, least in sorted(splits.items(), key=lambda item: item[1]):
            if len(parts) == 1 and parts[0][0] == secrets:
                continue  # no split at all
            if least > limit:
                break  # every split after this one is at least as costly
            total, rest = n, least - n
            for part, fits in parts:
                rest -= floor(part.bit_count())
                total += self.cost(part, None if depth is None else depth - 1, limit - total - rest,
                                   fits if allowed is not None else None)
                if total + rest > limit or total == INFINITE:
                    break
            else:
                best = total
                limit = best - 1
        if best <= budget:
            self.memo[key] = (best, True)
            return best
        self.memo[key] = (budget + 1, False)
        return budget + 1
