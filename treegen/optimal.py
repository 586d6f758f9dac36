"""Exact optimal strategy: the tree with the fewest total guesses over all secrets.

Depth-first branch and bound. The cost of a set S of possible secrets is
``T(S) = |S| + min over guesses g of sum over non-solved feedbacks f of T(S_f(g))``.
Lower bounds come from the feedback alphabet: a node solves at most one secret and has at most B
non-solved branches, so m secrets need at least the "level filling" sum of depths (1 at depth 1,
B at depth 2, B^2 at depth 3, ...). Guesses are tried in order of their one-step bound, results are
cached per candidate set, and small sets are solved entirely in compiled code.

Which optimal tree is returned is canonical: at every node, the first guess in the order
(one-step bound, possible secret first, enumeration index) whose exact cost is optimal. That guess
is always a symmetry representative, so the tree does not depend on search order, cache contents,
or how work was split between processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.pool
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np

from .bounds import INFEASIBLE, UNLIMITED, bound_table
from .data import History
from .errors import StrategyError, TreegenError
from .game import Game
from .scoring import score_table, solved_index
from .strategies import State, Strategy
from .symmetry import representatives

#: The canonical guess of every state of a (sub)tree, keyed by its history.
Plan = dict[History, int]
#: A class to solve: (candidates, history, budget, depth left or UNLIMITED).
Task = tuple[np.ndarray, History, int, int]
#: A guess's classes, largest first: (candidates, history, floor, depth left).
Classes = list[tuple[np.ndarray, History, int, int]]
#: Solves tasks, in this process or in workers: (cost or -1, plan) per task, in any order.
Runner = Callable[[list[Task]], Iterable[tuple[int, "Plan | None"]]]


class ImpossibleError(TreegenError):
    """No tree solves every secret within the requested number of guesses."""


@dataclass
class Progress:
    """Where a long search is: root guesses tried, classes of the current one solved, best so far."""

    guess_rank: int
    guesses: int
    guess: str
    classes_done: int
    classes: int
    best: int | None

    def __str__(self) -> str:
        best = "none yet" if self.best is None else str(self.best)
        return (f"first guess {self.guess_rank + 1}/{self.guesses} ({self.guess}): "
                f"{self.classes_done}/{self.classes} classes solved; best total {best}")


class Search:
    """One exact search over a game: caches, bound tables and the recursion above the small-set kernel."""

    #: Sets up to this size are searched entirely in compiled code.
    SMALL = 12
    #: Up to this many guesses into the game, the pool is reduced by every symmetry (positions too);
    #: deeper, only by interchangeable unused symbols, which is nearly as good and far cheaper.
    FULL_SYMMETRY = 2

    def __init__(self, game: Game, max_depth: int | None = None,
                 status: Callable[[Progress], None] | None = None) -> None:
        from . import kernels  # compiled on first use; importing numba is slow, so only here
        self.k = kernels
        self.game = game
        self.table = score_table(game)
        self.nfb = len(game.feedbacks)
        self.solved = solved_index(game)
        branches = self.nfb - 2 if game.length > 1 else 1  # no solved class, no (length-1)A1B
        self.branches = branches
        self.lbt = bound_table(game.size, branches, max_depth)
        self.max_depth = max_depth
        self.codes = np.ascontiguousarray(game.codes)
        self.exact: dict[tuple[bytes, int], tuple[int, int]] = {}
        self.lower: dict[tuple[bytes, int], int] = {}
        self.status = status

    def used(self, history: History) -> np.ndarray:
        """Which symbols the guesses of a history use (the others are interchangeable)."""
        used = np.zeros(len(self.game.symbols), dtype=np.bool_)
        for guess, _ in history:
            used[self.codes[guess]] = True
        return used

    def lb(self, depth: int, m: int) -> int:
        k = self.branches
        return int(self.lbt[k, depth + 1, m] if depth >= 0 else self.lbt[k, 0, m])

    def solve(self, cands: np.ndarray, history: History, budget: int, depth: int) -> int:
        """Exact T(cands) if it is at most ``budget``, else -1."""
        n = len(cands)
        if n <= self.SMALL:
            cost, _ = self.k.solve_small(self.table, cands, budget, depth, self.nfb, self.solved, self.lbt,
                                         self.codes, self.used(history), self.branches)
            return int(cost)
        key = (cands.tobytes(), depth)
        known = self.exact.get(key)
        if known is not None:
            return known[0] if known[0] <= budget else -1
        if self.lower.get(key, 0) > budget or self.lb(depth, n) > budget:
            return -1
        best, guess = self._search(cands, history, budget, depth)
        if guess < 0:
            self.lower[key] = max(self.lower.get(key, 0), budget + 1)
            return -1
        self.exact[key] = (best, guess)
        return best

    def _hopeful(self, cands: np.ndarray, history: History, depth: int, budget: int,
                 best: Callable[[], int], pool: np.ndarray | None = None
                 ) -> Iterator[tuple[int, int, int, Classes]]:
        """Yield (rank, guesses, guess, classes) for the guesses whose bounds can still beat
        ``best()``, best bound first; ``classes`` as :meth:`_classes` gives them. One guess per class
        of equivalent guesses is tried."""
        if pool is None:
            if len(history) <= self.FULL_SYMMETRY:
                pool = representatives(self.game, history).astype(np.int64)
            else:
                pool = self.k.free_pool(self.codes, self.used(history))
        bounds, possible, widest = self.k.guess_bounds(self.table, pool, cands, self.nfb, self.solved,
                                                       self.lbt, depth)
        order = self.k.search_order(bounds, possible, pool, budget)
        for rank, i in enumerate(order):
            if bounds[i] >= best():
                return
            classes = self._classes(int(pool[i]), cands, history, depth, widest, best() - 1 - len(cands))
            if classes is not None:
                yield rank, len(order), int(pool[i]), classes

    def _classes(self, guess: int, cands: np.ndarray, history: History, depth: int, widest: int,
                 limit: int) -> Classes | None:
        """A guess's classes (largest first) with a floor each, or None when the floors exceed
        ``limit``: then the guess cannot beat the best tree found."""
        ordered, start, classes = self.k.split(self.table, guess, cands, self.nfb, self.solved)
        child_depth = depth - 1 if depth >= 0 else -1
        floors, hopeful = self.k.class_bounds(self.table, guess, ordered, start, classes, self.nfb,
                                              self.solved, self.lbt, child_depth, self.codes,
                                              self.used(history), widest, limit)
        if not hopeful:
            return None
        subs = [np.sort(ordered[start[f]:start[f + 1]]) for f in classes]
        return [(sub, (*history, (guess, int(f))), int(floor), child_depth)
                for sub, f, floor in zip(subs, classes, floors)]

    def _search(self, cands: np.ndarray, history: History, budget: int, depth: int
                ) -> tuple[int, int]:
        """Branch and bound at one node; each class gets the budget left by its siblings so far."""
        n = len(cands)
        best, best_guess = budget + 1, -1
        # the lambda reads ``best`` as it improves: later guesses are pruned against the newest total
        for _, _, guess, classes in self._hopeful(cands, history, depth, budget,
                                                  lambda: best):  # noqa: B023
            rest, total = sum(floor for _, _, floor, _ in classes), n
            for sub, child, floor, child_depth in classes:
                rest -= floor
                cost = self.solve(sub, child, best - 1 - total - rest, child_depth)
                if cost < 0:
                    break
                total += cost
            else:
                best, best_guess = total, guess
        return best, best_guess

    def best(self, cands: np.ndarray, history: History, depth: int) -> tuple[int, int]:
        """(exact cost, canonical guess) of a set, or (-1, -1) when no tree fits the depth limit."""
        if len(cands) <= self.SMALL:
            cost, guess = self.k.solve_small(self.table, cands, INFEASIBLE - 1, depth, self.nfb,
                                             self.solved, self.lbt, self.codes, self.used(history),
                                             self.branches)
            return int(cost), int(guess)
        key = (cands.tobytes(), depth)
        if key not in self.exact:
            best, guess = self._search(cands, history, INFEASIBLE - 1, depth)
            if guess < 0:
                return -1, -1
            self.exact[key] = (best, guess)
        return self.exact[key]

    def plan(self, cands: np.ndarray, history: History, depth: int) -> Plan:
        """The canonical optimal guess of every state of a subtree, keyed by history."""
        plan: Plan = {}
        stack = [(cands, history, depth)]
        while stack:
            cands, history, depth = stack.pop()
            _cost, guess = self.best(cands, history, depth)
            plan[history] = guess
            ordered, start, classes = self.k.split(self.table, guess, cands, self.nfb, self.solved)
            for f in classes:
                stack.append((np.sort(ordered[start[f]:start[f + 1]]), (*history, (guess, int(f))),
                              depth - 1 if depth >= 0 else -1))
        return plan

    def solve_class(self, task: Task) -> tuple[int, Plan | None]:
        """Worker task: exact cost of one class within its budget, and its plan when it fits."""
        cands, history, budget, depth = task
        cost = self.solve(cands, history, budget, depth)
        return cost, (self.plan(cands, history, depth) if cost >= 0 else None)

    def top(self, cands: np.ndarray, depth: int, pool: np.ndarray | None = None, jobs: int = 1
            ) -> tuple[int, Plan | None]:
        """Search the root: (cost, plan of the whole tree), cost -1 when impossible.

        With several jobs, the classes of each root guess are solved in worker processes; a class
        too large to leave to one worker is searched here the same way, its own classes going to
        the workers.
        """
        big = len(cands) // (2 * jobs) if jobs > 1 else len(cands)
        with _workers(self, jobs) as run:
            result = self._parallel(cands, (), depth, INFEASIBLE - 1, run, big, pool)
        return result

    def _parallel(self, cands: np.ndarray, history: History, depth: int, budget: int, run: Runner,
                  big: int, pool: np.ndarray | None = None) -> tuple[int, Plan | None]:
        """Branch and bound at one node with the classes of each guess solved by ``run`` at once,
        each with the budget its siblings' floors leave; classes over ``big`` recurse here."""
        n = len(cands)
        best, best_plan = budget + 1, None
        for rank, count, guess, classes in self._hopeful(cands, history, depth, budget,
                                                         lambda: best, pool):  # noqa: B023
            slack = best - 1 - n - sum(floor for _, _, floor, _ in classes)
            tasks = [(sub, child, slack + floor, d) for sub, child, floor, d in classes]
            small = run([task for task in tasks if len(task[0]) <= big])
            large = (self._parallel(sub, child, d, limit, run, big)
                     for sub, child, limit, d in tasks if len(sub) > big)
            total, done = n, 0
            plan: Plan = {history: guess}
            for cost, part in itertools.chain(large, small):
                if cost < 0:
                    total = INFEASIBLE
                    break
                total += cost
                plan.update(part or {})
                done += 1  # noqa: SIM113 -- counts the classes solved, in completion order
                if not history and self.status:
                    self.status(Progress(rank, count, self.game.code_strings[guess], done, len(tasks),
                                         best if best_plan else None))
            if total < best:
                best, best_plan = total, plan
        return (best, best_plan) if best_plan is not None else (-1, None)


_WORKER: Search | None = None


def _worker_task(task: Task) -> tuple[int, Plan | None]:
    assert _WORKER is not None  # set before the workers are forked
    return _WORKER.solve_class(task)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them; SIGTERM ends them at once."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _workers:
    """Runs class tasks in this process (jobs=1) or in forked workers that share the score table."""

    def __init__(self, search: Search, jobs: int) -> None:
        self.search, self.jobs = search, jobs
        self.pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> Runner:
        global _WORKER
        if self.jobs > 1:
            _WORKER = self.search
            pool = self.pool = multiprocessing.get_context("fork").Pool(self.jobs, _ignore_interrupts)
            return lambda tasks: pool.imap_unordered(_worker_task, tasks)
        return lambda tasks: map(self.search.solve_class, tasks)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _WORKER
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        _WORKER = None


def usable_cores() -> int:
    """Processors this process may run on: more worker processes than that only add overhead."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Optimal(Strategy):
    """Strategy adapter: the whole optimal tree is planned on the first question, then looked up."""

    name = "optimal"
    description = "fewest total guesses over all secrets, by exact search (--max-depth, --jobs)"
    pools = ("all",)
    options = ("max_depth", "jobs", "status")

    def __init__(self, pool: str | None = None, seed: int | None = None, symmetry: bool = True,
                 max_depth: int | None = None, jobs: int = 1,
                 status: Callable[[Progress], None] | None = None) -> None:
        super().__init__(pool, seed, symmetry)
        if max_depth is not None and max_depth < 1:
            raise StrategyError(f"max depth must be at least 1, not {max_depth}")
        if jobs < 1:
            raise StrategyError(f"jobs must be at least 1, not {jobs}")
        self.max_depth, self.jobs, self.status = max_depth, min(jobs, usable_cores()), status
        self.planned: Plan | None = None

    def params(self) -> dict[str, Any]:
        return {**super().params(), "optimal": True, "max_depth": self.max_depth}

    def start(self, game: Game, first: int | None) -> None:
        """The whole search runs here, once; ``choose`` then only looks the tree up."""
        self.planned = self._plan(game, first)

    def choose(self, state: State) -> int:
        if self.planned is None:  # asked without start(): no forced first guess
            self.planned = self._plan(state.game, None)
        return self.planned[state.history]

    def _plan(self, game: Game, first: int | None) -> Plan:
        search = Search(game, self.max_depth, self.status)
        depth = UNLIMITED if self.max_depth is None else self.max_depth
        forced = np.array([first], dtype=np.int64) if first is not None else None
        cost, plan = search.top(np.arange(game.size, dtype=np.int64), depth, forced, self.jobs)
        if cost < 0:
            within = f" in at most {self.max_depth} guesses" if self.max_depth is not None else ""
            opening = f" opening with {game.code_strings[forced[0]]}" if forced is not None else ""
            raise ImpossibleError(f"impossible: no strategy solves every {game.name} "
                                  f"secret{within}{opening}")
        assert plan is not None
        return plan
