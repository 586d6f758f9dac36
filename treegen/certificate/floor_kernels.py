"""The checker's compiled kernels: one-step bounds of many small classes over many guesses, and
the sizes of a set's classes under many guesses.

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
#: Guesses whose answers are or-ed together (:func:`_estimates`).
ESTIMATED_TOGETHER = 512
#: Guesses counted in full together (:func:`_least_value`): each secret's row is read once for
#: all of them, rather than each guess's column once per guess.
TOGETHER = 128


@njit(cache=True, nogil=True)
def _parts(mask: np.uint64) -> int:
    """The bits set in ``mask``: how many answers a guess gets from a class."""
    x = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def answer_counts(scores: np.ndarray, answers: int) -> np.ndarray:
    """How many secrets (rows of ``scores``) give each answer to each guess (a column): a row
    a guess, ``answers`` long."""
    secrets, guesses = scores.shape
    counts = np.zeros((guesses, answers), dtype=np.int64)
    for h in range(guesses):
        for j in range(secrets):
            counts[h, scores[j, h]] += 1
    return counts


@njit(cache=True, nogil=True)
def _least_value(rows: np.ndarray, which: np.ndarray, lo: int, n: int, guesses: np.ndarray,
                 m: int, mine: np.ndarray, k: int, solved: int, level: np.ndarray,
                 tally: np.ndarray, best: int) -> int:
    """The least of ``best`` and the one-step bounds of ``guesses[:m]`` on one class (secrets
    ``lo`` to ``lo + n``; ``mine``: the class each code is a secret of, ``k`` this one's): the
    class's size and level filling of each class of its answers, a guess outside the class that
    splits nothing left out. ``tally`` is all zeros before and after."""
    for j in range(lo, lo + n):
        row = rows[which[j]]
        for i in range(m):
            tally[i, row[guesses[i]]] += 1
    for i in range(m):
        value = n
        most = 0
        for a in range(tally.shape[1]):
            c = tally[i, a]
            most = max(most, c)
            if a != solved:
                value += level[c]
            tally[i, a] = 0
        if mine[guesses[i]] == k or most < n:  # a guess outside that splits nothing is no bound
            best = min(best, value)
    return best


@njit(cache=True, nogil=True)
def _estimates(rows: np.ndarray, which: np.ndarray, lo: int, n: int, outside: np.ndarray,
               estimate: np.ndarray, masks: np.ndarray) -> None:
    """Each guess's least bound on the class from the answers it gets (``outside``, by their
    count): the answers or-ed as bits (``masks`` of 32 or 64 bits, by the answers) for a block
    of guesses at a time, four secrets' rows at once, so that the block's masks stay in the
    first-level cache and each is read and written once per four secrets."""
    one = masks.dtype.type(1)
    quads = lo + n - n % 4
    guesses = rows.shape[1]
    for start in range(0, guesses, len(masks)):
        m = min(len(masks), guesses - start)
        masks[:m] = 0
        for j in range(lo, quads, 4):
            r0 = rows[which[j], start:start + m]
            r1 = rows[which[j + 1], start:start + m]
            r2 = rows[which[j + 2], start:start + m]
            r3 = rows[which[j + 3], start:start + m]
            for i in range(m):
                masks[i] |= (one << masks.dtype.type(r0[i])) | (one << masks.dtype.type(r1[i])) \
                    | (one << masks.dtype.type(r2[i])) | (one << masks.dtype.type(r3[i]))
        for j in range(quads, lo + n):
            r0 = rows[which[j], start:start + m]
            for i in range(m):
                masks[i] |= one << masks.dtype.type(r0[i])
        for i in range(m):
            estimate[start + i] = outside[_parts(np.uint64(masks[i]))]


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
    narrow = np.empty(ESTIMATED_TOGETHER if answers <= 32 else 0, dtype=np.uint32)
    wide = np.empty(ESTIMATED_TOGETHER if 32 < answers <= 64 else 0, dtype=np.uint64)
    seen = np.full(answers, -1, dtype=np.int64)
    counts = np.zeros(answers, dtype=np.int64)
    waiting_at = np.empty(max(TOGETHER, FIRST_COUNTED), dtype=np.int64)
    tally = np.zeros((len(waiting_at), answers), dtype=np.int64)
    lo = 0
    for k in range(len(sizes)):
        n = sizes[k]
        for j in range(lo, lo + n):
            owner[flat[j]] = k
        # each guess outside the class by how many answers it gets (never the solved one)
        if answers <= 32:  # a bit per answer, or-ed over the class's secrets
            _estimates(rows, which, lo, n, outside[n], estimate, narrow)
        elif answers <= 64:
            _estimates(rows, which, lo, n, outside[n], estimate, wide)
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
            waiting = 0
            for h in range(guesses):
                if estimate[h] == lowest and waiting < FIRST_COUNTED:
                    waiting_at[waiting] = h
                    waiting += 1
            best = _least_value(rows, which, lo, n, waiting_at, waiting, owner, k, solved, level,
                                tally, INFINITE)
            waiting = 0
            for h in range(guesses):
                if estimate[h] < best:
                    waiting_at[waiting] = h
                    waiting += 1
                    if waiting == TOGETHER:
                        best = _least_value(rows, which, lo, n, waiting_at, waiting, owner, k,
                                            solved, level, tally, best)
                        waiting = 0
            best = _least_value(rows, which, lo, n, waiting_at, waiting, owner, k, solved, level,
                                tally, best)
        out[k] = best
        lo += n
    return out


@njit(cache=True, nogil=True)
def inside_bounds(rows: np.ndarray, which: np.ndarray, flat: np.ndarray, sizes: np.ndarray,
                  solved: int, answers: int, level: np.ndarray) -> np.ndarray:
    """The least one-step bound of each class's own secrets as guesses (n^2 answers a class)."""
    out = np.empty(len(sizes), dtype=np.int64)
    owner = np.full(rows.shape[1], -1, dtype=np.int64)
    waiting_at = np.empty(TOGETHER, dtype=np.int64)
    tally = np.zeros((TOGETHER, answers), dtype=np.int64)
    lo = 0
    for k in range(len(sizes)):
        n = sizes[k]
        for j in range(lo, lo + n):
            owner[flat[j]] = k
        best = INFINITE
        for at in range(lo, lo + n, TOGETHER):
            m = min(TOGETHER, lo + n - at)
            waiting_at[:m] = flat[at:at + m]
            best = _least_value(rows, which, lo, n, waiting_at, m, owner, k, solved, level, tally,
                                best)
        out[k] = best
        lo += n
    return out
