"""The search's side of the seam (:class:`treegen.run.seam.Solver`): the tasks an executor's
workers run with a :class:`Search`, and how a worker elsewhere builds one afresh."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from treegen.errors import Cancelled
from treegen.rules.game import Game
from treegen.run.seam import ClassTask, GuessTask, Learnt, Plan, Result
from treegen.search.bounds import SMALL
from treegen.search.exact import Search
from treegen.settings import available_memory

__all__ = ["Tasks", "worker_tasks"]


class Tasks:
    """A search's tasks: a class solved within its budget, a guess of a set tried in full."""

    def __init__(self, search: Search) -> None:
        self.search = search

    def worker(self) -> Tasks:
        """The tasks as a worker process runs them: no checkpoints, no status line."""
        search = self.search
        search.saver = search.pulse = None
        search.line.status = None
        return self

    def remote(self) -> tuple[Callable[[dict[str, Any]], Tasks], dict[str, Any]]:
        """How a cluster's worker builds these tasks afresh (see :func:`worker_tasks`)."""
        search = self.search
        return worker_tasks, {"game": dict(search.game.to_dict()),
                              "max_depth": search.max_depth, "memory": search.memory}

    def run_class(self, task: ClassTask, cancelled: Callable[[], bool] | None = None) -> Result:
        """The exact cost of one class within its budget, and its plan when it fits; cost -1 as
        soon as ``cancelled()`` says the guess it serves was given up."""
        search = self.search
        search.cancelled = cancelled
        try:
            cost = search.cost(task.cands, task.history, task.budget, task.depth)
        except Cancelled:
            return Result(task.history, -1, None)
        finally:
            search.cancelled = None
        # a search that proves makes its plan once it is over, for the classes of the guess that
        # won only (see certify.plan_guess): a fact that settles a class carries no tree
        plan = search.plan(task.cands, task.history, task.depth) \
            if cost >= 0 and search.proof is None else None
        return Result(task.history, cost, plan)

    def run_guess(self, task: GuessTask, cancelled: Callable[[], bool],
                  most: Callable[[], int]) -> Result:
        """One guess at a set, its classes solved one after another (smallest first), each with
        the budget ``most()`` leaves (the best total of the set, as the other workers find it,
        lets this guess total at most that); the guess's total and the plan of its subtree, or
        cost -1 as soon as it cannot fit. Either way, with the classes solved on the way."""
        search = self.search
        cands, history, guess, widest, depth, _ = task
        n = len(cands)
        learnt: list[Learnt] = []

        def none() -> Result:
            return Result(history, -1, None, guess, tuple(learnt))

        classes = search.classes(guess, cands, history, depth, widest, most() - n)
        if classes is None:
            return none()
        lower = [n + sum(floor for _, _, floor, _ in classes)]  # exact costs so far, floors after
        search.cancelled = lambda: cancelled() or lower[0] > most()
        plan: Plan = {history: guess}
        try:
            for sub, child, floor, child_depth in classes:
                budget = most() - lower[0] + floor
                cost = search.cost(sub, child, budget, child_depth) if budget >= floor else -1
                if cost < 0:
                    return none()
                lower[0] += cost - floor
                plan.update(search.plan(sub, child, child_depth))
                if len(sub) > SMALL:
                    learnt.append((child, child_depth, cost, plan[child]))
        except Cancelled:
            return none()
        finally:
            search.cancelled = None
        return Result(history, lower[0], plan, guess, tuple(learnt))


def worker_tasks(spec: dict[str, Any]) -> Tasks:
    """The tasks of a search as a cluster's worker builds it from :meth:`Tasks.remote`: its caches
    take a share of the machine's free memory, the other workers of the machine having theirs."""
    game = Game.from_dict(spec["game"])
    memory = spec["memory"]
    if memory is None:
        memory = max(0, available_memory() - game.memory_estimate()) // (2 * (os.cpu_count() or 1))
    return Tasks(Search(game, spec["max_depth"], None, memory)).worker()
