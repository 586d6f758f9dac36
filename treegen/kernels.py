"""Compiled inner loops of the exact search (numba; compiled once, then cached on disk).

The optimal search visits millions of small candidate sets; scoring each guess against each set in
numpy would spend its time on call overhead and temporaries, so these loops run as machine code.
Every set is an ascending int32 array of code indices; ``lbt`` is the level-filling bound table of
:mod:`treegen.optimal` (row 0 unlimited depth, row d + 1 for d guesses left).
"""

from __future__ import annotations

import numpy as np
from numba import njit

INFEASIBLE = 1 << 40


@njit(cache=True, nogil=True)
def _lb(lbt, depth, m):
    return lbt[depth + 1, m] if depth >= 0 else lbt[0, m]


@njit(cache=True, nogil=True)
def guess_bounds(table, pool, cands, nfb, solved, lbt, depth):
    """One-step bound of every guess in ``pool``: |S| + sum of lower bounds of its classes.

    Also returns whether each guess is itself a possible secret.
    """
    n = len(cands)
    child = depth - 1 if depth >= 0 else -1
    bounds = np.empty(len(pool), dtype=np.int64)
    possible = np.zeros(len(pool), dtype=np.bool_)
    sizes = np.zeros(nfb, dtype=np.int64)
    for i in range(len(pool)):
        row = table[pool[i]]
        sizes[:] = 0
        for j in range(n):
            sizes[row[cands[j]]] += 1
        total = n
        for f in range(nfb):
            if f != solved and sizes[f] > 0:
                total += _lb(lbt, child, sizes[f])
        bounds[i] = min(total, INFEASIBLE)
        possible[i] = sizes[solved] > 0
    return bounds, possible


@njit(cache=True, nogil=True)
def search_order(bounds, possible, pool, limit):
    """Indices into ``pool`` of guesses whose bound is within ``limit``, best first.

    Order: bound, then possible secrets, then enumeration index (pool is ascending).
    """
    keep = np.flatnonzero(bounds <= limit)
    keys = np.empty(len(keep), dtype=np.int64)
    span = 2 * (pool[-1] + 1) if len(pool) else 1
    for k in range(len(keep)):
        i = keep[k]
        keys[k] = bounds[i] * span + (0 if possible[i] else span // 2) + pool[i]
    return keep[np.argsort(keys, kind="mergesort")]


@njit(cache=True, nogil=True)
def split(table, guess, cands, nfb, solved):
    """The candidate classes of a guess: (order of candidates, class starts, class feedbacks),
    classes sorted by size, largest first (so a hopeless guess fails early); the solved class is left out."""
    n = len(cands)
    row = table[guess]
    fb = np.empty(n, dtype=np.int64)
    for j in range(n):
        fb[j] = row[cands[j]]
    order = np.argsort(fb, kind="mergesort")
    sizes = np.zeros(nfb, dtype=np.int64)
    for j in range(n):
        sizes[fb[j]] += 1
    start = np.zeros(nfb + 1, dtype=np.int64)
    for f in range(nfb):
        start[f + 1] = start[f] + sizes[f]
    count = 0
    for f in range(nfb):
        if f != solved and sizes[f] > 0:
            count += 1
    classes = np.empty(count, dtype=np.int64)
    c = 0
    for f in range(nfb):
        if f != solved and sizes[f] > 0:
            classes[c] = f
            c += 1
    # largest first; ties by feedback index for determinism
    keys = np.empty(count, dtype=np.int64)
    for c in range(count):
        keys[c] = -sizes[classes[c]] * (nfb + 1) + classes[c]
    classes = classes[np.argsort(keys, kind="mergesort")]
    return cands[order], start, classes


@njit(cache=True, nogil=True)
def solve_small(table, cands, budget, depth, nfb, solved, lbt, ncodes):
    """Exact cost of a small set if it is at most ``budget`` (else -1), and the canonical guess.

    Every code may be guessed. Returns (cost, guess).
    """
    n = len(cands)
    if n == 0:
        return 0, -1
    if depth == 0:
        return -1, -1
    if n == 1:
        return (1, cands[0]) if budget >= 1 else (-1, -1)
    if _lb(lbt, depth, n) > budget:
        return -1, -1
    if n == 2:
        if depth == 1:
            return -1, -1
        return (3, cands[0]) if budget >= 3 else (-1, -1)
    child_depth = depth - 1 if depth >= 0 else -1
    # a possible secret that splits the rest into singletons is optimal (2n - 1) and first in order
    if depth != 1:
        sizes = np.zeros(nfb, dtype=np.int64)
        for i in range(n):
            row = table[cands[i]]
            sizes[:] = 0
            perfect = True
            for j in range(n):
                f = row[cands[j]]
                sizes[f] += 1
                if sizes[f] > 1:
                    perfect = False
                    break
            if perfect:
                return (2 * n - 1, cands[i]) if budget >= 2 * n - 1 else (-1, -1)
    pool = np.arange(ncodes)
    bounds, possible = guess_bounds(table, pool, cands, nfb, solved, lbt, depth)
    order = search_order(bounds, possible, pool, budget)
    best = budget + 1
    best_guess = -1
    for k in range(len(order)):
        i = order[k]
        if bounds[i] >= best:
            break
        limit = best - 1
        ordered, start, classes = split(table, pool[i], cands, nfb, solved)
        rest = bounds[i] - n
        total = n
        ok = True
        for c in range(len(classes)):
            f = classes[c]
            sub = ordered[start[f]:start[f + 1]]
            sub = np.sort(sub)
            rest -= _lb(lbt, child_depth, len(sub))
            cost, _ = solve_small(table, sub, limit - total - rest, child_depth, nfb, solved, lbt, ncodes)
            if cost < 0:
                ok = False
                break
            total += cost
        if ok:
            best = total
            best_guess = pool[i]
    if best_guess < 0:
        return -1, -1
    return best, best_guess
