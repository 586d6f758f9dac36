"""The built-in strategies by name, the exact search included, and making a strategy from what a user
typed: above :mod:`treegen.strategies`, :mod:`treegen.search` and :mod:`treegen.run`, so that the
search never chooses where it runs: the executor its options name is made here."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from treegen.errors import StrategyError, unknown
from treegen.player import brief
from treegen.search.options import SEARCHES, Build, SearchOptions
from treegen.strategies.base import Strategy
from treegen.strategies.heuristics import HEURISTICS, Random, Simple
from treegen.strategies.user import UserStrategy

if TYPE_CHECKING:
    from treegen.search.progress import Progress

__all__ = ["BUILTIN", "make_strategy", "searches", "strategy_for"]

#: Every built-in strategy by name, in the order ``treegen strategies`` lists them (made when
#: first read, see :func:`__getattr__`).
BUILTIN: dict[str, type[Strategy]]
#: The built-in strategies that search nothing, by name.
_PLAIN: dict[str, type[Strategy]] = {Simple.name: Simple, Random.name: Random, **HEURISTICS}


@cache
def _builtin() -> dict[str, type[Strategy]]:
    from treegen.search.strategy import Optimal
    return {**_PLAIN, Optimal.name: Optimal}


def __getattr__(name: str) -> Any:
    """``BUILTIN``, every built-in strategy by name, made when first read: a heuristic's build
    does not load the search."""
    if name == "BUILTIN":
        return _builtin()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def searches(name: str) -> bool:
    """Whether the strategy of this name is a search, which takes search options."""
    return isinstance(name, str) and builtin_name(name) in SEARCHES


def builtin_name(name: str) -> str:
    """A built-in strategy's name as typed, in any case (``Minimax``), as the registry names it;
    a user's ``package.module:Name`` is kept as typed (Python's names are cased)."""
    return name if ":" in name else name.strip().lower()


def make_strategy(name: str, pool: str | None = None, seed: int | None = None,
                  symmetry: bool = True, search: SearchOptions | None = None,
                  status: Callable[[Progress], None] | None = None) -> Strategy:
    """A strategy by name: a built-in (see :data:`BUILTIN`) or a user's ``package.module:Name``.

    ``search`` and ``status`` are a search's (``optimal``): given to any other, an error.
    """
    if not isinstance(name, str):
        raise StrategyError(f"a strategy is named by a string, not {brief(name)}")
    if builtin_name(name) in (*_PLAIN, *SEARCHES):  # a built-in's name in any case
        name = builtin_name(name)
    if search is not None and (":" in name or name in _PLAIN):
        raise StrategyError(f"strategy {name} is no search: it takes no search options")
    return strategy_for(Build(strategy=name, pool=pool, seed=seed, symmetry=symmetry,
                              search=search), status)


def strategy_for(build: Build, status: Callable[[Progress], None] | None = None) -> Strategy:
    """The strategy a build names, made with its pool, seed and symmetry; a search gets the
    build's search options, where they say it runs, and ``status``."""
    name = build.strategy
    if not isinstance(name, str):
        raise StrategyError(f"a strategy is named by a string, not {brief(name)}")
    if ":" in name:
        cls: type[Strategy] | None = UserStrategy
    else:
        folded = builtin_name(name)
        cls = _PLAIN.get(folded) or (_builtin()[folded] if folded in SEARCHES else None)
    if cls is None:
        raise StrategyError(unknown("strategy", name, list(_builtin()),
                                    ", or package.module:Name"))
    if status is not None and not cls.searches:
        raise StrategyError(f"strategy {name} is no search: it takes no search options")
    if cls is UserStrategy:
        return UserStrategy(name, build.pool, build.seed)
    if cls.searches:
        from treegen.run.engines import executor
        from treegen.search.strategy import Optimal
        assert build.search is not None  # a search's build always has its options
        return Optimal(build, status, executor(build.search))
    return cls(build.pool, build.seed, build.symmetry)
