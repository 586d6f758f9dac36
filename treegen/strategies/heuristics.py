"""Strategies: given what is still possible, which code to guess next.

Built-in strategies work on code indices and the score table. Every heuristic follows one tie-break
rule, fixed because published totals depend on it: best score; then a guess that is still a possible
secret; then the code first in enumeration order. Scores are compared exactly (integers; entropy via
an exact comparison of the class-size products), so two guesses whose partitions have the same
multiset of class sizes always tie.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import math
import os
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from treegen.data import History
from treegen.errors import StrategyError
from treegen.rules.game import Game
from treegen.rules.scoring import partition_counts
from treegen.rules.symmetry import representatives

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

    def keys(self, counts: np.ndarray) -> np.ndarray:
        """Lower is better; one integer key per row of class sizes."""
        raise StrategyError(f"heuristic {self.name!r} does not implement keys()")

    def best(self, counts: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows whose score ties exactly with the best one."""
        keys = self.keys(counts)
        best: np.ndarray = keys == keys.min()
        return best

    def choose(self, state: State) -> int:
        cands = state.candidates
        if len(cands) <= 2:
            return int(cands[0])
        nfb = len(state.game.feedbacks)
        if len(cands) <= nfb:
            # a candidate splitting the rest into singletons: nothing scores better, and it wins ties
            answers = np.sort(state.table[np.ix_(cands, cands)], axis=1)
            perfect = (answers[:, 1:] != answers[:, :-1]).all(axis=1)
            if perfect.any():
                return int(cands[np.argmax(perfect)])
        guesses, counts = self._scored(state)
        return pick(guesses[self.best(counts)], cands)

    def rank(self, state: State, count: int) -> np.ndarray:
        """The ``count`` most promising guesses, best first: the first is the one :meth:`choose`
        takes, the others follow by score, possible secrets first, then enumeration order.

        The bounded optimal search tries these; since the heuristic's own choice is among them, its
        trees are never worse than the heuristic's."""
        first = self.choose(state)
        if count <= 1 or len(state.candidates) <= 1:
            return np.array([first], dtype=np.int64)
        guesses, counts = self._scored(state)
        impossible = ~np.isin(guesses, state.candidates)
        order = np.lexsort((guesses, impossible, self.keys(counts)))
        ranked = guesses[order]
        rest = ranked[ranked != first][:count - 1]
        return np.concatenate(([first], rest)).astype(np.int64)

    def _scored(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The guesses the pool offers (one per class of equivalent guesses where that is cheaper)
        and their class sizes."""
        cands, nfb = state.candidates, len(state.game.feedbacks)
        if self.pool == "consistent":
            return cands, partition_counts(state.table, cands, cands, nfb)
        if self.symmetry and len(cands) > self.SYMMETRY_FROM:
            guesses = representatives(state.game, state.history)
            return guesses, partition_counts(state.table, guesses, cands, nfb)
        return np.arange(len(state.table)), partition_counts(state.table, None, cands, nfb)


def pick(tied: np.ndarray, candidates: np.ndarray) -> int:
    """Tie-break among equally good guesses (ascending): a possible secret first, else the first code."""
    possible = tied[np.isin(tied, candidates, assume_unique=True)]
    return int(possible[0] if len(possible) else tied[0])


class Minimax(Heuristic):
    name = "minimax"
    description = "smallest largest class (Knuth)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        largest: np.ndarray = counts.max(axis=1)
        return largest


class Expected(Heuristic):
    name = "expected"
    description = "smallest expected class size, sum of size^2 / n (Irving)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        squares: np.ndarray = (counts * counts).sum(axis=1)
        return squares


class Parts(Heuristic):
    name = "parts"
    description = "most non-empty classes (Kooi)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        parts: np.ndarray = -(counts > 0).sum(axis=1)
        return parts


class Entropy(Heuristic):
    name = "entropy"
    description = "largest Shannon entropy of the partition (Neuwirth)"

    def keys(self, counts: np.ndarray) -> np.ndarray:
        """sum(s log s) over the classes: lower is better (ties settled exactly in :meth:`best`)."""
        keys: np.ndarray = _xlogx(int(counts.max()))[counts].sum(axis=1)
        return keys

    def best(self, counts: np.ndarray) -> np.ndarray:
        # Entropy = log n - sum(s log s) / n, so maximising it minimises sum(s log s) = log prod(s^s).
        # Floats only shortlist: every guess within rounding of the best is settled exactly on the
        # integer prod(s^s), so equal multisets of class sizes always tie.
        keys = self.keys(counts)
        best = keys.min()
        near = keys <= best + 1e-9 * max(1.0, abs(best))
        values = np.unique(keys[near])
        if len(values) == 1:
            tied: np.ndarray = keys == best
            return tied
        exact = {v: _size_power_product(counts[np.argmax(keys == v)]) for v in values}
        winner = min(exact.values())
        return np.isin(keys, [v for v, p in exact.items() if p == winner])


_XLOGX = np.zeros(2)


def _xlogx(largest: int) -> np.ndarray:
    """s * ln(s) for s = 0 .. largest (0 for s = 0), grown on demand."""
    global _XLOGX
    if len(_XLOGX) <= largest:
        sizes = np.arange(max(largest + 1, 2 * len(_XLOGX)), dtype=np.float64)
        _XLOGX = sizes * np.log(np.maximum(sizes, 1))
    return _XLOGX


def _size_power_product(sizes: np.ndarray) -> int:
    return math.prod(int(s) ** int(s) for s in sizes if s > 1)


class UserStrategy(Strategy):
    """A user's class or function: receives the State, returns the next guess as a code string."""

    pure = False
    first_of_few = False

    def __init__(self, spec: str, pool: str | None = None, seed: int | None = None):
        self.name = spec
        super().__init__(pool, seed, symmetry=False)
        self.impl = load_user(spec)

    def params(self) -> dict[str, Any]:
        params = super().params()
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def choose(self, state: State) -> int:
        try:
            answer = self.impl(state)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # sys.exit() and GeneratorExit included: a plug-in's failure
            raise StrategyError(f"strategy {self.name} failed {state.describe()}: "
                                f"{_describe(exc)}") from None
        if not isinstance(answer, str):
            raise StrategyError(f"strategy {self.name} returned {answer!r} {state.describe()}; "
                                "it must return a code string")
        try:
            index = state.game.index(answer)
        except Exception as exc:
            raise StrategyError(f"strategy {self.name} guessed an invalid code {state.describe()}: "
                                f"{exc}") from None
        if self.pool == "consistent" and not np.isin(index, state.candidates):
            raise StrategyError(f"strategy {self.name} guessed {answer}, which is not a possible secret "
                                f"{state.describe()} (pool consistent)")
        return index


def load_user(spec: str) -> Callable[[State], object]:
    """Import ``package.module:Name``; a class is instantiated once and its ``choose`` used."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise StrategyError(f"user strategy {spec!r} must be written package.module:Name")
    try:
        with _current_folder_importable():
            module = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise StrategyError(f"cannot import module {module_name!r} for strategy {spec}: "
                            f"{_describe(exc)}") from None
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise StrategyError(f"module {module_name!r} has no attribute {attr!r}") from None
    if isinstance(obj, type):
        try:
            obj = obj()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise StrategyError(f"cannot create strategy {spec}: {_describe(exc)}") from None
        obj = getattr(obj, "choose", obj)
    if not callable(obj):
        raise StrategyError(f"strategy {spec} is not callable")
    chooser: Callable[[State], object] = obj
    return chooser


@contextlib.contextmanager
def _current_folder_importable() -> Iterator[None]:
    """Modules in the current folder import as they do under ``python -m``: it comes first on the
    path while the strategy is imported."""
    folder = os.getcwd()
    added = folder not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        yield
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)


def _describe(exc: BaseException) -> str:
    """An exception in one line: its type and its message, or the exit code of ``sys.exit()``."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
