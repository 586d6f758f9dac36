"""A set's guesses tried side by side: one guess per free worker, each solving its classes in
turn with the tight budgets of the sequential search, all pruning against the best total as soon
as any worker finds it.

The search does this wherever a set has many hopeful guesses for its workers (Wordle's first
guesses, the top of an opening's class) and for a class too large to leave to one worker. Handing
out the classes of one guess at a time instead leaves a worker idle while another solves the
guess's largest class, and costs a hand-over per class where most guesses are given up after a few
small ones.

A guess may total at most the best total found if it comes before that total's guess (ties go to
the earlier guess), one less after it; before any is found, the budget (as after a guess ranked -1
that totals one more). What the workers solve on the way comes back with their results
(:attr:`Result.learnt`) and is kept in the caches here, which a checkpoint holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import numpy as np

from treegen.run.seam import CancelToken, ClassTask, Farm, GuessTask, Learnt, Result
from treegen.search.progress import StatusLine

__all__ = ["Host", "Ordered", "side_by_side"]

#: A set's guesses, their one-step bounds, the indices of the hopeful ones in canonical order,
#: and the branching that bounds every set below it (see :meth:`Search.ordered`).
Ordered = tuple[np.ndarray, np.ndarray, np.ndarray, int]


class Host(Protocol):
    """What the guesses tried side by side need of the search they serve."""

    #: The search's status line.
    line: StatusLine

    def learn(self, cands: np.ndarray, learnt: tuple[Learnt, ...]) -> None:
        """Keep what a worker solved while trying a guess of the set ``cands``."""

    def step(self) -> None:
        """Between results: checkpoints, the status line, a stop asked for."""


def side_by_side(host: Host, task: ClassTask, farm: Farm, tokens: tuple[CancelToken, ...],
                 ordered: Ordered, follow: int | None = None) -> Result:
    """The exact cost and plan of a set within ``task.budget`` (cost -1 when over it, or once one
    of ``tokens`` is cancelled), its ``ordered`` guesses tried side by side by ``farm``'s workers.
    The status line follows these guesses if the set is ``follow`` guesses into the game."""
    cands, history, budget, depth = task
    pool, bounds, order, widest = ordered
    rank_of = {int(pool[i]): rank for rank, i in enumerate(order)}
    best, best_rank, best_plan = budget + 1, -1, None
    token = farm.token()
    token.share(best, best_rank)
    finished: set[int] = set()
    first_open = 0  # the first rank not yet finished: the set costs at least its bound
    shown = follow == len(history)

    def tasks() -> Iterator[GuessTask]:
        for rank, i in enumerate(order):  # bounds ascending: the rest cannot fit either
            if bounds[i] > best - (rank > best_rank) or any(t.cancelled() for t in tokens):
                return
            yield GuessTask(cands, history, int(pool[i]), widest, depth, rank)

    try:
        for result in farm.run(tasks(), token):
            if any(t.cancelled() for t in tokens):
                return Result(history, -1, None)
            host.learn(cands, result.learnt)
            if result.guess >= 0:
                finished.add(rank_of[result.guess])
                while first_open in finished:
                    first_open += 1
            if result.cost >= 0 and result.plan is not None:
                rank = rank_of[result.plan[history]]
                if result.cost < best or (result.cost == best and rank < best_rank):
                    best, best_rank, best_plan = result.cost, rank, result.plan
                    token.share(best, best_rank)
            if shown:
                left = bounds[order[first_open]] if first_open < len(order) else best
                host.line.side_by_side(len(history), len(finished), len(order),
                                       int(pool[order[best_rank]]) if best_rank >= 0 else -1,
                                       best, int(min(best, left)))
            host.step()
    finally:
        token.cancel()
    return Result(history, best, best_plan) if best_plan is not None else Result(history, -1, None)
