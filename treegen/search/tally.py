"""The classes of one guess as the search solves them: what the guess totals so far, and the
budget each class gets when it is handed out."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from treegen.data import History
from treegen.run.seam import ClassTask
from treegen.search.bounds import INFEASIBLE

#: A guess's classes, smallest first: (candidates, history, floor, depth left).
Classes = list[tuple[np.ndarray, History, int, int]]


class Tally:
    """The classes of one guess as they are solved: exact costs so far, floors of the rest."""

    def __init__(self, n: int, classes: Classes) -> None:
        self.total, self.solved = n, 0
        self.classes = classes
        self.open = {child: (sub, depth, floor) for sub, child, floor, depth in classes}
        self.floors = sum(floor for _, _, floor, _ in classes)
        #: What a proof of the guess's outcome needs: each class's exact cost, the budget it was
        #: handed out with, and the class whose search gave up (which ended the guess).
        self.costs: dict[History, int] = {}
        self.budgets: dict[History, int] = {}
        self.failed: History | None = None

    def close(self, child: History, cost: int) -> None:
        self.floors -= self.open.pop(child)[2]
        self.total += cost
        self.solved += 1
        self.costs[child] = cost

    def lower(self) -> int:
        """The guess's lower bound now: exact costs where known, floors elsewhere."""
        return self.total + self.floors

    def tasks(self, best: int) -> Iterator[ClassTask]:
        """The classes as tasks, each made when it is drawn, with the budget left then (the best
        total, less the exact costs of the classes solved by then and the floors of the others);
        none once the guess cannot beat ``best``."""
        for sub, child, floor, depth in self.classes:
            limit = best - 1 - self.lower() + floor
            if limit < floor:
                return
            self.budgets[child] = limit
            yield ClassTask(sub, child, limit, depth)


def hand_out_order(classes: Classes, big: int, best: int, jobs: int) -> Classes:
    """With workers and no total to prune against yet: largest first, so that the longest tasks
    start first and none runs alone at the end. Otherwise smallest first, as in the sequential
    search, with the classes searched here first (they start at once, in threads)."""
    if jobs > 1 and best > INFEASIBLE // 2:
        return classes[::-1]
    return sorted(classes, key=lambda c: len(c[0]) <= big)
