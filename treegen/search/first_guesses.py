"""What is proven of a game's optimum, first guess by first guess.

A game's optimal total is the least, over its first guesses, of the optimum after each; guesses a
symmetry of the game maps onto each other have the same optimum, so one per class is enough. For
each, the best proven lower bound is its record's (exact costs of the classes solved, floors of the
rest) or, without one, its two-step floor (derived here from the game alone). The least of those
bounds a lower bound of the whole game; when a book reaches it, the book is optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from treegen.errors import RecordError
from treegen.rules.game import Game
from treegen.rules.symmetry import equivalent_guesses
from treegen.search.exact import Search
from treegen.search.options import effective_depth
from treegen.search.records import Record, fresh

__all__ = ["FirstGuess", "first_guesses", "game_lower_bound"]


@dataclass(frozen=True)
class FirstGuess:
    """One class of equivalent first guesses and what is proven of the optimum after it."""

    first: str          #: the class's first code in enumeration order
    equivalent: int     #: how many first guesses the class holds
    classes: int        #: feedback classes the guess makes
    solved: int         #: of which a record has the exact cost
    lower_bound: int    #: proven: no tree opening with this guess needs fewer guesses in total
    total: int | None   #: the optimum after the guess, once every class is solved and certified
    #: the record that stands for the class (its first guess may be another of the class)
    record: Record | None = None


def first_guesses(game: Game, records: Sequence[Record] = (), max_depth: int | None = None,
                  memory: int | None = None) -> list[FirstGuess]:
    """Every first guess up to symmetry, with its bound. ``records`` are checked records
    (:func:`treegen.search.records.load_record`) of this game (its rules, hard mode and word
    lists) and depth limit; a record of any guess of a class stands for the class (of two, the
    one that proves more)."""
    groups = equivalent_guesses(game)
    which_of = np.empty(game.guess_count, dtype=np.int64)
    for i, group in enumerate(groups):
        which_of[group] = i
    wanted = _rules(game.identity())
    by_class: dict[int, Record] = {}
    for given in records:
        if _rules(Game.from_dict(given["game"]).identity()) != wanted:
            raise RecordError(f"the record of {given['first']} is of another game than "
                              f"{game.title}")
        if given["max_depth"] != max_depth:
            raise RecordError(f"the record of {given['first']} counts trees of at most "
                              f"{given['max_depth']} guesses, not {max_depth}")
        which = int(which_of[game.index(given["first"])])
        if which not in by_class or given["lower_bound"] > by_class[which]["lower_bound"]:
            by_class[which] = given
    search = Search(game, effective_depth(game, max_depth), None, memory)
    out = []
    for i, group in enumerate(groups):
        first = game.code_strings[int(group[0])]
        record = by_class.get(i)
        counted: Record = record if record is not None else fresh(game, first, max_depth, search)
        out.append(FirstGuess(first, len(group), len(counted["classes"]), counted["solved"],
                              counted["lower_bound"], counted["total"], record))
    return out


def game_lower_bound(bounds: list[FirstGuess]) -> int:
    """The least optimum any first guess can have: a lower bound of the game's optimal total."""
    return int(np.min([b.lower_bound for b in bounds]))


def _rules(rules: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in rules.items() if key != "name"}
