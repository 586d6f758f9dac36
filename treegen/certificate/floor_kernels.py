"""The checker's compiled kernels: one-step bounds of many small classes over many guesses.

A certificate names none of the classes the search refuted by their one-step floors, so the
checker counts those floors itself, over every code for each class: most of a large check's time.
These loops are the checker's own (they share nothing with the search's kernels); every class is
given as rows of answers, ``rows[which[j], h]`` being secret ``flat[j]``'s answer to guess ``h``,
so the same kernel reads the whole score table or a block scored for a few classes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treegen.certificate.rules import INFINITE

#: Guesses of the lowest estimate a class counts in full before the others.
FIRST_COUNTED = 64


@njit(cache=True, nogil=True)
def _parts(mask: np.uint64) -> int:
    """The bits set in ``mask``: how many answers a guess gets from a class."""
    x = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def _value(rows: np.ndarray, which: np.ndarray, lo: int, n: int, guess: int,
           inside: bool, solved: int, level: np.ndarray, counts: np.ndarray) -> int:
    """One guess's one-step bound on one class (secrets ``lo`` to ``lo + n``), counted in full:
    the class's size and level filling of each class of its answers; infinite for a guess outside
    the class that splits nothing. ``counts`` is all zeros before and after."""
    for j in range(lo, lo + n):
        counts[rows[which[j], guess]] += 1
    value = n
    most = 0
    for a in range(len(counts)):
        c = counts[a]
        most = max(most, c)
        if a != solved:
            value += level[c]
        counts[a] = 0
    if not inside and most == n:
        return INFINITE
    return value


@njit(cache=True, nogil=True)
def _or_answers(rows: np.ndarray, which: np.ndarray, lo: int, n: int,
                masks: np.ndarray) -> None:
    """Each guess's answers from the class as bits (``masks`` of 32 or 64 bits, by the answers)."""
    masks[:] = 0
    for j in range(lo, lo + n):
        row = rows[which[j]]
        for h in range(len(masks)):
            masks[h] |= masks.dtype.type(1) << masks.dtype.type(row[h])


@njit(cache=True, nogil=True)
def least_bounds(rows: np.ndarray, which: np.ndarray, flat: np.ndarray, sizes: np.ndarray,
                 solved: int, answers: int, level: np.ndarray, outside: np.ndarray,
                 inside: np.ndarray) -> np.ndarray:
    """The least one-step bound of every guess (a column of ``rows``) on each class: each
    guess's bound from its count of answers first (``outside[n, p]``, ``inside[n, p]``: the
    least a guess outside the class, or in it, making p classes of n secrets reaches), then,
    where level filling is not 2c - 1 throughout, in full for the guesses whose estimate is below
    the best found, lowest estimates first."""
    guesses = rows.shape[1]
    out = np.empty(len(sizes), dtype=np.int64)
    owner = np.full(guesses, -1, dtype=np.int64)
    estimate = np.empty(guesses, dtype=np.int64)
    narrow = np.empty(guesses if answers <= 32 else 0, dtype=np.uint32)
    wide = np.empty(guesses if 32 < answers <= 64 else 0, dtype=np.uint64)
    seen = np.full(answers, -1, dtype=np.int64)
    counts = np.zeros(answers, dtype=np.int64)
    lo = 0
    for k in range(len(sizes)):
        n = sizes[k]
        for j in range(lo, lo + n):
            owner[flat[j]] = k
        # each guess outside the class by how many answers it gets (never the solved one)
        if answers <= 32:  # a bit per answer, or-ed over the class's secrets
            _or_answers(rows, which, lo, n, narrow)
            for h in range(guesses):
                estimate[h] = outside[n, _parts(np.uint64(narrow[h]))]
        elif answers <= 64:
            _or_answers(rows, which, lo, n, wide)
            for h in range(guesses):
                estimate[h] = outside[n, _parts(wide[h])]
        else:  # many answers: each guess's answers told apart by a stamp
            for h in range(guesses):
                parts = 0
                stamp = k * guesses + h
                for j in range(lo, lo + n):
                    a = rows[which[j], h]
                    if seen[a] != stamp:
                        seen[a] = stamp
                        parts += 1
                estimate[h] = outside[n, parts]
        for j in range(lo, lo + n):  # the class's own secrets as guesses: each finds itself
            h = flat[j]
            parts = 0
            for i in range(lo, lo + n):
                a = rows[which[i], h]
                if a != solved and counts[a] == 0:
                    parts += 1
                counts[a] = 1
            for i in range(lo, lo + n):
                counts[rows[which[i], h]] = 0
            estimate[h] = inside[n, parts]
        lowest = INFINITE
        for h in range(guesses):
            lowest = min(lowest, estimate[h])
        best = lowest
        if level[n] != 2 * n - 1:  # the count of answers is not the whole bound
            best = INFINITE
            counted = 0
            for h in range(guesses):
                if estimate[h] == lowest and counted < FIRST_COUNTED:
                    counted += 1
                    best = min(best, _value(rows, which, lo, n, h, owner[h] == k, solved, level,
                                            counts))
            for h in range(guesses):
                if estimate[h] < best:
                    best = min(best, _value(rows, which, lo, n, h, owner[h] == k, solved, level,
                                            counts))
        out[k] = best
        lo += n
    return out


@njit(cache=True, nogil=True)
def inside_bounds(rows: np.ndarray, which: np.ndarray, flat: np.ndarray, sizes: np.ndarray,
                  solved: int, answers: int, level: np.ndarray) -> np.ndarray:
    """The least one-step bound of each class's own secrets as guesses (n^2 answers a class)."""
    out = np.empty(len(sizes), dtype=np.int64)
    counts = np.zeros(answers, dtype=np.int64)
    lo = 0
    for k in range(len(sizes)):
        n = sizes[k]
        best = INFINITE
        for i in range(lo, lo + n):
            best = min(best, _value(rows, which, lo, n, flat[i], True, solved, level, counts))
        out[k] = best
        lo += n
    return out
