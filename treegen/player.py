"""Play from a treegen strategy book: look up the guess, read the answer, follow the branch.

Standard library only and one file: copy it into any project to play perfectly from a book. A
refused answer (unreadable, impossible in the game, impossible here) leaves the player as it was.
It holds the core of the book contract (strict JSON, format, game, tree); ``treegen.book`` adds
checks of the sections play does not use, so any book treegen reads, this player plays.

    player = Player.from_file("mastermind-minimax-all.json")
    player.guess              # '1122'
    player.answer("1A1B")     # the next guess, or None when the answer is all-correct
    score("1122", "3632")     # '1A0B': the answer a secret gives to a guess
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from collections.abc import Callable, Mapping
from itertools import repeat
from operator import eq
from typing import Any, NoReturn

__all__ = [
    "ImpossibleAnswer",
    "MalformedAnswer",
    "NoSuchBranch",
    "Player",
    "PlayerError",
    "check_book",
    "check_game",
    "check_header",
    "check_tree",
    "parse_feedback",
    "parse_json",
    "score",
]

FORMAT = "treegen-book"
VERSION = 1
SECTIONS = ("format", "version", "game", "strategy", "stats", "tree")
#: The largest games any treegen reads: codes of at most 20 symbols, from at most 256 symbols.
MAX_LENGTH = 20
MAX_SYMBOLS = 256
_RESERVED = ",:="
#: A check of a parsed book: its first problem, or None.
Check = Callable[[object], "str | None"]

_AB = re.compile(r"^\s*(-?[0-9]{1,9})\s*[aA]\s*(-?[0-9]{1,9})\s*[bB]\s*$")
_PAIR = re.compile(r"^\s*(-?[0-9]{1,9})\s*(?:[,;/]|\s|-)\s*(-?[0-9]{1,9})\s*$")
_DIGITS = re.compile(r"^\s*([0-9])([0-9])\s*$")



class PlayerError(ValueError):
    """Base of every answer (or request) the player refuses; its state is then unchanged."""


class MalformedAnswer(PlayerError):
    """The answer cannot be read as a feedback."""


class ImpossibleAnswer(PlayerError):
    """No secret of any game of this size gives this answer (e.g. a+b larger than the length)."""


class NoSuchBranch(PlayerError):
    """The answer is valid for the game, but no secret gives it after the answers so far."""


def parse_feedback(text: object, length: int) -> tuple[int, int]:
    """``1A2B``, ``12``, ``1 2``, ``1,2`` or ``(1, 2)`` -> (1, 2), refusing answers no secret gives."""
    if isinstance(text, (tuple, list)) and len(text) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) for n in text):
        a, b = text
    else:
        match = _AB.match(text) or _PAIR.match(text) or _DIGITS.match(text) \
            if isinstance(text, str) else None
        if not match:
            raise MalformedAnswer(f"cannot read answer {brief(text)}: write it as 1A2B, 12, '1 2' "
                                  "or 1,2")
        a, b = int(match.group(1)), int(match.group(2))
    if a < 0 or b < 0:
        raise ImpossibleAnswer(f"answer {brief(text)} is impossible: counts cannot be negative")
    if a + b > length:
        raise ImpossibleAnswer(f"answer {brief(text)} is impossible: {brief(a)}+{brief(b)} exceeds "
                               f"the {length} positions")
    if a == length - 1 and b == 1:
        raise ImpossibleAnswer(f"answer {brief(text)} is impossible: with {a} in place the last "
                               "symbol cannot be elsewhere")
    return a, b


def read_book(path: str | os.PathLike[str], check: Check | None = None) -> dict[str, Any]:
    """Read and check a book file (with ``check``, :func:`check_book` by default); every problem is a
    one-line PlayerError naming the file."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise PlayerError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PlayerError(f"{path} is not a treegen book: it is not UTF-8 text") from None
    return parse_book(text, str(path), check)


def parse_book(text: str, source: str = "book", check: Check | None = None) -> dict[str, Any]:
    """Parse and check a book's text; every problem is a one-line PlayerError naming ``source``."""
    try:
        book = parse_json(text)
    except json.JSONDecodeError as exc:
        raise PlayerError(f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None
    except ValueError as exc:  # NaN, Infinity, an integer of thousands of digits
        raise PlayerError(f"{source} is not a treegen book: {str(exc)[:80]}") from None
    except RecursionError:
        raise PlayerError(f"{source} is nested too deeply to be a treegen book") from None
    problem = (check or check_book)(book)
    if problem:
        raise PlayerError(f"{source}: {problem}")
    checked: dict[str, Any] = book
    return checked


def read_text(path: str | os.PathLike[str]) -> str:
    """A book file's text. Only regular files are read: a pipe or a device could block or never
    end. Raises OSError (with the reason) or UnicodeDecodeError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, encoding="utf-8") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return fh.read()


def parse_json(text: str) -> Any:
    """JSON as a book may hold it: ``NaN``, ``Infinity`` and numbers beyond a float's range refused.

    Raises ValueError (not JSON, a refused number, an integer of thousands of digits) or
    RecursionError (nested too deeply).
    """
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a book may hold")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range for a number")
    return value


def check_game(game: object) -> str | None:
    """The first thing wrong with a game's rules, or None: the one contract of every treegen game."""
    if not isinstance(game, dict):
        return "must be an object"
    symbols, length, repetition = game.get("symbols"), game.get("length"), game.get("repetition")
    if not isinstance(game.get("name"), str):
        return "name must be a string"
    if not isinstance(symbols, str) or not symbols:
        return "a game needs at least one symbol"
    if len(symbols) > MAX_SYMBOLS:
        return f"a game has at most {MAX_SYMBOLS} symbols, not {len(symbols)}"
    if len(set(symbols)) != len(symbols):
        return f"symbols {symbols!r} repeat a symbol"
    if any(c.isspace() or not c.isprintable() or c in _RESERVED for c in symbols):
        return f"symbols {symbols!r} may not contain spaces, control characters, ',', ':' or '='"
    if type(length) is not int or not 1 <= length <= MAX_LENGTH:
        return f"length must be between 1 and {MAX_LENGTH}, not {brief(length)}"
    if type(repetition) is not bool:
        return f"repetition must be true or false, not {brief(repetition)}"
    if not repetition and length > len(symbols):
        return f"a game without repetition needs at least {length} symbols, it has {len(symbols)}"
    return None


def check_book(book: object) -> str | None:
    """The first thing wrong with a parsed book for playing it, or None: the format, the game and
    the tree. (``treegen.book.check`` adds the other sections.) Linear in the tree's size."""
    problem = check_header(book)
    if problem or not isinstance(book, dict):
        return problem
    return check_tree(book["game"], book["tree"])[0]


def check_header(book: object) -> str | None:
    """The first thing wrong with a book's format, version, sections or game, or None."""
    if not isinstance(book, dict) or book.get("format") != FORMAT:
        return f"not a treegen book (expected \"format\": \"{FORMAT}\")"
    version = book.get("version")
    if type(version) is not int or version != VERSION:
        if type(version) is int and version > VERSION:
            return f"book format version {brief(version)} is newer than this treegen reads ({VERSION})"
        return f"unsupported book format version {brief(version)} (this treegen reads {VERSION})"
    missing = [key for key in SECTIONS if key not in book]
    if missing:
        return f"missing section {missing[0]!r}"
    problem = check_game(book["game"])
    return f"game: {problem}" if problem else None


def code_problem(code: str, symbols: frozenset[str], length: int, repetition: bool) -> str | None:
    """Why a string is not a code of the game, or None."""
    if len(code) != length or not symbols.issuperset(code):
        return "is not a code of the game"
    if not repetition and len(set(code)) != length:
        return "repeats a symbol, which the game does not allow"
    return None


def check_tree(game: dict[str, Any], tree: object, trace: bool = False) -> tuple[str | None, int]:
    """The first problem of the tree (or None) and its height in levels, in one linear walk.

    The walk keeps no paths; when it finds a problem it walks again, in the same order, with
    ``trace`` on, to name where the problem is.
    """
    symbols, length, repetition = frozenset(game["symbols"]), game["length"], game["repetition"]
    keys = _feedback_keys(length)
    codes: set[str] = set()  # guesses already found valid
    moves: list[tuple[int, str, str]] = []  # with trace: (parent's move or -1, guess, key)
    seen: set[int] = set()  # nodes walked: a tree built in Python may repeat one, or loop
    stack = [(tree, 1, -1)]
    height = 0
    while stack:
        node, depth, move = stack.pop()
        problem = None
        if type(node) is not dict or len(node) != 2 or "guess" not in node or "next" not in node:
            problem = "a node must be an object with exactly \"guess\" and \"next\""
        elif id(node) in seen:
            problem = "this node appears twice in the tree (a tree neither shares nor repeats nodes)"
        else:
            seen.add(id(node))
            guess, branches = node["guess"], node["next"]
            if type(guess) is not str or guess not in codes:
                if type(guess) is str and len(guess) == length and symbols.issuperset(guess) \
                        and (repetition or len(set(guess)) == length):
                    codes.add(guess)
                else:
                    wrong = code_problem(guess, symbols, length, repetition) \
                        if type(guess) is str else "is not a code of the game"
                    problem = f"guess {brief(guess)} {wrong}"
            if problem is None and type(branches) is not dict:
                problem = "\"next\" must be an object"
            elif problem is None and not keys.issuperset(branches):
                key = next(k for k in branches if k not in keys)
                what = "a possible feedback of the game" if type(key) is str and \
                    re.match(r"^(0|[1-9][0-9]?)A(0|[1-9][0-9]?)B$", key) else "a feedback like 1A2B"
                problem = f"branch {brief(key)} is not {what}"
        if problem is not None:
            if not trace:
                return check_tree(game, tree, trace=True)
            return f"{_where(moves, move)}: {problem}", height
        if depth > height:
            height = depth
        if branches:
            if trace:
                for key, child in branches.items():
                    moves.append((move, guess, key))
                    stack.append((child, depth + 1, len(moves) - 1))
            else:
                stack.extend(zip(branches.values(), repeat(depth + 1), repeat(-1)))
    return None, height


def _where(moves: list[tuple[int, str, str]], move: int) -> str:
    path = []
    while move >= 0:
        move, guess, key = moves[move]
        path.append(f"{guess}={key}")
    return "tree node after " + ",".join(reversed(path)) if path else "tree root"


def _feedback_keys(length: int) -> frozenset[str]:
    """The branch keys a node of a game of this length may have: every feedback but all-correct."""
    return frozenset(f"{a}A{b}B" for a in range(length + 1) for b in range(length + 1 - a)
                     if a < length and not (a == length - 1 and b == 1))


def brief(value: object) -> str:
    """A value as a message shows it: never thousands of characters, never an exception."""
    if type(value) is int and abs(value) >= 10 ** 18:
        return "a number of more than 18 digits"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


class Player:
    """The state of one game played from a book: where we are in the tree and how we got there."""

    _path: list[Mapping[str, Any]]  # the nodes from the root to here
    _history: list[tuple[str, str]]
    _solved: bool

    def __init__(self, book: Mapping[str, Any]) -> None:
        problem = check_book(book)  # first, so nothing is built from a book that is not one
        if problem:
            raise PlayerError(f"not a usable treegen book: {problem}")
        self._start(book)

    def _start(self, book: Mapping[str, Any]) -> None:
        """Set up play from a book that has passed :func:`check_book`: it is played as it is."""
        self.book = book
        self.game = dict(book["game"])
        self.length = self.game["length"]
        self._solved_key = f"{self.length}A0B"
        self._keys = _feedback_keys(self.length) | {self._solved_key}  # the fast path
        self._counts: dict[int, int] = {}  # id of a node -> secrets still possible there
        self.reset()

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Player:
        player = cls.__new__(cls)
        player._start(read_book(path))  # read_book has checked it
        return player

    def __repr__(self) -> str:
        strategy = self.book.get("strategy", {})
        where = "solved" if self._solved else f"next guess {self._path[-1]['guess']}"
        return (f"<Player {self.game.get('name')} {strategy.get('name')}: {len(self._history)} "
                f"answers, {where}>")

    # -- state ------------------------------------------------------------------------------

    @property
    def guess(self) -> str | None:
        """The code to play now, or None once the secret is found."""
        return None if self._solved else self._path[-1]["guess"]

    @property
    def solved(self) -> bool:
        return self._solved

    @property
    def history(self) -> list[tuple[str, str]]:
        """The (guess, feedback) pairs so far, feedback written canonically (``1A2B``)."""
        return list(self._history)

    def remaining(self) -> int:
        """How many secrets of the book are still possible (1 once solved): the leaves below here
        plus each guess below here that fits the answers above it. Counted once per node."""
        if self._solved:
            return 1
        here = self._path[-1]
        if id(here) not in self._counts:
            answers = self._answers()
            count = 0
            stack: list[tuple[Mapping[str, Any], int, tuple[str, int, int] | None]] = [
                (here, len(answers), None)]
            while stack:
                node, level, edge = stack.pop()
                del answers[level:]
                if edge:
                    answers.append(edge)
                guess, branches = node["guess"], node["next"]
                count += not branches or _fits(guess, answers)
                stack.extend((child, len(answers), (guess, *_parse_key(key)))
                             for key, child in branches.items())
            self._counts[id(here)] = count
        return self._counts[id(here)]

    def parse(self, text: object) -> str:
        """An answer in canonical form (``1A2B``), refusing unreadable or impossible ones."""
        if isinstance(text, str) and text in self._keys:
            return text
        return "{}A{}B".format(*parse_feedback(text, self.length))

    # -- moves ------------------------------------------------------------------------------

    def answer(self, feedback: object) -> str | None:
        """Follow the branch of ``feedback``; the next guess, or None if it is all-correct."""
        if self._solved:
            raise PlayerError("the game is already solved: undo() or reset() to play on")
        key = self.parse(feedback)
        node = self._path[-1]
        guess: str = node["guess"]
        child = node["next"].get(key)
        if child is not None:
            self._path.append(child)
            self._history.append((guess, key))
            return str(child["guess"])
        if key == self._solved_key:
            if not node["next"] or _fits(guess, self._answers()):
                self._solved = True
                self._history.append((guess, key))
                return None
            raise NoSuchBranch(f"answer {key} is impossible at this point: {guess} cannot be "
                               f"the secret{self._after()}")
        raise NoSuchBranch(f"answer {key} to {guess} is impossible at this point: "
                           f"no secret gives it{self._after()}")

    def undo(self) -> str:
        """Take back the last answer; returns the guess to play again."""
        if not self._history:
            raise PlayerError("nothing to undo")
        self._history.pop()
        if self._solved:
            self._solved = False
        else:
            self._path.pop()
        return str(self._path[-1]["guess"])

    def reset(self) -> str:
        """Back to the first guess."""
        self._path = [self.book["tree"]]
        self._history = []
        self._solved = False
        return str(self.book["tree"]["guess"])

    def _answers(self) -> list[tuple[str, int, int]]:
        return [(guess, *_parse_key(key)) for guess, key in self._history]

    def _after(self) -> str:
        if not self._history:
            return ""
        return " after " + ", ".join(f"{g}={f}" for g, f in self._history)


def score(guess: str, secret: str) -> str:
    """The answer to ``guess`` when the secret is ``secret``: ``aAbB``, a = symbols in the right
    place, b = the other symbols the two codes share. What a person answers the player with."""
    a = sum(map(eq, guess, secret))
    return f"{a}A{sum(min(guess.count(c), secret.count(c)) for c in set(guess)) - a}B"


def _parse_key(key: str) -> tuple[int, int]:
    """A canonical key (``1A2B``) as (bulls, bulls + cows)."""
    a, b = key[:-1].split("A")
    return int(a), int(a) + int(b)


def _fits(code: str, answers: list[tuple[str, int, int]]) -> bool:
    """Whether ``code`` as the secret gives every (guess, bulls, bulls + cows) answer."""
    return all(sum(map(eq, guess, code)) == a and
               sum(min(guess.count(c), code.count(c)) for c in set(guess)) == common
               for guess, a, common in answers)
