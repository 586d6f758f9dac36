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
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

from treegen import book as books
from treegen.data import BookData, Node, Stats, StrategyData
from treegen.errors import (
    BookError,
    CertificateError,
    CodeError,
    GameError,
    PathError,
    RenderError,
    StrategyError,
)
from treegen.notebook import ProgressLine, in_notebook
from treegen.player import DEFAULT_RULE, Player, brief
from treegen.player import score as score_text
from treegen.rules.game import Game
from treegen.search.options import DEFAULT_GAME, Build, SearchOptions
from treegen.search.progress import Progress
from treegen.strategies.base import State, Strategy

if TYPE_CHECKING:
    from treegen.run.seam import Executor

#: A strategy as a plain function: the state of the game to the next guess (a code or its index).
Chooser = Callable[[State], "str | int"]

__all__ = ["Book", "Chooser", "build", "build_book", "build_file", "compare", "load", "loads",
           "partitions", "score", "site", "solve_classes"]


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
        """Write the book atomically (see docs/promises.md)."""
        books.save(self.data, path)

    # -- use ----------------------------------------------------------------------------------

    def verify(self, certificate: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
               | None = None) -> list[str]:
        """Replay every secret with independent scoring; the problems found ([] when correct).
        With ``certificate`` (one, or several for a book with two claims), check them too (the
        independent checker) and what they prove of the book's claims: a damaged one, another
        game's, or a claim of the book that none proves is a problem."""
        from treegen.book.replay import verify
        problems = verify(self.data)
        if certificate is None or problems:
            return problems
        from treegen.proofs import check_certificate, judge
        paths = [certificate] if isinstance(certificate, (str, os.PathLike)) else list(certificate)
        try:
            return judge(self.data, [check_certificate(path) for path in paths])[1]
        except CertificateError as exc:
            return [str(exc)]

    def certify(self, path: str | os.PathLike[str], memory: int | None = None) -> int:
        """Write the certificate of what the book claims (optimal, optimal after its first guess,
        or a bounded search's lower bound) to ``path``, by an exact search that fails to beat the
        claim; returns its size in bytes (see docs/certificate-format.md)."""
        from treegen.proofs import certify
        return certify(self.data, path, memory)

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

    def render(self, path: str | os.PathLike[str], fmt: str | None = None,
               depth: int | Literal["auto"] | None = "auto", start: Sequence[str] = (),
               dpi: int | None = None) -> str:
        """Draw the book into a file (SVG, PNG, PDF or DOT, from the suffix); the format written.
        ``depth`` "auto": up to 3 levels, fewer where a level would be too wide to read."""
        from treegen.views.render import render
        return render(self.data, path, fmt, depth, start, dpi=dpi)

    def moves(self, secret: str) -> list[tuple[str, str]]:
        """The game the book plays against ``secret``: (guess, feedback) pairs, the last one
        solving it, e.g. ``[("1122", "1A0B"), ..., ("3632", "4A0B")]``."""
        game = self.game
        secret = game.validate_code(secret)
        if game.answers is not None and secret not in game.answers:
            raise CodeError(f"{secret} is one of the guesses {game.title} allows, but not one of "
                            f"its {game.size:,} answers: no book plays against it")
        node, played = self.tree, list[tuple[str, str]]()
        solved = game.feedback_texts[game.solved_index]
        while True:
            answer = score_text(node["guess"], secret, game.rule)
            played.append((node["guess"], answer))
            if answer == solved:
                return played
            if answer not in node["next"]:  # only a book that verify() rejects gets here
                raise BookError(f"the book has no branch for {node['guess']}={answer} "
                                f"on the way to {secret}")
            node = node["next"][answer]

    def to_networkx(self) -> Any:
        """The tree as a ``networkx.DiGraph`` (nodes: guess, remaining, depth, leaf; edges:
        feedback), as ``treegen export`` writes it."""
        from treegen.views.export import book_graph
        return book_graph(self.data)

    def export(self, path: str | os.PathLike[str], fmt: str | None = None, prefix: str = "tg") -> str:
        """Write the book as GraphML, GEXF, node-link JSON or a C header (from the suffix, or
        ``fmt``); returns the format written."""
        from treegen.views.export import export
        return export(self.data, path, fmt, prefix=prefix)

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


def build(game: Game | str = DEFAULT_GAME, strategy: str | Strategy | Chooser = "minimax", *,
          pool: str | None = None, first: str | None = None, seed: int | None = None,
          symmetry: bool = True, progress: Callable[[int], None] | None = None,
          search: SearchOptions | None = None,
          status: Callable[[Progress], None] | None = None) -> Book:
    """Compile a strategy for a game into a book.

    ``game``: a :class:`Game` or a preset name. ``strategy``: a built-in name (see
    :data:`treegen.BUILTIN`), ``package.module:Name``, a :class:`Strategy`, or a plain function of
    the :class:`State`; its ``choose`` may return a code string or a code index. ``pool``: ``all``
    or ``consistent`` guesses; ``first`` forces the first guess; ``seed`` for ``random``.

    ``progress(n)`` hears of each ``n`` secrets solved (a notebook shows a progress line when none
    is given). The ``optimal`` strategy also takes ``search``, its :class:`SearchOptions` (depth
    limit, jobs, memory, Ray, the bounded search for games too large to solve outright), and
    ``status(line)``, a :class:`treegen.search.progress.Progress` as the search goes::

        treegen.build("mastermind", "optimal", search=SearchOptions(max_depth=5, jobs=2))
    """
    made = Build(game, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                 search=search)
    return Book(compile_book(made, progress, status))


def build_book(game: Game | str = DEFAULT_GAME, strategy: str | Strategy | Chooser = "minimax",
               pool: str | None = None, first: str | None = None, seed: int | None = None,
               symmetry: bool = True, progress: Callable[[int], None] | None = None,
               search: SearchOptions | None = None,
               status: Callable[[Progress], None] | None = None) -> BookData:
    """Compile a strategy for a game into a book (the JSON-ready dict of format v1); ``search``
    and ``status`` go to a search (see :func:`build`)."""
    made = Build(game, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                 search=search)
    return compile_book(made, progress, status)


def build_file(path: str | os.PathLike[str] | None, game: Game | str = DEFAULT_GAME,
               strategy: str | Strategy | Chooser = "minimax", pool: str | None = None,
               first: str | None = None, seed: int | None = None, symmetry: bool = True,
               progress: Callable[[int], None] | None = None, search: SearchOptions | None = None,
               status: Callable[[Progress], None] | None = None
               ) -> tuple[str | os.PathLike[str], BookData]:
    """:func:`build_book` written to ``path`` (None: the name ``treegen build`` gives it) as the
    tree is built, never held whole, in the bytes saving the book would write. Returns the path
    and the book's sections, its tree cut to the first guess."""
    made = Build(game, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                 search=search)
    return compile_file(path, made, progress, status)


def compile_book(made: Build, progress: Callable[[int], None] | None = None,
                 status: Callable[[Progress], None] | None = None) -> BookData:
    """The book of a :class:`Build` (what :func:`build_book` makes of its arguments)."""
    chooser, progress = _compiling(made, progress, status)
    from treegen.compiler import compile_tree
    tree, depths = compile_tree(made.game, chooser, first=made.first, progress=progress,
                                scorer=made.scorer(), executor=_executor(made))
    record = cast(StrategyData, {**chooser.params(), "first": tree["guess"]})
    return books.make_book(made.game.to_dict(), record, tree, depths.tolist())


def compile_file(path: str | os.PathLike[str] | None, made: Build,
                 progress: Callable[[int], None] | None = None,
                 status: Callable[[Progress], None] | None = None
                 ) -> tuple[str | os.PathLike[str], BookData]:
    """The book of a :class:`Build` written to ``path`` as it is built (see :func:`build_file`);
    what ``treegen build`` calls."""
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise PathError(f"the book's path must be a path or None, not {brief(path)}")
    chooser, progress = _compiling(made, progress, status)
    from treegen.book.writer import TreeText, save_streamed, temporary_tree
    from treegen.compiler import walk_tree
    with temporary_tree(path) as held:
        text = TreeText(held)
        depths = walk_tree(made.game, chooser, text, first=made.first, progress=progress,
                           scorer=made.scorer(), executor=_executor(made))
        text.close()
        record = cast(StrategyData, {**chooser.params(), "first": text.first})
        head = books.make_book(made.game.to_dict(), record, {"guess": text.first, "next": {}},
                               depths.tolist())
        target = path if path is not None else books.file_name(
            head, forced_first=made.first is not None)
        save_streamed(target, head, held)
    return target, head


def _executor(made: Build) -> Executor | None:
    """Where the workers of a build that searches nothing run, when it has more than one job
    (see :func:`treegen.compiler.shares_work`); a search finds its own."""
    if made.searches or made.search is None or \
            (made.search.jobs <= 1 and made.search.engine != "ray"):
        return None
    from treegen.run.engines import executor
    return executor(made.search)


def _compiling(made: Build, progress: Callable[[int], None] | None,
               status: Callable[[Progress], None] | None
               ) -> tuple[Strategy, Callable[[int], None] | None]:
    """The strategy a build compiles and the progress it reports to (a notebook shows its own
    progress line, and a search's status on it)."""
    if not isinstance(made, Build):
        raise StrategyError(f"a build is a Build, not {brief(made)}")
    if progress is None and in_notebook():
        shown = ProgressLine(made.game.size)
        progress = shown.add
        if made.searches and status is None:
            status = shown.search
    strategy = made.strategy
    if isinstance(strategy, str):
        from treegen.registry import strategy_for
        return strategy_for(made, status), progress
    if status is not None:
        raise StrategyError("a strategy function takes no search options"
                            if not isinstance(strategy, Strategy) else
                            "pool, seed and a strategy's options go to the Strategy itself when "
                            "one is given")
    if isinstance(strategy, Strategy):
        return strategy, progress
    from treegen.strategies.user import UserStrategy
    return UserStrategy(strategy, made.pool, made.seed), progress


def solve_classes(game: Game | str, first: str, path: str | os.PathLike[str],
                  search: SearchOptions | None = None, *,
                  status: Callable[[Progress], None] | None = None,
                  told: Callable[[dict[str, Any]], None] | None = None,
                  rule_out: int | None = None, certificates: bool = True,
                  elsewhere: Mapping[str, int] | None = None, check: bool = True
                  ) -> dict[str, Any]:
    """Solve the classes of the opening ``first`` exactly, smallest first, writing the record at
    ``path`` after each (see :func:`treegen.search.classes.solve_classes`), where ``search``
    says (its depth limit, memory, jobs and engine); with ``rule_out``, only until the opening is
    proven to need at least that many guesses in total; each class certified (a certificate beside
    the record, checked) unless ``certificates`` is false. ``elsewhere``: certificates checked where
    they were written, by SHA-256 with the bound each proved (a library's, see
    :func:`treegen.library.certificates.checked_elsewhere`), taken as they are when the record
    is continued rather than checked again before the search goes on. Without ``check`` the
    certificates are written but not checked here, so that the search goes on while another
    process checks them (``treegen verify RECORD``, or
    :func:`treegen.search.records.load_record`)."""
    from treegen.run.engines import executor
    from treegen.search.classes import solve_classes as solve
    options = search or SearchOptions()
    if not isinstance(options, SearchOptions):
        raise StrategyError(f"search options must be a SearchOptions, not {brief(options)}")
    if not isinstance(path, (str, os.PathLike)):
        raise PathError(f"the record's path must be a path, not {brief(path)}")
    return solve(game, first, path, options, status=status, told=told, executor=executor(options),
                 rule_out=rule_out, certificates=certificates, elsewhere=elsewhere, check=check)



def score(guess: str, secret: str, game: Game | str | None = None) -> str:
    """The feedback to ``guess`` when the secret is ``secret``, as ``aAbB``: a = symbols in the
    right place, b = the other common symbols. With ``game``, both codes are checked against it
    and the game's rule answers (``2A`` for black pegs, tiles ``GY..Y`` for Wordle's)."""
    rule = DEFAULT_RULE
    if game is not None:
        played = Game.preset(game) if isinstance(game, str) else game
        if not isinstance(played, Game):
            raise GameError(f"game must be a Game or a preset name, not {brief(game)}")
        guess, secret, rule = played.validate_code(guess), played.validate_code(secret), played.rule
    elif not (isinstance(guess, str) and isinstance(secret, str)) or len(guess) != len(secret):
        raise CodeError(f"cannot score {brief(guess)} against {brief(secret)}: two codes of the "
                        "same length are needed")
    return score_text(guess, secret, rule)


def compare(books_: Sequence[Book] | Mapping[str, Book]) -> str:
    """The table ``treegen stats`` prints: game, strategy, totals and histogram, one book a row
    (labelled by the mapping's keys, else by each book's file name)."""
    from treegen.views.compare import compare_text
    return compare_text(_labelled(books_))


def partitions(game: Game | str, after: str | Sequence[tuple[str, str]] = ()
               ) -> list[dict[str, Any]]:
    """How each class of equivalent guesses splits the secrets still possible after the moves
    ``after`` (``"0123=1A2B,4567=0A1B"`` or (guess, feedback) pairs), as ``treegen partitions``."""
    from treegen.notation import format_moves
    from treegen.sessions.partitions import parse_history, partition_table
    rules = Game.preset(game) if isinstance(game, str) else game
    if not isinstance(rules, Game):
        raise GameError(f"game must be a Game or a preset name, not {brief(game)}")
    pairs = not isinstance(after, str) and isinstance(after, Sequence) and all(
        isinstance(move, Sequence) and not isinstance(move, str) and len(move) == 2 and
        all(isinstance(part, str) for part in move) for move in after)
    if not isinstance(after, str) and not pairs:
        raise CodeError(f"the moves after which to partition are (guess, feedback) pairs of "
                        f"strings or GUESS=FEEDBACK,..., not {brief(after)}")
    text = after if isinstance(after, str) else format_moves([(g, f) for g, f in after])
    return partition_table(rules, parse_history(rules, text) if text.strip() else ())


def site(books_: Sequence[Book] | Mapping[str, Book], folder: str | os.PathLike[str],
         depth: int = 3, min_secrets: int = 5) -> str:
    """Write the static web site of the books into ``folder`` (as ``treegen site``); returns the
    path of its index page."""
    from treegen.views.site import build_site
    if not isinstance(folder, (str, os.PathLike)):
        raise PathError(f"the site's folder must be a path, not {brief(folder)}")
    build_site(_labelled(books_), folder, depth=depth, min_secrets=min_secrets)
    return os.path.join(os.fspath(folder), "index.html")


def _labelled(books_: Sequence[Book] | Mapping[str, Book]) -> list[tuple[str, BookData]]:
    """(label, book) pairs: a mapping's keys, else the name ``treegen build`` gives each book."""
    if isinstance(books_, (str, bytes)) or not isinstance(books_, (Sequence, Mapping)):
        raise BookError(f"books come as a list of Books or a mapping of names to Books, not "
                        f"{brief(books_)}")
    pairs = list(books_.items()) if isinstance(books_, Mapping) else [(None, b) for b in books_]
    for label, book in pairs:
        if not isinstance(book, Book):
            raise BookError(f"{'a book' if label is None else label} is {brief(book)}, not a Book")
    return [(books.file_name(book.data).removesuffix(".json") if label is None else str(label),
             book.data) for label, book in pairs]


def load(path: str | os.PathLike[str]) -> Book:
    """Read and check a book file; any problem is a one-line BookError."""
    if not isinstance(path, (str, os.PathLike)):
        raise PathError(f"a book's path must be a path, not {brief(path)}")
    return Book(books.load(path))


def loads(text: str) -> Book:
    """Read and check a book from its text."""
    if not isinstance(text, str):
        raise BookError(f"a book's text must be a string, not {brief(text)}")
    return Book(books.loads(text))
