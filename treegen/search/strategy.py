"""The exact search as a strategy: the whole optimal tree is searched on the first question, then
looked up. What it is built with is one :class:`Build` value, its search options among it; where
its tasks run is an :class:`Executor` handed in by whoever makes it
(:func:`treegen.registry.strategy_for`, from the same options)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from treegen.errors import CheckpointError, ImpossibleError, StrategyError, interrupted, resumable
from treegen.rules.game import Game
from treegen.run.seam import Executor, Inline, Plan
from treegen.search.bounded import Bounded
from treegen.search.bounds import INFEASIBLE, UNLIMITED
from treegen.search.exact import Search
from treegen.search.options import Build, SearchOptions, effective_depth
from treegen.search.progress import Progress
from treegen.search.tasks import Tasks
from treegen.strategies.base import State, Strategy
from treegen.strategies.heuristics import HEURISTICS

__all__ = ["Optimal"]


class Optimal(Strategy):
    """The tree with the fewest total guesses over all secrets (or, bounded, the best the bounds
    allow, with a proven lower bound)."""

    name = "optimal"
    description = "fewest total guesses over all secrets, by exact search (--max-depth, --jobs)"
    pools = ("all",)
    searches = True

    def __init__(self, build: Build | None = None,
                 status: Callable[[Progress], None] | None = None,
                 executor: Executor | None = None) -> None:
        build = build or Build(strategy=self.name)
        super().__init__(build.pool, build.seed, build.symmetry)
        self.search_options: SearchOptions = build.search or SearchOptions()
        if executor is None and (self.search_options.jobs > 1 or
                                 self.search_options.engine != "local"):
            raise StrategyError("a search on several processes needs its executor: make it with "
                                "treegen.make_strategy or treegen.build")
        self.status, self.executor = status, executor or Inline()
        #: The proven lower bound on the game's optimum, once a bounded search has run.
        self.lower: int | None = None
        self.planned: Plan | None = None
        #: The total the search found, which the compiled tree must have.
        self.cost: int | None = None
        #: The first guess the search was held to, if any: what it proves is then about the trees
        #: that open with it, not the game.
        self.forced: str | None = None

    def params(self) -> dict[str, Any]:
        """The strategy as the book records it, with what the search proved, scoped: of the game,
        or (``after``) of the trees that open with the first guess it was held to."""
        options = self.search_options
        lower = self.cost if not options.bounded else self.lower
        if self.forced is not None:
            proven = {"optimal": False,
                      "after": {"first": self.forced, "optimal": self.proven,
                                "lower_bound": lower}}
        else:
            proven = {"optimal": self.proven}
            if options.bounded:
                proven["lower_bound"] = lower
        fields = {**super().params(), **proven, "max_depth": options.max_depth}
        if options.bounded:
            fields.update(width=options.width, exact_below=options.exact_below,
                          heuristic=options.heuristic)
        return _ordered(fields, options.bounded)

    def start(self, game: Game, first: int | None) -> None:
        """The whole search runs here, once; ``choose`` then only looks the tree up."""
        self.planned = self._search(game, first)

    def choose(self, state: State) -> int:
        if self.planned is None:  # asked without start(): no forced first guess
            self.start(state.game, None)
        assert self.planned is not None
        return self.planned[state.history]

    def finished(self, total: int) -> None:
        if self.cost is not None and total != self.cost:
            raise StrategyError(f"the search found a tree of total {self.cost}, but the tree it "
                                f"planned totals {total}: its caches are inconsistent (a damaged "
                                "checkpoint?); build again without --resume")

    @property
    def proven(self) -> bool:
        """Whether the tree is known to be optimal: always for the exact search; for a bounded one,
        when its lower bound reaches its total."""
        return not self.search_options.bounded or self.lower == self.cost

    def identity(self, game: Game, first: int | None) -> dict[str, Any]:
        """What a checkpoint of this search must have been written by."""
        from treegen.search.native import CACHE_FORMAT
        from treegen.version import __version__
        options = self.search_options
        return {"treegen": __version__, "cache": CACHE_FORMAT, "game": game.identity(),
                "strategy": self.name, "max_depth": options.max_depth,
                "first": game.code_strings[first] if first is not None else None,
                "width": options.width, "exact_below": options.exact_below,
                "heuristic": options.heuristic}

    def _search(self, game: Game, first: int | None) -> Plan:
        options = self.search_options
        memory = None if options.memory is None else options.memory // self.executor.jobs
        limit = effective_depth(game, options.max_depth)
        search = Search(game, limit, self.status, memory)
        bounded = None
        if options.width is not None and options.exact_below is not None and \
                options.heuristic is not None:
            ranker = HEURISTICS[options.heuristic](pool="all")
            bounded = Bounded(search, ranker, options.width, options.exact_below)
        if options.checkpoint is not None:
            self._keep(search, bounded, options.checkpoint, self.identity(game, first))
        depth = UNLIMITED if limit is None else limit
        forced = np.array([first], dtype=np.int64) if first is not None else None
        self.forced = game.code_strings[first] if first is not None else None
        everything = np.arange(game.size, dtype=np.int64)
        try:
            with self.executor.farm(Tasks(search)) as farm:
                if bounded is None:
                    cost, plan = search.best_with(everything, (), depth, farm, forced)
                else:
                    found, plan = bounded.top(everything, depth, forced, farm)
                    cost = found.total if found.guess >= 0 else INFEASIBLE
                    self.lower = found.lower
        except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
            # Ctrl-C landing inside compiled code surfaces as a SystemError chained to it
            if not resumable(exc):
                raise
            if search.saver is not None:
                search.saver()  # what was solved since the last checkpoint is kept too
            if interrupted(exc):
                raise KeyboardInterrupt from None
            raise
        if cost >= INFEASIBLE:
            within = f" in at most {options.max_depth} guesses" if options.max_depth else ""
            opening = f" opening with {game.code_strings[forced[0]]}" if forced is not None else ""
            raise ImpossibleError(f"impossible: no strategy solves every {game.title} "
                                  f"secret{within}{opening}")
        assert plan is not None
        self.cost = cost
        return plan

    def _keep(self, search: Search, bounded: Bounded | None, path: str,
              identity: dict[str, Any]) -> None:
        """Resume from the checkpoint at ``path`` (with ``resume``) and write it as the search goes:
        the exact search's caches, and a bounded search's results after them."""
        from treegen.search import checkpoint
        kinds = ("exact", "lower") + (("total", "floor") if bounded is not None else ())
        checkpoint.check_place(path)
        if os.path.lexists(path):
            running = checkpoint.running_writer(path)
            if running is not None:
                raise CheckpointError(
                    f"{path} is the checkpoint of a build that is still running (process "
                    f"{running}): wait for it, or stop it and continue it with --resume")
            if not self.search_options.resume:
                raise CheckpointError(
                    f"{path} holds the search of an interrupted build: add --resume to continue "
                    "it, or delete it to start afresh")
            caches = checkpoint.load(path, identity, kinds, search.game.size)
            search.restore(caches[:2])
            if bounded is not None:
                bounded.restore(caches[2:])
        search.saver = checkpoint.keeper(
            path, identity, lambda: search.caches() + (bounded.caches() if bounded is not None else []))


def _ordered(fields: dict[str, Any], bounded: bool) -> dict[str, Any]:
    """The strategy's fields in the order books have always written them (so that a book built
    again is the same file): the bounded search's lower bound last, after its parameters."""
    keys = ["name", "pool", "seed", "optimal", "after", "max_depth", "width", "exact_below",
            "heuristic", "lower_bound"]
    return {k: fields[k] for k in keys if k in fields} | \
        {k: v for k, v in fields.items() if k not in keys}
