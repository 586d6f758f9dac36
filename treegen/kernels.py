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
def _class_sizes(table: Array, guesses: Array, cands: Array, nfb: int, solved: int
                 ) -> tuple[Array, int]:
    """Class sizes of the candidates under each guess, and the most non-solved classes any makes."""
    n = len(cands)
    sizes = np.zeros((len(guesses), nfb), dtype=np.int32)
    widest = 1
    for i in range(len(guesses)):
        row = table[guesses[i]]
        for j in range(n):
            sizes[i, row[cands[j]]] += 1
        parts = 0
        for f in range(nfb):
            if f != solved and sizes[i, f] > 0:
                parts += 1
        widest = max(widest, parts)
    return sizes, widest


@compiled
def guess_bounds(table: Array, pool: Array, cands: Array, nfb: int, solved: int, lbt: Array,
                 depth: int) -> tuple[Array, Array, int]:
    """One-step bound of every guess in ``pool``: |S| + sum of lower bounds of its classes.

    Also returns whether each guess is itself a possible secret, and the most non-solved classes
    any guess makes (the branching that bounds every set below this one).
    """
    n = len(cands)
    child = depth - 1 if depth >= 0 else -1
    sizes, widest = _class_sizes(table, pool, cands, nfb, solved)
    bounds = np.empty(len(pool), dtype=np.int64)
    possible = np.zeros(len(pool), dtype=np.bool_)
    for i in range(len(pool)):
        total = n
        for f in range(nfb):
            if f != solved and sizes[i, f] > 0:
                total += _lb(lbt, widest, child, sizes[i, f])
        bounds[i] = min(total, INFEASIBLE)
        possible[i] = sizes[i, solved] > 0
    return bounds, possible, widest


@compiled
def search_order(bounds: Array, possible: Array, pool: Array, limit: int) -> Array:
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


@compiled
def split(table: Array, guess: int, cands: Array, nfb: int, solved: int
          ) -> tuple[Array, Array, Array]:
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


@compiled
def free_pool(codes: Array, used: Array) -> Array:
    """Codes that are first in their class under permutations of the unused symbols, ascending.

    Symbols no earlier guess used are interchangeable, so only codes whose unused symbols are the
    smallest ones, in order of first appearance, need scoring (the first code of each class).
    """
    nsym = len(used)
    free_rank = np.full(nsym, -1, dtype=np.int64)
    r = 0
    for s in range(nsym):
        if not used[s]:
            free_rank[s] = r
            r += 1
    keep = np.zeros(len(codes), dtype=np.bool_)
    for i in range(len(codes)):
        nxt = 0
        ok = True
        seen = 0
        for p in range(codes.shape[1]):
            s = codes[i, p]
            k = free_rank[s]
            if k >= 0:
                if (seen >> k) & 1:
                    continue
                if k != nxt:
                    ok = False
                    break
                seen |= 1 << k
                nxt += 1
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
    pool = free_pool(codes, used)
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
            sub = np.sort(ordered[start[f]:start[f + 1]])
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
    child = depth - 1 if depth >= 0 else -1
    sizes = np.zeros(nfb, dtype=np.int64)
    best = INFEASIBLE
    for k in range(n + len(pool)):
        g = cands[k] if k < n else pool[k - n]
        row = table[g]
        sizes[:] = 0
        for j in range(n):
            sizes[row[cands[j]]] += 1
        total = n
        for f in range(nfb):
            if f != solved and sizes[f] > 0:
                total += _lb(lbt, widest, child, sizes[f])
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
    pool = free_pool(codes, with_guess(used, codes, guess))
    for c in range(count):
        f = classes[c]
        sub = ordered[start[f]:start[f + 1]]
        if len(sub) > 2:
            sharper = max(out[c], set_bound(table, sub, nfb, solved, lbt, depth, pool, widest))
            rest += sharper - out[c]
            out[c] = sharper
            if rest > limit:
                return out, False
    return out, True
