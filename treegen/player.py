"""Play from a treegen strategy book: look up the guess, read the answer, follow the branch.

Standard library only and one file: copy it into any project to play perfectly from a book. A
refused answer (unreadable, impossible in the game, impossible here) leaves the player as it was.
It holds the core of the book contract (strict JSON, format, game, tree); ``treegen.book`` adds
checks of the sections play does not use, so any book treegen reads, this player plays.

    player = Player.from_file("mastermind-minimax-all.json")
    player.guess              # '1122'
    player.answer("1A1B")     # the next guess, or None when the answer is all-correct
    score("1122", "3632")     # '1A0B': the answer a secret gives to a guess

A game's rule says how answers are scored and keyed: ``pegs`` (``1A2B``: symbols in place,
others shared), ``black`` (``2A``: symbols in place only), ``wordle`` (``GY..Y``: a tile per
position, green in place, yellow elsewhere as many times as the secret has the letter unmatched,
grey otherwise) or ``jotto`` (``3``: letters in common). Its notation says how people write them:
Mastermind's players speak black and white pegs (``BWW`` for ``1A2B``), every other game its
rule's own (:data:`NOTATIONS`, :func:`rule_of`); books keep the rule's keys. A game may list its
``answers`` (the secrets) and allowed ``guesses`` instead of enumerating codes.
In hard mode (``hard``) each guess must fit the answers before it (see
:func:`treegen.book.format.hard_allows`).
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from itertools import repeat
from operator import eq
from typing import Any, ClassVar, NoReturn

__all__ = [
    "DEFAULT_RULE",
    "GAME_NOTATIONS",
    "NOTATIONS",
    "NOTHING",
    "RULES",
    "ImpossibleAnswer",
    "MalformedAnswer",
    "NoSuchBranch",
    "Player",
    "PlayerError",
    "Rule",
    "branch_problem",
    "check_book",
    "check_game",
    "check_header",
    "check_tree",
    "duplicate_problem",
    "feedback_keys",
    "find_rule",
    "guess_problem",
    "parse_answer",
    "parse_feedback",
    "parse_json",
    "rule_of",
    "score",
    "solved_key",
    "spoken",
    "tree_events",
]

FORMAT = "treegen-book"
VERSION = 1
SECTIONS = ("format", "version", "game", "strategy", "stats", "tree")
#: The largest games any treegen reads: codes of at most 20 symbols, from at most 256 symbols.
MAX_LENGTH = 20
MAX_SYMBOLS = 256
#: The rule of feedback of a game that names none (see :data:`RULES`).
DEFAULT_RULE = "pegs"
#: A Wordle answer is a byte index of 3^length tiles: at most 5 positions.
MAX_TILES = 5
#: The most words a list of answers or guesses may hold.
MAX_WORDS = 100_000
_RESERVED = ",:="
#: A check of a parsed book: its first problem, or None.
Check = Callable[[object], "str | None"]

_AB = re.compile(r"^\s*(-?[0-9]{1,9})\s*[aA]\s*(-?[0-9]{1,9})\s*[bB]\s*$")
_PAIR = re.compile(r"^\s*(-?[0-9]{1,9})\s*(?:[,;/]|\s|-)\s*(-?[0-9]{1,9})\s*$")
_DIGITS = re.compile(r"^\s*([0-9])([0-9])\s*$")
#: Mastermind's black and white pegs: a letter a peg (BWW), or counts (1B2W, B1 W2).
_PEG_LETTERS = re.compile(r"^\s*[bBwW](?:\s*[bBwW]){0,39}\s*$")
#: Every spelling of nothing in common (no pegs, no letters shared, every tile grey).
NOTHING = frozenset({"", "-", "none", "no", "zero", "0", "nothing"})
_PEG_COUNTS = re.compile(r"^\s*(?:([0-9]{1,2})\s*[bB]|[bB]\s*([0-9]{1,2}))?\s*,?\s*"
                         r"(?:([0-9]{1,2})\s*[wW]|[wW]\s*([0-9]{1,2}))?\s*$")



class TreegenError(Exception):
    """Base of every error treegen reports to a user (bad input, impossible request, corrupt
    file); here, in the player's one file, so that the player's errors are treegen's too
    (:mod:`treegen.errors` holds the rest of the family)."""


class PlayerError(TreegenError, ValueError):
    """Base of every answer (or request) the player refuses; its state is then unchanged."""


class MalformedAnswer(PlayerError):
    """The answer cannot be read as a feedback."""


class ImpossibleAnswer(PlayerError):
    """No secret of any game of this size gives this answer (e.g. a+b larger than the length)."""


class NoSuchBranch(PlayerError):
    """The answer is valid for the game, but no secret gives it after the answers so far."""


def parse_feedback(text: object, length: int | None = None, pegs: bool = False) -> tuple[int, int]:
    """``1A2B``, ``12``, ``1 2``, ``1,2`` or ``(1, 2)`` -> (1, 2); black and white pegs too
    (``BWW``, ``1B2W``, ``B1 W2``), and nothing in common as ``-``, ``none``, ``0`` or nothing at
    all. A count of B alone (``2B``) is two black pegs with ``pegs`` (a game whose players speak
    pegs), else refused: in aAbB it would be two cows. With ``length``, answers no secret gives
    are refused."""
    if isinstance(text, (tuple, list)) and len(text) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) for n in text):
        a, b = text
    elif isinstance(text, str) and text.strip().lower() in NOTHING:
        a, b = 0, 0
    elif isinstance(text, str) and _PEG_LETTERS.match(text):
        a, b = sum(c in "bB" for c in text), sum(c in "wW" for c in text)
    else:
        match = _AB.match(text) or _PAIR.match(text) or _DIGITS.match(text) \
            if isinstance(text, str) else None
        counted = _PEG_COUNTS.match(text) if isinstance(text, str) and not match else None
        if match:
            a, b = int(match.group(1)), int(match.group(2))
        elif counted and any(counted.groups()):
            black, white = counted.group(1) or counted.group(2), counted.group(3) or counted.group(4)
            if white is None and not pegs:  # "2B": two cows in aAbB; never guess
                raise MalformedAnswer(f"answer {brief(text)} is ambiguous: write 0A{black}B for "
                                      f"{black} symbol{'s' if black != '1' else ''} elsewhere, or "
                                      f"{black}A0B for {black} in place")
            a, b = int(black or 0), int(white or 0)
        else:
            raise MalformedAnswer(f"cannot read answer {brief(text)}: write "
                                  f"{'BWW, 2B1W, 1A2B' if pegs else '1A2B'}, 12, '1 2'"
                                  f"{'' if pegs else ', BWW, 2B1W'}, or - for none")
    if a < 0 or b < 0:
        raise ImpossibleAnswer(f"answer {brief(text)} is impossible: counts cannot be negative")
    if length is None:
        return a, b
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
    """JSON as a book may hold it: ``NaN``, ``Infinity``, numbers beyond a float's range and a
    name twice in one object refused (JSON keeps the last: a reader of the text, the first).

    Raises ValueError (not JSON, a refused number, an integer of thousands of digits, a name
    twice) or RecursionError (nested too deeply).
    """
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float,
                      object_pairs_hook=_unique)


def duplicate_problem(key: str, branch: bool = True) -> str:
    return f"duplicate {'branch' if branch else 'key'} {brief(key)}"


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):  # a name given twice; a node's branches are nodes
        last = {key: i for i, (key, _) in enumerate(pairs)}
        key, value = next(pair for i, pair in enumerate(pairs) if last[pair[0]] != i)
        raise ValueError(duplicate_problem(key, type(value) is dict and "guess" in value))
    return found


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
    name = game.get("rule", DEFAULT_RULE)
    rule = RULES.get(name) if isinstance(name, str) else None
    if rule is None:
        return f"rule must be one of {', '.join(RULES)}, not {brief(name)}"
    if length > rule.most_length:
        return f"a {rule.name}-rule game has at most {rule.most_length} positions, not {length}"
    hard = game.get("hard", False)
    mode = hard_mode_of(game)
    if hard is not False and mode is None:
        spelled = ", ".join(json.dumps(m.written) for m in HARD_MODES.values())
        return f"hard must be false, {spelled}, not {brief(hard)}"
    if mode is not None and mode.name not in rule.hard_modes:
        fits = " or ".join(name for name, other in RULES.items() if mode.name in other.hard_modes)
        return f"hard mode {mode.name} does not apply to rule {rule.name}: it needs rule {fits}"
    if ("answers" in game) != ("guesses" in game):
        return "a game lists both its answers and its guesses, or neither"
    return _check_lists(game) if "answers" in game else None


def _check_lists(game: dict[str, Any]) -> str | None:
    """The first thing wrong with a game's lists of answers and guesses, or None."""
    symbols, length = frozenset(game["symbols"]), game["length"]
    lists = {}
    for which in ("answers", "guesses"):
        words = game[which]
        if type(words) is not list or not 1 <= len(words) <= MAX_WORDS:
            return f"{which} must be a list of 1 to {MAX_WORDS} words"
        for word in words:
            if type(word) is not str or code_problem(word, symbols, length, game["repetition"]):
                return f"{which}: {brief(word)} is not a word of {length} of the game's symbols" + \
                    ("" if game["repetition"] else " without repeats")
        seen: set[str] = set()
        for word in words:
            if word in seen:
                return f"{which}: {brief(word)} appears twice"
            seen.add(word)
        lists[which] = seen
    outside = lists["answers"] - lists["guesses"]
    if outside:
        return f"answer {brief(min(outside))} is not among the guesses"
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
    keys = frozenset(feedback_keys(game)) - {solved_key(game)}
    allowed = frozenset(game.get("guesses", ()))
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
                problem = guess_problem(guess, symbols, length, repetition, allowed)
                if problem is None:
                    codes.add(guess)
            if problem is None and type(branches) is not dict:
                problem = "\"next\" must be an object"
            elif problem is None and not keys.issuperset(branches):
                problem = branch_problem(game, next(k for k in branches if k not in keys))
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


def guess_problem(guess: object, symbols: frozenset[str], length: int, repetition: bool,
                  allowed: frozenset[str]) -> str | None:
    """Why a tree's guess is not one of the game's guesses, or None."""
    if type(guess) is not str:
        return f"guess {brief(guess)} is not a code of the game"
    if guess in allowed if allowed else len(guess) == length and symbols.issuperset(guess) \
            and (repetition or len(set(guess)) == length):
        return None
    wrong = "is not one of the game's guesses" if allowed else \
        code_problem(guess, symbols, length, repetition)
    return f"guess {brief(guess)} {wrong}"


def branch_problem(game: Mapping[str, Any], key: object) -> str:
    """What is wrong with a branch that is not one of the game's answers."""
    rule = rule_of(game)
    what = "a possible feedback of the game" if type(key) is str and \
        re.match(rule.pattern, key) else f"a feedback like {rule.example}"
    return f"branch {brief(key)} is not {what}"


def tree_events(tree: Mapping[str, Any]) -> Iterator[tuple[str | None, str] | None]:
    """A tree's nodes depth first: (answer leading to it, its guess) as a node is entered, None
    as the node last entered is left."""
    stack: list[tuple[str | None, Mapping[str, Any]] | None] = [(None, tree)]
    while stack:
        top = stack.pop()
        if top is None:
            yield None
            continue
        key, node = top
        yield key, node["guess"]
        stack.append(None)
        stack.extend(reversed(list(node["next"].items())))


def _where(moves: list[tuple[int, str, str]], move: int) -> str:
    path = []
    while move >= 0:
        move, guess, key = moves[move]
        path.append(f"{guess}={key}")
    return "tree node after " + ",".join(reversed(path)) if path else "tree root"


def feedback_keys(game: Mapping[str, Any]) -> list[str]:
    """Every answer of the game's rule in index order, all-correct among them; answers no secret
    can give are left out."""
    return rule_of(game).keys(game["length"])


def solved_key(game: Mapping[str, Any]) -> str:
    """The answer that says the guess is the secret."""
    return rule_of(game).solved(game["length"])


def parse_answer(text: object, game: Mapping[str, Any]) -> str:
    """Any spelling of an answer of the game's rule -> its canonical key (see each rule's
    :meth:`Rule.parse`), refusing answers no secret gives."""
    return rule_of(game).parse(text, game["length"])


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
        self.rule = rule_of(self.game)
        self._solved_key = solved_key(self.game)
        self._keys = frozenset(feedback_keys(self.game))  # the fast path
        self._counts: dict[tuple[tuple[str, str], ...], list[str]] = {}  # history -> possible, tree order
        self._answer_set: frozenset[str] | None = None
        self.reset()

    @classmethod
    def of_checked(cls, book: Mapping[str, Any]) -> Player:
        """A player of a book that a reader has checked whole, not walked again here: its tree
        may be read from its file as the game goes (``treegen.book.open_book``)."""
        player = cls.__new__(cls)
        player._start(book)
        return player

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Player:
        return cls.of_checked(read_book(path))  # read_book has checked it

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
        """How many secrets of the book are still possible (1 once solved)."""
        return 1 if self._solved else len(self._found())

    def possible(self) -> list[str]:
        """The secrets of the book still possible, in the game's order: the leaves below here
        and each guess below here that fits the answers above it."""
        if self._solved:
            return [self._history[-1][0]]
        rank = str.maketrans({c: chr(i) for i, c in enumerate(self.game["symbols"])})
        return sorted(self._found(), key=lambda code: code.translate(rank))

    def _found(self) -> list[str]:
        """The secrets still possible in the tree's order: found once per node, in one walk of
        its subtree (a node read from a file walks its own, see ``events``)."""
        here, seen = self._path[-1], tuple(self._history)
        if seen not in self._counts:
            answers = list(self._history)
            found: list[str] = []
            events = here.events() if hasattr(here, "events") else tree_events(here)
            guesses: list[str] = []  # of the open nodes
            leaf = False
            for event in events:
                if event is None:
                    if leaf or self._fits(guesses[-1], answers):  # a leaf, or a guess that fits
                        found.append(guesses[-1])
                    guesses.pop()
                    if len(answers) > len(self._history):
                        answers.pop()
                    leaf = False
                    continue
                if guesses:
                    answers.append((guesses[-1], str(event[0])))
                guesses.append(event[1])
                leaf = True
            self._counts[seen] = found
        return self._counts[seen]

    def parse(self, text: object) -> str:
        """An answer in canonical form (``1A2B``), refusing unreadable or impossible ones."""
        if isinstance(text, str) and text in self._keys:
            return text
        return parse_answer(text, self.game)

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
            if not node["next"] or self._fits(guess, self._history):
                self._solved = True
                self._history.append((guess, key))
                return None
            raise NoSuchBranch(f"answer {self.rule.format(key)} is impossible at this point: "
                               f"{guess} cannot be the secret{self._after()}")
        raise NoSuchBranch(f"answer {self.rule.format(key)} to {guess} is impossible at this "
                           f"point: no secret gives it{self._after()}")

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

    def _fits(self, code: str, answers: list[tuple[str, str]]) -> bool:
        """Whether ``code`` as the secret gives every (guess, answer) so far (with a list of
        answers, only an answer can be the secret)."""
        if "answers" in self.game:
            if self._answer_set is None:
                self._answer_set = frozenset(self.game["answers"])
            if code not in self._answer_set:
                return False
        return all(self.rule.score(guess, code) == key for guess, key in answers)

    def _after(self) -> str:
        if not self._history:
            return ""
        return " after " + ", ".join(f"{g}={self.rule.format(f)}" for g, f in self._history)


def score(guess: str, secret: str, rule: str = DEFAULT_RULE) -> str:
    """The answer to ``guess`` when the secret is ``secret``, under the game's rule (``aAbB`` for
    pegs, ``aA`` for black pegs, tiles ``GY..Y`` for wordle): what a person answers the player
    with."""
    return find_rule(rule).score(guess, secret)


# -- the rules of feedback ---------------------------------------------------------------------

#: The branches of treegen's compiled scorers (``treegen.rules.score_kernels``) a rule names as
#: its ``kernel``: symbols counted in place and in common, in place only, a tile a position.
KERNELS = (COUNTS, IN_PLACE, TILES) = (0, 1, 2)

class Rule:
    """One rule of feedback: what its answers look like, how they are scored, read and written,
    and how people are told to give them. Every part of treegen reads a rule here, so a new rule
    is one more entry in :data:`RULES` (and a scorer of whole tables in ``treegen.rules``)."""

    #: The name books write (``"rule"`` of a game).
    name = ""
    #: The canonical answer's pattern (any length), and an example of one.
    pattern = ""
    example = ""
    #: The name of the notation the rule is written in for people (see :data:`NOTATIONS`).
    notation = ""
    #: What the rule adds to a custom game's title and file name.
    title = ""
    slug = ""
    #: How a person answers, ``*`` around what to type; shorter, as the code-maker says it.
    how = ""
    short = ""
    #: Other spellings worth telling people of, marked as ``how`` is (empty: none).
    also = ""
    #: Whether a guess scores against a secret as the secret against the guess.
    symmetric_scores = True
    #: Whether answers are a tile per position, or black and white pegs (views draw them as such).
    tiles = False
    black_and_white = False
    #: The most positions a game of this rule may have, and the hard modes it allows.
    most_length = MAX_LENGTH
    hard_modes: tuple[str, ...] = ("strict",)
    #: The compiled scorer's branch (treegen.rules): ``COUNTS`` scores the symbols in place and
    #: in common and reads the answer from :meth:`counted`; ``IN_PLACE`` counts those in place;
    #: ``TILES`` writes a tile a position. A rule of counts needs no kernel of its own.
    kernel = COUNTS

    def indexed(self, length: int) -> list[str]:
        """What each index of a score table stands for, in index order, answers no secret gives
        among them (scorers compute an index; this is its layout)."""
        raise NotImplementedError

    def keys(self, length: int) -> list[str]:
        """Every answer in index order (the all-correct one among them), those no secret gives
        left out."""
        return [key for key in self.indexed(length) if self.possible(key, length)]

    def possible(self, key: str, length: int) -> bool:
        """Whether some guess and secret give this canonical answer."""
        return True

    def solved(self, length: int) -> str:
        """The answer that says the guess is the secret."""
        raise NotImplementedError

    def score(self, guess: str, secret: str) -> str:
        """The answer a secret gives to a guess."""
        raise NotImplementedError

    def parse(self, text: object, length: int) -> str:
        """Any accepted spelling of an answer -> its canonical key; MalformedAnswer or
        ImpossibleAnswer otherwise."""
        raise NotImplementedError

    def format(self, key: str) -> str:
        """A canonical answer as the game's players write it (books keep the canonical key)."""
        return key

    def counted(self, here: int, elsewhere: int, length: int) -> str:
        """The answer of a rule of counts when ``here`` symbols are in place and ``elsewhere``
        others are shared (how the compiled scorers read it off their counts)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        own = "" if RULES.get(self.name) is self else f" in {self.notation}"
        return f"<Rule {self.name}{own}>"


class Pegs(Rule):
    """``1A2B``: symbols right and in place, and the other symbols the two codes share."""

    name, pattern, example, title, slug = "pegs", r"^(0|[1-9][0-9]?)A(0|[1-9][0-9]?)B$", \
        "1A2B", "", ""
    notation = "aAbB"
    how = ("Answer each guess with *aAbB*: a = right symbols in the right place, b = right "
           "symbols elsewhere (1A2B, 12, '1 2' and 1,2 all work; - or 0 for nothing in common).")
    short = "aAbB (a in the right place, b elsewhere)"
    also = "Black and white pegs work too: *BBW*, *2B1W*."

    def indexed(self, length: int) -> list[str]:
        return [f"{a}A{b}B" for a in range(length + 1) for b in range(length + 1 - a)]

    def possible(self, key: str, length: int) -> bool:
        return key != f"{length - 1}A1B"  # the last symbol cannot be elsewhere

    def solved(self, length: int) -> str:
        return f"{length}A0B"

    def score(self, guess: str, secret: str) -> str:
        a = sum(map(eq, guess, secret))
        return f"{a}A{sum(min(guess.count(c), secret.count(c)) for c in set(guess)) - a}B"

    def parse(self, text: object, length: int) -> str:
        return "{}A{}B".format(*parse_feedback(text, length, self.black_and_white))

    def counted(self, here: int, elsewhere: int, length: int) -> str:
        return f"{here}A{elsewhere}B"


class BlackWhite(Pegs):
    """Pegs as Mastermind's players give them: a black peg for each symbol in place, a white one
    for each other symbol shared (``1A2B`` is ``BWW``); a count of B alone is black pegs."""

    notation, black_and_white = "black-white", True
    how = ("Answer each guess with black and white pegs: *B* for each right colour in place, *W* "
           "for each right colour elsewhere (BBW, 2B1W; - or none for no pegs).")
    short = "with black and white pegs (B: a right colour in place, W: a right colour elsewhere)"
    also = "Counts work too: *1A2B* (1 black, 2 white), *12*."
    NONE = "none"

    def format(self, key: str) -> str:
        match = re.match(self.pattern, key)
        if not match:
            return key
        black, white = int(match.group(1)), int(match.group(2))
        return "B" * black + "W" * white or self.NONE


class BlackPegs(Rule):
    """``2A``: symbols in place only."""

    name, pattern, example, notation = "black", r"^(0|[1-9][0-9]?)A$", "2A", "aA"
    title, slug, kernel = ", black pegs only", "-black", IN_PLACE
    how = ("Answer each guess with *aA*: a = right symbols in the right place (2A, 2 and BB work; "
           "- or 0 for none).")
    short = "aA (a in the right place)"
    _SPELLING = re.compile(r"^\s*([0-9]{1,2})\s*[aA]?\s*$|^\s*([bB]+)\s*$")  # 2A, 2; pegs BB

    def indexed(self, length: int) -> list[str]:
        return [f"{a}A" for a in range(length + 1)]

    def solved(self, length: int) -> str:
        return f"{length}A"

    def score(self, guess: str, secret: str) -> str:
        return f"{sum(map(eq, guess, secret))}A"

    def parse(self, text: object, length: int) -> str:
        if isinstance(text, str) and text.strip().lower() in NOTHING:
            return "0A"
        match = self._SPELLING.match(text) if isinstance(text, str) else None
        if not match:
            raise MalformedAnswer(f"cannot read answer {brief(text)}: write 2A, 2 or BB, or - "
                                  "for none")
        count = int(match.group(1)) if match.group(1) else len(match.group(2))
        if count > length:
            raise ImpossibleAnswer(f"answer {brief(text)} is impossible: more than the {length} "
                                   "positions")
        return f"{count}A"


class Tiles(Rule):
    """Wordle's ``GY..Y``: a tile per position, green in place, yellow elsewhere as many times as
    the secret has the letter unmatched, grey otherwise."""

    name, pattern, example, notation = "wordle", r"^[.YG]+$", "GY..Y", "tiles"
    title, slug = ", scored as Wordle", "-wordle"
    how = ("Answer each guess with its tiles: *G* = green (right letter, right place), *Y* = "
           "yellow (in the word elsewhere), *.* = grey (not in it, or not again), e.g. GY..Y.")
    short = "with tiles (G green: in place, Y yellow: elsewhere, . grey: not in it)"
    symmetric_scores, tiles, most_length, kernel = False, True, MAX_TILES, TILES
    hard_modes = ("strict", "hints")
    #: Every spelling of a tile: letters, digits, dashes and the coloured squares.
    _SPELLING: ClassVar[dict[str, str]] = {
        "G": "G", "g": "G", "2": "G", "\U0001f7e9": "G", "Y": "Y", "y": "Y", "1": "Y", "\U0001f7e8": "Y",
        ".": ".", "-": ".", "_": ".", "x": ".", "X": ".", "0": ".", "\u2b1b": ".", "\u2b1c": "."}

    def indexed(self, length: int) -> list[str]:
        keys = [""]  # base 3, most significant first: grey 0, yellow 1, green 2
        for _ in range(length):
            keys = [key + tile for key in keys for tile in ".YG"]
        return keys

    def possible(self, key: str, length: int) -> bool:
        return not (key.count("G") == length - 1 and "Y" in key)

    def solved(self, length: int) -> str:
        return "G" * length

    def score(self, guess: str, secret: str) -> str:
        left: dict[str, int] = {}  # the secret's letters not matched in place
        for g, s in zip(guess, secret):
            if g != s:
                left[s] = left.get(s, 0) + 1
        tiles = []
        for g, s in zip(guess, secret):
            if g == s:
                tiles.append("G")
            elif left.get(g, 0) > 0:
                left[g] -= 1
                tiles.append("Y")
            else:
                tiles.append(".")
        return "".join(tiles)

    def parse(self, text: object, length: int) -> str:
        if isinstance(text, str) and text.strip().lower() in NOTHING:
            return "." * length  # nothing in the word: every tile grey
        tiles = "".join(self._SPELLING.get(c, "?") for c in text if not c.isspace()) \
            if isinstance(text, str) else "?"
        if "?" in tiles or len(tiles) != length:
            raise MalformedAnswer(f"cannot read answer {brief(text)}: write {length} tiles of G "
                                  "(green), Y (yellow) and . (grey), e.g. " + "GY..Y"[:length] +
                                  ", or none for every tile grey")
        if tiles.count("G") == length - 1 and "Y" in tiles:
            raise ImpossibleAnswer(f"answer {brief(text)} is impossible: with every other letter "
                                   "in place the last one cannot be elsewhere")
        return tiles


class Jotto(Rule):
    """Jotto's count: the letters a guess shares with the secret, counted with repeats as pegs
    count them (``crane`` against ``cigar``: 3); only the secret itself wins, so an anagram of a
    five-letter secret answers 5, not ``win``."""

    name, pattern, example, notation = "jotto", r"^(0|[1-9][0-9]?|win)$", "3", "count"
    title, slug = ", scored as Jotto", "-jotto"
    how = ("Answer each guess with the number of letters it shares with your secret, counted "
           "with repeats (crane against cigar: 3), and *win* when it is your secret.")
    short = "with the letters in common (win: it is the secret)"
    WIN = "win"
    _SPELLING = re.compile(r"^\s*([0-9]{1,2})\s*$")
    _FOUND = frozenset({"win", "won", "yes", "jotto", "!"})

    def indexed(self, length: int) -> list[str]:
        return [str(count) for count in range(length + 1)] + [self.WIN]

    def possible(self, key: str, length: int) -> bool:
        return not (key == str(length) and length == 1)  # one letter in common is the word

    def solved(self, length: int) -> str:
        return self.WIN

    def score(self, guess: str, secret: str) -> str:
        if guess == secret:
            return self.WIN
        return str(sum(min(guess.count(c), secret.count(c)) for c in set(guess)))

    def counted(self, here: int, elsewhere: int, length: int) -> str:
        return self.WIN if here == length else str(here + elsewhere)

    def parse(self, text: object, length: int) -> str:
        said = text.strip().lower() if isinstance(text, str) else None
        if said in self._FOUND:
            return self.WIN
        if said in NOTHING:
            return "0"
        match = self._SPELLING.match(text) if isinstance(text, str) else None
        if not match:
            raise MalformedAnswer(f"cannot read answer {brief(text)}: write the number of letters "
                                  "in common (0, 3, ...; - or none for 0), or win")
        count = int(match.group(1))
        if count > length or not self.possible(str(count), length):
            raise ImpossibleAnswer(f"answer {brief(text)} is impossible: a guess of {length} "
                                   f"letters shares at most {length - (length == 1)} with a "
                                   "secret it is not")
        return str(count)


#: The rules of feedback by name; a game without ``"rule"`` is scored by the default.
RULES: dict[str, Rule] = {rule.name: rule for rule in (Pegs(), BlackPegs(), Tiles(), Jotto())}
#: How answers are written for people, by name: each rule as itself, and the other ways a game's
#: players may speak a rule (scored, keyed and stored as the rule, shown and read their way).
NOTATIONS: dict[str, Rule] = {rule.notation: rule for rule in (*RULES.values(), BlackWhite())}
#: The games whose players speak another notation than their rule's own, by the name books give
#: them; every other game speaks its rule's.
GAME_NOTATIONS: dict[str, str] = {"mastermind": "black-white"}


# -- hard modes ---------------------------------------------------------------------------------

#: The tests of the compiled search a hard mode names as its ``kernel``.
SAME_ANSWER, HINTS_KEPT = 0, 1


class HardMode:
    """One hard mode: which guesses may follow an answer, how books write it, how it is named.
    Every part of treegen reads a hard mode here (the compiled search by its ``kernel``)."""

    #: The name ``Game.hard`` gives it, and what a book's ``"hard"`` holds.
    name = ""
    written: bool | str = True
    #: What it adds to a game's title and file name, and what it asks of a guess.
    title = slug = describe = ""
    #: How a message says a guess breaks it ("does not fit guess 2, ..."), and the command
    #: line's flag for it.
    breaks = flag = ""
    #: The compiled search's test (``treegen.search.kernels``): :data:`SAME_ANSWER` or
    #: :data:`HINTS_KEPT`, letter by letter.
    kernel = SAME_ANSWER

    def allows(self, rule: Rule, asked: str, key: str, guess: str) -> bool:
        """Whether ``guess`` may follow ``asked`` answered ``key``."""
        raise NotImplementedError


class Strict(HardMode):
    """Every guess must fit every answer so far: as the secret it would give that answer."""

    name, written, title, slug = "strict", True, ", hard mode", "-hard"
    describe = "every guess must fit every answer so far"
    breaks, flag = "does not fit", "--hard"

    def allows(self, rule: Rule, asked: str, key: str, guess: str) -> bool:
        return rule.score(asked, guess) == key


class Hints(HardMode):
    """Wordle's own: greens kept in place, each green or yellow letter used again as often."""

    name, written, title, slug = "hints", "hints", ", hard mode (hints)", "-hints"
    kernel = HINTS_KEPT
    describe = "every guess keeps the greens in place and uses every green or yellow letter again"
    breaks, flag = "does not keep the hints of", "--hints"

    def allows(self, rule: Rule, asked: str, key: str, guess: str) -> bool:
        marked = [a for a, tile in zip(asked, key) if tile != "."]
        return all(g == a for a, tile, g in zip(asked, key, guess) if tile == "G") and \
            all(guess.count(a) >= marked.count(a) for a in set(marked))


#: The hard modes by name.
HARD_MODES: dict[str, HardMode] = {mode.name: mode for mode in (Strict(), Hints())}


def hard_mode_of(game: Mapping[str, Any]) -> HardMode | None:
    """A game's hard mode as its book writes it (``"hard"``: false, true or a mode's name)."""
    written = game.get("hard", False)
    for mode in HARD_MODES.values():
        if type(written) is type(mode.written) and written == mode.written:
            return mode
    return None


def find_rule(name: object) -> Rule:
    """The rule of this name; PlayerError naming the rules there are otherwise."""
    rule = RULES.get(name) if isinstance(name, str) else None
    if rule is None:
        raise PlayerError(f"rule must be one of {', '.join(RULES)}, not {brief(name)}")
    return rule


def rule_of(game: Mapping[str, Any]) -> Rule:
    """A game's rule of feedback (pegs unless it says otherwise), in the notation its players
    speak (:func:`spoken`): answers keyed as the rule keys them, shown and read their way."""
    return spoken(find_rule(game.get("rule", DEFAULT_RULE)), game.get("name"))


def spoken(rule: Rule, game_name: object) -> Rule:
    """``rule`` in the notation of the game of this name (:data:`GAME_NOTATIONS`), or as itself
    when the game speaks none of its own or one of another rule."""
    named = GAME_NOTATIONS.get(game_name, "") if isinstance(game_name, str) else ""
    notation = NOTATIONS.get(named, rule)
    return notation if notation.name == rule.name else rule
