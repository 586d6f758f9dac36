"""The strategy book, format v1: building the document, writing it, and reading it back safely.

Standard library only, so that programs that only read books need nothing else. Writing is
deterministic (fixed key order, no timestamps) and atomic; reading checks the whole document and
reports the first problem in one line.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any, cast

from treegen.book.reader import Enter, FileNode, fitting, read_sections, with_tree
from treegen.book.schema import schema_problem
from treegen.data import BookData, GameData, Node, Stats, StrategyData
from treegen.errors import BookError
from treegen.files.atomic import write_atomic
from treegen.notation import game_slug, game_title
from treegen.player import (
    FORMAT,
    SECTIONS,
    VERSION,
    PlayerError,
    brief,
    check_header,
    check_tree,
    code_problem,
    hard_mode_of,
    parse_book,
    read_book,
    rule_of,
)

__all__ = [
    "FORMAT",
    "SECTIONS",
    "VERSION",
    "check",
    "check_height",
    "check_sections",
    "dumps",
    "feedback",
    "file_name",
    "game_slug",
    "load",
    "load_sections",
    "loads",
    "make_book",
    "make_stats",
    "open_book",
    "save",
    "save_to",
    "section_lines",
]

def check(book: object) -> str | None:
    """The first thing wrong with a parsed book, or None: what the standalone player checks (format,
    game, tree), and the strategy and stats sections that play does not use."""
    problem = check_sections(book)
    if problem or not isinstance(book, dict):
        return problem
    problem, height = check_tree(book["game"], book["tree"])
    return problem or check_height(book, height)


def check_sections(book: object) -> str | None:
    """:func:`check` but the tree: what a reader that takes the tree node by node checks first."""
    problem = check_header(book)
    if problem or not isinstance(book, dict):
        return problem
    for section in ("game", "strategy", "stats"):
        problem = schema_problem(book[section], section) or _check_plain(section, book[section])
        if problem:
            return problem
    return _check_strategy(book["strategy"], book["game"])


def check_height(book: Mapping[str, Any], height: int) -> str | None:
    """What is wrong with the stats of a book whose tree has ``height`` levels, or None."""
    deepest = max(map(int, book["stats"]["histogram"]), default=0)
    if deepest > height:
        return f"stats.histogram counts secrets at depth {deepest}; the tree has {height} levels"
    return None


def _check_strategy(strategy: dict[str, Any], game: dict[str, Any]) -> str | None:
    """What the schema cannot say of the strategy: its codes are the game's."""
    first = strategy["first"]
    if code_problem(first, frozenset(game["symbols"]), game["length"], game["repetition"]):
        return f"strategy.first {brief(first)} is not a code of the game"
    after = strategy.get("after")
    if after is not None and after["first"] != first:
        return "strategy.after.first must be the book's first guess"
    return None


def _check_plain(section: str, value: object) -> str | None:
    """A section must survive being written back as UTF-8 JSON: no lone surrogates, NaN, cycles."""
    try:
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        return f"{section} holds text that is not valid Unicode"
    except (ValueError, TypeError, RecursionError):
        return f"{section} holds a value JSON cannot write (NaN, Infinity, a huge or cyclic value)"
    return None



def answer_key(game: GameData, guess: str, secret: str) -> str:
    """The answer a secret gives a guess under the game's rule, written as books key it."""
    return rule_of(game).score(guess, secret)


def hard_allows(game: GameData, asked: str, key: str, guess: str) -> bool:
    """Whether the game's hard mode lets ``guess`` follow ``asked`` answered ``key``
    (:data:`treegen.player.HARD_MODES`); any guess outside hard mode."""
    mode = hard_mode_of(game)
    return mode is None or mode.allows(rule_of(game), asked, key, guess)


def feedback(guess: str, secret: str) -> tuple[int, int]:
    """(a, b) of a guess against a secret, plainly: the reference the array scorer is checked by."""
    a = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return a, common - a


def make_stats(depths: list[int]) -> Stats:
    """Totals of a book from the number of guesses each secret needs."""
    histogram: dict[int, int] = {}
    for d in depths:
        histogram[d] = histogram.get(d, 0) + 1
    total = sum(depths)
    return {"secrets": len(depths), "total": total,
            "average": round(total / len(depths), 4) if depths else 0.0,
            "max": max(depths, default=0),
            "histogram": {str(d): histogram[d] for d in sorted(histogram)}}


def file_name(book: BookData, forced_first: bool = False) -> str:
    """The default file name of a book: game, strategy (with its parameters), pool, forced first guess."""
    strategy = book["strategy"]
    parts = [game_slug(book["game"]), re.sub(r"[^A-Za-z0-9._-]", "-", strategy["name"])]
    if "seed" in strategy:
        parts.append(f"seed{strategy['seed']}")
    if strategy.get("max_depth") is not None:
        parts.append(f"depth{strategy['max_depth']}")
    if strategy.get("width") is not None:
        below = strategy.get("exact_below")
        parts.append(f"width{strategy['width']}" + (f"-below{below}" if below is not None else ""))
    grafted = strategy.get("grafted")
    if isinstance(grafted, dict):
        parts.append(f"first{grafted.get('first')}-grafted")
    parts.append(strategy["pool"])
    if forced_first:
        parts.append(f"first{strategy['first']}")
    return "-".join(parts) + ".json"


def summary(book: BookData) -> str:
    """A book in one line: game, strategy, pool, first guess and the totals (and, for a bounded
    search, its width and how far above the optimum the total can be)."""
    stats, strategy = book["stats"], book["strategy"]
    width = strategy.get("width")
    bounded = "" if width is None else f", width {width}, exact below {strategy.get('exact_below')}"
    line = (f"{game_title(book['game'])} {strategy['name']} (pool {strategy['pool']}{bounded}, first "
            f"{strategy['first']}): {stats['secrets']} secrets, total {stats['total']}, "
            f"average {stats['average']:.4f}, max {stats['max']}")
    grafted = strategy.get("grafted")
    if isinstance(grafted, dict) and isinstance(grafted.get("classes"), list):
        count = len(grafted["classes"])
        certified = grafted.get("certified")
        proven = f", {len(certified)} certified" if isinstance(certified, list) else ""
        line += (f"; {count} class{'es' if count != 1 else ''} of {grafted.get('first')} solved "
                 f"exactly and grafted in{proven}")
    return line + "".join(f"; {claim}" for claim in claims(book))


def claims(book: BookData) -> list[str]:
    """What a book claims of its optimality, each with its scope: of the game ("lower bound L
    (the book's word): optimal"), or of the trees that open with the first guess the search was
    held to ("optimal after 1122 (the book's word): 5702"). Said as the book's own word: only a
    checked certificate (``verify --certificate``) makes a claim proven."""
    stats, strategy, said = book["stats"], book["strategy"], []
    lower = strategy.get("lower_bound")
    if isinstance(lower, int):
        gap = stats["total"] - lower
        said.append(f"lower bound {lower} (the book's word): " +
                    ("optimal" if gap == 0 else f"at most {gap} above the optimum"))
    after = strategy.get("after")
    if isinstance(after, dict) and isinstance(after.get("lower_bound"), int):
        first, lower = after.get("first"), after["lower_bound"]
        gap = stats["total"] - lower
        said.append(f"optimal after {first} (the book's word): {lower}" if gap == 0 else
                    f"lower bound after {first} (the book's word): {lower}, at most {gap} "
                    f"above the optimum after {first}")
    return said


def make_book(game: GameData, strategy: StrategyData, tree: Node, depths: list[int]) -> BookData:
    return {"format": FORMAT, "version": VERSION, "game": game, "strategy": strategy,
            "stats": make_stats(depths), "tree": tree}


def dumps(book: BookData) -> str:
    """Deterministic text: one line per section, the tree compact (it is large and read by programs)."""
    head, tail = section_lines(book)
    return head + json.dumps(book["tree"], ensure_ascii=False, separators=(",", ":")) + tail


def section_lines(book: Mapping[str, Any]) -> tuple[str, str]:
    """The text of a book before its tree (every other section, one line each) and after it."""
    parts = [f" {json.dumps(key)}: {json.dumps(book[key], ensure_ascii=False)}"
             for key in SECTIONS if key != "tree"]
    return "{\n" + ",\n".join(parts) + ',\n "tree": ', "\n}\n"


def save(book: BookData, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the target."""
    write_atomic(path, dumps(book))


def save_to(book: BookData, path: str | os.PathLike[str],
            sources: tuple[str | os.PathLike[str], ...]) -> None:
    """:func:`save`, refusing to write over any of ``sources``, the files the book was made from."""
    write_atomic(path, dumps(book), sources=sources)


def load(path: str | os.PathLike[str]) -> BookData:
    """Read and check a book file; any problem is a one-line BookError naming the file."""
    try:
        return cast(BookData, read_book(os.fspath(path), fitting(check)))
    except PlayerError as exc:
        raise BookError(str(exc)) from None


def load_sections(path: str | os.PathLike[str]) -> BookData:
    """:func:`load` in memory that grows with the tree's height, not its size: every section, the
    tree checked node by node as it is read and cut to its first guess (see
    :mod:`treegen.book.reader`). For what reads a book's sections only, such as its stats."""
    def use(book: dict[str, Any], events: Iterator[Enter | None]) -> BookData:
        depth = height = 0
        first = ""
        for event in events:
            if event is None:
                depth -= 1
                continue
            first = first or event[1]
            depth += 1
            height = max(height, depth)
        problem = check_height(book, height)
        if problem:
            raise PlayerError(f"{path}: {problem}")
        book["tree"] = {"guess": first, "next": {}}
        return cast(BookData, book)
    try:
        return with_tree(path, check, check_sections, use)
    except PlayerError as exc:
        raise BookError(str(exc)) from None


def open_book(path: str | os.PathLike[str]) -> BookData:
    """:func:`load` for playing a book too large to hold: checked node by node as
    :func:`load_sections` does, and, in treegen's layout, its tree a
    :class:`treegen.book.reader.FileNode` whose branches are read from the file as the game
    goes. Another layout is read whole."""
    book = load_sections(path)
    try:
        found = read_sections(path, check_sections)
    except PlayerError as exc:
        raise BookError(str(exc)) from None
    if found is None:
        return load(path)
    tree = FileNode(path, cast(dict[str, Any], book["game"]), found[1], book["tree"]["guess"])
    book["tree"] = cast(Node, tree)
    return book


def loads(text: str, source: str = "book") -> BookData:
    """Parse and check a book's text; any problem is a one-line BookError naming ``source``."""
    try:
        return cast(BookData, parse_book(text, source, fitting(check)))
    except PlayerError as exc:
        raise BookError(str(exc)) from None
