"""Scoring from the codes themselves, compiled: what a game too large for a score table reads.

A dense table of every guess against every secret grows with the square of the game (6 pegs of 7
colours: 78 GB); these kernels score a guess against the secrets it is asked about from the codes
and each code's symbol tally, so memory grows with the codes. Every rule of feedback is one branch
of :func:`_answer` (see :data:`RULES`), and the kernels agree with :data:`treegen.rules.scoring.SCORERS`
on every pair (the tests compare them). Guesses are shared among threads (numba's ``prange``).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

#: The rules of feedback these kernels score, by the number :func:`_answer` branches on.
RULES = {"pegs": 0, "black": 1, "wordle": 2}


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
#: What a scan of guesses returns for each: its class sizes, or a heuristic's key of them.
KINDS = {"counts": 0, "minimax": 1, "expected": 2, "parts": 3, "entropy": 4}


def scan(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
         guesses: np.ndarray, secrets: np.ndarray, nfb: int, steps: np.ndarray,
         best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Each guess's class sizes of ``secrets`` (``kind`` "counts": (guesses, nfb)), or only
    its key under a heuristic (:data:`KINDS`, lower is better; entropy's sum of s ln s, by the
    ``steps`` from s to s + 1), so that no row of sizes is kept. Guesses are shared among
    numba's threads where there is enough work to pay for starting them.

    ``best_only``: only the keys that may tie with the best must be exact. Minimax's and
    expected's keys only grow as secrets are added, so a guess is dropped (key infinite) as soon
    as its key so far passes the best found. The guesses that are possible secrets (they win
    ties) are scored first, or else a few spread over the pool;
    when the best of the possible secrets already reaches the least key any guess can have (all
    answers as even as can be), no other guess is scored; else the scan of a run of guesses
    ends at the first that reaches it (the later ones, in enumeration order, would lose the
    tie). Entropy's key grows too, but late:
    dropping saved it nothing (benchmarks/heuristic_keys.py), so its keys are whole."""
    rows = len(guesses) if kind == KINDS["counts"] else 0
    sizes = np.zeros((rows, nfb), dtype=np.int64)
    keys = np.zeros(len(guesses), dtype=np.float64)
    placed, held = lay_out(codes, tally, secrets)
    bound, least = -1.0, -np.inf  # no guess is dropped; the scan does not stop
    if best_only and kind in GROWING:
        least = least_key(kind, len(secrets), nfb)
        lead = np.flatnonzero(np.isin(guesses, secrets))
        first = lead if len(lead) else \
            np.unique(np.linspace(0, len(guesses) - 1, min(_SAMPLE, len(guesses))).astype(np.int64))
        found = np.zeros(len(first), dtype=np.float64)
        _serial(rule, kind, codes, tally, lut, guesses[first], secrets, placed, held, nfb, steps,
                sizes, found, np.inf)
        bound = float(found.min())
        if first is lead and bound <= least:
            keys[:] = np.inf
            keys[first] = found
            return sizes, keys
    shared = len(guesses) * len(secrets) >= PARALLEL_FROM and get_num_threads() > 1
    (_parallel if shared else _serial)(rule, kind, codes, tally, lut, guesses, secrets, placed,
                                       held, nfb, steps, sizes, keys, bound, least)
    return sizes, keys


def least_key(kind: int, count: int, nfb: int) -> float:
    """The least key any guess can have on ``count`` secrets: its answers as even as can be."""
    even, extra = divmod(count, nfb)
    if kind == 1:
        return float(even + (extra > 0))
    return float((nfb - extra) * even * even + extra * (even + 1) ** 2)


#: The heuristics whose guesses are dropped once past the best: minimax and expected.
GROWING = (1, 2)
#: Guesses scored whole first, spread over the pool, for a first best to drop others by.
_SAMPLE = 32
#: Secrets scored between looks at a guess's key so far.
_PIECE = 512


@njit(cache=True, nogil=True, inline="always")
def beyond(total: float, best: float) -> bool:
    """Whether a key so far has passed the best by more than rounding (``best`` < 0: never)."""
    return best >= 0.0 and total > best + 1e-9 * max(1.0, abs(best))


#: Pairs of (guess, secret) from which a scan is shared among threads.
PARALLEL_FROM = 1 << 20


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
def _serial(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
            guesses: np.ndarray, secrets: np.ndarray, placed: np.ndarray, held: np.ndarray,
            nfb: int, steps: np.ndarray, sizes: np.ndarray, keys: np.ndarray, bound: float,
            least: float = -np.inf) -> None:
    _rows(rule, kind, codes, tally, lut, guesses, 0, len(guesses), secrets, placed, held, nfb,
          steps, sizes, keys, bound, least)


@njit(cache=True, nogil=True, parallel=True)
def _parallel(rule: int, kind: int, codes: np.ndarray, tally: np.ndarray, lut: np.ndarray,
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


def tally_of(codes: np.ndarray, symbols: int) -> np.ndarray:
    """How often each symbol occurs in each code: (codes, symbols) uint8."""
    out = np.zeros((len(codes), symbols), dtype=np.uint8)
    rows = np.arange(len(codes))
    for p in range(codes.shape[1]):
        out[rows, codes[:, p]] += 1  # one symbol of each code a position: no index repeats
    return out
