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
from treegen.errors import StrategyError, TreegenError, unknown
from treegen.player import brief
from treegen.rules.game import Game
from treegen.rules.scoring import Scorer

__all__ = ["POOLS", "Planned", "State", "Strategy", "chosen"]

POOLS = ("all", "consistent")


@dataclass
class State:
    """A position in the game: the candidates still possible and the guesses that led here.

    ``candidates`` holds code indices in enumeration order; ``history`` holds (guess index,
    feedback index) pairs. User strategies read the string views ``codes`` and ``moves``, and
    score through ``scorer`` (:class:`treegen.rules.scoring.Scorer`), a score table or compiled
    kernels as the game's size asks.
    """

    game: Game
    scorer: Scorer
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

    def __repr__(self) -> str:  # the score table is not what anyone wants printed
        return f"<State of {self.game.name} {self.describe()}: {len(self.candidates)} secrets possible>"

    def describe(self) -> str:
        if not self.history:
            return "at the start of the game"
        return "after " + ", ".join(f"{g}={f}" for g, f in self.moves)

    @property
    def table(self) -> np.ndarray:
        """The whole score table, ``table[guess, secret]``: a GameError where it would not fit
        in memory (``scorer`` answers there)."""
        return self.scorer.table()

    @cached_property
    def allowed(self) -> np.ndarray | None:
        """The guesses hard mode allows here (None when the game is not in hard mode)."""
        if not self.game.hard:
            return None
        from treegen.rules.hard_mode import allowed_guesses
        return allowed_guesses(self.game, self.history)

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
        counts = self.scorer.counts(np.array([self.game.index(guess)]), self.candidates)[0]
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
    #: True for a search, which takes :class:`~treegen.search.options.SearchOptions` and a status
    #: line besides pool, seed and symmetry (see treegen.registry).
    searches = False
    #: Whether this is one of treegen's own strategies, whose ``choose`` always returns a valid
    #: code index; any other's answer is checked (see :func:`chosen`).
    builtin: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.builtin = cls.__module__.startswith("treegen.")

    def __init__(self, pool: str | None = None, seed: int | None = None, symmetry: bool = True):
        pool = pool or self.default_pool
        if pool not in POOLS:
            raise StrategyError(unknown("pool", pool, POOLS))
        if pool not in self.pools:
            kind = "only guesses consistent codes" if self.pools == ("consistent",) else \
                "may guess any code"
            raise StrategyError(f"strategy {self.name} {kind}; it does not take --pool {pool}")
        self.pool = pool
        self.seed = seed
        #: Score one guess per class of equivalent guesses (see treegen.rules.symmetry); same result, faster.
        self.symmetry = symmetry

    def params(self) -> dict[str, Any]:
        """What the book records about the strategy (besides the first guess)."""
        return {"name": self.name, "pool": self.pool}

    def start(self, game: Game, first: int | None) -> None:
        """Called once before a book is compiled, with the forced first guess (an index) if any.
        Strategies that plan the whole tree up front (optimal) do it here."""

    def choose(self, state: State) -> int | str:
        """The next guess: a code index, or (for a strategy of one's own) the code itself."""
        raise StrategyError(f"strategy {self.name or type(self).__name__!r} does not implement "
                            "choose()")

    def finished(self, total: int) -> None:
        """Called once the book is compiled, with its total: a strategy that planned the whole
        tree beforehand checks that the tree is the one it planned."""

    def walked(self, game: Game) -> int | None:
        """The kind of compiled walk (:meth:`treegen.rules.scoring.Scorer.walk`) that plays this
        strategy's subtrees of small sets in ``game`` exactly as :meth:`choose` would, with no
        call per state; None where :meth:`choose` is asked at every state."""
        return None


class Planned(Strategy):
    """A tree planned beforehand (by the exact search), looked up: the guess of each state by its
    history."""

    name = "planned"

    def __init__(self, plan: dict[History, int]) -> None:
        super().__init__()
        self.plan = plan

    def choose(self, state: State) -> int:
        return self.plan[state.history]


def chosen(strategy: Strategy, state: State) -> int:
    """The strategy's next guess as a code index. A strategy of one's own may answer a code string
    or an index; anything else it does (a wrong answer, an exception) is a one-line error naming
    the state. treegen's own are taken at their word: this runs once per state of the tree."""
    if strategy.builtin:
        return int(strategy.choose(state))
    name = strategy.name or type(strategy).__name__
    try:
        answer: object = strategy.choose(state)
    except (KeyboardInterrupt, TreegenError):
        raise
    except BaseException as exc:  # sys.exit() and GeneratorExit included: a plug-in's failure
        raise StrategyError(f"strategy {name} failed {state.describe()}: {describe(exc)}") from exc
    game = state.game
    if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool):
        if not 0 <= answer < game.guess_count:
            raise StrategyError(f"strategy {name} returned code index {answer} {state.describe()}; "
                                f"the game's guesses are numbered 0 to {game.guess_count - 1}")
        index = int(answer)
    elif isinstance(answer, str):
        try:
            index = game.index(answer)
        except TreegenError as exc:
            raise StrategyError(f"strategy {name} guessed an invalid code {state.describe()}: "
                                f"{exc}") from None
    else:
        raise StrategyError(f"strategy {name} returned {brief(answer)} {state.describe()}; it must "
                            "return a code string or a code index")
    if strategy.pool == "consistent" and not np.isin(index, state.candidates):
        raise StrategyError(f"strategy {name} guessed {game.code_strings[index]}, which is not a "
                            f"possible secret {state.describe()} (pool consistent)")
    if state.allowed is not None and not np.isin(index, state.allowed):
        raise StrategyError(f"strategy {name} guessed {game.code_strings[index]}, which hard mode "
                            f"does not allow {state.describe()}: it does not fit every answer")
    return index


def describe(exc: BaseException) -> str:
    """An exception in one line: its type and its message, or the exit code of ``sys.exit()``."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
