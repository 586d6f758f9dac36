"""Independent check of a book: replay every secret of its game through the tree.

Uses the plain scorer of :mod:`treegen.book` and its own enumeration of codes, not the score table
that built the book, so a bug in the array code cannot verify itself.
"""

from __future__ import annotations

import heapq
import itertools
import os
from collections.abc import Iterator
from typing import Any, cast

from treegen.book.format import (
    answer_key,
    check,
    check_height,
    check_sections,
    hard_allows,
    make_stats,
)
from treegen.book.reader import Enter, game_problem, with_tree
from treegen.data import BookData, GameData, Node, Stats
from treegen.errors import BookError, GameError
from treegen.player import PlayerError, brief, hard_mode_of, tree_events


def game_codes(game: GameData) -> list[str]:
    """Every secret of a book's game, in enumeration order (a listed game's answers, as listed); a
    game whose codes would not fit in this machine's memory is refused first, as every reader
    of a book file refuses it."""
    problem = game_problem(game)
    if problem:
        raise GameError(problem)
    if "answers" in game:
        return list(game["answers"])
    symbols, length = game["symbols"], game["length"]
    combos = itertools.product(symbols, repeat=length) if game["repetition"] \
        else itertools.permutations(symbols, length)
    return ["".join(c) for c in combos]


def verify(book: BookData, limit: int = 10) -> list[str]:
    """Problems found (at most ``limit``); an empty list means the book is correct and its stats true,
    and so are its claims (depth limit, lower bound, optimality)."""
    _check_limit(limit)
    problem = check(book)
    if problem:
        return [problem]
    walk = Replay(game_codes(book["game"]), book["game"], limit)
    return _verified(book, tree_events(cast(dict[str, Any], book["tree"])), walk, None)


def verify_file(path: str | os.PathLike[str], limit: int = 10) -> tuple[BookData, list[str]]:
    """:func:`verify` of the book at ``path``, read node by node (see :mod:`treegen.book.reader`):
    its sections (the tree cut to the first guess) and the problems found. A file that is not a
    book is a BookError."""
    _check_limit(limit)

    def use(book: dict[str, Any], events: Iterator[Enter | None]) -> tuple[BookData, list[str]]:
        walk = Replay(game_codes(book["game"]), book["game"], limit)
        problems = _verified(cast(BookData, book), events, walk, str(path))
        book["tree"] = {"guess": walk.first, "next": {}}
        return cast(BookData, book), problems
    try:
        return with_tree(path, check, check_sections, use)
    except PlayerError as exc:
        raise BookError(str(exc)) from None


def _check_limit(limit: object) -> None:
    if type(limit) is not int or limit < 1:
        raise BookError(f"limit must be a whole number of at least 1, not {brief(limit)}")


def _verified(book: BookData, events: Iterator[Enter | None], walk: Replay, source: str | None
              ) -> list[str]:
    """The problems of a book whose sections are checked, its tree's events checked as they
    come; from a file (``source``), stats deeper than the tree make it no book, as on loading."""
    walk.run(events)
    problem = check_height(book, walk.height)
    if problem and source is not None:
        raise PlayerError(f"{source}: {problem}")
    if problem:
        return [problem]
    if walk.problems:
        return walk.problems
    stats = make_stats(walk.depths)
    problems = [f"stats.{key} says {book['stats'].get(key)!r} but the tree gives {value!r}"
                for key, value in stats.items() if book["stats"].get(key) != value]
    return (problems + claims(book, stats, walk.first) + walk.hard)[:walk.limit]


def claims(book: BookData, stats: Stats, first: str) -> list[str]:
    """What is wrong with what the strategy section claims of the tree (whose first guess is
    ``first``)."""
    strategy, problems = book["strategy"], []
    if strategy["first"] != first:
        problems.append(f"strategy.first says {strategy['first']} but the tree starts with "
                        f"{first}")
    max_depth = strategy.get("max_depth")
    if type(max_depth) is int and max_depth < stats["max"]:
        problems.append(f"strategy.max_depth says {max_depth}, but the tree needs {stats['max']} "
                        "guesses for some secret")
    after = strategy.get("after")
    scopes = [("strategy", strategy)] + ([("strategy.after", after)] if isinstance(after, dict)
                                         else [])
    for name, claim in scopes:
        lower = claim.get("lower_bound")
        if type(lower) is int and lower > stats["total"]:
            problems.append(f"{name}.lower_bound says {lower}, above the total {stats['total']} "
                            "of the tree itself")
        elif claim.get("optimal") is True and type(lower) is int and lower < stats["total"]:
            problems.append(f"{name}.optimal says true, but its lower bound {lower} is below the "
                            f"total {stats['total']}")
    return problems


def replay(tree: Node, secrets: list[str], game: GameData, limit: int = 10, before: int = 0
           ) -> tuple[list[int], list[str]]:
    """Play each secret through ``tree`` with the plain scorer: the guesses each needs (``before``
    added), and the problems found (at most ``limit``: missing branches, then branches no secret
    reaches)."""
    walk = Replay(secrets, game, limit, before)
    walk.run(tree_events(cast(dict[str, Any], tree)))
    return walk.depths, walk.problems


class Replay:
    """Every secret played through a tree as its nodes come (depth first): a node's secrets are
    split by their answers to its guess and each branch takes its share, so memory holds the
    secrets once and the open nodes, never the tree."""

    def __init__(self, secrets: list[str], game: GameData, limit: int = 10, before: int = 0
                 ) -> None:
        self.secrets, self.game, self.limit, self.before = secrets, game, limit, before
        self.depths = [before] * len(secrets)
        self.height = 0
        self.first = ""
        self.hard: list[str] = []  # the first guess that breaks hard mode, if any
        self._missing: list[tuple[int, str]] = []  # (-secret, problem): the first ones kept
        self._unreached: list[str] = []  # the first by path: sorted and cut now and then

    @property
    def problems(self) -> list[str]:
        """Secrets with no branch (the first, in enumeration order), then branches no secret
        reaches (in order of their paths), at most ``limit``."""
        missing = [problem for _, problem in sorted((-i, p) for i, p in self._missing)]
        return (missing + sorted(self._unreached))[:self.limit]

    def run(self, events: Iterator[Enter | None]) -> None:
        game, secrets, hard = self.game, self.secrets, bool(self.game.get("hard"))
        # open nodes: guess, the answers' secrets not yet given to a branch, or None below a
        # branch no secret reaches
        open_: list[tuple[str, dict[str, list[int]] | None]] = []
        moves: list[str] = []  # the answer of each open node that leads to the next
        for event in events:
            if event is None:
                guess, left = open_.pop()
                if left:
                    self._lost(left, [g for g, _ in open_] + [guess])
                if moves:
                    moves.pop()
                continue
            key, guess = event
            if not open_:
                members: list[int] | None = list(range(len(secrets)))
                self.first = guess
            else:
                above = open_[-1][1]
                members = None if above is None else above.pop(cast(str, key), None)
                if members is None and above is not None:
                    self._note_unreached(",".join(f"{g}={k}" for (g, _), k in
                                                  zip(open_, [*moves, key])))
                moves.append(cast(str, key))
            level = len(open_) + 1
            self.height = max(self.height, level)
            if members is None:
                open_.append((guess, None))
                continue
            if hard and not self.hard:
                self._hard_mode([g for g, _ in open_], moves, guess)
            parts: dict[str, list[int]] = {}
            for index in members:
                secret = secrets[index]
                if secret == guess:
                    self.depths[index] = level + self.before
                else:
                    parts.setdefault(answer_key(game, guess, secret), []).append(index)
            open_.append((guess, parts))

    def _lost(self, parts: dict[str, list[int]], path: list[str]) -> None:
        for key, members in parts.items():
            for index in members:
                self.depths[index] = len(path) + self.before
                problem = (f"secret {self.secrets[index]}: after {' '.join(path)} the tree has "
                           f"no branch {key}")
                if len(self._missing) < self.limit:
                    heapq.heappush(self._missing, (-index, problem))
                elif -self._missing[0][0] > index:
                    heapq.heapreplace(self._missing, (-index, problem))

    def _note_unreached(self, path: str) -> None:
        self._unreached.append(f"branch {path} is reached by no secret")
        if len(self._unreached) > 4 * self.limit:
            self._unreached = sorted(self._unreached)[:self.limit]

    def _hard_mode(self, guesses: list[str], moves: list[str], guess: str) -> None:
        for asked, key in zip(guesses, moves):
            if not hard_allows(self.game, asked, key, guess):
                path = ",".join(f"{g}={k}" for g, k in zip(guesses, moves))
                mode = hard_mode_of(self.game)
                breaks = mode.breaks if mode else ""
                self.hard = [f"hard mode: {guess} after {path} {breaks} {asked}={key}"]
                return
