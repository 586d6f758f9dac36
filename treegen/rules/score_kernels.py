"""The compiled kernels that score guesses from the codes: one branch a rule of feedback
(:func:`_answer`), counting a guess's classes or a heuristic's key as they go. The Python side,
which the kernels are called from, is :mod:`treegen.rules.code_scores`; these are compiled ahead of
time into :mod:`treegen.rules._native` where the install could (see :mod:`treegen.rules.native`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True, inline="always")
def _answer(rule: int, codes: np.ndarray, tally: np.ndarray, g: int, s: int, syms: np.ndarray,
            mult: np.ndarray, k: int, lut: np.ndarray, left: np.ndarray) -> int:
    """The feedback index of secret ``s`` to guess ``g``: pegs through ``lut`` (a, b) -> index,
    with the guess's ``k`` distinct symbols ``syms`` and their counts ``mult``; black pegs as the
    count in place; tiles as the base-3 number of grey, yellow and green (``left``: a scratch
    counter per symbol, all zero between calls)."""
    length = codes.shape[1]
    a = 0
    for p in range(length):
        if codes[g, p] == codes[s, p]:
            a += 1
    if rule == 1:
        return a
    if rule == 0:
        common = 0
        for q in range(k):
            t = tally[s, syms[q]]
            common += mult[q] if mult[q] < t else t
        return int(lut[a * (length + 1) + common - a])
    for p in range(length):  # tiles: a letter out of place is yellow while the secret has it left
        if codes[g, p] != codes[s, p]:
            left[codes[s, p]] += 1
    code = 0
    for p in range(length):
        c = codes[g, p]
        if c == codes[s, p]:
            code = code * 3 + 2
        elif left[c] > 0:
            left[c] -= 1
            code = code * 3 + 1
        else:
            code = code * 3
    for p in range(length):
        left[codes[s, p]] = 0
    return code


@njit(cache=True, nogil=True)
def _distinct(codes: np.ndarray, g: int, syms: np.ndarray, mult: np.ndarray) -> int:
    """The distinct symbols of guess ``g`` and how often each occurs; how many there are."""
    k = 0
    for p in range(codes.shape[1]):
        x = codes[g, p]
        q = 0
        while q < k and syms[q] != x:
            q += 1
        if q == k:
            syms[k] = x
            mult[k] = 0
            k += 1
        mult[q] += 1
    return k


#: Guesses a thread scores with one set of buffers.
_BLOCK = 1024
#: Sets of up to this many secrets are scored secret by secret along the guesses, a chunk of
#: this many guesses at a time.
_BY_SECRET, _CHUNK = 64, 512
#: Secrets scored between looks at a guess's key so far.
_PIECE = 512

@njit(cache=True, nogil=True, inline="always")
def beyond(total: float, best: float) -> bool:
    """Whether a key so far has passed the best by more than rounding (``best`` < 0: never)."""
    return best >= 0.0 and total > best + 1e-9 * max(1.0, abs(best))


@njit(cache=True, nogil=True, inline="always")
def _keep(kind: int, i: int, answers: np.ndarray, count: int, row: np.ndarray, steps: np.ndarray,
          sizes: np.ndarray, keys: np.ndarray) -> None:
    """Guess ``i``'s answers to the ``count`` secrets kept as :func:`scan` was asked: its class
    sizes, or its key summed class by class as each grows (:func:`_add`), so that a guess costs
    its secrets, not the answers of the game; ``row`` is left empty."""
    keys[i] = _add(kind, answers[:count], row, steps, 0.0)
    if kind == 0:
        sizes[i, :] = row
    for j in range(count):
        row[answers[j]] = 0


@njit(cache=True, nogil=True)
def lay_out(codes: np.ndarray, tally: np.ndarray, secrets: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """The secrets' symbols by position and their tallies by symbol, one row each."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    placed = np.empty((length, count), dtype=np.uint8)
    held = np.empty((width, count), dtype=np.uint8)
    for j in range(count):
        for p in range(length):
            placed[p, j] = codes[secrets[j], p]
        for x in range(width):
            held[x, j] = tally[secrets[j], x]
    return placed, held


@njit(cache=True, nogil=True)
def scan_serial(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
            guesses: np.ndarray, secrets: np.ndarray, placed: np.ndarray, held: np.ndarray,
            nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, bound: float,
            least: float = -np.inf) -> None:
    _rows(rule, kind, codes, tally, lut, guesses, 0, len(guesses), secrets, placed, held, nfb,
          steps, sizes, keys, bound, least)


@njit(cache=True, nogil=True, parallel=True)
def scan_parallel(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
              guesses: np.ndarray, secrets: np.ndarray, placed: np.ndarray, held: np.ndarray,
              nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, bound: float,
              least: float) -> None:
    for b in prange((len(guesses) + _BLOCK - 1) // _BLOCK):
        _rows(rule, kind, codes, tally, lut, guesses, b * _BLOCK,
              min(len(guesses), (b + 1) * _BLOCK), secrets, placed, held, nfb, steps, sizes, keys,
              bound, least)


@njit(cache=True, nogil=True)
def _rows(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
          guesses: np.ndarray, lo: int, hi: int, secrets: np.ndarray, placed: np.ndarray,
          held: np.ndarray, nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray,
          bound: float, least: float) -> None:
    """Guesses ``lo`` to ``hi`` scored and kept, a piece of the secrets at a time, a guess
    dropped once past the best (``bound``, see :func:`scan`; below 0: none is), the run ended
    at the first guess whose key is ``least`` (the others' keys infinite). Pegs and black
    pegs run down the secrets laid out by position and symbol in vector steps (a * (length + 1)
    + b = a * length + common); tiles score pair by pair."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    row = np.zeros(nfb, dtype=np.int64)
    if rule != 2 and count <= _BY_SECRET:
        _rows_by_secret(rule, kind, codes, tally, lut, guesses, lo, hi, secrets, row, steps, sizes,
                        keys, least)
        return
    key = np.empty(count, dtype=np.uint16)
    syms = np.empty(length, dtype=np.int64)
    mult = np.empty(length, dtype=np.int64)
    left = np.zeros(width, dtype=np.int64)
    best = bound
    for i in range(lo, hi):
        g = guesses[i]
        if rule == 2:
            k = _distinct(codes, g, syms, mult)
        total, done = 0.0, 0
        while done < count and not beyond(total, best):
            end = min(count, done + _PIECE)
            part = key[done:end]  # views from 0: the loops over them vectorise
            if rule == 2:
                for j, s in enumerate(secrets[done:end]):
                    part[j] = _answer(rule, codes, tally, g, s, syms, mult, k, lut, left)
            else:
                _pegs(rule, codes, tally, lut, g, placed[:, done:end], held[:, done:end], part)
            total = _add(kind, part, row, steps, total)
            done = end
        if kind == 0:
            sizes[i, :] = row
        if done < count or beyond(total, best):
            keys[i] = np.inf
        else:
            keys[i] = total
            if best >= 0.0 and total < best:
                best = total
        for j in range(done):
            row[key[j]] = 0
        if keys[i] <= least:
            keys[i + 1:hi] = np.inf
            return


@njit(cache=True, nogil=True, inline="always")
def _pegs(rule: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray, g: int,
          placed: np.ndarray, held: np.ndarray, key: np.ndarray) -> None:
    """Pegs (or black pegs) of code ``g`` against the codes laid out in ``placed`` and ``held``
    (as guess or as secret: pegs are symmetric), into ``key``."""
    length, width, count = codes.shape[1], tally.shape[1], len(key)
    key[:] = 0
    for p in range(length):
        symbol, column = codes[g, p], placed[p]
        for j in range(count):
            key[j] += np.uint16(length) * (column[j] == symbol)
    if rule == 0:
        for x in range(width):
            times = tally[g, x]
            if times:
                column = held[x]
                for j in range(count):
                    key[j] += min(column[j], times)
        for j in range(count):
            key[j] = lut[key[j]]
    else:
        for j in range(count):
            key[j] //= length


@njit(cache=True, nogil=True, inline="always")
def _add(kind: int, answers: np.ndarray, row: np.ndarray, steps: np.ndarray, total: float
         ) -> float:
    """Answers added to the class sizes in ``row``, and to the key so far (minimax: the largest
    class; expected: the sum of squares; parts: less one a new class; entropy: the steps of
    s ln s)."""
    for f in answers:
        size = row[f]
        if kind == 1:
            total = max(total, size + 1.0)
        elif kind == 2:
            total += 2.0 * size + 1.0
        elif kind == 3:
            total -= size == 0
        elif kind == 4:
            total += steps[size]
        row[f] = size + 1
    return total


@njit(cache=True, nogil=True)
def _rows_by_secret(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
                    guesses: np.ndarray, lo: int, hi: int, secrets: np.ndarray, row: np.ndarray,
                    steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, least: float
                    ) -> None:
    """Pegs and black pegs of a few secrets: the guesses laid out by position and symbol, a chunk
    at a time, and each secret run along them in vector steps, so that a guess costs its
    secrets and not a pass per position and symbol; the run ends as in :func:`_rows`."""
    length, width, count = codes.shape[1], tally.shape[1], len(secrets)
    placed = np.empty((length, _CHUNK), dtype=np.uint8)
    held = np.empty((width, _CHUNK), dtype=np.uint8)
    answers = np.empty((count, _CHUNK), dtype=np.uint16)
    column = np.empty(count, dtype=np.uint16)
    for start in range(lo, hi, _CHUNK):
        m = min(_CHUNK, hi - start)
        for t in range(m):
            g = guesses[start + t]
            for p in range(length):
                placed[p, t] = codes[g, p]
            for x in range(width):
                held[x, t] = tally[g, x]
        for j in range(count):  # pegs are symmetric: the secret scored against the guesses
            _pegs(rule, codes, tally, lut, secrets[j], placed[:, :m], held[:, :m], answers[j, :m])
        for t in range(m):
            for j in range(count):
                column[j] = answers[j, t]
            _keep(kind, start + t, column, count, row, steps, sizes, keys)
            if keys[start + t] <= least:
                keys[start + t + 1:hi] = np.inf
                return


@njit(cache=True, nogil=True)
def block(rule: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray, guesses: np.ndarray,
          secrets: np.ndarray) -> np.ndarray:
    """The answer of each of ``secrets`` to each of ``guesses``: (guesses, secrets) uint8."""
    out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    length, width = codes.shape[1], tally.shape[1]
    for i in range(len(guesses)):
        syms = np.empty(length, dtype=np.int64)
        mult = np.empty(length, dtype=np.int64)
        left = np.zeros(width, dtype=np.int64)
        g = guesses[i]
        k = _distinct(codes, g, syms, mult)
        for j in range(len(secrets)):
            out[i, j] = _answer(rule, codes, tally, g, secrets[j], syms, mult, k, lut, left)
    return out
