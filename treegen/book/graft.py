"""Grafting: the classes of a book's first guess replaced by the optimal trees a record holds.

A record of an opening's classes (:mod:`treegen.search.records`) holds, for each class solved so
far, its optimal tree. A book opening with the same guess (the strongest one known, say a bounded
search's) is improved class by class as the record grows: each solved class's subtree is swapped
in and the totals are counted again by replaying every secret. What the book then claims of its
optimality is what the caller proved (:func:`treegen.proofs.graft_records` derives it from the
certificates of every first guess's record): the book only carries it. The result is a pure
function of its inputs.
"""

from __future__ import annotations

import copy
from typing import Any, cast

from treegen.book.format import make_book
from treegen.book.replay import game_codes, replay
from treegen.data import BookData, Node, StrategyData
from treegen.errors import GraftError


def graft(book: BookData, record: dict[str, Any], game_lower: int | None = None,
          after_lower: int | None = None) -> BookData:
    """``book`` with the subtree of every class ``record`` has solved (a record checked by
    :func:`treegen.search.records.load_record`) replaced by the record's optimal tree; with
    ``game_lower``, the proven lower bound of the game's optimum, and with ``after_lower``, that
    of the trees opening with the book's first guess, where the book says what it proves."""
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
    if game_lower is not None:  # what the caller proved, never the book's own word
        grafted["optimal"] = game_lower == total
        grafted["lower_bound"] = game_lower
    after = strategy.get("after")
    if isinstance(after, dict) and after_lower is not None:
        grafted["after"] = {"first": after["first"], "optimal": after_lower == total,
                            "lower_bound": after_lower}
    grafted["grafted"] = {"first": record["first"],
                          "classes": sorted(entry["feedback"] for entry in solved),
                          "certified": sorted(e["feedback"] for e in solved if e.get("certified"))}
    return make_book(book["game"], grafted, tree, depths)
