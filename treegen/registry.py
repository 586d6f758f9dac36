"""The built-in strategies by name, the exact search included, and making a strategy from what a user
typed: above :mod:`treegen.strategies`, :mod:`treegen.search` and :mod:`treegen.run`, so that the
search never chooses where it runs: the executor its options name is made here."""

from __future__ import annotations

from typing import Any

from treegen.errors import StrategyError, unknown
from treegen.run.engines import executor
from treegen.search.options import SearchOptions
from treegen.search.strategy import Optimal
from treegen.strategies.base import Strategy
from treegen.strategies.heuristics import Entropy, Expected, Minimax, Parts, Random, Simple
from treegen.strategies.user import UserStrategy

__all__ = ["BUILTIN", "make_strategy", "takes"]

#: Every built-in strategy by name, in the order ``treegen strategies`` lists them.
BUILTIN: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Simple, Random, Minimax, Expected, Entropy, Parts, Optimal)}


def takes(name: str) -> tuple[str, ...]:
    """The options (besides pool, seed and symmetry) a strategy accepts, e.g. ``max_depth``."""
    cls = BUILTIN.get(name)
    return cls.options if cls is not None else ()


def make_strategy(name: str, pool: str | None = None, seed: int | None = None,
                  symmetry: bool = True, **options: Any) -> Strategy:
    """A strategy by name: a built-in (see :data:`BUILTIN`) or a user's ``package.module:Name``.

    ``options`` are the strategy's own (``max_depth``, ``jobs``, ``status`` for ``optimal``); one
    it does not take is an error.
    """
    if ":" in name:
        cls: type[Strategy] | None = UserStrategy
    else:
        cls = BUILTIN.get(name)
    if cls is None:
        raise StrategyError(unknown("strategy", name, list(BUILTIN), ", or package.module:Name"))
    extra = sorted(set(options) - set(cls.options))
    if extra:
        raise StrategyError(f"strategy {name} does not take {', '.join(extra)}")
    if cls is UserStrategy:
        return UserStrategy(name, pool, seed)
    if cls is Optimal:
        status = options.pop("status", None)
        search = SearchOptions(**options)
        return Optimal(pool, seed, symmetry, search, status,
                       executor(search.engine, search.address, search.jobs))
    return cls(pool, seed, symmetry, **options)
