"""What every strategy is: a function of the state of a game (the secrets still possible and the
moves so far) to the next guess, with the pool of guesses it may take and what a book records of
it."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from treegen.data import History
from treegen.errors import StrategyError
from treegen.rules.game import Game

__all__ = ["POOLS", "Planned", "State", "Strategy"]

POOLS = ("all", "consistent")


@dataclass
class State:
    """A position in the game: the candidates still possible and the guesses that led here.

    ``candidates`` holds code indices in enumeration order; ``history`` holds (guess index,
    feedback index) pairs. User strategies read the string views ``codes`` and ``moves``.
    """

    game: Game
    table: np.ndarray
    candidates: np.ndarray
    history: History = ()
    seed: int = 0

    @cached_property
    def codes(self) -> list[str]:
        """The still-possible secrets as strings, in enumeration order."""
        names = self.game.code_strings
        return [names[i] for i in self.candidates]

    @cached_property
    def moves(self) -> list[tuple[str, str]]:
        """The history as (guess, feedback) strings, e.g. ``[("0123", "1A2B")]``."""
        return [(self.game.code_strings[g], self.game.feedback_texts[f]) for g, f in self.history]

    def describe(self) -> str:
        if not self.history:
            return "at the start of the game"
        return "after " + ", ".join(f"{g}={f}" for g, f in self.moves)

    @cached_property
    def rng(self) -> random.Random:
        """A random generator that is a function of (seed, state), so rebuilding gives the same book."""
        return random.Random(self.random_key)

    @cached_property
    def random_key(self) -> int:
        key = f"{self.seed}|" + ",".join(f"{g}={f}" for g, f in self.moves)
        return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")

    def partition(self, guess: str) -> dict[str, int]:
        """How the candidates split under ``guess``: feedback text -> class size."""
        row = self.table[self.game.index(guess), self.candidates]
        counts = np.bincount(row, minlength=len(self.game.feedbacks))
        return {self.game.feedback_texts[i]: int(c) for i, c in enumerate(counts) if c}


class Strategy:
    """Base of the built-in strategies: ``choose(state)`` returns a code index."""

    name = ""
    description = ""
    default_pool = "all"
    pools: tuple[str, ...] = POOLS
    #: True when choose() is a function of the state alone (the compiler re-asks impure ones).
    pure = True
    #: True when one or two candidates always mean "guess the first" (the compiler skips asking).
    first_of_few = True
    #: Options the strategy takes besides pool, seed and symmetry (see treegen.registry).
    options: tuple[str, ...] = ()

    def __init__(self, pool: str | None = None, seed: int | None = None, symmetry: bool = True):
        pool = pool or self.default_pool
        if pool not in POOLS:
            raise StrategyError(f"unknown pool {pool!r} (known: {', '.join(POOLS)})")
        if pool not in self.pools:
            kind = "only guesses consistent codes" if self.pools == ("consistent",) else \
                "may guess any code"
            raise StrategyError(f"strategy {self.name} {kind}; it does not take --pool {pool}")
        self.pool = pool
        self.seed = seed
        #: Score one guess per class of equivalent guesses (see treegen.symmetry); same result, faster.
        self.symmetry = symmetry

    def params(self) -> dict[str, Any]:
        """What the book records about the strategy (besides the first guess)."""
        return {"name": self.name, "pool": self.pool}

    def start(self, game: Game, first: int | None) -> None:
        """Called once before a book is compiled, with the forced first guess (an index) if any.
        Strategies that plan the whole tree up front (optimal) do it here."""

    def choose(self, state: State) -> int:
        raise StrategyError(f"strategy {self.name!r} does not implement choose()")

    def finished(self, total: int) -> None:
        """Called once the book is compiled, with its total: a strategy that planned the whole
        tree beforehand checks that the tree is the one it planned."""


class Planned(Strategy):
    """A tree planned beforehand (by the exact search), looked up: the guess of each state by its
    history."""

    name = "planned"

    def __init__(self, plan: dict[History, int]) -> None:
        super().__init__()
        self.plan = plan

    def choose(self, state: State) -> int:
        return self.plan[state.history]
