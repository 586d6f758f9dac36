"""Lower bounds on the total guesses a set of secrets needs, from the feedback alphabet alone.

A guess solves at most one secret and splits the rest into at most k non-solved classes, so the
best any tree can do with m secrets is "level filling": 1 secret found at depth 1, k at depth 2,
k^2 at depth 3, ... Every bound of the exact search starts from these tables.
"""

from __future__ import annotations

import numpy as np

#: A cost no tree reaches: a set that cannot be solved within the depth limit.
INFEASIBLE = 1 << 40
#: The depth argument of a search without a depth limit.
UNLIMITED = -1
#: Sets up to this size are solved without the cache and without sharper class floors.
SMALL = 12


def level_bounds(count: int, branches: int, depth: int = UNLIMITED) -> np.ndarray:
    """lb[m]: fewest total guesses for m secrets (depth-limited: INFEASIBLE when m cannot fit).

    Vectorised over m, one step per level, so the table of the largest games takes milliseconds.
    """
    m = np.arange(count + 1, dtype=np.int64)
    if branches <= 1:  # a chain: 1 + 2 + ... + m
        lb = m * (m + 1) // 2
        if depth != UNLIMITED:
            lb[m > depth] = INFEASIBLE
        return lb
    lb = np.zeros(count + 1, dtype=np.int64)
    placed, level, width = 0, 1, 1
    while placed < count:
        if depth != UNLIMITED and level > depth:
            lb[m > placed] = INFEASIBLE
            break
        lb += np.clip(m - placed, 0, width) * level
        placed += width
        level += 1
        width = min(width * branches, count)
    return lb


def bound_table(count: int, branches: int, max_depth: int | None) -> np.ndarray:
    """``[k, row, m]``: level filling with at most k branches; row 0 unlimited depth, row d + 1 for
    d guesses left."""
    rows = 2 + (max_depth or 0)
    table = np.empty((branches + 1, rows, count + 1), dtype=np.int64)
    for k in range(branches + 1):
        table[k, 0] = level_bounds(count, max(k, 1))
        for d in range(rows - 1):
            table[k, d + 1] = level_bounds(count, max(k, 1), d) if d else \
                np.r_[0, np.full(count, INFEASIBLE)]
    return table
