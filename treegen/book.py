"""The strategy book, format v1: building the document, writing it, and reading it back safely.

Standard library only, so that programs that only read books need nothing else. Writing is
deterministic (fixed key order, no timestamps) and atomic; reading checks the whole document and
reports the first problem in one line.
"""

from __future__ import annotations

import json
import os
import re

from .errors import BookError
from .files import write_atomic

FORMAT = "treegen-book"
VERSION = 1
SECTIONS = ("format", "version", "game", "strategy", "stats", "tree")
_FEEDBACK_KEY = re.compile(r"^(\d+)A(\d+)B$")


def feedback(guess: str, secret: str) -> tuple[int, int]:
    """(a, b) of a guess against a secret, plainly: the reference the array scorer is checked by."""
    a = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return a, common - a


def make_stats(depths: list[int]) -> dict:
    """Totals of a book from the number of guesses each secret needs."""
    histogram: dict[int, int] = {}
    for d in depths:
        histogram[d] = histogram.get(d, 0) + 1
    total = sum(depths)
    return {"secrets": len(depths), "total": total,
            "average": round(total / len(depths), 4) if depths else 0.0,
            "max": max(depths, default=0),
            "histogram": {str(d): histogram[d] for d in sorted(histogram)}}


def game_slug(game: dict) -> str:
    """A file-name friendly game name: the preset name, or the rules of a custom game."""
    if game["name"] != "custom":
        return game["name"]
    kind = "rep" if game["repetition"] else "norep"
    return f"custom-{re.sub(r'[^A-Za-z0-9]', '_', game['symbols'])}-{game['length']}-{kind}"


def file_name(book: dict, forced_first: bool = False) -> str:
    """The default file name of a book: game, strategy (with its parameters), pool, forced first guess."""
    strategy = book["strategy"]
    parts = [game_slug(book["game"]), re.sub(r"[^A-Za-z0-9._-]", "-", strategy["name"])]
    if "seed" in strategy:
        parts.append(f"seed{strategy['seed']}")
    if strategy.get("max_depth") is not None:
        parts.append(f"depth{strategy['max_depth']}")
    parts.append(strategy["pool"])
    if forced_first:
        parts.append(f"first{strategy['first']}")
    return "-".join(parts) + ".json"


def make_book(game: dict, strategy: dict, tree: dict, depths: list[int]) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": game, "strategy": strategy,
            "stats": make_stats(depths), "tree": tree}


def dumps(book: dict) -> str:
    """Deterministic text: one line per section, the tree compact (it is large and read by programs)."""
    parts = []
    for key in SECTIONS:
        compact = key == "tree"
        value = json.dumps(book[key], ensure_ascii=False, separators=(",", ":") if compact else None)
        parts.append(f" {json.dumps(key)}: {value}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save(book: dict, path: str | os.PathLike) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the target."""
    write_atomic(path, dumps(book))


def load(path: str | os.PathLike) -> dict:
    """Read and check a book file; any problem is a one-line BookError naming the file."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise BookError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BookError(f"{path} is not a treegen book: it is not UTF-8 text") from None
    return loads(text, path)


def loads(text: str, source: str = "book") -> dict:
    try:
        book = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BookError(f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} "
                        f"column {exc.colno}") from None
    except RecursionError:
        raise BookError(f"{source} is nested too deeply to be a treegen book") from None
    problem = check(book)
    if problem:
        raise BookError(f"{source}: {problem}")
    return book


def check(book) -> str | None:
    """The first thing wrong with a parsed book, or None. Checks structure, not strategy quality."""
    if not isinstance(book, dict) or book.get("format") != FORMAT:
        return f"not a treegen book (expected \"format\": \"{FORMAT}\")"
    version = book.get("version")
    if version != VERSION:
        if isinstance(version, int) and version > VERSION:
            return f"book format version {version} is newer than this treegen reads ({VERSION})"
        return f"unsupported book format version {version!r} (this treegen reads {VERSION})"
    missing = [key for key in SECTIONS if key not in book]
    if missing:
        return f"missing section {missing[0]!r}"
    game = book["game"]
    problem = _check_game(game) or _check_strategy(book["strategy"]) or _check_stats(book["stats"])
    return problem or _check_tree(book["tree"], game)


def _check_game(game) -> str | None:
    if not isinstance(game, dict):
        return "game must be an object"
    symbols, length, repetition = game.get("symbols"), game.get("length"), game.get("repetition")
    if not isinstance(game.get("name"), str):
        return "game.name must be a string"
    if not isinstance(symbols, str) or not symbols or len(set(symbols)) != len(symbols):
        return "game.symbols must be a non-empty string of distinct symbols"
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        return "game.length must be a positive integer"
    if not isinstance(repetition, bool):
        return "game.repetition must be true or false"
    if not repetition and length > len(symbols):
        return "game.length exceeds the number of symbols of a game without repetition"
    return None


def _check_strategy(strategy) -> str | None:
    if not isinstance(strategy, dict):
        return "strategy must be an object"
    if not isinstance(strategy.get("name"), str):
        return "strategy.name must be a string"
    if strategy.get("pool") not in ("all", "consistent"):
        return "strategy.pool must be \"all\" or \"consistent\""
    if not isinstance(strategy.get("first"), str):
        return "strategy.first must be a code"
    return None


def _check_stats(stats) -> str | None:
    if not isinstance(stats, dict):
        return "stats must be an object"
    for key in ("secrets", "total", "max"):
        if not isinstance(stats.get(key), int) or isinstance(stats.get(key), bool) or stats[key] < 0:
            return f"stats.{key} must be a non-negative integer"
    if not isinstance(stats.get("average"), (int, float)) or isinstance(stats.get("average"), bool):
        return "stats.average must be a number"
    histogram = stats.get("histogram")
    if not isinstance(histogram, dict) or not all(
            k.isdigit() and isinstance(v, int) and not isinstance(v, bool) for k, v in histogram.items()):
        return "stats.histogram must map depths to counts"
    return None


def _check_tree(tree, game: dict) -> str | None:
    """Walk the tree without recursion (a hostile file may be deep) and check every node."""
    symbols, length, repetition = game["symbols"], game["length"], game["repetition"]
    stack = [(tree, ())]
    while stack:
        node, path = stack.pop()
        where = "tree root" if not path else "tree node after " + ",".join(path)
        if not isinstance(node, dict) or set(node) != {"guess", "next"}:
            return f"{where}: a node must be an object with exactly \"guess\" and \"next\""
        guess, branches = node["guess"], node["next"]
        if not isinstance(guess, str) or len(guess) != length or any(c not in symbols for c in guess):
            return f"{where}: guess {guess!r} is not a code of the game"
        if not repetition and len(set(guess)) != len(guess):
            return f"{where}: guess {guess!r} repeats a symbol, which the game does not allow"
        if not isinstance(branches, dict):
            return f"{where}: \"next\" must be an object"
        for key, child in branches.items():
            match = _FEEDBACK_KEY.match(key)
            if not match:
                return f"{where}: branch {key!r} is not a feedback like 1A2B"
            a, b = int(match.group(1)), int(match.group(2))
            if a + b > length or a == length or (a == length - 1 and b == 1):
                return f"{where}: branch {key!r} is not a possible feedback of the game"
            stack.append((child, (*path, f"{guess}={key}")))
    return None
