"""The top of a book too large to hold: the levels a picture draws, read node by node from the file
with the size of each node counted on the way (see :mod:`treegen.book.reader`).

The nodes on the way to the start and the levels drawn below it are kept; a node on the last level
kept, or beside the way, keeps its branches as :class:`Unread`: it has some, they are not here. The
sizes are those :func:`treegen.views.tree.measure` gives the whole tree, so a picture drawn from the
top is the picture drawn from the whole book.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from treegen.book.format import answer_key, check, check_sections, load
from treegen.book.reader import Enter, read_sections, with_tree
from treegen.data import BookData, GameData, Node
from treegen.errors import BookError, RenderError
from treegen.player import PlayerError
from treegen.views.tree import Size, locate, parse_path

__all__ = ["Unread", "read_top", "top_of"]


class Unread(Mapping[str, Node]):
    """The branches of a node below the levels read: there are some, and they were not kept."""

    def __getitem__(self, key: str) -> Node:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        raise RenderError("the branches below the levels read were asked for")

    def __len__(self) -> int:
        return 1


def read_top(path: str | os.PathLike[str], answers: Sequence[str], depth: int
             ) -> tuple[BookData, dict[int, Size]]:
    """The book at ``path`` with the nodes on the way of ``answers`` and ``depth`` levels from
    there (the start's level the first), and the size of each node kept from the start down,
    keyed by ``id(node)`` as :func:`treegen.views.tree.measure` keys them."""
    if type(depth) is not int or depth < 1:
        raise RenderError(f"depth must be a whole number of at least 1, not {depth!r}")

    def use(book: dict[str, Any], events: Iterator[Enter | None]) -> tuple[BookData, dict[int, Size]]:
        top = _Top(cast(GameData, book["game"]), tuple(answers), depth)
        for event in events:
            if event is None:
                top.leave()
            else:
                top.enter(*event)
        book["tree"] = top.root
        return cast(BookData, book), top.sizes
    try:
        return with_tree(path, check, check_sections, use)
    except PlayerError as exc:
        raise BookError(str(exc)) from None


def top_of(path: str | os.PathLike[str], start: str | None, depth: int
           ) -> tuple[BookData, tuple[str, ...], dict[int, Size]]:
    """:func:`read_top` from the node the moves ``start`` lead to (``1122=1A0B,...``, as
    ``--from`` takes them; None: the root): the book, the answers of the start, the sizes."""
    try:
        found = read_sections(path, check_sections)
    except PlayerError as exc:
        raise BookError(str(exc)) from None
    game = found[0]["game"] if found is not None else load(path)["game"]
    steps = parse_path(start, game) if start else []
    book, sizes = read_top(path, [answer for _, answer in steps], depth)
    return book, locate(book, steps), sizes


class _Frame:
    __slots__ = ("guess", "height", "keeps", "kept", "level", "on_way", "secrets", "under")

    def __init__(self, guess: str, level: int, on_way: bool, under: bool) -> None:
        self.guess, self.level, self.on_way, self.under = guess, level, on_way, under
        self.kept: dict[str, Any] | None = None
        self.keeps = False  # whether its branches are kept
        self.secrets = self.height = 0


class _Top:
    """What :func:`read_top` keeps, as the nodes come."""

    def __init__(self, game: GameData, answers: tuple[str, ...], depth: int) -> None:
        self.game, self.answers, self.depth = game, answers, depth
        self.secrets = frozenset(game["answers"]) if "answers" in game else None
        self.open: list[_Frame] = []
        self.moves: list[tuple[str, str]] = []  # (guess, answer) from the root to the open node
        self.sizes: dict[int, Size] = {}
        self.root: Node = cast(Node, {})

    def enter(self, key: str | None, guess: str) -> None:
        parent = self.open[-1] if self.open else None
        level, start = len(self.open), len(self.answers)  # the root's level is 0
        if parent is None:
            frame = _Frame(guess, level, True, start == 0)
        else:
            on_way = parent.on_way and level <= start and key == self.answers[level - 1]
            frame = _Frame(guess, level, on_way, parent.under or (on_way and level == start))
            self.moves.append((parent.guess, str(key)))
            parent.height = max(parent.height, 1)  # it is not a leaf
        if parent is None or parent.keeps:
            frame.kept = {"guess": guess, "next": {}}
            if parent is None:
                self.root = cast(Node, frame.kept)
            else:
                assert parent.kept is not None
                parent.kept["next"][key] = frame.kept
            frame.keeps = ((frame.under and level - start + 1 < self.depth) or
                           (frame.on_way and level < start))
        elif parent.kept is not None and not isinstance(parent.kept["next"], Unread):
            parent.kept["next"] = Unread()
        self.open.append(frame)

    def leave(self) -> None:
        frame = self.open.pop()
        if frame.under:
            if frame.height == 0:  # a leaf: one solved secret
                size = Size(1, 1, True)
            else:
                # the moves are this node's own (frame.level of them), walked where they are:
                # a copy at every node would make a deep tree quadratic
                possible = (self.secrets is None or frame.guess in self.secrets) and all(
                    answer_key(self.game, guess, frame.guess) == answer
                    for guess, answer in self.moves)
                size = Size(frame.secrets + possible, 1 + frame.height, possible)
            if frame.kept is not None:
                self.sizes[id(frame.kept)] = size
            if self.open and self.open[-1].under:
                self.open[-1].secrets += size.secrets
                self.open[-1].height = max(self.open[-1].height, size.height)
        if self.open:
            self.moves.pop()
