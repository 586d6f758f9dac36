"""How an exact search runs, as one value checked when it is made (like python-chess's
``chess.engine.Limit``): the depth limit, where and with how many processes it runs, its memory,
its checkpoint, and the bounds of a bounded search. Wrong types and values out of range are
one-line errors, whether they come from the command line or from Python."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields

from treegen.errors import StrategyError
from treegen.player import brief
from treegen.rules.game import Game
from treegen.settings import MAX_SIZE, available_memory

__all__ = ["ENGINES", "HEURISTICS", "SearchOptions", "effective_depth", "whole"]

#: The largest depth limit, worker count and memory a search takes: beyond any machine, and every
#: number stays well inside the 64-bit integers of compiled code.
MOST_DEPTH = 1 << 31
MOST_JOBS = 1 << 16
ENGINES = ("local", "ray")
#: Heuristics that can rank the guesses of a bounded search, the default first.
HEURISTICS = ("entropy", "expected", "minimax", "parts")
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
            object.__setattr__(self, "heuristic", HEURISTICS[0])
        if self.heuristic not in HEURISTICS:
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
