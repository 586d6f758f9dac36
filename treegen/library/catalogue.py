"""The books of the library in ``books/``: which games and strategies, their names and the commands
that build them (what was known of each before: :mod:`treegen.library.sources`)."""

from __future__ import annotations

import fnmatch
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from treegen.data import BookData, GameData
from treegen.errors import LibraryError
from treegen.player import HARD_MODES
from treegen.rules.game import Game
from treegen.search.options import SearchOptions
from treegen.search.progress import Progress
from treegen.strategies import heuristics

GAMES = ("bulls-and-cows", "mastermind", "muertos-y-heridos", "wordle", "jotto")
HEURISTICS = tuple(heuristics.HEURISTICS)  # one table of heuristics, in its order
OPTIMAL_GAMES = ("bulls-and-cows", "mastermind", "wordle")
#: Games whose hard modes (see ``HARD_MODES``) have books too: every heuristic with pool all (with
#: pool consistent, the strict rule changes nothing: a possible secret always fits every answer).
HARD_GAMES = {"wordle": ("strict", "hints")}
#: Games whose hard modes have optimal books: the depth limits of each (None: no limit).
#: Mastermind's hard-mode heuristic books would repeat its pool-consistent ones (its allowed
#: guesses are the possible secrets), but its optimum is a tree of its own. Wordle's game allows
#: six guesses.
HARD_OPTIMAL: dict[tuple[str, str], tuple[int | None, ...]] = {
    ("mastermind", "strict"): (None,), ("wordle", "strict"): (None, 6),
    ("wordle", "hints"): (None, 6)}

#: Other sizes whose exact optimum the search proves on two cores, as (symbols, length,
#: repetition): Mastermind with 3 pegs of 6 to 8 colours, 4 pegs of 5, 7, 8 and 9 colours, 5 pegs
#: of 5 and 6 colours; Bulls and Cows with 3 digits, with 4 of the digits 1 to 9, and 5 of 8
#: symbols without repeats.
OPTIMAL_SIZES = (
    ("123456", 3, True), ("1234567", 3, True), ("12345678", 3, True),
    ("12345", 4, True), ("1234567", 4, True), ("12345678", 4, True), ("123456789", 4, True),
    ("12345", 5, True), ("123456", 5, True),
    ("0123456789", 3, False), ("123456789", 4, False), ("12345678", 5, False),
)

#: Depth limits whose optimal book is another tree than the size's optimum, each with its own
#: book: the best tree among those that never need more than so many guesses (a higher total, or
#: the same total with a smaller worst case), down to the smallest limit any tree meets.
DEPTH_LIMITS: dict[tuple[str, int, bool], tuple[int, ...]] = {
    ("12345678", 4, True): (6,),
    ("123456789", 4, True): (7,),
    ("123456", 5, True): (6,),
}


@dataclass(frozen=True)
class DepthFloor:
    """The fewest guesses that solve every secret of a size: some tree meets ``depth`` (a book of
    the library shows it), none meets one fewer, as ``treegen build --max-depth depth-1`` proves by
    ending "impossible" after ``cpu_seconds`` of one core (measured here; rerun the command to check)."""

    depth: int
    cpu_seconds: float


#: The fewest guesses of the solved sizes whose optimum needs more (the index lists each with the
#: command that proves it).
DEPTH_FLOORS: dict[tuple[str, int, bool], DepthFloor] = {
    ("12345678", 4, True): DepthFloor(6, 0.2),
    ("123456789", 4, True): DepthFloor(7, 1694),
    ("12345678", 5, False): DepthFloor(7, 1978),
    ("123456", 5, True): DepthFloor(6, 217),
}

#: Games too large to solve outright, searched with a bounded optimal search (width, exact below):
#: the strongest books known for them, each with its proven lower bound.
RECORD_SEARCHES = {Game.preset("muertos-y-heridos"): (3, 200)}

#: Heuristics whose ``--pool consistent`` book differs from the ``--pool all`` one, per game (found by
#: building both: an identical tree would only repeat a book under another name). All of them do:
#: guessing only possible secrets changes the tree of every heuristic on every preset game.
CONSISTENT_DIFFERS = {game: HEURISTICS for game in GAMES}

#: Books that take far longer than the rest (minutes or hours): the benchmarks time them only
#: when asked, and the tests verify them instead of rebuilding them.
SLOW = ("bulls-and-cows-optimal-all", "custom-12345678-4-rep-optimal-all",
        "custom-12345678-4-rep-optimal-depth6-all", "custom-123456789-4-rep-optimal-all",
        "custom-123456789-4-rep-optimal-depth7-all",
        "custom-123456-5-rep-optimal-all", "custom-123456-5-rep-optimal-depth6-all",
        "custom-12345678-5-norep-optimal-all",
        "muertos-y-heridos-optimal-width3-below200-all", "wordle-optimal-all",
        "wordle-hard-optimal-all", "wordle-hard-optimal-depth6-all", "wordle-hints-optimal-all",
        "wordle-hints-optimal-depth6-all")

#: Build times recorded by ``treegen books rebuild``, per book, for the index.


_MUERTOS = Game.preset("muertos-y-heridos")
_FIVE_OF_NINE = Game("123456789", 5, False).named()
_FIVE_BY_SEVEN = Game("1234567", 5, True).named()
#: Sizes whose optimum is being proven class by class (the openings below), each with the
#: heuristic whose book bounds that optimum from above meanwhile.
FRONTIER = {_FIVE_OF_NINE: "entropy", _FIVE_BY_SEVEN: "entropy"}
#: Openings whose classes are solved exactly one by one (``treegen classes``), as (game, first
#: guess); each record sits in the library beside the books and has a section of the index, and
#: the index brackets the game's optimum first guess by first guess from them. 5 of 9 without
#: repeats has one first guess up to symmetry: its record is the game's optimum once complete.
#: 5 × 7 has seven; its record is of 11223, the best-known heuristic opening, so once complete
#: it proves the optimum after 11223 only.
OPENINGS = ((_MUERTOS, "0123"), (_MUERTOS, "0012"), (_MUERTOS, "0011"), (_MUERTOS, "0001"),
            (_FIVE_OF_NINE, "12345"), (_FIVE_BY_SEVEN, "11223"))
#: Openings a frontier heuristic's book is also held to, when that heuristic opens otherwise and
#: does better after the opening than its own book does: the best total after the opening.
HELD_OPENINGS = ((_FIVE_BY_SEVEN, "11223"),)
#: Openings whose proven classes are grafted into a book of the game, as a book of its own
#: (``treegen graft``): into its bounded search's book where the library has one, else into its
#: frontier heuristic's book held to the opening where one is, else into its frontier
#: heuristic's own, so that the library's best book gains with every class proven.
GRAFTED = ((_MUERTOS, "0123"), (_FIVE_OF_NINE, "12345"), (_FIVE_BY_SEVEN, "11223"))

@dataclass(frozen=True)
class Entry:
    """One book of the library: a game (a preset, or other rules) and a strategy with its parameters."""

    game: Game
    strategy: str
    pool: str
    seed: int | None = None
    #: A bounded optimal search: the guesses searched on large sets, and the size solved exactly.
    width: int | None = None
    exact_below: int | None = None
    #: The optimal search's depth limit.
    max_depth: int | None = None
    #: The first guess of an opening whose record of classes is grafted onto this entry's book
    #: (see :mod:`treegen.book.graft`): the book is then the base's (:data:`GRAFTED`) with the
    #: proven classes swapped in.
    grafted: str | None = None
    #: A forced first guess: a heuristic's book held to the opening a record of classes is
    #: proving, whose total bounds the optimum after that opening from above.
    first: str | None = None

    @property
    def name(self) -> str:
        """The file stem; the same name ``treegen build`` gives the book by default."""
        parts = [self.game.slug, self.strategy]
        if self.seed is not None:
            parts.append(f"seed{self.seed}")
        if self.max_depth is not None:
            parts.append(f"depth{self.max_depth}")
        if self.width is not None:
            parts.append(f"width{self.width}-below{self.exact_below}")
        if self.grafted is not None:
            parts.append(f"first{self.grafted}-grafted")
        parts.append(self.pool)
        if self.first is not None:
            parts.append(f"first{self.first}")
        return "-".join(parts)

    def search(self, jobs: int = 1) -> SearchOptions | None:
        """The search options this entry sets, on ``jobs`` processes (None: it is no search)."""
        if not self.parallel:
            return None
        return SearchOptions(max_depth=self.max_depth, jobs=jobs, width=self.width,
                             exact_below=self.exact_below if self.width is not None else None)

    @property
    def secrets(self) -> int:
        return self.game.size

    @property
    def book_file(self) -> str:
        return self.name + ".json"

    @property
    def picture_file(self) -> str:
        return self.name + ".svg"

    @property
    def parallel(self) -> bool:
        """Whether the strategy runs in worker processes (the optimal search)."""
        from treegen.registry import searches
        return searches(self.strategy)

    def arguments(self) -> list[str]:
        """The arguments of ``treegen build`` that make this book (the output apart)."""
        words = [*game_arguments(self.game), "--strategy", self.strategy, "--pool", self.pool]
        if self.seed is not None:
            words += ["--seed", str(self.seed)]
        if self.max_depth is not None:
            words += ["--max-depth", str(self.max_depth)]
        if self.width is not None:
            words += ["--width", str(self.width), "--exact-below", str(self.exact_below)]
        if self.first is not None:
            words += ["--first", self.first]
        return words

    @property
    def base(self) -> Entry:
        """The entry whose book a grafted entry grafts onto (itself for any other): a frontier
        heuristic's book held to the opening where the library holds one (:data:`GRAFTED`)."""
        if self.grafted is None:
            return self
        held = self.width is None and (self.game, self.grafted) in HELD_OPENINGS
        return replace(self, grafted=None, first=self.grafted if held else None)

    @property
    def record_file(self) -> str:
        """The record of classes a grafted entry takes its proven trees from."""
        from treegen.search.records import record_name
        assert self.grafted is not None
        return record_name(self.game, self.grafted)

    @property
    def record_files(self) -> list[str]:
        """A grafted entry's records: its own first, then those of the game's other openings
        (they bound the game's optimum)."""
        from treegen.search.records import record_name
        others = [record_name(self.game, first) for game, first in OPENINGS
                  if game == self.game and first != self.grafted]
        return [self.record_file, *others]

    def command(self, folder: str = "books") -> str:
        """The ``treegen build`` (or ``treegen graft``) command that writes exactly this book."""
        if self.grafted is not None:
            return shlex.join(["treegen", "graft", f"{folder}/{self.base.book_file}",
                               *(f"{folder}/{file}" for file in self.record_files),
                               "-o", f"{folder}/{self.book_file}"])
        return shlex.join(["treegen", "build", *self.arguments(), "-o",
                           f"{folder}/{self.book_file}"])

    def parameters(self) -> tuple[GameData, dict[str, Any]]:
        """The game and the strategy record (without the first guess) a book of this entry has."""
        from treegen.registry import make_strategy
        strategy = make_strategy(self.strategy, pool=self.pool, seed=self.seed,
                                 search=self.search())
        return self.game.to_dict(), requested(strategy.params())

    def build(self, progress: Callable[[int], None] | None = None, jobs: int | None = None,
              status: Callable[[Progress], None] | None = None) -> BookData:
        """Compile the book; ``jobs`` (worker processes) and ``status`` (a line of search status)
        matter to the optimal strategy only."""
        from treegen.api import build_book
        return build_book(self.game, self.strategy, pool=self.pool, first=self.first,
                          seed=self.seed, progress=progress,
                          search=self.search(jobs or os.cpu_count() or 1),
                          status=status if self.parallel else None)


def requested(strategy: dict[str, Any]) -> dict[str, Any]:
    """A strategy record without what a bounded search finds (its lower bound, and whether that
    proves the tree optimal) or a graft adds: what an entry asks for."""
    if strategy.get("width") is None and "grafted" not in strategy:
        return strategy
    return {k: v for k, v in strategy.items() if k not in ("lower_bound", "optimal", "grafted")}


def entries() -> list[Entry]:
    """Every book of the library, in index order: the preset games by game, then strategy; then the
    proven optima of other sizes."""
    out = []
    for name in GAMES:
        game = Game.preset(name)
        out.append(Entry(game, "simple", "consistent"))
        out.append(Entry(game, "random", "consistent", seed=0))
        for heuristic in HEURISTICS:
            out.append(Entry(game, heuristic, "all"))
            if heuristic in CONSISTENT_DIFFERS[name]:
                out.append(Entry(game, heuristic, "consistent"))
        if name in OPTIMAL_GAMES:
            out.append(Entry(game, "optimal", "all"))
        for hard in HARD_MODES:
            if hard in HARD_GAMES.get(name, ()):
                out += [Entry(replace(game, hard=hard), heuristic, "all") for heuristic in HEURISTICS]
            out += [Entry(replace(game, hard=hard), "optimal", "all", max_depth=depth)
                    for depth in HARD_OPTIMAL.get((name, hard), ())]
    for symbols, length, repetition in OPTIMAL_SIZES:
        game = Game(symbols, length, repetition).named()
        out.append(Entry(game, "optimal", "all"))
        for depth in DEPTH_LIMITS.get((symbols, length, repetition), ()):
            out.append(Entry(game, "optimal", "all", max_depth=depth))
    out += [Entry(game, heuristic, "all") for game, heuristic in FRONTIER.items()]
    out += [Entry(game, FRONTIER[game], "all", first=first) for game, first in HELD_OPENINGS]
    out += [Entry(searched, "optimal", "all", width=width, exact_below=exact_below)
            for searched, (width, exact_below) in RECORD_SEARCHES.items()]
    for game, first in GRAFTED:
        bounded = [entry for entry in out if entry.game == game and entry.width is not None]
        base = bounded[0] if bounded else Entry(game, FRONTIER[game], "all")
        out.append(replace(base, grafted=first))
    return out


def game_arguments(game: Game) -> list[str]:
    """The options of ``treegen build`` and ``treegen classes`` that name a game of the library."""
    rules = (["--game", game.name] if game.name != "custom" else
             ["--symbols", game.symbols, "--length", str(game.length),
              "--repetition" if game.repetition else "--no-repetition"])
    return [*rules, *([game.hard_mode.flag] if game.hard_mode else [])]


def select(only: str | None = None) -> list[Entry]:
    """The entries whose name matches any of the comma-separated shell patterns (all when None)."""
    everything = entries()
    if only is None:
        return everything
    patterns = [p.strip().removesuffix(".json") for p in only.split(",") if p.strip()]
    chosen = [e for e in everything if any(fnmatch.fnmatchcase(e.name, p) for p in patterns)]
    if not chosen:
        raise LibraryError(f"--only {only!r} matches no book of the library "
                           f"(names look like {everything[0].name}; see books/README.md)")
    return chosen
