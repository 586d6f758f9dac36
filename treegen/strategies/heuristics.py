"""The built-in strategies: the first or a random possible secret, and the one-step heuristics.

Built-in strategies work on code indices and the score table. Every heuristic follows one tie-break
rule, fixed because published totals depend on it: best score; then a guess that is still a possible
secret; then the code first in enumeration order. Scores are compared exactly (integers; entropy via
an exact comparison of the class-size products), so two guesses whose partitions have the same
multiset of class sizes always tie.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from treegen.errors import StrategyError
from treegen.rules.game import Game
from treegen.rules.scoring import KINDS, WALKED, xlogx
from treegen.rules.symmetry import guess_alphabet, product_codes, representatives
from treegen.strategies.base import State, Strategy

__all__ = ["HEURISTICS", "Entropy", "Expected", "Heuristic", "Minimax", "Parts", "Random", "Simple",
           "pick"]

class Simple(Strategy):
    name = "simple"
    description = "the first still-possible code (Shapiro)"
    default_pool = "consistent"
    pools = ("consistent",)

    def choose(self, state: State) -> int:
        return int(state.candidates[0])


class Random(Strategy):
    name = "random"
    description = "a random still-possible code, reproducible with --seed"
    default_pool = "consistent"
    pools = ("consistent",)
    first_of_few = False

    def __init__(self, pool: str | None = None, seed: int | None = None, symmetry: bool = True):
        super().__init__(pool, 0 if seed is None else seed, symmetry)

    def params(self) -> dict[str, Any]:
        return {**super().params(), "seed": self.seed}

    def choose(self, state: State) -> int:
        return int(state.candidates[random.Random(state.random_key).randrange(len(state.candidates))])


class Heuristic(Strategy):
    """One-step look-ahead: score the partition every guess of the pool makes of the candidates."""

    #: Below this many candidates scoring every code is cheaper than finding the symmetry classes.
    SYMMETRY_FROM = 40
    #: Every code over the guess alphabet is walked in order (see
    #: :mod:`treegen.rules.scoring`) unless the classes of equivalent guesses are this
    #: many times fewer: walked, a guess costs a fraction of one looked up by index.
    ALPHABET_PAYS = 4
    #: The key a scorer may compute itself, without rows of class sizes (see
    #: :meth:`treegen.rules.scoring.Scorer.keys`); None for a subclass with keys of its own.
    fused: str | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "keys" in vars(cls) and "fused" not in vars(cls):
            cls.fused = None

    def walked(self, game: Game) -> int | None:
        """treegen's own heuristics, outside hard mode (see
        :func:`treegen.rules.score_kernels.walk_table`, which chooses as :meth:`choose` does)."""
        kind = KINDS.get(self.fused or "")
        if not self.builtin or game.hard or kind not in WALKED:
            return None
        return kind

    def keys(self, counts: np.ndarray) -> np.ndarray:
        """Lower is better; one key per row of class sizes."""
        raise StrategyError(f"heuristic {self.name!r} does not implement keys()")

    def best(self, counts: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows whose score ties exactly with the best one."""
        return self.tied(self.keys(counts), lambda rows: counts[rows])

    def tied(self, keys: np.ndarray, sizes: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Boolean mask of the keys that tie exactly with the best; ``sizes(rows)`` gives the
        class sizes of the rows named, for a heuristic whose keys are not exact."""
        best: np.ndarray = keys == keys.min()
        return best

    def choose(self, state: State) -> int:
        cands = state.candidates
        if len(cands) <= 2:
            return int(cands[0])
        nfb = len(state.game.feedback_texts)
        if len(cands) <= nfb:
            # a candidate splitting the rest into singletons: nothing scores better, and it wins ties
            answers = np.sort(state.scorer.block(cands, cands), axis=1)
            perfect = (answers[:, 1:] != answers[:, :-1]).all(axis=1)
            if perfect.any():
                return int(cands[np.argmax(perfect)])
        guesses, keys = self._keyed(state, best_only=True)
        tied = self.tied(keys, lambda rows: state.scorer.counts(guesses[rows], cands))
        return pick(guesses[tied], cands)

    def rank(self, state: State, count: int) -> np.ndarray:
        """The ``count`` most promising guesses, best first: the first is the one :meth:`choose`
        takes, the others follow by score, possible secrets first, then enumeration order.

        The bounded optimal search tries these; since the heuristic's own choice is among them, its
        trees are never worse than the heuristic's."""
        first = self.choose(state)
        if count <= 1 or len(state.candidates) <= 1:
            return np.array([first], dtype=np.int64)
        guesses, keys = self._keyed(state)
        impossible = ~np.isin(guesses, state.candidates, kind="table")
        order = np.lexsort((guesses, impossible, keys))
        ranked = guesses[order]
        rest = ranked[ranked != first][:count - 1]
        return np.concatenate(([first], rest)).astype(np.int64)

    def _keyed(self, state: State, best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The guesses the pool offers (one per class of equivalent guesses where that is cheaper)
        and their keys (``best_only``: exact only where they may tie with the best, see
        :meth:`treegen.rules.scoring.Scorer.keys`)."""
        cands, scorer = state.candidates, state.scorer
        alphabet = guess_alphabet(state.game, cands) if (
            best_only and self.pool == "all" and self.symmetry and state.allowed is None) else None
        if alphabet is not None:
            every = len(alphabet) ** state.game.length
            wanted = None
            if len(cands) > self.SYMMETRY_FROM:
                held = np.zeros(len(state.game.symbols), dtype=bool)
                held[alphabet] = True
                reps = representatives(state.game, state.history)
                reps = reps[held[state.game.codes[reps]].all(axis=1)]
                if len(reps) * self.ALPHABET_PAYS < every:
                    return reps, scorer.keys(self, reps, cands, best_only)
                if len(reps) < every:  # the walk passes over the others
                    wanted = np.zeros(every, dtype=bool)
                    wanted[np.searchsorted(product_codes(state.game, alphabet), reps)] = True
            return scorer.alphabet_keys(self, alphabet, cands, best_only, wanted)
        if self.pool == "consistent":
            guesses: np.ndarray | None = cands
            if self.symmetry and len(cands) > self.SYMMETRY_FROM:
                # a symmetry that fixes the history keeps every answer: a class of equivalent
                # guesses is all possible secrets or none, and its first is one
                reps = representatives(state.game, state.history)
                if len(reps) < state.game.guess_count:
                    guesses = cands[np.isin(cands, reps, kind="table")]
        elif self.symmetry and len(cands) > self.SYMMETRY_FROM:
            guesses = representatives(state.game, state.history)
            if state.allowed is not None:  # a symmetry keeps every answer: whole classes fit
                guesses = np.intersect1d(guesses, state.allowed)
        else:
            guesses = state.allowed
        keys = scorer.keys(self, guesses, cands, best_only)
        return (np.arange(state.game.guess_count) if guesses is None else guesses), keys


def pick(tied: np.ndarray, candidates: np.ndarray) -> int:
    """Tie-break among equally good guesses (ascending): a possible secret first, else the first code."""
    possible = tied[np.isin(tied, candidates, kind="table")]
    return int(possible[0] if len(possible) else tied[0])


class Minimax(Heuristic):
    name = "minimax"
    fused = "minimax"
    description = "smallest largest class (Knuth)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        largest: np.ndarray = counts.max(axis=1)
        return largest


class Expected(Heuristic):
    name = "expected"
    fused = "expected"
    description = "smallest expected class size, sum of size^2 / n (Irving)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        squares: np.ndarray = (counts * counts).sum(axis=1)
        return squares


class Parts(Heuristic):
    name = "parts"
    fused = "parts"
    description = "most non-empty classes (Kooi)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        parts: np.ndarray = -(counts > 0).sum(axis=1)
        return parts


class Entropy(Heuristic):
    name = "entropy"
    fused = "entropy"
    description = "largest Shannon entropy of the partition (Neuwirth)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        """sum(s log s) over the classes: lower is better (ties settled exactly in :meth:`tied`)."""
        keys: np.ndarray = xlogx(int(counts.max()))[counts].sum(axis=1)
        return keys

    def tied(self, keys: np.ndarray, sizes: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        # Entropy = log n - sum(s log s) / n, so maximising it minimises sum(s log s) = log prod(s^s).
        # Floats only shortlist: every guess within rounding of the best is settled exactly on the
        # integer prod(s^s), so equal multisets of class sizes always tie.
        best = keys.min()
        near = np.flatnonzero(keys <= best + 1e-9 * max(1.0, abs(best)))
        if (keys[near] == best).all():
            tied: np.ndarray = keys == best
            return tied
        values, first = np.unique(keys[near], return_index=True)
        exact = [_size_power_product(row) for row in sizes(near[first])]
        winner = min(exact)
        return np.isin(keys, values[[value == winner for value in exact]])


def _size_power_product(sizes: np.ndarray) -> int:
    return math.prod(int(s) ** int(s) for s in sizes if s > 1)


#: The heuristics by name (they can also rank the guesses of a bounded optimal search).
HEURISTICS: dict[str, type[Heuristic]] = {
    cls.name: cls for cls in (Minimax, Expected, Entropy, Parts)}
