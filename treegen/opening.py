"""An opening's classes solved exactly, one at a time, each recorded as soon as it is proven.

For a game too large to solve outright, the exact optimum after a fixed first guess splits into one
independent problem per feedback class. Solving them one by one, smallest first, turns a search of
unknown length into facts that accumulate: the record (a small JSON file) holds each class's optimal
cost as it is proven, and floors for the rest, so the optimum after the opening is bracketed at any
moment and the work can be continued later, elsewhere, or spread over machines class by class. The
class being searched is checkpointed like any optimal build.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from . import __version__
from .bounds import INFEASIBLE, UNLIMITED
from .errors import TreegenError, interrupted
from .files import write_atomic
from .game import Game
from .optimal import Search
from .search_progress import Progress
from .search_workers import workers

FORMAT, VERSION = "treegen-classes", 1


class RecordError(TreegenError):
    """A record that cannot be continued: not a record, damaged, or of another opening."""


def record_name(game: Game, first: str) -> str:
    """The default file of an opening's record, after the book's naming."""
    from .book import game_slug
    return f"{game_slug(game.to_dict())}-first{first}-classes.json"


def solve_classes(game: Game | str, first: str, path: str | os.PathLike[str], jobs: int = 1,
                  max_depth: int | None = None, memory: int | None = None,
                  status: Callable[[Progress], None] | None = None,
                  told: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Solve the classes of the opening ``first`` exactly, smallest first, writing the record at
    ``path`` after each (an existing record of the same opening is continued; any other file is
    refused). ``told`` hears of each class solved. Returns the record: each class's size, floor
    and, once solved, optimal cost; ``lower_bound`` and, when every class is solved, ``total``."""
    if isinstance(game, str):
        game = Game.preset(game)
    path = os.fspath(path)
    first = game.validate_code(first)
    guess = game.index(first)
    search = Search(game, max_depth, status, None if memory is None else memory // jobs)
    depth = UNLIMITED if max_depth is None else max_depth
    everything = np.arange(game.size, dtype=np.int64)
    record = _start(game, first, max_depth, search, guess, everything, depth)
    if os.path.lexists(path):
        record = _continue(path, record)
    kept = path + ".checkpoint"
    _resume(search, kept, record)
    search.status_level = 1
    by_feedback = {entry["feedback"]: entry for entry in record["classes"]}
    ordered, start, classes = search.kernels.split(search.table, guess, everything, search.nfb,
                                                   search.solved)
    write_atomic(path, _text(record))
    with workers(search, jobs) as running:
        for f in sorted(classes, key=lambda f: (start[f + 1] - start[f], f)):
            entry = by_feedback[game.feedback_texts[f]]
            if "cost" in entry:
                continue
            cands = ordered[start[f]:start[f + 1]]
            began = time.monotonic()
            try:
                cost, plan = search.best_with(cands, ((guess, int(f)),), _child(depth), running)
            except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
                if interrupted(exc) and search.saver is not None:
                    search.saver()
                raise
            if cost < 0 or plan is None:
                entry["cost"] = None  # no tree within the depth limit
            else:
                entry["cost"] = cost
                entry["guess"] = game.code_strings[plan[((guess, int(f)),)]]
            entry["seconds"] = round(time.monotonic() - began, 1)
            _totals(record)
            write_atomic(path, _text(record))
            if told is not None:
                told(entry)
    from .checkpoint import remove
    remove(kept)
    return record


def _child(depth: int) -> int:
    return depth - 1 if depth >= 0 else UNLIMITED


def _start(game: Game, first: str, max_depth: int | None, search: Search, guess: int,
           everything: np.ndarray, depth: int) -> dict[str, Any]:
    """A fresh record: every class with its size and floor (its best one-step bound)."""
    _, _, widest = search.kernels.guess_bounds(search.table, search.guesses(everything, ()),
                                               everything, search.nfb, search.solved, search.lbt,
                                               depth)
    classes = search.classes(guess, everything, (), depth, widest, INFEASIBLE)
    assert classes is not None
    entries = [{"feedback": game.feedback_texts[child[-1][1]], "secrets": len(sub), "floor": floor}
               for sub, child, floor, _ in classes]
    record = {"format": FORMAT, "version": VERSION, "treegen": __version__,
              "game": dict(game.to_dict()), "first": first, "max_depth": max_depth,
              "secrets": game.size, "classes": entries}
    _totals(record)
    return record


def _totals(record: dict[str, Any]) -> None:
    """The record's summary: classes solved, and the optimum after the opening bracketed from below
    (exact costs where known, floors elsewhere) or known."""
    entries = record["classes"]
    solved = [e for e in entries if "cost" in e]
    record["solved"] = len(solved)
    if any(e.get("cost", 0) is None for e in entries):
        record["lower_bound"] = record["total"] = None  # impossible within the depth limit
        return
    record["lower_bound"] = record["secrets"] + sum(e.get("cost", e["floor"]) for e in entries)
    record["total"] = record["lower_bound"] if len(solved) == len(entries) else None


def _continue(path: str, fresh: dict[str, Any]) -> dict[str, Any]:
    """The record already at ``path``, if it is of the same opening (else refused, untouched)."""
    try:
        with open(path, encoding="utf-8") as fh:
            old = json.load(fh)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"{path} exists and is not a treegen record of classes "
                          f"({type(exc).__name__}); choose another -o") from None
    if not isinstance(old, dict) or old.get("format") != FORMAT or old.get("version") != VERSION:
        raise RecordError(f"{path} exists and is not a treegen record of classes; choose another -o")
    for key in ("game", "first", "max_depth"):
        if old.get(key) != fresh[key]:
            raise RecordError(f"{path} records another opening ({key} {old.get(key)!r}, not "
                              f"{fresh[key]!r}); choose another -o")
    known = {e.get("feedback"): e for e in old.get("classes", []) if isinstance(e, dict)}
    for entry in fresh["classes"]:
        was = known.get(entry["feedback"])
        if was is None or was.get("secrets") != entry["secrets"]:
            raise RecordError(f"{path} is damaged: its class {entry['feedback']} does not match")
        cost = was.get("cost", -1)
        if cost is None or (type(cost) is int and cost >= entry["floor"]):
            entry.update({k: was[k] for k in ("cost", "guess", "seconds") if k in was})
    _totals(fresh)
    return fresh


def _resume(search: Search, path: str, record: dict[str, Any]) -> None:
    """Continue the class being searched from its checkpoint, and keep one as the search goes."""
    from . import checkpoint
    from .native import CACHE_FORMAT
    identity = {"treegen": __version__, "cache": CACHE_FORMAT, "game": record["game"],
                "strategy": "classes", "max_depth": record["max_depth"], "first": record["first"]}
    if os.path.lexists(path):
        search.restore(checkpoint.load(path, identity))
    search.saver = lambda: checkpoint.save(path, identity, search.caches())


def _text(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A record written by :func:`solve_classes`; anything else is a one-line RecordError."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"cannot read record {path}: {type(exc).__name__}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT or \
            not isinstance(record.get("classes"), list):
        raise RecordError(f"{path} is not a treegen record of classes")
    return record


def class_costs(book: Mapping[str, Any]) -> dict[str, int]:
    """What each class of a book's first guess costs in that book: the guesses its secrets need
    after the first, by answer. Beside a record, an upper bound on each unsolved class."""
    from .book import feedback
    from .notation import format_feedback
    from .replay import game_codes
    tree = book["tree"]
    costs: dict[str, int] = {}
    for secret in game_codes(book["game"]):
        node, guesses = tree, 1
        while node["guess"] != secret:
            node = node["next"][format_feedback(feedback(node["guess"], secret))]
            guesses += 1
        if guesses > 1:
            answer = format_feedback(feedback(tree["guess"], secret))
            costs[answer] = costs.get(answer, 0) + guesses - 1
    return costs


def record_table(record: Mapping[str, Any], book: Mapping[str, Any] | None = None) -> str:
    """The record as Markdown: each class with its optimal cost once proven, its floor otherwise,
    and (given a book opening with the same guess) that book's cost for it; then the bracket."""
    known = class_costs(book) if book is not None and book["strategy"]["first"] == record["first"] \
        else {}
    lines = ["| answer | secrets | optimal cost | first guess of its tree | time | floor |"
             + (" in the record book |" if known else ""),
             "|---|---|---|---|---|---|" + ("---|" if known else "")]
    upper = record["secrets"]
    for e in record["classes"]:
        cost = e.get("cost")
        solved = "cost" in e and cost is not None
        row = (f"| {e['feedback']} | {e['secrets']} | {cost if solved else 'not solved yet'} | "
               f"{e.get('guess', '')} | {str(e['seconds']) + ' s' if 'seconds' in e else ''} | "
               f"{e['floor']} |")
        if known:
            row += f" {known.get(e['feedback'], '')} |"
            upper += cost if solved else known.get(e["feedback"], INFEASIBLE)
        lines.append(row)
    solved_count, count = record["solved"], len(record["classes"])
    if record.get("total") is not None:
        lines.append(f"\nAll {count} classes solved: the optimum after {record['first']} is "
                     f"{record['total']}.")
    else:
        bracket = f"at least {record['lower_bound']}"
        if known and upper < INFEASIBLE:
            bracket += f" and at most {upper} (the record book's cost where a class is not solved)"
        lines.append(f"\n{solved_count} of {count} classes solved: the optimum after "
                     f"{record['first']} is {bracket}.")
    return "\n".join(lines) + "\n"

