"""Bounded optimal search, for games too large to solve outright, with a proven lower bound.

On a set of ``exact_below`` secrets or more only the ``width`` guesses a heuristic ranks best are
searched (the heuristic's own choice first, so the tree is never worse than the heuristic's); each of
their classes is searched the same way, and a class under ``exact_below`` is solved exactly. With a
width covering every guess this is the exact search.

Every set also gets a lower bound on its true optimum: the least, over *all* guesses, of what is
known of each. A guess searched to the end contributes its classes' bounds (exact costs below the
threshold); one that could not beat the best found, what its failed budget proves; one never
searched, its one-step bound (level filling of its classes). The root's bound is therefore proven:
no tree of the game does better, and the book is at most ``total - lower`` above the optimum.

Everything here is a function of the set alone (budgets only ever cut exact searches, whose answers
are canonical), so a build is deterministic whatever the number of workers, and resumable: the
results of the large sets are kept beside the exact search's in its checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from treegen.data import History
from treegen.rules.scoring import TableScorer
from treegen.run.seam import Farm, Plan
from treegen.search.bounds import INFEASIBLE
from treegen.search.exact import Search
from treegen.search.tally import Classes
from treegen.strategies.base import State
from treegen.strategies.heuristics import Heuristic


@dataclass(frozen=True)
class Outcome:
    """What the bounded search found for a set: the total of its tree (INFEASIBLE when no tree
    fits the depth limit), the guess that makes it, and a lower bound on the true optimum."""

    total: int
    guess: int
    lower: int


class Bounded:
    """One bounded search over a game, on top of an exact :class:`Search` (its caches, bounds and
    workers) and a heuristic that ranks guesses."""

    #: At most this many guesses never searched get their two-step bound at a set; the rest keep
    #: their one-step bounds. On 4 × 8 and Mastermind, 16 already give the bound all of them give,
    #: in a third of the time.
    SHARPEN = 32

    def __init__(self, search: Search, heuristic: Heuristic, width: int, exact_below: int) -> None:
        self.search, self.heuristic = search, heuristic
        self.width, self.exact_below = width, exact_below
        self.farm: Farm | None = None
        self.big = 0
        self.kernels = search.kernels
        #: The large sets' results, keyed like the exact search's cache (and checkpointed with it):
        #: set hash -> (check hash, total, guess, lower bound).
        self.found: dict[int, tuple[int, int, int, int]] = {}
        #: The plan of the exact classes under each large set's guess, while this process has it.
        self.plans: dict[int, Plan] = {}
        self.nodes = 0
        #: Where the root's search is, for the status line: (rank, guesses, guess, lower, best).
        self.at: tuple[int, int, int, int, int] | None = None
        search.pulse = self._show

    # -- the search ------------------------------------------------------------------------------

    def outcome(self, cands: np.ndarray, history: History, depth: int,
                forced: np.ndarray | None = None) -> Outcome:
        """Search a set: exactly under the threshold, else over the best-ranked guesses (or only
        ``forced`` ones: then the bound is the optimum's among trees opening with them)."""
        if len(cands) < self.exact_below:
            cost, guess = self.search.best(cands, history, depth)
            return Outcome(cost, guess, cost)
        key, check = self.search.key(cands, history, depth)
        known = self.found.get(key)
        if known is not None and known[0] == check:
            return Outcome(*known[1:])
        found = self._search(cands, history, depth, forced)
        self.found[key] = (check, found.total, found.guess, found.lower)
        self.nodes += 1
        self.search.tick()
        self._show()
        return found

    def _search(self, cands: np.ndarray, history: History, depth: int,
                forced: np.ndarray | None) -> Outcome:
        search, n = self.search, len(cands)
        everyone = search.guesses(cands, history)
        if forced is not None:
            ranked = forced
        else:
            ranked = self.heuristic.rank(State(search.game, TableScorer(search.game), cands, history),
                                         self.width)
        pool = np.union1d(everyone, ranked)  # every guess counts for the branching of the bounds
        bounds, _, widest = search.kernels.guess_bounds(search.context, pool, cands, depth)
        where = {int(g): i for i, g in enumerate(pool)}
        untried = np.flatnonzero(~np.isin(pool, ranked)) if forced is None else np.empty(0, int)
        floor = int(bounds[untried].min()) if len(untried) else INFEASIBLE
        lower = INFEASIBLE  # of the guesses searched; the others' come last
        best, best_guess = INFEASIBLE, -1
        for rank, guess in enumerate(int(g) for g in ranked):
            bound = int(bounds[where[guess]])
            if not history:
                later = [int(bounds[where[int(g)]]) for g in ranked[rank:]]
                self.at = (rank, len(ranked), guess, min(floor, lower, *later), best)
                self._show()
            if bound >= best:
                lower = min(lower, bound)
                continue
            total, guess_lower = self._guess(guess, cands, history, depth, widest, best)
            lower = min(lower, guess_lower)
            if total < best:
                best, best_guess = total, guess
        lower = self._sharpen(cands, history, depth, widest, pool, bounds, untried,
                              min(lower, best))
        return Outcome(best, best_guess, max(lower, search.lower(depth, n)))

    def _sharpen(self, cands: np.ndarray, history: History, depth: int, widest: int,
                 pool: np.ndarray, bounds: np.ndarray, untried: np.ndarray, lower: int) -> int:
        """The set's lower bound with the guesses never searched given their two-step bounds (each
        class's floor the best one-step bound of any guess on it) instead of their one-step bounds:
        taken in order of their one-step bounds, as long as these are below the bound so far."""
        n = len(cands)
        order = untried[np.argsort(bounds[untried], kind="stable")]
        for k, i in enumerate(order):
            if bounds[i] >= lower:
                break
            if k == self.SHARPEN:
                return min(lower, int(bounds[i]))  # the rest keep their one-step bounds
            classes = self.search.classes(int(pool[i]), cands, history, depth, widest,
                                           lower - 1 - n)
            if classes is not None:
                lower = min(lower, n + sum(floor for _, _, floor, _ in classes))
        return lower

    def _guess(self, guess: int, cands: np.ndarray, history: History, depth: int, widest: int,
               best: int) -> tuple[int, int]:
        """(total, lower bound) of one guess: its large classes searched first (always to the
        end, so their results depend on nothing else), then its small ones exactly, within what
        ``best`` leaves; the total is INFEASIBLE when the guess cannot beat ``best``."""
        search, n = self.search, len(cands)
        classes = search.classes(guess, cands, history, depth, widest, INFEASIBLE)
        assert classes is not None  # no limit: every guess has its classes
        large = [c for c in classes if len(c[0]) >= self.exact_below]
        small: Classes = [c for c in classes if len(c[0]) < self.exact_below]
        floors = sum(floor for _, _, floor, _ in small)
        totals = lowers = 0
        for sub, child, _, child_depth in large[::-1]:  # largest first: the heaviest work first
            found = self.outcome(sub, child, child_depth)
            totals += found.total
            lowers += found.lower
        if n + totals + floors >= best:
            return INFEASIBLE, n + lowers + floors
        assert self.farm is not None  # set by top()
        total, plan = search.guess_total(n + totals, guess, small, history, best, self.farm, self.big)
        if total < 0:
            # the small classes cost more than ``best`` leaves them: so much at least
            return INFEASIBLE, n + lowers + max(floors, best - n - totals)
        assert plan is not None
        self.plans[search.key(cands, history, depth)[0]] = plan
        return total, total - totals + lowers

    # -- the tree --------------------------------------------------------------------------------

    def top(self, cands: np.ndarray, depth: int, forced: np.ndarray | None, farm: Farm
            ) -> tuple[Outcome, Plan]:
        """Search the whole game, the exact classes solved by a running ``farm``; then the guess
        of every state of the tree found."""
        self.farm = farm
        self.big = self.search.split_size(len(cands), farm.jobs)
        try:
            return self.plan(cands, depth, forced)
        finally:
            self.farm = None

    def plan(self, cands: np.ndarray, depth: int, forced: np.ndarray | None = None
             ) -> tuple[Outcome, Plan]:
        """Search the whole game, then the guess of every state of the tree found."""
        top = self.outcome(cands, (), depth, forced)
        plan: Plan = {}
        if top.guess < 0:
            return top, plan
        stack: list[tuple[np.ndarray, History, int]] = [(cands, (), depth)]
        while stack:
            sub, history, left = stack.pop()
            if len(sub) < self.exact_below:
                plan.update(self.search.plan(sub, history, left))
                continue
            found = self.outcome(sub, history, left, forced if not history else None)
            plan[history] = found.guess
            key = self.search.key(sub, history, left)[0]
            known = self.plans.get(key, {})
            ordered, start, classes = self.search.split(found.guess, sub)
            for f in classes:
                part = ordered[start[f]:start[f + 1]]
                child = (*history, (found.guess, int(f)))
                child_depth = left - 1 if left >= 0 else -1
                if len(part) < self.exact_below and child in known:
                    plan.update(_subtree(known, child))
                else:
                    stack.append((part, child, child_depth))
        return top, plan

    # -- checkpoints and status ------------------------------------------------------------------

    def caches(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The large sets' results as a checkpoint's two caches: keys with (check hash, total,
        guess), and keys with (check hash, lower bound, 0)."""
        keys = np.array(list(self.found), dtype=np.int64)
        rows = np.array(list(self.found.values()), dtype=np.int64).reshape(-1, 4)
        lowers = np.column_stack([rows[:, 0], rows[:, 3], np.zeros(len(keys), dtype=np.int64)])
        return [(keys, rows[:, :3]), (keys, lowers)]

    def restore(self, caches: list[tuple[np.ndarray, np.ndarray]]) -> None:
        (keys, totals), (lower_keys, lowers) = caches
        lower_of = {key: (check, low) for key, (check, low, _) in zip(lower_keys.tolist(),
                                                                       lowers.tolist())}
        for key, (check, total, guess) in zip(keys.tolist(), totals.tolist()):
            if lower_of.get(key, (None, 0))[0] == check:
                self.found[key] = (check, total, guess, lower_of[key][1])

    def _show(self) -> None:
        """The status line: the root guess being searched, the large sets searched so far, the
        best total and the root's lower bound as known when the guess was started."""
        if self.at is not None:
            rank, count, guess, lower, best = self.at
            self.search.line.bounded(rank, count, guess, lower, best, self.nodes)


def _subtree(plan: Plan, history: History) -> Plan:
    """The states of ``plan`` at or below ``history``."""
    size = len(history)
    return {h: g for h, g in plan.items() if h[:size] == history}

