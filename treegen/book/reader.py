"""Reading a book without holding its tree: the sections, then the tree node by node.

A book of millions of secrets takes gigabytes as parsed JSON. A book in the layout treegen writes
(one line per section, the tree last and compact) is read here a chunk at a time: the sections are
parsed and checked as usual, and the tree is handed out depth first as it is read, each node
checked as it comes, so memory grows with the tree's height, not its size. A valid book in any
other layout is read whole, as before. Standard library only, like the player.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any, TypeVar

from treegen.data import GameData
from treegen.errors import Layout
from treegen.notation import game_slug
from treegen.player import (
    Check,
    PlayerError,
    branch_problem,
    check_header,
    duplicate_problem,
    feedback_keys,
    guess_problem,
    parse_json,
    read_book,
    solved_key,
    tree_events,
)
from treegen.settings import available_memory, human_size

__all__ = ["Enter", "FileNode", "fitting", "game_problem", "read_sections", "with_tree"]

#: A node entered: the answer that leads to it from its parent (None at the top) and its guess.
Enter = tuple["str | None", str]
T = TypeVar("T")

#: Bytes read at a time, and the most a section line may take (the tree's line aside).
CHUNK = 1 << 22
MAX_SECTION = 1 << 26
#: A subtree of at most this many nodes is held as nodes once read; a larger one is read again.
HELD = 512
_TREE = b' "tree": '
_STR = rb'"([^"\\\x00-\x1f]*)"'
_OPEN = re.compile(rb'\{"guess":' + _STR + rb',"next":\{')
_KEY = re.compile(rb',?' + _STR + rb':')
_CLOSE = b"}}"


def game_problem(game: GameData) -> str | None:
    """Why this machine cannot hold the codes of a book's game (a checked one), or None.

    Verify, play's rescoring and the site's code-maker page enumerate them, so every reader
    refuses such a book before anything is read of its tree, in the words treegen's games use
    (``Game.check_fits``). A book is only written for a game whose codes fit.
    """
    symbols, length = len(game["symbols"]), game["length"]
    if "answers" in game:
        size, guesses = len(game["answers"]), len(game["guesses"])
    else:
        size = symbols ** length if game["repetition"] else math.perm(symbols, length)
        guesses = size
    need, available = guesses * (length + symbols + 64), available_memory()
    if need <= available:
        return None
    return (f"game {game_slug(game)} has {size:,} codes and needs about {human_size(need)} of "
            f"memory for its codes; only {human_size(available)} is available")


def fitting(check: Callable[[Any], str | None]) -> Check:
    """``check`` of a book, after its format and game and whether its game fits
    (:func:`game_problem`): the order in which a book read node by node is checked, so a book
    read whole gets the same verdict."""
    def checked(book: object) -> str | None:
        problem = check_header(book)
        if problem is None and isinstance(book, dict):
            problem = game_problem(book["game"])
        return problem or check(book)
    return checked


def read_sections(path: str | os.PathLike[str], check: Callable[[dict[str, Any]], str | None]
                  ) -> tuple[dict[str, Any], int] | None:
    """The book's sections but its tree (checked by ``check``, the tree given as None)
    and the byte where the tree's text starts; None when the file is not in treegen's layout."""
    with _open(path) as fh:
        if fh.readline() != b"{\n":
            return None
        lines = []
        while True:
            start = fh.read(len(_TREE))  # the tree's line is never read here, only its start
            if start == _TREE:
                offset = fh.tell()
                break
            line = start + fh.readline(MAX_SECTION)
            if not line.endswith(b",\n") or not line.startswith(b" "):
                return None
            lines.append(line[:-2])
    try:
        head = parse_json("{" + b",".join(lines).decode() + "}")
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None  # read whole, where the problem is named
    if not isinstance(head, dict) or "tree" in head:
        return None
    head["tree"] = None
    problem = fitting(check)(head)
    if problem:
        raise PlayerError(f"{path}: {problem}")
    return head, offset


def with_tree(path: str | os.PathLike[str], check: Callable[[object], str | None],
              sections: Callable[[dict[str, Any]], str | None],
              use: Callable[[dict[str, Any], Iterator[Enter | None]], T]) -> T:
    """``use(book, events)`` on the book at ``path``: its sections checked by ``sections`` and its
    tree's events, read node by node where the layout allows, else from the book read whole and
    checked by ``check``; either way a game too large to hold is refused (:func:`fitting`).
    Every problem is a one-line PlayerError naming the file."""
    found = read_sections(path, sections)
    if found is not None:
        head, offset = found
        try:
            return use(head, _file_events(path, offset, head["game"]))
        except Layout:
            pass
    book = read_book(path, fitting(check))
    return use(book, tree_events(book["tree"]))


class FileNode(Mapping[str, Any]):
    """A node of a book's tree in its file: ``guess``, and ``next`` read from the file each time
    it is asked for (a branch of at most ``HELD`` nodes as nodes, a larger one as a FileNode).
    ``events()`` walks its subtree in one pass."""

    __slots__ = ("_game", "_guess", "_offset", "_path")

    def __init__(self, path: str | os.PathLike[str], game: dict[str, Any], offset: int,
                 guess: str) -> None:
        self._path, self._game, self._offset, self._guess = path, game, offset, guess

    def __getitem__(self, name: str) -> Any:
        if name == "guess":
            return self._guess
        if name == "next":
            return self._branches()
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(("guess", "next"))

    def __len__(self) -> int:
        return 2

    def events(self) -> Iterator[Enter | None]:
        """The subtree's events, as :func:`with_tree` gives a tree's."""
        try:
            yield from _file_events(self._path, self._offset, self._game, [0])
        except Layout:
            raise PlayerError(f"{self._path} changed while it was read") from None

    def _branches(self) -> dict[str, Any]:
        at = [0]
        events = _file_events(self._path, self._offset, self._game, at)
        branches: dict[str, Any] = {}
        held: list[dict[str, Any]] = []  # the open nodes of the branch being read, while held
        size = depth = 0
        key, guess, offset = "", "", 0
        try:
            next(events)  # this node
            depth = 1
            for event in events:
                if event is None:
                    depth -= 1
                    if held:
                        node = held.pop()
                        if depth == 1:
                            branches[key] = node
                    elif depth == 1:
                        branches[key] = FileNode(self._path, self._game, offset, guess)
                    if depth == 0:
                        break
                    continue
                depth += 1
                if depth == 2:
                    key, guess, offset, size, held = str(event[0]), event[1], at[0], 0, []
                size += 1
                if size > HELD:
                    held = []
                elif held or size == 1:
                    node = {"guess": event[1], "next": {}}
                    if held:
                        held[-1]["next"][event[0]] = node
                    held.append(node)
        except Layout:
            raise PlayerError(f"{self._path} changed while it was read") from None
        return branches


def _file_events(path: str | os.PathLike[str], offset: int, game: dict[str, Any],
                 at: list[int] | None = None) -> Iterator[Enter | None]:
    """The tree's events from its text, each node checked as it comes (guesses of the game,
    answers of its rule, no answer twice, UTF-8 text, each refused as the book read whole is);
    Layout when the text is not treegen's compact JSON.
    With ``at``, the subtree of the node at byte ``offset`` only, ``at[0]`` set to the byte of
    each node as it is entered."""
    symbols, length, repetition = frozenset(game["symbols"]), game["length"], game["repetition"]
    allowed = frozenset(game.get("guesses", ()))
    keys = frozenset(feedback_keys(game)) - {solved_key(game)}
    path_: list[tuple[str, set[str]]] = []  # open nodes: guess, answers given so far
    with _open(path) as fh:
        fh.seek(offset)
        buf, pos, done, base = b"", 0, False, offset

        def where() -> str:
            moves = [f"{guess}={key}" for (guess, _), key in zip(path_, pending)]
            return "tree node after " + ",".join(moves) if moves else "tree root"

        pending: list[str] = []  # the answer of each open node that leads on
        key: str | None = None
        while True:
            if len(buf) - pos < 4096 and not done:
                more = fh.read(CHUNK)
                done = not more
                buf, pos, base = buf[pos:] + more, 0, base + pos
            if key is None and path_ and buf.startswith(_CLOSE, pos):
                pos += 2
                path_.pop()
                if pending:
                    pending.pop()
                yield None
                if not path_:
                    break
                continue
            if key is None and path_:
                match = _KEY.match(buf, pos)
                if match is None or (match.group(0)[:1] == b",") != bool(path_[-1][1]):
                    raise Layout
                key = _text(match.group(1), path)
                if key in path_[-1][1]:
                    raise PlayerError(f"{path} is not a treegen book: {duplicate_problem(key)}")
                if key not in keys:
                    raise PlayerError(f"{path}: {where()}: {branch_problem(game, key)}")
                path_[-1][1].add(key)
                pending.append(key)
                pos = match.end()
                continue
            match = _OPEN.match(buf, pos)
            if match is None:
                raise Layout
            guess = _text(match.group(1), path)
            wrong = guess_problem(guess, symbols, length, repetition, allowed)
            if wrong:  # checked each time: a set of the guesses seen would grow with the game
                raise PlayerError(f"{path}: {where()}: {wrong}")
            if at is not None:
                at[0] = base + pos
            pos = match.end()
            yield key, guess
            path_.append((guess, set()))
            key = None
        if at is None and buf[pos:] + fh.read(16) != b"\n}\n":
            raise Layout


def _text(raw: bytes, path: str | os.PathLike[str]) -> str:
    """A string of the tree, refused as :func:`treegen.player.read_book` refuses a book that is
    not UTF-8."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise PlayerError(f"{path} is not a treegen book: it is not UTF-8 text") from None


def _open(path: str | os.PathLike[str]) -> IO[bytes]:
    """A regular file, opened for reading bytes (a pipe or device could block or never end)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise PlayerError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before open(), which refuses a folder itself
        os.close(fd)
        raise PlayerError(f"cannot read {path}: not a regular file")
    return open(fd, "rb")  # returned to a with statement
