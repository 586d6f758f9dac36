"""Grafting: the classes of a book's first guess replaced by the optimal trees a record proves.

A record of an opening's classes (:mod:`treegen.search.records`) holds, for each class proven so far, its
optimal tree. A book opening with the same guess (the strongest one known, say a bounded search's)
is improved class by class as the record grows: each proven class's subtree is swapped in, the
totals are counted again by replaying every secret, and the book keeps the lower bound it proved
(a bound on the game, whatever the tree). Records of the game's other first guesses raise that
bound to the least any first guess can reach (:mod:`treegen.search.first_guesses`, derived again
from the records and the game), so once every first guess is accounted for the book itself says it
is optimal. The result is a pure function of the files.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, cast

from treegen.book.format import make_book
from treegen.book.replay import game_codes, replay
from treegen.data import BookData, Node, StrategyData
from treegen.errors import TreegenError


class GraftError(TreegenError):
    """A record that cannot be grafted onto a book: another game, opening or depth limit."""


def graft(book: BookData, record: dict[str, Any], others: Sequence[dict[str, Any]] = ()) -> BookData:
    """``book`` with the subtree of every class ``record`` proves (a record checked by
    :func:`treegen.search.records.load_record`) replaced by the record's optimal tree; ``others``
    are checked records of the game's other first guesses, which bound the game's optimum."""
    strategy = book["strategy"]
    if dict(book["game"]) != record["game"]:
        raise GraftError("the record is of another game than the book")
    if book["tree"]["guess"] != record["first"]:
        raise GraftError(f"the book opens with {book['tree']['guess']}, the record with "
                         f"{record['first']}")
    if strategy.get("max_depth") != record["max_depth"]:
        raise GraftError(f"the book's depth limit is {strategy.get('max_depth')}, the record's "
                         f"{record['max_depth']}")
    tree: Node = copy.deepcopy(book["tree"])
    solved = [entry for entry in record["classes"] if "cost" in entry]
    for entry in solved:
        tree["next"][entry["feedback"]] = copy.deepcopy(entry["tree"])
    depths, problems = replay(tree, game_codes(book["game"]), book["game"], limit=1)
    if problems:  # a checked record's trees cannot do this; a book and record of other codes can
        raise GraftError(f"the grafted tree is not a complete book: {problems[0]}")
    total, before = sum(depths), book["stats"]["total"]
    if total > before:  # optimal subtrees never cost more: this book is not what it claims
        raise GraftError(f"grafting would raise the book's total from {before} to {total}")
    grafted = cast(StrategyData, dict(strategy))
    lower = strategy.get("lower_bound")
    if isinstance(lower, int):
        lower = max(lower, game_bound(book, [record, *others]))
        grafted["lower_bound"] = lower
        grafted["optimal"] = lower == total
    grafted["grafted"] = {"first": record["first"],
                          "classes": sorted(entry["feedback"] for entry in solved)}
    return make_book(book["game"], grafted, tree, depths)


def game_bound(book: BookData, records: Sequence[dict[str, Any]]) -> int:
    """The least optimum any first guess of the book's game can have, from ``records`` and, for
    the first guesses without one, their two-step floors (no bound for a depth-limited book)."""
    from treegen.rules.game import Game
    from treegen.search.first_guesses import first_guesses, game_lower_bound
    if book["strategy"].get("max_depth") is not None:
        return 0
    by_first: dict[str, Any] = {}
    for other in records:
        if other["game"] != dict(book["game"]) or other["max_depth"] is not None:
            raise GraftError(f"the record of {other['first']} is not of the book's game without a "
                             "depth limit")
        by_first[other["first"]] = other
    return game_lower_bound(first_guesses(Game.from_dict(dict(book["game"])), by_first))


def graft_records(book: BookData, records: Sequence[dict[str, Any]]) -> BookData:
    """:func:`graft` with the record that opens as ``book`` does, the others bounding the game."""
    first = book["tree"]["guess"]
    opening = [record for record in records if record["first"] == first]
    if len(opening) != 1:
        given = ", ".join(record["first"] for record in records)
        raise GraftError(f"the book opens with {first}: give exactly one record of {first} "
                         f"(records given: {given})")
    return graft(book, opening[0], [record for record in records if record is not opening[0]])
