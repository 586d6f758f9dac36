"""Play from a treegen strategy book: look up the guess, read the answer, follow the branch.

Standard library only and self-contained: copy this one file into any project to play perfectly from
a book, with no computation during play. Answers are checked in three steps (readable, possible in
the game, possible at this point of the book) and a refused answer leaves the player as it was.

    player = Player.from_file("mastermind-minimax-all.json")
    player.guess              # '1122'
    player.answer("1A1B")     # the next guess, or None when the answer is all-correct
"""

from __future__ import annotations

import json
import re
from operator import eq
from types import MappingProxyType

__all__ = ["Player", "PlayerError", "MalformedAnswer", "ImpossibleAnswer", "NoSuchBranch",
           "parse_feedback"]

_AB = re.compile(r"^\s*(-?\d+)\s*[aA]\s*(-?\d+)\s*[bB]\s*$")
_PAIR = re.compile(r"^\s*(-?\d+)\s*(?:[,;/]|\s|-)\s*(-?\d+)\s*$")
_DIGITS = re.compile(r"^\s*(\d)(\d)\s*$")
_KEY = re.compile(r"^(\d+)A(\d+)B$")

# node layout (lists, not objects: loading the largest books stays fast)
_GUESS, _NEXT, _COUNT, _POSSIBLE = range(4)
_NO_BRANCHES = MappingProxyType({})  # shared by every leaf, so read-only


class PlayerError(ValueError):
    """Base of every answer (or request) the player refuses; its state is then unchanged."""


class MalformedAnswer(PlayerError):
    """The answer cannot be read as a feedback."""


class ImpossibleAnswer(PlayerError):
    """No secret of any game of this size gives this answer (e.g. a+b larger than the length)."""


class NoSuchBranch(PlayerError):
    """The answer is valid for the game, but no secret gives it after the answers so far."""


def parse_feedback(text, length: int) -> tuple[int, int]:
    """``1A2B``, ``12``, ``1 2``, ``1,2`` or ``(1, 2)`` -> (1, 2), refusing answers no secret gives."""
    if isinstance(text, (tuple, list)) and len(text) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) for n in text):
        a, b = text
    else:
        match = _AB.match(text) or _PAIR.match(text) or _DIGITS.match(text) \
            if isinstance(text, str) else None
        if not match:
            raise MalformedAnswer(f"cannot read answer {text!r}: write it as 1A2B, 12, '1 2' or 1,2")
        a, b = int(match.group(1)), int(match.group(2))
    if a < 0 or b < 0:
        raise ImpossibleAnswer(f"answer {text!r} is impossible: counts cannot be negative")
    if a + b > length:
        raise ImpossibleAnswer(f"answer {text!r} is impossible: {a}+{b} exceeds the {length} positions")
    if a == length - 1 and b == 1:
        raise ImpossibleAnswer(f"answer {text!r} is impossible: with {a} in place the last symbol "
                               "cannot be elsewhere")
    return a, b


def _spellings(length: int) -> dict:
    """Every usual way of writing each feedback, mapped to its canonical key: the fast path."""
    out = {}
    for a in range(length + 1):
        for b in range(length + 1 - a):
            if a == length - 1 and b == 1:
                continue
            key = f"{a}A{b}B"
            for text in (key, f"{a}a{b}b", f"{a},{b}", f"{a} {b}", f"{a}-{b}"):
                out[text] = key
            if a < 10 and b < 10:
                out[f"{a}{b}"] = key
    return out


class Player:
    """The state of one game played from a book: where we are in the tree and how we got there."""

    def __init__(self, book: dict):
        try:
            game, tree = book["game"], book["tree"]
            self.length = game["length"]
            self.game = dict(game)
        except (KeyError, TypeError, ValueError):
            self.length = None
        if type(self.length) is not int or self.length < 1:
            raise PlayerError("not a treegen book: it needs \"game\" (with a positive \"length\") "
                              "and \"tree\"")
        self.book = book
        self._solved_key = f"{self.length}A0B"
        self._spelling = _spellings(self.length)
        self._root = _compile(tree, self.length)
        self.reset()

    @classmethod
    def from_file(cls, path) -> "Player":
        try:
            with open(path, encoding="utf-8") as fh:
                book = json.load(fh)
        except OSError as exc:
            raise PlayerError(f"cannot read {path}: {exc.strerror or exc}") from None
        except ValueError as exc:  # not JSON, or not UTF-8
            raise PlayerError(f"{path} is not a JSON book: {exc}") from None
        except RecursionError:
            raise PlayerError(f"{path} is nested too deeply to be a book") from None
        return cls(book)

    # -- state ------------------------------------------------------------------------------

    @property
    def guess(self) -> str | None:
        """The code to play now, or None once the secret is found."""
        return None if self._solved else self._path[-1][_GUESS]

    @property
    def solved(self) -> bool:
        return self._solved

    @property
    def history(self) -> list[tuple[str, str]]:
        """The (guess, feedback) pairs so far, feedback written canonically (``1A2B``)."""
        return list(self._history)

    def remaining(self) -> int:
        """How many secrets of the book are still possible (1 once solved)."""
        return 1 if self._solved else self._path[-1][_COUNT]

    def parse(self, text) -> str:
        """An answer in canonical form (``1A2B``), refusing unreadable or impossible ones."""
        key = self._spelling.get(text) if isinstance(text, str) else None
        if key is None:
            key = "%dA%dB" % parse_feedback(text, self.length)
        return key

    # -- moves ------------------------------------------------------------------------------

    def answer(self, feedback) -> str | None:
        """Follow the branch of ``feedback``; the next guess, or None if it is all-correct."""
        if self._solved:
            raise PlayerError("the game is already solved: undo() or reset() to play on")
        key = self._spelling.get(feedback) if isinstance(feedback, str) else None
        if key is None:
            key = self.parse(feedback)
        node = self._path[-1]
        child = node[_NEXT].get(key)
        if child is not None:
            self._path.append(child)
            self._history.append((node[_GUESS], key))
            return child[_GUESS]
        if key == self._solved_key:
            if node[_POSSIBLE]:
                self._solved = True
                self._history.append((node[_GUESS], key))
                return None
            raise NoSuchBranch(f"answer {key} is impossible at this point: {node[_GUESS]} cannot be "
                               f"the secret{self._after()}")
        raise NoSuchBranch(f"answer {key} to {node[_GUESS]} is impossible at this point: "
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
        return self._path[-1][_GUESS]

    def reset(self) -> str:
        """Back to the first guess."""
        self._path = [self._root]
        self._history = []
        self._solved = False
        return self._root[_GUESS]

    def _after(self) -> str:
        if not self._history:
            return ""
        return " after " + ", ".join(f"{g}={f}" for g, f in self._history)


def _compile(tree: dict, length: int) -> list:
    """The tree as nested lists with, per node, how many secrets are still possible there.

    A node's secrets are its children's plus its own guess when that guess is itself still possible
    (scored against the answers on the path; a leaf always is). Iterative, so deep trees are fine;
    leaves (most nodes) are finished where they are met, never stacked.
    """
    guess, branches = _read(tree, length)
    if not branches:
        return [guess, _NO_BRANCHES, 1, True]
    keys: dict = {}  # branch key -> (a, a + b), parsed once per distinct key
    root = [guess, {}, 0, True]
    inner = []  # (node, parent) of inner nodes, in pre-order
    stack = [(branches, root, None, (), None, None)]
    while stack:
        branches, node, parent, path, fb, tally = stack.pop()
        inner.append((node, parent))
        guess = node[_GUESS]
        if parent is not None:  # the answers that led here, built for inner nodes only
            path = (*path, (parent[_GUESS], fb[0], fb[1], tally))
            node[_POSSIBLE] = _fits(guess, path)
        tally = tuple((c, guess.count(c)) for c in set(guess))
        children = node[_NEXT]
        for key, raw in branches.items():
            fb = keys.get(key)
            if fb is None:
                fb = keys[key] = _branch_feedback(key, guess, length)
            child_guess, child_branches = _read(raw, length)
            if child_branches:
                children[key] = child = [child_guess, {}, 0, True]
                stack.append((child_branches, child, node, path, fb, tally))
            else:
                children[key] = [child_guess, _NO_BRANCHES, 1, True]
                node[_COUNT] += 1
    for node, parent in reversed(inner):
        node[_COUNT] += node[_POSSIBLE]
        if parent is not None:
            parent[_COUNT] += node[_COUNT]
    return root


def _read(raw, length: int) -> tuple[str, dict]:
    """A node's guess and branches, or a PlayerError saying what is malformed."""
    try:
        guess, branches = raw["guess"], raw["next"]
    except (KeyError, TypeError):
        raise PlayerError("malformed book tree: every node needs \"guess\" and \"next\"") from None
    if type(guess) is not str or len(guess) != length:
        raise PlayerError(f"malformed book tree: guess {guess!r} is not a code of length {length}")
    if branches and type(branches) is not dict:
        raise PlayerError(f"malformed book tree: \"next\" after {guess} is not an object")
    return guess, branches


def _fits(code: str, path: tuple) -> bool:
    """Whether ``code`` as the secret gives every answer on ``path`` (guess, a, a + b, symbol tally)."""
    for guess, a, common, tally in path:
        if sum(map(eq, guess, code)) != a:
            return False
        for symbol, count in tally:
            n = code.count(symbol)
            common -= n if n < count else count
        if common:
            return False
    return True


def _branch_feedback(key, guess: str, length: int) -> tuple[int, int]:
    match = _KEY.match(key) if isinstance(key, str) else None
    if not match:
        raise PlayerError(f"malformed book tree: branch {key!r} after {guess} is not a feedback")
    fb = (int(match.group(1)), int(match.group(2)))
    if fb[0] < 0 or sum(fb) > length or fb == (length, 0) or fb == (length - 1, 1):
        raise PlayerError(f"malformed book tree: branch {key} after {guess} is not a possible feedback")
    return fb[0], fb[0] + fb[1]
