"""The Python front door: a strategy book as a value, built from any strategy, saved and loaded,
verified, played and drawn.

    import treegen
    book = treegen.build("mastermind", "minimax")
    book.save("knuth.json")
    assert treegen.load("knuth.json") == book

In a notebook a book shows itself as the picture of its first levels (Graphviz needed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, cast

from treegen import book as books
from treegen.data import BookData, Node, Stats, StrategyData
from treegen.errors import BookError, GameError, RenderError, StrategyError
from treegen.player import Player, brief
from treegen.rules.game import Game
from treegen.search.progress import Progress
from treegen.strategies.base import Strategy

__all__ = ["Book", "build", "build_book", "load", "loads", "solve_classes"]


class Book:
    """A strategy book: the JSON document of format v1 (``data``), with what one does with it."""

    __slots__ = ("data",)

    def __init__(self, data: BookData) -> None:
        problem = books.check(data)  # everything save() writes back and every reader relies on
        if problem:
            raise BookError(f"not a treegen book: {problem}")
        self.data = data

    # -- what it holds ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return Game.from_dict(self.data["game"])

    @property
    def strategy(self) -> StrategyData:
        return self.data["strategy"]

    @property
    def stats(self) -> Stats:
        """Secrets, total guesses, average, max and the histogram of guesses needed."""
        return self.data["stats"]

    @property
    def tree(self) -> Node:
        return self.data["tree"]

    def summary(self) -> str:
        """One line: game, strategy, pool, first guess and the totals."""
        return books.summary(self.data)

    # -- files --------------------------------------------------------------------------------

    def dumps(self) -> str:
        """The deterministic text of the book: the same book always gives the same bytes."""
        return books.dumps(self.data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the book atomically (see README, "What treegen promises")."""
        books.save(self.data, path)

    # -- use ----------------------------------------------------------------------------------

    def verify(self) -> list[str]:
        """Replay every secret with independent scoring; the problems found ([] when correct)."""
        from treegen.book.replay import verify
        return verify(self.data)

    def player(self) -> Player:
        """A player at the start of a game from this book."""
        return Player(self.data)

    def dot(self, depth: int | None = 3, start: Sequence[str] = ()) -> str:
        """The DOT text of ``depth`` levels below the node the answers ``start`` lead to."""
        from treegen.views.dot import dot_source
        return dot_source(self.data, depth, start)

    def svg(self, depth: int | None = 2, start: Sequence[str] = ()) -> str:
        """The picture of the top levels as SVG text (needs Graphviz's ``dot``)."""
        from treegen.views.graphviz import run_dot
        return run_dot(self.dot(depth, start), "svg").decode("utf-8")

    def render(self, path: str | os.PathLike[str], fmt: str | None = None, depth: int | None = 3,
               start: Sequence[str] = ()) -> str:
        """Draw the book into a file (SVG, PNG, PDF or DOT, from the suffix); the format written."""
        from treegen.views.render import render
        return render(self.data, path, fmt, depth, start)

    def c_header(self, prefix: str = "tg") -> str:
        """The book as a C99 header that plays it (names ``tg_...``, or ``prefix``)."""
        from treegen.views.c_header import header_text
        return header_text(self.data, prefix)

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows; None (plain text instead) without Graphviz."""
        try:
            return self.svg()
        except RenderError:
            return None

    def __repr__(self) -> str:
        return f"<Book {self.summary()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Book) and self.data == other.data

    __hash__ = None  # type: ignore[assignment]  # a book is a mutable document


def build(game: Game | str = "bulls-and-cows", strategy: str | Strategy = "minimax", *,
          pool: str | None = None, first: str | None = None, seed: int | None = None,
          symmetry: bool = True, progress: Callable[[int], None] | None = None,
          **options: Any) -> Book:
    """Compile a strategy for a game into a book.

    ``game`` is a :class:`Game` or a preset name; ``strategy`` a built-in name, ``package.module:Name``
    or a :class:`Strategy` instance. ``options`` go to the strategy (for ``optimal``: those of
    :class:`treegen.search.options.SearchOptions` and ``status``).
    """
    return Book(build_book(game, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                           progress=progress, **options))


def build_book(game: Game | str = "bulls-and-cows", strategy: str | Strategy = "minimax",
               pool: str | None = None, first: str | None = None, seed: int | None = None,
               symmetry: bool = True, progress: Callable[[int], None] | None = None,
               **options: Any) -> BookData:
    """Compile a strategy for a game into a book (the JSON-ready dict of format v1).

    ``options`` go to the strategy (``max_depth``, ``jobs`` and ``status`` for ``optimal``).
    """
    if isinstance(game, str):
        game = Game.preset(game)
    if not isinstance(game, Game):
        raise GameError(f"game must be a Game or a preset name, not {brief(game)}")
    if isinstance(strategy, str):
        from treegen.registry import make_strategy
        strategy = make_strategy(strategy, pool=pool, seed=seed, symmetry=symmetry, **options)
    elif not isinstance(strategy, Strategy):
        raise StrategyError(f"strategy must be a name or a Strategy, not {brief(strategy)}")
    elif options or pool is not None or seed is not None:
        raise StrategyError("pool, seed and a strategy's options go to the Strategy itself when one "
                            "is given")
    if first is not None:
        first = game.validate_code(first)
    from treegen.compiler import compile_tree
    tree, depths = compile_tree(game, strategy, first=first, progress=progress)
    record = cast(StrategyData, {**strategy.params(), "first": tree["guess"]})
    return books.make_book(game.to_dict(), record, tree, depths.tolist())


def solve_classes(game: Game | str, first: str, path: str | os.PathLike[str], jobs: int = 1,
                  max_depth: int | None = None, memory: int | None = None,
                  status: Callable[[Progress], None] | None = None,
                  told: Callable[[dict[str, Any]], None] | None = None,
                  engine: str = "local", address: str | None = None) -> dict[str, Any]:
    """Solve the classes of the opening ``first`` exactly, smallest first, writing the record at
    ``path`` after each (see :func:`treegen.search.classes.solve_classes`), on ``jobs`` local
    worker processes or on Ray (``engine="ray"``, ``address``)."""
    from treegen.run.engines import executor
    from treegen.search.classes import solve_classes as solve
    from treegen.search.options import SearchOptions
    options = SearchOptions(max_depth=max_depth, jobs=jobs, memory=memory, engine=engine,
                            address=address)
    return solve(game, first, path, max_depth, memory, status, told,
                 executor(options.engine, options.address, options.jobs))



def load(path: str | os.PathLike[str]) -> Book:
    """Read and check a book file; any problem is a one-line BookError."""
    return Book(books.load(path))


def loads(text: str) -> Book:
    """Read and check a book from its text."""
    return Book(books.loads(text))
