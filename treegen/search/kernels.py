"""Compiled building blocks of the exact search (numba; compiled once, then cached on disk).

The optimal search visits millions of small candidate sets; scoring each guess against each set in
numpy would spend its time on call overhead and temporaries, so these loops run as machine code:
here the order, classes and symmetry of guesses; the bounds are in :mod:`treegen.search.floors`, the
search itself in :mod:`treegen.search.branch_bound`. Every set is an ascending array of code indices.
``lbt[k, row, m]`` is the level-filling bound of :mod:`treegen.search.bounds` for m secrets when no guess
splits them into more than k non-solved classes (row 0: unlimited depth; row d + 1: d guesses
left). Since a subset never splits into more classes than its superset under the same guess, the
k measured on a set bounds every set below it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from treegen.rules.symmetry_kernels import first_of_classes
from treegen.search.bounds import INFEASIBLE
from treegen.search.context import MEMO_SYMBOLS, Context

Array = np.ndarray
_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(func: _F) -> _F:
    """``numba.njit`` with an on-disk cache and the GIL released, keeping the Python signature for
    type checkers (numba itself ships no types)."""
    return cast(_F, njit(cache=True, nogil=True)(func))


@compiled
def level_bound(lbt: Array, k: int, depth: int, m: int) -> int:
    """The level-filling bound of m secrets at one branching and depth limit."""
    bound: int = lbt[k, depth + 1, m] if depth >= 0 else lbt[k, 0, m]
    return bound


@compiled
def level_row(lbt: Array, k: int, depth: int) -> Array:
    """The level-filling bounds for every set size at one branching and depth limit."""
    row: Array = lbt[k, depth + 1] if depth >= 0 else lbt[k, 0]
    return row


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
def split(context: Context, guess: int, cands: Array) -> tuple[Array, Array, Array]:
    """The candidate classes of a guess: (candidates grouped by feedback, class starts, class
    feedbacks). A stable counting sort, so each class stays ascending; classes largest first, ties
    by feedback (the compiled search solves them in this order, where the order made no measurable
    difference; the top levels take them smallest first); the solved class is left out."""
    n, nfb, solved = len(cands), context.nfb, context.solved
    row = context.table[guess]
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
def fitting(context: Context, guess: int, allowed: Array, classes: Array) -> tuple[Array, Array]:
    """The guesses hard mode allows after each answer to ``guess``, as slices by feedback
    (``fits[start[f]:start[f + 1]]``). Under the strict rule they are the allowed guesses grouped
    as :func:`split` groups the candidates; when ``hints`` holds the guesses' letters (Wordle's
    own rule, see :mod:`treegen.rules.hard_mode`), each class of ``classes`` takes every group
    whose feedback keeps its hints, so one guess may be allowed after several answers."""
    ordered, start, _ = split(context, guess, allowed)
    hints, nfb = context.hints, context.nfb
    if len(hints) == 0:
        return ordered, start
    green, marks = tile_marks(hints[guess], nfb)
    guard = np.int64(0)
    for p in range(hints.shape[1]):
        guard |= np.int64(8) << np.int64(4 * p)
    present = np.empty(nfb, dtype=np.int64)  # the feedbacks some allowed guess gets
    count = 0
    for p in range(nfb):
        if start[p + 1] > start[p]:
            present[count] = p
            count += 1
    sizes = np.zeros(nfb + 1, dtype=np.int64)
    for c in range(len(classes)):
        f = classes[c]
        for k in range(count):
            p = present[k]
            if _keeps(green, marks, guard, f, p):
                sizes[f + 1] += start[p + 1] - start[p]
    for f in range(nfb):
        sizes[f + 1] += sizes[f]
    fits = np.empty(sizes[nfb], dtype=np.int64)
    row = context.table[guess]
    take = np.zeros(nfb, dtype=np.bool_)
    for c in range(len(classes)):
        f = classes[c]
        at, groups = sizes[f], 0
        for k in range(count):
            p = present[k]
            if _keeps(green, marks, guard, f, p):
                take[p] = True
                groups += 1
        if groups > 1 and 8 * (sizes[f + 1] - at) > len(allowed):
            # a large union of groups: one pass over the allowed guesses keeps it ascending
            for j in range(len(allowed)):
                if take[row[allowed[j]]]:
                    fits[at] = allowed[j]
                    at += 1
        else:  # a group is ascending; a small union of them is sorted once
            for k in range(count):
                p = present[k]
                if take[p]:
                    size = start[p + 1] - start[p]
                    fits[at:at + size] = ordered[start[p]:start[p + 1]]
                    at += size
            if groups > 1:
                fits[sizes[f]:at].sort()
        for k in range(count):
            take[present[k]] = False
    return fits, sizes


@njit(cache=True, nogil=True, inline="always")
def _keeps(green: Array, marks: Array, guard: int, answer: int, feedback: int) -> bool:
    """Whether tiles ``feedback`` keep the hints of ``answer`` (see :func:`tile_marks`): every
    green still green, and each letter's marks as many, all 4-bit fields compared at once."""
    return bool((green[answer] & ~green[feedback]) == 0 and
                (((marks[feedback] | guard) - marks[answer]) & guard) == guard)


@compiled
def tile_marks(letters: Array, nfb: int) -> tuple[Array, Array]:
    """Of every feedback to a guess of ``letters`` (Wordle's tiles in base 3, grey 0, yellow 1,
    green 2, the last position least significant): its greens as a bit mask, and how many green
    or yellow tiles each letter has, in a 4-bit field at the letter's first position."""
    length = len(letters)
    first = np.arange(length)
    for p in range(length):
        for q in range(p):
            if letters[q] == letters[p]:
                first[p] = q
                break
    green = np.zeros(nfb, dtype=np.int64)
    marks = np.zeros(nfb, dtype=np.int64)
    for f in range(nfb):
        rest = f
        for p in range(length - 1, -1, -1):
            tile = rest % 3
            rest //= 3
            if tile == 2:
                green[f] |= np.int64(1) << np.int64(p)
            if tile > 0:
                marks[f] += np.int64(1) << np.int64(4 * first[p])
    return green, marks


@compiled
def free_pool(codes: Array, used: Array, cands: Array, memo: Array) -> Array:
    """Codes that are first in their class of equivalent guesses on ``cands``, ascending: only
    they need scoring (see :func:`treegen.rules.symmetry_kernels.first_of_classes`; ``used``:
    the symbols earlier guesses used). The pool hangs on the symbols used and those the set
    holds alone, and a search meets few such pairs, so the last pools found are kept in
    ``memo`` (:attr:`Context.pools`; no rows: none kept) rather than found again from every
    code, for every class of every guess tried."""
    nsym = len(used)
    present = np.zeros(nsym, dtype=np.bool_)
    for j in range(len(cands)):
        for p in range(codes.shape[1]):
            present[codes[cands[j], p]] = True
    slot = -1
    used_bits, present_bits = 0, 0
    if memo.shape[0] > 0 and nsym <= MEMO_SYMBOLS:
        for k in range(nsym):
            used_bits |= np.int64(used[k]) << k
            present_bits |= np.int64(present[k]) << k
        slot = ((used_bits << MEMO_SYMBOLS) | present_bits) % memo.shape[0]  # rows: a prime
        if memo[slot, 2] >= 0 and memo[slot, 0] == used_bits and memo[slot, 1] == present_bits:
            kept: Array = memo[slot, 3:3 + memo[slot, 2]].copy()
            return kept
    out = np.empty(len(codes), dtype=np.int64)
    count = first_of_classes(codes, used, present, out)
    if count < 0:  # no two symbols interchangeable: every code counts
        count = len(codes)
        for c in range(count):
            out[c] = c
    if slot >= 0:
        memo[slot, 0], memo[slot, 1], memo[slot, 2] = used_bits, present_bits, count
        memo[slot, 3:3 + count] = out[:count]
    return out[:count]


@compiled
def with_guess(used: Array, codes: Array, guess: int) -> Array:
    out: Array = used.copy()
    for p in range(codes.shape[1]):
        out[codes[guess, p]] = True
    return out
