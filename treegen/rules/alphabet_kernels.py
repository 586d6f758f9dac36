"""The compiled walk of every code over an alphabet in enumeration order, each prefix's pegs
kept per secret (see :mod:`treegen.rules.alphabet_scores`, the Python side). Compiled ahead of
time into :mod:`treegen.rules._native` where the install could (see :mod:`treegen.rules.native`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True)
def walk_serial(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
            blacks: int, commons: int, steps: np.ndarray, keys: np.ndarray,
            best: float, least: float) -> None:
    _run(kind, alphabet, placed, held, blacks, commons, steps, keys, best, least, -1)


@njit(cache=True, nogil=True, parallel=True)
def walk_parallel(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
              blacks: int, commons: int, steps: np.ndarray, keys: np.ndarray,
              best: float, least: float) -> None:
    for first in prange(len(alphabet)):
        _run(kind, alphabet, placed, held, blacks, commons, steps, keys, best, least, first)


@njit(cache=True, nogil=True)
def _run(kind: int, alphabet: np.ndarray, placed: np.ndarray, held: np.ndarray,
         blacks_: int, commons_: int, steps: np.ndarray, keys: np.ndarray,
         best: float, least: float, first: int) -> None:
    """The guesses whose first symbol is ``alphabet[first]`` (all of them if ``first`` < 0),
    their keys into ``keys``. ``partial[p]``: per secret, the raw answer (blacks * ``blacks_`` +
    commons * ``commons_``) of the guess's first ``p`` positions."""
    length, count, width = placed.shape[0], placed.shape[1], len(alphabet)
    blacks, commons = np.uint8(blacks_), np.uint8(commons_)  # byte steps vectorise
    partial = np.zeros((length, count), dtype=np.uint8)
    answers = np.empty(count, dtype=np.uint8)
    row = np.zeros(256, dtype=np.int64)  # class sizes by raw answer
    copies = np.zeros(held.shape[0], dtype=np.uint8)  # of each symbol in the guess's prefix
    digit = np.zeros(length, dtype=np.int64)
    span = width ** (length - 1)
    i, end = 0, width ** length
    if first >= 0:
        digit[0] = first
        i, end = first * span, (first + 1) * span
    q = 0  # partial[q] holds the sums of the positions before q
    while True:
        for p in range(q, length - 1):
            x = alphabet[digit[p]]
            copies[x] += 1
            _step(partial[p], partial[p + 1], placed[p], held[x], x, copies[x], blacks, commons)
        before, last = partial[length - 1], placed[length - 1]
        for d in range(width):  # the last position: one guess a symbol
            x = alphabet[d]
            keys[i] = _key(kind, before, last, held[x], x, np.uint8(copies[x] + 1), blacks,
                           commons, answers, row, steps, best)
            if best >= 0.0 and keys[i] < best:
                best = keys[i]
            i += 1
            if keys[i - 1] <= least:
                keys[i:end] = np.inf
                return
        q = length - 2  # turn the odometer
        while q >= 0:
            copies[alphabet[digit[q]]] -= 1
            if q == 0 and first >= 0:
                return
            digit[q] += 1
            if digit[q] < width:
                break
            digit[q] = 0
            q -= 1
        if q < 0:
            return


#: Secrets answered between looks at a guess's key so far.
_PIECE = 256


@njit(cache=True, nogil=True, inline="always")
def _key(kind: int, before: np.ndarray, column: np.ndarray, holds: np.ndarray, x: int,
         copies: np.uint8, blacks: np.uint8, commons: np.uint8, answers: np.ndarray,
         row: np.ndarray, steps: np.ndarray, best: float) -> float:
    """The key of the guess that ends in symbol ``x`` (see :func:`_step`), its raw answers put
    in ``answers`` a piece at a time; minimax's and expected's, whole numbers, given up as
    infinite once past ``best`` (below 0: never). ``row`` is left empty."""
    count, done = len(answers), 0
    limit = np.int64(best + 0.5) if best >= 0.0 else np.int64(1) << 62
    total, found = np.int64(0), 0.0
    while done < count and total <= limit:
        end = min(count, done + _PIECE)
        if end - done == count:  # one piece: no views to make
            _step(before, answers, column, holds, x, copies, blacks, commons)
            piece = answers
        else:
            piece = answers[done:end]
            _step(before[done:end], piece, column[done:end], holds[done:end], x, copies, blacks,
                  commons)
        for f in piece:
            size = row[f]
            if kind == 1:
                total = max(total, size + 1)
            elif kind == 2:
                total += 2 * size + 1
            elif kind == 3:
                total -= size == 0
            else:
                found += steps[size]
            row[f] = size + 1
            done += 1
            if total > limit:
                break
    for j in range(done):
        row[answers[j]] = 0
    if kind == 4:
        return found
    return float(total) if total <= limit else np.inf


@njit(cache=True, nogil=True, inline="always")
def _step(before: np.ndarray, after: np.ndarray, column: np.ndarray, holds: np.ndarray, x: int,
          copies: np.uint8, blacks: np.uint8, commons: np.uint8) -> None:
    """One more position of the guess, symbol ``x`` (its ``copies``-th copy): a black peg where
    the secret has x there, a common peg where it holds at least that many x."""
    for j in range(len(before)):
        after[j] = before[j] + blacks * (column[j] == x) + commons * (holds[j] >= copies)
