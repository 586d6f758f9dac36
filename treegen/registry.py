"""The built-in strategies by name, the exact search included, and making a strategy from what a user
typed: above :mod:`treegen.strategies`, :mod:`treegen.search` and :mod:`treegen.run`, so that the
search never chooses where it runs: the executor its options name is made here."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from treegen.errors import StrategyError, unknown
from treegen.player import brief
from treegen.search.options import SearchOptions
from treegen.strategies.base import Strategy
from treegen.strategies.heuristics import Entropy, Expected, Minimax, Parts, Random, Simple
from treegen.strategies.user import UserStrategy

if TYPE_CHECKING:
    from treegen.search.progress import Progress

__all__ = ["BUILTIN", "make_strategy", "searches"]

#: The built-in strategies that are searches: loaded (with the search) only when one is asked for.
SEARCHES = ("optimal",)
#: Every built-in strategy by name, in the order ``treegen strategies`` lists them (made when
#: first read, see :func:`__getattr__`).
BUILTIN: dict[str, type[Strategy]]


@cache
def _builtin() -> dict[str, type[Strategy]]:
    from treegen.search.strategy import Optimal
    return {cls.name: cls for cls in (Simple, Random, Minimax, Expected, Entropy, Parts, Optimal)}


def __getattr__(name: str) -> Any:
    """``BUILTIN``, every built-in strategy by name, made when first read: a heuristic's build
    does not load the search."""
    if name == "BUILTIN":
        return _builtin()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def searches(name: str) -> bool:
    """Whether the strategy of this name is a search, which takes search options."""
    return name in SEARCHES


def make_strategy(name: str, pool: str | None = None, seed: int | None = None,
                  symmetry: bool = True, search: SearchOptions | None = None,
                  status: Callable[[Progress], None] | None = None) -> Strategy:
    """A strategy by name: a built-in (see :data:`BUILTIN`) or a user's ``package.module:Name``.

    ``search`` and ``status`` are a search's (``optimal``): given to any other, an error.
    """
    if not isinstance(name, str):
        raise StrategyError(f"a strategy is named by a string, not {brief(name)}")
    heuristics = {cls.name: cls for cls in (Simple, Random, Minimax, Expected, Entropy, Parts)}
    if ":" in name:
        cls: type[Strategy] | None = UserStrategy
    else:
        cls = heuristics.get(name) or (_builtin()[name] if name in SEARCHES else None)
    if cls is None:
        raise StrategyError(unknown("strategy", name, list(_builtin()),
                                    ", or package.module:Name"))
    if (search is not None or status is not None) and not cls.searches:
        raise StrategyError(f"strategy {name} is no search: it takes no search options")
    if search is not None and not isinstance(search, SearchOptions):
        raise StrategyError(f"search options must be a SearchOptions, not {brief(search)}")
    if cls is UserStrategy:
        return UserStrategy(name, pool, seed)
    if name in SEARCHES:
        from treegen.run.engines import executor
        from treegen.search.strategy import Optimal
        search = search or SearchOptions()
        return Optimal(pool, seed, symmetry, search, status,
                       executor(search.engine, search.address, search.jobs))
    return cls(pool, seed, symmetry)
