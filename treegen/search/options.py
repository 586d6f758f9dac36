"""What a build is and how an exact search runs, each one value checked when it is made (like
python-chess's ``chess.engine.Limit``): a :class:`Build` names the game, the strategy, its pool,
first guess, seed and symmetry, and its :class:`SearchOptions` (the depth limit, where and with how
many processes the search runs, its memory, its checkpoint, and the bounds of a bounded search).
Wrong types and values out of range are one-line errors, whether they come from the command line
or from Python, and every layer below takes the value whole."""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from treegen.errors import GameError, StrategyError, unknown
from treegen.player import brief
from treegen.rules.game import Game
from treegen.settings import MAX_SIZE, available_memory
from treegen.strategies.base import POOLS, State, Strategy
from treegen.strategies.heuristics import HEURISTICS, Random, Simple

if TYPE_CHECKING:
    from treegen.rules.scoring import Scorer

__all__ = ["DEFAULT_GAME", "ENGINES", "SCORING", "SEARCHES", "Build", "SearchOptions", "effective_depth",
           "whole"]

#: The largest depth limit, worker count and memory a search takes: beyond any machine, and every
#: number stays well inside the 64-bit integers of compiled code.
MOST_DEPTH = 1 << 31
MOST_JOBS = 1 << 16
ENGINES = ("local", "ray")
#: What ranks the guesses of a bounded search unless told (any of the heuristics can).
RANKER = "entropy"
#: The built-in strategies that are searches: the only ones that take more search options than
#: the memory and the threads of their scoring.
SEARCHES = ("optimal",)
#: The built-in strategies' names, as a build keeps them whatever their case.
BUILT_IN = (Simple.name, Random.name, *HEURISTICS, *SEARCHES)
#: The search options a build that searches nothing reads: how it scores guesses, and where
#: the workers that build a large game's subtrees run.
SCORING = ("memory", "jobs", "engine", "address")
#: The game a build plays unless told.
DEFAULT_GAME = "bulls-and-cows"
#: Sets of fewer secrets are solved exactly in a bounded search, unless told otherwise.
EXACT_BELOW = 200


def whole(value: object, what: str, least: int, most: int) -> int:
    """``value`` as an int between ``least`` and ``most``, or a one-line StrategyError."""
    number = int(value) if isinstance(value, numbers.Integral) and \
        not isinstance(value, bool) else None
    if number is not None and least <= number <= most:
        return number
    limits = f"at least {least}" if most >= 1 << 30 else f"between {least} and {most}"
    if number is not None and number > most:
        limits = f"at most {most:,}"
    raise StrategyError(f"{what} must be a whole number {limits}, not {brief(value)}")


@dataclass(frozen=True)
class SearchOptions:
    """The options of one exact (or bounded) search; every field is checked when it is made.

    ``max_depth``: the best tree among those that never need more guesses (None: no limit).
    ``jobs``: processes (on Ray without ``address``: the processors of the instance started).
    ``memory``: bytes for the caches of solved sets, shared by the processes (None: half of what is
    free). ``engine``: ``local`` or ``ray``; ``address``: the Ray cluster to join.
    ``checkpoint``: where the search keeps its work, continued when ``resume``.
    ``width``: a bounded search, trying the ``width`` best guesses of ``heuristic`` (entropy
    unless told) on sets of ``exact_below`` secrets (200 unless told) or more; both are None
    without ``width``.
    """

    max_depth: int | None = None
    jobs: int = 1
    memory: int | None = None
    engine: str = "local"
    address: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    width: int | None = None
    exact_below: int | None = None
    heuristic: str | None = None

    def __post_init__(self) -> None:
        whole(self.jobs, "jobs", 1, MOST_JOBS)
        if self.max_depth is not None:
            whole(self.max_depth, "max depth", 1, MOST_DEPTH)
        if self.memory is not None:
            whole(self.memory, "memory", 1, MAX_SIZE)
        if self.engine not in ENGINES:
            raise StrategyError(f"unknown engine {brief(self.engine)} (known: {', '.join(ENGINES)})")
        if self.address is not None and (self.engine != "ray" or not isinstance(self.address, str)):
            raise StrategyError("an address is for --engine ray only, and is text")
        if isinstance(self.address, str) and self.address.startswith("ray://"):
            raise StrategyError("Ray Client addresses (ray://) are not supported: run the build on "
                                "a machine of the cluster, with --address auto")
        if self.checkpoint is not None and not isinstance(self.checkpoint, str):
            raise StrategyError(f"checkpoint must be a path, not {brief(self.checkpoint)}")
        if not isinstance(self.resume, bool):
            raise StrategyError(f"resume must be true or false, not {brief(self.resume)}")
        if self.width is None:
            if self.exact_below is not None or self.heuristic is not None:
                raise StrategyError("--exact-below and --heuristic bound the search: they need "
                                    "--width")
            return
        whole(self.width, "width", 1, MOST_JOBS)
        if self.exact_below is None:
            object.__setattr__(self, "exact_below", EXACT_BELOW)
        whole(self.exact_below, "exact below", 0, MOST_DEPTH)
        if self.heuristic is None:
            object.__setattr__(self, "heuristic", RANKER)
        if not isinstance(self.heuristic, str) or self.heuristic not in HEURISTICS:
            raise StrategyError(f"unknown heuristic {brief(self.heuristic)} for a bounded search "
                                f"(known: {', '.join(HEURISTICS)})")

    def __repr__(self) -> str:
        """Only what differs from the defaults, and of a bounded search its bounds."""
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"SearchOptions({', '.join(shown)})"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The options a search takes, by name."""
        return tuple(field.name for field in fields(cls))

    @property
    def bounded(self) -> bool:
        return self.width is not None

    def scoring(self) -> tuple[int | None, int | None]:
        """What a build that searches nothing reads of its options: the memory within which it
        keeps the score table, and the threads that score guesses; any other option set is
        refused."""
        others = [name for name in self.names() if name not in SCORING and
                  getattr(self, name) != getattr(_DEFAULTS, name)]
        if others:
            raise StrategyError(f"{', '.join(others)} apply to the optimal search only; a "
                                "heuristic takes memory, jobs, engine and address")
        return self.memory, self.jobs


_DEFAULTS = SearchOptions()


@dataclass(frozen=True, init=False)
class Build:
    """What a book is built from: the game, the strategy (a built-in's or a user's
    ``package.module:Name``, a :class:`Strategy`, or a function of the :class:`State`), the pool
    of guesses, the first guess, the seed, whether heuristics score one guess per class of
    equivalent guesses, and the search options (None: the defaults; a heuristic reads only their
    memory and jobs). Checked once, here; the layers below take it whole."""

    game: Game
    strategy: str | Strategy | Callable[[State], str | int]
    pool: str | None
    first: str | None
    seed: int | None
    symmetry: bool
    search: SearchOptions | None

    def __init__(self, game: Game | str = DEFAULT_GAME,
                 strategy: str | Strategy | Callable[[State], str | int] = "minimax", *,
                 pool: str | None = None, first: str | None = None, seed: int | None = None,
                 symmetry: bool = True, search: SearchOptions | None = None) -> None:
        if isinstance(game, str):
            game = Game.preset(game)
        if not isinstance(game, Game):
            raise GameError(f"game must be a Game or a preset name, not {brief(game)}")
        if isinstance(strategy, str) and strategy.strip().lower() in BUILT_IN:
            strategy = strategy.strip().lower()  # a built-in's name in any case: Minimax
        if not (isinstance(strategy, (str, Strategy)) or callable(strategy)):
            raise StrategyError(f"strategy must be a name, a Strategy or a function of the State, "
                                f"not {brief(strategy)}")
        if pool is not None and (not isinstance(pool, str) or pool not in POOLS):
            raise StrategyError(unknown("pool", pool, POOLS))
        if isinstance(strategy, Strategy) and (pool is not None or seed is not None):
            raise StrategyError("pool, seed and a strategy's options go to the Strategy itself "
                                "when one is given")
        if seed is not None and (not isinstance(seed, numbers.Integral) or isinstance(seed, bool)):
            raise StrategyError(f"seed must be a whole number, not {brief(seed)}")
        if not isinstance(symmetry, bool):
            raise StrategyError(f"symmetry must be true or false, not {brief(symmetry)}")
        if first is not None:
            first = game.validate_code(first)
        if search is not None and not isinstance(search, SearchOptions):
            raise StrategyError(f"search options must be a SearchOptions, not {brief(search)}")
        searches = isinstance(strategy, str) and strategy in SEARCHES
        if searches and search is None:
            search = _DEFAULTS
        elif not searches and search is not None:
            search.scoring()
        for name, value in (("game", game), ("strategy", strategy), ("pool", pool),
                            ("first", first), ("seed", None if seed is None else int(seed)),
                            ("symmetry", symmetry), ("search", search)):
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        """The game by its name (a word game's lists are long), and what differs from the
        defaults."""
        shown = [f"{name}={getattr(self, name)!r}" for name, default in
                 (("pool", None), ("first", None), ("seed", None), ("symmetry", True),
                  ("search", None)) if getattr(self, name) != default]
        return f"Build({self.game.slug!r}, {self.strategy!r}{''.join(', ' + s for s in shown)})"

    @property
    def searches(self) -> bool:
        """Whether the strategy is a built-in search (which reads every search option)."""
        return isinstance(self.strategy, str) and self.strategy in SEARCHES

    def scorer(self) -> Scorer | None:
        """How a build that searches nothing scores guesses, within its options' memory and
        threads (None: the compiler's default choice, or the search's own)."""
        if self.searches or self.search is None:
            return None
        from treegen.rules.scoring import scorer_for
        return scorer_for(self.game, *self.search.scoring())


def effective_depth(game: Game, max_depth: int | None) -> int | None:
    """The depth limit the search works with: none for a limit of as many guesses as the game has
    codes or more, since an optimal tree never needs that many (each of its guesses makes
    progress), so the book is the same; and a limit whose bound tables would not fit in memory is
    refused."""
    if max_depth is None or max_depth >= game.size:
        return None
    table = (game.length * (game.length + 3) // 2) * (max_depth + 2) * (game.size + 1) * 8
    if table > available_memory() // 2:
        raise StrategyError(f"--max-depth {max_depth} needs {table / 2 ** 30:.1f} GiB for the "
                            f"bounds of {game.size:,} codes; a limit that large is no limit in "
                            "practice: leave it out or choose a smaller one")
    return max_depth
