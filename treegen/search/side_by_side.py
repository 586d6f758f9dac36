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

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from treegen.run.seam import CancelToken, ClassTask, Farm, GuessTask, Learnt, Result
from treegen.search.bounds import INFEASIBLE, SMALL
from treegen.search.progress import Progress, peak_memory

if TYPE_CHECKING:
    import numpy as np

    from treegen.search.exact import Ordered, Search

__all__ = ["side_by_side"]


def side_by_side(search: Search, task: ClassTask, farm: Farm, tokens: tuple[CancelToken, ...],
                 ordered: Ordered, follow: bool = False) -> Result:
    """The exact cost and plan of a set within ``task.budget`` (cost -1 when over it, or once one
    of ``tokens`` is cancelled), its ``ordered`` guesses tried side by side by ``farm``'s workers.
    ``follow``: the status line follows these guesses."""
    cands, history, budget, depth = task
    pool, bounds, order, widest = ordered
    rank_of = {int(pool[i]): rank for rank, i in enumerate(order)}
    best, best_rank, best_plan = budget + 1, -1, None
    token = farm.token()
    token.share(best, best_rank)
    finished: set[int] = set()
    first_open = 0  # the first rank not yet finished: the set costs at least its bound

    def tasks() -> Iterator[GuessTask]:
        for rank, i in enumerate(order):  # bounds ascending: the rest cannot fit either
            if bounds[i] > best - (rank > best_rank) or any(t.cancelled() for t in tokens):
                return
            yield GuessTask(cands, history, int(pool[i]), widest, depth, rank)

    try:
        for result in farm.run(tasks(), token):
            if any(t.cancelled() for t in tokens):
                return Result(history, -1, None)
            keep(search, cands, result.learnt)
            if result.guess >= 0:
                finished.add(rank_of[result.guess])
                while first_open in finished:
                    first_open += 1
            if result.cost >= 0 and result.plan is not None:
                rank = rank_of[result.plan[history]]
                if result.cost < best or (result.cost == best and rank < best_rank):
                    best, best_rank, best_plan = result.cost, rank, result.plan
                    token.share(best, best_rank)
            if follow and search.status is not None:
                left = bounds[order[first_open]] if first_open < len(order) else best
                _show(search, len(finished), len(order),
                      search.game.code_strings[pool[order[best_rank]]] if best_rank >= 0 else "",
                      best, int(min(best, left)))
            with search.lock:
                search.tick()
    finally:
        token.cancel()
    return Result(history, best, best_plan) if best_plan is not None else Result(history, -1, None)


def keep(search: Search, cands: np.ndarray, learnt: tuple[Learnt, ...]) -> None:
    """Keep in the caches here the classes a worker solved exactly while trying a guess of the set
    ``cands`` (each given by its history, whose last step names the guess and feedback)."""
    for child, depth, cost, guess in learnt:
        tried, feedback = child[-1]
        sub = cands[search.table[tried, cands] == feedback]  # as split orders it: ascending
        if len(sub) > SMALL:
            with search.lock:
                search.cache = search.kernels.remember(search.cache, sub,
                                                       search.pools.allowed(child), depth, cost,
                                                       cost, guess, -1)


def _show(search: Search, tried: int, count: int, code: str, best: int, lower: int) -> None:
    assert search.status is not None
    label = "first guesses" if not search.following else "guesses"
    search.status(Progress(tried - 1, count, code, 0, 0, best if best < INFEASIBLE // 2 else None,
                           lower, time.monotonic() - search.started, peak_memory(), label=label,
                           side_by_side=True))
