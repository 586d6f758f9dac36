"""The shapes of treegen's data, for type checkers and readers: the book document (format v1), its
nodes and stats, and a game history. Standard library only; at run time these are plain dicts and
tuples, so a book is JSON as it is."""

from __future__ import annotations

from typing import TypedDict

__all__ = ["BookData", "GameData", "History", "Node", "Stats", "StrategyData"]

#: The moves of a game so far as (guess index, feedback index) pairs, in the game's enumeration
#: orders (see :class:`treegen.rules.game.Game`).
History = tuple[tuple[int, int], ...]


class Node(TypedDict):
    """A node of the tree: the guess to play and, per answer (``1A2B``), the node that follows."""

    guess: str
    next: dict[str, Node]


class _Rules(TypedDict):
    name: str
    symbols: str
    length: int
    repetition: bool


class GameData(_Rules, total=False):
    #: How answers are given (see :mod:`treegen.player`); absent means pegs.
    rule: str
    #: The secrets and the allowed guesses, when the game lists them instead of enumerating codes.
    answers: list[str]
    guesses: list[str]
    #: Hard mode: true when every guess must be consistent with every answer so far, "hints"
    #: when it must keep Wordle's greens and found letters (see :func:`treegen.book.format.hard_allows`).
    hard: bool | str


class Grafted(TypedDict, total=False):
    """The classes of a book's first guess replaced by the optimal trees of a record, and those
    of them whose certificates were checked."""

    first: str
    classes: list[str]
    certified: list[str]


class After(TypedDict):
    """What a search held to a first guess proved: of the trees opening with it, not the game."""

    first: str
    optimal: bool
    lower_bound: int


class _StrategyParameters(TypedDict, total=False):
    """A strategy's own parameters, recorded when it has them."""

    seed: int
    optimal: bool
    max_depth: int | None
    width: int
    exact_below: int
    heuristic: str
    lower_bound: int
    after: After
    grafted: Grafted


class StrategyData(_StrategyParameters):
    """What the book records of the strategy; ``first`` is always the root guess."""

    name: str
    pool: str
    first: str


class Stats(TypedDict):
    """Totals over every secret: guesses needed in all, per secret on average, at most, and how
    many secrets need each number of guesses (keys ``"1"``, ``"2"``, ...)."""

    secrets: int
    total: int
    average: float
    max: int
    histogram: dict[str, int]


class BookData(TypedDict):
    format: str
    version: int
    game: GameData
    strategy: StrategyData
    stats: Stats
    tree: Node
