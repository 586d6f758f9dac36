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

import numbers
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from treegen import settings
from treegen.data import History
from treegen.errors import StrategyError, TreegenError, interrupted, signalled
from treegen.player import brief
from treegen.rules.game import Game, available_memory
from treegen.rules.scoring import score_table, solved_index
from treegen.rules.symmetry import representatives
from treegen.run.local import Farm, GuessTask, Plan, Stop, Task, usable_cores, workers
from treegen.search.bounds import INFEASIBLE, SMALL, UNLIMITED, bound_table
from treegen.search.progress import Progress, peak_memory
from treegen.strategies.heuristics import Heuristic, State, Strategy

if TYPE_CHECKING:
    from treegen.search.bounded import Bounded

#: A guess's classes, smallest first: (candidates, history, floor, depth left).
Classes = list[tuple[np.ndarray, History, int, int]]


class ImpossibleError(TreegenError):
    """No tree solves every secret within the requested number of guesses."""


class GivenUp(Exception):
    """Raised inside a worker's search when the guess its task serves was given up: what it found
    so far is cached, the rest is of no use."""


#: The largest depth limit, worker count and memory a search takes: beyond any machine, and every
#: number stays well inside the 64-bit integers of compiled code.
MOST_DEPTH = 1 << 31
MOST_JOBS = 1 << 16


def whole(value: object, what: str, least: int, most: int) -> int:
    """``value`` as an int between ``least`` and ``most``, or a one-line StrategyError."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and \
            least <= int(value) <= most:
        return int(value)
    limits = f"at least {least}" if most >= 1 << 30 else f"between {least} and {most}"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) > most:
        limits = f"at most {most:,}"
    raise StrategyError(f"{what} must be a whole number {limits}, not {brief(value)}")


def check_options(jobs: object = 1, max_depth: object = None, memory: object = None) -> None:
    """Refuse, in one line, search options of the wrong type or out of range."""
    from treegen.settings import MAX_SIZE
    whole(jobs, "jobs", 1, MOST_JOBS)
    if max_depth is not None:
        whole(max_depth, "max depth", 1, MOST_DEPTH)
    if memory is not None:
        whole(memory, "memory", 1, MAX_SIZE)


ENGINES = ("local", "ray")


def check_engine(engine: object, address: object) -> None:
    """Refuse, in one line, an engine or address the search cannot run on."""
    if engine not in ENGINES:
        raise StrategyError(f"unknown engine {brief(engine)} (known: {', '.join(ENGINES)})")
    if address is not None and (engine != "ray" or not isinstance(address, str)):
        raise StrategyError("an address is for --engine ray only, and is text")
    if isinstance(address, str) and address.startswith("ray://"):
        raise StrategyError("Ray Client addresses (ray://) are not supported: run the build on "
                            "a machine of the cluster, with --address auto")
    if engine == "ray":
        from treegen.run.ray import require_ray
        require_ray()


def ray_farm(search: Search, memory: int | None, address: str | None, jobs: int) -> Farm:
    """A farm of Ray tasks for ``search``: on the cluster at ``address``, or on a Ray instance of
    ``jobs`` processors started here for the search."""
    from treegen.run.ray import RayFarm
    spec = {"game": dict(search.game.to_dict()), "max_depth": search.max_depth, "memory": memory}
    return RayFarm(search, spec, address, cpus=jobs if address is None else None)


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


def cache_entries(game: Game, memory: int | None) -> int:
    """How many sets the search may cache: ``memory`` bytes (default: half of what is available
    once the score table is in), at least enough for a useful search. Each worker process holds
    caches of its own, so the CLI divides its ``--memory`` among them."""
    from treegen.search.native import ENTRY_BYTES
    if memory is None:
        memory = max(0, available_memory() - game.memory_estimate()) // 2
    return max(64, memory // ENTRY_BYTES)


class Search:
    """One exact search over a game: caches, bound tables and the recursion above the small-set kernel."""

    #: Up to this many guesses into the game, the pool is reduced by every symmetry (positions too);
    #: deeper, only by interchangeable unused symbols, which is nearly as good and far cheaper.
    FULL_SYMMETRY = 2
    #: At the deepest of those levels, sets up to this size go to the compiled search all the
    #: same: there the Python level costs more than the symmetry saves (Mastermind's search 0.41 s
    #: to 0.35 s; 4 x 7 and Bulls and Cows within their noise at 50, slower at 100).
    LAST_LEVEL_FROM = 50

    def __init__(self, game: Game, max_depth: int | None = None,
                 status: Callable[[Progress], None] | None = None,
                 memory: int | None = None) -> None:
        from treegen.search.native import load
        self.kernels = load()
        self.cap = cache_entries(game, memory)
        #: Exact costs and lower bounds of the sets searched (:mod:`treegen.set_cache`); the
        #: compiled search may hand back a grown table, which replaces this one.
        self.cache = self.kernels.new_table(self.cap)
        self.started = time.monotonic()
        self.saver: Callable[[], None] | None = None
        #: Asked as the search goes (in a worker): whether the guess it works for was given up.
        self.abandon: Callable[[], bool] | None = None
        self.saved_at = self.pulsed = self.started
        #: The level whose guesses the status line follows: the root, or a class of an opening.
        self.status_level = 0
        #: Called at most once a second as the search goes (a bounded search's status line).
        self.pulse: Callable[[], None] | None = None
        self.every = settings.checkpoint_seconds()
        self.game = game
        self.table = score_table(game)
        self.nfb = len(game.feedbacks)
        self.solved = solved_index(game)
        branches = self.nfb - 2 if game.length > 1 else 1  # no solved class, no (length-1)A1B
        self.branches = branches
        self.lbt = bound_table(game.size, branches, max_depth)
        self.max_depth = max_depth
        self.codes = np.ascontiguousarray(game.codes)
        self.status = status
        self.symbols_used: dict[tuple[int, ...], np.ndarray] = {}
        self.lock = threading.Lock()

    def used(self, history: History) -> np.ndarray:
        """Which symbols the guesses of a history use (the others are interchangeable)."""
        guesses = tuple(guess for guess, _ in history)
        used = self.symbols_used.get(guesses)
        if used is None:
            used = np.zeros(len(self.game.symbols), dtype=np.bool_)
            for guess in guesses:
                used[self.codes[guess]] = True
            self.symbols_used[guesses] = used
        return used

    def lb(self, depth: int, m: int) -> int:
        k = self.branches
        return int(self.lbt[k, depth + 1, m] if depth >= 0 else self.lbt[k, 0, m])

    def solve(self, cands: np.ndarray, history: History, budget: int, depth: int) -> int:
        """Exact T(cands) if it is at most ``budget``, else -1."""
        return self._solve(cands, history, budget, depth)[0]

    def best(self, cands: np.ndarray, history: History, depth: int) -> tuple[int, int]:
        """(exact cost, canonical guess) of a set, or (-1, -1) when no tree fits the depth limit."""
        return self._solve(cands, history, INFEASIBLE - 1, depth)

    def _solve(self, cands: np.ndarray, history: History, budget: int, depth: int
               ) -> tuple[int, int]:
        """(cost, canonical guess) if the set costs at most ``budget``, else (-1, -1): compiled
        below the top levels, searched here (with full symmetry) above them, cached either way."""
        n = len(cands)
        if n <= SMALL or len(history) > self.FULL_SYMMETRY or \
                (len(history) == self.FULL_SYMMETRY and n <= self.LAST_LEVEL_FROM):
            return self._compiled(cands, history, budget, depth)
        known, cost, guess = self.kernels.recall(self.cache, cands, depth, budget)
        if known:
            return (int(cost), int(guess)) if known > 0 else (-1, -1)
        if self.lb(depth, n) > budget:
            return -1, -1
        best, guess = self._search(cands, history, budget, depth)
        if guess < 0:
            best = -1
        self.cache = self.kernels.remember(self.cache, cands, depth, budget, best, guess)
        return best, guess

    def _compiled(self, cands: np.ndarray, history: History, budget: int, depth: int
                  ) -> tuple[int, int]:
        """The compiled search of a set below the top levels: (cost or -1, canonical guess)."""
        cost, guess, self.cache = self.kernels.solve(self.table, cands, budget, depth, self.nfb,
                                                     self.solved, self.lbt, self.codes,
                                                     self.used(history), self.branches, self.cache)
        self.tick()
        return int(cost), int(guess)

    def tick(self) -> None:
        """Write a checkpoint if one is due (in the process that owns the search, never a worker);
        in a worker, stop with :class:`GivenUp` once the guess the task serves is given up; stop
        on a Ctrl-C whose KeyboardInterrupt was lost (see :func:`errors.signalled`)."""
        if signalled():
            raise KeyboardInterrupt
        if self.abandon is not None and self.abandon():
            raise GivenUp
        now = time.monotonic()
        if self.pulse is not None and now - self.pulsed >= 1:
            self.pulsed = now
            self.pulse()
        if self.saver is not None and now - self.saved_at >= self.every:
            self.saver()
            self.saved_at = time.monotonic()

    def caches(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The caches as arrays, for a checkpoint."""
        return [self.kernels.export_entries(self.cache, exact) for exact in (True, False)]

    def restore(self, caches: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """Fill the caches from a checkpoint's arrays (checked by :func:`checkpoint.load`)."""
        for keys, values in caches:  # the compiled kernels take writable int64 arrays
            self.cache = self.kernels.import_entries(self.cache, keys.astype(np.int64),
                                                     values.astype(np.int64))

    def guesses(self, cands: np.ndarray, history: History) -> np.ndarray:
        """One guess per class of equivalent guesses at a set: by every symmetry near the root, by
        interchangeable unused symbols deeper."""
        if len(history) <= self.FULL_SYMMETRY:
            return representatives(self.game, history).astype(np.int64)
        pool: np.ndarray = self.kernels.free_pool(self.codes, self.used(history), cands)
        return pool

    def split_size(self, n: int, jobs: int) -> int:
        """With several jobs, the size above which a class of a set of ``n`` is searched here (its
        own classes going to the workers) rather than left to one worker (see :attr:`SPLIT`)."""
        return max(SMALL, n // (self.SPLIT * jobs)) if jobs > 1 else n

    def _hopeful(self, cands: np.ndarray, history: History, depth: int, budget: int,
                 best: Callable[[], int], pool: np.ndarray | None = None
                 ) -> Iterator[tuple[int, int, int, Classes]]:
        """Yield (rank, guesses, guess, classes) for the guesses whose bounds can still beat
        ``best()``, best bound first; ``classes`` as :meth:`classes` gives them. One guess per class
        of equivalent guesses is tried."""
        pool, bounds, order, widest = self._ordered(cands, history, depth, budget, pool)
        for rank, i in enumerate(order):
            if bounds[i] >= best():
                return
            classes = self.classes(int(pool[i]), cands, history, depth, widest, best() - 1 - len(cands))
            if classes is not None:
                yield rank, len(order), int(pool[i]), classes

    def _ordered(self, cands: np.ndarray, history: History, depth: int, budget: int,
                 pool: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """(guesses, their one-step bounds, the indices of those within ``budget`` in canonical
        order, the branching that bounds every set below this one)."""
        if pool is None:
            pool = self.guesses(cands, history)
        bounds, possible, widest = self.kernels.guess_bounds(self.table, pool, cands, self.nfb,
                                                             self.solved, self.lbt, depth)
        return pool, bounds, self.kernels.search_order(bounds, possible, pool, budget), widest

    def classes(self, guess: int, cands: np.ndarray, history: History, depth: int, widest: int,
                 limit: int) -> Classes | None:
        """A guess's classes with a floor each, smallest first, or None when the floors exceed
        ``limit``: then the guess cannot beat the best tree found.

        Smallest first because a hopeless guess is then given up after solving small classes,
        not after the largest one (a class of 720 Bulls and Cows secrets: 13 s largest first,
        5.5 s smallest first)."""
        ordered, start, classes = self.kernels.split(self.table, guess, cands, self.nfb, self.solved)
        child_depth = depth - 1 if depth >= 0 else -1
        floors, hopeful = self.kernels.class_bounds(self.table, ordered, start, classes, self.nfb,
                                                    self.solved, self.lbt, child_depth, widest,
                                                    limit)
        if not hopeful:
            return None
        subs = [ordered[start[f]:start[f + 1]] for f in classes]
        return [(sub, (*history, (guess, int(f))), int(floor), child_depth)
                for sub, f, floor in zip(subs[::-1], classes[::-1], floors[::-1])]

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

    def plan(self, cands: np.ndarray, history: History, depth: int) -> Plan:
        """The canonical optimal guess of every state of a subtree, keyed by history."""
        rows, self.cache = self.kernels.plan(self.table, cands, depth, self.nfb, self.solved,
                                             self.lbt, self.codes, self.used(history),
                                             self.branches, self.cache)
        parents, feedbacks, guesses = rows.T.tolist()
        histories = [history]
        for k in range(1, len(guesses)):
            up = parents[k]
            histories.append((*histories[up], (guesses[up], feedbacks[k])))
        return dict(zip(histories, guesses))

    def solve_class(self, task: Task, abandon: Callable[[], bool] | None = None
                    ) -> tuple[int, Plan | None]:
        """Worker task: exact cost of one class within its budget, and its plan when it fits;
        (-1, None) as soon as ``abandon()`` says the guess it serves was given up."""
        cands, history, budget, depth = task
        self.abandon = abandon
        try:
            cost = self.solve(cands, history, budget, depth)
        except GivenUp:
            return -1, None
        finally:
            self.abandon = None
        return cost, (self.plan(cands, history, depth) if cost >= 0 else None)

    def solve_guess(self, task: GuessTask, abandon: Callable[[], bool], most: Callable[[], int]
                    ) -> tuple[int, Plan | None]:
        """Worker task: one guess at a set, its classes solved one after another (smallest
        first), each with the budget ``most()`` leaves (the best total of the set, as the other
        workers find it, lets this guess total at most that); the guess's total and the plan of
        its subtree, or (-1, None) as soon as it cannot fit."""
        cands, history, guess, widest, depth, _ = task
        n = len(cands)
        classes = self.classes(guess, cands, history, depth, widest, most() - n)
        if classes is None:
            return -1, None
        lower = [n + sum(floor for _, _, floor, _ in classes)]  # exact costs so far, floors after
        self.abandon = lambda: abandon() or lower[0] > most()
        plan: Plan = {history: guess}
        try:
            for sub, child, floor, child_depth in classes:
                budget = most() - lower[0] + floor
                cost = self.solve(sub, child, budget, child_depth) if budget >= floor else -1
                if cost < 0:
                    return -1, None
                lower[0] += cost - floor
                plan.update(self.plan(sub, child, child_depth))
        except GivenUp:
            return -1, None
        finally:
            self.abandon = None
        return lower[0], plan

    def top(self, cands: np.ndarray, depth: int, pool: np.ndarray | None = None, jobs: int = 1,
            farm: Farm | None = None) -> tuple[int, Plan | None]:
        """Search the root: (cost, plan of the whole tree), cost -1 when impossible.

        With several jobs, the classes of each root guess are solved in worker processes (or by
        ``farm``, e.g. a Ray cluster); a class too large to leave to one worker is searched here,
        in a thread of its own beside the others, its own classes going to the workers.
        """
        with farm or workers(self, jobs) as running:
            return self.best_with(cands, (), depth, running, pool)

    def best_with(self, cands: np.ndarray, history: History, depth: int, farm: Farm,
                  pool: np.ndarray | None = None) -> tuple[int, Plan | None]:
        """(exact cost, plan) of a set, its classes solved by a running ``farm`` (see :meth:`top`);
        cost -1 when no tree fits the depth limit."""
        big = self.split_size(len(cands), farm.jobs)
        return self._parallel(cands, history, depth, INFEASIBLE - 1, farm, big, pool)

    #: With several jobs, classes over 1/(SPLIT * jobs) of the game are split further, so that
    #: no one worker holds up the others with a class that is a large share of the whole search.
    #: Splitting has a price (classes solved in different processes share no cache, and a worker
    #: may wait for the last class of a guess), so only the largest classes are split. Bulls and
    #: Cows, 2 jobs: SPLIT 1 (no class split) 10 min 27 s, 702 s of CPU; SPLIT 2 (its class of
    #: 1,440 split) 6 min 48 s, 658 s; SPLIT 8 (five classes split) over 19 min.
    SPLIT = 2

    def _parallel(self, cands: np.ndarray, history: History, depth: int, budget: int, farm: Farm,
                  big: int, pool: np.ndarray | None = None, stops: tuple[Stop, ...] = ()
                  ) -> tuple[int, Plan | None]:
        """Branch and bound at one node with the classes of each guess solved by ``farm``; classes
        over ``big`` are searched the same way, here. Each class gets the budget left when it is
        handed out: the best total, less the exact costs of the classes solved by then and the
        floors of the others. A search here stops early once one of ``stops`` is set (the guess
        above it was given up); its result is then not used."""
        n = len(cands)
        best, best_plan = budget + 1, None
        for rank, count, guess, classes in self._hopeful(cands, history, depth, budget,
                                                         lambda: best, pool):  # noqa: B023
            shown = None
            if len(history) == self.status_level and self.status:
                shown = self._shown(rank, count, guess, len(classes), lambda: best)  # noqa: B023
            total, plan = self.guess_total(n, guess, classes, history, best, farm, big, stops, shown)
            if total >= 0:
                best, best_plan = total, plan
            if any(s.is_set() for s in stops):
                return -1, None
        return (best, best_plan) if best_plan is not None else (-1, None)

    def guess_total(self, start: int, guess: int, classes: Classes, history: History, best: int,
                    farm: Farm, big: int, stops: tuple[Stop, ...] = (),
                    shown: Callable[[_Tally], None] | None = None) -> tuple[int, Plan | None]:
        """``start`` plus the exact costs of a guess's classes, with the plan of its subtree, if that
        is below ``best``; else (-1, None). The classes are solved by ``farm``, those over ``big``
        searched here; each gets the budget left when it is handed out: ``best``, less the exact
        costs of the classes solved by then and the floors of the others."""
        tally = _Tally(start, _hand_out_order(classes, big, best, farm.jobs))
        stop = farm.stop()
        stop.publish(best - 1 - tally.lower())
        jobs = (self._here(task, farm, big, (*stops, stop)) if len(task[0]) > big else task
                for task in tally.tasks(best))
        plan: Plan = {history: guess}
        try:
            for cost, part in farm.run(jobs, stop):
                if cost < 0 or part is None or any(s.is_set() for s in stops):
                    break
                plan.update(part)
                self._learn(tally, part, cost, len(history) + 1)
                stop.publish(best - 1 - tally.lower())
                if tally.lower() >= best:
                    break  # the guess cannot win: stop its classes still running
                if shown is not None:
                    shown(tally)
            else:
                if tally.solved == len(classes) and tally.total < best:
                    return tally.total, plan
        finally:
            stop.set()  # whatever of this guess still runs or waits is of no use now
        return -1, None

    def _shown(self, rank: int, count: int, guess: int, classes: int, best: Callable[[], int]
               ) -> Callable[[_Tally], None]:
        """What reports the progress of a root guess to the status line."""
        assert self.status is not None
        status = self.status

        def show(tally: _Tally) -> None:
            known = best()
            status(Progress(rank, count, self.game.code_strings[guess], tally.solved, classes,
                            known if known < INFEASIBLE // 2 else None, min(known, tally.lower()),
                            time.monotonic() - self.started, peak_memory(),
                            label="first guess" if self.status_level == 0 else "guess"))
        return show

    def _here(self, task: Task, farm: Farm, big: int, stops: tuple[Stop, ...]
              ) -> Callable[[], tuple[int, Plan | None]]:
        """A class searched in this process, its guesses (or, on a cluster, their classes) going
        to ``farm``, as a job."""
        sub, child, limit, depth = task
        if farm.guesses:
            return lambda: self._side_by_side(sub, child, depth, limit, farm, stops)
        return lambda: self._parallel(sub, child, depth, limit, farm, big, None, stops)

    def _side_by_side(self, cands: np.ndarray, history: History, depth: int, budget: int,
                      farm: Farm, stops: tuple[Stop, ...]) -> tuple[int, Plan | None]:
        """Branch and bound at one node with its guesses tried side by side, one per worker,
        each solving its classes in turn with the tight budgets of the sequential search and
        pruning against the best total as soon as any worker finds it. Handing out the classes
        of one guess at a time instead left a worker idle while the other solved a guess's
        largest class (Bulls and Cows, 2 jobs: 71 s that way, 47 s this way, 82 s with one job).

        A guess may total at most the best total found if it comes before that total's guess
        (ties go to the earlier guess), one less after it; before any is found, the budget (as
        after a guess ranked -1 that totals one more)."""
        pool, bounds, order, widest = self._ordered(cands, history, depth, budget)
        rank_of = {int(pool[i]): rank for rank, i in enumerate(order)}
        best, best_rank, best_plan = budget + 1, -1, None
        stop = farm.stop()
        stop.share(best, best_rank)

        def tasks() -> Iterator[GuessTask]:
            for rank, i in enumerate(order):  # bounds ascending: the rest cannot fit either
                if bounds[i] > best - (rank > best_rank) or any(s.is_set() for s in stops):
                    return
                yield GuessTask(cands, history, int(pool[i]), widest, depth, rank)

        try:
            for total, plan in farm.run(tasks(), stop):
                if any(s.is_set() for s in stops):
                    return -1, None
                if total < 0 or plan is None:
                    continue
                rank = rank_of[plan[history]]
                if total < best or (total == best and rank < best_rank):
                    best, best_rank, best_plan = total, rank, plan
                    stop.share(best, best_rank)
        finally:
            stop.set()
        return (best, best_plan) if best_plan is not None else (-1, None)

    def _learn(self, tally: _Tally, part: Plan, cost: int, level: int) -> None:
        """Count a solved class in the guess's tally, and keep it in this process's caches (a
        worker's result too), so a checkpoint holds it."""
        child = next((h for h in part if len(h) == level), None)
        with self.lock:  # searches in threads here share the caches
            if child is not None and child in tally.open:
                sub, depth, _ = tally.open[child]
                tally.close(child, cost)
                if len(sub) > SMALL:
                    self.cache = self.kernels.remember(self.cache, sub, depth, cost, cost,
                                                       part[child])
            self.tick()


def _hand_out_order(classes: Classes, big: int, best: int, jobs: int) -> Classes:
    """With workers and no total to prune against yet: largest first, so that the longest tasks
    start first and none runs alone at the end. Otherwise smallest first, as in the sequential
    search, with the classes searched here first (they start at once, in threads)."""
    if jobs > 1 and best > INFEASIBLE // 2:
        return classes[::-1]
    return sorted(classes, key=lambda c: len(c[0]) <= big)


class _Tally:
    """The classes of one guess as they are solved: exact costs so far, floors of the rest."""

    def __init__(self, n: int, classes: Classes) -> None:
        self.total, self.solved = n, 0
        self.classes = classes
        self.open = {child: (sub, depth, floor) for sub, child, floor, depth in classes}
        self.floors = sum(floor for _, _, floor, _ in classes)

    def close(self, child: History, cost: int) -> None:
        self.floors -= self.open.pop(child)[2]
        self.total += cost
        self.solved += 1

    def lower(self) -> int:
        """The guess's lower bound now: exact costs where known, floors elsewhere."""
        return self.total + self.floors

    def tasks(self, best: int) -> Iterator[Task]:
        """The classes as tasks, each made when it is drawn, with the budget left then; none once
        the guess cannot beat ``best``."""
        for sub, child, floor, depth in self.classes:
            limit = best - 1 - self.lower() + floor
            if limit < floor:
                return
            yield sub, child, limit, depth


class Optimal(Strategy):
    """Strategy adapter: the whole optimal tree is planned on the first question, then looked up."""

    name = "optimal"
    description = "fewest total guesses over all secrets, by exact search (--max-depth, --jobs)"
    pools = ("all",)
    options = ("max_depth", "jobs", "status", "memory", "checkpoint", "resume", "engine", "address",
               "width", "exact_below", "heuristic")
    #: Heuristics that can rank the guesses of a bounded search.
    heuristics = ("entropy", "expected", "minimax", "parts")
    #: Sets of fewer secrets are solved exactly in a bounded search, unless told otherwise.
    EXACT_BELOW = 200

    def __init__(self, pool: str | None = None, seed: int | None = None, symmetry: bool = True,
                 max_depth: int | None = None, jobs: int = 1,
                 status: Callable[[Progress], None] | None = None, memory: int | None = None,
                 checkpoint: str | None = None, resume: bool = False, engine: str = "local",
                 address: str | None = None, width: int | None = None,
                 exact_below: int | None = None, heuristic: str | None = None) -> None:
        super().__init__(pool, seed, symmetry)
        if width is not None:
            width = whole(width, "width", 1, MOST_JOBS)
        if width is None and (exact_below is not None or heuristic is not None):
            raise StrategyError("--exact-below and --heuristic bound the search: they need --width")
        if exact_below is not None:
            exact_below = whole(exact_below, "exact below", 0, MOST_DEPTH)
        if heuristic is not None and heuristic not in self.heuristics:
            raise StrategyError(f"unknown heuristic {heuristic!r} for a bounded search (known: "
                                f"{', '.join(self.heuristics)})")
        self.width, self.total = width, 0
        self.exact_below = (exact_below if exact_below is not None else self.EXACT_BELOW) \
            if width is not None else None
        self.heuristic = (heuristic or "entropy") if width is not None else None
        #: The proven lower bound on the game's optimum, once a bounded search has run.
        self.lower: int | None = None
        check_options(jobs=jobs, max_depth=max_depth, memory=memory)
        check_engine(engine, address)
        # a Ray cluster has processors of its own; a local build never uses more than this machine's
        self.max_depth, self.status = max_depth, status
        self.jobs = jobs if engine == "ray" else min(jobs, usable_cores())
        self.engine, self.address = engine, address
        self.memory, self.checkpoint, self.resume = memory, checkpoint, resume
        self.planned: Plan | None = None
        #: The total the search found, which the compiled tree must have.
        self.cost: int | None = None

    def params(self) -> dict[str, Any]:
        if self.width is None:
            return {**super().params(), "optimal": True, "max_depth": self.max_depth}
        return {**super().params(), "optimal": self.proven, "max_depth": self.max_depth,
                "width": self.width, "exact_below": self.exact_below, "heuristic": self.heuristic,
                "lower_bound": self.lower}

    def start(self, game: Game, first: int | None) -> None:
        """The whole search runs here, once; ``choose`` then only looks the tree up."""
        self.planned = self._plan(game, first)

    def choose(self, state: State) -> int:
        if self.planned is None:  # asked without start(): no forced first guess
            self.planned = self._plan(state.game, None)
        return self.planned[state.history]

    def identity(self, game: Game, first: int | None) -> dict[str, Any]:
        """What a checkpoint of this search must have been written by."""
        from treegen import __version__
        from treegen.search.native import CACHE_FORMAT
        bounded = {"width": self.width, "exact_below": self.exact_below,
                   "heuristic": self.heuristic}
        return {"treegen": __version__, "cache": CACHE_FORMAT, "game": dict(game.to_dict()),
                "strategy": self.name, "max_depth": self.max_depth,
                "first": game.code_strings[first] if first is not None else None, **bounded}

    def _plan(self, game: Game, first: int | None) -> Plan:
        memory = None if self.memory is None else self.memory // self.jobs
        limit = effective_depth(game, self.max_depth)
        search = Search(game, limit, self.status, memory)
        bounded = None
        if self.width is not None:
            from treegen.registry import make_strategy
            from treegen.search.bounded import Bounded
            ranker = make_strategy(self.heuristic or "entropy", pool="all")
            assert isinstance(ranker, Heuristic)
            bounded = Bounded(search, ranker, self.width, self.exact_below or 0)
        if self.checkpoint is not None:
            self._keep(search, bounded, self.checkpoint, self.identity(game, first))
        depth = UNLIMITED if limit is None else limit
        forced = np.array([first], dtype=np.int64) if first is not None else None
        farm = ray_farm(search, self.memory, self.address, self.jobs) if self.engine == "ray" \
            else None
        everything = np.arange(game.size, dtype=np.int64)
        try:
            if bounded is None:
                cost, plan = search.top(everything, depth, forced, self.jobs, farm)
            else:
                found, plan = bounded.top(everything, depth, forced, self.jobs, farm)
                cost = found.total if found.guess >= 0 else -1
                self.total, self.lower = found.total, found.lower
        except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
            # Ctrl-C landing inside compiled code surfaces as a SystemError chained to it
            if not interrupted(exc):
                raise
            if search.saver is not None:
                search.saver()  # what was solved since the last checkpoint is kept too
            raise KeyboardInterrupt from None
        if cost < 0:
            within = f" in at most {self.max_depth} guesses" if self.max_depth is not None else ""
            opening = f" opening with {game.code_strings[forced[0]]}" if forced is not None else ""
            raise ImpossibleError(f"impossible: no strategy solves every {game.name} "
                                  f"secret{within}{opening}")
        assert plan is not None
        self.cost = cost
        return plan

    def finished(self, total: int) -> None:
        if self.cost is not None and total != self.cost:
            raise StrategyError(f"the search found a tree of total {self.cost}, but the tree it "
                                f"planned totals {total}: its caches are inconsistent (a damaged "
                                "checkpoint?); build again without --resume")

    @property
    def proven(self) -> bool:
        """Whether the tree is known to be optimal: always for the exact search; for a bounded one,
        when its lower bound reaches its total."""
        return self.width is None or (self.lower is not None and self.lower == self.total)

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
                raise checkpoint.CheckpointError(
                    f"{path} is the checkpoint of a build that is still running (process "
                    f"{running}): wait for it, or stop it and continue it with --resume")
            if not self.resume:
                raise checkpoint.CheckpointError(
                    f"{path} holds the search of an interrupted build: add --resume to continue "
                    "it, or delete it to start afresh")
            caches = checkpoint.load(path, identity, kinds, search.game.size)
            search.restore(caches[:2])
            if bounded is not None:
                bounded.restore(caches[2:])
        search.saver = checkpoint.keeper(
            path, identity, lambda: search.caches() + (bounded.caches() if bounded is not None else []))
