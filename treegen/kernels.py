"""Compiled inner loops of the exact search (numba; compiled once, then cached on disk).

The optimal search visits millions of small candidate sets; scoring each guess against each set in
numpy would spend its time on call overhead and temporaries, so these loops run as machine code.
Every set is an ascending array of code indices. ``lbt[k, row, m]`` is the level-filling bound of
:mod:`treegen.optimal` for m secrets when no guess splits them into more than k non-solved classes
(row 0: unlimited depth; row d + 1: d guesses left). Since a subset never splits into more classes
than its superset under the same guess, the k measured on a set bounds every set below it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from .bounds import INFEASIBLE

Array = np.ndarray
_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(func: _F) -> _F:
    """``numba.njit`` with an on-disk cache and the GIL released, keeping the Python signature for
    type checkers (numba itself ships no types)."""
    return cast(_F, njit(cache=True, nogil=True)(func))


@compiled
def _lb(lbt: Array, k: int, depth: int, m: int) -> int:
    bound: int = lbt[k, depth + 1, m] if depth >= 0 else lbt[k, 0, m]
    return bound


@compiled
def _level_row(lbt: Array, k: int, depth: int) -> Array:
    """The level-filling bounds for every set size at one branching and depth limit."""
    row: Array = lbt[k, depth + 1] if depth >= 0 else lbt[k, 0]
    return row


@njit(cache=True, nogil=True, inline="always")
def _count(row: Array, cands: Array, counts: Array, spare: Array) -> None:
    """Add the class sizes of ``cands`` under one guess (``row`` of the score table) to ``counts``.

    Large sets count into four interleaved tallies (``spare``, zeroed, 4 x nfb), so consecutive
    candidates in the same class do not wait on each other's memory write.
    """
    n = len(cands)
    if n < 24:
        for j in range(n):
            counts[row[cands[j]]] += 1
        return
    quads = n - n % 4
    for j in range(0, quads, 4):
        spare[0, row[cands[j]]] += 1
        spare[1, row[cands[j + 1]]] += 1
        spare[2, row[cands[j + 2]]] += 1
        spare[3, row[cands[j + 3]]] += 1
    for j in range(quads, n):
        counts[row[cands[j]]] += 1
    for f in range(len(counts)):
        counts[f] += spare[0, f] + spare[1, f] + spare[2, f] + spare[3, f]
        spare[0, f] = 0
        spare[1, f] = 0
        spare[2, f] = 0
        spare[3, f] = 0


@compiled
def guess_bounds(table: Array, pool: Array, cands: Array, nfb: int, solved: int, lbt: Array,
                 depth: int) -> tuple[Array, Array, int]:
    """One-step bound of every guess in ``pool``: |S| + sum of lower bounds of its classes.

    Also returns whether each guess is itself a possible secret, and the most non-solved classes
    any guess makes (the branching that bounds every set below this one). The loops are
    branch-free: an empty class adds the bound of no secrets, 0.
    """
    n = len(cands)
    sizes = np.zeros((len(pool), nfb), dtype=np.int64)
    spare = np.zeros((4, nfb), dtype=np.int64)
    widest = 1
    for i in range(len(pool)):
        counts = sizes[i]
        _count(table[pool[i]], cands, counts, spare)
        parts = 0
        for f in range(nfb):
            parts += counts[f] > 0
        widest = max(widest, parts - (counts[solved] > 0))
    level = _level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    bounds = np.empty(len(pool), dtype=np.int64)
    possible = np.empty(len(pool), dtype=np.bool_)
    for i in range(len(pool)):
        counts = sizes[i]
        total = n - level[counts[solved]]
        for f in range(nfb):
            total += level[counts[f]]
        bounds[i] = min(total, INFEASIBLE)
        possible[i] = counts[solved] > 0
    return bounds, possible, widest


@compiled
def search_order(bounds: Array, possible: Array, pool: Array, limit: int) -> Array:
    """Indices into ``pool`` of guesses whose bound is within ``limit``, best first.

    Order: bound, then possible secrets, then enumeration index (pool is ascending). Bounds span
    a narrow range, so a stable bucket sort does it in linear time.
    """
    lo, hi, count = INFEASIBLE, 0, 0
    for i in range(len(pool)):
        if bounds[i] <= limit:
            count += 1
            lo = min(lo, bounds[i])
            hi = max(hi, bounds[i])
    if count == 0:
        return np.empty(0, dtype=np.int64)
    if hi - lo > 4 * len(pool) + 64:  # too wide a range for buckets: sort
        keep = np.flatnonzero(bounds <= limit)
        keys = np.empty(len(keep), dtype=np.int64)
        span = 2 * (pool[-1] + 1)
        for k in range(len(keep)):
            i = keep[k]
            keys[k] = (bounds[i] - lo) * span + (0 if possible[i] else span // 2) + pool[i]
        return keep[np.argsort(keys, kind="mergesort")]
    slots = np.zeros(2 * (hi - lo + 1) + 1, dtype=np.int64)
    for i in range(len(pool)):
        if bounds[i] <= limit:
            slots[2 * (bounds[i] - lo) + (0 if possible[i] else 1) + 1] += 1
    for k in range(1, len(slots)):
        slots[k] += slots[k - 1]
    order = np.empty(count, dtype=np.int64)
    for i in range(len(pool)):
        if bounds[i] <= limit:
            k = 2 * (bounds[i] - lo) + (0 if possible[i] else 1)
            order[slots[k]] = i
            slots[k] += 1
    return order


@compiled
def split(table: Array, guess: int, cands: Array, nfb: int, solved: int
          ) -> tuple[Array, Array, Array]:
    """The candidate classes of a guess: (candidates grouped by feedback, class starts, class
    feedbacks). A stable counting sort, so each class stays ascending; classes largest first, ties
    by feedback (the compiled search solves them in this order, where the order made no measurable
    difference; the top levels take them smallest first); the solved class is left out."""
    n = len(cands)
    row = table[guess]
    start = np.zeros(nfb + 1, dtype=np.int64)
    for j in range(n):
        start[row[cands[j]] + 1] += 1
    count = 0
    for f in range(nfb):
        if f != solved and start[f + 1] > 0:
            count += 1
        start[f + 1] += start[f]
    ordered = np.empty(n, dtype=np.int64)
    place = start[:nfb].copy()
    for j in range(n):
        f = row[cands[j]]
        ordered[place[f]] = cands[j]
        place[f] += 1
    keys = np.empty(count, dtype=np.int64)
    c = 0
    for f in range(nfb):
        if f != solved and start[f + 1] > start[f]:
            keys[c] = -(start[f + 1] - start[f]) * (nfb + 1) + f
            c += 1
    keys.sort()
    classes = np.empty(count, dtype=np.int64)
    for c in range(count):
        classes[c] = keys[c] % (nfb + 1)  # floor modulo: the feedback back from a negative key
    return ordered, start, classes


@compiled
def free_pool(codes: Array, used: Array, cands: Array) -> Array:
    """Codes that are first in their class of equivalent guesses on ``cands``, ascending.

    Two kinds of symbols are interchangeable: those no earlier guess used (a symmetry of the game
    that keeps every answer so far) and those no candidate holds (they score nothing against any
    candidate, so a guess may use any of them alike). When the kinds share a symbol, all of them
    are interchangeable together. Only codes whose interchangeable symbols appear in order of
    their rank, smallest first, need scoring: the first code of each class.
    """
    nsym = len(used)
    present = np.zeros(nsym, dtype=np.bool_)
    for j in range(len(cands)):
        for p in range(codes.shape[1]):
            present[codes[cands[j], p]] = True
    merged = False
    for s in range(nsym):
        if not used[s] and not present[s]:
            merged = True
    group = np.full(nsym, -1, dtype=np.int64)  # 0: unused, 1: absent (0 for both when merged)
    rank = np.zeros(nsym, dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    for s in range(nsym):
        g = 0 if not used[s] else 1 if not present[s] else -1
        if g == 1 and merged:
            g = 0
        if g >= 0:
            group[s] = g
            rank[s] = counts[g]
            counts[g] += 1
    keep = np.zeros(len(codes), dtype=np.bool_)
    for i in range(len(codes)):
        nxt0 = 0  # symbols of each kind seen so far: those of lower rank
        nxt1 = 0
        ok = True
        for p in range(codes.shape[1]):
            s = codes[i, p]
            g = group[s]
            if g < 0:
                continue
            nxt = nxt0 if g == 0 else nxt1
            if rank[s] < nxt:
                continue
            if rank[s] != nxt:
                ok = False
                break
            if g == 0:
                nxt0 += 1
            else:
                nxt1 += 1
        keep[i] = ok
    return np.flatnonzero(keep)


@compiled
def with_guess(used: Array, codes: Array, guess: int) -> Array:
    out: Array = used.copy()
    for p in range(codes.shape[1]):
        out[codes[guess, p]] = True
    return out


@compiled
def solve_small(table: Array, cands: Array, budget: int, depth: int, nfb: int, solved: int,
                lbt: Array, codes: Array, used: Array, widest: int) -> tuple[int, int]:
    """Exact cost of a small set if it is at most ``budget`` (else -1), and the canonical guess.

    ``used`` marks the symbols of the guesses so far; ``widest`` is the branching of an enclosing
    set. Returns (cost, guess).
    """
    n = len(cands)
    if n == 0:
        return 0, -1
    if depth == 0:
        return -1, -1
    if n == 1:
        return (1, cands[0]) if budget >= 1 else (-1, -1)
    if _lb(lbt, widest, depth, n) > budget:
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
    pool = free_pool(codes, used, cands)
    bounds, possible, widest = guess_bounds(table, pool, cands, nfb, solved, lbt, depth)
    order = search_order(bounds, possible, pool, budget)
    best = budget + 1
    best_guess = -1
    for k in range(len(order)):
        i = order[k]
        if bounds[i] >= best:
            break
        limit = best - 1
        guess = pool[i]
        ordered, start, classes = split(table, guess, cands, nfb, solved)
        rest = bounds[i] - n
        total = n
        ok = True
        after = with_guess(used, codes, guess)
        for c in range(len(classes)):
            f = classes[c]
            sub = ordered[start[f]:start[f + 1]]
            rest -= _lb(lbt, widest, child_depth, len(sub))
            cost, _ = solve_small(table, sub, limit - total - rest, child_depth, nfb, solved, lbt, codes,
                                  after, widest)
            if cost < 0:
                ok = False
                break
            total += cost
        if ok:
            best = total
            best_guess = guess
    if best_guess < 0:
        return -1, -1
    return best, best_guess


@compiled
def set_bound(table: Array, cands: Array, nfb: int, solved: int, lbt: Array, depth: int,
              pool: Array, widest: int) -> int:
    """The best one-step bound any guess of ``pool`` achieves on a set: a sharper floor than level
    filling. ``widest`` is the branching of an enclosing set. Possible secrets are tried first; the
    scan stops at the level-filling floor, which no guess can beat.
    """
    n = len(cands)
    floor = _lb(lbt, widest, depth, n)
    if n <= 2:
        return floor
    level = _level_row(lbt, widest, depth - 1 if depth >= 0 else -1)
    sizes = np.zeros(nfb, dtype=np.int64)
    spare = np.zeros((4, nfb), dtype=np.int64)
    best = INFEASIBLE
    for k in range(n + len(pool)):
        _count(table[cands[k] if k < n else pool[k - n]], cands, sizes, spare)
        total = n - level[sizes[solved]]
        for f in range(nfb):
            total += level[sizes[f]]
            sizes[f] = 0
        if total < best:
            best = total
            if best <= floor:
                break
    return best


@compiled
def class_bounds(table: Array, guess: int, ordered: Array, start: Array, classes: Array, nfb: int,
                 solved: int, lbt: Array, depth: int, codes: Array, used: Array, widest: int,
                 limit: int) -> tuple[Array, bool]:
    """Floors of the classes of a guess (set_bound each), largest class first.

    Stops as soon as the floors, with level filling for the classes not yet looked at, exceed
    ``limit``; then returns (floors so far, False).
    """
    count = len(classes)
    out = np.empty(count, dtype=np.int64)
    rest = 0
    for c in range(count):
        f = classes[c]
        out[c] = _lb(lbt, widest, depth, start[f + 1] - start[f])
        rest += out[c]
    if rest > limit:
        return out, False
    after = with_guess(used, codes, guess)
    for c in range(count):
        f = classes[c]
        sub = ordered[start[f]:start[f + 1]]
        if len(sub) > 2:
            pool = free_pool(codes, after, sub)
            sharper = max(out[c], set_bound(table, sub, nfb, solved, lbt, depth, pool, widest))
            rest += sharper - out[c]
            out[c] = sharper
            if rest > limit:
                return out, False
    return out, True
