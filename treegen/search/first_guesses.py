"""What is proven of a game's optimum, first guess by first guess.

A game's optimal total is the least, over its first guesses, of the optimum after each; guesses a
symmetry of the game maps onto each other have the same optimum, so one per class is enough. For
each, the best proven lower bound is its record's (exact costs of the classes solved, floors of the
rest) or, without one, its two-step floor (derived here from the game alone). The least of those
bounds a lower bound of the whole game; when a book reaches it, the book is optimal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

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
    solved: int         #: of which a record has proven the exact cost
    lower_bound: int    #: proven: no tree opening with this guess needs fewer guesses in total
    total: int | None   #: the optimum after the guess, once every class is solved


def first_guesses(game: Game, records: Mapping[str, Record] = {}, memory: int | None = None
                  ) -> list[FirstGuess]:
    """Every first guess up to symmetry, with its bound. ``records`` are checked records
    (:func:`treegen.search.records.load_record`) of this game without a depth limit, by first guess;
    a record of any guess of a class stands for the class (of two, the one that proves more)."""
    groups = equivalent_guesses(game)
    by_class: dict[int, Record] = {}
    for first, record in records.items():
        rules = Game.from_dict(record["game"])
        if record.get("max_depth") is not None or (rules.symbols, rules.length, rules.repetition) != (
                game.symbols, game.length, game.repetition):
            raise ValueError(f"the record of {first} is not of {game.name} without a depth limit")
        index = game.index(first)
        which = next(i for i, group in enumerate(groups) if index in group)
        if which not in by_class or record["lower_bound"] > by_class[which]["lower_bound"]:
            by_class[which] = record
    search = Search(game, effective_depth(game, None), None, memory)
    out = []
    for i, group in enumerate(groups):
        first = game.code_strings[int(group[0])]
        record = by_class.get(i) or fresh(game, first, None, search)
        out.append(FirstGuess(first, len(group), len(record["classes"]), record["solved"],
                              record["lower_bound"], record["total"]))
    return out


def game_lower_bound(bounds: list[FirstGuess]) -> int:
    """The least optimum any first guess can have: a lower bound of the game's optimal total."""
    return int(np.min([b.lower_bound for b in bounds]))
